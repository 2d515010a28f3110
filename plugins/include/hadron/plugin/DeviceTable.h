//===- DeviceTable.h - A runtime table from a device class -----*- C++ -*-===//
//
// The functions of hd_runtime_table (plugin.h) take a device index, or a
// module or event that belongs to one device. Every runtime part used to
// write them out: find the devices once, refuse a bad index or a NULL
// argument, then call into its driver. Here a runtime part writes a class
// per kind of device instead, derived from plugin::Device, and a traits
// type
//
//   struct MyPlugin {
//     static constexpr const char *name = "mine";   // messages: "mine has 2 device(s)"
//     static plugin::DeviceList discover();           // called once, on first use
//   };
//
// whose table is `plugin::DeviceTable<MyPlugin>::table`. The table checks
// what every target checks (the device index, NULL pointers, events that
// were never recorded or belong to different devices) and calls the
// device only with valid arguments. A runtime part's modules and events
// derive from hd_plugin_module and hd_plugin_event, defined here, which
// record the device they belong to.
//
// Header-only and free of LLVM, for runtime parts in and out of Hadron's tree.
//
//===----------------------------------------------------------------------===//
#ifndef HADRON_PLUGIN_DEVICETABLE_H
#define HADRON_PLUGIN_DEVICETABLE_H

#include "hadron/plugin/RuntimeTable.h"
#include "hadron/plugin/plugin.h"

#include <chrono>
#include <memory>
#include <new>
#include <string>
#include <vector>

/// A loaded module: the base of a runtime part's own.
struct hd_plugin_module {
  uint32_t device = 0;
  virtual ~hd_plugin_module() = default;
};

/// An event: the base of a runtime part's own. `recorded` is set by the
/// table once the device recorded it.
struct hd_plugin_event {
  uint32_t device = 0;
  bool recorded = false;
  virtual ~hd_plugin_event() = default;
};

namespace hadron::plugin {

/// One device of a runtime part. Each function is the table's, called only
/// after the table's checks: pointers are not NULL, modules and events
/// belong to this device, both events of eventElapsedMs were recorded. A
/// device sets `device` (its index) in the modules and events it makes.
class Device {
public:
  virtual ~Device() = default;

  uint32_t index = 0; ///< in the plugin's list, set by the table
  hd_device_info info{};

  virtual hd_status memAlloc(uint64_t bytes, hd_device_ptr *out, hd_error *err) = 0;
  virtual hd_status memFree(hd_device_ptr ptr, hd_error *err) = 0;
  virtual hd_status copyToDevice(hd_device_ptr dst, const void *src, uint64_t bytes,
                                 hd_error *err) = 0;
  virtual hd_status copyToHost(void *dst, hd_device_ptr src, uint64_t bytes, hd_error *err) = 0;
  virtual hd_status moduleLoad(const void *binary, uint64_t size, hd_plugin_module **out,
                               hd_error *err) = 0;
  /// Unloads and deletes `module`.
  virtual hd_status moduleUnload(hd_plugin_module *module, hd_error *err) = 0;
  virtual hd_status launch(hd_plugin_module *module, const hd_kernel_signature *signature,
                           const uint32_t grid[3], const hd_arg *args, uint64_t dynamicSharedBytes,
                           hd_error *err) = 0;
  virtual hd_status synchronize(hd_error *err) = 0;
  virtual hd_status eventCreate(hd_plugin_event **out, hd_error *err) = 0;
  virtual hd_status eventRecord(hd_plugin_event *event, hd_error *err) = 0;
  virtual hd_status eventElapsedMs(hd_plugin_event *start, hd_plugin_event *end, float *ms,
                                   hd_error *err) = 0;
  /// Deletes `event`.
  virtual hd_status eventDestroy(hd_plugin_event *event, hd_error *err) = 0;
};

/// A device whose launches have finished when they return (a CPU that runs
/// the grid before launch returns: the host target, the template), so that
/// synchronize has nothing to wait for and an event is the steady-clock
/// time at which it was recorded.
class SynchronousDevice : public Device {
public:
  hd_status synchronize(hd_error *) override { return HD_OK; }

