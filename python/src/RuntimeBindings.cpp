//===- RuntimeBindings.cpp - hadron._runtime over the runtime's C++ API ----===//
//
// Failures raise hadron.RuntimeError with the runtime's code and message.
// Kernel.launch converts its arguments here, from the kernel's signature,
// with no Python in between; kernel[grid](...) of a specialisation launched
// before goes through Launcher.cpp instead.
//
//===----------------------------------------------------------------------===//

#include "RuntimeObjects.h"

#include <nanobind/stl/shared_ptr.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <memory>

namespace nb = nanobind;

namespace hadron::python {
namespace {

nb::dict infoDict(const hd_device_info &info) {
  nb::dict d;
  d["name"] = std::string(info.name);
  d["arch"] = std::string(info.arch);
  d["warp_size"] = info.warp_size;
  d["max_threads_per_cta"] = info.max_threads_per_cta;
  d["shared_bytes_per_cta"] = info.shared_bytes_per_cta;
  d["global_bytes"] = info.global_bytes;
  d["compute_units"] = info.compute_units;
  return d;
}

/// The launch argument `h` for a parameter of `kind`: a Buffer or an
/// address for a pointer, a Python number otherwise.
hd_arg launchArg(nb::handle h, hd_arg_kind kind, uint32_t index, const char *kernel) {
  try {
    switch (kind) {
    case HD_ARG_PTR:
      if (nb::isinstance<PyBuffer>(h))
        return rt::arg::ptr(nb::cast<PyBuffer &>(h).buffer.devicePtr());
      return rt::arg::ptr(nb::cast<uint64_t>(h));
    case HD_ARG_F16:
    case HD_ARG_BF16:
    case HD_ARG_F32:
    case HD_ARG_F64:
      return rt::arg::floating(kind, nb::cast<double>(h));
    case HD_ARG_TENSOR_DESC: {
      hd_arg a{};
      a.kind = HD_ARG_TENSOR_DESC;
      a.value.desc = &nb::cast<PyTensorDesc &>(h).desc; // alive in `args` during the launch
      return a;
    }
    default:
      return rt::arg::integer(kind, nb::cast<int64_t>(h));
    }
  } catch (const nb::cast_error &) {
    throw nb::type_error(("argument " + std::to_string(index) + " of " + kernel + " is " +
                          hd_arg_kind_name(kind) + ", got " +
                          nb::str(nb::type_name(h.type())).c_str())
                             .c_str());
  }
}

} // namespace

void bindRuntime(nb::module_ &m) {
  nb::class_<PyContext>(m, "Context")
      .def_static(
          "create",
          [] { return std::make_shared<PyContext>(PyContext{take(rt::Context::create())}); })
      .def("select",
           [](const ContextRef &c, const std::string &selector) {
             return PyDevice{c, take(c->context.select(selector))};
           })
      .def("devices",
           [](const ContextRef &c) {
             std::vector<PyDevice> out;
             for (const rt::Device &d : c->context.devices())
               out.push_back(PyDevice{c, d});
             return out;
           })
      // Compile-only (hd_context_compile): fills the kernel cache entry that
      // load_ir of the same IR and opt level reads on a device of `target`'s
      // arch, with no device. Returns the kernels' names, the binary's size
      // and its textual assembly (PTX; None where the target has none).
      .def(
          "compile",
          [](const ContextRef &c, const std::string &target, const std::string &ir,
             unsigned optLevel) {
            hd_compile_options options = rt::Context::defaultOptions();
            options.opt_level = optLevel;
            rt::Expected<rt::Compiled> compiled = [&] {
              nb::gil_scoped_release unlocked;
              return c->context.compile(target, ir, options);
            }();
            rt::Compiled result = take(std::move(compiled));
            const hd_compiled_module &module = result.module();
            std::vector<std::string> kernels;
            for (uint32_t i = 0; i < module.num_kernels; ++i)
              kernels.push_back(module.kernels[i].name);
            nb::object assembly = module.assembly ? nb::object(nb::str(module.assembly))
                                                  : nb::none();
            return nb::make_tuple(kernels, module.binary_size, assembly);
          },
          nb::arg("target"), nb::arg("ir"), nb::arg("opt_level") = 3)
      .def("plugins",
           [](const ContextRef &c) {
             std::vector<std::string> out;
             for (const hd_plugin_info &p : c->context.plugins())
               out.push_back(p.name);
             return out;
           })
      .def("load_report", [](const ContextRef &c) {
        std::vector<std::string> out;
        for (const rt::LoadRecord &r : c->context.loadReport())
          out.push_back(r.path + ": " + hd_status_name(r.code) + ": " + r.reason);
        return out;
      });

  nb::class_<PyDevice>(m, "Device")
      .def_prop_ro("name", [](const PyDevice &d) { return d.device.name(); })
      .def_prop_ro("plugin", [](const PyDevice &d) { return d.device.pluginName(); })
      .def_prop_ro("info", [](const PyDevice &d) { return infoDict(d.device.info()); })
      .def("alloc",
           [](const PyDevice &d, uint64_t bytes) {
             return PyBuffer{d.ctx, take(d.device.alloc(bytes))};
           })
      .def(
          "load_ir",
          [](const PyDevice &d, const std::string &ir, unsigned optLevel) {
            hd_compile_options options = rt::Context::defaultOptions();
            options.opt_level = optLevel;
            rt::Expected<rt::Module> module = [&] {
              nb::gil_scoped_release unlocked; // compiling takes milliseconds
              return d.device.loadIR(ir, &options);
            }();
            return std::make_shared<PyModule>(PyModule{d.ctx, take(std::move(module))});
          },
          nb::arg("ir"), nb::arg("opt_level") = 3)
      .def("create_event",
           [](const PyDevice &d) {
             return PyEvent{d.ctx, take(d.device.createEvent())};
           })
      .def("synchronize", [](const PyDevice &d) {
        rt::Status s;
        {
          nb::gil_scoped_release unlocked;
          s = d.device.synchronize();
        }
        check(s);
      });

  nb::class_<PyBuffer>(m, "Buffer")
      .def_prop_ro("ptr", [](const PyBuffer &b) { return b.buffer.devicePtr(); })
      .def_prop_ro("size", [](const PyBuffer &b) { return b.buffer.size(); })
      // The element type a hadron.DeviceArray holds ("f32", ...; "" for
      // none), which the launcher reads for the specialisation key.
      .def_prop_rw(
          "element",
          [](const PyBuffer &b) {
            return std::string(b.element == HD_ARG_PTR ? "" : hd_arg_kind_name(b.element));
          },
          [](PyBuffer &b, const std::string &name) {
            for (int k = HD_ARG_I1; k <= HD_ARG_F64; ++k)
              if (name == hd_arg_kind_name(static_cast<hd_arg_kind>(k))) {
                b.element = static_cast<hd_arg_kind>(k);
                return;
              }
            if (!name.empty())
              throw nb::value_error(("no hd element type `" + name + "`").c_str());
            b.element = HD_ARG_PTR;
          })
      // Host memory is given by address and size (numpy's
      // __array_interface__['data'][0], torch's data_ptr()).
      .def(
          "upload",
          [](PyBuffer &b, uintptr_t src, uint64_t bytes, uint64_t offset) {
            check(b.buffer.copyFromHost(reinterpret_cast<const void *>(src), bytes, offset));
          },
          nb::arg("src"), nb::arg("bytes"), nb::arg("offset") = 0)
      .def(
          "download",
          [](const PyBuffer &b, uintptr_t dst, uint64_t bytes, uint64_t offset) {
            check(b.buffer.copyToHost(reinterpret_cast<void *>(dst), bytes, offset));
          },
          nb::arg("dst"), nb::arg("bytes"), nb::arg("offset") = 0);

  // What a kernel's tensor-descriptor argument is launched with: a tensor
  // of `shape` and `strides` (elements, innermost last) starting
  // `offset` bytes into `buffer`. The runtime checks
  // it against the kernel and the buffer at launch.
  nb::class_<PyTensorDesc>(m, "TensorDesc")
      .def(
          "__init__",
          [](PyTensorDesc *self, nb::handle buffer, std::vector<uint64_t> shape,
             std::vector<uint64_t> strides, uint64_t offset) {
            const PyBuffer &b = nb::cast<const PyBuffer &>(buffer);
            if (shape.empty() || shape.size() > HD_TENSOR_DESC_MAX_RANK ||
                strides.size() != shape.size())
              throw nb::value_error(("a tensor descriptor has 1 to " +
                                     std::to_string(HD_TENSOR_DESC_MAX_RANK) +
                                     " dims and one stride per dim, got " +
                                     std::to_string(shape.size()) + " dims and " +
                                     std::to_string(strides.size()) + " strides")
                                        .c_str());
            PyTensorDesc *d = new (self) PyTensorDesc();
            d->buffer = nb::borrow(buffer);
            d->device = hd_buffer_device(b.buffer.get());
            d->desc.base = b.buffer.devicePtr() + offset;
            d->desc.rank = static_cast<uint32_t>(shape.size());
            for (size_t i = 0; i < shape.size(); ++i) {
              d->desc.shape[i] = shape[i];
              d->desc.strides[i] = strides[i];
            }
          },
          nb::arg("buffer"), nb::arg("shape"), nb::arg("strides"), nb::arg("offset") = 0)
      .def_prop_ro("base", [](const PyTensorDesc &d) { return d.desc.base; })
      .def_prop_ro("shape",
                   [](const PyTensorDesc &d) {
                     return std::vector<uint64_t>(d.desc.shape, d.desc.shape + d.desc.rank);
                   })
      .def_prop_ro("strides", [](const PyTensorDesc &d) {
        return std::vector<uint64_t>(d.desc.strides, d.desc.strides + d.desc.rank);
      });

  nb::class_<PyModule>(m, "RuntimeModule")
      .def("kernel", [](const std::shared_ptr<PyModule> &mod, const std::string &name) {
        return PyKernel{mod, take(mod->module.kernel(name))};
      });

  nb::class_<PyKernel>(m, "Kernel")
      .def_prop_ro("name", [](const PyKernel &k) { return std::string(k.kernel.signature().name); })
      .def_prop_ro("arg_kinds",
                   [](const PyKernel &k) {
                     const hd_kernel_signature &s = k.kernel.signature();
                     std::vector<std::string> out;
                     for (uint32_t i = 0; i < s.num_args; ++i)
                       out.push_back(hd_arg_kind_name(s.args[i]));
                     return out;
                   })
      .def_prop_ro("num_warps", [](const PyKernel &k) { return k.kernel.signature().num_warps; })
      .def_prop_ro("static_shared_bytes",
                   [](const PyKernel &k) { return k.kernel.signature().static_shared_bytes; })
      .def(
          "launch",
          [](const PyKernel &k, uint32_t gx, uint32_t gy, uint32_t gz, nb::sequence args,
             uint64_t dynamicShared) {
            const hd_kernel_signature &s = k.kernel.signature();
            size_t n = nb::len(args);
            if (n != s.num_args)
              throw nb::type_error((std::string(s.name) + " takes " + std::to_string(s.num_args) +
                                    " runtime arguments, got " + std::to_string(n))
                                       .c_str());
            std::vector<hd_arg> converted(n);
            for (size_t i = 0; i < n; ++i)
              converted[i] = launchArg(args[i], s.args[i], static_cast<uint32_t>(i), s.name);
            check(k.kernel.launch({gx, gy, gz}, converted, dynamicShared));
          },
          nb::arg("gx"), nb::arg("gy"), nb::arg("gz"), nb::arg("args"),
          nb::arg("dynamic_shared_bytes") = 0);

  bindLauncher(m);

  nb::class_<PyEvent>(m, "Event")
      .def("record", [](PyEvent &e) { check(e.event.record()); })
      .def("elapsed_ms", [](const PyEvent &start, const PyEvent &end) {
        rt::Expected<float> ms = [&] {
          nb::gil_scoped_release unlocked;
          return start.event.elapsedMsUntil(end.event);
        }();
        return take(std::move(ms));
      });
}

} // namespace hadron::python
