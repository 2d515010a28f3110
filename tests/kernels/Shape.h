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

#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

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

//===----------------------------------------------------------------------===//
// tests/e2e's shape kernels
//===----------------------------------------------------------------------===//
//
// Each stores through offsets computed in the layout it stores from:
//   outer_sum (a, b, out: i32, rows, cols)
//         ints {m, n}: out[i][j] = a[i] * 4096 + b[j] over m x n tiles of a
//         row-major rows x cols matrix (grid x: rows, y: columns), masked
//   reshape (in, out2, out1: f32)
//         `layout` 1-D, `second` 2-D, ints {m, n}: program pid's m * n
//         elements reshaped to m x n (stored to out2 from its own offsets)
//         and back (out1)
//   permute (in, out: i32)
//         ints {shape..., perm...}: the tile of `layout` permuted into
//         `second` (= permutedLayout(layout, perm)), stored at its source
//         element's offsets
//   join (a, b, out: f32, n), split (in, lo, hi: f32, n)
//         ints {block}: out[2i] = a[i], out[2i + 1] = b[i], and the inverse,
//         through an n x 2 tile in `second` (= joinedLayout(layout))
//   convert (in, out: elem, rows, cols)      ConvertUse below
//   convert1d (in, out: f32, n)              Convert1DUse below
//   slices (in, o1, o2: f32, n)              a 64-element column of
//         Slice{1, rows} converted to Blocked {2}/{32}/{4} (o1) and to
//         Slice{0, cols} (o2), rows/cols the transpose's layouts

/// blocked(...) with its dimensions permuted: result dimension i is
/// dimension perm[i] of `b` (what hd.permute keeps in the same threads).
inline Blocked permutedLayout(const Blocked &b, const std::vector<int> &perm) {
  Blocked p;
  const int rank = b.rank();
  std::vector<int> where(rank);
  for (int i = 0; i < rank; ++i) {
    p.spt.push_back(b.spt[perm[i]]);
    p.tpw.push_back(b.tpw[perm[i]]);
    p.wpc.push_back(b.wpc[perm[i]]);
    where[perm[i]] = i;
  }
  for (int d : b.order)
    p.order.push_back(where[d]);
  return p;
}

/// The layout join makes of a 1-D one: a minor dimension of 2 in registers.
inline Blocked joinedLayout(const Blocked &l) {
  return Blocked{{l.spt[0], 2}, {l.tpw[0], 1}, {l.wpc[0], 1}, {1, 0}};
}

/// A layout given as a blocked one or as a linear one (a permutation of a
/// power-of-two shape's index bits, testkit::linearLayout).
struct AnyLayout {
  std::optional<Blocked> blocked;
  std::vector<int> linearPerm;
  int warps = 4;
  std::string label;
  std::string str(const std::vector<int> &shape, unsigned lanes) const {
    return blocked ? blocked->str(lanes) : testkit::linearLayout(shape, lanes, warps, linearPerm);
  }
  int numWarps() const { return blocked ? blocked->numWarps() : warps; }
  std::string name() const { return blocked ? blocked->name() : label; }
};
inline AnyLayout anyBlocked(const Blocked &b) { return AnyLayout{b, {}, b.numWarps(), ""}; }
inline AnyLayout anyLinear(std::string label, std::vector<int> perm, int warps) {
  return AnyLayout{std::nullopt, std::move(perm), warps, std::move(label)};
}

/// convert: a tile of `shape` (with tails: rows, cols) loaded in `from`,
/// converted to `to` and stored from offsets computed in `to`. elem "ptr":
/// the i32 tile's addresses are converted and loaded through.
struct ConvertUse {
  AnyLayout from, to;
  std::vector<int> shape;
  std::string elem;
  /// Elements move between lanes or warps (on a GPU: shuffles or shared
  /// memory); false when only registers are renamed.
  bool crossThread = true;
  std::string key(unsigned lanes) const {
    return "e2e.convert." + from.name() + "_to_" + to.name() + "_" + testkit::shapeStr(shape) +
           "_" + elem + ".lanes" + std::to_string(lanes);
  }
};

