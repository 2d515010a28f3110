//===- ControlFlowCases.h - The control-flow tests' layouts and kernels ---===//
//
// Shared by ControlFlowTest.cpp (hadron-e2e) and kernels/ControlFlow.cpp
// (hadron-e2e-kernels, which builds the kernels with the C++ builder at
// build time for every warp size the suite runs with).
//
//===----------------------------------------------------------------------===//
#ifndef HADRON_TESTS_E2E_CONTROLFLOWCASES_H
#define HADRON_TESTS_E2E_CONTROLFLOWCASES_H

#include "Blocked.h"

#include <ostream>

namespace hadron::e2e {

struct Layout1D {
  Blocked layout;
  int block;
  std::string name() const { return layout.name() + "_b" + std::to_string(block); }
};

/// Test parameters print as their names in gtest's messages.
inline std::ostream &operator<<(std::ostream &os, const Layout1D &c) { return os << c.name(); }

inline const Layout1D kControlFlowLayouts[] = {
    {{{4}, {32}, {4}, {0}}, 512},
    {{{1}, {32}, {8}, {0}}, 256},
    {{{2}, {32}, {1}, {0}}, 64},
};

/// Each kernel takes (in: !hd.ptr<i32>, out: !hd.ptr<i32>, n: i32[, extra:
/// i32]) and stores f(x) where it loaded x, over `block` elements per
/// program masked by n:
///   for_loop   (extra = trips) acc = x; for i < trips: acc += x * i
///   if_else    even programs x * 3, odd ones x - 7
///   while_loop (extra = base) x doubled (pid % 5) + base times
///   nest       (extra = a) for i < a: for j < 3: acc = (i + j) even ? acc + x : acc - 1
inline const char *const kControlFlowKernels[] = {"for_loop", "if_else", "while_loop", "nest"};

/// Every lane count HADRON_E2E_WARP_SIZE accepts.
inline const unsigned kLaneCounts[] = {8, 16, 32, 64};

/// The key of a kernel in the built-kernel table (builtKernelIR).
inline std::string controlFlowKey(const std::string &kernel, const Layout1D &c, unsigned lanes) {
  return "control_flow." + kernel + "." + c.name() + ".lanes" + std::to_string(lanes);
}

} // namespace hadron::e2e

#endif // HADRON_TESTS_E2E_CONTROLFLOWCASES_H
