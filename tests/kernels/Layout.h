//===- Layout.h - The layout-conversion and shared-memory kernels -*- C++ -*-===//
//
// The kernels of the conformance suite's layout.* and smem.* cases; each
// loads a tile in one layout, moves it, and stores it from offsets computed
// in the other, so every element must keep its coordinates:
//   convert (in, out, rows, cols)  an m x n tile of `from` at (pid0 * m,
//                                  pid1 * n), masked, converted to `to`
//   convert1d (in, out, n)         the same in 1-D, len elements a program
//   convert_slice (in, out, n)     64 elements in Slice{1, row-major}
//                                  converted to a 1-D blocked layout, or
//                                  (toSlice) to Slice{0, column-major}
//   smem (in, out)                 a 32 x 32 tile written from the row-major
//                                  layout into shared memory of `shared` and
//                                  read into the column-major one, as `how`
//                                  says (SmemUse)
//
//===----------------------------------------------------------------------===//
#ifndef HADRON_TESTS_KERNELS_LAYOUT_H
#define HADRON_TESTS_KERNELS_LAYOUT_H

#include "kernels/KernelUse.h"
#include "kernels/Memory.h"

#include <string>
#include <vector>

namespace hadron::kernels {

/// A distributed layout: blocked, or linear over a fixed shape whose index
/// bits go to registers, lanes and warps in the order `perm`
/// (testkit::linearLayout).
struct Dist {
  std::string label;
  Blocked blocked{};
  std::vector<int> shape{}, perm{};
  int warps = 0;

  int numWarps() const { return perm.empty() ? blocked.numWarps() : warps; }
  std::string str(unsigned lanes) const {
    return perm.empty() ? blocked.str(lanes) : testkit::linearLayout(shape, lanes, warps, perm);
  }
};
inline Dist blockedDist(const Blocked &b) { return {b.name(), b}; }
inline Dist linearDist(const std::string &label, std::vector<int> shape, std::vector<int> perm,
                       int warps) {
  return {label, {}, std::move(shape), std::move(perm), warps};
}

/// What an smem kernel does between writing the tile and reading it back.
enum class Smem {
  AllocLoad,        ///< local_alloc from the tile, local_load
  StoreBarrierLoad, ///< empty local_alloc, local_store, barrier, local_load
  MultiBuffer,      ///< 2 stages (shared3): x in 1, x + x in 0; out = 1 - 0
  SliceView,        ///< rows 16..31 through a [16, 0] slice, to rows 0..15
  PermuteView,      ///< read through memdesc_permute [1, 0]: out = in^T
  AsyncCopy,        ///< async_copy, commit, wait 0, local_load
  /// (desc, out): the tile as a tensor descriptor's block, through
  /// mbarrier_expect, async_tensor_copy, mbarrier_wait
  TensorCopy,
  /// (desc, out), i32: blocks at (8 i - 8, 4 i - 4), i = 0..2, through a
  /// ring of 2 stages (shared3) with a barrier each, waiting on phase
  /// parity (i / 2) & 1; out = block 0 + block 1 + block 2, zeros outside
  TensorCopyRing,
  /// (desc, out): TensorCopy with the cluster forms in a cluster of one
  /// program: cluster barriers around it, the copy multicast to mask 1
  /// (this program), the wait preceded by an arrival on rank 0 (this
  /// program) at a second barrier, which must complete
  TensorCopyCluster,
  /// (desc of m/2 x n blocks, out of 2 m n) in clusters of two programs on
  /// a grid of two: program r (the cluster rank, pid % 2) copies rows
  /// r m/2 .. of the tile multicast into both programs (mask 3), each
  /// arrives on both programs' second barrier (count 2) and waits for it,
  /// then for the whole tile; program p stores the tile at out + p m n
  TensorCopyClusterPair,
};

/// One case's kernel; `name` is the conformance case's name.
struct LayoutUse {
  std::string name, kernel;
  Dist from{}, to{};
  int m = 0, n = 0;
  Elem elem = Elem::F32;
  bool toSlice = false;
  std::string shared{}, shared3{};
  Smem how = Smem::AllocLoad;

