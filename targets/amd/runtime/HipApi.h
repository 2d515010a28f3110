//===- HipApi.h - The part of HIP the AMD runtime part uses -----*- C++ -*-===//
//
// libamdhip64 is loaded with dlopen, never linked, and its headers are not
// used (they need the ROCm toolchain): the few types and constants needed
// are declared here with the values of HIP's hip_runtime_api.h, which are
// the same in HIP 5.x and 6.x for everything below. Struct layouts do
// differ between versions (hipDeviceProp_t), so properties come from
// hipDeviceGetAttribute wherever HIP offers one.
//
//===----------------------------------------------------------------------===//
#ifndef HADRON_TARGETS_AMD_RUNTIME_HIPAPI_H
#define HADRON_TARGETS_AMD_RUNTIME_HIPAPI_H

#include "hadron/plugin/plugin.h"

#include <cstddef>
#include <string>

namespace hadron::amd {

using hipError_t = int;
using hipModule_t = struct ihipModule_t *;
using hipFunction_t = struct ihipModuleSymbol_t *;
using hipEvent_t = struct ihipEvent_t *;
using hipStream_t = struct ihipStream_t *;

constexpr hipError_t hipSuccess = 0;
constexpr hipError_t hipErrorOutOfMemory = 2;
constexpr hipError_t hipErrorNoDevice = 100;

/// hipDeviceAttribute_t values (stable since HIP 5.0).
enum HipAttribute : int {
  hipDeviceAttributeL2CacheSize = 19,
  hipDeviceAttributeMaxGridDimX = 29,
  hipDeviceAttributeMaxThreadsPerBlock = 56,
  hipDeviceAttributeMultiprocessorCount = 63,
  hipDeviceAttributeMaxSharedMemoryPerBlock = 74,
  hipDeviceAttributeWarpSize = 87,
};

enum HipMemcpyKind : int { hipMemcpyHostToDevice = 1, hipMemcpyDeviceToHost = 2 };

#define HADRON_HIP_LAUNCH_PARAM_BUFFER_POINTER (reinterpret_cast<void *>(0x01))
#define HADRON_HIP_LAUNCH_PARAM_BUFFER_SIZE (reinterpret_cast<void *>(0x02))
#define HADRON_HIP_LAUNCH_PARAM_END (reinterpret_cast<void *>(0x03))

/// The entry points, resolved once by loadHip().
struct HipApi {
  std::string libraryName; ///< the file dlopen found
  const char *(*hipGetErrorName)(hipError_t);
  hipError_t (*hipRuntimeGetVersion)(int *);
  hipError_t (*hipGetDeviceCount)(int *);
  hipError_t (*hipSetDevice)(int);
  hipError_t (*hipDeviceGetAttribute)(int *, int, int);
  hipError_t (*hipDeviceGetName)(char *, int, int);
  hipError_t (*hipDeviceTotalMem)(size_t *, int);
  /// hipGetDevicePropertiesR0600 (HIP 6) or hipGetDeviceProperties (HIP 5),
  /// only for the architecture name, which no attribute gives.
  hipError_t (*getDeviceProperties)(void *, int);
  bool propertiesR0600;
  hipError_t (*hipMalloc)(void **, size_t);
  hipError_t (*hipFree)(void *);
  hipError_t (*hipMemcpy)(void *, const void *, size_t, int);
  hipError_t (*hipDeviceSynchronize)();
  hipError_t (*hipModuleLoadData)(hipModule_t *, const void *);
  hipError_t (*hipModuleUnload)(hipModule_t);
  hipError_t (*hipModuleGetFunction)(hipFunction_t *, hipModule_t, const char *);
  hipError_t (*hipModuleLaunchKernel)(hipFunction_t, unsigned, unsigned, unsigned, unsigned,
                                      unsigned, unsigned, unsigned, hipStream_t, void **,
                                      void **);
  hipError_t (*hipEventCreate)(hipEvent_t *);
  hipError_t (*hipEventRecord)(hipEvent_t, hipStream_t);
  hipError_t (*hipEventSynchronize)(hipEvent_t);
  hipError_t (*hipEventElapsedTime)(float *, hipEvent_t, hipEvent_t);
  hipError_t (*hipEventDestroy)(hipEvent_t);
};

/// Loads libamdhip64 ($HADRON_AMD_HIP_LIBRARY when set, else libamdhip64.so
/// and its versioned names) once. NULL with HD_ERROR_DRIVER_MISSING in
/// `err` when it cannot be loaded or lacks an entry point.
const HipApi *loadHip(hd_error *err);

/// "hipMalloc: hipErrorOutOfMemory (2)": the call and HIP's name for `code`.
std::string hipErrorText(const HipApi &hip, const char *call, hipError_t code);

} // namespace hadron::amd

#endif // HADRON_TARGETS_AMD_RUNTIME_HIPAPI_H
