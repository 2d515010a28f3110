//===- ReduceScan.h - The reduction and scan kernels and their uses -*- C++ -*-===//
//
// The kernels of the conformance suite's reduce.* and scan.* cases:
//   reduce (in, out, rows, cols)  ints {axis}, variant: the combine. A masked
//                                 rows x cols matrix in one reduceTile() tile
//                                 (masked-off lanes read the combine's
//                                 identity) reduced along axis with a combine
//                                 region; out[i] masked by the other extent
//   scan (in, out, rows, cols)    ints {axis, reverse}: the same tile scanned
//                                 (inclusive), stored where it was loaded
//   argmax (in: f32, max: f32, index: i32)
//                                 ints {axis}: a two-operand reduce of
//                                 (value, index along axis), the first index
//                                 of the maximum on ties
//   reduce_scalar (in, out, n)    program pid's block summed to out[pid]
// Combines (variant): sum.i32 sum.f32 max.f32 min.i32 max.i64 sum.f64, and
// two user regions, custom_sum_abs.f32 (|a| + |b|) and custom_xor.i32.
//
//===----------------------------------------------------------------------===//
#ifndef HADRON_TESTS_KERNELS_REDUCESCAN_H
#define HADRON_TESTS_KERNELS_REDUCESCAN_H

#include "kernels/Frame.h"
#include "kernels/KernelUse.h"
#include "kernels/Memory.h"

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

