//===- SharedMemory.h - tests/e2e's shared-memory kernels -------*- C++ -*-===//
//
// The kernels of tests/e2e's SharedMemory, SharedViews and SharedMultiBuffer
// tests. Each takes (in, out[, in2]: !hd.ptr<f32>); program q loads x,
// elements q * 1024 .. q * 1024 + 1023 of in as a 32 x 32 row-major tile in
// the row-major layout, and stores a 32 x 32 result at the same place from
// the column-major layout:
//   alloc_load   local_alloc from x in `shared`, local_load: out = x
//   store_load   local_store x, barrier, local_load (first); barrier; y from
//                in2 (column-major) stored over it, barrier, local_load in
//                the row-major layout: out = first + 2 * y
//   slices       the two 16 x 32 halves through memdesc_slice, written back
//                swapped
//   stages       a 2 x 32 x 32 allocation: x into stage 0, y (in2) into
//                stage 3 - 2 (a run-time index): out = 2 * y + x
// Two of tests/e2e's kernels stay IR text: SharedViews.PermuteTransposes,
// because the builder's SharedMemory::permute derives the view's layout for
// swizzled and padded layouts only (the test includes #hd.shared_linear),
// and SharedAsyncCopy, whose second copy carries a cache hint that the
// builder's async_copy has no parameter for.
//
//===----------------------------------------------------------------------===//
#ifndef HADRON_TESTS_KERNELS_SHAREDMEMORY_H
#define HADRON_TESTS_KERNELS_SHAREDMEMORY_H

#include "kernels/KernelUse.h"

#include <string>
#include <vector>

namespace hadron::kernels {

/// A shared layout as IR text, with the label tests/e2e names it by.
struct SharedLayout {
  std::string label, layout;
};

/// tests/e2e's shared layouts: the SharedMemory tests take all of them, the
/// views the 1st, 2nd, 4th and 6th.
inline const std::vector<SharedLayout> &e2eSharedLayouts() {
  static const std::vector<SharedLayout> l = {
      {"row_major", "#hd.swizzled<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>"},
      {"swizzle_v4_p1_m8", "#hd.swizzled<{vec = 4, perPhase = 1, maxPhase = 8, order = [1, 0]}>"},
      {"swizzle_v2_p2_m4_colmajor",
       "#hd.swizzled<{vec = 2, perPhase = 2, maxPhase = 4, order = [0, 1]}>"},
      {"padded_32_4", "#hd.padded<{intervals = [32], paddings = [4], order = [1, 0]}>"},
      {"padded_two_levels",
       "#hd.padded<{intervals = [16, 256], paddings = [1, 8], order = [1, 0]}>"},
      {"shared_linear",
       "#hd.shared_linear<{offset = [[0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [1, 4], [2, 8], "
       "[4, 0], [8, 0], [16, 0]]}>"},
  };
  return l;
}
inline std::vector<SharedLayout> e2eSharedViewLayouts() {
  const auto &l = e2eSharedLayouts();
  return {l[0], l[1], l[3], l[5]};
}
/// The stages test's 3-D layout.
inline const char *const kStagesLayout =
    "#hd.swizzled<{vec = 4, perPhase = 1, maxPhase = 8, order = [2, 1, 0]}>";

/// One kernel: `kernel` over `shared`.
struct SharedUse {
  std::string kernel;
  SharedLayout shared;
  std::string key(unsigned lanes) const {
    return "shared." + kernel + "." + shared.label + ".lanes" + std::to_string(lanes);
  }
};

inline std::vector<SharedUse> e2eSharedUses() {
  std::vector<SharedUse> uses;
  for (const SharedLayout &l : e2eSharedLayouts())
    for (const char *k : {"alloc_load", "store_load"})
      uses.push_back({k, l});
  for (const SharedLayout &l : e2eSharedViewLayouts())
    uses.push_back({"slices", l});
  uses.push_back({"stages", {"stages", kStagesLayout}});
  return uses;
}

} // namespace hadron::kernels

#endif // HADRON_TESTS_KERNELS_SHAREDMEMORY_H