  hd_status eventCreate(hd_plugin_event **out, hd_error *err) override {
    *out = new (std::nothrow) ClockEvent;
    return *out ? HD_OK : fail(err, HD_ERROR_OUT_OF_MEMORY, "event_create: out of host memory");
  }

  hd_status eventRecord(hd_plugin_event *event, hd_error *) override {
    static_cast<ClockEvent *>(event)->at = std::chrono::steady_clock::now();
    return HD_OK;
  }

  hd_status eventElapsedMs(hd_plugin_event *start, hd_plugin_event *end, float *ms,
                           hd_error *) override {
    *ms = std::chrono::duration<float, std::milli>(static_cast<ClockEvent *>(end)->at -
                                                   static_cast<ClockEvent *>(start)->at)
              .count();
    return HD_OK;
  }

  hd_status eventDestroy(hd_plugin_event *event, hd_error *) override {
    delete event;
    return HD_OK;
  }

private:
  struct ClockEvent : hd_plugin_event {
    std::chrono::steady_clock::time_point at;
  };
};

/// What a runtime part found: its devices, or, when there are none, why
/// (HD_ERROR_DRIVER_MISSING or HD_ERROR_NO_DEVICE and a message naming the
/// driver and what it said), which `init` and every call report.
struct DeviceList {
  hd_status status = HD_OK;
  std::string message;
  std::vector<std::unique_ptr<Device>> devices;
};

template <typename Plugin> class DeviceTable {
public:
  static const hd_runtime_table table;

private:
  static const DeviceList &list() {
    static const DeviceList devices = [] {
      DeviceList found = Plugin::discover();
      for (size_t i = 0; i < found.devices.size(); ++i)
        found.devices[i]->index = static_cast<uint32_t>(i);
      return found;
    }();
    return devices;
  }

  /// Sets `d` to the device `device` names; otherwise fails, for `call`.
  static hd_status at(uint32_t device, const char *call, Device *&d, hd_error *err) {
    const DeviceList &l = list();
    if (l.status != HD_OK)
      return fail(err, l.status, "%s: %s", call, l.message.c_str());
    if (device >= l.devices.size())
      return fail(err, HD_ERROR_INVALID_ARGUMENT, "%s: %s has %zu device(s), got device %u", call,
                  Plugin::name, l.devices.size(), device);
    d = l.devices[device].get();
    return HD_OK;
  }

  static hd_status init(hd_error *err) {
    const DeviceList &l = list();
    return l.status == HD_OK ? HD_OK : fail(err, l.status, "%s", l.message.c_str());
  }

  static uint32_t deviceCount() { return static_cast<uint32_t>(list().devices.size()); }

  static hd_status deviceInfo(uint32_t device, hd_device_info *info, hd_error *err) {
    Device *d = nullptr;
    if (hd_status s = at(device, "device_info", d, err))
      return s;
    return copyDeviceInfo(d->info, info, err);
  }

  static hd_status memAlloc(uint32_t device, uint64_t bytes, hd_device_ptr *out, hd_error *err) {
    Device *d = nullptr;
    if (hd_status s = at(device, "mem_alloc", d, err))
      return s;
    if (!out)
      return fail(err, HD_ERROR_INVALID_ARGUMENT, "mem_alloc: out is NULL");
    return d->memAlloc(bytes, out, err);
  }

  static hd_status memFree(uint32_t device, hd_device_ptr ptr, hd_error *err) {
    Device *d = nullptr;
    if (hd_status s = at(device, "mem_free", d, err))
      return s;
    return d->memFree(ptr, err);
  }

  static hd_status copyToDevice(uint32_t device, hd_device_ptr dst, const void *src, uint64_t bytes,
                                hd_error *err) {
    Device *d = nullptr;
    if (hd_status s = at(device, "copy_to_device", d, err))
      return s;
    return d->copyToDevice(dst, src, bytes, err);
  }

  static hd_status copyToHost(uint32_t device, void *dst, hd_device_ptr src, uint64_t bytes,
                              hd_error *err) {
    Device *d = nullptr;
    if (hd_status s = at(device, "copy_to_host", d, err))
      return s;
    return d->copyToHost(dst, src, bytes, err);
  }

  static hd_status moduleLoad(uint32_t device, const void *binary, uint64_t size,
                              hd_plugin_module **out, hd_error *err) {
    Device *d = nullptr;
    if (hd_status s = at(device, "module_load", d, err))
      return s;
    if (!binary || size == 0 || !out)
      return fail(err, HD_ERROR_INVALID_ARGUMENT, "module_load: empty binary or NULL out");
    return d->moduleLoad(binary, size, out, err);
  }

  static hd_status moduleUnload(hd_plugin_module *module, hd_error *err) {
    if (!module)
      return HD_OK;
    Device *d = nullptr;
    if (hd_status s = at(module->device, "module_unload", d, err))
      return s;
    return d->moduleUnload(module, err);
  }

  static hd_status launch(hd_plugin_module *module, const hd_kernel_signature *signature,
                          const uint32_t grid[3], const hd_arg *args, uint64_t dynamicSharedBytes,
                          hd_error *err) {
    if (!module || !signature || !signature->name || !grid)
      return fail(err, HD_ERROR_INVALID_ARGUMENT,
                  "launch: NULL module, signature, kernel name or grid");
    Device *d = nullptr;
    if (hd_status s = at(module->device, "launch", d, err))
      return s;
    return d->launch(module, signature, grid, args, dynamicSharedBytes, err);
  }

  static hd_status synchronize(uint32_t device, hd_error *err) {
    Device *d = nullptr;
    if (hd_status s = at(device, "synchronize", d, err))
      return s;
    return d->synchronize(err);
  }

  static hd_status eventCreate(uint32_t device, hd_plugin_event **out, hd_error *err) {
    Device *d = nullptr;
    if (hd_status s = at(device, "event_create", d, err))
      return s;
    if (!out)
      return fail(err, HD_ERROR_INVALID_ARGUMENT, "event_create: out is NULL");
    return d->eventCreate(out, err);
  }

  static hd_status eventRecord(hd_plugin_event *event, hd_error *err) {
    if (!event)
      return fail(err, HD_ERROR_INVALID_ARGUMENT, "event_record: NULL event");
    Device *d = nullptr;
    if (hd_status s = at(event->device, "event_record", d, err))
      return s;
    hd_status status = d->eventRecord(event, err);
    if (status == HD_OK)
      event->recorded = true;
    return status;
  }

  static hd_status eventElapsedMs(hd_plugin_event *start, hd_plugin_event *end, float *ms,
                                  hd_error *err) {
    if (!start || !end || !ms)
      return fail(err, HD_ERROR_INVALID_ARGUMENT, "event_elapsed_ms: NULL argument");
    if (!start->recorded || !end->recorded)
      return fail(err, HD_ERROR_INVALID_ARGUMENT,
                  "event_elapsed_ms: the %s event was never recorded",
                  start->recorded ? "end" : "start");
    if (start->device != end->device)
      return fail(err, HD_ERROR_INVALID_ARGUMENT, "event_elapsed_ms: events of %s:%u and %s:%u",
                  Plugin::name, start->device, Plugin::name, end->device);
    Device *d = nullptr;
    if (hd_status s = at(end->device, "event_elapsed_ms", d, err))
      return s;
    return d->eventElapsedMs(start, end, ms, err);
  }

  static hd_status eventDestroy(hd_plugin_event *event, hd_error *err) {
    if (!event)
      return HD_OK;
    Device *d = nullptr;
    if (hd_status s = at(event->device, "event_destroy", d, err))
      return s;
    return d->eventDestroy(event, err);
  }
};

template <typename Plugin>
const hd_runtime_table DeviceTable<Plugin>::table = {
    sizeof(hd_runtime_table),
    init,
    deviceCount,
    deviceInfo,
    memAlloc,
    memFree,
    copyToDevice,
    copyToHost,
    moduleLoad,
    moduleUnload,
    launch,
    synchronize,
    eventCreate,
    eventRecord,
    eventElapsedMs,
    eventDestroy,
};

} // namespace hadron::plugin

#endif // HADRON_PLUGIN_DEVICETABLE_H
