//===- RuntimeObjects.h - What hadron._runtime's objects hold ---*- C++ -*-===//
//
// Handles keep what they were made from alive (a buffer its context, a
// kernel its module), so Python's collector may free them in any order.
// Shared by the bindings (RuntimeBindings.cpp) and the launcher
// (Launcher.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef HADRON_PYTHON_RUNTIMEOBJECTS_H
#define HADRON_PYTHON_RUNTIMEOBJECTS_H

#include "Bindings.h"

#include "hadron/runtime/Runtime.hpp"

#include <memory>
#include <string>

namespace hadron::python {

namespace rt = hadron::runtime;

[[noreturn]] inline void raise(const rt::Status &s) {
  throw RuntimeFailure(std::string(hd_status_name(s.code())) + ": " + s.message());
}
inline void check(const rt::Status &s) {
  if (!s)
    raise(s);
}
template <typename T> T take(rt::Expected<T> e) {
  if (!e)
    raise(e.status());
  return std::move(e).value();
}

struct PyContext {
  rt::Context context;
};
using ContextRef = std::shared_ptr<PyContext>;

struct PyDevice {
  ContextRef ctx;
  rt::Device device;
};

struct PyBuffer {
  ContextRef ctx;
  rt::Buffer buffer;
  /// The hd element type of what it holds, when a hadron.DeviceArray says
  /// so (its part of a specialisation key); HD_ARG_PTR (no element type)
  /// otherwise. Launcher.cpp reads it.
  hd_arg_kind element = HD_ARG_PTR;
};

/// hadron._runtime.TensorDesc: an hd_tensor_desc over a Buffer, which it
/// keeps alive. A launch passes a pointer to `desc` (read only during the
/// launch call, as plugin.h says).
struct PyTensorDesc {
  nanobind::object buffer; ///< the PyBuffer it describes memory of
  hd_device *device = nullptr;
  hd_tensor_desc desc{};
};

struct PyModule {
  ContextRef ctx;
  rt::Module module;
};

struct PyKernel {
  std::shared_ptr<PyModule> module;
  rt::Kernel kernel;
};

struct PyEvent {
  ContextRef ctx;
  rt::Event event;
};

/// hadron._runtime.Launcher and BoundLaunch (Launcher.cpp).
void bindLauncher(nanobind::module_ &m);

} // namespace hadron::python

#endif // HADRON_PYTHON_RUNTIMEOBJECTS_H
