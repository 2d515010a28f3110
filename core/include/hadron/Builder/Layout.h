//===- Layout.h - Element types and layouts as C++ values -------*- C++ -*-===//
//
// What a kernel written with the builder (Builder.h) is parametrised by,
// before any IR exists: element types and layouts are plain values that can
// be compared, copied, passed as compile-time parameters and turned into a
// specialisation key. Each one holds the hd attribute or type text it stands
// for (docs/ir.md), which the builder parses into the kernel's context; a
// layout that the dialect rejects is reported there, at the user's line.
//
//   Layout rows = Blocked{{1, 4}, {4, 8}, {4, 1}, {1, 0}};
//   Layout cols = Slice{0, rows};              // what a reduction along 0 gives
//   Layout smem = Swizzled{8, 1, 8, {1, 0}};
//   DType p = pointer_type(float32);           // !hd.ptr<f32>
//
// Names follow Gluon's where Gluon has one (float32, pointer_type, ...).
//
//===----------------------------------------------------------------------===//
#ifndef HADRON_BUILDER_LAYOUT_H
#define HADRON_BUILDER_LAYOUT_H

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace hadron::builder {

//===----------------------------------------------------------------------===//
// Element types
//===----------------------------------------------------------------------===//

/// An element type: an integer, a float or a pointer, held as its MLIR text
/// ("i32", "bf16", "!hd.ptr<f32>", "!hd.ptr<f16, shared>").
class DType {
public:
  DType() = default;
  /// The type whose MLIR text is `text`; checked when a kernel uses it.
  static DType fromText(std::string text);

  const std::string &str() const { return text_; }
  bool empty() const { return text_.empty(); }
  bool isInteger() const;
  bool isFloat() const;
  bool isPointer() const;
  /// Bits of an integer or float; 0 for a pointer.
  unsigned bits() const;
  /// What a pointer points to; empty for other types.
  DType pointee() const;

  friend bool operator==(const DType &a, const DType &b) { return a.text_ == b.text_; }
  friend bool operator!=(const DType &a, const DType &b) { return !(a == b); }

private:
  std::string text_;
};

extern const DType int1, int8, int16, int32, int64;
extern const DType float16, bfloat16, float32, float64;

enum class AddressSpace { global, shared, generic };
/// A pointer to `pointee` (global memory unless said otherwise).
DType pointer_type(const DType &pointee, AddressSpace space = AddressSpace::global);

//===----------------------------------------------------------------------===//
// Layouts
//===----------------------------------------------------------------------===//

struct Blocked;
struct Slice;
struct Linear;
struct DotOperand;
struct Mma;
struct AutoLayout;
struct Coalesced;
struct Swizzled;
struct Padded;
struct SharedLinear;
struct MatrixShared;

/// A distributed or shared layout, held as its hd attribute text. Every
/// layout struct below converts to it implicitly.
class Layout {
public:
  enum class Kind { none, distributed, shared };

  Layout() = default;
  Layout(const Blocked &l);
  Layout(const Slice &l);
  Layout(const Linear &l);
  Layout(const DotOperand &l);
  Layout(const Mma &l);
  Layout(const AutoLayout &l);
  Layout(const Coalesced &l);
  Layout(const Swizzled &l);
  Layout(const Padded &l);
  Layout(const SharedLinear &l);
  Layout(const MatrixShared &l);
  /// A layout written as hd attribute text ("#hd.blocked<{...}>"); what a
  /// tensor's layout() returns.
  static Layout fromText(std::string text);

  const std::string &str() const { return text_; }
  Kind kind() const { return kind_; }
  bool empty() const { return kind_ == Kind::none; }
  bool isShared() const { return kind_ == Kind::shared; }
  bool isDistributed() const { return kind_ == Kind::distributed; }
  /// A short name for specialisation keys: "blocked_" + a hash of the text.
  std::string mangle() const;

  friend bool operator==(const Layout &a, const Layout &b) { return a.text_ == b.text_; }
  friend bool operator!=(const Layout &a, const Layout &b) { return !(a == b); }

private:
  Layout(Kind kind, std::string text) : kind_(kind), text_(std::move(text)) {}
  Kind kind_ = Kind::none;
  std::string text_;
};

/// Linear-layout bases: one basis per bit, one entry per tensor dimension.
using Bases = std::vector<std::vector<int32_t>>;

/// #hd.blocked: each thread holds sizePerThread contiguous elements, a warp
/// is a threadsPerWarp grid of threads, a CTA a warpsPerCTA grid of warps;
/// `order` lists the dimensions from fastest to slowest.
struct Blocked {
  std::vector<unsigned> sizePerThread, threadsPerWarp, warpsPerCTA, order;
};

/// #hd.slice: `parent` with dimension `dim` removed.
struct Slice {
  unsigned dim;
  Layout parent;
};

/// #hd.linear: a distributed layout given by its bases.
struct Linear {
  Bases reg, lane, warp, block;
};

/// #hd.dot_op: operand `opIdx` (0: A, 1: B) of a dot whose accumulator has
/// layout `parent`.
struct DotOperand {
  unsigned opIdx;
  Layout parent;
  unsigned kWidth = 1;
};

/// #hd.mma: the accumulator of a dot on a matrix instruction. `instr` is the
/// `#hd.matrix_instr<...>` text a target's model reports
/// (runtime::Context::matrixInstructions); the core names none.
struct Mma {
  std::string instr;
  std::vector<unsigned> warpsPerCTA;
};

/// #hd.auto and #hd.coalesced: placeholders a compiler pass resolves.
struct AutoLayout {};
struct Coalesced {};

/// #hd.swizzled: row-major in `order` with an XOR swizzle of vec-element
/// groups.
struct Swizzled {
  unsigned vec, perPhase, maxPhase;
  std::vector<unsigned> order;
};

/// #hd.padded: row-major in `order`, paddings[i] unused elements after every
/// intervals[i] elements.
struct Padded {
  std::vector<unsigned> intervals, paddings, order;
};

/// #hd.shared_linear: a shared layout given by the bases of its offset bits.
struct SharedLinear {
  Bases offset;
};

/// #hd.matrix_shared: the swizzled tiles matrix units and copy engines read
/// (`swizzle` 32, 64 or 128 bytes; `rank` counts stacked leading dims too).
struct MatrixShared {
  unsigned swizzle, elementBits;
  bool transposed = false;
  unsigned rank = 2;
};

} // namespace hadron::builder

#endif // HADRON_BUILDER_LAYOUT_H
