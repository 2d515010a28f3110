//===- NvidiaRuntime.h - The NVIDIA plugin's devices, internally -*- C++ -*-===//
//
// Each GPU the driver reports is an NvidiaDevice (its primary context, its
// hd_device_info and the launch limits kept beside it), to which the SDK's
// DeviceTable dispatches the runtime table's functions. NvidiaPlugin.cpp
// finds the devices and has memory and events, NvidiaModule.cpp modules
// and launches.
//
// Every CUDA call goes through check(), which turns a failing CUresult into
// an hd_status and a message naming the call, the driver's error name and
// description, and what was being done.
//
//===----------------------------------------------------------------------===//
#ifndef HADRON_TARGETS_NVIDIA_RUNTIME_NVIDIARUNTIME_H
#define HADRON_TARGETS_NVIDIA_RUNTIME_NVIDIARUNTIME_H

#include "CudaDriver.h"

#include "hadron/plugin/DeviceTable.h"
#include "hadron/plugin/RuntimeTable.h"

#include <string>

namespace hadron::nvidia {

using plugin::fail;

/// HD_OK when `result` is CUDA_SUCCESS; else fills `err` with
/// "<context>: <call>: <CUDA_ERROR_NAME> (<description>)" and returns `code`
/// (HD_ERROR_OUT_OF_MEMORY for CUDA_ERROR_OUT_OF_MEMORY).
hd_status check(const cuda::Driver &cu, cuda::CUresult result, const char *call, hd_error *err,
                hd_status code, const std::string &context);

/// CUDA device `index`, through its primary context.
class NvidiaDevice : public plugin::Device {
public:
  explicit NvidiaDevice(const cuda::Driver &cu) : cu(cu) {}

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

  cuda::CUdevice handle = 0;
  cuda::CUcontext context = nullptr;
  /// The device's default per-CTA shared memory (48 KiB): above it a kernel
  /// must raise its own limit before launch.
  uint64_t sharedBytesDefault = 0;
  unsigned maxGrid[3] = {0, 0, 0};

private:
  /// Makes the primary context current on the calling thread (every entry
  /// point that touches the device calls this first, so any thread may
  /// call any entry point).
  hd_status enter(hd_error *err) const;
  /// check() with "nvidia:<index>" as the context.
  hd_status check(cuda::CUresult result, const char *call, hd_error *err, hd_status code) const {
    return nvidia::check(cu, result, call, err, code, where());
  }
  std::string where() const { return "nvidia:" + std::to_string(index); }

  const cuda::Driver &cu;
};

} // namespace hadron::nvidia

#endif // HADRON_TARGETS_NVIDIA_RUNTIME_NVIDIARUNTIME_H
