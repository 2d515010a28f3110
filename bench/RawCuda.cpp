//===- RawCuda.cpp - The CUDA driver, dlopen'ed ---------------------------===//

#include "RawCuda.h"

#include <dlfcn.h>

namespace hadron::bench {

// The few driver entry points used, with the driver API's C types spelled
// as plain integers and pointers (CUresult int, CUdevice int, handles void*).
struct RawCuda::Api {
  int (*cuInit)(unsigned);
  int (*cuDeviceGet)(int *, int);
  int (*cuDevicePrimaryCtxRetain)(void **, int);
  int (*cuDevicePrimaryCtxRelease)(int);
  int (*cuCtxSetCurrent)(void *);
  int (*cuCtxSynchronize)();
  int (*cuModuleLoadData)(void **, const void *);
  int (*cuModuleUnload)(void *);
  int (*cuModuleGetFunction)(void **, void *, const char *);
  int (*cuLaunchKernel)(void *, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                        unsigned, void *, void **, void **);
  int (*cuGetErrorName)(int, const char **);
};

namespace {

template <typename Fn> bool resolve(void *handle, Fn &fn, const char *name, std::string &why) {
  fn = reinterpret_cast<Fn>(::dlsym(handle, name));
  if (!fn)
    why = std::string("libcuda.so.1 has no ") + name;
  return fn != nullptr;
}

} // namespace

static std::string describe(const RawCuda::Api *api, const char *call, int code) {
  const char *name = nullptr;
  if (api && api->cuGetErrorName)
    api->cuGetErrorName(code, &name);
  return std::string(call) + " failed: " + (name ? name : "CUresult " + std::to_string(code));
}

std::unique_ptr<RawCuda> RawCuda::open(int ordinal, std::string &why, bool &missing) {
  missing = false;
  void *handle = ::dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    missing = true;
    const char *e = ::dlerror();
    why = std::string("libcuda.so.1 not found (") + (e ? e : "dlopen failed") + ")";
    return nullptr;
  }
  std::unique_ptr<RawCuda> cuda(new RawCuda());
  cuda->handle_ = handle;
  cuda->api_ = std::make_unique<Api>();
  Api &a = *cuda->api_;
  if (!resolve(handle, a.cuInit, "cuInit", why) ||
      !resolve(handle, a.cuDeviceGet, "cuDeviceGet", why) ||
      !resolve(handle, a.cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain", why) ||
      !resolve(handle, a.cuDevicePrimaryCtxRelease, "cuDevicePrimaryCtxRelease_v2", why) ||
      !resolve(handle, a.cuCtxSetCurrent, "cuCtxSetCurrent", why) ||
      !resolve(handle, a.cuCtxSynchronize, "cuCtxSynchronize", why) ||
      !resolve(handle, a.cuModuleLoadData, "cuModuleLoadData", why) ||
      !resolve(handle, a.cuModuleUnload, "cuModuleUnload", why) ||
      !resolve(handle, a.cuModuleGetFunction, "cuModuleGetFunction", why) ||
      !resolve(handle, a.cuLaunchKernel, "cuLaunchKernel", why) ||
      !resolve(handle, a.cuGetErrorName, "cuGetErrorName", why))
    return nullptr;
  if (int rc = a.cuInit(0)) {
    why = describe(&a, "cuInit", rc);
    return nullptr;
  }
  if (int rc = a.cuDeviceGet(&cuda->device_, ordinal)) {
    why = describe(&a, "cuDeviceGet", rc);
    return nullptr;
  }
  if (int rc = a.cuDevicePrimaryCtxRetain(&cuda->context_, cuda->device_)) {
    why = describe(&a, "cuDevicePrimaryCtxRetain", rc);
    cuda->context_ = nullptr;
    return nullptr;
  }
  if (int rc = a.cuCtxSetCurrent(cuda->context_)) {
    why = describe(&a, "cuCtxSetCurrent", rc);
    return nullptr;
  }
  return cuda;
}

bool RawCuda::loadKernel(const std::string &image, const std::string &kernel, std::string &why) {
  // The driver reads PTX as a NUL-terminated string; a cubin ignores the
  // extra byte.
  std::string copy = image;
  copy.push_back('\0');
  if (int rc = api_->cuModuleLoadData(&module_, copy.data())) {
    why = describe(api_.get(), "cuModuleLoadData", rc);
    module_ = nullptr;
    return false;
  }
  if (int rc = api_->cuModuleGetFunction(&function_, module_, kernel.c_str())) {
    why = describe(api_.get(), ("cuModuleGetFunction(" + kernel + ")").c_str(), rc);
    return false;
  }
  return true;
}

bool RawCuda::launch(uint32_t gridX, uint32_t blockX, uint32_t sharedBytes, void **params,
                     std::string &why) {
  if (int rc = api_->cuLaunchKernel(function_, gridX, 1, 1, blockX, 1, 1, sharedBytes, nullptr,
                                    params, nullptr)) {
    why = describe(api_.get(), "cuLaunchKernel", rc);
    return false;
  }
  return true;
}

bool RawCuda::synchronize(std::string &why) {
  if (int rc = api_->cuCtxSynchronize()) {
    why = describe(api_.get(), "cuCtxSynchronize", rc);
    return false;
  }
  return true;
}

RawCuda::~RawCuda() {
  if (module_)
    api_->cuModuleUnload(module_);
  if (context_)
    api_->cuDevicePrimaryCtxRelease(device_);
  // The library stays mapped: the driver may keep threads, and the nvidia
  // plugin in this process holds its own handle.
}

} // namespace hadron::bench
