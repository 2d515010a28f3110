//===- Runtime.hpp - C++ handles over the Hadron runtime C API --*- C++ -*-===//
//
// A thin layer over runtime.h: owning handles free themselves, failures are
// values (Status, Expected<T>) carrying the C API's code and message. Nothing
// here throws or aborts; the rules on ownership and threading are the C
// API's.
//
//   auto ctx = hadron::runtime::Context::create();
//   if (!ctx) { puts(ctx.status().message().c_str()); return 1; }
//   auto dev = ctx->select("nvidia;host");
//
//===----------------------------------------------------------------------===//
#ifndef HADRON_RUNTIME_RUNTIME_HPP
#define HADRON_RUNTIME_RUNTIME_HPP

#include "hadron/runtime/Status.hpp"
#include "hadron/runtime/runtime.h"

#include <array>
#include <cstring>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace hadron::runtime {

/// Launch arguments, one function per kind.
namespace arg {
inline hd_arg ptr(hd_device_ptr p) {
  hd_arg a{};
  a.kind = HD_ARG_PTR;
  a.value.ptr = p;
  return a;
}
inline hd_arg integer(hd_arg_kind kind, int64_t v) {
  hd_arg a{};
  a.kind = kind;
  a.value.i = v;
  return a;
}
inline hd_arg i1(bool v) { return integer(HD_ARG_I1, v ? 1 : 0); }
inline hd_arg i32(int32_t v) { return integer(HD_ARG_I32, v); }
inline hd_arg i64(int64_t v) { return integer(HD_ARG_I64, v); }
inline hd_arg floating(hd_arg_kind kind, double v) {
  hd_arg a{};
  a.kind = kind;
  a.value.f = v;
  return a;
}
inline hd_arg f32(float v) { return floating(HD_ARG_F32, v); }
inline hd_arg f64(double v) { return floating(HD_ARG_F64, v); }
} // namespace arg

namespace detail {
inline Status toStatus(hd_status s, const hd_error &err) {
  return s == HD_OK ? Status() : Status::fromError(s, err);
}

/// Owns a C handle and frees it with `Free` (which takes the handle and an
/// hd_error*).
template <typename H, hd_status (*Free)(H *, hd_error *)> class Owned {
public:
  Owned() = default;
  explicit Owned(H *h) : h_(h) {}
  Owned(Owned &&o) noexcept : h_(std::exchange(o.h_, nullptr)) {}
  Owned &operator=(Owned &&o) noexcept {
    if (this != &o) {
      reset();
      h_ = std::exchange(o.h_, nullptr);
    }
    return *this;
  }
  Owned(const Owned &) = delete;
  Owned &operator=(const Owned &) = delete;
  ~Owned() { reset(); }

  H *get() const { return h_; }
  void reset() {
    if (h_)
      Free(h_, nullptr);
    h_ = nullptr;
  }

private:
  H *h_ = nullptr;
};
} // namespace detail

class Buffer {
public:
  explicit Buffer(hd_buffer *b) : b_(b) {}
  hd_buffer *get() const { return b_.get(); }
  hd_device_ptr devicePtr() const { return hd_buffer_device_ptr(b_.get()); }
  uint64_t size() const { return hd_buffer_size(b_.get()); }
  hd_arg arg() const { return arg::ptr(devicePtr()); }

  Status copyFromHost(const void *src, uint64_t bytes, uint64_t offset = 0) {
    hd_error err;
    hd_status s = hd_buffer_copy_from_host(b_.get(), offset, src, bytes, &err);
    return detail::toStatus(s, err);
  }
  Status copyToHost(void *dst, uint64_t bytes, uint64_t offset = 0) const {
    hd_error err;
    hd_status s = hd_buffer_copy_to_host(b_.get(), offset, dst, bytes, &err);
    return detail::toStatus(s, err);
  }
  template <typename T> Status upload(const std::vector<T> &v) {
    return copyFromHost(v.data(), v.size() * sizeof(T));
  }
  template <typename T> Status download(std::vector<T> &v) const {
    return copyToHost(v.data(), v.size() * sizeof(T));
  }

private:
  detail::Owned<hd_buffer, hd_buffer_free> b_;
};

