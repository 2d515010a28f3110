//===- IntelRuntime.h - The Intel plugin's devices, internally --*- C++ -*-===//
//
// One device list over two drivers: Level Zero GPUs first, then OpenCL
// devices that take SPIR-V (GPUs Level Zero did not list, and, when
// HADRON_INTEL_OPENCL_CPU=1, CPU devices such as Intel's CPU runtime). Each
// device is a DeviceImpl of its driver; the runtime table's functions
// dispatch to it. Launches, copies and events of one device go through one
// in-order queue, so they are ordered.
//
//===----------------------------------------------------------------------===//
#ifndef HADRON_TARGETS_INTEL_RUNTIME_INTELRUNTIME_H
#define HADRON_TARGETS_INTEL_RUNTIME_INTELRUNTIME_H

#include "hadron/plugin/RuntimeTable.h"
#include "hadron/plugin/plugin.h"

#include <memory>
#include <string>
#include <vector>

/// A loaded SPIR-V module of one device's driver.
struct hd_plugin_module {
  uint32_t device = 0;
  virtual ~hd_plugin_module() = default;
};

/// An event of one device's driver.
struct hd_plugin_event {
  uint32_t device = 0;
  bool recorded = false;
  virtual ~hd_plugin_event() = default;
};

namespace hadron::intel {

/// Bytes of the assert status buffer every kernel gets as its last
/// implicit argument (IntelHooks.h): an i32 flag, then the message.
inline constexpr uint64_t kAssertStatusBytes = 256;

using plugin::fail;

class DeviceImpl {
public:
  virtual ~DeviceImpl() = default;

  uint32_t index = 0;  ///< in the plugin's list: intel:<index>
  hd_device_info info{};

  virtual hd_status memAlloc(uint64_t bytes, hd_device_ptr *out, hd_error *err) = 0;
  virtual hd_status memFree(hd_device_ptr ptr, hd_error *err) = 0;
  virtual hd_status copyToDevice(hd_device_ptr dst, const void *src, uint64_t bytes,
                                 hd_error *err) = 0;
  virtual hd_status copyToHost(void *dst, hd_device_ptr src, uint64_t bytes, hd_error *err) = 0;
  virtual hd_status moduleLoad(const void *binary, uint64_t size, hd_plugin_module **out,
                               hd_error *err) = 0;
  virtual hd_status moduleUnload(hd_plugin_module *module, hd_error *err) = 0;
  virtual hd_status launch(hd_plugin_module *module, const hd_kernel_signature *signature,
                           const uint32_t grid[3], const hd_arg *args,
                           uint64_t dynamicSharedBytes, hd_error *err) = 0;
  /// Waits for the queue, then reports a failed hd.assert of any kernel
  /// since the last synchronize (and clears it).
  virtual hd_status synchronize(hd_error *err) = 0;
  virtual hd_status eventCreate(hd_plugin_event **out, hd_error *err) = 0;
  virtual hd_status eventRecord(hd_plugin_event *event, hd_error *err) = 0;
  virtual hd_status eventElapsedMs(hd_plugin_event *start, hd_plugin_event *end, float *ms,
                                   hd_error *err) = 0;
  virtual hd_status eventDestroy(hd_plugin_event *event, hd_error *err) = 0;

protected:
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
  std::vector<std::unique_ptr<DeviceImpl>> devices;
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
