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

namespace hadron::kernels {

using testkit::Blocked;
using testkit::Elem;

struct KernelUse {
  /// The kernel function's name, unique in the library.
  std::string kernel;
  Blocked layout;
  Elem elem = Elem::F32;

  /// The key of the kernel built for `lanes` (kernels::builtKernelIR).
  std::string key(unsigned lanes) const {
    return "use." + kernel + "." + testkit::irName(elem) + "." + layout.name() + ".lanes" +
           std::to_string(lanes);
  }
};

} // namespace hadron::kernels

#endif // HADRON_TESTS_KERNELS_KERNELUSE_H
