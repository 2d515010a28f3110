//===- Module.cpp - The hadron._C extension module ------------------------===//

#include "Bindings.h"

namespace nb = nanobind;

NB_MODULE(_C, m) {
  m.doc() = "Hadron's C++ builder and runtime, for the hadron package";
  nb::exception<hadron::python::CompileError>(m, "CompileError");
  nb::exception<hadron::python::RuntimeFailure>(m, "RuntimeError");
  // Objects still alive at exit (a cached kernel, a buffer) are the
  // process's to free; nanobind would list each.
  nb::set_leak_warnings(false);
  hadron::python::bindBuilder(m);
  hadron::python::bindRuntime(m);
}
