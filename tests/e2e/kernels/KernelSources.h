//===- KernelSources.h - e2e kernels written with the C++ builder ---------===//
//
// hadron-e2e links no MLIR, so the kernels its tests take from the builder
// are built here, at build time, by hadron-e2e-kernels, and compiled into
// it as a table (BuiltKernels.cpp, builtKernelIR in E2E.h).
//
//===----------------------------------------------------------------------===//
#ifndef HADRON_TESTS_E2E_KERNELS_KERNELSOURCES_H
#define HADRON_TESTS_E2E_KERNELS_KERNELSOURCES_H

#include <string>
#include <utility>
#include <vector>

namespace hadron::e2e {

/// (key, IR) of each kernel.
using BuiltKernels = std::vector<std::pair<std::string, std::string>>;

/// Appends ControlFlowTest's kernels for every lane count; returns "" or
/// what failed to build.
std::string addControlFlowKernels(BuiltKernels &out);

} // namespace hadron::e2e

#endif // HADRON_TESTS_E2E_KERNELS_KERNELSOURCES_H
