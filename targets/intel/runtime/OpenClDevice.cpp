//===- OpenClDevice.cpp - Intel target devices through OpenCL -------------===//
//
// Any OpenCL device that takes SPIR-V (CL_DEVICE_IL_VERSION names SPIR-V
// and clCreateProgramWithIL exists): one context and one in-order queue
// with profiling per device.
//
//  - Memory: OpenCL buffers are handles, while hd_device_ptr is an address
//    the runtime offsets (copies at an offset, arguments into a buffer). So
//    each buffer gets a range of addresses of its own, never reused; a
//    pointer is resolved to its buffer and offset, and an argument pointing
//    inside a buffer becomes a sub-buffer (which OpenCL wants aligned to
//    CL_DEVICE_MEM_BASE_ADDR_ALIGN).
//  - Modules: clCreateProgramWithIL + clBuildProgram (the build log is the
//    error), kernels created once per module. A device without IL but with
//    cl_khr_spir (PoCL) takes the separate SpirTranslation.h path instead:
//    SPIR 1.2 bitcode through clCreateProgramWithBinary, built with
//    "-x spir -spir-std=1.2".
//  - Launch: explicit arguments by the signature, then the two implicit
//    ones (IntelHooks.h): a __local buffer of the planned plus dynamic
//    shared bytes, and the assert status buffer. Local size num_warps x
//    sub-group size in x, global size grid x local.
//  - Events: markers on the queue; elapsed time from their profiling end
//    stamps.
//
//===----------------------------------------------------------------------===//

#include "IntelRuntime.h"
#include "OpenClApi.h"
#include "SpirTranslation.h"

#include <algorithm>
#include <cinttypes>
#include <cstring>
#include <iterator>
#include <map>
#include <mutex>
#include <new>
#include <utility>
#include <vector>

namespace hadron::intel {
namespace {

using namespace cl;

/// Where the fake addresses start: far from 0, so that a null or small
/// pointer never resolves.
constexpr uint64_t kFirstAddress = uint64_t(1) << 40;
/// Between two buffers' ranges: an overrun by a kernel argument offset
/// resolves to no buffer.
constexpr uint64_t kAddressGap = uint64_t(1) << 20;

std::string deviceString(const Api &api, cl_device_id device, cl_uint what) {
  size_t size = 0;
  if (api.clGetDeviceInfo(device, what, 0, nullptr, &size) != CL_SUCCESS || size == 0)
    return "";
  std::string s(size, '\0');
  if (api.clGetDeviceInfo(device, what, size, s.data(), nullptr) != CL_SUCCESS)
    return "";
  s.resize(std::strlen(s.c_str()));
  return s;
}

template <typename T> T deviceValue(const Api &api, cl_device_id device, cl_uint what, T otherwise) {
  T v{};
  return api.clGetDeviceInfo(device, what, sizeof(v), &v, nullptr) == CL_SUCCESS ? v : otherwise;
}

std::string platformName(const Api &api, cl_platform_id platform) {
  size_t size = 0;
  if (api.clGetPlatformInfo(platform, CL_PLATFORM_NAME, 0, nullptr, &size) != CL_SUCCESS)
    return "";
  std::string s(size, '\0');
  api.clGetPlatformInfo(platform, CL_PLATFORM_NAME, size, s.data(), nullptr);
  s.resize(std::strlen(s.c_str()));
  return s;
}

struct ClModule : hd_plugin_module {
  cl_program program = nullptr;
  std::mutex mutex; ///< kernel creation, and argument setting + enqueue
  std::map<std::string, cl_kernel> kernels;
};

struct ClEvent : hd_plugin_event {
  cl_event event = nullptr;
};

class OpenClDevice : public DeviceImpl {
public:
  OpenClDevice(const Api &api, cl_device_id device, cl_context context, cl_command_queue queue,
               cl_mem status, uint64_t baseAlign, bool viaSpir)
      : api(api), device(device), context(context), queue(queue), status(status),
        baseAlign(baseAlign), viaSpir(viaSpir) {}

