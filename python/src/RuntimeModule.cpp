//===- RuntimeModule.cpp - The hadron._runtime extension module -----------===//
//
// Devices, buffers, modules, launches and events over libhadron-runtime
// alone: no builder, no LLVM/MLIR (a test checks with ldd), so `import
// hadron` works on a machine that has only the runtime and the plugins'
// runtime parts.
//
//===----------------------------------------------------------------------===//

#include "Bindings.h"

namespace nb = nanobind;

NB_MODULE(_runtime, m) {
  m.doc() = "Hadron's runtime (devices, buffers, launches), for the hadron package";
  m.attr("version") = HADRON_VERSION;
  nb::exception<hadron::python::RuntimeFailure>(m, "RuntimeError");
  // Objects still alive at exit (a cached kernel, a buffer) are the
  // process's to free; nanobind would list each.
  nb::set_leak_warnings(false);
  hadron::python::bindRuntime(m);
}
