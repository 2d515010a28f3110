//===- OpenClApi.cpp - Loading the OpenCL ICD loader ----------------------===//

#include "OpenClApi.h"

#include <cstdio>
#include <cstdlib>
#include <dlfcn.h>

namespace hadron::intel::cl {
namespace {

struct Loaded {
  Api api;
  hd_status status = HD_OK;
  std::string message;
};

template <typename F> bool resolve(void *lib, const char *name, F &fn, std::string &missing) {
  fn = reinterpret_cast<F>(dlsym(lib, name));
  if (!fn)
    missing += (missing.empty() ? "" : ", ") + std::string(name);
  return fn != nullptr;
}

Loaded loadOnce() {
  Loaded r;
  const char *env = std::getenv("HADRON_INTEL_OPENCL_LIBRARY");
  std::string name = env && *env ? env : "libOpenCL.so.1";
  void *lib = dlopen(name.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    const char *why = dlerror();
    r.status = HD_ERROR_DRIVER_MISSING;
    r.message = "OpenCL: " + name + " not found (" + (why ? why : "dlopen failed") + ")";
    return r;
  }
  Api &a = r.api;
  a.library = lib;
  a.path = name;
  std::string missing;
  resolve(lib, "clGetPlatformIDs", a.clGetPlatformIDs, missing);
  resolve(lib, "clGetPlatformInfo", a.clGetPlatformInfo, missing);
  resolve(lib, "clGetDeviceIDs", a.clGetDeviceIDs, missing);
  resolve(lib, "clGetDeviceInfo", a.clGetDeviceInfo, missing);
  resolve(lib, "clCreateContext", a.clCreateContext, missing);
  resolve(lib, "clCreateCommandQueue", a.clCreateCommandQueue, missing);
  resolve(lib, "clCreateBuffer", a.clCreateBuffer, missing);
  resolve(lib, "clCreateSubBuffer", a.clCreateSubBuffer, missing);
  resolve(lib, "clReleaseMemObject", a.clReleaseMemObject, missing);
  resolve(lib, "clEnqueueWriteBuffer", a.clEnqueueWriteBuffer, missing);
  resolve(lib, "clEnqueueReadBuffer", a.clEnqueueReadBuffer, missing);
  resolve(lib, "clCreateProgramWithBinary", a.clCreateProgramWithBinary, missing);
  resolve(lib, "clBuildProgram", a.clBuildProgram, missing);
  resolve(lib, "clGetProgramBuildInfo", a.clGetProgramBuildInfo, missing);
  resolve(lib, "clReleaseProgram", a.clReleaseProgram, missing);
  resolve(lib, "clCreateKernel", a.clCreateKernel, missing);
  resolve(lib, "clReleaseKernel", a.clReleaseKernel, missing);
  resolve(lib, "clSetKernelArg", a.clSetKernelArg, missing);
  resolve(lib, "clEnqueueNDRangeKernel", a.clEnqueueNDRangeKernel, missing);
  resolve(lib, "clEnqueueMarkerWithWaitList", a.clEnqueueMarkerWithWaitList, missing);
  resolve(lib, "clFinish", a.clFinish, missing);
  resolve(lib, "clWaitForEvents", a.clWaitForEvents, missing);
  resolve(lib, "clGetEventProfilingInfo", a.clGetEventProfilingInfo, missing);
  resolve(lib, "clReleaseEvent", a.clReleaseEvent, missing);
  if (!missing.empty()) {
    r.status = HD_ERROR_DRIVER_MISSING;
    r.message = "OpenCL: " + name + " lacks " + missing;
    return r;
  }
  std::string optional;
  resolve(lib, "clCreateProgramWithIL", a.clCreateProgramWithIL, optional);
  resolve(lib, "clCreateCommandQueueWithProperties", a.clCreateCommandQueueWithProperties,
          optional);
  return r;
}

} // namespace

const Api *load(hd_error *err) {
  static const Loaded loaded = loadOnce();
  if (loaded.status != HD_OK) {
    if (err) {
      err->code = loaded.status;
      std::snprintf(err->message, sizeof(err->message), "%s", loaded.message.c_str());
    }
    return nullptr;
  }
  return &loaded.api;
}

std::string errorName(cl_int code) {
  const char *name = nullptr;
  switch (code) {
  case 0: name = "CL_SUCCESS"; break;
  case -1: name = "CL_DEVICE_NOT_FOUND"; break;
  case -2: name = "CL_DEVICE_NOT_AVAILABLE"; break;
  case -3: name = "CL_COMPILER_NOT_AVAILABLE"; break;
  case -4: name = "CL_MEM_OBJECT_ALLOCATION_FAILURE"; break;
  case -5: name = "CL_OUT_OF_RESOURCES"; break;
  case -6: name = "CL_OUT_OF_HOST_MEMORY"; break;
  case -11: name = "CL_BUILD_PROGRAM_FAILURE"; break;
  case -13: name = "CL_MISALIGNED_SUB_BUFFER_OFFSET"; break;
  case -14: name = "CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST"; break;
  case -30: name = "CL_INVALID_VALUE"; break;
  case -33: name = "CL_INVALID_DEVICE"; break;
  case -34: name = "CL_INVALID_CONTEXT"; break;
  case -36: name = "CL_INVALID_COMMAND_QUEUE"; break;
  case -38: name = "CL_INVALID_MEM_OBJECT"; break;
  case -42: name = "CL_INVALID_BINARY"; break;
  case -44: name = "CL_INVALID_PROGRAM"; break;
  case -45: name = "CL_INVALID_PROGRAM_EXECUTABLE"; break;
  case -46: name = "CL_INVALID_KERNEL_NAME"; break;
  case -48: name = "CL_INVALID_KERNEL"; break;
  case -49: name = "CL_INVALID_ARG_INDEX"; break;
  case -50: name = "CL_INVALID_ARG_VALUE"; break;
  case -51: name = "CL_INVALID_ARG_SIZE"; break;
  case -52: name = "CL_INVALID_KERNEL_ARGS"; break;
  case -53: name = "CL_INVALID_WORK_DIMENSION"; break;
  case -54: name = "CL_INVALID_WORK_GROUP_SIZE"; break;
  case -55: name = "CL_INVALID_WORK_ITEM_SIZE"; break;
  case -58: name = "CL_INVALID_EVENT"; break;
  case -59: name = "CL_INVALID_OPERATION"; break;
  case -61: name = "CL_INVALID_BUFFER_SIZE"; break;
  case -63: name = "CL_INVALID_GLOBAL_WORK_SIZE"; break;
  case -1001: name = "CL_PLATFORM_NOT_FOUND_KHR"; break;
  default: break;
  }
  return std::string(name ? name : "OpenCL error") + " (" + std::to_string(code) + ")";
}

} // namespace hadron::intel::cl
