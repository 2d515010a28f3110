//===- Context.cpp - Contexts, plugins, devices and selection -------------===//

#include "ErrorReporting.h"
#include "Objects.h"
#include "Selector.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <new>

using namespace hadron;
using namespace hadron::runtime;

namespace hadron::runtime {

hd_status forwardPluginError(hd_error *err, const hd_device *device, const char *what,
                             const hd_error &pluginErr, hd_status code) {
  return fail(err, code, "%s: %s failed: %s", device->name.c_str(), what,
              pluginErr.message[0] ? pluginErr.message : "(the plugin gave no message)");
}

} // namespace hadron::runtime

namespace {
/// Initialises the runtime parts and lists their devices (ensureDevices).
void findDevices(hd_context &ctx) {
  for (auto &plugin : ctx.plugins)
    initPlugin(*plugin, ctx.report);

  for (auto &plugin : ctx.plugins) {
    for (uint32_t i = 0; i < plugin->deviceCount; ++i) {
      auto device = std::make_unique<hd_device>();
      device->context = &ctx;
      device->plugin = plugin.get();
      device->index = i;
      device->name = plugin->name + ":" + std::to_string(i);
      device->info.struct_size = sizeof(hd_device_info);
      hd_error pluginErr;
      clearError(&pluginErr);
      if (plugin->runtime->device_info(i, &device->info, &pluginErr) != HD_OK) {
        ctx.report.push_back({plugin->path, plugin->name, pluginErr.code,
                             device->name + ": device_info failed: " + pluginErr.message});
        continue;
      }
      device->info.struct_size = sizeof(hd_device_info);
      ctx.devices.push_back(std::move(device));
    }
  }
}
} // namespace

void hadron::runtime::ensureDevices(const hd_context &constCtx) {
  // Logically const: what a context finds is fixed, only found late.
  hd_context &ctx = const_cast<hd_context &>(constCtx);
  std::call_once(ctx.devicesFound, [&ctx] {
    // Called from the C API, which must not throw: out of host memory, the
    // devices found so far are all there are.
    try {
      findDevices(ctx);
    } catch (const std::bad_alloc &) {
    }
  });
}