/// Borrowed from its Module.
class Kernel {
public:
  explicit Kernel(hd_kernel *k) : k_(k) {}
  hd_kernel *get() const { return k_; }
  const hd_kernel_signature &signature() const { return *hd_kernel_get_signature(k_); }

  Status launch(std::array<uint32_t, 3> grid, const std::vector<hd_arg> &args,
                uint64_t dynamicSharedBytes = 0) const {
    hd_error err;
    hd_status s = hd_launch(k_, grid.data(), args.data(), static_cast<uint32_t>(args.size()),
                            dynamicSharedBytes, &err);
    return detail::toStatus(s, err);
  }

private:
  hd_kernel *k_;
};

class Module {
public:
  explicit Module(hd_module *m) : m_(m) {}
  hd_module *get() const { return m_.get(); }
  Expected<Kernel> kernel(const std::string &name) const {
    hd_kernel *k = nullptr;
    hd_error err;
    hd_status s = hd_module_get_kernel(m_.get(), name.c_str(), &k, &err);
    if (s != HD_OK)
      return Status::fromError(s, err);
    return Kernel(k);
  }

private:
  detail::Owned<hd_module, hd_module_destroy> m_;
};

class Event {
public:
  explicit Event(hd_event *e) : e_(e) {}
  hd_event *get() const { return e_.get(); }
  Status record() {
    hd_error err;
    hd_status s = hd_event_record(e_.get(), &err);
    return detail::toStatus(s, err);
  }
  /// Milliseconds from this event to `end`.
  Expected<float> elapsedMsUntil(const Event &end) const {
    float ms = 0;
    hd_error err;
    hd_status s = hd_event_elapsed_ms(e_.get(), end.get(), &ms, &err);
    if (s != HD_OK)
      return Status::fromError(s, err);
    return ms;
  }

private:
  detail::Owned<hd_event, hd_event_destroy> e_;
};

/// A compilation result not loaded anywhere (hd_compiled).
class Compiled {
public:
  explicit Compiled(hd_compiled *c) : c_(c) {}
  hd_compiled *get() const { return c_.get(); }
  /// The binary, signatures, assembly and LLVM IR; owned by this object.
  const hd_compiled_module &module() const { return *hd_compiled_get(c_.get()); }
  std::string binary() const {
    return std::string(static_cast<const char *>(module().binary), module().binary_size);
  }

private:
  static hd_status destroy(hd_compiled *c, hd_error *) {
    hd_compiled_destroy(c);
    return HD_OK;
  }
  detail::Owned<hd_compiled, destroy> c_;
};

/// One module compiled for several targets (hd_bundle).
class Bundle {
public:
  explicit Bundle(hd_bundle *b) : b_(b) {}
  hd_bundle *get() const { return b_.get(); }

  /// Parses and checks a bundle's bytes, or a bundle file.
  static Expected<Bundle> open(const std::string &bytes) {
    hd_bundle *b = nullptr;
    hd_error err;
    hd_status s = hd_bundle_open(bytes.data(), bytes.size(), &b, &err);
    if (s != HD_OK)
      return Status::fromError(s, err);
    return Bundle(b);
  }
  static Expected<Bundle> openFile(const std::string &path) {
    hd_bundle *b = nullptr;
    hd_error err;
    hd_status s = hd_bundle_open_file(path.c_str(), &b, &err);
    if (s != HD_OK)
      return Status::fromError(s, err);
    return Bundle(b);
  }

