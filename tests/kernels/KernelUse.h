//===- KernelUse.h - A kernel of the library, specialised, and its key -*- C++ -*-===//
//
// Most of the library's kernels are specialised by an element type, a 1-D or
// 2-D layout (written for 32 lanes, Layouts.h) and a lane count; a family's
// header lists the uses its suite runs, the generator builds each for every
// lane count, and the suite finds it by key. Plain C++, as Frame.h.
//
//===----------------------------------------------------------------------===//
#ifndef HADRON_TESTS_KERNELS_KERNELUSE_H
#define HADRON_TESTS_KERNELS_KERNELUSE_H

#include "testkit/Layouts.h"
#include "testkit/Values.h"

#include <string>
#include <vector>

namespace hadron::kernels {

using testkit::Blocked;
using testkit::Elem;

struct KernelUse {
  /// The kernel function's name.
  std::string kernel;
  /// The layout of the kernel's tiles; its warps are the kernel's.
  Blocked layout;
  Elem elem = Elem::F32;
  /// A second layout (what a conversion goes to), when the kernel has one.
  Blocked second{};
  /// Sizes and switches the family's header documents per kernel.
  std::vector<int> ints{};
  /// Which of a kernel's forms (a reduction's combine, ...), when it has
  /// several.
  std::string variant{};

  /// The key of the kernel built for `lanes` (kernels::builtKernelIR).
  std::string key(unsigned lanes) const {
    std::string k = "use." + kernel + "." + testkit::irName(elem) + "." + layout.name();
    if (second.rank() > 0)
      k += ".to_" + second.name();
    for (int i : ints)
      k += "." + std::to_string(i);
    if (!variant.empty())
      k += "." + variant;
    return k + ".lanes" + std::to_string(lanes);
  }
};

} // namespace hadron::kernels

#endif // HADRON_TESTS_KERNELS_KERNELUSE_H
