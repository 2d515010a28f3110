//===- CudaDriver.cpp - Resolving the driver's entry points ---------------===//

#include "CudaDriver.h"

#include "hadron/plugin/RuntimeTable.h"

#include <dlfcn.h>

namespace hadron::nvidia::cuda {

namespace {

template <typename Fn> bool resolve(void *handle, Fn &fn, const char *symbol) {
  fn = reinterpret_cast<Fn>(::dlsym(handle, symbol));
  return fn != nullptr;
}

} // namespace

hd_status load(const char *library, Driver &driver, hd_error *err) {
  // RTLD_LOCAL: the driver's symbols stay out of the global namespace, where
  // a program's own (linked) libcuda could otherwise clash with them.
  void *handle = ::dlopen(library, RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    const char *e = ::dlerror();
    return plugin::fail(err, HD_ERROR_DRIVER_MISSING,
                        "%s not found (%s); the NVIDIA driver is not installed", library,
                        e ? e : "dlopen returned NULL");
  }
  const char *absent = nullptr;
  auto need = [&](auto &fn, const char *symbol) {
    if (!absent && !resolve(handle, fn, symbol))
      absent = symbol;
  };
  need(driver.cuInit, "cuInit");
  need(driver.cuDriverGetVersion, "cuDriverGetVersion");
  need(driver.cuGetErrorName, "cuGetErrorName");
  need(driver.cuGetErrorString, "cuGetErrorString");
  need(driver.cuDeviceGetCount, "cuDeviceGetCount");
  need(driver.cuDeviceGet, "cuDeviceGet");
  need(driver.cuDeviceGetName, "cuDeviceGetName");
  need(driver.cuDeviceGetAttribute, "cuDeviceGetAttribute");
  need(driver.cuDeviceTotalMem, "cuDeviceTotalMem_v2");
  need(driver.cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain");
  need(driver.cuCtxSetCurrent, "cuCtxSetCurrent");
  need(driver.cuCtxSynchronize, "cuCtxSynchronize");
  need(driver.cuMemGetInfo, "cuMemGetInfo_v2");
  need(driver.cuMemAlloc, "cuMemAlloc_v2");
  need(driver.cuMemFree, "cuMemFree_v2");
  need(driver.cuMemcpyHtoD, "cuMemcpyHtoD_v2");
  need(driver.cuMemcpyDtoH, "cuMemcpyDtoH_v2");
  need(driver.cuModuleLoadDataEx, "cuModuleLoadDataEx");
  need(driver.cuModuleUnload, "cuModuleUnload");
  need(driver.cuModuleGetFunction, "cuModuleGetFunction");
  need(driver.cuFuncSetAttribute, "cuFuncSetAttribute");
  need(driver.cuFuncGetAttribute, "cuFuncGetAttribute");
  need(driver.cuLaunchKernel, "cuLaunchKernel");
  need(driver.cuEventCreate, "cuEventCreate");
  need(driver.cuEventRecord, "cuEventRecord");
  need(driver.cuEventSynchronize, "cuEventSynchronize");
  need(driver.cuEventDestroy, "cuEventDestroy_v2");
  // CUDA 12.8 versioned the call (cuda.h maps the name to _v2); older
  // drivers have only the original, which means the same for two events
  // recorded on one stream.
  if (!absent && !resolve(handle, driver.cuEventElapsedTime, "cuEventElapsedTime_v2"))
    need(driver.cuEventElapsedTime, "cuEventElapsedTime");
  if (!absent)
    resolve(handle, driver.cuTensorMapEncodeTiled, "cuTensorMapEncodeTiled");
  // On failure the library stays loaded: unloading a driver that may have
  // started threads is not safe, and it costs nothing to keep.
  if (absent)
    return plugin::fail(err, HD_ERROR_DRIVER_MISSING,
                        "%s has no symbol %s (driver older than CUDA 11?)", library, absent);
  return HD_OK;
}

std::string describe(const Driver &driver, const char *call, CUresult result) {
  const char *name = nullptr, *text = nullptr;
  if (!driver.cuGetErrorName || driver.cuGetErrorName(result, &name) != CUDA_SUCCESS || !name)
    name = nullptr;
  if (!driver.cuGetErrorString || driver.cuGetErrorString(result, &text) != CUDA_SUCCESS ||
      !text)
    text = nullptr;
  std::string message = std::string(call) + ": ";
  message += name ? name : "CUresult " + std::to_string(result);
  if (text)
    message += std::string(" (") + text + ")";
  return message;
}

} // namespace hadron::nvidia::cuda