  hd_status memAlloc(uint64_t bytes, hd_device_ptr *out, hd_error *err) override {
    cl_int e = CL_SUCCESS;
    cl_mem mem = api.clCreateBuffer(context, CL_MEM_READ_WRITE, bytes ? bytes : 1, nullptr, &e);
    if (!mem || e != CL_SUCCESS)
      return fail(err,
                  e == CL_MEM_OBJECT_ALLOCATION_FAILURE || e == CL_OUT_OF_HOST_MEMORY ||
                          e == CL_OUT_OF_RESOURCES || e == -61
                      ? HD_ERROR_OUT_OF_MEMORY
                      : HD_ERROR_INTERNAL,
                  "intel:%u: clCreateBuffer: %s, allocating %" PRIu64 " bytes", index,
                  errorName(e).c_str(), bytes);
    std::lock_guard<std::mutex> lock(mutex);
    uint64_t address = nextAddress;
    uint64_t span = (bytes ? bytes : 1) + kAddressGap;
    nextAddress += (span + kAddressGap - 1) / kAddressGap * kAddressGap;
    buffers[address] = Buffer{mem, bytes ? bytes : 1};
    *out = address;
    return HD_OK;
  }

  hd_status memFree(hd_device_ptr ptr, hd_error *err) override {
    std::lock_guard<std::mutex> lock(mutex);
    auto it = buffers.find(ptr);
    if (it == buffers.end())
      return fail(err, HD_ERROR_INVALID_ARGUMENT,
                  "intel:%u: mem_free of 0x%" PRIx64 ", which is not a buffer of this device",
                  index, ptr);
    cl_int e = api.clReleaseMemObject(it->second.mem);
    buffers.erase(it);
    return check(e, "clReleaseMemObject", err);
  }

  hd_status copyToDevice(hd_device_ptr dst, const void *src, uint64_t bytes,
                         hd_error *err) override {
    cl_mem mem;
    uint64_t offset;
    if (hd_status s = resolve(dst, bytes, "copy_to_device", mem, offset, err))
      return s;
    return check(api.clEnqueueWriteBuffer(queue, mem, CL_TRUE, offset, bytes, src, 0, nullptr,
                                          nullptr),
                 "clEnqueueWriteBuffer", err);
  }

  hd_status copyToHost(void *dst, hd_device_ptr src, uint64_t bytes, hd_error *err) override {
    cl_mem mem;
    uint64_t offset;
    if (hd_status s = resolve(src, bytes, "copy_to_host", mem, offset, err))
      return s;
    return check(api.clEnqueueReadBuffer(queue, mem, CL_TRUE, offset, bytes, dst, 0, nullptr,
                                         nullptr),
                 "clEnqueueReadBuffer", err, HD_ERROR_LAUNCH);
  }

  hd_status loadSpirv(const void *binary, uint64_t size, hd_plugin_module **out,
                      hd_error *err) override {
    cl_int e = CL_SUCCESS;
    cl_program program = nullptr;
    const char *options = "";
    if (viaSpir) {
      std::string why;
      std::string spir =
          translateToSpir(std::string(static_cast<const char *>(binary), size), why);
      if (spir.empty())
        return fail(err, HD_ERROR_COMPILE, "intel:%u: SPIR-V to SPIR 1.2: %s", index, why.c_str());
      const unsigned char *bytes = reinterpret_cast<const unsigned char *>(spir.data());
      size_t length = spir.size();
      cl_int binaryStatus = CL_SUCCESS;
      program = api.clCreateProgramWithBinary(context, 1, &device, &length, &bytes, &binaryStatus,
                                              &e);
      options = "-x spir -spir-std=1.2";
    } else if (api.clCreateProgramWithIL) {
      program = api.clCreateProgramWithIL(context, binary, size, &e);
    } else {
      return fail(err, HD_ERROR_UNSUPPORTED,
                  "intel:%u: %s has no clCreateProgramWithIL (OpenCL 2.1): it cannot take SPIR-V",
                  index, api.path.c_str());
    }
    if (!program || e != CL_SUCCESS)
      return fail(err, HD_ERROR_INVALID_ARGUMENT, "intel:%u: creating a program of %" PRIu64
                  " bytes of %s: %s", index, size, viaSpir ? "SPIR" : "SPIR-V",
                  errorName(e).c_str());
    e = api.clBuildProgram(program, 1, &device, options, nullptr, nullptr);
    if (e != CL_SUCCESS) {
      std::string log = buildLog(program);
      api.clReleaseProgram(program);
      return fail(err, HD_ERROR_COMPILE, "intel:%u: clBuildProgram: %s; build log:\n%s", index,
                  errorName(e).c_str(), log.empty() ? "(empty)" : log.c_str());
    }
    auto *module = new (std::nothrow) ClModule;
    if (!module) {
      api.clReleaseProgram(program);
      return fail(err, HD_ERROR_OUT_OF_MEMORY, "module_load: out of host memory");
    }
    module->device = index;
    module->program = program;
    *out = module;
    return HD_OK;
  }

