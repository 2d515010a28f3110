//===- LevelZeroDevice.cpp - Intel GPUs through Level Zero ----------------===//
//
// libze_loader.so.1 is dlopen'ed ($HADRON_INTEL_ZE_LIBRARY overrides it);
// the few types used are declared here (Level Zero 1.x layouts), so the
// plugin builds without the Level Zero headers. Without a GPU driver
// zeInit returns ZE_RESULT_ERROR_UNINITIALIZED (0x78000001), which becomes
// "Level Zero: zeInit: ZE_RESULT_ERROR_UNINITIALIZED (0x78000001)" in the
// load report.
//
// Discovery reads zeDeviceGetProperties (name, PCI device id -> arch,
// slices x sub-slices -> Xe cores) and zeDeviceGetComputeProperties
// (work-group size, SLM) to refine the arch's model. Each device gets a
// context and a synchronous immediate command list (every append has
// completed when it returns, which orders launches, copies and events):
//  - memory: zeMemAllocDevice (device pointers are hd_device_ptr as they
//    are), copies with zeCommandListAppendMemoryCopy;
//  - modules: zeModuleCreate from SPIR-V, the build log in the error;
//    kernels created once per module;
//  - launch: zeKernelSetGroupSize(num_warps x sub-group, 1, 1), arguments
//    by the signature, then the implicit __local size and assert status
//    buffer (IntelHooks.h), zeCommandListAppendLaunchKernel;
//  - events: zeCommandListAppendWriteGlobalTimestamp into host memory,
//    ticks x timerResolution (ns) apart;
//  - synchronize: reads the assert status buffer.
// Not yet run on a GPU: CI has none (docs/targets/intel.md).
//
//===----------------------------------------------------------------------===//

#include "IntelModel.h"
#include "IntelRuntime.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <map>
#include <mutex>
#include <new>
#include <string>