  std::string bytes() const {
    uint64_t size = 0;
    const void *data = hd_bundle_data(b_.get(), &size);
    return std::string(static_cast<const char *>(data), size);
  }
  Status writeFile(const std::string &path) const {
    hd_error err;
    hd_status s = hd_bundle_write_file(b_.get(), path.c_str(), &err);
    return detail::toStatus(s, err);
  }
  /// "nvidia:sm_90a", in the order of the file.
  std::vector<std::string> targets() const {
    std::vector<std::string> out;
    for (uint32_t i = 0, n = hd_bundle_entry_count(b_.get()); i < n; ++i) {
      hd_bundle_entry e{};
      if (hd_bundle_get_entry(b_.get(), i, &e, nullptr) == HD_OK)
        out.push_back(std::string(e.plugin) + ":" + e.arch);
    }
    return out;
  }

private:
  static hd_status destroy(hd_bundle *b, hd_error *) {
    hd_bundle_destroy(b);
    return HD_OK;
  }
  detail::Owned<hd_bundle, destroy> b_;
};

/// Borrowed from its Context.
class Device {
public:
  explicit Device(hd_device *d) : d_(d) {}
  hd_device *get() const { return d_; }
  std::string name() const { return hd_device_name(d_); }
  std::string pluginName() const { return hd_device_plugin_name(d_); }
  hd_device_info info() const {
    hd_device_info info{};
    hd_device_get_info(d_, &info, nullptr);
    return info;
  }

  Expected<Buffer> alloc(uint64_t bytes) const {
    hd_buffer *b = nullptr;
    hd_error err;
    hd_status s = hd_buffer_alloc(d_, bytes, &b, &err);
    if (s != HD_OK)
      return Status::fromError(s, err);
    return Buffer(b);
  }
  Expected<Module> loadBinary(const void *binary, uint64_t size,
                              const std::vector<hd_kernel_signature> &kernels) const {
    hd_module *m = nullptr;
    hd_error err;
    hd_status s = hd_module_load_binary(d_, binary, size, kernels.data(),
                                        static_cast<uint32_t>(kernels.size()), &m, &err);
    if (s != HD_OK)
      return Status::fromError(s, err);
    return Module(m);
  }
  Expected<Module> loadIR(const std::string &ir, const hd_compile_options *options = nullptr) const {
    hd_module *m = nullptr;
    hd_error err;
    hd_status s = hd_module_load_ir(d_, ir.data(), ir.size(), options, &m, &err);
    if (s != HD_OK)
      return Status::fromError(s, err);
    return Module(m);
  }
  /// The bundle's entry for this device (hd_module_load_bundle).
  Expected<Module> loadBundle(const Bundle &bundle) const {
    hd_module *m = nullptr;
    hd_error err;
    hd_status s = hd_module_load_bundle(d_, bundle.get(), &m, &err);
    if (s != HD_OK)
      return Status::fromError(s, err);
    return Module(m);
  }
  Expected<Event> createEvent() const {
    hd_event *e = nullptr;
    hd_error err;
    hd_status s = hd_event_create(d_, &e, &err);
    if (s != HD_OK)
      return Status::fromError(s, err);
    return Event(e);
  }
  Status synchronize() const {
    hd_error err;
    hd_status s = hd_synchronize(d_, &err);
    return detail::toStatus(s, err);
  }

private:
  hd_device *d_;
};

/// One load-report entry, copied out of the context.
struct LoadRecord {
  std::string path;
  std::string plugin; ///< Empty when unknown.
  hd_status code;
  std::string reason;
};

class Context {
public:
  static Expected<Context> create() {
    hd_context *c = nullptr;
    hd_error err;
    hd_status s = hd_context_create(&c, &err);
    if (s != HD_OK)
      return Status::fromError(s, err);
    return Context(c);
  }

  hd_context *get() const { return c_.get(); }

  /// `selector` empty: HADRON_DEVICE, else `auto`.
  Expected<Device> select(const std::string &selector = "") const {
    hd_device *d = nullptr;
    hd_error err;
    hd_status s = hd_context_select(c_.get(), selector.c_str(), &d, &err);
    if (s != HD_OK)
      return Status::fromError(s, err);
    return Device(d);
  }