  hd_status moduleUnload(hd_plugin_module *base, hd_error *err) override {
    auto *module = static_cast<ClModule *>(base);
    cl_int e = CL_SUCCESS;
    for (auto &[name, kernel] : module->kernels)
      api.clReleaseKernel(kernel);
    e = api.clReleaseProgram(module->program);
    delete module;
    return check(e, "clReleaseProgram", err);
  }

  hd_status launch(hd_plugin_module *base, const hd_kernel_signature *signature,
                   const uint32_t grid[3], const hd_arg *args, uint64_t dynamicSharedBytes,
                   hd_error *err) override {
    auto *module = static_cast<ClModule *>(base);
    uint64_t threads = 0, localBytes = 0;
    if (hd_status s = checkLaunch(*signature, grid, dynamicSharedBytes, threads, localBytes, err))
      return s;

    std::lock_guard<std::mutex> lock(module->mutex);
    cl_kernel kernel = nullptr;
    if (auto it = module->kernels.find(signature->name); it != module->kernels.end()) {
      kernel = it->second;
    } else {
      cl_int e = CL_SUCCESS;
      kernel = api.clCreateKernel(module->program, signature->name, &e);
      if (!kernel || e != CL_SUCCESS)
        return fail(err, HD_ERROR_INVALID_ARGUMENT, "intel:%u: clCreateKernel '%s': %s", index,
                    signature->name, errorName(e).c_str());
      module->kernels.emplace(signature->name, kernel);
    }

    std::vector<cl_mem> subBuffers;
    auto releaseSubBuffers = [&] {
      for (cl_mem m : subBuffers)
        api.clReleaseMemObject(m);
    };
    for (uint32_t i = 0; i < signature->num_args; ++i) {
      cl_int e;
      if (args[i].kind == HD_ARG_TENSOR_DESC) {
        releaseSubBuffers();
        return fail(err, HD_ERROR_UNSUPPORTED,
                    "intel:%u: argument %u of %s is a tensor descriptor; this runtime does not "
                    "pass descriptors yet (the kernel compiles for Intel)",
                    index, i, signature->name);
      }
      if (args[i].kind == HD_ARG_PTR) {
        cl_mem mem = nullptr;
        if (hd_status s = argumentBuffer(args[i].value.ptr, signature->name, i, mem, subBuffers,
                                         err)) {
          releaseSubBuffers();
          return s;
        }
        e = api.clSetKernelArg(kernel, i, sizeof(cl_mem), &mem);
      } else {
        unsigned char bytes[8] = {};
        packScalarArg(args[i], bytes);
        e = api.clSetKernelArg(kernel, i, scalarArgBytes(args[i].kind), bytes);
      }
      if (e != CL_SUCCESS) {
        releaseSubBuffers();
        return fail(err, HD_ERROR_INVALID_ARGUMENT, "intel:%u: clSetKernelArg %u of %s: %s",
                    index, i, signature->name, errorName(e).c_str());
      }
    }
    // __local memory cannot be 0 bytes.
    cl_int e = api.clSetKernelArg(kernel, signature->num_args,
                                  std::max<uint64_t>(localBytes, 4), nullptr);
    if (e == CL_SUCCESS)
      e = api.clSetKernelArg(kernel, signature->num_args + 1, sizeof(cl_mem), &status);
    if (e != CL_SUCCESS) {
      releaseSubBuffers();
      return fail(err, HD_ERROR_INVALID_ARGUMENT,
                  "intel:%u: clSetKernelArg (implicit shared memory / assert status) of %s: %s",
                  index, signature->name, errorName(e).c_str());
    }
    size_t local[3] = {static_cast<size_t>(threads), 1, 1};
    size_t global[3] = {size_t(grid[0]) * local[0], grid[1], grid[2]};
    e = api.clEnqueueNDRangeKernel(queue, kernel, 3, nullptr, global, local, 0, nullptr, nullptr);
    // A sub-buffer stays alive until the commands using it are done.
    releaseSubBuffers();
    if (e != CL_SUCCESS)
      return fail(err, HD_ERROR_LAUNCH,
                  "intel:%u: clEnqueueNDRangeKernel %s on a grid of (%u, %u, %u) x %" PRIu64
                  " work-items with %" PRIu64 " local bytes: %s",
                  index, signature->name, grid[0], grid[1], grid[2], threads, localBytes,
                  errorName(e).c_str());
    return HD_OK;
  }