namespace hadron::intel {
namespace {

using ze_result_t = uint32_t;
using ze_driver_handle_t = struct _ze_driver_handle_t *;
using ze_device_handle_t = struct _ze_device_handle_t *;

constexpr ze_result_t ZE_RESULT_SUCCESS = 0;
constexpr uint32_t ZE_INIT_FLAG_GPU_ONLY = 1;
constexpr uint32_t ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES = 0x3;
constexpr uint32_t ZE_STRUCTURE_TYPE_DEVICE_COMPUTE_PROPERTIES = 0x4;
constexpr uint32_t ZE_DEVICE_TYPE_GPU = 1;
constexpr uint32_t ZE_SUBGROUPSIZE_COUNT = 8;

struct ze_device_properties_t {
  uint32_t stype;
  void *pNext;
  uint32_t type;
  uint32_t vendorId;
  uint32_t deviceId;
  uint32_t flags;
  uint32_t subdeviceId;
  uint32_t coreClockRate;
  uint64_t maxMemAllocSize;
  uint32_t maxHardwareContexts;
  uint32_t maxCommandQueuePriority;
  uint32_t numThreadsPerEU;
  uint32_t physicalEUSimdWidth;
  uint32_t numEUsPerSubslice;
  uint32_t numSubslicesPerSlice;
  uint32_t numSlices;
  uint64_t timerResolution;
  uint32_t timestampValidBits;
  uint32_t kernelTimestampValidBits;
  uint8_t uuid[16];
  char name[256];
};

struct ze_device_compute_properties_t {
  uint32_t stype;
  void *pNext;
  uint32_t maxTotalGroupSize;
  uint32_t maxGroupSizeX, maxGroupSizeY, maxGroupSizeZ;
  uint32_t maxGroupCountX, maxGroupCountY, maxGroupCountZ;
  uint32_t maxSharedLocalMemory;
  uint32_t numSubGroupSizes;
  uint32_t subGroupSizes[ZE_SUBGROUPSIZE_COUNT];
};

using ze_context_handle_t = struct _ze_context_handle_t *;
using ze_command_list_handle_t = struct _ze_command_list_handle_t *;
using ze_module_handle_t = struct _ze_module_handle_t *;
using ze_module_build_log_handle_t = struct _ze_module_build_log_handle_t *;
using ze_kernel_handle_t = struct _ze_kernel_handle_t *;
using ze_event_handle_t = struct _ze_event_handle_t *;

constexpr uint32_t ZE_STRUCTURE_TYPE_CONTEXT_DESC = 0xd;
constexpr uint32_t ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC = 0xe;
constexpr uint32_t ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC = 0x15;
constexpr uint32_t ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC = 0x16;
constexpr uint32_t ZE_STRUCTURE_TYPE_MODULE_DESC = 0x1b;
constexpr uint32_t ZE_STRUCTURE_TYPE_KERNEL_DESC = 0x1d;
constexpr uint32_t ZE_COMMAND_QUEUE_MODE_SYNCHRONOUS = 1;
constexpr uint32_t ZE_MODULE_FORMAT_IL_SPIRV = 0;
constexpr ze_result_t ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY = 0x70000002;
constexpr ze_result_t ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY = 0x70000003;

struct ze_context_desc_t {
  uint32_t stype;
  const void *pNext;
  uint32_t flags;
};
struct ze_command_queue_desc_t {
  uint32_t stype;
  const void *pNext;
  uint32_t ordinal, index, flags, mode, priority;
};
struct ze_device_mem_alloc_desc_t {
  uint32_t stype;
  const void *pNext;
  uint32_t flags, ordinal;
};
struct ze_host_mem_alloc_desc_t {
  uint32_t stype;
  const void *pNext;
  uint32_t flags;
};
struct ze_module_desc_t {
  uint32_t stype;
  const void *pNext;
  uint32_t format;
  size_t inputSize;
  const uint8_t *pInputModule;
  const char *pBuildFlags;
  const void *pConstants;
};
struct ze_kernel_desc_t {
  uint32_t stype;
  const void *pNext;
  uint32_t flags;
  const char *pKernelName;
};
struct ze_group_count_t {
  uint32_t groupCountX, groupCountY, groupCountZ;
};

struct ZeApi {
  ze_result_t (*zeInit)(uint32_t);
  ze_result_t (*zeDriverGet)(uint32_t *, ze_driver_handle_t *);
  ze_result_t (*zeDeviceGet)(ze_driver_handle_t, uint32_t *, ze_device_handle_t *);
  ze_result_t (*zeDeviceGetProperties)(ze_device_handle_t, ze_device_properties_t *);
  ze_result_t (*zeDeviceGetComputeProperties)(ze_device_handle_t,
                                              ze_device_compute_properties_t *);
  ze_result_t (*zeContextCreate)(ze_driver_handle_t, const ze_context_desc_t *,
                                 ze_context_handle_t *);
  ze_result_t (*zeCommandListCreateImmediate)(ze_context_handle_t, ze_device_handle_t,
                                              const ze_command_queue_desc_t *,
                                              ze_command_list_handle_t *);
  ze_result_t (*zeMemAllocDevice)(ze_context_handle_t, const ze_device_mem_alloc_desc_t *, size_t,
                                  size_t, ze_device_handle_t, void **);
  ze_result_t (*zeMemAllocHost)(ze_context_handle_t, const ze_host_mem_alloc_desc_t *, size_t,
                                size_t, void **);
  ze_result_t (*zeMemFree)(ze_context_handle_t, void *);
  ze_result_t (*zeCommandListAppendMemoryCopy)(ze_command_list_handle_t, void *, const void *,
                                               size_t, ze_event_handle_t, uint32_t,
                                               ze_event_handle_t *);
  ze_result_t (*zeModuleCreate)(ze_context_handle_t, ze_device_handle_t, const ze_module_desc_t *,
                                ze_module_handle_t *, ze_module_build_log_handle_t *);
  ze_result_t (*zeModuleDestroy)(ze_module_handle_t);
  ze_result_t (*zeModuleBuildLogGetString)(ze_module_build_log_handle_t, size_t *, char *);
  ze_result_t (*zeModuleBuildLogDestroy)(ze_module_build_log_handle_t);
  ze_result_t (*zeKernelCreate)(ze_module_handle_t, const ze_kernel_desc_t *,
                                ze_kernel_handle_t *);
  ze_result_t (*zeKernelDestroy)(ze_kernel_handle_t);
  ze_result_t (*zeKernelSetGroupSize)(ze_kernel_handle_t, uint32_t, uint32_t, uint32_t);
  ze_result_t (*zeKernelSetArgumentValue)(ze_kernel_handle_t, uint32_t, size_t, const void *);
  ze_result_t (*zeCommandListAppendLaunchKernel)(ze_command_list_handle_t, ze_kernel_handle_t,
                                                 const ze_group_count_t *, ze_event_handle_t,
                                                 uint32_t, ze_event_handle_t *);
  ze_result_t (*zeCommandListAppendWriteGlobalTimestamp)(ze_command_list_handle_t, uint64_t *,
                                                         ze_event_handle_t, uint32_t,
                                                         ze_event_handle_t *);
};

std::string resultName(ze_result_t r) {
  const char *name = nullptr;
  switch (r) {
  case 0x1: name = "ZE_RESULT_NOT_READY"; break;
  case 0x70000001: name = "ZE_RESULT_ERROR_DEVICE_LOST"; break;
  case 0x70000002: name = "ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY"; break;
  case 0x70000003: name = "ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY"; break;
  case 0x70000004: name = "ZE_RESULT_ERROR_MODULE_BUILD_FAILURE"; break;
  case 0x78000001: name = "ZE_RESULT_ERROR_UNINITIALIZED"; break;
  case 0x78000002: name = "ZE_RESULT_ERROR_UNSUPPORTED_VERSION"; break;
  case 0x78000003: name = "ZE_RESULT_ERROR_UNSUPPORTED_FEATURE"; break;
  case 0x78000004: name = "ZE_RESULT_ERROR_INVALID_ARGUMENT"; break;
  default: break;
  }
  char hex[16];
  std::snprintf(hex, sizeof(hex), "0x%x", r);
  return std::string(name ? name : "ze_result_t") + " (" + hex + ")";
}

struct ZeModule : hd_plugin_module {
  ze_module_handle_t module = nullptr;
  std::mutex mutex; ///< kernel creation, and argument setting + launch
  std::map<std::string, ze_kernel_handle_t> kernels;
};

struct ZeEvent : hd_plugin_event {
  uint64_t *stamp = nullptr; ///< host memory the timestamp is written to
};

class LevelZeroDevice : public DeviceImpl {
public:
  LevelZeroDevice(const ZeApi &ze, ze_device_handle_t device, ze_context_handle_t context,
                  ze_command_list_handle_t list, void *status, double nsPerTick,
                  uint64_t tickMask)
      : ze(ze), device(device), context(context), list(list), status(status),
        nsPerTick(nsPerTick), tickMask(tickMask) {}

