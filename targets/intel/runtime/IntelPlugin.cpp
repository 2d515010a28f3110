//===- IntelPlugin.cpp - The Intel plugin's entry and device list ---------===//
//
// intel:0, intel:1, ... are, in this order:
//   1. Level Zero GPUs;
//   2. OpenCL GPUs that take SPIR-V, except Intel's when Level Zero listed
//      them (the same hardware);
//   3. OpenCL CPU devices that take SPIR-V (Intel's CPU runtime), only when
//      HADRON_INTEL_OPENCL_CPU=1. The plugin ABI has no device kind yet, so
//      the runtime's `auto` would rank such a device above the host target;
//      listing CPUs only on request keeps `auto` on the host.
// HADRON_INTEL_DRIVER=levelzero or =opencl uses one driver only.
//
//===----------------------------------------------------------------------===//

#include "IntelModel.h"
#include "IntelRuntime.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace hadron::intel {

hd_status DeviceImpl::checkLaunch(const hd_kernel_signature &signature, const uint32_t grid[3],
                                  uint64_t dynamicSharedBytes, uint64_t &threads,
                                  uint64_t &localBytes, hd_error *err) const {
  threads = uint64_t(signature.num_warps) * signature.warp_size;
  if (threads == 0 || threads > info.max_threads_per_cta)
    return fail(err, HD_ERROR_INVALID_ARGUMENT,
                "%s: %u warps of %u work-items is not a work-group size intel:%u can launch "
                "(1..%u)",
                signature.name, signature.num_warps, signature.warp_size, index,
                info.max_threads_per_cta);
  for (int d = 0; d < 3; ++d)
    if (grid[d] == 0)
      return fail(err, HD_ERROR_INVALID_ARGUMENT, "%s: grid[%d] is 0", signature.name, d);
  localBytes = signature.static_shared_bytes + dynamicSharedBytes;
  if (localBytes > info.shared_bytes_per_cta)
    return fail(err, HD_ERROR_INVALID_ARGUMENT,
                "%s: %llu planned + %llu dynamic shared bytes exceed the %llu bytes of local "
                "memory of intel:%u",
                signature.name, static_cast<unsigned long long>(signature.static_shared_bytes),
                static_cast<unsigned long long>(dynamicSharedBytes),
                static_cast<unsigned long long>(info.shared_bytes_per_cta), index);
  return HD_OK;
}

hd_status DeviceImpl::assertOutcome(unsigned char (&report)[kAssertStatusBytes], bool &clear,
                                    hd_error *err) const {
  int32_t flag = 0;
  std::memcpy(&flag, report, 4);
  clear = flag != 0;
  if (!clear)
    return HD_OK;
  report[kAssertStatusBytes - 1] = 0;
  return fail(err, HD_ERROR_LAUNCH, "intel:%u: a kernel's hd.assert failed: %s", index,
              reinterpret_cast<const char *>(report + 4));
}

