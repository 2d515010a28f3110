//===- LinearLayout.h - Linear maps over GF(2) with named dims --*- C++ -*-===//
//
// A layout says where each element of a tensor lives: which register of
// which lane of which warp holds it, or at which shared-memory offset it is
// stored. Hadron writes every such layout as one kind of value, a linear map
// over GF(2) (the field {0, 1} where addition is XOR).
//
// Inputs and outputs are integers split into named dimensions. An input
// dimension such as "register", "lane", "warp", "block" or "offset" has size
// 2^k and carries k basis vectors, one per bit of its coordinate. A basis
// vector holds one int32 per output dimension ("dim0", "dim1", ...): it is
// where the input with only that bit set lands. Applying the layout XORs the
// bases of every set bit of every input coordinate:
//
//   L(x) = XOR over in dims d, over bits i set in x[d], of bases[d][i].
//
// Worked example: a 1-D blocked layout with sizePerThread = 2 and
// threadsPerWarp = 4 (one warp, 8 elements). Thread t holds elements 2t and
// 2t + 1, so
//
//   register: [1]          register bit 0 moves one element
//   lane:     [2] [4]      lane bit 0 moves two elements, bit 1 four
//   -> dim0 (size 8)
//
// and L(lane = 3, register = 1) = 1 ^ 2 ^ 4 = 7: lane 3's second register
// holds element 7. For such "blocked" layouts the bases have disjoint bits,
// so XOR is the same as +. XOR earns its keep elsewhere:
//
//  * A zero basis is broadcast. lane: [2] [0] means lanes 0 and 2 hold the
//    same elements, which is how replication and reductions are written.
//  * A shared-memory swizzle, column ^= f(row), is linear over GF(2) when
//    f only masks and shifts bits, so a swizzled layout is just another
//    basis: offset bit "row 1" maps to (row 1, col 2) instead of (row 1, 0).
//  * Composition, inversion and "which register holds element e" are matrix
//    products and Gaussian elimination on small bit matrices, so conversions
//    between any two layouts are computed, not hand-written per pair.
//
// Bits are numbered the same way everywhere: within a dimension bit 0 is the
// least significant, and when several dimensions are flattened into one
// integer (reshapeIns, reshapeOuts, flattenIns, ...) the first dimension is
// the least significant (fastest varying) one.
//
// A LinearLayout is an immutable value. Every way of building one validates
// its inputs, so a LinearLayout that exists is well formed: names are unique,
// sizes are powers of two, every basis has one entry per out dim and each
// entry is below that out dim's size. Limits: a dim has at most 2^30
// elements (its size fits an int32), and all in dims together, as all out
// dims together, have fewer than 2^64 elements.
//
//===----------------------------------------------------------------------===//
#ifndef HADRON_LAYOUT_LINEARLAYOUT_H
#define HADRON_LAYOUT_LINEARLAYOUT_H

#include "hadron/Support/Result.h"

#include <cstdint>
#include <iosfwd>
#include <string>
#include <utility>
#include <vector>

namespace hadron {

class LinearLayout {
public:
  /// One entry per out dim, in the layout's out-dim order.
  using Basis = std::vector<int32_t>;
  /// An in dim of size 2^bases.size().
  struct InDim {
    std::string name;
    std::vector<Basis> bases;
  };
  struct OutDim {
    std::string name;
    int32_t size;
  };
  /// A coordinate per named dim.
  using Point = std::vector<std::pair<std::string, int32_t>>;

  /// Largest log2 size of one dim: its size must fit an int32.
  static constexpr int kMaxDimSizeLog2 = 30;
  /// Largest log2 of the total size of all in dims, or of all out dims.
  static constexpr int kMaxTotalSizeLog2 = 63;

  /// The empty layout: no in dims, no out dims; it maps the only input () to
  /// the only output (). It is the unit of operator*.
  LinearLayout() = default;

