//===- Shape.h - The shape kernels and their uses ---------------*- C++ -*-===//
//
// The kernels of the conformance suite's shape.* cases; each stores its
// result through offsets computed in the result's own layout:
//   arange (out: i32)                 ints {first}: out[pid * B + i] =
//                                     pid * B + arange(first, first + B)[i]
//   splat (out, s: elem, n)           out[i] = s, masked by n
//   outer_sum (a, b, out: f32)        out[i][j] = a[i] + b[j] over
//                                     outerSumTile(), a and b in slices
//   reshape (in, out: i32)            a 16 x 32 tile of `layout` reshaped to
//                                     512 of `second` (ints {1}) or back
//                                     (ints {0})
//   permute (in, out: f32)            ints {m, n}: an m x n tile of `layout`
//                                     permuted to n x m in `second`
//   join (a, b, out: f32)             out[2i] = a[i], out[2i + 1] = b[i]
//   split (in, even, odd: f32)        the inverse
//   join_split (a, b, out: f32)       16 x 32: split(join(a, b)) = (lo, hi),
//                                     out = lo - 2 * hi
//
//===----------------------------------------------------------------------===//
#ifndef HADRON_TESTS_KERNELS_SHAPE_H
#define HADRON_TESTS_KERNELS_SHAPE_H

#include "kernels/Frame.h"
#include "kernels/KernelUse.h"
#include "kernels/Memory.h"

namespace hadron::kernels {

namespace shape {
/// join and split: one element of a and b per register pair.
inline const Blocked kJoinOne{{4}, {32}, {4}, {0}};
inline const Blocked kJoinPair{{4, 2}, {32, 1}, {4, 1}, {1, 0}};
inline const Blocked kJoinFlat{{8}, {32}, {4}, {0}};
/// join_split: 2-D tiles and their joined 3-D form.
inline const Blocked kRoundTrip2d{{1, 4}, {4, 8}, {4, 1}, {1, 0}};
inline const Blocked kRoundTrip3d{{1, 4, 2}, {4, 8, 1}, {4, 1, 1}, {2, 1, 0}};
/// reshape's flat layout.
inline const Blocked kFlat{{4}, {32}, {4}, {0}};

inline KernelUse arange(const Blocked &l, int first) { return {"arange", l, Elem::I32, {}, {first}}; }
inline KernelUse splat(Elem e) { return {"splat", frameLayouts()[1], e}; }
inline KernelUse outerSum(const Blocked &l) { return {"outer_sum", l}; }
inline KernelUse reshape(const Blocked &l2, bool toFlat) {
  return {"reshape", l2, Elem::I32, kFlat, {toFlat ? 1 : 0}};
}
inline KernelUse permute(const Blocked &from, const Blocked &to, int m, int n) {
  return {"permute", from, Elem::F32, to, {m, n}};
}
inline KernelUse join() { return {"join", kJoinOne}; }
inline KernelUse split() { return {"split", kJoinOne}; }
inline KernelUse joinSplit() { return {"join_split", kRoundTrip2d, Elem::F32, kRoundTrip3d}; }
} // namespace shape

/// outer_sum's tile: the layout's, at least 16 x 16.
inline std::vector<int> outerSumTile(const Blocked &layout, unsigned lanes) {
  return copy2dTile(layout, lanes);
}

/// What the conformance suite's shape.* cases take.
inline std::vector<KernelUse> shapeUses() {
  std::vector<KernelUse> uses;
  for (const Blocked &l : frameLayouts())
    uses.push_back(shape::arange(l, 0));
  uses.push_back(shape::arange(frameLayouts()[0], 16));
  for (Elem e : {Elem::I32, Elem::I64, Elem::F32, Elem::F64})
    uses.push_back(shape::splat(e));
  for (const Blocked &l : layouts2d())
    uses.push_back(shape::outerSum(l));
  const Blocked &r = layouts2d()[0], &c = layouts2d()[1];
  for (KernelUse u : {shape::reshape(r, true), shape::reshape(c, true), shape::reshape(r, false),
                      shape::permute(r, c, 32, 16), shape::permute(r, r, 32, 32), shape::join(),
                      shape::split(), shape::joinSplit()})
    uses.push_back(u);
  return uses;
}

} // namespace hadron::kernels

#endif // HADRON_TESTS_KERNELS_SHAPE_H
