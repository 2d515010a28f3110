//===- AmdRuntime.h - The AMD plugin's runtime table, internally -*- C++ -*-===//
//
// The AMD target runs HSACO code objects through HIP's module API on the
// null stream of each device, so launches, copies and events on one device
// are ordered. Each device is an AmdDevice, to which the SDK's DeviceTable
// dispatches the runtime table's functions; AmdPlugin.cpp has memory and
// events, AmdLaunch.cpp code objects and launches.
//
//===----------------------------------------------------------------------===//
#ifndef HADRON_TARGETS_AMD_RUNTIME_AMDRUNTIME_H
#define HADRON_TARGETS_AMD_RUNTIME_AMDRUNTIME_H

#include "HipApi.h"

#include "hadron/plugin/DeviceTable.h"
#include "hadron/plugin/RuntimeTable.h"

namespace hadron::amd {

using plugin::fail;

/// HD_OK when `code` is hipSuccess, else an error naming `call`, the device
/// and HIP's error name (HD_ERROR_OUT_OF_MEMORY for hipErrorOutOfMemory).
hd_status check(const HipApi &hip, hipError_t code, const char *call, uint32_t device,
                hd_error *err, hd_status otherwise = HD_ERROR_INTERNAL);

/// HIP device `index`.
class AmdDevice : public plugin::Device {
public:
  explicit AmdDevice(const HipApi &hip) : hip(hip) {}

  hd_status memAlloc(uint64_t bytes, hd_device_ptr *out, hd_error *err) override;
  hd_status memFree(hd_device_ptr ptr, hd_error *err) override;
  hd_status copyToDevice(hd_device_ptr dst, const void *src, uint64_t bytes,
                         hd_error *err) override;
  hd_status copyToHost(void *dst, hd_device_ptr src, uint64_t bytes, hd_error *err) override;
  hd_status moduleLoad(const void *binary, uint64_t size, hd_plugin_module **out,
                       hd_error *err) override;
  hd_status moduleUnload(hd_plugin_module *module, hd_error *err) override;
  hd_status launch(hd_plugin_module *module, const hd_kernel_signature *signature,
                   const uint32_t grid[3], const hd_arg *args, uint64_t dynamicSharedBytes,
                   hd_error *err) override;
  hd_status synchronize(hd_error *err) override;
  hd_status eventCreate(hd_plugin_event **out, hd_error *err) override;
  hd_status eventRecord(hd_plugin_event *event, hd_error *err) override;
  hd_status eventElapsedMs(hd_plugin_event *start, hd_plugin_event *end, float *ms,
                           hd_error *err) override;
  hd_status eventDestroy(hd_plugin_event *event, hd_error *err) override;

private:
  /// Makes this device HIP's current one, for `call`.
  hd_status makeCurrent(const char *call, hd_error *err) const;
  /// check() for this device.
  hd_status check(hipError_t code, const char *call, hd_error *err,
                  hd_status otherwise = HD_ERROR_INTERNAL) const {
    return amd::check(hip, code, call, index, err, otherwise);
  }

  const HipApi &hip;
};

} // namespace hadron::amd

#endif // HADRON_TARGETS_AMD_RUNTIME_AMDRUNTIME_H
