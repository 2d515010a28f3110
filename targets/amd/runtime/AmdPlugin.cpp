//===- AmdPlugin.cpp - The AMD plugin's entry, devices, memory, events ----===//
//
// Device properties start from the arch's model (AmdModel.h) and are
// refined by what HIP reports for the device: wavefront size, threads and
// LDS per workgroup, CU count, L2 size (hipDeviceGetAttribute), memory size
// (hipDeviceTotalMem) and the name. The architecture ("gfx942") is the one
// property without an attribute; it comes from hipDeviceProp_t's
// gcnArchName, whose offset differs between HIP 5 and HIP 6.
//
//===----------------------------------------------------------------------===//

#include "AmdModel.h"
#include "AmdRuntime.h"

#include <cstdio>
#include <cstring>
#include <memory>
#include <new>
#include <string>
#include <type_traits>
#include <vector>

namespace hadron::amd {

namespace {

/// gcnArchName's offset in hipDeviceProp_t: HIP 5's layout (R0000) and
/// HIP 6's (R0600).
constexpr size_t kArchNameOffsetR0000 = 396;
constexpr size_t kArchNameOffsetR0600 = 1160;
/// Larger than either struct, so that a newer HIP that appends fields
/// cannot write past it.
constexpr size_t kPropertiesBufferBytes = 8192;

bool looksLikeArch(const char *s, size_t room) {
  return room > 4 && std::strncmp(s, "gfx", 3) == 0 && s[3] >= '0' && s[3] <= '9' &&
         std::memchr(s, '\0', room) != nullptr;
}

/// "gfx942" for device `device`, or "" when HIP does not say. The known
/// offset of this HIP's layout first; should it not hold an arch name (a
/// HIP whose layout moved again), the first "gfxN..." string after the
/// 256-byte name field, which is the only other string of the struct.
std::string archOf(const HipApi &hip, int device) {
  if (!hip.getDeviceProperties)
    return "";
  std::vector<char> props(kPropertiesBufferBytes, 0);
  if (hip.getDeviceProperties(props.data(), device) != hipSuccess)
    return "";
  size_t known = hip.propertiesR0600 ? kArchNameOffsetR0600 : kArchNameOffsetR0000;
  auto at = [&](size_t offset) {
    return std::string(processorOf(props.data() + offset));
  };
  if (looksLikeArch(props.data() + known, props.size() - known))
    return at(known);
  for (size_t offset = 256; offset + 4 < props.size(); offset += 4)
    if (looksLikeArch(props.data() + offset, props.size() - offset))
      return at(offset);
  return "";
}

hd_status queryDevice(const HipApi &hip, int device, hd_device_info &info, std::string &why) {
  info = hd_device_info{};
  info.struct_size = sizeof(info);
  auto failed = [&](const char *call, hipError_t code) {
    why = "amd: device " + std::to_string(device) + ": " + hipErrorText(hip, call, code);
    return HD_ERROR_INTERNAL;
  };
  if (hipError_t e = hip.hipSetDevice(device))
    return failed("hipSetDevice", e);
  if (hipError_t e = hip.hipDeviceGetName(info.name, sizeof(info.name), device))
    return failed("hipDeviceGetName", e);
  std::string arch = archOf(hip, device);
  std::snprintf(info.arch, sizeof(info.arch), "%s", arch.empty() ? "unknown" : arch.c_str());
  const ArchModel *model = findArch(arch);

  int value = 0;
  auto attribute = [&](HipAttribute attr, const char *what, auto &field) {
    if (hipError_t e = hip.hipDeviceGetAttribute(&value, attr, device)) {
      why = "amd: device " + std::to_string(device) + ": " +
            hipErrorText(hip, "hipDeviceGetAttribute", e) + " for " + what;
      return false;
    }
    field = static_cast<std::remove_reference_t<decltype(field)>>(value > 0 ? value : 0);
    return true;
  };
  if (!attribute(hipDeviceAttributeWarpSize, "the wavefront size", info.warp_size) ||
      !attribute(hipDeviceAttributeMaxThreadsPerBlock, "threads per workgroup",
                 info.max_threads_per_cta) ||
      !attribute(hipDeviceAttributeMaxSharedMemoryPerBlock, "LDS per workgroup",
                 info.shared_bytes_per_cta) ||
      !attribute(hipDeviceAttributeMultiprocessorCount, "the CU count", info.compute_units) ||
      !attribute(hipDeviceAttributeL2CacheSize, "the L2 size", info.l2_bytes))
    return HD_ERROR_INTERNAL;
  size_t total = 0;
  if (hipError_t e = hip.hipDeviceTotalMem(&total, device))
    return failed("hipDeviceTotalMem", e);
  info.global_bytes = total;
  if (model) {
    info.l1_bytes = model->l1Bytes;
    // What HIP leaves at 0 the model knows.
    if (!info.warp_size)
      info.warp_size = model->waveSize;
    if (!info.max_threads_per_cta)
      info.max_threads_per_cta = model->maxThreadsPerWorkgroup;
    if (!info.shared_bytes_per_cta)
      info.shared_bytes_per_cta = model->ldsBytesPerWorkgroup;
    if (!info.l2_bytes)
      info.l2_bytes = model->l2Bytes;
  }
  return HD_OK;
}

struct AmdPlugin {
  static constexpr const char *name = "amd";
  static plugin::DeviceList discover();
};

plugin::DeviceList AmdPlugin::discover() {
  plugin::DeviceList r;
  hd_error err{};
  const HipApi *loaded = loadHip(&err);
  if (!loaded) {
    r.status = err.code;
    r.message = err.message;
    return r;
  }
  const HipApi &hip = *loaded;
  int count = 0;
  hipError_t e = hip.hipGetDeviceCount(&count);
  if (e == hipErrorNoDevice || (e == hipSuccess && count == 0)) {
    r.status = HD_ERROR_NO_DEVICE;
    r.message = e == hipErrorNoDevice ? "amd: no device (hipErrorNoDevice)"
                                      : "amd: no device (hipGetDeviceCount returned 0)";
    return r;
  }
  if (e != hipSuccess) {
    r.status = HD_ERROR_NO_DEVICE;
    r.message = "amd: no device (" + hipErrorText(hip, "hipGetDeviceCount", e) + ")";
    return r;
  }
  for (int d = 0; d < count; ++d) {
    auto device = std::make_unique<AmdDevice>(hip);
    std::string why;
    if (hd_status s = queryDevice(hip, d, device->info, why)) {
      r.status = s;
      r.message = why;
      r.devices.clear();
      return r;
    }
    r.devices.push_back(std::move(device));
  }
  return r;
}

} // namespace

hd_status check(const HipApi &hip, hipError_t code, const char *call, uint32_t device,
                hd_error *err, hd_status otherwise) {
  if (code == hipSuccess)
    return HD_OK;
  return fail(err, code == hipErrorOutOfMemory ? HD_ERROR_OUT_OF_MEMORY : otherwise,
              "amd:%u: %s", device, hipErrorText(hip, call, code).c_str());
}

hd_status AmdDevice::makeCurrent(const char *call, hd_error *err) const {
  if (hipError_t e = hip.hipSetDevice(static_cast<int>(index)))
    return fail(err, HD_ERROR_INTERNAL, "%s on amd:%u: %s", call, index,
                hipErrorText(hip, "hipSetDevice", e).c_str());
  return HD_OK;
}

hd_status AmdDevice::memAlloc(uint64_t bytes, hd_device_ptr *out, hd_error *err) {
  if (hd_status s = makeCurrent("mem_alloc", err))
    return s;
  void *p = nullptr;
  // A 0-byte buffer still gets its own address.
  if (hipError_t e = hip.hipMalloc(&p, bytes ? bytes : 1))
    return fail(err, e == hipErrorOutOfMemory ? HD_ERROR_OUT_OF_MEMORY : HD_ERROR_INTERNAL,
                "amd:%u: %s, allocating %llu bytes", index,
                hipErrorText(hip, "hipMalloc", e).c_str(), static_cast<unsigned long long>(bytes));
  *out = reinterpret_cast<hd_device_ptr>(p);
  return HD_OK;
}

hd_status AmdDevice::memFree(hd_device_ptr ptr, hd_error *err) {
  if (hd_status s = makeCurrent("mem_free", err))
    return s;
  return check(hip.hipFree(reinterpret_cast<void *>(ptr)), "hipFree", err);
}

hd_status AmdDevice::copyToDevice(hd_device_ptr dst, const void *src, uint64_t bytes,
                                  hd_error *err) {
  if (hd_status s = makeCurrent("copy_to_device", err))
    return s;
  return check(hip.hipMemcpy(reinterpret_cast<void *>(dst), src, bytes, hipMemcpyHostToDevice),
               "hipMemcpy (host to device)", err);
}

hd_status AmdDevice::copyToHost(void *dst, hd_device_ptr src, uint64_t bytes, hd_error *err) {
  if (hd_status s = makeCurrent("copy_to_host", err))
    return s;
  return check(
      hip.hipMemcpy(dst, reinterpret_cast<const void *>(src), bytes, hipMemcpyDeviceToHost),
      "hipMemcpy (device to host)", err, HD_ERROR_LAUNCH);
}

hd_status AmdDevice::synchronize(hd_error *err) {
  if (hd_status s = makeCurrent("synchronize", err))
    return s;
  // A kernel that faulted or trapped (hd.assert) reports here.
  return check(hip.hipDeviceSynchronize(), "hipDeviceSynchronize", err, HD_ERROR_LAUNCH);
}

namespace {

/// A HIP event on the null stream of its device.
struct AmdEvent : hd_plugin_event {
  hipEvent_t event = nullptr;
};

} // namespace

hd_status AmdDevice::eventCreate(hd_plugin_event **out, hd_error *err) {
  if (hd_status s = makeCurrent("event_create", err))
    return s;
  hipEvent_t event = nullptr;
  if (hd_status s = check(hip.hipEventCreate(&event), "hipEventCreate", err))
    return s;
  auto *created = new (std::nothrow) AmdEvent;
  if (!created) {
    hip.hipEventDestroy(event);
    return fail(err, HD_ERROR_OUT_OF_MEMORY, "event_create: out of host memory");
  }
  created->device = index;
  created->event = event;
  *out = created;
  return HD_OK;
}

hd_status AmdDevice::eventRecord(hd_plugin_event *event, hd_error *err) {
  if (hd_status s = makeCurrent("event_record", err))
    return s;
  return check(hip.hipEventRecord(static_cast<AmdEvent *>(event)->event, nullptr), "hipEventRecord",
               err);
}

hd_status AmdDevice::eventElapsedMs(hd_plugin_event *start, hd_plugin_event *end, float *ms,
                                    hd_error *err) {
  if (hd_status s = makeCurrent("event_elapsed_ms", err))
    return s;
  hipEvent_t from = static_cast<AmdEvent *>(start)->event, to = static_cast<AmdEvent *>(end)->event;
  if (hd_status s = check(hip.hipEventSynchronize(to), "hipEventSynchronize", err, HD_ERROR_LAUNCH))
    return s;
  return check(hip.hipEventElapsedTime(ms, from, to), "hipEventElapsedTime", err);
}

hd_status AmdDevice::eventDestroy(hd_plugin_event *event, hd_error *err) {
  hd_status s = makeCurrent("event_destroy", err);
  if (s == HD_OK)
    s = check(hip.hipEventDestroy(static_cast<AmdEvent *>(event)->event), "hipEventDestroy", err);
  delete event;
  return s;
}

} // namespace hadron::amd

extern "C" HADRON_PLUGIN_EXPORT const hd_plugin_descriptor *hadron_plugin_entry(void) {
  using namespace hadron;
  return &plugin::modelDescriptor("amd", amd::archModels(), "libhadron-target-amd-compiler.so",
                                  plugin::DeviceTable<amd::AmdPlugin>::table);
}
