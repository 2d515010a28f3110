//===- HipApi.cpp - Loading libamdhip64 -----------------------------------===//

#include "HipApi.h"
#include "AmdRuntime.h"

#include <cstdlib>
#include <dlfcn.h>
#include <string>
#include <vector>

namespace hadron::amd {
namespace {

struct Loaded {
  HipApi api{};
  hd_status status = HD_OK;
  std::string message;
};

template <typename F> bool resolve(void *handle, const char *name, F &slot) {
  slot = reinterpret_cast<F>(::dlsym(handle, name));
  return slot != nullptr;
}

Loaded load() {
  Loaded out;
  std::vector<std::string> names;
  if (const char *forced = std::getenv("HADRON_AMD_HIP_LIBRARY"); forced && *forced)
    names = {forced};
  else
    names = {"libamdhip64.so", "libamdhip64.so.7", "libamdhip64.so.6", "libamdhip64.so.5"};
  void *handle = nullptr;
  std::string tried, lastError;
  for (const std::string &name : names) {
    handle = ::dlopen(name.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (handle) {
      out.api.libraryName = name;
      break;
    }
    const char *why = ::dlerror();
    lastError = why ? why : "unknown dlopen error";
    tried += (tried.empty() ? "" : ", ") + name;
  }
  if (!handle) {
    out.status = HD_ERROR_DRIVER_MISSING;
    out.message = "amd: libamdhip64.so not found (tried " + tried + "; " + lastError + ")";
    return out;
  }
  HipApi &a = out.api;
  const char *missing = nullptr;
  auto need = [&](const char *name, auto &slot) {
    if (!missing && !resolve(handle, name, slot))
      missing = name;
  };
  need("hipGetErrorName", a.hipGetErrorName);
  need("hipRuntimeGetVersion", a.hipRuntimeGetVersion);
  need("hipGetDeviceCount", a.hipGetDeviceCount);
  need("hipSetDevice", a.hipSetDevice);
  need("hipDeviceGetAttribute", a.hipDeviceGetAttribute);
  need("hipDeviceGetName", a.hipDeviceGetName);
  need("hipDeviceTotalMem", a.hipDeviceTotalMem);
  need("hipMalloc", a.hipMalloc);
  need("hipFree", a.hipFree);
  need("hipMemcpy", a.hipMemcpy);
  need("hipDeviceSynchronize", a.hipDeviceSynchronize);
  need("hipModuleLoadData", a.hipModuleLoadData);
  need("hipModuleUnload", a.hipModuleUnload);
  need("hipModuleGetFunction", a.hipModuleGetFunction);
  need("hipModuleLaunchKernel", a.hipModuleLaunchKernel);
  need("hipEventCreate", a.hipEventCreate);
  need("hipEventRecord", a.hipEventRecord);
  need("hipEventSynchronize", a.hipEventSynchronize);
  need("hipEventElapsedTime", a.hipEventElapsedTime);
  need("hipEventDestroy", a.hipEventDestroy);
  if (missing) {
    out.status = HD_ERROR_DRIVER_MISSING;
    out.message = "amd: " + a.libraryName + " has no symbol " + missing;
    ::dlclose(handle);
    return out;
  }
  // HIP 6 renamed the properties entry point with its new struct layout.
  a.propertiesR0600 = resolve(handle, "hipGetDevicePropertiesR0600", a.getDeviceProperties);
  if (!a.propertiesR0600)
    resolve(handle, "hipGetDeviceProperties", a.getDeviceProperties);
  // The library stays loaded for the life of the process, as the plugin.
  return out;
}

} // namespace

const HipApi *loadHip(hd_error *err) {
  static const Loaded loaded = load();
  if (loaded.status != HD_OK) {
    fail(err, loaded.status, "%s", loaded.message.c_str());
    return nullptr;
  }
  return &loaded.api;
}

std::string hipErrorText(const HipApi &hip, const char *call, hipError_t code) {
  const char *name = hip.hipGetErrorName(code);
  return std::string(call) + ": " + (name ? name : "unknown HIP error") + " (" +
         std::to_string(code) + ")";
}

} // namespace hadron::amd
