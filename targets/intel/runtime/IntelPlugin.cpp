//===- IntelPlugin.cpp - The Intel plugin's entry and device list ---------===//
//
// intel:0, intel:1, ... are, in this order:
//   1. Level Zero GPUs;
//   2. OpenCL GPUs that take SPIR-V, except Intel's when Level Zero listed
//      them (the same hardware);
//   3. OpenCL CPU devices that take SPIR-V (Intel's CPU runtime), only when
//      HADRON_INTEL_OPENCL_CPU=1. The plugin ABI has no device kind yet, so
//      the runtime's `auto` would rank such a device above the host target;
//      listing CPUs only on request keeps `auto` on the host.
// HADRON_INTEL_DRIVER=levelzero or =opencl uses one driver only.
//
//===----------------------------------------------------------------------===//

#include "IntelModel.h"
#include "IntelRuntime.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace hadron::intel {

hd_status DeviceImpl::checkLaunch(const hd_kernel_signature &signature, const uint32_t grid[3],
                                  uint64_t dynamicSharedBytes, uint64_t &threads,
                                  uint64_t &localBytes, hd_error *err) const {
  threads = uint64_t(signature.num_warps) * signature.warp_size;
  if (threads == 0 || threads > info.max_threads_per_cta)
    return fail(err, HD_ERROR_INVALID_ARGUMENT,
                "%s: %u warps of %u work-items is not a work-group size intel:%u can launch "
                "(1..%u)",
                signature.name, signature.num_warps, signature.warp_size, index,
                info.max_threads_per_cta);
  for (int d = 0; d < 3; ++d)
    if (grid[d] == 0)
      return fail(err, HD_ERROR_INVALID_ARGUMENT, "%s: grid[%d] is 0", signature.name, d);
  localBytes = signature.static_shared_bytes + dynamicSharedBytes;
  if (localBytes > info.shared_bytes_per_cta)
    return fail(err, HD_ERROR_INVALID_ARGUMENT,
                "%s: %llu planned + %llu dynamic shared bytes exceed the %llu bytes of local "
                "memory of intel:%u",
                signature.name, static_cast<unsigned long long>(signature.static_shared_bytes),
                static_cast<unsigned long long>(dynamicSharedBytes),
                static_cast<unsigned long long>(info.shared_bytes_per_cta), index);
  return HD_OK;
}

hd_status DeviceImpl::assertOutcome(unsigned char (&report)[kAssertStatusBytes], bool &clear,
                                    hd_error *err) const {
  int32_t flag = 0;
  std::memcpy(&flag, report, 4);
  clear = flag != 0;
  if (!clear)
    return HD_OK;
  report[kAssertStatusBytes - 1] = 0;
  return fail(err, HD_ERROR_LAUNCH, "intel:%u: a kernel's hd.assert failed: %s", index,
              reinterpret_cast<const char *>(report + 4));
}

hd_status DeviceImpl::moduleLoad(const void *binary, uint64_t size, hd_plugin_module **out,
                                 hd_error *err) {
  const auto *bytes = static_cast<const unsigned char *>(binary);
  if (size % 4 || bytes[0] != 0x03 || bytes[3] != 0x07)
    return fail(err, HD_ERROR_INVALID_ARGUMENT,
                "module_load: %llu bytes that are not a SPIR-V module (magic 0x07230203)",
                static_cast<unsigned long long>(size));
  return loadSpirv(binary, size, out, err);
}

namespace {

bool envIs(const char *name, const char *value) {
  const char *v = std::getenv(name);
  return v && std::strcmp(v, value) == 0;
}

struct IntelPlugin {
  static constexpr const char *name = "intel";
  static plugin::DeviceList discover();
};

plugin::DeviceList IntelPlugin::discover() {
  plugin::DeviceList s;
  const char *driver = std::getenv("HADRON_INTEL_DRIVER");
  std::string only = driver ? driver : "";
  if (!only.empty() && only != "levelzero" && only != "opencl") {
    s.status = HD_ERROR_INVALID_ARGUMENT;
    s.message = "intel: HADRON_INTEL_DRIVER='" + only + "' is not 'levelzero' or 'opencl'";
    return s;
  }
  Discovery ze, cl;
  if (only != "opencl")
    ze = discoverLevelZero();
  else
    ze.status = HD_ERROR_NO_DEVICE, ze.why = "Level Zero: not used (HADRON_INTEL_DRIVER=opencl)";
  unsigned hiddenCpus = 0;
  if (only != "levelzero")
    cl = discoverOpenCl(!ze.devices.empty(), envIs("HADRON_INTEL_OPENCL_CPU", "1"), hiddenCpus);
  else
    cl.status = HD_ERROR_NO_DEVICE, cl.why = "OpenCL: not used (HADRON_INTEL_DRIVER=levelzero)";
  for (Discovery *d : {&ze, &cl})
    for (auto &device : d->devices)
      s.devices.push_back(std::move(device));
  if (!s.devices.empty())
    return s;
  bool bothMissing = ze.status == HD_ERROR_DRIVER_MISSING && cl.status == HD_ERROR_DRIVER_MISSING;
  s.status = bothMissing ? HD_ERROR_DRIVER_MISSING : HD_ERROR_NO_DEVICE;
  s.message = std::string("intel: ") + (bothMissing ? "no driver" : "no device") + " (" +
              ze.why + "; " + cl.why + ")";
  if (hiddenCpus)
    s.message += "; " + std::to_string(hiddenCpus) +
                 " OpenCL CPU device(s) that take SPIR-V are listed with HADRON_INTEL_OPENCL_CPU=1";
  return s;
}

} // namespace
} // namespace hadron::intel

extern "C" HADRON_PLUGIN_EXPORT const hd_plugin_descriptor *hadron_plugin_entry(void) {
  using namespace hadron;
  return &plugin::modelDescriptor("intel", intel::archModels(),
                                  "libhadron-target-intel-compiler.so",
                                  plugin::DeviceTable<intel::IntelPlugin>::table);
}
