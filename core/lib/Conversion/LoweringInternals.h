//===- TileLowering.h - Shared pieces of the distribute lowering -*- C++ -*-===//
//
// Internal to core/lib/Conversion: the per-type layout facts, the type
// converter (a tile becomes one LLVM vector per thread, a lane per
// register), helpers every pattern family uses, and the populate functions
// of the families (one file each, named after the ops they lower).
//
//===----------------------------------------------------------------------===//
#ifndef HADRON_LIB_CONVERSION_TILELOWERING_H
#define HADRON_LIB_CONVERSION_TILELOWERING_H

#include "hadron/Analysis/AxisInfo.h"
#include "hadron/Conversion/TargetHooks.h"
#include "hadron/IR/Dialect.h"

#include "mlir/Conversion/LLVMCommon/TypeConverter.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Transforms/DialectConversion.h"

#include <map>
#include <memory>

namespace hadron::lowering {

using namespace mlir;
using namespace hadron::hd;


/// The linear layout of a tensor type as the target runs it, and the
/// constant coordinates of each register.
struct TileInfo {
  LinearLayout layout;
  int64_t numRegs = 0;
  std::vector<std::vector<int32_t>> regCoords;
  /// Lane and warp bases (per dim), the per-thread part of the coordinates.
  std::vector<LinearLayout::Basis> laneBases, warpBases;
};

/// Lanes, warps and blocks become registers: for a target where one thread
/// runs the whole CTA. Zero bases (replicas) are dropped: the only thread
/// holds each element once.
inline LinearLayout foldThreads(const LinearLayout &layout) {
  std::vector<LinearLayout::InDim> ins;
  LinearLayout::InDim reg{"register", {}};
  for (const char *name : {"register", "lane", "warp", "block"}) {
    if (!layout.hasInDim(name))
      continue;
    for (int i = 0; i < layout.getInDimSizeLog2(name); ++i) {
      const LinearLayout::Basis &basis = layout.getBasis(name, i);
      bool zero = llvm::all_of(basis, [](int32_t v) { return v == 0; });
      if (std::string(name) == "register" || !zero)
        reg.bases.push_back(basis);
    }
  }
  // Registers that step along the dimension register 0 steps along (the
  // layout's fastest) come first, in increasing stride: what were lanes and
  // warps then extend the thread's contiguous run, so one vector access
  // serves a whole row segment of the CTA instead of sizePerThread elements.
  if (!reg.bases.empty()) {
    const LinearLayout::Basis &first = reg.bases.front();
    int fast = -1;
    for (size_t d = 0; d < first.size(); ++d)
      if (first[d] != 0)
        fast = fast < 0 ? int(d) : -2;
    if (fast >= 0) {
      auto along = [&](const LinearLayout::Basis &b) {
        for (size_t d = 0; d < b.size(); ++d)
          if ((int(d) == fast) != (b[d] != 0))
            return false;
        return llvm::isPowerOf2_32(uint32_t(b[fast]));
      };
      std::stable_sort(reg.bases.begin(), reg.bases.end(),
                       [&](const LinearLayout::Basis &a, const LinearLayout::Basis &b) {
                         bool fa = along(a), fb = along(b);
                         if (fa != fb)
                           return fa;
                         return fa && a[fast] < b[fast];
                       });
    }
  }
  ins.push_back(std::move(reg));
  for (const char *name : {"lane", "warp", "block"})
    ins.push_back({name, {}});
  Result<LinearLayout> folded =
      LinearLayout::create(std::move(ins), layout.getOutDims(), /*requireSurjective=*/false);
  assert(folded.ok() && "folding bases of a valid layout keeps it valid");
  return std::move(folded).value();
}

class TileInfoCache {
public:
  /// `foldThreads`: the target runs a CTA as one thread (TargetHooks::
  /// foldsThreadsIntoRegisters).
  explicit TileInfoCache(bool foldThreads) : fold(foldThreads) {}
  bool foldsThreads() const { return fold; }