  hd_status synchronize(hd_error *err) override {
    if (hd_status s = check(api.clFinish(queue), "clFinish", err, HD_ERROR_LAUNCH))
      return s;
    unsigned char report[kAssertStatusBytes] = {};
    if (hd_status s = check(api.clEnqueueReadBuffer(queue, status, CL_TRUE, 0, sizeof(report),
                                                    report, 0, nullptr, nullptr),
                            "clEnqueueReadBuffer (assert status)", err, HD_ERROR_LAUNCH))
      return s;
    bool clear = false;
    hd_status outcome = assertOutcome(report, clear, err);
    if (clear) {
      unsigned char zeros[kAssertStatusBytes] = {};
      api.clEnqueueWriteBuffer(queue, status, CL_TRUE, 0, sizeof(zeros), zeros, 0, nullptr,
                               nullptr);
    }
    return outcome;
  }

  hd_status eventCreate(hd_plugin_event **out, hd_error *err) override {
    auto *event = new (std::nothrow) ClEvent;
    if (!event)
      return fail(err, HD_ERROR_OUT_OF_MEMORY, "event_create: out of host memory");
    event->device = index;
    *out = event;
    return HD_OK;
  }

  hd_status eventRecord(hd_plugin_event *base, hd_error *err) override {
    auto *event = static_cast<ClEvent *>(base);
    cl_event marker = nullptr;
    if (hd_status s = check(api.clEnqueueMarkerWithWaitList(queue, 0, nullptr, &marker),
                            "clEnqueueMarkerWithWaitList", err))
      return s;
    if (event->event)
      api.clReleaseEvent(event->event);
    event->event = marker;
    event->recorded = true;
    return HD_OK;
  }

  hd_status eventElapsedMs(hd_plugin_event *startBase, hd_plugin_event *endBase, float *ms,
                           hd_error *err) override {
    auto *start = static_cast<ClEvent *>(startBase);
    auto *end = static_cast<ClEvent *>(endBase);
    cl_event both[2] = {start->event, end->event};
    if (hd_status s = check(api.clWaitForEvents(2, both), "clWaitForEvents", err, HD_ERROR_LAUNCH))
      return s;
    cl_ulong t0 = 0, t1 = 0;
    if (hd_status s = check(api.clGetEventProfilingInfo(start->event, CL_PROFILING_COMMAND_END,
                                                        sizeof(t0), &t0, nullptr),
                            "clGetEventProfilingInfo", err))
      return s;
    if (hd_status s = check(api.clGetEventProfilingInfo(end->event, CL_PROFILING_COMMAND_END,
                                                        sizeof(t1), &t1, nullptr),
                            "clGetEventProfilingInfo", err))
      return s;
    *ms = t1 >= t0 ? static_cast<float>(double(t1 - t0) / 1e6) : 0.0f;
    return HD_OK;
  }

