//===- NvidiaPlugin.cpp - The NVIDIA plugin's entry, devices and memory ---===//
//
// init loads libcuda.so.1 (or $HADRON_NVIDIA_DRIVER, which the tests use to
// point at CUDA's stub library), runs cuInit, and for every device retains
// its primary context and builds its hd_device_info: the static model of
// its architecture (model/NvidiaModel.h), refined with what the driver says
// (name, compute capability, SM count, opt-in shared memory, L2, memory).
// Failures are reported the way `hadron devices` shows them:
//   "libcuda.so.1 not found (...)"             HD_ERROR_DRIVER_MISSING
//   "no device (cuInit: CUDA_ERROR_NO_DEVICE (...))"   HD_ERROR_NO_DEVICE
//
// Launches, copies and events use the legacy default stream of each
// device's primary context, so everything submitted to one device runs in
// submission order (the ABI's per-device queue).
//
//===----------------------------------------------------------------------===//

#include "NvidiaRuntime.h"

#include "../NvidiaKernelABI.h"
#include "../model/NvidiaModel.h"

#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <new>
#include <string>

namespace hadron::nvidia {

namespace {

cuda::Driver gDriver{};
std::vector<Device> gDevices;

constexpr const char *kDriverLibrary = "libcuda.so.1";

} // namespace

const cuda::Driver &driver() { return gDriver; }
std::vector<Device> &devices() { return gDevices; }

hd_status check(cuda::CUresult result, const char *call, hd_error *err, hd_status code,
                const std::string &context) {
  if (result == cuda::CUDA_SUCCESS)
    return HD_OK;
  if (result == cuda::CUDA_ERROR_OUT_OF_MEMORY)
    code = HD_ERROR_OUT_OF_MEMORY;
  std::string what = cuda::describe(gDriver, call, result);
  return fail(err, code, "%s%s%s", context.c_str(), context.empty() ? "" : ": ", what.c_str());
}

hd_status enterDevice(uint32_t device, hd_error *err) {
  if (device >= gDevices.size())
    return fail(err, HD_ERROR_INVALID_ARGUMENT, "nvidia has %zu device(s), got device %u",
                gDevices.size(), device);
  // Cheap (a thread-local store in the driver), and always right even when
  // the program switched this thread to another context in between.
  cuda::CUresult rc = gDriver.cuCtxSetCurrent(gDevices[device].context);
  if (rc == cuda::CUDA_SUCCESS)
    return HD_OK;
  return check(rc, "cuCtxSetCurrent", err, HD_ERROR_INTERNAL, "nvidia:" + std::to_string(device));
}

namespace {

int attribute(cuda::CUdevice dev, cuda::CUdevice_attribute which, int fallback) {
  int value = 0;
  return gDriver.cuDeviceGetAttribute(&value, which, dev) == cuda::CUDA_SUCCESS ? value : fallback;
}

/// The device's hd_device_info (and the launch limits kept beside it).
hd_status describeDevice(int ordinal, Device &d, hd_error *err) {
  std::string where = "nvidia:" + std::to_string(ordinal);
  if (hd_status s = check(gDriver.cuDeviceGet(&d.handle, ordinal), "cuDeviceGet", err,
                          HD_ERROR_NO_DEVICE, where))
    return s;
  int major = attribute(d.handle, cuda::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, 0);
  int minor = attribute(d.handle, cuda::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, 0);
  std::string arch = archName(major, minor);
  // An architecture the table lacks (newer than it, or older than sm_80)
  // still gets what the driver reports; compiling for it falls back to the
  // plugin's default arch (runtime.md).
  const ArchModel *model = findArch(arch);

  hd_device_info &info = d.info;
  info.struct_size = sizeof(hd_device_info);
  char name[256] = {0};
  if (gDriver.cuDeviceGetName(name, sizeof(name) - 1, d.handle) != cuda::CUDA_SUCCESS)
    std::snprintf(name, sizeof(name), "NVIDIA GPU (compute capability %d.%d)", major, minor);
  std::snprintf(info.name, sizeof(info.name), "%s", name);
  std::snprintf(info.arch, sizeof(info.arch), "%s", arch.c_str());
  info.warp_size = static_cast<uint32_t>(
      attribute(d.handle, cuda::CU_DEVICE_ATTRIBUTE_WARP_SIZE, HD_NVIDIA_WARP_SIZE));
  info.max_threads_per_cta = static_cast<uint32_t>(attribute(
      d.handle, cuda::CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK,
      model ? static_cast<int>(model->maxThreadsPerCTA) : 1024));
  d.sharedBytesDefault = static_cast<uint64_t>(attribute(
      d.handle, cuda::CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK, 48 * 1024));
  // What one CTA may use after opting in: the runtime checks launches
  // against it, this plugin raises the kernel's limit when needed.
  info.shared_bytes_per_cta = static_cast<uint64_t>(attribute(
      d.handle, cuda::CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN,
      model ? static_cast<int>(model->sharedBytesPerCTAOptIn)
            : static_cast<int>(d.sharedBytesDefault)));
  size_t total = 0;
  if (gDriver.cuDeviceTotalMem(&total, d.handle) == cuda::CUDA_SUCCESS)
    info.global_bytes = total;
  info.compute_units = static_cast<uint32_t>(
      attribute(d.handle, cuda::CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT,
                model ? static_cast<int>(model->smCount) : 0));
  // The driver does not report L1; the model gives the unified L1/shared
  // array of the architecture.
  info.l1_bytes = model ? model->l1AndSharedBytesPerSM : 0;
  info.l2_bytes = static_cast<uint64_t>(attribute(
      d.handle, cuda::CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE,
      model ? static_cast<int>(model->l2Bytes) : 0));
  d.maxGrid[0] = static_cast<unsigned>(
      attribute(d.handle, cuda::CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X, 2147483647));
  d.maxGrid[1] =
      static_cast<unsigned>(attribute(d.handle, cuda::CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y, 65535));
  d.maxGrid[2] =
      static_cast<unsigned>(attribute(d.handle, cuda::CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z, 65535));
  return check(gDriver.cuDevicePrimaryCtxRetain(&d.context, d.handle),
               "cuDevicePrimaryCtxRetain", err, HD_ERROR_NO_DEVICE, where);
}

struct InitResult {
  hd_status status = HD_OK;
  std::string message;
};

InitResult initialise() {
  InitResult r;
  const char *library = std::getenv("HADRON_NVIDIA_DRIVER");
  if (!library || !*library)
    library = kDriverLibrary;
  std::string why;
  bool missing = false;
  if (!cuda::load(library, gDriver, why, missing)) {
    r.status = HD_ERROR_DRIVER_MISSING;
    r.message = missing ? std::string(library) + " not found (" + why +
                              "); the NVIDIA driver is not installed"
                        : why;
    gDriver = cuda::Driver{};
    return r;
  }
  hd_error err{};
  if (cuda::CUresult rc = gDriver.cuInit(0)) {
    r.status = HD_ERROR_NO_DEVICE;
    r.message = "no device (" + cuda::describe(gDriver, "cuInit", rc) + ")";
    return r;
  }
  int count = 0;
  if (cuda::CUresult rc = gDriver.cuDeviceGetCount(&count)) {
    r.status = HD_ERROR_NO_DEVICE;
    r.message = "no device (" + cuda::describe(gDriver, "cuDeviceGetCount", rc) + ")";
    return r;
  }
  if (count <= 0) {
    r.status = HD_ERROR_NO_DEVICE;
    r.message = "no device (CUDA_ERROR_NO_DEVICE: the driver reports 0 devices)";
    return r;
  }
  std::vector<Device> found(static_cast<size_t>(count));
  for (int i = 0; i < count; ++i) {
    if (describeDevice(i, found[i], &err) != HD_OK) {
      r.status = err.code;
      r.message = std::string("no usable device (") + err.message + ")";
      return r;
    }
  }
  gDevices = std::move(found);
  return r;
}

hd_status nvidiaInit(hd_error *err) {
  // Idempotent and thread-safe: the first call does the work, every call
  // reports its outcome.
  static std::once_flag once;
  static InitResult result;
  std::call_once(once, [] { result = initialise(); });
  if (result.status != HD_OK)
    return fail(err, result.status, "%s", result.message.c_str());
  return HD_OK;
}

uint32_t nvidiaDeviceCount() { return static_cast<uint32_t>(gDevices.size()); }

// Writes only the fields that lie inside info->struct_size.
hd_status nvidiaDeviceInfo(uint32_t device, hd_device_info *info, hd_error *err) {
  if (device >= gDevices.size())
    return fail(err, HD_ERROR_INVALID_ARGUMENT, "nvidia has %zu device(s), got device %u",
                gDevices.size(), device);
  return plugin::copyDeviceInfo(gDevices[device].info, info, err);
}

std::string bytesContext(const char *what, uint64_t bytes, uint32_t device) {
  return std::string(what) + " of " + std::to_string(bytes) + " bytes on nvidia:" +
         std::to_string(device);
}

hd_status nvidiaMemAlloc(uint32_t device, uint64_t bytes, hd_device_ptr *out, hd_error *err) {
  if (hd_status s = enterDevice(device, err))
    return s;
  // cuMemAlloc refuses 0 bytes; every buffer still gets its own address.
  cuda::CUdeviceptr ptr = 0;
  cuda::CUresult rc = gDriver.cuMemAlloc(&ptr, bytes ? bytes : 1);
  if (rc == cuda::CUDA_ERROR_OUT_OF_MEMORY) {
    size_t freeBytes = 0, totalBytes = 0;
    gDriver.cuMemGetInfo(&freeBytes, &totalBytes);
    return fail(err, HD_ERROR_OUT_OF_MEMORY,
                "cuMemAlloc of %" PRIu64 " bytes on nvidia:%u: out of memory (the device has "
                "%zu of %zu bytes free)",
                bytes, device, freeBytes, totalBytes);
  }
  if (hd_status s = check(rc, "cuMemAlloc", err, HD_ERROR_OUT_OF_MEMORY,
                          bytesContext("allocation", bytes, device)))
    return s;
  *out = ptr;
  return HD_OK;
}

hd_status nvidiaMemFree(uint32_t device, hd_device_ptr ptr, hd_error *err) {
  if (hd_status s = enterDevice(device, err))
    return s;
  char where[64];
  std::snprintf(where, sizeof(where), "freeing 0x%" PRIx64 " on nvidia:%u", ptr, device);
  return check(gDriver.cuMemFree(ptr), "cuMemFree", err, HD_ERROR_INVALID_ARGUMENT, where);
}

hd_status nvidiaCopyToDevice(uint32_t device, hd_device_ptr dst, const void *src, uint64_t bytes,
                             hd_error *err) {
  if (hd_status s = enterDevice(device, err))
    return s;
  if (bytes == 0)
    return HD_OK;
  return check(gDriver.cuMemcpyHtoD(dst, src, bytes), "cuMemcpyHtoD", err, HD_ERROR_INVALID_ARGUMENT,
               bytesContext("copy to the device", bytes, device));
}

hd_status nvidiaCopyToHost(uint32_t device, void *dst, hd_device_ptr src, uint64_t bytes,
                           hd_error *err) {
  if (hd_status s = enterDevice(device, err))
    return s;
  if (bytes == 0)
    return HD_OK;
  // Synchronous: it also reports a fault of an earlier launch.
  return check(gDriver.cuMemcpyDtoH(dst, src, bytes), "cuMemcpyDtoH", err, HD_ERROR_LAUNCH,
               bytesContext("copy to the host", bytes, device));
}

hd_status nvidiaSynchronize(uint32_t device, hd_error *err) {
  if (hd_status s = enterDevice(device, err))
    return s;
  return check(gDriver.cuCtxSynchronize(), "cuCtxSynchronize", err, HD_ERROR_LAUNCH,
               "synchronizing nvidia:" + std::to_string(device));
}

} // namespace

} // namespace hadron::nvidia