  /// Null (with `error` set) when the type has no usable layout.
  const TileInfo *get(RankedTensorType type, std::string *error = nullptr) {
    auto it = cache.find(type);
    if (it != cache.end())
      return it->second.get();
    Result<LinearLayout> layout = toLinearLayout(type);
    if (!layout) {
      if (error)
        *error = layout.error();
      return nullptr;
    }
    auto info = std::make_unique<TileInfo>();
    info->layout = fold ? foldThreads(*layout) : *layout;
    const LinearLayout &ll = info->layout;
    info->numRegs = ll.getInDimSize("register");
    info->regCoords.reserve(info->numRegs);
    for (int64_t r = 0; r < info->numRegs; ++r) {
      LinearLayout::Point point = ll.applyUnchecked(
          {{"register", int32_t(r)}, {"lane", 0}, {"warp", 0}, {"block", 0}});
      std::vector<int32_t> coords;
      for (auto &[name, value] : point)
        coords.push_back(value);
      info->regCoords.push_back(std::move(coords));
    }
    for (int i = 0; i < ll.getInDimSizeLog2("lane"); ++i)
      info->laneBases.push_back(ll.getBasis("lane", i));
    for (int i = 0; i < ll.getInDimSizeLog2("warp"); ++i)
      info->warpBases.push_back(ll.getBasis("warp", i));
    const TileInfo *raw = info.get();
    cache[type] = std::move(info);
    return raw;
  }

private:
  bool fold;
  llvm::DenseMap<Type, std::unique_ptr<TileInfo>> cache;
};

//===----------------------------------------------------------------------===//
// Type conversion
//===----------------------------------------------------------------------===//

class TileTypeConverter : public LLVMTypeConverter {
public:
  TileTypeConverter(MLIRContext *ctx, TargetHooks &hooks, TileInfoCache &tiles)
      : LLVMTypeConverter(ctx), hooks(hooks) {
    addConversion([this](PointerType type) -> Type { return convertPointer(type); });
    addConversion([this, &tiles](RankedTensorType type) -> std::optional<Type> {
      if (!isa_and_nonnull<LayoutAttrInterface>(type.getEncoding()))
        return std::nullopt;
      const TileInfo *info = tiles.get(type);
      if (!info)
        return std::nullopt;
      Type element = convertType(type.getElementType());
      if (!element)
        return std::nullopt;
      return VectorType::get({info->numRegs}, element);
    });
    // A view of shared memory: the address of its allocation (moved along
    // the stacked leading dims) and the XOR offset of its origin in the
    // swizzled tile (see SharedAddressing).
    addConversion([this](MemDescType type) -> Type { return memDescStruct(type.getContext()); });
    addConversion([](AsyncTokenType type) -> Type { return IntegerType::get(type.getContext(), 32); });
    addConversion([this](TensorDescType type) -> Type {
      return this->hooks.tensorDescType(type.getContext(), type.getShape().size());
    });
  }

  Type memDescStruct(MLIRContext *ctx) const {
    return LLVM::LLVMStructType::getLiteral(
        ctx, {LLVM::LLVMPointerType::get(ctx, hooks.sharedAddressSpace()),
              IntegerType::get(ctx, 32)});
  }

  Type convertPointer(PointerType type) const {
    unsigned space = 0;
    switch (type.getAddressSpace()) {
    case AddressSpace::global:
      space = hooks.globalAddressSpace();
      break;
    case AddressSpace::shared:
      space = hooks.sharedAddressSpace();
      break;
    case AddressSpace::generic:
      space = 0;
      break;
    }
    return LLVM::LLVMPointerType::get(type.getContext(), space);
  }