  hd_status eventDestroy(hd_plugin_event *base, hd_error *err) override {
    auto *event = static_cast<ClEvent *>(base);
    cl_int e = event->event ? api.clReleaseEvent(event->event) : CL_SUCCESS;
    delete event;
    return check(e, "clReleaseEvent", err);
  }

private:
  struct Buffer {
    cl_mem mem;
    uint64_t size;
  };

  hd_status check(cl_int code, const char *call, hd_error *err,
                  hd_status otherwise = HD_ERROR_INTERNAL) const {
    if (code == CL_SUCCESS)
      return HD_OK;
    bool memory = code == CL_MEM_OBJECT_ALLOCATION_FAILURE || code == CL_OUT_OF_HOST_MEMORY;
    return fail(err, memory ? HD_ERROR_OUT_OF_MEMORY : otherwise, "intel:%u: %s: %s", index, call,
                errorName(code).c_str());
  }

  /// The buffer holding [ptr, ptr + bytes) and the offset of ptr in it.
  hd_status resolve(hd_device_ptr ptr, uint64_t bytes, const char *what, cl_mem &mem,
                    uint64_t &offset, hd_error *err) {
    std::lock_guard<std::mutex> lock(mutex);
    auto it = buffers.upper_bound(ptr);
    if (it == buffers.begin() || ptr - std::prev(it)->first >= std::prev(it)->second.size ||
        bytes > std::prev(it)->second.size - (ptr - std::prev(it)->first))
      return fail(err, HD_ERROR_INVALID_ARGUMENT,
                  "intel:%u: %s of %" PRIu64 " bytes at 0x%" PRIx64
                  ": not inside one buffer of this device",
                  index, what, bytes, ptr);
    --it;
    mem = it->second.mem;
    offset = ptr - it->first;
    return HD_OK;
  }

  hd_status argumentBuffer(hd_device_ptr ptr, const char *kernel, uint32_t arg, cl_mem &mem,
                           std::vector<cl_mem> &subBuffers, hd_error *err) {
    uint64_t offset = 0;
    if (hd_status s = resolve(ptr, 0, "a pointer argument", mem, offset, err)) {
      if (ptr == 0) {
        mem = nullptr; // a null pointer argument is allowed
        return HD_OK;
      }
      return s;
    }
    if (offset == 0)
      return HD_OK;
    if (offset % baseAlign)
      return fail(err, HD_ERROR_INVALID_ARGUMENT,
                  "%s: argument %u points %" PRIu64
                  " bytes into a buffer; OpenCL devices take only offsets that are multiples of "
                  "%" PRIu64 " bytes (CL_DEVICE_MEM_BASE_ADDR_ALIGN)",
                  kernel, arg, offset, baseAlign);
    uint64_t size;
    {
      std::lock_guard<std::mutex> lock(mutex);
      size = std::prev(buffers.upper_bound(ptr))->second.size - offset;
    }
    cl_buffer_region region{static_cast<size_t>(offset), static_cast<size_t>(size)};
    cl_int e = CL_SUCCESS;
    cl_mem sub = api.clCreateSubBuffer(mem, CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION,
                                       &region, &e);
    if (!sub || e != CL_SUCCESS)
      return fail(err, HD_ERROR_INVALID_ARGUMENT,
                  "%s: argument %u: clCreateSubBuffer at offset %" PRIu64 ": %s", kernel, arg,
                  offset, errorName(e).c_str());
    subBuffers.push_back(sub);
    mem = sub;
    return HD_OK;
  }

  std::string buildLog(cl_program program) const {
    size_t size = 0;
    if (api.clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, 0, nullptr, &size) !=
            CL_SUCCESS ||
        size == 0)
      return "";
    std::string log(size, '\0');
    api.clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, size, log.data(), nullptr);
    log.resize(std::strlen(log.c_str()));
    return log;
  }

