//===- IntelRuntime.h - The Intel plugin's devices, internally --*- C++ -*-===//
//
// One device list over two drivers: Level Zero GPUs first, then OpenCL
// devices that take SPIR-V (GPUs Level Zero did not list, and, when
// HADRON_INTEL_OPENCL_CPU=1, CPU devices such as Intel's CPU runtime). Each
// device is a DeviceImpl of its driver; the SDK's DeviceTable dispatches the
// runtime table's functions to it. Launches, copies and events of one
// device go through one in-order queue, so they are ordered.
//
//===----------------------------------------------------------------------===//
#ifndef HADRON_TARGETS_INTEL_RUNTIME_INTELRUNTIME_H
#define HADRON_TARGETS_INTEL_RUNTIME_INTELRUNTIME_H

#include "hadron/plugin/DeviceTable.h"
#include "hadron/plugin/RuntimeTable.h"
#include "hadron/plugin/plugin.h"

#include <memory>
#include <string>
#include <vector>

namespace hadron::intel {

/// Bytes of the assert status buffer every kernel gets as its last
/// implicit argument (IntelHooks.h): an i32 flag, then the message.
inline constexpr uint64_t kAssertStatusBytes = 256;

using plugin::fail;

/// A device of either driver. The runtime table is the SDK's
/// (hadron/plugin/DeviceTable.h); its modules and events are the drivers'
/// own, derived from hd_plugin_module and hd_plugin_event.
class DeviceImpl : public plugin::Device {
public:
  /// Refuses a binary that is not SPIR-V, then loadSpirv.
  hd_status moduleLoad(const void *binary, uint64_t size, hd_plugin_module **out,
                       hd_error *err) final;

protected:
  virtual hd_status loadSpirv(const void *binary, uint64_t size, hd_plugin_module **out,
                              hd_error *err) = 0;
  /// What every driver checks before a launch: a work-group size the
  /// device takes, a grid without empty dimensions, shared memory that
  /// fits. Sets the work-items per work-group and the __local bytes.
  hd_status checkLaunch(const hd_kernel_signature &signature, const uint32_t grid[3],
                        uint64_t dynamicSharedBytes, uint64_t &threads, uint64_t &localBytes,
                        hd_error *err) const;
  /// The outcome a read-back assert status buffer reports: HD_OK when its
  /// flag is 0, else HD_ERROR_LAUNCH with the message; `clear` is set when
  /// the buffer must be zeroed again.
  hd_status assertOutcome(unsigned char (&report)[kAssertStatusBytes], bool &clear,
                          hd_error *err) const;
};

/// What a driver found: its devices, or why it has none.
struct Discovery {
  std::vector<std::unique_ptr<plugin::Device>> devices;
  hd_status status = HD_OK; ///< HD_ERROR_DRIVER_MISSING / HD_ERROR_NO_DEVICE when empty
  std::string why;          ///< "Level Zero: zeInit: ZE_RESULT_ERROR_UNINITIALIZED (0x78000001)"
};

/// Level Zero GPUs (LevelZeroDevice.cpp).
Discovery discoverLevelZero();
/// OpenCL devices that take SPIR-V (OpenClDevice.cpp): GPUs unless
/// `skipIntelGpus` (Level Zero listed them), CPUs only if `includeCpus`;
/// `hiddenCpus` counts the CPU devices left out.
Discovery discoverOpenCl(bool skipIntelGpus, bool includeCpus, unsigned &hiddenCpus);

/// The arch of an Intel GPU from its PCI device id ("pvc", "bmg", "lnl",
/// "acm"), or "" when the id is none of them.
const char *archOfDeviceId(uint32_t deviceId);

/// The bytes of one scalar argument as the kernel takes it (f16/bf16
/// rounded to nearest even from the double the runtime passes); 0 for
/// pointers.
size_t scalarArgBytes(hd_arg_kind kind);
void packScalarArg(const hd_arg &arg, unsigned char *out);

} // namespace hadron::intel

#endif // HADRON_TARGETS_INTEL_RUNTIME_INTELRUNTIME_H