  std::vector<Device> devices() const {
    std::vector<Device> out;
    for (uint32_t i = 0, n = hd_context_device_count(c_.get()); i < n; ++i) {
      hd_device *d = nullptr;
      if (hd_context_get_device(c_.get(), i, &d, nullptr) == HD_OK)
        out.emplace_back(d);
    }
    return out;
  }

  std::vector<hd_plugin_info> plugins() const {
    std::vector<hd_plugin_info> out;
    for (uint32_t i = 0, n = hd_context_plugin_count(c_.get()); i < n; ++i) {
      hd_plugin_info info{};
      if (hd_context_plugin_info(c_.get(), i, &info, nullptr) == HD_OK)
        out.push_back(info);
    }
    return out;
  }

  std::vector<LoadRecord> loadReport() const {
    std::vector<LoadRecord> out;
    for (uint32_t i = 0, n = hd_context_load_report_count(c_.get()); i < n; ++i) {
      hd_load_record r{};
      if (hd_context_load_report_get(c_.get(), i, &r, nullptr) == HD_OK)
        out.push_back({r.path, r.plugin ? r.plugin : "", r.code, r.reason});
    }
    return out;
  }

  /// Compiles `ir` for `target` ("nvidia:sm_90a", or a bare plugin for its
  /// default arch) without a device (hd_context_compile; `options`' arch is
  /// replaced by the target's).
  Expected<Compiled> compile(const std::string &target, const std::string &ir,
                             hd_compile_options options = defaultOptions()) const {
    size_t colon = target.find(':');
    std::string plugin = target.substr(0, colon);
    std::string arch = colon == std::string::npos ? "" : target.substr(colon + 1);
    options.arch = arch.empty() ? nullptr : arch.c_str();
    hd_compiled *c = nullptr;
    hd_error err;
    hd_status s = hd_context_compile(c_.get(), plugin.c_str(), ir.data(), ir.size(), &options,
                                     &c, &err);
    if (s != HD_OK)
      return Status::fromError(s, err);
    return Compiled(c);
  }

  /// Compiles `ir` for every target of `targets` ("nvidia:sm_90a,amd:gfx942,
  /// host") into one bundle (hd_context_compile_bundle).
  Expected<Bundle> compileBundle(const std::string &targets, const std::string &ir,
                                 hd_compile_options options = defaultOptions()) const {
    options.arch = nullptr;
    hd_bundle *b = nullptr;
    hd_error err;
    hd_status s = hd_context_compile_bundle(c_.get(), targets.c_str(), ir.data(), ir.size(),
                                            &options, &b, &err);
    if (s != HD_OK)
      return Status::fromError(s, err);
    return Bundle(b);
  }

  /// Opt level 3, the plugin's default arch, no stage dumps.
  static hd_compile_options defaultOptions() {
    hd_compile_options o{};
    o.struct_size = sizeof(o);
    o.opt_level = 3;
    return o;
  }

  /// The #hd.matrix_instr texts of `plugin`'s `arch` (empty: its default
  /// arch); see hd_context_matrix_instructions.
  Expected<std::vector<std::string>> matrixInstructions(const std::string &plugin,
                                                        const std::string &arch = "") const {
    uint32_t count = 0;
    const char *const *texts = nullptr;
    hd_error err;
    hd_status s = hd_context_matrix_instructions(c_.get(), plugin.c_str(),
                                                 arch.empty() ? nullptr : arch.c_str(), &count,
                                                 &texts, &err);
    if (s != HD_OK)
      return Status::fromError(s, err);
    return std::vector<std::string>(texts, texts + count);
  }

private:
  explicit Context(hd_context *c) : c_(c) {}
  static hd_status destroy(hd_context *c, hd_error *) {
    hd_context_destroy(c);
    return HD_OK;
  }
  detail::Owned<hd_context, destroy> c_;
};

} // namespace hadron::runtime

#endif // HADRON_RUNTIME_RUNTIME_HPP