  hd_status memAlloc(uint64_t bytes, hd_device_ptr *out, hd_error *err) override {
    ze_device_mem_alloc_desc_t desc{ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC, nullptr, 0, 0};
    void *p = nullptr;
    if (ze_result_t r = ze.zeMemAllocDevice(context, &desc, bytes ? bytes : 1, 64, device, &p))
      return check(r, "zeMemAllocDevice", err);
    *out = reinterpret_cast<hd_device_ptr>(p);
    return HD_OK;
  }
  hd_status memFree(hd_device_ptr ptr, hd_error *err) override {
    return check(ze.zeMemFree(context, reinterpret_cast<void *>(ptr)), "zeMemFree", err);
  }
  hd_status copyToDevice(hd_device_ptr dst, const void *src, uint64_t bytes,
                         hd_error *err) override {
    std::lock_guard<std::mutex> lock(mutex);
    return check(ze.zeCommandListAppendMemoryCopy(list, reinterpret_cast<void *>(dst), src, bytes,
                                                  nullptr, 0, nullptr),
                 "zeCommandListAppendMemoryCopy (host to device)", err);
  }
  hd_status copyToHost(void *dst, hd_device_ptr src, uint64_t bytes, hd_error *err) override {
    std::lock_guard<std::mutex> lock(mutex);
    return check(ze.zeCommandListAppendMemoryCopy(list, dst, reinterpret_cast<const void *>(src),
                                                  bytes, nullptr, 0, nullptr),
                 "zeCommandListAppendMemoryCopy (device to host)", err, HD_ERROR_LAUNCH);
  }
  hd_status loadSpirv(const void *binary, uint64_t size, hd_plugin_module **out,
                      hd_error *err) override {
    ze_module_desc_t desc{ZE_STRUCTURE_TYPE_MODULE_DESC, nullptr, ZE_MODULE_FORMAT_IL_SPIRV,
                          static_cast<size_t>(size), static_cast<const uint8_t *>(binary), "",
                          nullptr};
    ze_module_handle_t module = nullptr;
    ze_module_build_log_handle_t log = nullptr;
    ze_result_t r = ze.zeModuleCreate(context, device, &desc, &module, &log);
    std::string text;
    if (log) {
      size_t n = 0;
      if (ze.zeModuleBuildLogGetString(log, &n, nullptr) == ZE_RESULT_SUCCESS && n > 1) {
        text.resize(n);
        ze.zeModuleBuildLogGetString(log, &n, text.data());
        text.resize(std::strlen(text.c_str()));
      }
      ze.zeModuleBuildLogDestroy(log);
    }
    if (r != ZE_RESULT_SUCCESS)
      return fail(err, HD_ERROR_COMPILE, "intel:%u: zeModuleCreate: %s; build log:\n%s", index,
                  resultName(r).c_str(), text.empty() ? "(empty)" : text.c_str());
    auto *m = new (std::nothrow) ZeModule;
    if (!m) {
      ze.zeModuleDestroy(module);
      return fail(err, HD_ERROR_OUT_OF_MEMORY, "module_load: out of host memory");
    }
    m->device = index;
    m->module = module;
    *out = m;
    return HD_OK;
  }
  hd_status moduleUnload(hd_plugin_module *base, hd_error *err) override {
    auto *m = static_cast<ZeModule *>(base);
    for (auto &[name, kernel] : m->kernels)
      ze.zeKernelDestroy(kernel);
    ze_result_t r = ze.zeModuleDestroy(m->module);
    delete m;
    return check(r, "zeModuleDestroy", err);
  }
  hd_status launch(hd_plugin_module *base, const hd_kernel_signature *signature,
                   const uint32_t grid[3], const hd_arg *args, uint64_t dynamicSharedBytes,
                   hd_error *err) override {
    auto *m = static_cast<ZeModule *>(base);
    uint64_t threads = 0, localBytes = 0;
    if (hd_status s = checkLaunch(*signature, grid, dynamicSharedBytes, threads, localBytes, err))
      return s;
    std::lock_guard<std::mutex> lock(m->mutex);
    ze_kernel_handle_t kernel = nullptr;
    if (auto it = m->kernels.find(signature->name); it != m->kernels.end()) {
      kernel = it->second;
    } else {
      ze_kernel_desc_t desc{ZE_STRUCTURE_TYPE_KERNEL_DESC, nullptr, 0, signature->name};
      if (ze_result_t r = ze.zeKernelCreate(m->module, &desc, &kernel))
        return fail(err, HD_ERROR_INVALID_ARGUMENT, "intel:%u: zeKernelCreate '%s': %s", index,
                    signature->name, resultName(r).c_str());
      m->kernels.emplace(signature->name, kernel);
    }
    if (ze_result_t r = ze.zeKernelSetGroupSize(kernel, static_cast<uint32_t>(threads), 1, 1))
      return check(r, "zeKernelSetGroupSize", err, HD_ERROR_INVALID_ARGUMENT);
    for (uint32_t i = 0; i < signature->num_args; ++i) {
      ze_result_t r;
      if (args[i].kind == HD_ARG_TENSOR_DESC) {
                return fail(err, HD_ERROR_UNSUPPORTED,
                    "intel:%u: argument %u of %s is a tensor descriptor; this runtime does not "
                    "pass descriptors yet (the kernel compiles for Intel)",
                    index, i, signature->name);
      }
      if (args[i].kind == HD_ARG_PTR) {
        void *p = reinterpret_cast<void *>(args[i].value.ptr);
        r = ze.zeKernelSetArgumentValue(kernel, i, sizeof(p), &p);
      } else {
        unsigned char bytes[8] = {};
        packScalarArg(args[i], bytes);
        r = ze.zeKernelSetArgumentValue(kernel, i, scalarArgBytes(args[i].kind), bytes);
      }
      if (r)
        return fail(err, HD_ERROR_INVALID_ARGUMENT, "intel:%u: zeKernelSetArgumentValue %u of %s: %s",
                    index, i, signature->name, resultName(r).c_str());
    }
    ze_result_t r = ze.zeKernelSetArgumentValue(kernel, signature->num_args,
                                                std::max<uint64_t>(localBytes, 4), nullptr);
    if (r == ZE_RESULT_SUCCESS)
      r = ze.zeKernelSetArgumentValue(kernel, signature->num_args + 1, sizeof(status), &status);
    if (r)
      return fail(err, HD_ERROR_INVALID_ARGUMENT,
                  "intel:%u: zeKernelSetArgumentValue (implicit shared memory / assert status) of "
                  "%s: %s",
                  index, signature->name, resultName(r).c_str());
    ze_group_count_t groups{grid[0], grid[1], grid[2]};
    std::lock_guard<std::mutex> listLock(mutex);
    r = ze.zeCommandListAppendLaunchKernel(list, kernel, &groups, nullptr, 0, nullptr);
    if (r)
      return fail(err, HD_ERROR_LAUNCH,
                  "intel:%u: zeCommandListAppendLaunchKernel %s on a grid of (%u, %u, %u) x %llu "
                  "work-items: %s",
                  index, signature->name, grid[0], grid[1], grid[2],
                  static_cast<unsigned long long>(threads), resultName(r).c_str());
    return HD_OK;
  }
  hd_status synchronize(hd_error *err) override {
    unsigned char report[kAssertStatusBytes] = {};
    std::lock_guard<std::mutex> lock(mutex);
    if (ze_result_t r = ze.zeCommandListAppendMemoryCopy(list, report, status, sizeof(report),
                                                         nullptr, 0, nullptr))
      return check(r, "zeCommandListAppendMemoryCopy (assert status)", err, HD_ERROR_LAUNCH);
    bool clear = false;
    hd_status outcome = assertOutcome(report, clear, err);
    if (clear) {
      unsigned char zeros[kAssertStatusBytes] = {};
      ze.zeCommandListAppendMemoryCopy(list, status, zeros, sizeof(zeros), nullptr, 0, nullptr);
    }
    return outcome;
  }
  hd_status eventCreate(hd_plugin_event **out, hd_error *err) override {
    ze_host_mem_alloc_desc_t desc{ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC, nullptr, 0};
    void *p = nullptr;
    if (ze_result_t r = ze.zeMemAllocHost(context, &desc, sizeof(uint64_t), 8, &p))
      return check(r, "zeMemAllocHost (event timestamp)", err);
    auto *e = new (std::nothrow) ZeEvent;
    if (!e) {
      ze.zeMemFree(context, p);
      return fail(err, HD_ERROR_OUT_OF_MEMORY, "event_create: out of host memory");
    }
    e->device = index;
    e->stamp = static_cast<uint64_t *>(p);
    *out = e;
    return HD_OK;
  }
  hd_status eventRecord(hd_plugin_event *base, hd_error *err) override {
    auto *e = static_cast<ZeEvent *>(base);
    std::lock_guard<std::mutex> lock(mutex);
    if (ze_result_t r =
            ze.zeCommandListAppendWriteGlobalTimestamp(list, e->stamp, nullptr, 0, nullptr))
      return check(r, "zeCommandListAppendWriteGlobalTimestamp", err);
    e->recorded = true;
    return HD_OK;
  }
  hd_status eventElapsedMs(hd_plugin_event *startBase, hd_plugin_event *endBase, float *ms,
                           hd_error *) override {
    uint64_t t0 = *static_cast<ZeEvent *>(startBase)->stamp & tickMask;
    uint64_t t1 = *static_cast<ZeEvent *>(endBase)->stamp & tickMask;
    uint64_t ticks = t1 >= t0 ? t1 - t0 : t1 + (tickMask - t0) + 1;
    *ms = static_cast<float>(double(ticks) * nsPerTick / 1e6);
    return HD_OK;
  }
  hd_status eventDestroy(hd_plugin_event *base, hd_error *err) override {
    auto *e = static_cast<ZeEvent *>(base);
    ze_result_t r = ze.zeMemFree(context, e->stamp);
    delete e;
    return check(r, "zeMemFree (event timestamp)", err);
  }

private:
  hd_status check(ze_result_t r, const char *call, hd_error *err,
                  hd_status otherwise = HD_ERROR_INTERNAL) const {
    if (r == ZE_RESULT_SUCCESS)
      return HD_OK;
    bool memory = r == ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY || r == ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY;
    return fail(err, memory ? HD_ERROR_OUT_OF_MEMORY : otherwise, "intel:%u: %s: %s", index, call,
                resultName(r).c_str());
  }

