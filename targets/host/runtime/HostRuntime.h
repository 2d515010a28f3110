//===- HostRuntime.h - The host plugin's runtime table, internally -*- C++ -*-===//
//
// The host target runs kernels on the CPU that loads it. Device 0 is the
// machine; its memory is host memory (a device pointer is a host address).
// Its one plugin::Device (HostPlugin.cpp) answers the runtime table, which
// is the SDK's DeviceTable; modules and launches are in the other files of
// this folder.
//
//===----------------------------------------------------------------------===//
#ifndef HADRON_TARGETS_HOST_RUNTIME_HOSTRUNTIME_H
#define HADRON_TARGETS_HOST_RUNTIME_HOSTRUNTIME_H

#include "hadron/plugin/DeviceTable.h"
#include "hadron/plugin/RuntimeTable.h"
#include "hadron/plugin/plugin.h"

#include <string>

namespace hadron::host {

/// Cores this process may run on (its affinity mask), at least 1.
unsigned hostCoreCount();

/// The CPU's model name from /proc/cpuinfo, or "" where it has none.
std::string cpuModelName();

using plugin::fail;

/// The device's moduleLoad and moduleUnload: an ELF shared object loaded
/// with dlopen (from a memfd where the kernel has them).
hd_status moduleLoad(const void *binary, uint64_t size, hd_plugin_module **out, hd_error *err);
hd_status moduleUnload(hd_plugin_module *module, hd_error *err);
hd_status launch(hd_plugin_module *module, const hd_kernel_signature *signature,
                 const uint32_t grid[3], const hd_arg *args, uint64_t dynamicSharedBytes,
                 hd_error *err);

/// Where a loaded module's code lives, for launch.
void *moduleHandle(hd_plugin_module *module);

/// The handler a host binary's failing hd.assert calls (HostKernelABI.h):
/// records the message for the launch running on this thread and ends the
/// CTA (longjmp back into the launch's per-CTA body). Never returns.
[[noreturn]] void assertFailed(const char *message);

} // namespace hadron::host

#endif // HADRON_TARGETS_HOST_RUNTIME_HOSTRUNTIME_H
