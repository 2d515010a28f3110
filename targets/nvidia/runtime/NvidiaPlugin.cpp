//===- NvidiaPlugin.cpp - The NVIDIA plugin's entry, devices and memory ---===//
//
// The first call of the runtime table (DeviceTable.h) loads libcuda.so.1 (or
// $HADRON_NVIDIA_DRIVER, which the tests use to point at CUDA's stub
// library), runs cuInit, and for every device retains its primary context
// and builds its hd_device_info: the static model of its architecture
// (model/NvidiaModel.h), refined with what the driver says (name, compute
// capability, SM count, opt-in shared memory, L2, memory). Failures are
// reported by init and every call, the way `hadron devices` shows them:
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
#include <memory>
#include <new>
#include <string>

namespace hadron::nvidia {

namespace {

constexpr const char *kDriverLibrary = "libcuda.so.1";

/// The device's hd_device_info (and the launch limits kept beside it).
hd_status describeDevice(const cuda::Driver &cu, int ordinal, NvidiaDevice &d, hd_error *err) {
  std::string where = "nvidia:" + std::to_string(ordinal);
  if (hd_status s = check(cu, cu.cuDeviceGet(&d.handle, ordinal), "cuDeviceGet", err,
                          HD_ERROR_NO_DEVICE, where))
    return s;
  auto attr = [&](cuda::CUdevice_attribute which, int fallback) {
    int value = 0;
    return cu.cuDeviceGetAttribute(&value, which, d.handle) == cuda::CUDA_SUCCESS ? value
                                                                                  : fallback;
  };
  int major = attr(cuda::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, 0);
  int minor = attr(cuda::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, 0);
  std::string arch = archName(major, minor);
  // An architecture the table lacks (newer than it, or older than sm_80)
  // still gets what the driver reports; compiling for it falls back to the
  // plugin's default arch (runtime.md).
  const ArchModel *model = findArch(arch);

  hd_device_info &info = d.info;
  info.struct_size = sizeof(hd_device_info);
  char name[256] = {0};
  if (cu.cuDeviceGetName(name, sizeof(name) - 1, d.handle) != cuda::CUDA_SUCCESS)
    std::snprintf(name, sizeof(name), "NVIDIA GPU (compute capability %d.%d)", major, minor);
  std::snprintf(info.name, sizeof(info.name), "%s", name);
  std::snprintf(info.arch, sizeof(info.arch), "%s", arch.c_str());
  info.warp_size =
      static_cast<uint32_t>(attr(cuda::CU_DEVICE_ATTRIBUTE_WARP_SIZE, HD_NVIDIA_WARP_SIZE));
  info.max_threads_per_cta =
      static_cast<uint32_t>(attr(cuda::CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK,
                                 model ? static_cast<int>(model->maxThreadsPerCTA) : 1024));
  d.sharedBytesDefault =
      static_cast<uint64_t>(attr(cuda::CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK, 48 * 1024));
  // What one CTA may use after opting in: the runtime checks launches
  // against it, this plugin raises the kernel's limit when needed.
  info.shared_bytes_per_cta =
      static_cast<uint64_t>(attr(cuda::CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN,
                                 model ? static_cast<int>(model->sharedBytesPerCTAOptIn)
                                       : static_cast<int>(d.sharedBytesDefault)));
  size_t total = 0;
  if (cu.cuDeviceTotalMem(&total, d.handle) == cuda::CUDA_SUCCESS)
    info.global_bytes = total;
  info.compute_units = static_cast<uint32_t>(attr(cuda::CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT,
                                                  model ? static_cast<int>(model->smCount) : 0));
  // The driver does not report L1; the model gives the unified L1/shared
  // array of the architecture.
  info.l1_bytes = model ? model->l1AndSharedBytesPerSM : 0;
  info.l2_bytes = static_cast<uint64_t>(
      attr(cuda::CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE, model ? static_cast<int>(model->l2Bytes) : 0));
  d.maxGrid[0] = static_cast<unsigned>(attr(cuda::CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X, 2147483647));
  d.maxGrid[1] = static_cast<unsigned>(attr(cuda::CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y, 65535));
  d.maxGrid[2] = static_cast<unsigned>(attr(cuda::CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z, 65535));
  return check(cu, cu.cuDevicePrimaryCtxRetain(&d.context, d.handle), "cuDevicePrimaryCtxRetain",
               err, HD_ERROR_NO_DEVICE, where);
}

plugin::DeviceList noDevice(const std::string &why) {
  plugin::DeviceList r;
  r.status = HD_ERROR_NO_DEVICE;
  r.message = "no device (" + why + ")";
  return r;
}

struct NvidiaPlugin {
  static constexpr const char *name = "nvidia";
  static plugin::DeviceList discover();
};

plugin::DeviceList NvidiaPlugin::discover() {
  // Resolved once; the devices use it until the process ends.
  static cuda::Driver cu{};
  plugin::DeviceList r;
  const char *library = std::getenv("HADRON_NVIDIA_DRIVER");
  if (!library || !*library)
    library = kDriverLibrary;
  hd_error err{};
  if (hd_status s = cuda::load(library, cu, &err)) {
    r.status = s;
    r.message = err.message;
    return r;
  }
  if (cuda::CUresult rc = cu.cuInit(0))
    return noDevice(cuda::describe(cu, "cuInit", rc));
  int count = 0;
  if (cuda::CUresult rc = cu.cuDeviceGetCount(&count))
    return noDevice(cuda::describe(cu, "cuDeviceGetCount", rc));
  if (count <= 0)
    return noDevice("CUDA_ERROR_NO_DEVICE: the driver reports 0 devices");
  for (int i = 0; i < count; ++i) {
    auto device = std::make_unique<NvidiaDevice>(cu);
    if (describeDevice(cu, i, *device, &err) != HD_OK) {
      r.status = err.code;
      r.message = std::string("no usable device (") + err.message + ")";
      r.devices.clear();
      return r;
    }
    r.devices.push_back(std::move(device));
  }
  return r;
}

std::string bytesContext(const char *what, uint64_t bytes, uint32_t device) {
  return std::string(what) + " of " + std::to_string(bytes) +
         " bytes on nvidia:" + std::to_string(device);
}

} // namespace

hd_status check(const cuda::Driver &cu, cuda::CUresult result, const char *call, hd_error *err,
                hd_status code, const std::string &context) {
  if (result == cuda::CUDA_SUCCESS)
    return HD_OK;
  if (result == cuda::CUDA_ERROR_OUT_OF_MEMORY)
    code = HD_ERROR_OUT_OF_MEMORY;
  std::string what = cuda::describe(cu, call, result);
  return fail(err, code, "%s%s%s", context.c_str(), context.empty() ? "" : ": ", what.c_str());
}

hd_status NvidiaDevice::enter(hd_error *err) const {
  // Cheap (a thread-local store in the driver), and always right even when
  // the program switched this thread to another context in between.
  return check(cu.cuCtxSetCurrent(context), "cuCtxSetCurrent", err, HD_ERROR_INTERNAL);
}

hd_status NvidiaDevice::memAlloc(uint64_t bytes, hd_device_ptr *out, hd_error *err) {
  if (hd_status s = enter(err))
    return s;
  // cuMemAlloc refuses 0 bytes; every buffer still gets its own address.
  cuda::CUdeviceptr ptr = 0;
  cuda::CUresult rc = cu.cuMemAlloc(&ptr, bytes ? bytes : 1);
  if (rc == cuda::CUDA_ERROR_OUT_OF_MEMORY) {
    size_t freeBytes = 0, totalBytes = 0;
    cu.cuMemGetInfo(&freeBytes, &totalBytes);
    return fail(err, HD_ERROR_OUT_OF_MEMORY,
                "cuMemAlloc of %" PRIu64 " bytes on nvidia:%u: out of memory (the device has "
                "%zu of %zu bytes free)",
                bytes, index, freeBytes, totalBytes);
  }
  if (hd_status s = nvidia::check(cu, rc, "cuMemAlloc", err, HD_ERROR_OUT_OF_MEMORY,
                                  bytesContext("allocation", bytes, index)))
    return s;
  *out = ptr;
  return HD_OK;
}

hd_status NvidiaDevice::memFree(hd_device_ptr ptr, hd_error *err) {
  if (hd_status s = enter(err))
    return s;
  char where[64];
  std::snprintf(where, sizeof(where), "freeing 0x%" PRIx64 " on nvidia:%u", ptr, index);
  return nvidia::check(cu, cu.cuMemFree(ptr), "cuMemFree", err, HD_ERROR_INVALID_ARGUMENT, where);
}

hd_status NvidiaDevice::copyToDevice(hd_device_ptr dst, const void *src, uint64_t bytes,
                                     hd_error *err) {
  if (hd_status s = enter(err))
    return s;
  if (bytes == 0)
    return HD_OK;
  return nvidia::check(cu, cu.cuMemcpyHtoD(dst, src, bytes), "cuMemcpyHtoD", err,
                       HD_ERROR_INVALID_ARGUMENT, bytesContext("copy to the device", bytes, index));
}

hd_status NvidiaDevice::copyToHost(void *dst, hd_device_ptr src, uint64_t bytes, hd_error *err) {
  if (hd_status s = enter(err))
    return s;
  if (bytes == 0)
    return HD_OK;
  // Synchronous: it also reports a fault of an earlier launch.
  return nvidia::check(cu, cu.cuMemcpyDtoH(dst, src, bytes), "cuMemcpyDtoH", err, HD_ERROR_LAUNCH,
                       bytesContext("copy to the host", bytes, index));
}

hd_status NvidiaDevice::synchronize(hd_error *err) {
  if (hd_status s = enter(err))
    return s;
  return nvidia::check(cu, cu.cuCtxSynchronize(), "cuCtxSynchronize", err, HD_ERROR_LAUNCH,
                       "synchronizing " + where());
}

namespace {

/// A CUDA event on the legacy default stream of its device.
struct NvidiaEvent : hd_plugin_event {
  cuda::CUevent event = nullptr;
};

cuda::CUevent eventOf(hd_plugin_event *event) { return static_cast<NvidiaEvent *>(event)->event; }

} // namespace

hd_status NvidiaDevice::eventCreate(hd_plugin_event **out, hd_error *err) {
  if (hd_status s = enter(err))
    return s;
  std::unique_ptr<NvidiaEvent> created(new (std::nothrow) NvidiaEvent);
  if (!created)
    return fail(err, HD_ERROR_OUT_OF_MEMORY, "event_create: out of host memory");
  created->device = index;
  if (hd_status s =
          check(cu.cuEventCreate(&created->event, 0), "cuEventCreate", err, HD_ERROR_INTERNAL))
    return s;
  *out = created.release();
  return HD_OK;
}

hd_status NvidiaDevice::eventRecord(hd_plugin_event *event, hd_error *err) {
  if (hd_status s = enter(err))
    return s;
  return check(cu.cuEventRecord(eventOf(event), nullptr), "cuEventRecord", err, HD_ERROR_INTERNAL);
}

hd_status NvidiaDevice::eventElapsedMs(hd_plugin_event *start, hd_plugin_event *end, float *ms,
                                       hd_error *err) {
  if (hd_status s = enter(err))
    return s;
  if (hd_status s =
          check(cu.cuEventSynchronize(eventOf(end)), "cuEventSynchronize", err, HD_ERROR_LAUNCH))
    return s;
  return check(cu.cuEventElapsedTime(ms, eventOf(start), eventOf(end)), "cuEventElapsedTime", err,
               HD_ERROR_INTERNAL);
}

hd_status NvidiaDevice::eventDestroy(hd_plugin_event *event, hd_error *err) {
  hd_status s = enter(err);
  if (s == HD_OK)
    s = check(cu.cuEventDestroy(eventOf(event)), "cuEventDestroy", err, HD_ERROR_INTERNAL);
  delete event;
  return s;
}

} // namespace hadron::nvidia

extern "C" HADRON_PLUGIN_EXPORT const hd_plugin_descriptor *hadron_plugin_entry(void) {
  using namespace hadron;
  return &plugin::modelDescriptor("nvidia", nvidia::archModels(),
                                  "libhadron-target-nvidia-compiler.so",
                                  plugin::DeviceTable<nvidia::NvidiaPlugin>::table);
}