  const ZeApi &ze;
  ze_device_handle_t device;
  ze_context_handle_t context;
  ze_command_list_handle_t list;
  void *status;
  double nsPerTick;
  uint64_t tickMask;
  std::mutex mutex; ///< the command list
};

template <typename F> bool resolve(void *lib, const char *name, F &fn, std::string &missing) {
  fn = reinterpret_cast<F>(dlsym(lib, name));
  if (!fn)
    missing += (missing.empty() ? "" : ", ") + std::string(name);
  return fn != nullptr;
}

} // namespace

Discovery discoverLevelZero() {
  Discovery d;
  const char *env = std::getenv("HADRON_INTEL_ZE_LIBRARY");
  std::string name = env && *env ? env : "libze_loader.so.1";
  void *lib = dlopen(name.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    const char *why = dlerror();
    d.status = HD_ERROR_DRIVER_MISSING;
    d.why = "Level Zero: " + name + " not found (" + (why ? why : "dlopen failed") + ")";
    return d;
  }
  // The entry points live as long as the process: devices keep a reference.
  static ZeApi ze{};
  std::string missing;
  resolve(lib, "zeInit", ze.zeInit, missing);
  resolve(lib, "zeDriverGet", ze.zeDriverGet, missing);
  resolve(lib, "zeDeviceGet", ze.zeDeviceGet, missing);
  resolve(lib, "zeDeviceGetProperties", ze.zeDeviceGetProperties, missing);
  resolve(lib, "zeDeviceGetComputeProperties", ze.zeDeviceGetComputeProperties, missing);
  resolve(lib, "zeContextCreate", ze.zeContextCreate, missing);
  resolve(lib, "zeCommandListCreateImmediate", ze.zeCommandListCreateImmediate, missing);
  resolve(lib, "zeMemAllocDevice", ze.zeMemAllocDevice, missing);
  resolve(lib, "zeMemAllocHost", ze.zeMemAllocHost, missing);
  resolve(lib, "zeMemFree", ze.zeMemFree, missing);
  resolve(lib, "zeCommandListAppendMemoryCopy", ze.zeCommandListAppendMemoryCopy, missing);
  resolve(lib, "zeModuleCreate", ze.zeModuleCreate, missing);
  resolve(lib, "zeModuleDestroy", ze.zeModuleDestroy, missing);
  resolve(lib, "zeModuleBuildLogGetString", ze.zeModuleBuildLogGetString, missing);
  resolve(lib, "zeModuleBuildLogDestroy", ze.zeModuleBuildLogDestroy, missing);
  resolve(lib, "zeKernelCreate", ze.zeKernelCreate, missing);
  resolve(lib, "zeKernelDestroy", ze.zeKernelDestroy, missing);
  resolve(lib, "zeKernelSetGroupSize", ze.zeKernelSetGroupSize, missing);
  resolve(lib, "zeKernelSetArgumentValue", ze.zeKernelSetArgumentValue, missing);
  resolve(lib, "zeCommandListAppendLaunchKernel", ze.zeCommandListAppendLaunchKernel, missing);
  resolve(lib, "zeCommandListAppendWriteGlobalTimestamp",
          ze.zeCommandListAppendWriteGlobalTimestamp, missing);
  if (!missing.empty()) {
    d.status = HD_ERROR_DRIVER_MISSING;
    d.why = "Level Zero: " + name + " lacks " + missing;
    return d;
  }
  if (ze_result_t r = ze.zeInit(ZE_INIT_FLAG_GPU_ONLY)) {
    d.status = HD_ERROR_NO_DEVICE;
    d.why = "Level Zero: zeInit: " + resultName(r);
    return d;
  }
  uint32_t drivers = 0;
  if (ze_result_t r = ze.zeDriverGet(&drivers, nullptr); r || drivers == 0) {
    d.status = HD_ERROR_NO_DEVICE;
    d.why = r ? "Level Zero: zeDriverGet: " + resultName(r) : "Level Zero: no driver";
    return d;
  }
  std::vector<ze_driver_handle_t> driverHandles(drivers);
  ze.zeDriverGet(&drivers, driverHandles.data());
  std::vector<std::string> unusable;
  for (ze_driver_handle_t driver : driverHandles) {
    ze_context_desc_t contextDesc{ZE_STRUCTURE_TYPE_CONTEXT_DESC, nullptr, 0};
    ze_context_handle_t context = nullptr;
    if (ze_result_t r = ze.zeContextCreate(driver, &contextDesc, &context)) {
      unusable.push_back("zeContextCreate: " + resultName(r));
      continue;
    }
    uint32_t count = 0;
    if (ze.zeDeviceGet(driver, &count, nullptr) || count == 0)
      continue;
    std::vector<ze_device_handle_t> devices(count);
    ze.zeDeviceGet(driver, &count, devices.data());
    for (ze_device_handle_t device : devices) {
      ze_device_properties_t props{};
      props.stype = ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES;
      if (ze.zeDeviceGetProperties(device, &props) || props.type != ZE_DEVICE_TYPE_GPU)
        continue;
      ze_device_compute_properties_t compute{};
      compute.stype = ZE_STRUCTURE_TYPE_DEVICE_COMPUTE_PROPERTIES;
      bool haveCompute = ze.zeDeviceGetComputeProperties(device, &compute) == ZE_RESULT_SUCCESS;
      ze_command_queue_desc_t queueDesc{ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC, nullptr, 0, 0, 0,
                                        ZE_COMMAND_QUEUE_MODE_SYNCHRONOUS, 0};
      ze_command_list_handle_t list = nullptr;
      if (ze_result_t r = ze.zeCommandListCreateImmediate(context, device, &queueDesc, &list)) {
        unusable.push_back(std::string(props.name) + ": zeCommandListCreateImmediate: " +
                           resultName(r));
        continue;
      }
      ze_device_mem_alloc_desc_t memDesc{ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC, nullptr, 0, 0};
      void *status = nullptr;
      unsigned char zeros[kAssertStatusBytes] = {};
      ze_result_t r = ze.zeMemAllocDevice(context, &memDesc, kAssertStatusBytes, 64, device, &status);
      if (r == ZE_RESULT_SUCCESS)
        r = ze.zeCommandListAppendMemoryCopy(list, status, zeros, sizeof(zeros), nullptr, 0,
                                             nullptr);
      if (r) {
        unusable.push_back(std::string(props.name) + ": the assert status buffer: " +
                           resultName(r));
        continue;
      }
      uint64_t mask = props.timestampValidBits >= 64 ? ~uint64_t(0)
                                                     : (uint64_t(1) << props.timestampValidBits) - 1;
      // With ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES, timerResolution is in ns.
      auto impl = std::make_unique<LevelZeroDevice>(ze, device, context, list, status,
                                                    double(props.timerResolution), mask);
      hd_device_info &info = impl->info;
      info.struct_size = sizeof(info);
      std::snprintf(info.name, sizeof(info.name), "%.240s (level zero)", props.name);
      const char *arch = archOfDeviceId(props.deviceId);
      std::snprintf(info.arch, sizeof(info.arch), "%s", *arch ? arch : "unknown");
      const ArchModel *model = findArch(arch);
      info.warp_size = 32;
      info.max_threads_per_cta = haveCompute ? compute.maxTotalGroupSize
                                             : (model ? model->maxWorkGroupSize : 1024);
      info.shared_bytes_per_cta = haveCompute ? compute.maxSharedLocalMemory
                                              : (model ? model->slmBytesPerWorkGroup : 0);
      info.global_bytes = props.maxMemAllocSize;
      // Xe cores = sub-slices.
      info.compute_units = props.numSlices * props.numSubslicesPerSlice;
      if (model) {
        info.l1_bytes = model->l1Bytes;
        info.l2_bytes = model->l2Bytes;
      }
      d.devices.push_back(std::move(impl));
    }
  }
  if (d.devices.empty()) {
    d.status = HD_ERROR_NO_DEVICE;
    d.why = "Level Zero: no GPU";
    for (size_t i = 0; i < unusable.size(); ++i)
      d.why += (i ? ", " : "; unusable: ") + unusable[i];
  }
  return d;
}

} // namespace hadron::intel
