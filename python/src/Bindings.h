//===- Bindings.h - hadron._builder and hadron._runtime ---------*- C++ -*-===//
#ifndef HADRON_PYTHON_BINDINGS_H
#define HADRON_PYTHON_BINDINGS_H

#include <nanobind/nanobind.h>

#include <stdexcept>
#include <string>

namespace hadron::python {

/// A trace-time error of a kernel (hadron.CompileError): its message starts
/// with the user's "file:line:col: error:".
struct CompileError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// A runtime failure (hadron.RuntimeError): the runtime's code and message.
struct RuntimeFailure : std::runtime_error {
  using std::runtime_error::runtime_error;
};

void bindBuilder(nanobind::module_ &m);
void bindRuntime(nanobind::module_ &m);

} // namespace hadron::python

#endif // HADRON_PYTHON_BINDINGS_H
