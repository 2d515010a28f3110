//===- Objects.h - What the C API's handles point to ------------*- C++ -*-===//
//
// The context owns its plugins and devices (fixed at creation) and tracks
// every buffer, module and event made in it, so that launches can check
// pointer arguments and destroying the context frees what is left. The
// mutable parts are guarded by the context's mutex.
//
//===----------------------------------------------------------------------===//
#ifndef HADRON_RUNTIME_OBJECTS_H
#define HADRON_RUNTIME_OBJECTS_H

#include "PluginLoader.h"

#include "hadron/runtime/runtime.h"

#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <vector>

struct hd_device {
  hd_context *context = nullptr;
  hadron::runtime::Plugin *plugin = nullptr;
  uint32_t index = 0;
  std::string name; ///< "nvidia:1"
  hd_device_info info{};
  /// Live buffers of this device: base address -> size. Guarded by the
  /// context's mutex.
  std::map<hd_device_ptr, uint64_t> buffers;
};

struct hd_buffer {
  hd_device *device = nullptr;
  hd_device_ptr ptr = 0;
  uint64_t size = 0;
};

struct hd_kernel {
  hd_module *module = nullptr;
  std::string name;
  std::vector<hd_arg_kind> args;
  hd_kernel_signature signature{}; ///< Points into name and args.
};

struct hd_module {
  hd_device *device = nullptr;
  hd_plugin_module *loaded = nullptr;
  std::vector<std::unique_ptr<hd_kernel>> kernels;
};

struct hd_event {
  hd_device *device = nullptr;
  hd_plugin_event *event = nullptr;
};

struct hd_context {
  std::vector<std::unique_ptr<hadron::runtime::Plugin>> plugins;
  std::vector<std::unique_ptr<hd_device>> devices;
  std::vector<hadron::runtime::LoadRecord> report;
  std::vector<std::string> searchedDirs;

  std::mutex mutex;
  std::set<hd_buffer *> buffers;
  std::set<hd_module *> modules;
  std::set<hd_event *> events;
  /// hd_context_matrix_instructions' answers by "plugin:arch", kept for the
  /// context's life because the C API hands out pointers into them.
  struct MatrixInstructions {
    std::vector<std::string> texts;
    std::vector<const char *> pointers;
  };
  std::map<std::string, std::unique_ptr<MatrixInstructions>> matrixInstructions;
};

namespace hadron::runtime {

/// Prefixes a plugin's message with the device name and forwards it.
hd_status forwardPluginError(hd_error *err, const hd_device *device, const char *what,
                             const hd_error &pluginErr, hd_status code);

/// Frees the plugin-side objects; the caller removed them from the context.
void releaseBuffer(hd_buffer *buffer);
void releaseModule(hd_module *module);
void releaseEvent(hd_event *event);

} // namespace hadron::runtime

#endif // HADRON_RUNTIME_OBJECTS_H