struct hd_plugin_event {
  uint32_t device;
  hadron::nvidia::cuda::CUevent event;
  bool recorded;
};

namespace hadron::nvidia {
namespace {

hd_status nvidiaEventCreate(uint32_t device, hd_plugin_event **out, hd_error *err) {
  if (hd_status s = enterDevice(device, err))
    return s;
  cuda::CUevent event = nullptr;
  if (hd_status s = check(gDriver.cuEventCreate(&event, 0), "cuEventCreate", err,
                          HD_ERROR_INTERNAL, "nvidia:" + std::to_string(device)))
    return s;
  *out = new (std::nothrow) hd_plugin_event{device, event, false};
  if (!*out) {
    gDriver.cuEventDestroy(event);
    return fail(err, HD_ERROR_OUT_OF_MEMORY, "event_create: out of host memory");
  }
  return HD_OK;
}

hd_status nvidiaEventRecord(hd_plugin_event *event, hd_error *err) {
  if (hd_status s = enterDevice(event->device, err))
    return s;
  if (hd_status s = check(gDriver.cuEventRecord(event->event, nullptr), "cuEventRecord", err,
                          HD_ERROR_INTERNAL, "nvidia:" + std::to_string(event->device)))
    return s;
  event->recorded = true;
  return HD_OK;
}

hd_status nvidiaEventElapsedMs(hd_plugin_event *start, hd_plugin_event *end, float *ms,
                               hd_error *err) {
  if (!start->recorded || !end->recorded)
    return fail(err, HD_ERROR_INVALID_ARGUMENT,
                "event_elapsed_ms: the %s event was never recorded",
                start->recorded ? "end" : "start");
  if (start->device != end->device)
    return fail(err, HD_ERROR_INVALID_ARGUMENT,
                "event_elapsed_ms: the events are on nvidia:%u and nvidia:%u", start->device,
                end->device);
  if (hd_status s = enterDevice(end->device, err))
    return s;
  std::string where = "nvidia:" + std::to_string(end->device);
  if (hd_status s = check(gDriver.cuEventSynchronize(end->event), "cuEventSynchronize", err,
                          HD_ERROR_LAUNCH, where))
    return s;
  return check(gDriver.cuEventElapsedTime(ms, start->event, end->event), "cuEventElapsedTime",
               err, HD_ERROR_INTERNAL, where);
}

hd_status nvidiaEventDestroy(hd_plugin_event *event, hd_error *err) {
  hd_status s = enterDevice(event->device, err);
  if (s == HD_OK)
    s = check(gDriver.cuEventDestroy(event->event), "cuEventDestroy", err, HD_ERROR_INTERNAL,
              "nvidia:" + std::to_string(event->device));
  delete event;
  return s;
}

const hd_runtime_table kRuntimeTable = {
    sizeof(hd_runtime_table),
    nvidiaInit,
    nvidiaDeviceCount,
    nvidiaDeviceInfo,
    nvidiaMemAlloc,
    nvidiaMemFree,
    nvidiaCopyToDevice,
    nvidiaCopyToHost,
    moduleLoad,
    moduleUnload,
    launch,
    nvidiaSynchronize,
    nvidiaEventCreate,
    nvidiaEventRecord,
    nvidiaEventElapsedMs,
    nvidiaEventDestroy,
};

/// The descriptor's archs, from the model table, NULL-terminated.
const char *const *archList() {
  static const std::vector<const char *> list = plugin::archNames(archModels());
  return list.data();
}

} // namespace
} // namespace hadron::nvidia

extern "C" HADRON_PLUGIN_EXPORT const hd_plugin_descriptor *hadron_plugin_entry(void) {
  static const hd_plugin_descriptor descriptor = {
      sizeof(hd_plugin_descriptor),
      HADRON_PLUGIN_ABI_MAJOR,
      HADRON_PLUGIN_ABI_MINOR,
      "nvidia",
      hadron::nvidia::archModels().front().arch,
      hadron::nvidia::archList(),
      "libhadron-target-nvidia-compiler.so",
      &hadron::nvidia::kRuntimeTable,
  };
  return &descriptor;
}
