//===- HostPlugin.cpp - The host plugin's entry, device and memory --------===//
//
// Device properties, and why they are what they are:
//  - warp_size 1: lanes and warps are folded into registers by the host
//    compiler part, so a CTA is one sequential call;
//  - max_threads_per_cta and shared_bytes_per_cta: the model's
//    (model/HostModel.h says why), which the compiler part verifies against;
//  - arch "native": the machine the compiler part runs on, x86-64 with this
//    CPU's features (a JIT for this device compiles on this device); the
//    model's generic levels x86-64, x86-64-v2..v4 compile binaries for other
//    machines, and a level this CPU lacks is refused at load.
//
//===----------------------------------------------------------------------===//

#include "HostModel.h"
#include "HostRuntime.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include <sched.h>
#include <unistd.h>

namespace hadron::host {

unsigned hostCoreCount() {
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof(set), &set) == 0 && CPU_COUNT(&set) > 0)
    return static_cast<unsigned>(CPU_COUNT(&set));
  unsigned n = std::thread::hardware_concurrency();
  return n ? n : 1;
}

std::string cpuModelName() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("model name", 0) == 0) {
      size_t colon = line.find(':');
      if (colon != std::string::npos && colon + 2 <= line.size())
        return line.substr(colon + 2);
    }
  }
  return "";
}

} // namespace hadron::host

using namespace hadron::host;

namespace {

uint64_t sysconfBytes(int name) {
  long v = sysconf(name);
  return v > 0 ? static_cast<uint64_t>(v) : 0;
}

class HostDevice : public hadron::plugin::SynchronousDevice {
public:
  HostDevice() {
    unsigned cores = hostCoreCount();
    std::string model = cpuModelName();
    std::snprintf(info.name, sizeof(info.name), "host (%u cores%s%s)", cores,
                  model.empty() ? "" : ", ", model.c_str());
    std::snprintf(info.arch, sizeof(info.arch), "%s", archModels().front().arch);
    info.warp_size = 1;
    info.max_threads_per_cta = kMaxThreadsPerCta;
    info.shared_bytes_per_cta = kSharedBytesPerCta;
    info.global_bytes = sysconfBytes(_SC_PHYS_PAGES) * sysconfBytes(_SC_PAGESIZE);
    info.compute_units = cores;
#ifdef _SC_LEVEL1_DCACHE_SIZE
    info.l1_bytes = sysconfBytes(_SC_LEVEL1_DCACHE_SIZE);
    info.l2_bytes = sysconfBytes(_SC_LEVEL2_CACHE_SIZE);
#endif
  }

  hd_status memAlloc(uint64_t bytes, hd_device_ptr *out, hd_error *err) override {
    // Round up to the alignment (aligned_alloc requires it) and never ask
    // for 0 bytes, so every buffer has its own address.
    uint64_t rounded = bytes == 0 ? 64 : (bytes + 63) / 64 * 64;
    if (rounded < bytes)
      return fail(err, HD_ERROR_OUT_OF_MEMORY, "host allocation of %llu bytes: too large",
                  static_cast<unsigned long long>(bytes));
    void *p = std::aligned_alloc(64, rounded);
    if (!p)
      return fail(err, HD_ERROR_OUT_OF_MEMORY, "host allocation of %llu bytes: out of memory",
                  static_cast<unsigned long long>(bytes));
    *out = reinterpret_cast<hd_device_ptr>(p);
    return HD_OK;
  }

  hd_status memFree(hd_device_ptr ptr, hd_error *) override {
    std::free(reinterpret_cast<void *>(ptr));
    return HD_OK;
  }

  hd_status copyToDevice(hd_device_ptr dst, const void *src, uint64_t bytes, hd_error *) override {
    std::memcpy(reinterpret_cast<void *>(dst), src, bytes);
    return HD_OK;
  }

  hd_status copyToHost(void *dst, hd_device_ptr src, uint64_t bytes, hd_error *) override {
    std::memcpy(dst, reinterpret_cast<const void *>(src), bytes);
    return HD_OK;
  }

  hd_status moduleLoad(const void *binary, uint64_t size, hd_plugin_module **out,
                       hd_error *err) override {
    return hadron::host::moduleLoad(binary, size, out, err);
  }

  hd_status moduleUnload(hd_plugin_module *module, hd_error *err) override {
    return hadron::host::moduleUnload(module, err);
  }

  hd_status launch(hd_plugin_module *module, const hd_kernel_signature *signature,
                   const uint32_t grid[3], const hd_arg *args, uint64_t dynamicSharedBytes,
                   hd_error *err) override {
    return hadron::host::launch(module, signature, grid, args, dynamicSharedBytes, err);
  }
};

struct HostPlugin {
  static constexpr const char *name = "host";
  static hadron::plugin::DeviceList discover() {
    hadron::plugin::DeviceList list;
    list.devices.push_back(std::make_unique<HostDevice>());
    return list;
  }
};

} // namespace

extern "C" HADRON_PLUGIN_EXPORT const hd_plugin_descriptor *hadron_plugin_entry(void) {
  using namespace hadron;
  return &plugin::modelDescriptor("host", host::archModels(), "libhadron-target-host-compiler.so",
                                  plugin::DeviceTable<HostPlugin>::table);
}