  const Api &api;
  cl_device_id device;
  cl_context context;
  cl_command_queue queue;
  cl_mem status;
  uint64_t baseAlign;
  bool viaSpir; ///< takes SPIR 1.2 bitcode, not SPIR-V
  std::mutex mutex; ///< buffers, nextAddress
  std::map<uint64_t, Buffer> buffers;
  uint64_t nextAddress = kFirstAddress;
};

bool takesSpirv(const Api &api, cl_device_id device) {
  return api.clCreateProgramWithIL &&
         deviceString(api, device, CL_DEVICE_IL_VERSION).find("SPIR-V") != std::string::npos;
}

/// A device's context, queue and status buffer; null with `why` on failure.
/// Takes SPIR 1.2 bitcode, into which SpirTranslation.h can turn SPIR-V.
bool takesSpirThroughTranslation(const Api &api, cl_device_id device) {
  std::string extensions = " " + deviceString(api, device, CL_DEVICE_EXTENSIONS) + " ";
  return extensions.find(" cl_khr_spir ") != std::string::npos && !spirTranslator().empty();
}

std::unique_ptr<OpenClDevice> open(const Api &api, cl_device_id device, bool viaSpir,
                                   std::string &why) {
  cl_int e = CL_SUCCESS;
  cl_context context = api.clCreateContext(nullptr, 1, &device, nullptr, nullptr, &e);
  if (!context || e != CL_SUCCESS) {
    why = "clCreateContext: " + errorName(e);
    return nullptr;
  }
  cl_command_queue queue = nullptr;
  if (api.clCreateCommandQueueWithProperties) {
    cl_queue_properties props[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE, 0};
    queue = api.clCreateCommandQueueWithProperties(context, device, props, &e);
  } else {
    queue = api.clCreateCommandQueue(context, device, CL_QUEUE_PROFILING_ENABLE, &e);
  }
  if (!queue || e != CL_SUCCESS) {
    why = "creating a command queue: " + errorName(e);
    return nullptr;
  }
  cl_mem status = api.clCreateBuffer(context, CL_MEM_READ_WRITE, kAssertStatusBytes, nullptr, &e);
  unsigned char zeros[kAssertStatusBytes] = {};
  if (status && e == CL_SUCCESS)
    e = api.clEnqueueWriteBuffer(queue, status, CL_TRUE, 0, sizeof(zeros), zeros, 0, nullptr,
                                 nullptr);
  if (!status || e != CL_SUCCESS) {
    why = "creating the assert status buffer: " + errorName(e);
    return nullptr;
  }
  // Bits, in OpenCL; bytes here.
  uint64_t align = deviceValue<cl_uint>(api, device, CL_DEVICE_MEM_BASE_ADDR_ALIGN, 1024) / 8;
  return std::make_unique<OpenClDevice>(api, device, context, queue, status, align ? align : 128,
                                        viaSpir);
}

void fillInfo(const Api &api, cl_platform_id platform, cl_device_id device, bool cpu,
              bool viaSpir, hd_device_info &info) {
  info = hd_device_info{};
  info.struct_size = sizeof(info);
  std::string name = deviceString(api, device, CL_DEVICE_NAME);
  std::snprintf(info.name, sizeof(info.name), "%.150s (opencl %s, %.60s%s)", name.c_str(),
                cpu ? "cpu" : "gpu", platformName(api, platform).c_str(),
                viaSpir ? ", through SPIR 1.2" : "");
  const char *arch = cpu ? "cpu" : archOfDeviceId(deviceValue<cl_uint>(api, device, CL_DEVICE_ID_INTEL, 0));
  std::snprintf(info.arch, sizeof(info.arch), "%s", *arch ? arch : "unknown");
  // The widest sub-group hd layouts use (and #hd.auto resolves to).
  info.warp_size = 32;
  info.max_threads_per_cta = static_cast<uint32_t>(
      std::min<size_t>(deviceValue<size_t>(api, device, CL_DEVICE_MAX_WORK_GROUP_SIZE, 256), 8192));
  info.shared_bytes_per_cta = deviceValue<cl_ulong>(api, device, CL_DEVICE_LOCAL_MEM_SIZE, 0);
  info.global_bytes = deviceValue<cl_ulong>(api, device, CL_DEVICE_GLOBAL_MEM_SIZE, 0);
  info.compute_units = deviceValue<cl_uint>(api, device, CL_DEVICE_MAX_COMPUTE_UNITS, 1);
  info.l2_bytes = deviceValue<cl_ulong>(api, device, CL_DEVICE_GLOBAL_MEM_CACHE_SIZE, 0);
}

} // namespace

