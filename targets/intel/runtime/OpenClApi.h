//===- OpenClApi.h - The part of OpenCL the Intel plugin uses ---*- C++ -*-===//
//
// Types, constants and entry points of OpenCL 1.2-3.0 (and two Intel device
// queries), declared here so that the plugin builds without OpenCL headers;
// the ICD loader libOpenCL.so.1 is dlopen'ed at init, never linked.
//
//===----------------------------------------------------------------------===//
#ifndef HADRON_TARGETS_INTEL_RUNTIME_OPENCLAPI_H
#define HADRON_TARGETS_INTEL_RUNTIME_OPENCLAPI_H

#include "hadron/plugin/plugin.h"

#include <cstddef>
#include <cstdint>
#include <string>

namespace hadron::intel::cl {

using cl_int = int32_t;
using cl_uint = uint32_t;
using cl_ulong = uint64_t;
using cl_bitfield = cl_ulong;
using cl_platform_id = struct _cl_platform_id *;
using cl_device_id = struct _cl_device_id *;
using cl_context = struct _cl_context *;
using cl_command_queue = struct _cl_command_queue *;
using cl_mem = struct _cl_mem *;
using cl_program = struct _cl_program *;
using cl_kernel = struct _cl_kernel *;
using cl_event = struct _cl_event *;
using cl_queue_properties = cl_bitfield;
using cl_context_properties = intptr_t;

constexpr cl_int CL_SUCCESS = 0;
constexpr cl_int CL_DEVICE_NOT_FOUND = -1;
constexpr cl_int CL_MEM_OBJECT_ALLOCATION_FAILURE = -4;
constexpr cl_int CL_OUT_OF_RESOURCES = -5;
constexpr cl_int CL_OUT_OF_HOST_MEMORY = -6;
constexpr cl_int CL_BUILD_PROGRAM_FAILURE = -11;
constexpr cl_int CL_PLATFORM_NOT_FOUND_KHR = -1001;

constexpr cl_bitfield CL_DEVICE_TYPE_CPU = 1 << 1;
constexpr cl_bitfield CL_DEVICE_TYPE_GPU = 1 << 2;
constexpr cl_bitfield CL_DEVICE_TYPE_ALL = 0xFFFFFFFF;

constexpr cl_uint CL_PLATFORM_NAME = 0x0902;
constexpr cl_uint CL_DEVICE_TYPE = 0x1000;
constexpr cl_uint CL_DEVICE_VENDOR_ID = 0x1001;
constexpr cl_uint CL_DEVICE_MAX_COMPUTE_UNITS = 0x1002;
constexpr cl_uint CL_DEVICE_MAX_WORK_GROUP_SIZE = 0x1004;
constexpr cl_uint CL_DEVICE_MEM_BASE_ADDR_ALIGN = 0x1019;
constexpr cl_uint CL_DEVICE_GLOBAL_MEM_CACHE_SIZE = 0x101E;
constexpr cl_uint CL_DEVICE_GLOBAL_MEM_SIZE = 0x101F;
constexpr cl_uint CL_DEVICE_LOCAL_MEM_SIZE = 0x1023;
constexpr cl_uint CL_DEVICE_NAME = 0x102B;
constexpr cl_uint CL_DEVICE_EXTENSIONS = 0x1030;
constexpr cl_uint CL_DEVICE_IL_VERSION = 0x105B;
constexpr cl_uint CL_DEVICE_SUB_GROUP_SIZES_INTEL = 0x4108;
constexpr cl_uint CL_DEVICE_ID_INTEL = 0x4251;

constexpr cl_bitfield CL_MEM_READ_WRITE = 1 << 0;
constexpr cl_uint CL_BUFFER_CREATE_TYPE_REGION = 0x1220;
constexpr cl_uint CL_QUEUE_PROPERTIES = 0x1093;
constexpr cl_bitfield CL_QUEUE_PROFILING_ENABLE = 1 << 1;
constexpr cl_uint CL_PROGRAM_BUILD_LOG = 0x1183;
constexpr cl_uint CL_PROFILING_COMMAND_END = 0x1283;
constexpr cl_uint CL_TRUE = 1;

struct cl_buffer_region {
  size_t origin;
  size_t size;
};

/// The entry points, resolved with dlsym. Optional ones (OpenCL 2.1's
/// clCreateProgramWithIL, 2.0's clCreateCommandQueueWithProperties) may be
/// NULL; the plugin then takes the 1.2 path or reports the device as not
/// taking SPIR-V.
struct Api {
  void *library = nullptr;
  std::string path;
  cl_int (*clGetPlatformIDs)(cl_uint, cl_platform_id *, cl_uint *);
  cl_int (*clGetPlatformInfo)(cl_platform_id, cl_uint, size_t, void *, size_t *);
  cl_int (*clGetDeviceIDs)(cl_platform_id, cl_bitfield, cl_uint, cl_device_id *, cl_uint *);
  cl_int (*clGetDeviceInfo)(cl_device_id, cl_uint, size_t, void *, size_t *);
  cl_context (*clCreateContext)(const cl_context_properties *, cl_uint, const cl_device_id *,
                                void (*)(const char *, const void *, size_t, void *), void *,
                                cl_int *);
  cl_command_queue (*clCreateCommandQueueWithProperties)(cl_context, cl_device_id,
                                                         const cl_queue_properties *, cl_int *);
  cl_command_queue (*clCreateCommandQueue)(cl_context, cl_device_id, cl_bitfield, cl_int *);
  cl_mem (*clCreateBuffer)(cl_context, cl_bitfield, size_t, void *, cl_int *);
  cl_mem (*clCreateSubBuffer)(cl_mem, cl_bitfield, cl_uint, const void *, cl_int *);
  cl_int (*clReleaseMemObject)(cl_mem);
  cl_int (*clEnqueueWriteBuffer)(cl_command_queue, cl_mem, cl_uint, size_t, size_t, const void *,
                                 cl_uint, const cl_event *, cl_event *);
  cl_int (*clEnqueueReadBuffer)(cl_command_queue, cl_mem, cl_uint, size_t, size_t, void *, cl_uint,
                                const cl_event *, cl_event *);
  cl_program (*clCreateProgramWithIL)(cl_context, const void *, size_t, cl_int *);
  cl_program (*clCreateProgramWithBinary)(cl_context, cl_uint, const cl_device_id *,
                                          const size_t *, const unsigned char **, cl_int *,
                                          cl_int *);
  cl_int (*clBuildProgram)(cl_program, cl_uint, const cl_device_id *, const char *,
                           void (*)(cl_program, void *), void *);
  cl_int (*clGetProgramBuildInfo)(cl_program, cl_device_id, cl_uint, size_t, void *, size_t *);
  cl_int (*clReleaseProgram)(cl_program);
  cl_kernel (*clCreateKernel)(cl_program, const char *, cl_int *);
  cl_int (*clReleaseKernel)(cl_kernel);
  cl_int (*clSetKernelArg)(cl_kernel, cl_uint, size_t, const void *);
  cl_int (*clEnqueueNDRangeKernel)(cl_command_queue, cl_kernel, cl_uint, const size_t *,
                                   const size_t *, const size_t *, cl_uint, const cl_event *,
                                   cl_event *);
  cl_int (*clEnqueueMarkerWithWaitList)(cl_command_queue, cl_uint, const cl_event *, cl_event *);
  cl_int (*clFinish)(cl_command_queue);
  cl_int (*clWaitForEvents)(cl_uint, const cl_event *);
  cl_int (*clGetEventProfilingInfo)(cl_event, cl_uint, size_t, void *, size_t *);
  cl_int (*clReleaseEvent)(cl_event);
};

/// dlopens $HADRON_INTEL_OPENCL_LIBRARY, else libOpenCL.so.1, and resolves
/// the entry points (once; later calls return the same result). NULL with
/// HD_ERROR_DRIVER_MISSING in `err` naming what was tried.
const Api *load(hd_error *err);

/// "CL_OUT_OF_RESOURCES (-5)" and the like.
std::string errorName(cl_int code);

} // namespace hadron::intel::cl

#endif // HADRON_TARGETS_INTEL_RUNTIME_OPENCLAPI_H