  /// Validates and builds a layout. Fails, naming the dim and the value, on
  /// an empty or duplicate name, a basis whose length differs from the number
  /// of out dims, an entry outside [0, size), an out size that is not a power
  /// of two, a size over the limits above, or, when requireSurjective is set,
  /// a layout that misses some output.
  static Result<LinearLayout> create(std::vector<InDim> ins,
                                     std::vector<OutDim> outs,
                                     bool requireSurjective);

  // The 1-D builders below take compile-time constants in practice, so a bad
  // size (not a power of two, over 2^30) is a programmer error and asserted.

  /// in -> out, x -> x, both of size `size`.
  static LinearLayout identity1D(int32_t size, std::string in, std::string out);
  /// in -> out, x -> x * stride; out has size size * stride.
  static LinearLayout strided1D(int32_t size, int32_t stride, std::string in,
                                std::string out);
  /// in -> out, x -> 0: `size` inputs all broadcast to element 0.
  static LinearLayout zeros1D(int32_t size, std::string in, std::string out,
                              int32_t outSize = 1);

  // Queries. A name that is not a dim of the layout is a programmer error
  // and asserted; use hasInDim/hasOutDim first when unsure.
  int getNumInDims() const { return static_cast<int>(ins_.size()); }
  int getNumOutDims() const { return static_cast<int>(outs_.size()); }
  std::vector<std::string> getInDimNames() const;
  std::vector<std::string> getOutDimNames() const;
  bool hasInDim(const std::string &name) const;
  bool hasOutDim(const std::string &name) const;
  int32_t getInDimSize(const std::string &name) const;
  int getInDimSizeLog2(const std::string &name) const;
  int32_t getOutDimSize(const std::string &name) const;
  int getOutDimSizeLog2(const std::string &name) const;
  int64_t getTotalInDimSize() const;
  int getTotalInDimSizeLog2() const;
  int64_t getTotalOutDimSize() const;
  int getTotalOutDimSizeLog2() const;
  /// Basis i of in dim `in`, i < getInDimSizeLog2(in).
  const Basis &getBasis(const std::string &in, int i) const;
  /// Entry of basis i of in dim `in` for out dim `out`.
  int32_t getBasis(const std::string &in, int i, const std::string &out) const;
  const std::vector<InDim> &getInDims() const { return ins_; }
  const std::vector<OutDim> &getOutDims() const { return outs_; }

  /// Every output is reached by some input (the bases span the outputs).
  bool isSurjective() const;
  /// No two inputs reach the same output (the bases are independent).
  bool isInjective() const;
  bool isInvertible() const { return isSurjective() && isInjective(); }

  /// L(x). `in` must name every in dim exactly once, in any order, with a
  /// value in [0, size). The result lists the out dims in layout order.
  Result<Point> apply(const Point &in) const;
  /// apply() for callers that built `in` from getInDims(): coordinates of
  /// the first in dims, in layout order, each in range (asserted); in dims
  /// past the end of `in` are 0.
  Point applyUnchecked(const Point &in) const;

  /// The product: `inner` and `outer` side by side. In and out dims are the
  /// union, inner's in order first, then outer's new ones. In a shared in dim
  /// inner's bases come first (they are the low bits), then outer's. In a
  /// shared out dim outer's entries are scaled by inner's size of that dim,
  /// so outer tiles the space inner covers:
  ///   identity1D(4, "r", "d") * identity1D(8, "r", "d")
  ///       == identity1D(32, "r", "d").
  /// Exceeding the size limits is asserted.
  friend LinearLayout operator*(const LinearLayout &inner,
                                const LinearLayout &outer);

  /// outer(this(x)). this's out dims and outer's in dims must carry the same
  /// names (in any order), and each of this's out sizes must not exceed
  /// outer's size of that in dim. The result has this's ins, outer's outs.
  Result<LinearLayout> compose(const LinearLayout &outer) const;