Discovery discoverOpenCl(bool skipIntelGpus, bool includeCpus, unsigned &hiddenCpus) {
  Discovery d;
  hiddenCpus = 0;
  hd_error err{};
  const Api *api = load(&err);
  if (!api) {
    d.status = err.code;
    d.why = err.message;
    return d;
  }
  cl_uint count = 0;
  cl_int e = api->clGetPlatformIDs(0, nullptr, &count);
  if (e == CL_PLATFORM_NOT_FOUND_KHR || (e == CL_SUCCESS && count == 0)) {
    d.status = HD_ERROR_NO_DEVICE;
    d.why = "OpenCL: no platform (no ICD registered in /etc/OpenCL/vendors or OCL_ICD_VENDORS)";
    return d;
  }
  if (e != CL_SUCCESS) {
    d.status = HD_ERROR_NO_DEVICE;
    d.why = "OpenCL: clGetPlatformIDs: " + errorName(e);
    return d;
  }
  std::vector<cl_platform_id> platforms(count);
  api->clGetPlatformIDs(count, platforms.data(), nullptr);
  std::vector<std::string> skipped;
  // GPUs, then CPUs; of each, the devices that take SPIR-V before those
  // that take it only through SPIR 1.2 (whatever the ICDs' order).
  for (auto [type, spirPass] : {std::pair{CL_DEVICE_TYPE_GPU, false},
                                std::pair{CL_DEVICE_TYPE_GPU, true},
                                std::pair{CL_DEVICE_TYPE_CPU, false},
                                std::pair{CL_DEVICE_TYPE_CPU, true}}) {
    bool cpu = type == CL_DEVICE_TYPE_CPU;
    for (cl_platform_id platform : platforms) {
      cl_uint n = 0;
      if (api->clGetDeviceIDs(platform, type, 0, nullptr, &n) != CL_SUCCESS || n == 0)
        continue;
      std::vector<cl_device_id> devices(n);
      api->clGetDeviceIDs(platform, type, n, devices.data(), nullptr);
      for (cl_device_id device : devices) {
        std::string name = deviceString(*api, device, CL_DEVICE_NAME);
        bool viaSpir = !takesSpirv(*api, device);
        if (viaSpir != spirPass)
          continue;
        if (viaSpir && !takesSpirThroughTranslation(*api, device)) {
          skipped.push_back(name + " (no SPIR-V IL; SPIR 1.2 needs cl_khr_spir and llvm-spirv-15)");
          continue;
        }
        if (cpu && !includeCpus) {
          ++hiddenCpus;
          continue;
        }
        if (!cpu && skipIntelGpus &&
            platformName(*api, platform).find("Intel") != std::string::npos)
          continue;
        std::string why;
        std::unique_ptr<OpenClDevice> opened = open(*api, device, viaSpir, why);
        if (!opened) {
          skipped.push_back(name + " (" + why + ")");
          continue;
        }
        fillInfo(*api, platform, device, cpu, viaSpir, opened->info);
        d.devices.push_back(std::move(opened));
      }
    }
  }
  if (d.devices.empty()) {
    d.status = HD_ERROR_NO_DEVICE;
    d.why = "OpenCL: no device that takes SPIR-V";
    for (size_t i = 0; i < skipped.size(); ++i)
      d.why += (i ? ", " : "; skipped: ") + skipped[i];
  }
  return d;
}

} // namespace hadron::intel