/// convert1d: out[i] = in[i] for i < n through a conversion of a `len`
/// tile from `from` to `to`.
struct Convert1DUse {
  AnyLayout from, to;
  int len;
  bool crossThread = true;
  std::string key(unsigned lanes) const {
    return "e2e.convert1d." + from.name() + "_to_" + to.name() + "_" + std::to_string(len) +
           ".lanes" + std::to_string(lanes);
  }
};

/// The layouts of the slices kernel.
inline const Blocked kE2eRows{{1, 4}, {4, 8}, {4, 1}, {1, 0}};
inline const Blocked kE2eCols{{4, 1}, {8, 4}, {1, 4}, {0, 1}};

namespace e2eshape {
/// The variant keeps these apart from the conformance suite's kernels.
inline KernelUse outerSum(const Blocked &l, int m, int n) {
  return {"outer_sum", l, Elem::I32, {}, {m, n}, "e2e"};
}
inline KernelUse reshape(const Blocked &flat, const Blocked &shaped, int m, int n) {
  return {"reshape", flat, Elem::F32, shaped, {m, n}, "e2e"};
}
inline KernelUse permute(const Blocked &l, const std::vector<int> &shape,
                         const std::vector<int> &perm) {
  std::vector<int> ints = shape;
  ints.insert(ints.end(), perm.begin(), perm.end());
  return {"permute", l, Elem::I32, permutedLayout(l, perm), ints, "e2e"};
}
inline KernelUse join(const Blocked &l, int block) {
  return {"join", l, Elem::F32, joinedLayout(l), {block}, "e2e"};
}
inline KernelUse split(const Blocked &l, int block) {
  return {"split", l, Elem::F32, joinedLayout(l), {block}, "e2e"};
}
inline KernelUse slices() { return {"slices", kE2eRows, Elem::F32, kE2eCols, {64}, "e2e"}; }
} // namespace e2eshape

/// The cases of tests/e2e's shape tests, in their order.
struct E2eShapeCases {
  std::vector<std::pair<Blocked, std::vector<int>>> layouts2d; ///< OuterSum; Reshape's 2-D side
  std::vector<Blocked> reshapeFlat;                            ///< one per layouts2d entry
  std::vector<std::tuple<Blocked, std::vector<int>, std::vector<int>>> permutes;
  std::vector<std::pair<Blocked, int>> layouts1d;              ///< JoinSplit
  std::vector<ConvertUse> converts;
  std::vector<Convert1DUse> converts1d;
};

