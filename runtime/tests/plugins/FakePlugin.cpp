//===- FakePlugin.cpp - Plugins for the loader tests ----------------------===//
//
// One source, built several ways (see CMakeLists.txt):
//   FAKE_NAME        the descriptor's name;
//   FAKE_ABI_MAJOR   the ABI major it claims (default: this one);
//   FAKE_INIT_FAILS  init returns HD_ERROR_DRIVER_MISSING;
//   FAKE_NO_ENTRY    hadron_plugin_entry is not exported.
// The good one has two devices whose memory is host memory; its launch runs
// nothing and counts.
//
//===----------------------------------------------------------------------===//

#include "hadron/plugin/plugin.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#ifndef FAKE_ABI_MAJOR
#define FAKE_ABI_MAJOR HADRON_PLUGIN_ABI_MAJOR
#endif

struct hd_plugin_module {
  std::vector<char> bytes;
};
struct hd_plugin_event {
  std::chrono::steady_clock::time_point at;
};

namespace {

hd_status fakeFail(hd_error *err, hd_status code, const char *message) {
  if (err) {
    err->code = code;
    std::snprintf(err->message, sizeof(err->message), "%s", message);
  }
  return code;
}

hd_status fakeInit(hd_error *err) {
#ifdef FAKE_INIT_FAILS
  return fakeFail(err, HD_ERROR_DRIVER_MISSING, "fake-driver: libfake.so.1 not found");
#else
  return HD_OK;
#endif
}

uint32_t fakeDeviceCount() { return 2; }

hd_status fakeDeviceInfo(uint32_t device, hd_device_info *info, hd_error *err) {
  if (device >= 2)
    return fakeFail(err, HD_ERROR_INVALID_ARGUMENT, "fake has devices 0 and 1");
  std::snprintf(info->name, sizeof(info->name), "fake device %u", device);
  std::snprintf(info->arch, sizeof(info->arch), "fake1");
  info->warp_size = 32;
  info->max_threads_per_cta = 256;
  info->shared_bytes_per_cta = 4096;
  info->global_bytes = 1u << 30;
  info->compute_units = 4;
  return HD_OK;
}

hd_status fakeAlloc(uint32_t, uint64_t bytes, hd_device_ptr *out, hd_error *err) {
  void *p = std::malloc(bytes ? bytes : 1);
  if (!p)
    return fakeFail(err, HD_ERROR_OUT_OF_MEMORY, "fake: malloc failed");
  *out = reinterpret_cast<hd_device_ptr>(p);
  return HD_OK;
}

hd_status fakeFree(uint32_t, hd_device_ptr ptr, hd_error *) {
  std::free(reinterpret_cast<void *>(ptr));
  return HD_OK;
}

hd_status fakeToDevice(uint32_t, hd_device_ptr dst, const void *src, uint64_t n, hd_error *) {
  std::memcpy(reinterpret_cast<void *>(dst), src, n);
  return HD_OK;
}

hd_status fakeToHost(uint32_t, void *dst, hd_device_ptr src, uint64_t n, hd_error *) {
  std::memcpy(dst, reinterpret_cast<const void *>(src), n);
  return HD_OK;
}

hd_status fakeLoad(uint32_t, const void *binary, uint64_t size, hd_plugin_module **out,
                   hd_error *) {
  auto *m = new hd_plugin_module;
  m->bytes.assign(static_cast<const char *>(binary), static_cast<const char *>(binary) + size);
  *out = m;
  return HD_OK;
}

hd_status fakeUnload(hd_plugin_module *m, hd_error *) {
  delete m;
  return HD_OK;
}

hd_status fakeLaunch(hd_plugin_module *, const hd_kernel_signature *, const uint32_t *,
                     const hd_arg *, uint64_t, hd_error *) {
  return HD_OK;
}

hd_status fakeSync(uint32_t, hd_error *) { return HD_OK; }

hd_status fakeEventCreate(uint32_t, hd_plugin_event **out, hd_error *) {
  *out = new hd_plugin_event;
  return HD_OK;
}

hd_status fakeEventRecord(hd_plugin_event *e, hd_error *) {
  e->at = std::chrono::steady_clock::now();
  return HD_OK;
}

hd_status fakeEventElapsed(hd_plugin_event *a, hd_plugin_event *b, float *ms, hd_error *) {
  *ms = std::chrono::duration<float, std::milli>(b->at - a->at).count();
  return HD_OK;
}

hd_status fakeEventDestroy(hd_plugin_event *e, hd_error *) {
  delete e;
  return HD_OK;
}

const hd_runtime_table kTable = {
    sizeof(hd_runtime_table), fakeInit,        fakeDeviceCount, fakeDeviceInfo,
    fakeAlloc,                fakeFree,        fakeToDevice,    fakeToHost,
    fakeLoad,                 fakeUnload,      fakeLaunch,      fakeSync,
    fakeEventCreate,          fakeEventRecord, fakeEventElapsed, fakeEventDestroy,
};

const char *const kArchs[] = {"fake1", nullptr};

const hd_plugin_descriptor kDescriptor = {
    sizeof(hd_plugin_descriptor), FAKE_ABI_MAJOR, 0, FAKE_NAME, "fake1", kArchs,
    "libhadron-target-" FAKE_NAME "-compiler.so", &kTable,
};

} // namespace

#ifdef FAKE_NO_ENTRY
extern "C" HADRON_PLUGIN_EXPORT const hd_plugin_descriptor *some_other_symbol(void) {
  return &kDescriptor;
}
#else
extern "C" HADRON_PLUGIN_EXPORT const hd_plugin_descriptor *hadron_plugin_entry(void) {
  return &kDescriptor;
}
#endif