namespace {

struct State {
  hd_status status = HD_OK;
  std::string message;
  std::vector<std::unique_ptr<DeviceImpl>> devices;
};

bool envIs(const char *name, const char *value) {
  const char *v = std::getenv(name);
  return v && std::strcmp(v, value) == 0;
}

State initialize() {
  State s;
  const char *driver = std::getenv("HADRON_INTEL_DRIVER");
  std::string only = driver ? driver : "";
  if (!only.empty() && only != "levelzero" && only != "opencl") {
    s.status = HD_ERROR_INVALID_ARGUMENT;
    s.message = "intel: HADRON_INTEL_DRIVER='" + only + "' is not 'levelzero' or 'opencl'";
    return s;
  }
  Discovery ze, cl;
  if (only != "opencl")
    ze = discoverLevelZero();
  else
    ze.status = HD_ERROR_NO_DEVICE, ze.why = "Level Zero: not used (HADRON_INTEL_DRIVER=opencl)";
  unsigned hiddenCpus = 0;
  if (only != "levelzero")
    cl = discoverOpenCl(!ze.devices.empty(), envIs("HADRON_INTEL_OPENCL_CPU", "1"), hiddenCpus);
  else
    cl.status = HD_ERROR_NO_DEVICE, cl.why = "OpenCL: not used (HADRON_INTEL_DRIVER=levelzero)";
  for (Discovery *d : {&ze, &cl})
    for (auto &device : d->devices) {
      device->index = static_cast<uint32_t>(s.devices.size());
      s.devices.push_back(std::move(device));
    }
  if (!s.devices.empty())
    return s;
  bool bothMissing = ze.status == HD_ERROR_DRIVER_MISSING && cl.status == HD_ERROR_DRIVER_MISSING;
  s.status = bothMissing ? HD_ERROR_DRIVER_MISSING : HD_ERROR_NO_DEVICE;
  s.message = std::string("intel: ") + (bothMissing ? "no driver" : "no device") + " (" +
              ze.why + "; " + cl.why + ")";
  if (hiddenCpus)
    s.message += "; " + std::to_string(hiddenCpus) +
                 " OpenCL CPU device(s) that take SPIR-V are listed with HADRON_INTEL_OPENCL_CPU=1";
  return s;
}

const State &state() {
  static const State s = initialize();
  return s;
}

DeviceImpl *deviceAt(uint32_t device, const char *call, hd_error *err) {
  const State &s = state();
  if (s.status != HD_OK) {
    fail(err, s.status, "%s: %s", call, s.message.c_str());
    return nullptr;
  }
  if (device >= s.devices.size()) {
    fail(err, HD_ERROR_INVALID_ARGUMENT, "%s: intel has %zu device(s), got device %u", call,
         s.devices.size(), device);
    return nullptr;
  }
  return s.devices[device].get();
}

#define HD_DEVICE_OR_FAIL(d, device, call)                                                       \
  DeviceImpl *d = deviceAt(device, call, err);                                                 \
  if (!d)                                                                                      \
    return err ? err->code : HD_ERROR_INVALID_ARGUMENT;

hd_status intelInit(hd_error *err) {
  const State &s = state();
  if (s.status != HD_OK)
    return fail(err, s.status, "%s", s.message.c_str());
  return HD_OK;
}

uint32_t intelDeviceCount() { return static_cast<uint32_t>(state().devices.size()); }

hd_status intelDeviceInfo(uint32_t device, hd_device_info *info, hd_error *err) {
  HD_DEVICE_OR_FAIL(d, device, "device_info");
  return plugin::copyDeviceInfo(d->info, info, err);
}

hd_status intelMemAlloc(uint32_t device, uint64_t bytes, hd_device_ptr *out, hd_error *err) {
  HD_DEVICE_OR_FAIL(d, device, "mem_alloc");
  if (!out)
    return fail(err, HD_ERROR_INVALID_ARGUMENT, "mem_alloc: out is NULL");
  return d->memAlloc(bytes, out, err);
}

hd_status intelMemFree(uint32_t device, hd_device_ptr ptr, hd_error *err) {
  HD_DEVICE_OR_FAIL(d, device, "mem_free");
  return d->memFree(ptr, err);
}

hd_status intelCopyToDevice(uint32_t device, hd_device_ptr dst, const void *src, uint64_t bytes,
                            hd_error *err) {
  HD_DEVICE_OR_FAIL(d, device, "copy_to_device");
  return d->copyToDevice(dst, src, bytes, err);
}

hd_status intelCopyToHost(uint32_t device, void *dst, hd_device_ptr src, uint64_t bytes,
                          hd_error *err) {
  HD_DEVICE_OR_FAIL(d, device, "copy_to_host");
  return d->copyToHost(dst, src, bytes, err);
}

hd_status intelModuleLoad(uint32_t device, const void *binary, uint64_t size,
                          hd_plugin_module **out, hd_error *err) {
  HD_DEVICE_OR_FAIL(d, device, "module_load");
  if (!binary || size == 0 || !out)
    return fail(err, HD_ERROR_INVALID_ARGUMENT, "module_load: empty binary or NULL out");
  if (size % 4 || reinterpret_cast<const unsigned char *>(binary)[0] != 0x03 ||
      reinterpret_cast<const unsigned char *>(binary)[3] != 0x07)
    return fail(err, HD_ERROR_INVALID_ARGUMENT,
                "module_load: %llu bytes that are not a SPIR-V module (magic 0x07230203)",
                static_cast<unsigned long long>(size));
  return d->moduleLoad(binary, size, out, err);
}

hd_status intelModuleUnload(hd_plugin_module *module, hd_error *err) {
  if (!module)
    return HD_OK;
  HD_DEVICE_OR_FAIL(d, module->device, "module_unload");
  return d->moduleUnload(module, err);
}

hd_status intelLaunch(hd_plugin_module *module, const hd_kernel_signature *signature,
                      const uint32_t grid[3], const hd_arg *args, uint64_t dynamicSharedBytes,
                      hd_error *err) {
  if (!module || !signature || !grid)
    return fail(err, HD_ERROR_INVALID_ARGUMENT, "launch: NULL module, signature or grid");
  HD_DEVICE_OR_FAIL(d, module->device, "launch");
  return d->launch(module, signature, grid, args, dynamicSharedBytes, err);
}

hd_status intelSynchronize(uint32_t device, hd_error *err) {
  HD_DEVICE_OR_FAIL(d, device, "synchronize");
  return d->synchronize(err);
}

hd_status intelEventCreate(uint32_t device, hd_plugin_event **out, hd_error *err) {
  HD_DEVICE_OR_FAIL(d, device, "event_create");
  if (!out)
    return fail(err, HD_ERROR_INVALID_ARGUMENT, "event_create: out is NULL");
  return d->eventCreate(out, err);
}

hd_status intelEventRecord(hd_plugin_event *event, hd_error *err) {
  if (!event)
    return fail(err, HD_ERROR_INVALID_ARGUMENT, "event_record: NULL event");
  HD_DEVICE_OR_FAIL(d, event->device, "event_record");
  return d->eventRecord(event, err);
}

hd_status intelEventElapsedMs(hd_plugin_event *start, hd_plugin_event *end, float *ms,
                              hd_error *err) {
  if (!start || !end || !ms)
    return fail(err, HD_ERROR_INVALID_ARGUMENT, "event_elapsed_ms: NULL argument");
  if (!start->recorded || !end->recorded)
    return fail(err, HD_ERROR_INVALID_ARGUMENT, "event_elapsed_ms: the %s event was never recorded",
                start->recorded ? "end" : "start");
  if (start->device != end->device)
    return fail(err, HD_ERROR_INVALID_ARGUMENT, "event_elapsed_ms: events of intel:%u and intel:%u",
                start->device, end->device);
  HD_DEVICE_OR_FAIL(d, end->device, "event_elapsed_ms");
  return d->eventElapsedMs(start, end, ms, err);
}

hd_status intelEventDestroy(hd_plugin_event *event, hd_error *err) {
  if (!event)
    return HD_OK;
  HD_DEVICE_OR_FAIL(d, event->device, "event_destroy");
  return d->eventDestroy(event, err);
}

const hd_runtime_table kRuntimeTable = {
    sizeof(hd_runtime_table), intelInit,          intelDeviceCount,  intelDeviceInfo,
    intelMemAlloc,            intelMemFree,       intelCopyToDevice, intelCopyToHost,
    intelModuleLoad,          intelModuleUnload,  intelLaunch,       intelSynchronize,
    intelEventCreate,         intelEventRecord,   intelEventElapsedMs, intelEventDestroy,
};

const char *const *archList() {
  static const std::vector<const char *> archs = plugin::archNames(archModels());
  return archs.data();
}

const hd_plugin_descriptor &descriptor() {
  static const hd_plugin_descriptor d = {
      sizeof(hd_plugin_descriptor),
      HADRON_PLUGIN_ABI_MAJOR,
      HADRON_PLUGIN_ABI_MINOR,
      "intel",
      archModels().front().arch,
      archList(),
      "libhadron-target-intel-compiler.so",
      &kRuntimeTable,
  };
  return d;
}

} // namespace
} // namespace hadron::intel

extern "C" HADRON_PLUGIN_EXPORT const hd_plugin_descriptor *hadron_plugin_entry(void) {
  return &hadron::intel::descriptor();
}
