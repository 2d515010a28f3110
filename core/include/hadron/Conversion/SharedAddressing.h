//===- SharedAddressing.h - Where a tile's elements live in shared memory -*- C++ -*-===//
//
// A shared layout is linear over GF(2) from coordinates to offsets, and a
// view's origin has only bits above the view's extent (slices are aligned
// to their size, an index fixes a whole dim). So the offset of a view
// element is the XOR of its offset in the view and the origin's: no carries,
// one XOR per access. A distributed tile is read or written register by
// register, or vector by vector where consecutive registers are consecutive
// in memory: register r of a thread holds coordinates regCoords[r] XOR
// thread(lane, warp), so its offset is a constant XOR a per-thread value
// computed once per op (planTileAccess).
//
// Core's local_alloc/local_load/local_store, the scratch round trips of
// convert_layout, reduce and scan, and a target's own patterns for
// shared-memory ops all address through this.
//
//===----------------------------------------------------------------------===//
#ifndef HADRON_CONVERSION_SHAREDADDRESSING_H
#define HADRON_CONVERSION_SHAREDADDRESSING_H

#include "hadron/Analysis/TileInfo.h"
#include "hadron/Conversion/TargetHooks.h"
#include "hadron/IR/Dialect.h"

#include "mlir/IR/PatternMatch.h"

#include <string>
#include <utility>
#include <vector>

namespace hadron::lowering {

/// Where the elements of a (view of a) shared-memory tile live. The offset,
/// in elements from the allocation's base, of view coordinate c is
///
///   pad(XOR_{d,b: bit b of c[d] set} lin[d][b]  XOR  origin)
///     + SUM_{d,b: bit b of c[d] set} stack[d][b]
///
/// `lin` is the inverse of the shared layout (coordinates -> offset, linear
/// over GF(2)) on the dims the layout covers; `stack` strides the leading
/// dims of a multi-buffered allocation, past the (padded) tile. `origin` is
/// the view's XOR offset held by the lowered memdesc. Padding inserts
/// paddings[k].second elements after every 2^paddings[k].first.
struct SharedAddressing {
  std::vector<std::vector<int64_t>> lin, stack;
  std::vector<std::pair<int, int64_t>> paddings;
  int64_t elemBytes = 1;
  /// Elements narrower than a byte (i1) are accessed one at a time.
  bool subByte = false;
  /// Offset bits a view's origin may set (to decide vector widths).
  int64_t originBits = 0;
  /// Contributions (XOR part, sum part) of a constant coordinate vector `c`.
  std::pair<int64_t, int64_t> offsetsOf(const std::vector<int32_t> &c) const;
};

/// Addressing of the memdesc `type`. Fails (with `why`) for a layout that is
/// not a bijection on its tile.
mlir::FailureOr<SharedAddressing> sharedAddressing(hd::MemDescType type, std::string &why);
/// Addressing of a scratch buffer holding one tile with shared layout
/// `layout` (offset -> dims), no stacking, no padding.
mlir::FailureOr<SharedAddressing> scratchAddressing(const LinearLayout &layout,
                                                    int64_t elemBytes, std::string &why);

/// One distributed tile accessed through a SharedAddressing: constant parts
/// per register, per-thread runtime parts, and the registers per vector
/// access.
struct TileAccess {
  std::vector<int64_t> regLin, regStack;
  mlir::Value thrLin, thrStack; // i32, null when zero
  int64_t vector = 1;
  /// The accesses run in a loop over the groups (where one thread runs a
  /// CTA and the groups are many); then regLin is the XOR and regStack the
  /// sum, over the set bits i of a register index, of linBits[i] and
  /// stackBits[i].
  bool loop = false;
  std::vector<int64_t> linBits, stackBits;
};

/// How the registers of `tile` reach the memory `addr` describes: emits the
/// per-thread parts at `b`'s insertion point and picks the widest vector (at
/// most `maxVectorBytes`) that no runtime part can split.
TileAccess planTileAccess(mlir::OpBuilder &b, mlir::Location loc, const TileInfo &tile,
                          const SharedAddressing &addr, TargetHooks &hooks,
                          int64_t maxVectorBytes);

/// The address of register `r`'s element (the first of its vector), from
/// the view's `base` and `origin` (a lowered memdesc's parts; a null origin
/// is zero).
mlir::Value sharedElementAddress(mlir::OpBuilder &b, mlir::Location loc, mlir::Type elemType,
                                 mlir::Value base, mlir::Value origin, const TileAccess &access,
                                 const SharedAddressing &addr, int64_t r);

/// Stores the registers of `packed` (a lowered tile) into shared memory, or
/// loads a lowered tile of `vectorType` from it, through `access`.
void storeTileToShared(mlir::RewriterBase &b, mlir::Location loc, mlir::Value packed,
                       mlir::Value base, mlir::Value origin, const TileAccess &access,
                       const SharedAddressing &addr);
mlir::Value loadTileFromShared(mlir::RewriterBase &b, mlir::Location loc, mlir::Type vectorType,
                               mlir::Value base, mlir::Value origin, const TileAccess &access,
                               const SharedAddressing &addr);

} // namespace hadron::lowering

#endif // HADRON_CONVERSION_SHAREDADDRESSING_H
