//===- Objects.h - What the C API's handles point to ------------*- C++ -*-===//
//
// The context owns its plugins and devices (fixed at creation) and tracks
// every buffer, module and event made in it, so that launches can check
// pointer arguments and destroying the context frees what is left. The
// mutable parts are guarded by the context's mutex, except the in-memory
// kernel cache, which has a mutex of its own so that a compilation holding
// it never blocks launches.
//
//===----------------------------------------------------------------------===//
#ifndef HADRON_RUNTIME_OBJECTS_H
#define HADRON_RUNTIME_OBJECTS_H

#include "KernelCache.h"
#include "PluginLoader.h"

#include "hadron/runtime/runtime.h"

#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <unordered_map>
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
  std::vector<hd_tensor_desc_spec> descs; ///< Empty, or one per argument.
  hd_kernel_signature signature{}; ///< Points into name, args and descs.
};

namespace hadron::runtime {

/// A binary as a plugin loaded it. Modules of one kernel-cache entry on one
/// device share it (the in-memory cache points at it while one of them
/// lives), and the last of them to go unloads it: when the program destroys
/// it, as without sharing, never later (a plugin's driver may be gone by the
/// time static destructors run).
struct LoadedBinary {
  hd_device *device = nullptr;
  hd_plugin_module *loaded = nullptr;
  LoadedBinary() = default;
  LoadedBinary(const LoadedBinary &) = delete;
  LoadedBinary &operator=(const LoadedBinary &) = delete;
  ~LoadedBinary();
};

/// What the in-memory cache holds for a key: the entry, and the binary
/// loaded from it on each device while a module uses it.
struct CachedKernel {
  std::shared_ptr<const cache::Entry> entry;
  std::map<const hd_device *, std::weak_ptr<LoadedBinary>> loaded;
};

} // namespace hadron::runtime

struct hd_module {
  hd_device *device = nullptr;
  std::shared_ptr<hadron::runtime::LoadedBinary> binary;
  hd_plugin_module *loaded = nullptr; ///< binary->loaded, what launches pass.
  std::vector<std::unique_ptr<hd_kernel>> kernels;
};

struct hd_event {
  hd_device *device = nullptr;
  hd_plugin_event *event = nullptr;
};

struct hd_context {
  std::vector<std::unique_ptr<hadron::runtime::Plugin>> plugins;
  /// Found on first need (ensureDevices): compiling for a target opens no
  /// driver.
  std::vector<std::unique_ptr<hd_device>> devices;
  std::once_flag devicesFound;
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

  /// The in-memory kernel cache (Compile.cpp), in front of the on-disk one.
  std::mutex cacheMutex;
  std::map<hadron::runtime::cache::Digest, hadron::runtime::CachedKernel> kernelCache;
  /// One lock per key, held while that key is looked up, compiled and
  /// stored: threads that want one kernel at once compile it once.
  std::map<hadron::runtime::cache::Digest, std::shared_ptr<std::mutex>> keyLocks;
  /// Each key by the bytes of its inputs (plugin, arch, opt level, IR), so
  /// that a repeated load does not hash the IR again.
  std::unordered_map<std::string, hadron::runtime::cache::Digest> keysByInput;
};

namespace hadron::runtime {

/// Initialises every runtime part (their drivers) and lists their devices,
/// once per context; everything that reports devices or load records
/// calls it first.
void ensureDevices(const hd_context &ctx);

/// Prefixes a plugin's message with the device name and forwards it.
hd_status forwardPluginError(hd_error *err, const hd_device *device, const char *what,
                             const hd_error &pluginErr, hd_status code);

/// Loads `binary` on `device` through its plugin.
hd_status loadOnDevice(hd_device *device, const void *binary, uint64_t size,
                       std::shared_ptr<LoadedBinary> &out, hd_error *err);

/// A module over a loaded binary, with deep copies of the signatures
/// (checked: names present and unique, argument kinds known), registered
/// in the device's context.
hd_status makeModule(hd_device *device, std::shared_ptr<LoadedBinary> binary,
                     const hd_kernel_signature *kernels, uint32_t numKernels, hd_module **out,
                     hd_error *err);

/// `options` of any struct_size copied into a full-size struct; NULL means
/// opt level 3 and the defaults.
hd_compile_options completeOptions(const hd_compile_options *options);

/// Signatures pointing into `kernels`, for makeModule to copy.
std::vector<hd_kernel_signature> signaturesOf(const std::vector<cache::KernelRecord> &kernels);

/// hd_module_load_bundle of bundle file bytes.
hd_status loadBundleBytes(hd_device *device, const void *bytes, uint64_t size, hd_module **out,
                          hd_error *err);

/// Frees the plugin-side objects; the caller removed them from the context.
void releaseBuffer(hd_buffer *buffer);
void releaseModule(hd_module *module);
void releaseEvent(hd_event *event);

} // namespace hadron::runtime

#endif // HADRON_RUNTIME_OBJECTS_H
