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
// (work-group size, SLM, sub-group sizes) to refine the arch's model.
// Launches on Level Zero devices are not implemented yet: their memory,
// module and launch entries report HD_ERROR_UNSUPPORTED with that reason,
// and the device is usable through OpenCL (HADRON_INTEL_DRIVER=opencl).
//
//===----------------------------------------------------------------------===//

#include "IntelModel.h"
#include "IntelRuntime.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
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

struct ZeApi {
  ze_result_t (*zeInit)(uint32_t);
  ze_result_t (*zeDriverGet)(uint32_t *, ze_driver_handle_t *);
  ze_result_t (*zeDeviceGet)(ze_driver_handle_t, uint32_t *, ze_device_handle_t *);
  ze_result_t (*zeDeviceGetProperties)(ze_device_handle_t, ze_device_properties_t *);
  ze_result_t (*zeDeviceGetComputeProperties)(ze_device_handle_t,
                                              ze_device_compute_properties_t *);
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

/// A Level Zero GPU whose launches are not implemented yet.
class LevelZeroDevice : public DeviceImpl {
public:
  hd_status memAlloc(uint64_t, hd_device_ptr *, hd_error *err) override { return no(err, "mem_alloc"); }
  hd_status memFree(hd_device_ptr, hd_error *err) override { return no(err, "mem_free"); }
  hd_status copyToDevice(hd_device_ptr, const void *, uint64_t, hd_error *err) override {
    return no(err, "copy_to_device");
  }
  hd_status copyToHost(void *, hd_device_ptr, uint64_t, hd_error *err) override {
    return no(err, "copy_to_host");
  }
  hd_status moduleLoad(const void *, uint64_t, hd_plugin_module **, hd_error *err) override {
    return no(err, "module_load");
  }
  hd_status moduleUnload(hd_plugin_module *, hd_error *err) override {
    return no(err, "module_unload");
  }
  hd_status launch(hd_plugin_module *, const hd_kernel_signature *, const uint32_t[3],
                   const hd_arg *, uint64_t, hd_error *err) override {
    return no(err, "launch");
  }
  hd_status synchronize(hd_error *err) override { return no(err, "synchronize"); }
  hd_status eventCreate(hd_plugin_event **, hd_error *err) override { return no(err, "event_create"); }
  hd_status eventRecord(hd_plugin_event *, hd_error *err) override { return no(err, "event_record"); }
  hd_status eventElapsedMs(hd_plugin_event *, hd_plugin_event *, float *, hd_error *err) override {
    return no(err, "event_elapsed_ms");
  }
  hd_status eventDestroy(hd_plugin_event *, hd_error *err) override {
    return no(err, "event_destroy");
  }

private:
  hd_status no(hd_error *err, const char *what) const {
    return fail(err, HD_ERROR_UNSUPPORTED,
                "intel:%u (%s): %s through Level Zero is not implemented yet; run with "
                "HADRON_INTEL_DRIVER=opencl to use the GPU through OpenCL",
                index, info.name, what);
  }
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
  ZeApi ze{};
  std::string missing;
  resolve(lib, "zeInit", ze.zeInit, missing);
  resolve(lib, "zeDriverGet", ze.zeDriverGet, missing);
  resolve(lib, "zeDeviceGet", ze.zeDeviceGet, missing);
  resolve(lib, "zeDeviceGetProperties", ze.zeDeviceGetProperties, missing);
  resolve(lib, "zeDeviceGetComputeProperties", ze.zeDeviceGetComputeProperties, missing);
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
  for (ze_driver_handle_t driver : driverHandles) {
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
      auto impl = std::make_unique<LevelZeroDevice>();
      hd_device_info &info = impl->info;
      info.struct_size = sizeof(info);
      std::snprintf(info.name, sizeof(info.name), "%s (level zero)", props.name);
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
  }
  return d;
}

} // namespace hadron::intel
