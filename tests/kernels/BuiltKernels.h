//===- BuiltKernels.h - The kernel library's table --------------*- C++ -*-===//
//
// The IR of every kernel the C++ builder wrote at build time (tests/kernels,
// by hadron-test-kernels), for the suites that link no MLIR: tests/e2e and
// the conformance suite.
//
//===----------------------------------------------------------------------===//
#ifndef HADRON_TESTS_KERNELS_BUILTKERNELS_H
#define HADRON_TESTS_KERNELS_BUILTKERNELS_H

#include <string>

namespace hadron::kernels {

/// The IR of the kernel built under `key`; empty when there is none.
std::string builtKernelIR(const std::string &key);

} // namespace hadron::kernels

#endif // HADRON_TESTS_KERNELS_BUILTKERNELS_H
