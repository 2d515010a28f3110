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

} // namespace hadron::kernels

#endif // HADRON_TESTS_KERNELS_REDUCESCAN_H
