//===- LoweringInternals.h - Core's own pieces of the distribute lowering -*- C++ -*-===//
//
// Internal to core/lib/Conversion: what core's pattern families share beyond
// the public building blocks (TypeConverter.h, LoweringUtils.h,
// SharedAddressing.h): register gathers, loops over register groups where
// one thread runs a CTA, combine regions, scratch round trips, and the
// populate functions of the families (one file each, named after the ops they lower).
//
//===----------------------------------------------------------------------===//
#ifndef HADRON_LIB_CONVERSION_LOWERINGINTERNALS_H
#define HADRON_LIB_CONVERSION_LOWERINGINTERNALS_H

#include "hadron/Analysis/ScratchSize.h"
#include "hadron/Conversion/LoweringUtils.h"
#include "hadron/Conversion/Passes.h"
#include "hadron/Conversion/SharedAddressing.h"
#include "hadron/Conversion/TypeConverter.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

#include <map>

namespace hadron::lowering {

using namespace mlir;
using namespace hadron::hd;

/// For each register of `dst`, the register of `src` that holds the
/// element `map(dst coords)`, valid only if the threads' parts agree under
/// `map`. Fails with a reason otherwise.
FailureOr<SmallVector<int64_t>>
registerGather(const TileInfo &dst, const TileInfo &src,
               function_ref<std::vector<int32_t>(const std::vector<int32_t> &)> map,
               std::string &why);

//===----------------------------------------------------------------------===//
// Registers walked in a loop
//===----------------------------------------------------------------------===//

/// Where one thread runs a whole CTA (TargetHooks::foldsThreadsIntoRegisters)
/// a tile has thousands of registers, and code emitted per register or per
/// vector access grows with the tile. From this many groups on, the
/// lowerings that walk a tile's registers group by group emit a loop over
/// the groups instead, reading and writing the tiles through stack buffers
/// (a target keeps such tiles in memory anyway: the host from 16 vector
/// registers on, and a loop lets it take each chunk of an elementwise
/// kernel from load to store). Elsewhere a thread's registers are few and
/// stay in straight-line code.
inline constexpr int64_t kMinLoopGroups = 16;

/// Whether walking `groups` groups of registers of a tile is a loop.
inline bool walkInLoop(const TileInfoCache &tiles, int64_t groups) {
  return tiles.foldsThreads() && groups >= kMinLoopGroups;
}

/// Emits `for (i = 0; i < count; ++i) args = body(i, args)` (i: i32) at the
/// rewriter's insertion point as LLVM-dialect blocks and returns the final
/// `args`; the insertion point is then after the loop. `count` > 0.
SmallVector<Value> emitLoop(RewriterBase &rewriter, Location loc, int64_t count,
                            ValueRange init,
                            function_ref<SmallVector<Value>(Value, ValueRange)> body);
inline void emitLoop(RewriterBase &rewriter, Location loc, int64_t count,
                     function_ref<void(Value)> body) {
  emitLoop(rewriter, loc, count, {}, [&](Value i, ValueRange) {
    body(i);
    return SmallVector<Value>();
  });
}

/// A stack buffer of `count` elements of `elem` (i1 as bytes) in the entry
/// block of `op`'s function, so that one inside a loop is not reallocated.
Value stackBuffer(OpBuilder &b, Operation *op, Type elem, int64_t count);

/// The lowered tile `packed` written to a fresh stack buffer.
Value spillTile(OpBuilder &b, Location loc, Operation *op, Value packed);

/// `count` lanes of `elem` at element `first` (i32) of a stack buffer: a
/// vector, or a scalar for `count` 0. i1 lanes are bytes in memory.
Value loadLanes(OpBuilder &b, Location loc, Value buffer, Type elem, Value first,
                int64_t count);
/// Writes `value` (a scalar or vector) at element `first` of a stack buffer.
void storeLanes(OpBuilder &b, Location loc, Value value, Value buffer, Value first);

/// The tile of `vectorType` held by a stack buffer.
Value reloadTile(OpBuilder &b, Location loc, Value buffer, Type vectorType);

/// `SUM` (or `XOR`) over the set bits i of `index` (i32) of `values[i]`:
/// a function of the bits of a register index that is linear over the
/// integers (or GF(2)), emitted as a few shifts and masks where runs of bits
/// map to runs of bits.
Value bitLinear(OpBuilder &b, Location loc, Value index, ArrayRef<int64_t> values, bool xorSum);

/// Per register bit i, `f(register 1 << i)`, when f over every register r of
/// `info` is the sum (or XOR) of those over the bits of r; empty otherwise.
std::vector<int64_t> linearInRegisterBits(int64_t numRegs, function_ref<int64_t(int64_t)> f,
                                          bool xorSum);

/// The coordinates of register `r` (i32, possibly computed at run time) of
/// the folded tile `info`, one i32 per dim.
SmallVector<Value> registerCoords(OpBuilder &b, Location loc, const TileInfo &info, Value r);

/// Maps a combine region's block arguments: the accumulators, then the new
/// values.
void mapCombineArguments(Region &combine, ValueRange accs, ValueRange values,
                         IRMapping &mapping);

/// Inlines a combine region (reduce/scan) on scalars: returns the yielded values.
SmallVector<Value> inlineCombine(ConversionPatternRewriter &rewriter, Region &combine,
                                 ValueRange accs, ValueRange values);

/// Groups of consecutive registers that one vector access to global memory
/// can serve.
struct AccessPlan {
  int64_t vector = 1;    ///< elements per access
  int64_t alignment = 1; ///< bytes
};

/// The widest global access (at most `maxVectorBytes`) for the tile `info`
/// through pointers with `ptrInfo`: registers consecutive along the layout's
/// fastest dim that the pointers prove contiguous (and, when
/// `needsAlignment`, aligned to the access).
AccessPlan planAccess(const TileInfo &info, const AxisInfo &ptrInfo, int64_t elemBytes,
                      int64_t maxVectorBytes, bool needsAlignment);

//===----------------------------------------------------------------------===//
// Shared memory
//===----------------------------------------------------------------------===//

/// What local_load does: the lowered tile of `tileType` read from the
/// lowered memdesc `loweredMemDesc` of `memType`. Fails with `why`.
FailureOr<Value> loadSharedTile(RewriterBase &b, Location loc, Lowering &lowering,
                                const TypeConverter &converter, Value loweredMemDesc,
                                MemDescType memType, RankedTensorType tileType,
                                std::string &why);

/// The shared-memory base plus kSharedOffsetAttr of `op` (bytes), or a
/// failure diagnosed on `op` when the allocator gave it no offset.
FailureOr<Value> sharedBufferOf(OpBuilder &b, Operation *op, TargetHooks &hooks);

/// The widest shared-memory access of one thread: the target's, at most
/// the alignment allocateSharedMemory gives every buffer.
inline int64_t sharedVectorBytes(const TargetHooks &hooks) {
  return std::min<int64_t>(hooks.maxSharedVectorBytes(), kSharedBufferAlignment);
}

/// The swizzled layout (offset -> dims) for a scratch round trip from `src`
/// to `dst` of `shape` that minimises the bank conflicts of both phases on
/// `banks`, with vectors of at most `maxVectorBytes`. Without banks, the
/// unswizzled layout with the reader's vectors.
LinearLayout chooseScratchLayout(ArrayRef<int64_t> shape, const TileInfo &src,
                                 const TileInfo &dst, int64_t elemBytes,
                                 TargetHooks::SharedMemoryBanks banks, int64_t maxVectorBytes);

/// Moves a lowered tile from layout `src` to `dst` through the scratch
/// buffer at `scratch` (ordering barriers included; its size is
/// scratchBytes of the op). The result has type `dstType` (the converted
/// vector type).
Value convertThroughScratch(RewriterBase &b, Location loc, Value packed, ArrayRef<int64_t> shape,
                            Type elemType, const TileInfo &src, const TileInfo &dst,
                            Type dstType, Value scratch, TargetHooks &hooks,
                            int64_t warpSize);

//===----------------------------------------------------------------------===//
// Pattern families
//===----------------------------------------------------------------------===//

void populateSharedMemoryPatterns(TileTypeConverter &converter, Lowering &lowering,
                                  RewritePatternSet &patterns);
void populateAsyncTensorPatterns(TileTypeConverter &converter, Lowering &lowering,
                                 RewritePatternSet &patterns);
void populateAtomicPatterns(TileTypeConverter &converter, Lowering &lowering,
                            RewritePatternSet &patterns);
void populateDebugPatterns(TileTypeConverter &converter, Lowering &lowering,
                           RewritePatternSet &patterns);
void populateCreationPatterns(TileTypeConverter &converter, Lowering &lowering,
                              RewritePatternSet &patterns);
void populateElementwisePatterns(TileTypeConverter &converter, Lowering &lowering,
                                 RewritePatternSet &patterns);
void populateLayoutMovePatterns(TileTypeConverter &converter, Lowering &lowering,
                                RewritePatternSet &patterns);
void populateGlobalMemoryPatterns(TileTypeConverter &converter, Lowering &lowering,
                                  RewritePatternSet &patterns);
void populateReduceScanPatterns(TileTypeConverter &converter, Lowering &lowering,
                                RewritePatternSet &patterns);
void populateDotPatterns(TileTypeConverter &converter, Lowering &lowering,
                         RewritePatternSet &patterns);
/// hd.dot as a loop over K, where one thread runs a CTA (DotLoopToLLVM.cpp);
/// preferred there over populateDotPatterns' register-by-register form.
void populateDotLoopPatterns(TileTypeConverter &converter, Lowering &lowering,
                             RewritePatternSet &patterns);

} // namespace hadron::lowering

#endif // HADRON_LIB_CONVERSION_LOWERINGINTERNALS_H
