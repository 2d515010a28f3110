//===- DemoCases.h - The examples `hadron demo` runs ------------*- C++ -*-===//
//
// Each case names an example kernel in examples/, its arguments and a host
// reference. Buffers are f32: inputs are drawn uniform in [-1, 1), outputs
// are poisoned with NaN before the launch. The reference writes the
// expected outputs and leaves NaN where the kernel must not write, so an
// element the kernel forgot or wrote past its end fails the check.
//
//===----------------------------------------------------------------------===//
#ifndef HADRON_TOOLS_HADRON_DEMOCASES_H
#define HADRON_TOOLS_HADRON_DEMOCASES_H

#include "hadron/runtime/runtime.h"

#include <array>
#include <functional>
#include <string>
#include <vector>

namespace hadron::cli {

struct DemoBuffer {
  size_t count;
  bool output; ///< Poisoned before the launch and checked after it.
};

/// A kernel argument: a buffer (by index into DemoCase::buffers) or a scalar.
struct DemoArg {
  int buffer = -1;
  hd_arg scalar{};
};

struct DemoCase {
  std::string name;  ///< The kernel, and examples/<name>.mlir.
  std::string shape; ///< "n = 1048653", for the report.
  std::vector<DemoBuffer> buffers;
  std::vector<DemoArg> args;
  std::array<uint32_t, 3> grid;
  /// Receives every buffer (inputs filled, outputs NaN) and writes the
  /// expected values into the outputs.
  std::function<void(std::vector<std::vector<float>> &)> reference;
  /// An element passes when |got - want| <= atol + rtol * |want|.
  double atol, rtol;
  double bytes; ///< Moved per launch, for GB/s; 0 when the case counts flops.
  double flops; ///< Per launch, for GFLOP/s.
};

std::vector<DemoCase> demoCases();

} // namespace hadron::cli

#endif // HADRON_TOOLS_HADRON_DEMOCASES_H
