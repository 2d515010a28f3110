//===- NvidiaRuntime.h - The NVIDIA plugin's runtime table, internally -*- C++ -*-===//
//
// State shared by the files of this folder: the driver's entry points, one
// record per device (its primary context and its hd_device_info), and the
// hd_runtime_table functions that live in NvidiaModule.cpp.
//
// Every CUDA call goes through check(), which turns a failing CUresult into
// an hd_status and a message naming the call, the driver's error name and
// description, and what was being done.
//
//===----------------------------------------------------------------------===//
#ifndef HADRON_TARGETS_NVIDIA_RUNTIME_NVIDIARUNTIME_H
#define HADRON_TARGETS_NVIDIA_RUNTIME_NVIDIARUNTIME_H

#include "CudaDriver.h"

#include "hadron/plugin/RuntimeTable.h"
#include "hadron/plugin/plugin.h"

#include <string>
#include <vector>

namespace hadron::nvidia {

struct Device {
  cuda::CUdevice handle = 0;
  cuda::CUcontext context = nullptr;
  hd_device_info info{};
  /// The device's default per-CTA shared memory (48 KiB): above it a kernel
  /// must raise its own limit before launch.
  uint64_t sharedBytesDefault = 0;
  unsigned maxGrid[3] = {0, 0, 0};
};

/// The loaded driver and the devices it reported; valid after a successful
/// init (driver() is empty before).
const cuda::Driver &driver();
std::vector<Device> &devices();

using plugin::fail;

/// HD_OK when `result` is CUDA_SUCCESS; else fills `err` with
/// "<context>: <call>: <CUDA_ERROR_NAME> (<description>)" and returns `code`
/// (HD_ERROR_OUT_OF_MEMORY for CUDA_ERROR_OUT_OF_MEMORY).
hd_status check(cuda::CUresult result, const char *call, hd_error *err, hd_status code,
                const std::string &context);

/// Checks `device` and makes its primary context current on the calling
/// thread (every entry point that touches the device calls this first, so
/// any thread may call any entry point).
hd_status enterDevice(uint32_t device, hd_error *err);

hd_status moduleLoad(uint32_t device, const void *binary, uint64_t size, hd_plugin_module **out,
                     hd_error *err);
hd_status moduleUnload(hd_plugin_module *module, hd_error *err);
hd_status launch(hd_plugin_module *module, const hd_kernel_signature *signature,
                 const uint32_t grid[3], const hd_arg *args, uint64_t dynamicSharedBytes,
                 hd_error *err);

} // namespace hadron::nvidia

#endif // HADRON_TARGETS_NVIDIA_RUNTIME_NVIDIARUNTIME_H
