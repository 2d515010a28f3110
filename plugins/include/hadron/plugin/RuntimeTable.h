//===- RuntimeTable.h - What every runtime table's functions repeat -*- C++ -*-===//
//
// Helpers for implementing the hd_runtime_table and descriptor of plugin.h:
// filling an hd_error, answering device_info for whatever struct_size the
// caller was built with, and the descriptor from a model table. Header-only and
// free of LLVM, for runtime parts in and out of Hadron's tree.
//
//===----------------------------------------------------------------------===//
#ifndef HADRON_PLUGIN_RUNTIMETABLE_H
#define HADRON_PLUGIN_RUNTIMETABLE_H

#include "hadron/plugin/plugin.h"

#include <algorithm>
#include <cstdarg>
#include <cstddef>
#include <cstdio>
#include <cstring>
#include <vector>

namespace hadron::plugin {

/// Writes `code` and the printf-formatted message (truncated to fit) into
/// `err`, which may be NULL, and returns `code`.
inline hd_status fail(hd_error *err, hd_status code, const char *format, ...)
    __attribute__((format(printf, 3, 4)));

inline hd_status fail(hd_error *err, hd_status code, const char *format, ...) {
  if (err) {
    err->code = code;
    va_list ap;
    va_start(ap, format);
    std::vsnprintf(err->message, sizeof(err->message), format, ap);
    va_end(ap);
  }
  return code;
}

/// device_info's answer: copies the bytes of `device` that lie inside the
/// caller's `info->struct_size` (a newer ABI minor only appends fields) and
/// leaves struct_size as the caller set it. An `info` that is NULL or
/// smaller than ABI 1.0's is refused.
inline hd_status copyDeviceInfo(const hd_device_info &device, hd_device_info *info,
                                hd_error *err) {
  constexpr size_t kAbi10Size = offsetof(hd_device_info, l1_bytes);
  if (!info || info->struct_size < kAbi10Size)
    return fail(err, HD_ERROR_INVALID_ARGUMENT,
                "device_info: struct_size %u is smaller than ABI 1.0's %zu",
                info ? info->struct_size : 0, kAbi10Size);
  const uint32_t callerSize = info->struct_size;
  std::memcpy(info, &device, std::min<size_t>(callerSize, sizeof(hd_device_info)));
  info->struct_size = callerSize;
  return HD_OK;
}

/// The descriptor's `archs`: the `arch` name of each model, in order (the
/// first is the default), then NULL.
template <typename Models> std::vector<const char *> archNames(const Models &models) {
  std::vector<const char *> names;
  for (const auto &model : models)
    names.push_back(model.arch);
  names.push_back(nullptr);
  return names;
}

/// The descriptor of a plugin whose archs are the `arch` names of `models`
/// (the first is the default). The arch list lives in a static of this
/// function: call it for the plugin's one descriptor only.
template <typename Models>
const hd_plugin_descriptor &modelDescriptor(const char *name, const Models &models,
                                            const char *compilerLibrary,
                                            const hd_runtime_table &table) {
  static const std::vector<const char *> archs = archNames(models);
  static const hd_plugin_descriptor descriptor = {
      sizeof(hd_plugin_descriptor),
      HADRON_PLUGIN_ABI_MAJOR,
      HADRON_PLUGIN_ABI_MINOR,
      name,
      archs.front(),
      archs.data(),
      compilerLibrary,
      &table,
  };
  return descriptor;
}

} // namespace hadron::plugin

#endif // HADRON_PLUGIN_RUNTIMETABLE_H