  TargetHooks &hooks;
};

struct Lowering {
  TargetHooks &hooks;
  TileInfoCache &tiles;
  AxisInfoAnalysis &axis;
};

Value i32Const(OpBuilder &b, Location loc, int64_t v);

/// The warp of the calling thread among the warps that run the code at
/// `b`'s insertion point: TargetHooks::warpId, counted from the first warp
/// of the hd.warp_specialize region around it.
Value warpIdHere(TargetHooks &hooks, OpBuilder &b, Location loc);
/// A barrier over the warps that run the code at `b`'s insertion point: the
/// CTA's, or the hd.warp_specialize region's.
void barrierHere(TargetHooks &hooks, OpBuilder &b, Location loc);
/// Warps that run the code at `b`'s insertion point.
unsigned warpsHere(OpBuilder &b);

SmallVector<Value> unpack(OpBuilder &b, Location loc, Value packed);

Value pack(OpBuilder &b, Location loc, Type vectorType, ValueRange values);

/// Every lane of a vector of `type` equal to `scalar`.
Value splatVector(OpBuilder &b, Location loc, Type type, Value scalar);

/// Lanes `indices` of `src` (lanes of `other` from src's size on).
Value shuffle(OpBuilder &b, Location loc, Value src, Value other, ArrayRef<int64_t> indices);

Value i32Vector(OpBuilder &b, Location loc, ArrayRef<int32_t> values);

/// The per-thread part of the coordinates (one i32 per dim), or empty when
/// it is zero everywhere (lanes and warps folded, or no thread bases).
SmallVector<Value> threadCoords(OpBuilder &b, Location loc, const TileInfo &info,
                                TargetHooks &hooks);

/// Coordinate of register `r` along `dim`, as an i32 value.
Value coordValue(OpBuilder &b, Location loc, const TileInfo &info, ArrayRef<Value> thread,
                 int64_t r, size_t dim);

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
/// vector access grows with the tile. Past this many groups, the lowerings
/// that walk a tile's registers group by group emit a loop over the groups
/// instead, reading and writing the tiles through stack buffers (a target
/// keeps such tiles in memory anyway). Elsewhere a thread's registers are
/// few and stay in straight-line code.
inline constexpr int64_t kMaxUnrolledGroups = 16;

/// Whether walking `groups` groups of registers of a tile is a loop.
inline bool walkInLoop(const TileInfoCache &tiles, int64_t groups) {
  return tiles.foldsThreads() && groups > kMaxUnrolledGroups;
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

template <typename OpT>
struct TilePattern : OpConversionPattern<OpT> {
  TilePattern(TileTypeConverter &converter, Lowering &lowering, PatternBenefit benefit = 1)
      : OpConversionPattern<OpT>(converter, &converter.getContext(), benefit),
        lowering(lowering) {}
  const TileInfo *tile(Type type) const {
    auto tensor = dyn_cast<RankedTensorType>(type);
    return tensor ? lowering.tiles.get(tensor) : nullptr;
  }
  Lowering &lowering;
};

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

/// i1: true in the one thread that owns each element of `info`'s tile
/// among the threads that hold replicas of it (lanes/warps with a zero
/// basis); null when no element is replicated.
Value ownerMask(OpBuilder &b, Location loc, const TileInfo &info, TargetHooks &hooks);


//===----------------------------------------------------------------------===//
// Shared memory addressing
//===----------------------------------------------------------------------===//

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
  /// Contributions of a coordinate vector `c` (constant).
  std::pair<int64_t, int64_t> offsetsOf(const std::vector<int32_t> &c) const;
};

/// Addressing of the memdesc `type`. Fails (with `why`) for a layout that is
/// not a bijection on its tile.
FailureOr<SharedAddressing> sharedAddressing(MemDescType type, std::string &why);
/// Addressing of a scratch buffer holding one tile with shared layout
/// `layout` (offset -> dims), no stacking, no padding.
FailureOr<SharedAddressing> scratchAddressing(const LinearLayout &layout, int64_t elemBytes,
                                              std::string &why);

/// One distributed tile accessed through a SharedAddressing: constant parts
/// per register, per-thread runtime parts, and the registers per vector
/// access.
struct TileAccess {
  std::vector<int64_t> regLin, regStack;
  Value thrLin, thrStack; // i32, null when zero
  int64_t vector = 1;
  /// The accesses run in a loop over the groups (walkInLoop); then regLin
  /// is the XOR and regStack the sum, over the set bits i of a register
  /// index, of linBits[i] and stackBits[i].
  bool loop = false;
  std::vector<int64_t> linBits, stackBits;
};

TileAccess planTileAccess(OpBuilder &b, Location loc, const TileInfo &tile,
                          const SharedAddressing &addr, TargetHooks &hooks,
                          int64_t maxVectorBytes);

/// The address of register `r`'s element (the first of its vector).
Value sharedElementAddress(OpBuilder &b, Location loc, Type elemType, Value base, Value origin,
                           const TileAccess &access, const SharedAddressing &addr, int64_t r);

/// Stores the registers of `packed` (a lowered tile) into shared memory, or
/// loads a lowered tile of `vectorType` from it, through `access`.
void storeTileToShared(RewriterBase &b, Location loc, Value packed, Value base, Value origin,
                       const TileAccess &access, const SharedAddressing &addr);
Value loadTileFromShared(RewriterBase &b, Location loc, Type vectorType, Value base, Value origin,
                         const TileAccess &access, const SharedAddressing &addr);

/// A lowered memdesc: the pointer to its view's stacked base and the
/// view's XOR origin (i32, elements).
struct MemDesc {
  Value base, origin;
};
MemDesc unpackMemDesc(OpBuilder &b, Location loc, Value lowered);

/// What local_load does: the lowered tile of `tileType` read from the
/// lowered memdesc `loweredMemDesc` of `memType`. Fails with `why`.
FailureOr<Value> loadSharedTile(RewriterBase &b, Location loc, Lowering &lowering,
                                const TypeConverter &converter, Value loweredMemDesc,
                                MemDescType memType, RankedTensorType tileType,
                                std::string &why);

/// The shared-memory base plus `hd.shared_offset` of `op` (bytes), or a
/// failure diagnosed on `op` when the allocator gave it no offset.
FailureOr<Value> sharedBufferOf(OpBuilder &b, Operation *op, TargetHooks &hooks);

/// The swizzled layout (offset -> dims) for a scratch round trip from `src`
/// to `dst` of `shape` that minimises bank conflicts of both phases (32
/// banks of 4 bytes; `warpSize` lanes per access).
LinearLayout chooseScratchLayout(ArrayRef<int64_t> shape, const TileInfo &src,
                                 const TileInfo &dst, int64_t elemBytes, int64_t warpSize);

/// Moves a lowered tile from layout `src` to `dst` through the scratch
/// buffer at `scratch` (ordering barriers included). The result has type
/// `dstType` (the converted vector type).
Value convertThroughScratch(RewriterBase &b, Location loc, Value packed, ArrayRef<int64_t> shape,
                            Type elemType, const TileInfo &src, const TileInfo &dst,
                            Type dstType, Value scratch, TargetHooks &hooks,
                            int64_t warpSize);

/// Bytes of scratch shared memory `op` needs when lowered (0 for none):
/// convert_layout moving elements between threads, reduce across warps,
/// scan across threads. The allocator and the lowering agree through it.
int64_t scratchBytes(Operation *op, TileInfoCache &tiles);

/// The attribute the allocator puts on local_alloc and scratch users.
inline constexpr llvm::StringLiteral kSharedOffsetAttr = "hd.shared_offset";

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

#endif // HADRON_LIB_CONVERSION_TILELOWERING_H
