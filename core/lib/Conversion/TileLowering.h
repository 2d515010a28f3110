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
  explicit TileInfoCache(TargetHooks &hooks) : hooks(hooks) {}

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
    info->layout = hooks.foldsThreadsIntoRegisters() ? foldThreads(*layout) : *layout;
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
  TargetHooks &hooks;
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
    addConversion([this](MemDescType type) -> Type {
      return LLVM::LLVMPointerType::get(type.getContext(), this->hooks.sharedAddressSpace());
    });
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

/// i1: true in the one thread that owns each element of `info`'s tile
/// among the threads that hold replicas of it (lanes/warps with a zero
/// basis); null when no element is replicated.
Value ownerMask(OpBuilder &b, Location loc, const TileInfo &info, TargetHooks &hooks);

/// A private stack slot of `type` in the entry block of the function
/// containing `op` (a harmless target for masked-off atomics).
Value entryAlloca(ConversionPatternRewriter &rewriter, Operation *op, Type type);

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

} // namespace hadron::lowering

#endif // HADRON_LIB_CONVERSION_TILELOWERING_H