inline const E2eShapeCases &e2eShapeCases() {
  static const E2eShapeCases c = [] {
    E2eShapeCases c;
    c.layouts2d = {
        {{{1, 4}, {4, 8}, {4, 1}, {1, 0}}, {16, 32}},
        {{{4, 1}, {8, 4}, {1, 4}, {0, 1}}, {32, 16}},
        {{{2, 2}, {2, 16}, {2, 4}, {1, 0}}, {8, 64}},
        {{{1, 1}, {32, 1}, {1, 1}, {0, 1}}, {64, 8}},
        {{{1, 2}, {1, 32}, {8, 1}, {1, 0}}, {8, 64}},
    };
    c.reshapeFlat = {{{4}, {32}, {4}, {0}}, {{1}, {32}, {4}, {0}}, {{2}, {32}, {8}, {0}},
                     {{8}, {32}, {1}, {0}}, {{1}, {32}, {8}, {0}}};
    c.permutes = {
        {{{1, 4}, {4, 8}, {4, 1}, {1, 0}}, {32, 32}, {1, 0}},
        {{{4, 1}, {8, 4}, {1, 4}, {0, 1}}, {64, 16}, {1, 0}},
        {{{2, 2}, {2, 16}, {2, 4}, {1, 0}}, {16, 64}, {1, 0}},
        {{{1, 2, 2}, {2, 4, 4}, {2, 2, 1}, {2, 1, 0}}, {8, 8, 16}, {2, 0, 1}},
        {{{2, 1, 1}, {1, 8, 4}, {1, 1, 4}, {0, 2, 1}}, {4, 16, 16}, {1, 2, 0}},
    };
    c.layouts1d = {{{{4}, {32}, {4}, {0}}, 512}, {{{1}, {32}, {8}, {0}}, 256},
                   {{{2}, {32}, {1}, {0}}, 128}};
    // 32 x 32: 10 index bits, 0-4 the column, 5-9 the row. lin_a spreads
    // neighbours over lanes and warps; lin_b differs from lin_a only in the
    // order of its register bits (a pure register permutation).
    const std::vector<int> scrambled = {7, 2, 9, 0, 5, 1, 8, 3, 6, 4};
    const std::vector<int> scrambledRegs = {9, 7, 2, 0, 5, 1, 8, 3, 6, 4};
    const AnyLayout rows = anyBlocked(kE2eRows), cols = anyBlocked(kE2eCols);
    const AnyLayout linA = anyLinear("lin_a", scrambled, 4);
    c.converts = {
        // The transpose of examples/transpose.mlir: lanes and warps move.
        {rows, cols, {32, 32}, "i32"},
        {cols, rows, {16, 16}, "f16"},
        // Other sizePerThread, same order.
        {rows, anyBlocked({{2, 2}, {8, 4}, {2, 2}, {1, 0}}), {32, 32}, "i32"},
        // Warps side by side vs. stacked.
        {anyBlocked({{1, 1}, {1, 32}, {4, 1}, {1, 0}}), anyBlocked({{1, 1}, {32, 1}, {1, 4}, {0, 1}}),
         {32, 32}, "f32"},
        // Into and out of a linear layout (the 2-D tile's offsets come from
        // slices of it).
        {rows, linA, {32, 32}, "i32"},
        {linA, cols, {32, 32}, "i32"},
        // Only the registers are renamed.
        {linA, anyLinear("lin_b", scrambledRegs, 4), {32, 32}, "i32", false},
        // One warp, eight warps; a tile smaller than the layout's reach.
        {anyBlocked({{1, 2}, {8, 4}, {1, 1}, {1, 0}}), anyBlocked({{2, 1}, {4, 8}, {1, 1}, {0, 1}}),
         {16, 16}, "i32"},
        {anyBlocked({{2, 2}, {2, 16}, {2, 4}, {1, 0}}), anyBlocked({{1, 1}, {16, 2}, {8, 1}, {0, 1}}),
         {16, 64}, "i32"},
        // Addresses converted, then loaded through.
        {rows, cols, {32, 32}, "ptr"},
    };
    // 512 elements: 9 index bits.
    const std::vector<int> scrambled1d = {3, 8, 0, 5, 1, 7, 2, 6, 4};
    const std::vector<int> scrambled1dRegs = {8, 0, 3, 5, 1, 7, 2, 6, 4};
    const AnyLayout lin1a = anyLinear("lin_a", scrambled1d, 4);
    c.converts1d = {
        {anyBlocked({{1}, {32}, {4}, {0}}), anyBlocked({{4}, {32}, {4}, {0}}), 512},
        {anyBlocked({{4}, {32}, {4}, {0}}), lin1a, 512},
        {lin1a, anyBlocked({{2}, {32}, {4}, {0}}), 512},
        {lin1a, anyLinear("lin_b", scrambled1dRegs, 4), 512, false},
        {anyBlocked({{2}, {32}, {8}, {0}}), anyBlocked({{8}, {32}, {8}, {0}}), 256},
    };
    return c;
  }();
  return c;
}

/// What tests/e2e's shape tests take, besides ConvertUse and Convert1DUse.
inline std::vector<KernelUse> e2eShapeUses() {
  const E2eShapeCases &c = e2eShapeCases();
  std::vector<KernelUse> u;
  for (size_t i = 0; i < c.layouts2d.size(); ++i) {
    const auto &[l, shape] = c.layouts2d[i];
    u.push_back(e2eshape::outerSum(l, shape[0], shape[1]));
    u.push_back(e2eshape::reshape(c.reshapeFlat[i], l, shape[0], shape[1]));
  }
  for (const auto &[l, shape, perm] : c.permutes)
    u.push_back(e2eshape::permute(l, shape, perm));
  for (const auto &[l, block] : c.layouts1d) {
    u.push_back(e2eshape::join(l, block));
    u.push_back(e2eshape::split(l, block));
  }
  u.push_back(e2eshape::slices());
  return u;
}

} // namespace hadron::kernels

#endif // HADRON_TESTS_KERNELS_SHAPE_H