namespace hadron::kernels {

/// The tile of reduce, scan and argmax: the layout's, at least 16 x 32.
inline std::vector<int> reduceTile(const Blocked &layout, unsigned lanes) {
  return {std::max(layout.tile(0, lanes), 16), std::max(layout.tile(1, lanes), 32)};
}

/// The element type of a combine ("sum.i32" -> I32).
inline Elem combineElem(const std::string &combine) {
  const std::string t = combine.substr(combine.rfind('.') + 1);
  return t == "i32" ? Elem::I32 : t == "i64" ? Elem::I64 : t == "f64" ? Elem::F64 : Elem::F32;
}

namespace reducescan {
inline KernelUse reduce(const std::string &combine, const Blocked &l, int axis) {
  return {"reduce", l, combineElem(combine), {}, {axis}, combine};
}
inline KernelUse scan(const std::string &combine, const Blocked &l, int axis, bool reverse) {
  return {"scan", l, combineElem(combine), {}, {axis, reverse ? 1 : 0}, combine};
}
inline KernelUse argmax(const Blocked &l, int axis) { return {"argmax", l, Elem::F32, {}, {axis}}; }
inline KernelUse toScalar(const Blocked &l, bool floats) {
  return {"reduce_scalar", l, floats ? Elem::F32 : Elem::I32};
}
} // namespace reducescan

/// What the conformance suite's reduce.* and scan.* cases take, in its
/// order.
inline std::vector<KernelUse> reduceScanUses() {
  using namespace reducescan;
  const auto &l2 = layouts2d();
  std::vector<KernelUse> u;
  for (const Blocked &l : l2)
    for (int axis = 0; axis < 2; ++axis)
      u.push_back(reduce("sum.i32", l, axis));
  for (int axis = 0; axis < 2; ++axis) {
    u.push_back(reduce("sum.f32", l2[axis], axis));
    u.push_back(reduce("max.f32", l2[1 - axis], axis));
    u.push_back(reduce("min.i32", l2[2], axis));
  }
  u.push_back(reduce("max.i64", l2[0], 1));
  u.push_back(reduce("sum.f64", l2[1], 0));
  u.push_back(reduce("custom_sum_abs.f32", l2[0], 1));
  u.push_back(reduce("custom_xor.i32", l2[2], 0));
  for (size_t i = 0; i < l2.size(); ++i)
    u.push_back(argmax(l2[i], static_cast<int>(i % 2)));
  u.push_back(toScalar(frameLayouts()[0], false));
  u.push_back(toScalar(frameLayouts()[1], true));
  for (int axis = 0; axis < 2; ++axis)
    for (bool reverse : {false, true})
      u.push_back(scan("sum.i32", l2[(axis + reverse) % 3], axis, reverse));
  u.push_back(scan("sum.f32", l2[2], 1, false));
  u.push_back(scan("max.f32", l2[0], 0, false));
  u.push_back(scan("min.i32", l2[1], 1, true));
  u.push_back(scan("custom_xor.i32", l2[0], 1, false));
  return u;
}

//===----------------------------------------------------------------------===//
// tests/e2e's reductions and scans
//===----------------------------------------------------------------------===//
//
// A rows x cols row-major matrix, one m x n tile per program along the kept
// axis (program pid's tile starts at pid * m along rows for axis 1, at
// pid * n along columns for axis 0); the reduced extent fits one tile, and
// masked-off elements load the combine's identity:
//   reduce (in, out, rows, cols)    ints {m, n, axis}, variant: the combine
//                                   (sum_i32 max_i32 min_i32 sum_f32 max_f32
//                                   min_f32); out[kept] masked by its extent
//   argmax (in: f32, max: f32, index: i32, rows, cols)
//                                   ints {m, n, axis}: value and index along
//                                   the axis, the first index on ties
//   scan (in, out: i32, rows, cols) ints {m, n, axis, reverse}: inclusive
//                                   prefix sums, stored where loaded
//   reduce1d (in, sums, maxs: i32, n)
//                                   ints {block}: each program's sum and max
//                                   (masked-off lanes: 0 and INT32_MIN) to
//                                   sums[pid] and maxs[pid]

/// A 2-D layout of tests/e2e's with its tile shape.
struct E2EReduceLayout {
  Blocked layout;
  int m, n;
};
inline const std::vector<E2EReduceLayout> &e2eReduceLayouts() {
  static const std::vector<E2EReduceLayout> l = {
      {{{1, 4}, {4, 8}, {4, 1}, {1, 0}}, 16, 32},  // both axes across lanes; 0 across warps
      {{{1, 1}, {32, 1}, {1, 4}, {0, 1}}, 32, 16}, // axis 1 across warps only
      {{{1, 8}, {32, 1}, {4, 1}, {0, 1}}, 128, 8}, // axis 1 inside each thread
      {{{2, 2}, {2, 16}, {2, 4}, {1, 0}}, 8, 64},  // 8 warps, both axes across threads
      {{{4, 1}, {1, 32}, {1, 1}, {1, 0}}, 4, 32},  // one warp; axis 0 inside each thread
  };
  return l;
}
/// tests/e2e's 1-D layouts and blocks for reduce1d.
inline const std::vector<std::pair<Blocked, int>> &e2eReduce1dLayouts() {
  static const std::vector<std::pair<Blocked, int>> l = {
      {{{4}, {32}, {4}, {0}}, 512}, {{{1}, {32}, {8}, {0}}, 1024}, {{{2}, {32}, {1}, {0}}, 64}};
  return l;
}
inline const std::vector<std::string> &e2eCombines() {
  static const std::vector<std::string> c = {"sum_i32", "max_i32", "min_i32",
                                             "sum_f32", "max_f32", "min_f32"};
  return c;
}

namespace e2ereduce {
inline KernelUse reduce(const std::string &combine, const E2EReduceLayout &l, int axis) {
  const Elem e = combine.substr(combine.size() - 3) == "f32" ? Elem::F32 : Elem::I32;
  return {"reduce", l.layout, e, {}, {l.m, l.n, axis}, combine};
}
inline KernelUse argmax(const E2EReduceLayout &l, int axis) {
  return {"argmax", l.layout, Elem::F32, {}, {l.m, l.n, axis}};
}
inline KernelUse scan(const E2EReduceLayout &l, int axis, bool reverse) {
  return {"scan", l.layout, Elem::I32, {}, {l.m, l.n, axis, reverse ? 1 : 0}};
}
inline KernelUse reduce1d(const Blocked &l, int block) {
  return {"reduce1d", l, Elem::I32, {}, {block}};
}
} // namespace e2ereduce

/// What tests/e2e's Reduce, ArgMax, ReduceToScalar and Scan tests take.
inline std::vector<KernelUse> e2eReduceScanUses() {
  const auto &l = e2eReduceLayouts();
  std::vector<KernelUse> u;
  for (const std::string &c : e2eCombines())
    for (const E2EReduceLayout &x : l)
      for (int axis : {0, 1})
        u.push_back(e2ereduce::reduce(c, x, axis));
  for (size_t i : {0, 2, 3})
    for (int axis : {0, 1})
      u.push_back(e2ereduce::argmax(l[i], axis));
  for (const auto &[layout, block] : e2eReduce1dLayouts())
    u.push_back(e2ereduce::reduce1d(layout, block));
  for (size_t i : {0, 2, 3, 4})
    for (int axis : {0, 1})
      for (bool reverse : {false, true})
        u.push_back(e2ereduce::scan(l[i], axis, reverse));
  return u;
}

} // namespace hadron::kernels

#endif // HADRON_TESTS_KERNELS_REDUCESCAN_H