  int numWarps() const { return kernel == "convert_slice" || kernel == "smem" ? 4 : from.numWarps(); }
  std::string key(unsigned lanes) const { return name + ".lanes" + std::to_string(lanes); }
};

inline std::string swizzled(int vec, int perPhase, int maxPhase, const std::string &order) {
  return "#hd.swizzled<{vec = " + std::to_string(vec) + ", perPhase = " + std::to_string(perPhase) +
         ", maxPhase = " + std::to_string(maxPhase) + ", order = " + order + "}>";
}

/// What the conformance suite's layout.* and smem.* cases take, in its
/// order.
inline std::vector<LayoutUse> layoutUses() {
  const Blocked rows = layouts2d()[0], cols = layouts2d()[1];
  std::vector<LayoutUse> u;
  auto convert = [&u](Dist from, Dist to, int m, int n, Elem e) {
    u.push_back({"layout.convert." + from.label + ".to." + to.label + "." + std::to_string(m) +
                     "x" + std::to_string(n) + "." + testkit::irName(e),
                 "convert", from, to, m, n, e});
  };
  auto b = blockedDist;
  convert(b(rows), b(cols), 32, 32, Elem::I32);
  convert(b(cols), b(rows), 16, 16, Elem::F16);
  convert(b(rows), b({{2, 2}, {8, 4}, {2, 2}, {1, 0}}), 32, 32, Elem::I32);
  convert(b({{1, 1}, {1, 32}, {4, 1}, {1, 0}}), b({{1, 1}, {32, 1}, {1, 4}, {0, 1}}), 32, 32, Elem::F32);
  convert(b({{1, 2}, {8, 4}, {1, 1}, {1, 0}}), b({{2, 1}, {4, 8}, {1, 1}, {0, 1}}), 16, 16, Elem::I32);
  convert(b({{2, 2}, {2, 16}, {2, 4}, {1, 0}}), b({{1, 1}, {16, 2}, {8, 1}, {0, 1}}), 16, 64, Elem::F32);
  // A tile smaller than both layouts: lanes and warps hold copies.
  convert(b({{1, 4}, {4, 8}, {4, 1}, {1, 0}}), b({{1, 1}, {32, 1}, {1, 4}, {0, 1}}), 8, 8, Elem::I32);
  convert(b({{4, 4}, {4, 8}, {2, 2}, {1, 0}}), b({{1, 1}, {4, 8}, {4, 1}, {0, 1}}), 64, 64, Elem::F16);
  const Dist scrambled = linearDist("linear_scrambled", {512}, {3, 8, 0, 5, 1, 7, 2, 6, 4}, 4);
  const Dist scrambledRegs = linearDist("linear_regs", {512}, {8, 0, 3, 5, 1, 7, 2, 6, 4}, 4);
  for (auto [from, to] : std::vector<std::pair<Dist, Dist>>{
           {b({{1}, {32}, {4}, {0}}), b({{4}, {32}, {4}, {0}})},
           {b({{4}, {32}, {4}, {0}}), scrambled},
           {scrambled, b({{2}, {32}, {4}, {0}})},
           {scrambled, scrambledRegs}})
    u.push_back({"layout.convert1d." + from.label + ".to." + to.label, "convert1d", from, to, 512});
  for (bool toSlice : {false, true}) {
    LayoutUse s{toSlice ? "layout.convert.slice.to_other_slice" : "layout.convert.slice.to_blocked",
                "convert_slice"};
    s.m = 64;
    s.toSlice = toSlice;
    u.push_back(s);
  }
  auto smem = [&u](const std::string &name, const std::string &shared, Elem e, Smem how,
                   const std::string &shared3 = "") {
    LayoutUse s{name, "smem"};
    s.m = s.n = 32;
    s.elem = e;
    s.shared = shared;
    s.shared3 = shared3;
    s.how = how;
    u.push_back(s);
  };
  const std::pair<const char *, std::string> roundTrips[] = {
      {"swizzled_1_1_1", swizzled(1, 1, 1, "[1, 0]")},
      {"swizzled_4_1_8", swizzled(4, 1, 8, "[1, 0]")},
      {"swizzled_8_2_4.f16", swizzled(8, 2, 4, "[1, 0]")},
      {"swizzled_2_4_2", swizzled(2, 4, 2, "[1, 0]")},
      {"swizzled_4_1_8.col_major", swizzled(4, 1, 8, "[0, 1]")},
      {"padded_32_4", "#hd.padded<{intervals = [32], paddings = [4], order = [1, 0]}>"},
      {"padded_two_levels", "#hd.padded<{intervals = [32, 256], paddings = [1, 8], order = [1, 0]}>"},
      {"shared_linear_xor",
       "#hd.shared_linear<{offset = [[0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [1, 1], [2, 2], "
       "[4, 4], [8, 8], [16, 16]]}>"}};
  const Elem roundTripElems[] = {Elem::F32, Elem::F32, Elem::F16, Elem::I32,
                                 Elem::F32, Elem::F32, Elem::I32, Elem::F32};
  for (size_t i = 0; i < std::size(roundTrips); ++i)
    smem("smem.roundtrip." + std::string(roundTrips[i].first), roundTrips[i].second,
         roundTripElems[i], Smem::AllocLoad);
  const std::string sw = swizzled(4, 1, 8, "[1, 0]");
  smem("smem.store_barrier_load", sw, Elem::F32, Smem::StoreBarrierLoad);
  smem("smem.multibuffer.memdesc_index", sw, Elem::F32, Smem::MultiBuffer,
       swizzled(4, 1, 8, "[2, 1, 0]"));
  smem("smem.view.memdesc_slice", sw, Elem::F32, Smem::SliceView);
  smem("smem.view.memdesc_permute", sw, Elem::F32, Smem::PermuteView);
  smem("smem.async_copy", sw, Elem::F32, Smem::AsyncCopy);
  // The tiles copy engines write (NVIDIA's: 128-byte swizzled rows).
  const std::string matrix = "#hd.matrix_shared<{swizzle = 128, elementBits = 32, transposed = false}>";
  smem("smem.tensor_copy", matrix, Elem::F32, Smem::TensorCopy);
  smem("smem.tensor_copy.cluster_of_one", matrix, Elem::F32, Smem::TensorCopyCluster);
  smem("smem.tensor_copy.cluster_of_two", matrix, Elem::F32, Smem::TensorCopyClusterPair);
  smem("smem.tensor_copy.ring_phases_out_of_bounds", matrix, Elem::I32, Smem::TensorCopyRing,
       "#hd.matrix_shared<{swizzle = 128, elementBits = 32, transposed = false, rank = 3}>");
  return u;
}

} // namespace hadron::kernels

#endif // HADRON_TESTS_KERNELS_LAYOUT_H