extern "C" {

const char *hd_status_name(hd_status status) {
  switch (status) {
  case HD_OK: return "HD_OK";
  case HD_ERROR_INVALID_ARGUMENT: return "HD_ERROR_INVALID_ARGUMENT";
  case HD_ERROR_NO_DEVICE: return "HD_ERROR_NO_DEVICE";
  case HD_ERROR_DRIVER_MISSING: return "HD_ERROR_DRIVER_MISSING";
  case HD_ERROR_OUT_OF_MEMORY: return "HD_ERROR_OUT_OF_MEMORY";
  case HD_ERROR_COMPILE: return "HD_ERROR_COMPILE";
  case HD_ERROR_LAUNCH: return "HD_ERROR_LAUNCH";
  case HD_ERROR_UNSUPPORTED: return "HD_ERROR_UNSUPPORTED";
  case HD_ERROR_INTERNAL: return "HD_ERROR_INTERNAL";
  }
  return "HD_ERROR_UNKNOWN";
}

const char *hd_arg_kind_name(hd_arg_kind kind) {
  switch (kind) {
  case HD_ARG_PTR: return "ptr";
  case HD_ARG_I1: return "i1";
  case HD_ARG_I8: return "i8";
  case HD_ARG_I16: return "i16";
  case HD_ARG_I32: return "i32";
  case HD_ARG_I64: return "i64";
  case HD_ARG_F16: return "f16";
  case HD_ARG_BF16: return "bf16";
  case HD_ARG_F32: return "f32";
  case HD_ARG_F64: return "f64";
  case HD_ARG_TENSOR_DESC: return "tensor_desc";
  }
  return "?";
}

hd_status hd_context_create(hd_context **out, hd_error *err) {
  clearError(err);
  if (!out)
    return fail(err, HD_ERROR_INVALID_ARGUMENT, "hd_context_create: out is NULL");
  *out = nullptr;
  try {
    auto ctx = std::make_unique<hd_context>();
    LoadResult loaded = loadPlugins(pluginSearchDirs());
    ctx->plugins = std::move(loaded.plugins);
    ctx->report = std::move(loaded.report);
    ctx->searchedDirs = std::move(loaded.searchedDirs);
    *out = ctx.release();
    return HD_OK;
  } catch (const std::bad_alloc &) {
    return fail(err, HD_ERROR_OUT_OF_MEMORY, "hd_context_create: out of host memory");
  }
}

void hd_context_destroy(hd_context *ctx) {
  if (!ctx)
    return;
  for (hd_event *e : ctx->events)
    releaseEvent(e);
  for (hd_module *m : ctx->modules)
    releaseModule(m);
  for (hd_buffer *b : ctx->buffers)
    releaseBuffer(b);
  delete ctx;
}

uint32_t hd_context_load_report_count(const hd_context *ctx) {
  if (!ctx)
    return 0;
  ensureDevices(*ctx);
  return static_cast<uint32_t>(ctx->report.size());
}

hd_status hd_context_load_report_get(const hd_context *ctx, uint32_t index,
                                     hd_load_record *out, hd_error *err) {
  clearError(err);
  if (!ctx || !out)
    return fail(err, HD_ERROR_INVALID_ARGUMENT, "hd_context_load_report_get: NULL argument");
  ensureDevices(*ctx);
  if (index >= ctx->report.size())
    return fail(err, HD_ERROR_INVALID_ARGUMENT, "load report index %u out of range (%zu records)",
                index, ctx->report.size());
  const LoadRecord &r = ctx->report[index];
  out->path = r.path.c_str();
  out->plugin = r.plugin.empty() ? nullptr : r.plugin.c_str();
  out->code = r.code;
  out->reason = r.reason.c_str();
  return HD_OK;
}

uint32_t hd_context_search_dir_count(const hd_context *ctx) {
  return ctx ? static_cast<uint32_t>(ctx->searchedDirs.size()) : 0;
}

const char *hd_context_search_dir(const hd_context *ctx, uint32_t index) {
  if (!ctx || index >= ctx->searchedDirs.size())
    return nullptr;
  return ctx->searchedDirs[index].c_str();
}

uint32_t hd_context_plugin_count(const hd_context *ctx) {
  return ctx ? static_cast<uint32_t>(ctx->plugins.size()) : 0;
}

hd_status hd_context_plugin_info(const hd_context *ctx, uint32_t index, hd_plugin_info *out,
                                 hd_error *err) {
  clearError(err);
  if (!ctx || !out)
    return fail(err, HD_ERROR_INVALID_ARGUMENT, "hd_context_plugin_info: NULL argument");
  ensureDevices(*ctx);
  if (index >= ctx->plugins.size())
    return fail(err, HD_ERROR_INVALID_ARGUMENT, "plugin index %u out of range (%zu plugins)",
                index, ctx->plugins.size());
  const Plugin &p = *ctx->plugins[index];
  out->name = p.name.c_str();
  out->path = p.path.c_str();
  out->abi_major = p.abiMajor;
  out->abi_minor = p.abiMinor;
  out->default_arch = p.defaultArch.c_str();
  out->archs = p.archPtrs.data();
  out->compiler_library = p.compilerPath.empty() ? nullptr : p.compilerPath.c_str();
  out->init_status = p.initStatus;
  out->device_count = p.deviceCount;
  return HD_OK;
}

uint32_t hd_context_device_count(const hd_context *ctx) {
  if (!ctx)
    return 0;
  ensureDevices(*ctx);
  return static_cast<uint32_t>(ctx->devices.size());
}

hd_status hd_context_get_device(const hd_context *ctx, uint32_t index, hd_device **out,
                                hd_error *err) {
  clearError(err);
  if (!ctx || !out)
    return fail(err, HD_ERROR_INVALID_ARGUMENT, "hd_context_get_device: NULL argument");
  ensureDevices(*ctx);
  if (index >= ctx->devices.size())
    return fail(err, HD_ERROR_INVALID_ARGUMENT, "device index %u out of range (%zu devices)",
                index, ctx->devices.size());
  *out = ctx->devices[index].get();
  return HD_OK;
}

const char *hd_device_name(const hd_device *device) {
  return device ? device->name.c_str() : nullptr;
}

const char *hd_device_plugin_name(const hd_device *device) {
  return device ? device->plugin->name.c_str() : nullptr;
}

uint32_t hd_device_index(const hd_device *device) { return device ? device->index : 0; }

hd_status hd_device_get_info(const hd_device *device, hd_device_info *out, hd_error *err) {
  clearError(err);
  if (!device || !out)
    return fail(err, HD_ERROR_INVALID_ARGUMENT, "hd_device_get_info: NULL argument");
  *out = device->info;
  return HD_OK;
}

hd_status hd_selector_validate(const char *selector, hd_error *err) {
  clearError(err);
  if (!selector)
    return fail(err, HD_ERROR_INVALID_ARGUMENT, "hd_selector_validate: selector is NULL");
  Expected<Selector> parsed = parseSelector(selector);
  return parsed ? HD_OK : failWith(err, parsed.status().code(), parsed.status().message());
}

} // extern "C"