  /// The inverse of a bijective layout: its ins are this's outs and its outs
  /// are this's ins (sizes included).
  Result<LinearLayout> invert() const;
  /// A right inverse P of a surjective layout: this(P(y)) == y for every y.
  /// P(y) is the numerically smallest preimage of y (in bits flattened with
  /// the first in dim least significant), so P prefers registers over lanes
  /// over warps when those are the in dims in that order.
  Result<LinearLayout> pseudoinvert() const;
  /// C with outer(C(x)) == this(x) for every x: for a value held at x in
  /// this layout, where it is held in outer's. Outer's out dims must have
  /// the names of this's (any order) and sizes at least this's; every output
  /// of this must be reached by outer (true when outer is surjective). C(x)
  /// is the smallest preimage, as for pseudoinvert. The result has this's
  /// ins and outer's ins as outs.
  Result<LinearLayout> invertAndCompose(const LinearLayout &outer) const;

  /// The restriction to the given in dims and out dims (names this layout
  /// has, each at most once); dims keep this layout's order.
  Result<LinearLayout> sublayout(const std::vector<std::string> &ins,
                                 const std::vector<std::string> &outs) const;
  /// The same map with the in dims renamed and resized: the in bits,
  /// flattened with the first in dim least significant, are split into the
  /// new dims, first new dim least significant. Sizes must be powers of two
  /// with the same product as the current in sizes.
  Result<LinearLayout>
  reshapeIns(const std::vector<std::pair<std::string, int32_t>> &ins) const;
  /// reshapeIns() for the out dims: entries are flattened and split the same
  /// way, first dim least significant.
  Result<LinearLayout>
  reshapeOuts(const std::vector<std::pair<std::string, int32_t>> &outs) const;
  /// The same map with the in dims reordered; `order` is a permutation of
  /// the in dim names. Changes what flattening and reshaping mean.
  Result<LinearLayout>
  transposeIns(const std::vector<std::string> &order) const;
  /// transposeIns() for out dims; basis entries are reordered to match.
  Result<LinearLayout>
  transposeOuts(const std::vector<std::string> &order) const;
  /// All in dims merged into one named after the first; fails when the
  /// total size exceeds one dim's limit. A layout without in dims is
  /// returned as is.
  Result<LinearLayout> flattenIns() const;
  /// flattenIns() for the out dims.
  Result<LinearLayout> flattenOuts() const;

  /// The vector width of a load or store: the largest n = 2^k such that
  /// in-values 0..n-1 of the first in dim map to the aligned, consecutive
  /// run of n values of the first out dim that the other inputs select.
  /// Precisely, the first k bases of the first in dim are 2^i in the first
  /// out dim and 0 elsewhere, and every other basis has a first-out-dim
  /// entry that is a multiple of n. With "register" first and the fastest
  /// tensor dim as the first out dim, this is how many registers a thread
  /// can move with one vector instruction. 1 when there are no dims.
  int32_t getNumConsecutiveInOut() const;

  /// The layout with the zero bases of in dim `in` removed, shrinking it:
  /// inputs that only duplicated other inputs' values are dropped.
  LinearLayout removeZeroBasesAlongDim(const std::string &in) const;
  /// Whether every basis of the given in dims is zero in the given out dims.
  bool sublayoutIsZero(const std::vector<std::string> &ins,
                       const std::vector<std::string> &outs) const;

  /// Same dims in the same order with the same sizes and bases.
  friend bool operator==(const LinearLayout &a, const LinearLayout &b);
  friend bool operator!=(const LinearLayout &a, const LinearLayout &b) {
    return !(a == b);
  }

  /// One line per in dim, "name (size): [entries] [entries] ...", then
  /// "-> out (size), ...".
  std::string toString() const;

private:
  LinearLayout(std::vector<InDim> ins, std::vector<OutDim> outs)
      : ins_(std::move(ins)), outs_(std::move(outs)) {}

  int inDimIndex(const std::string &name) const;
  int outDimIndex(const std::string &name) const;

  std::vector<InDim> ins_;
  std::vector<OutDim> outs_;
};

std::ostream &operator<<(std::ostream &os, const LinearLayout &layout);

} // namespace hadron

#endif // HADRON_LAYOUT_LINEARLAYOUT_H
