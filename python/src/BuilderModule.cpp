//===- BuilderModule.cpp - The hadron._builder extension module -----------===//
//
// The C++ builder (hence libMLIR/libLLVM): imported only when a kernel must be
// traced, never by `import hadron` (the runtime is hadron._runtime). Its
// errors are hadron.CompileError, a Python class of hadron._errors, so that a
// process without this module still has the class to catch.
//
//===----------------------------------------------------------------------===//

#include "Bindings.h"

namespace nb = nanobind;

NB_MODULE(_builder, m) {
  m.doc() = "Hadron's C++ builder, for the hadron package's tracer";
  // The reference is the module's for the process's lifetime.
  nb::object errors = nb::module_::import_("hadron._errors");
  PyObject *compileError = nb::object(errors.attr("CompileError")).release().ptr();
  m.attr("CompileError") = nb::handle(compileError);
  nb::register_exception_translator(
      [](const std::exception_ptr &p, void *type) {
        try {
          std::rethrow_exception(p);
        } catch (const hadron::python::CompileError &e) {
          PyErr_SetString(static_cast<PyObject *>(type), e.what());
        }
      },
      compileError);
  // Objects still alive at exit are the process's to free; nanobind would
  // list each.
  nb::set_leak_warnings(false);
  hadron::python::bindBuilder(m);
}