namespace {

// Why `vendor` has no usable device, from the plugin list and load report.
std::string whyNoDevice(const hd_context &ctx, const std::string &vendor,
                        const Selector &selector) {
  for (const auto &p : ctx.plugins) {
    if (p->name != vendor)
      continue;
    if (p->deviceCount == 0) {
      for (const LoadRecord &r : ctx.report)
        if (r.plugin == vendor)
          return vendor + ": " + r.reason;
      return vendor + ": no device";
    }
    return vendor + ": has " + std::to_string(p->deviceCount) + " device(s), " + vendor +
           ":0.." + vendor + ":" + std::to_string(p->deviceCount - 1) +
           (selector.exclusions.empty() ? "" : ", none both chosen and not excluded");
  }
  std::string fileName = "libhadron-target-" + vendor + ".so";
  for (const LoadRecord &r : ctx.report) {
    bool sameFile = r.path.size() >= fileName.size() &&
                    r.path.compare(r.path.size() - fileName.size(), fileName.size(),
                                   fileName) == 0;
    if (r.plugin == vendor || (r.plugin.empty() && sameFile))
      return vendor + ": " + r.reason + " (" + r.path + ")";
  }
  std::string dirs;
  for (const std::string &d : ctx.searchedDirs)
    dirs += (dirs.empty() ? "" : ", ") + d;
  return vendor + ": no plugin named '" + vendor + "' was found (searched: " +
         (dirs.empty() ? std::string("no directory") : dirs) + ")";
}

std::string explainNoMatch(const hd_context &ctx, const std::string &text,
                           const Selector &selector) {
  std::string msg = "no device matches selector '" + text + "'";
  std::vector<std::string> vendors;
  bool hasAuto = false;
  for (const SelectorTerm &t : selector.choices) {
    if (t.kind == SelectorTerm::Kind::Auto)
      hasAuto = true;
    else if (std::find(vendors.begin(), vendors.end(), t.vendor) == vendors.end())
      vendors.push_back(t.vendor);
  }
  for (const std::string &v : vendors)
    msg += "\n  " + whyNoDevice(ctx, v, selector);
  if (hasAuto)
    for (const LoadRecord &r : ctx.report)
      msg += "\n  " + (r.plugin.empty() ? r.path : r.plugin) + ": " + r.reason;

  std::string devices;
  for (const auto &d : ctx.devices)
    devices += (devices.empty() ? "" : ", ") + d->name;
  msg += "\n  devices present: " + (devices.empty() ? std::string("none") : devices);
  return msg;
}

} // namespace

extern "C" hd_status hd_context_select(hd_context *ctx, const char *selector, hd_device **out,
                                       hd_error *err) {
  clearError(err);
  if (!ctx || !out)
    return fail(err, HD_ERROR_INVALID_ARGUMENT, "hd_context_select: NULL argument");
  *out = nullptr;
  std::string text = selector ? selector : "";
  if (text.empty()) {
    const char *env = std::getenv("HADRON_DEVICE");
    text = env && *env ? env : "auto";
  }
  Expected<Selector> parsed = parseSelector(text);
  if (!parsed)
    return failWith(err, parsed.status().code(), parsed.status().message());
  ensureDevices(*ctx);

  std::vector<Candidate> candidates;
  for (const auto &d : ctx->devices)
    candidates.push_back({d->plugin->name, d->index});
  std::optional<size_t> match = matchSelector(*parsed, candidates);
  if (!match)
    return failWith(err, HD_ERROR_NO_DEVICE, explainNoMatch(*ctx, text, *parsed));
  *out = ctx->devices[*match].get();
  return HD_OK;
}
