//===- LoweringUtils.h - Building blocks of distribute patterns --*- C++ -*-===//
//
// What a conversion pattern of the distribute lowering (tile ops ->
// per-thread LLVM dialect) works with, whether core's or a target's own
// (TargetHooks::populateLoweringPatterns): the state every pattern shares
// (Lowering), a pattern base that knows it (TilePattern), and helpers that
// emit LLVM dialect ops at a builder's insertion point. Values are i32
// unless said otherwise. Types are in TypeConverter.h, shared-memory
// addressing in SharedAddressing.h.
//
//===----------------------------------------------------------------------===//
#ifndef HADRON_CONVERSION_LOWERINGUTILS_H
#define HADRON_CONVERSION_LOWERINGUTILS_H

#include "hadron/Analysis/AxisInfo.h"
#include "hadron/Analysis/TileInfo.h"
#include "hadron/Conversion/TargetHooks.h"
#include "hadron/Conversion/TypeConverter.h"

#include "mlir/Transforms/DialectConversion.h"

namespace hadron::lowering {

/// What every pattern of one distribute lowering shares: the target, the
/// layouts of the tiles, and the contiguity facts of the kernel (read off
/// before scf was lowered).
struct Lowering {
  TargetHooks &hooks;
  TileInfoCache &tiles;
  AxisInfoAnalysis &axis;
};

/// The benefit a target gives its own patterns: above every pattern of core
/// (those use 1 to 10), so that the conversion tries a target's pattern for
/// an op first and core's generic one only when it declines (fails to
/// match). distributeToLLVM refuses a target pattern with less.
inline constexpr unsigned kTargetPatternBenefit = 100;

/// A conversion pattern for one tile op: adaptor operands are already of
/// the per-thread types of TileTypeConverter.
template <typename OpT> struct TilePattern : mlir::OpConversionPattern<OpT> {
  TilePattern(TileTypeConverter &converter, Lowering &lowering,
              mlir::PatternBenefit benefit = 1)
      : mlir::OpConversionPattern<OpT>(converter, &converter.getContext(), benefit),
        lowering(lowering) {}
  /// The layout facts of `type`, or null when it is not a tile that lowers.
  const TileInfo *tile(mlir::Type type) const {
    auto tensor = mlir::dyn_cast<mlir::RankedTensorType>(type);
    return tensor ? lowering.tiles.get(tensor) : nullptr;
  }
  Lowering &lowering;
};

//===----------------------------------------------------------------------===//
// Values and vectors
//===----------------------------------------------------------------------===//

mlir::Value i32Const(mlir::OpBuilder &b, mlir::Location loc, int64_t v);

/// A constant vector of i32.
mlir::Value i32Vector(mlir::OpBuilder &b, mlir::Location loc, llvm::ArrayRef<int32_t> values);

/// The lanes of a lowered tile (a vector), or `packed` itself for a scalar.
llvm::SmallVector<mlir::Value> unpack(mlir::OpBuilder &b, mlir::Location loc, mlir::Value packed);

/// A lowered tile of `vectorType` whose lane i is `values[i]`.
mlir::Value pack(mlir::OpBuilder &b, mlir::Location loc, mlir::Type vectorType,
                 mlir::ValueRange values);

/// Every lane of a vector of `type` equal to `scalar`.
mlir::Value splatVector(mlir::OpBuilder &b, mlir::Location loc, mlir::Type type,
                        mlir::Value scalar);

/// Lanes `indices` of `src` (lanes of `other` from src's size on).
mlir::Value shuffle(mlir::OpBuilder &b, mlir::Location loc, mlir::Value src, mlir::Value other,
                    llvm::ArrayRef<int64_t> indices);

//===----------------------------------------------------------------------===//
// Threads
//===----------------------------------------------------------------------===//

/// The warp of the calling thread among the warps that run the code at
/// `b`'s insertion point: TargetHooks::warpId, counted from the first warp
/// of the hd.warp_specialize region around it.
mlir::Value warpIdHere(TargetHooks &hooks, mlir::OpBuilder &b, mlir::Location loc);
/// A barrier over the warps that run the code at `b`'s insertion point: the
/// CTA's, or the hd.warp_specialize region's.
void barrierHere(TargetHooks &hooks, mlir::OpBuilder &b, mlir::Location loc);
/// Warps that run the code at `b`'s insertion point.
unsigned warpsHere(mlir::OpBuilder &b);

/// i1: true in one thread of the warps running here (lane 0 of their first
/// warp), and-ed with `pred` (i1) when it is not null. Every thread
/// evaluates it; what only one thread may do goes under it.
mlir::Value leaderOf(mlir::OpBuilder &b, mlir::Location loc, TargetHooks &hooks,
                     mlir::Value pred);

/// The per-thread part of the coordinates of `info`'s tile (one i32 per
/// dim), or empty when it is zero everywhere (lanes and warps folded, or no
/// thread bases).
llvm::SmallVector<mlir::Value> threadCoords(mlir::OpBuilder &b, mlir::Location loc,
                                            const TileInfo &info, TargetHooks &hooks);

/// Coordinate of register `r` along `dim`: its constant part XOR the
/// thread's (`thread`, from threadCoords).
mlir::Value coordValue(mlir::OpBuilder &b, mlir::Location loc, const TileInfo &info,
                       llvm::ArrayRef<mlir::Value> thread, int64_t r, size_t dim);

/// i1: true in the one thread that owns each element of `info`'s tile
/// among the threads that hold replicas of it (lanes/warps with a zero
/// basis); null when no element is replicated.
mlir::Value ownerMask(mlir::OpBuilder &b, mlir::Location loc, const TileInfo &info,
                      TargetHooks &hooks);

//===----------------------------------------------------------------------===//
// Shared-memory views
//===----------------------------------------------------------------------===//

/// A lowered memdesc: the pointer to its view's stacked base and the
/// view's XOR origin (i32, elements).
struct MemDesc {
  mlir::Value base, origin;
};
/// The parts of `lowered`, a value of TileTypeConverter::memDescStruct.
MemDesc unpackMemDesc(mlir::OpBuilder &b, mlir::Location loc, mlir::Value lowered);
/// The lowered memdesc of `type` (memDescStruct) holding `desc`.
mlir::Value packMemDesc(mlir::OpBuilder &b, mlir::Location loc, mlir::Type type, MemDesc desc);

/// The address of the barrier (one i64) that the lowered memdesc `lowered`
/// views.
mlir::Value barrierAddress(mlir::OpBuilder &b, mlir::Location loc, mlir::Value lowered);

} // namespace hadron::lowering

#endif // HADRON_CONVERSION_LOWERINGUTILS_H
