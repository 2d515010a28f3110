//===- DistributeToLLVM.cpp - Tile ops to per-thread LLVM dialect ---------===//
//
// A tensor with a distributed layout becomes, in each thread, an LLVM vector
// of the elements that thread holds: one lane of the vector per register of
// its linear layout, so that elementwise ops stay one op each. Register r of the thread (lane l, warp w) holds the element at
//
//   coords = L(register = r) XOR L(lane = l, warp = w)
//
// so a register's coordinates are a compile-time constant XORed with a
// per-thread value. Ops that only rearrange elements (broadcast, expand_dims,
// permute, reshape, join, split, convert_layout) are lowered to register
// moves when the thread part of both layouts agrees (always the case when the
// target folds lanes and warps into registers). Reductions combine within a
// thread, then across lanes with shuffles.
//
//===----------------------------------------------------------------------===//

#include "hadron/Analysis/AxisInfo.h"
#include "hadron/Conversion/TargetHooks.h"
#include "hadron/IR/Dialect.h"

#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/ControlFlowToLLVM/ControlFlowToLLVM.h"
#include "mlir/Conversion/FuncToLLVM/ConvertFuncToLLVM.h"
#include "mlir/Conversion/LLVMCommon/TypeConverter.h"
#include "mlir/Conversion/MathToLLVM/MathToLLVM.h"
#include "mlir/Conversion/LLVMCommon/ConversionTarget.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Transforms/DialectConversion.h"

#include <map>

using namespace mlir;
using namespace hadron;
using namespace hadron::hd;

hadron::TargetHooks::~TargetHooks() = default;

namespace {

//===----------------------------------------------------------------------===//
// Per-type layout facts
//===----------------------------------------------------------------------===//

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
LinearLayout foldThreads(const LinearLayout &layout) {
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

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

struct Lowering {
  TargetHooks &hooks;
  TileInfoCache &tiles;
  AxisInfoAnalysis &axis;
};

Value i32Const(OpBuilder &b, Location loc, int64_t v) {
  return LLVM::ConstantOp::create(b, loc, b.getI32Type(), b.getI32IntegerAttr(v));
}

SmallVector<Value> unpack(OpBuilder &b, Location loc, Value packed) {
  auto type = dyn_cast<VectorType>(packed.getType());
  if (!type)
    return {packed};
  SmallVector<Value> values;
  for (int64_t i = 0, e = type.getNumElements(); i < e; ++i)
    values.push_back(LLVM::ExtractElementOp::create(b, loc, packed, i32Const(b, loc, i)));
  return values;
}

Value pack(OpBuilder &b, Location loc, Type vectorType, ValueRange values) {
  Value result = LLVM::UndefOp::create(b, loc, vectorType);
  for (auto [i, v] : llvm::enumerate(values))
    result = LLVM::InsertElementOp::create(b, loc, result, v, i32Const(b, loc, i));
  return result;
}

/// Every lane of a vector of `type` equal to `scalar`.
Value splatVector(OpBuilder &b, Location loc, Type type, Value scalar) {
  auto vecType = cast<VectorType>(type);
  Value one = LLVM::InsertElementOp::create(b, loc, LLVM::UndefOp::create(b, loc, vecType),
                                            scalar, i32Const(b, loc, 0));
  SmallVector<int32_t> zeros(vecType.getNumElements(), 0);
  return LLVM::ShuffleVectorOp::create(b, loc, one, one, zeros);
}

/// Lanes `indices` of `src` (lanes of `other` from src's size on).
Value shuffle(OpBuilder &b, Location loc, Value src, Value other, ArrayRef<int64_t> indices) {
  SmallVector<int32_t> mask(indices.begin(), indices.end());
  return LLVM::ShuffleVectorOp::create(b, loc, src, other, mask);
}

Value i32Vector(OpBuilder &b, Location loc, ArrayRef<int32_t> values) {
  auto type = VectorType::get({int64_t(values.size())}, b.getI32Type());
  return LLVM::ConstantOp::create(b, loc, type, DenseElementsAttr::get(type, values));
}

/// The per-thread part of the coordinates (one i32 per dim), or empty when
/// it is zero everywhere (lanes and warps folded, or no thread bases).
SmallVector<Value> threadCoords(OpBuilder &b, Location loc, const TileInfo &info,
                                TargetHooks &hooks) {
  size_t rank = info.layout.getNumOutDims();
  bool any = false;
  for (auto *bases : {&info.laneBases, &info.warpBases})
    for (auto &basis : *bases)
      any |= llvm::any_of(basis, [](int32_t v) { return v != 0; });
  if (!any)
    return {};
  SmallVector<Value> coords(rank, i32Const(b, loc, 0));
  auto addBits = [&](Value id, const std::vector<LinearLayout::Basis> &bases) {
    for (auto [bit, basis] : llvm::enumerate(bases)) {
      Value set = LLVM::AndOp::create(
          b, loc, LLVM::LShrOp::create(b, loc, id, i32Const(b, loc, bit)), i32Const(b, loc, 1));
      for (size_t d = 0; d < rank; ++d) {
        if (basis[d] == 0)
          continue;
        Value term = LLVM::MulOp::create(b, loc, set, i32Const(b, loc, basis[d]));
        coords[d] = LLVM::XOrOp::create(b, loc, coords[d], term);
      }
    }
  };
  if (!info.laneBases.empty())
    addBits(hooks.laneId(b, loc), info.laneBases);
  if (!info.warpBases.empty())
    addBits(hooks.warpId(b, loc), info.warpBases);
  return coords;
}

/// Coordinate of register `r` along `dim`, as an i32 value.
Value coordValue(OpBuilder &b, Location loc, const TileInfo &info, ArrayRef<Value> thread,
                 int64_t r, size_t dim) {
  Value c = i32Const(b, loc, info.regCoords[r][dim]);
  if (thread.empty())
    return c;
  return LLVM::XOrOp::create(b, loc, c, thread[dim]);
}

/// For each register of `dst`, the register of `src` that holds the
/// element `map(dst coords)`, valid only if the threads' parts agree under
/// `map`. Fails with a reason otherwise.
FailureOr<SmallVector<int64_t>>
registerGather(const TileInfo &dst, const TileInfo &src,
               function_ref<std::vector<int32_t>(const std::vector<int32_t> &)> map,
               std::string &why) {
  auto mapBasis = [&](const LinearLayout::Basis &b) { return map(b); };
  auto sameThreads = [&](const std::vector<LinearLayout::Basis> &d,
                         const std::vector<LinearLayout::Basis> &s) {
    if (d.size() != s.size())
      return false;
    for (size_t i = 0; i < d.size(); ++i)
      if (mapBasis(d[i]) != s[i])
        return false;
    return true;
  };
  if (!sameThreads(dst.laneBases, src.laneBases) || !sameThreads(dst.warpBases, src.warpBases)) {
    why = "the elements move between threads, which this lowering does only through "
          "shuffles or shared memory (not available for this pair of layouts yet)";
    return failure();
  }
  std::map<std::vector<int32_t>, int64_t> where;
  for (int64_t r = 0; r < src.numRegs; ++r)
    where.emplace(src.regCoords[r], r);
  SmallVector<int64_t> gather;
  for (int64_t r = 0; r < dst.numRegs; ++r) {
    auto it = where.find(map(dst.regCoords[r]));
    if (it == where.end()) {
      why = "an element of the result is not held by the same thread in the operand";
      return failure();
    }
    gather.push_back(it->second);
  }
  return gather;
}

/// Inlines a combine region (reduce/scan) on scalars: returns the yielded values.
SmallVector<Value> inlineCombine(ConversionPatternRewriter &rewriter, Region &combine,
                                 ValueRange accs, ValueRange values) {
  Block &block = combine.front();
  IRMapping mapping;
  for (auto [i, acc] : llvm::enumerate(accs))
    mapping.map(block.getArgument(i), acc);
  for (auto [i, v] : llvm::enumerate(values))
    mapping.map(block.getArgument(accs.size() + i), v);
  for (Operation &op : block.without_terminator())
    rewriter.clone(op, mapping);
  SmallVector<Value> results;
  for (Value v : block.getTerminator()->getOperands())
    results.push_back(mapping.lookupOrDefault(v));
  return results;
}

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

//===----------------------------------------------------------------------===//
// Creation ops
//===----------------------------------------------------------------------===//

struct ArangeLowering : TilePattern<ArangeOp> {
  using TilePattern::TilePattern;
  LogicalResult matchAndRewrite(ArangeOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    const TileInfo *info = tile(op.getType());
    Type type = getTypeConverter()->convertType(op.getType());
    if (!info || !type)
      return failure();
    Location loc = op.getLoc();
    SmallVector<Value> thread = threadCoords(rewriter, loc, *info, lowering.hooks);
    SmallVector<int32_t> coords;
    for (int64_t r = 0; r < info->numRegs; ++r)
      coords.push_back(info->regCoords[r][0]);
    Value result = i32Vector(rewriter, loc, coords);
    if (!thread.empty())
      result = LLVM::XOrOp::create(rewriter, loc, result,
                                   splatVector(rewriter, loc, type, thread[0]));
    if (op.getStart() != 0)
      result = LLVM::AddOp::create(
          rewriter, loc, result,
          splatVector(rewriter, loc, type, i32Const(rewriter, loc, op.getStart())));
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct SplatLowering : TilePattern<SplatOp> {
  using TilePattern::TilePattern;
  LogicalResult matchAndRewrite(SplatOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    const TileInfo *info = tile(op.getType());
    Type type = getTypeConverter()->convertType(op.getType());
    if (!info || !type)
      return failure();
    rewriter.replaceOp(op, splatVector(rewriter, op.getLoc(), type, adaptor.getSrc()));
    return success();
  }
};

struct ConstantLowering : TilePattern<arith::ConstantOp> {
  using TilePattern::TilePattern;
  LogicalResult matchAndRewrite(arith::ConstantOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    auto tensorType = dyn_cast<RankedTensorType>(op.getType());
    auto dense = dyn_cast<DenseElementsAttr>(op.getValue());
    const TileInfo *info = tile(op.getType());
    Type type = getTypeConverter()->convertType(op.getType());
    if (!tensorType || !dense || !info || !type)
      return failure();
    Location loc = op.getLoc();
    auto vecType = cast<VectorType>(type);
    if (dense.isSplat()) {
      rewriter.replaceOpWithNewOp<LLVM::ConstantOp>(
          op, vecType, SplatElementsAttr::get(vecType, dense.getSplatValue<Attribute>()));
      return success();
    }
    {
      if (info->laneBases.size() + info->warpBases.size() > 0 &&
          !lowering.hooks.foldsThreadsIntoRegisters())
        return rewriter.notifyMatchFailure(op, "non-splat constant tiles need a per-thread table");
      auto all = dense.getValues<Attribute>();
      ArrayRef<int64_t> shape = tensorType.getShape();
      SmallVector<Attribute> values;
      for (int64_t r = 0; r < info->numRegs; ++r) {
        int64_t linear = 0;
        for (size_t d = 0; d < shape.size(); ++d)
          linear = linear * shape[d] + info->regCoords[r][d];
        values.push_back(all[linear]);
      }
      rewriter.replaceOpWithNewOp<LLVM::ConstantOp>(op, vecType,
                                                    DenseElementsAttr::get(vecType, values));
    }
    (void)loc;
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Elementwise arith/math on tiles
//===----------------------------------------------------------------------===//

/// Any arith or math op over tiles of one layout: the same op per register.
struct ElementwiseLowering : ConversionPattern {
  ElementwiseLowering(TileTypeConverter &converter, Lowering &lowering)
      : ConversionPattern(converter, MatchAnyOpTypeTag(), /*benefit=*/10,
                          &converter.getContext()),
        lowering(lowering) {}

  LogicalResult matchAndRewrite(Operation *op, ArrayRef<Value> operands,
                                ConversionPatternRewriter &rewriter) const override {
    if (!isa<arith::ArithDialect, math::MathDialect>(op->getDialect()) ||
        isa<arith::ConstantOp>(op) || op->getNumResults() != 1 || op->getNumRegions() != 0)
      return failure();
    auto resultType = dyn_cast<RankedTensorType>(op->getResult(0).getType());
    if (!resultType)
      return failure();
    const TileInfo *info = lowering.tiles.get(resultType);
    Type packedType = getTypeConverter()->convertType(resultType);
    Type element = getTypeConverter()->convertType(resultType.getElementType());
    if (!info || !packedType || !element)
      return failure();
    Location loc = op->getLoc();
    OperationState state(loc, op->getName());
    for (auto [orig, conv] : llvm::zip(op->getOperands(), operands)) {
      auto tensor = dyn_cast<RankedTensorType>(orig.getType());
      if (!tensor) {
        auto splatType = VectorType::get({info->numRegs}, conv.getType());
        state.addOperands(splatVector(rewriter, loc, splatType, conv));
        continue;
      }
      if (tensor.getEncoding() != resultType.getEncoding())
        return rewriter.notifyMatchFailure(op, "operands of different layouts");
      state.addOperands(conv);
    }
    (void)element;
    state.addTypes(packedType);
    state.addAttributes(op->getAttrs());
    rewriter.replaceOp(op, rewriter.create(state)->getResults());
    return success();
  }
  Lowering &lowering;
};

//===----------------------------------------------------------------------===//
// Rearrangements as register moves
//===----------------------------------------------------------------------===//

template <typename OpT>
struct GatherLowering : TilePattern<OpT> {
  using TilePattern<OpT>::TilePattern;
  using Adaptor = typename OpT::Adaptor;
  /// Maps result coordinates to operand coordinates.
  virtual std::vector<int32_t> mapCoords(OpT op, const std::vector<int32_t> &c) const = 0;

  LogicalResult matchAndRewrite(OpT op, Adaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Value src = op->getOperand(0);
    const TileInfo *srcInfo = this->tile(src.getType());
    const TileInfo *dstInfo = this->tile(op->getResult(0).getType());
    Type type = this->getTypeConverter()->convertType(op->getResult(0).getType());
    if (!srcInfo || !dstInfo || !type)
      return failure();
    std::string why;
    auto gather = registerGather(
        *dstInfo, *srcInfo, [&](const std::vector<int32_t> &c) { return mapCoords(op, c); },
        why);
    if (failed(gather))
      return op->emitOpError() << "cannot be lowered: " << why;
    Value src0 = adaptor.getOperands()[0];
    (void)type;
    rewriter.replaceOp(op, shuffle(rewriter, op.getLoc(), src0, src0, *gather));
    return success();
  }
};

struct ConvertLayoutLowering : GatherLowering<ConvertLayoutOp> {
  using GatherLowering::GatherLowering;
  std::vector<int32_t> mapCoords(ConvertLayoutOp, const std::vector<int32_t> &c) const override {
    return c;
  }
};

struct BroadcastLowering : GatherLowering<BroadcastOp> {
  using GatherLowering::GatherLowering;
  std::vector<int32_t> mapCoords(BroadcastOp op, const std::vector<int32_t> &c) const override {
    std::vector<int32_t> s = c;
    auto shape = op.getSrc().getType().getShape();
    for (size_t d = 0; d < s.size(); ++d)
      if (shape[d] == 1)
        s[d] = 0;
    return s;
  }
};

struct ExpandDimsLowering : GatherLowering<ExpandDimsOp> {
  using GatherLowering::GatherLowering;
  std::vector<int32_t> mapCoords(ExpandDimsOp op, const std::vector<int32_t> &c) const override {
    std::vector<int32_t> s = c;
    s.erase(s.begin() + op.getAxis());
    return s;
  }
};

struct PermuteLowering : GatherLowering<PermuteOp> {
  using GatherLowering::GatherLowering;
  std::vector<int32_t> mapCoords(PermuteOp op, const std::vector<int32_t> &c) const override {
    std::vector<int32_t> s(c.size());
    for (auto [i, d] : llvm::enumerate(op.getOrder()))
      s[d] = c[i];
    return s;
  }
};

struct ReshapeLowering : GatherLowering<ReshapeOp> {
  using GatherLowering::GatherLowering;
  std::vector<int32_t> mapCoords(ReshapeOp op, const std::vector<int32_t> &c) const override {
    auto dstShape = op.getType().getShape();
    auto srcShape = op.getSrc().getType().getShape();
    int64_t linear = 0;
    for (size_t d = 0; d < dstShape.size(); ++d)
      linear = linear * dstShape[d] + c[d];
    std::vector<int32_t> s(srcShape.size());
    for (size_t d = srcShape.size(); d-- > 0;) {
      s[d] = linear % srcShape[d];
      linear /= srcShape[d];
    }
    return s;
  }
};

struct JoinLowering : TilePattern<JoinOp> {
  using TilePattern::TilePattern;
  LogicalResult matchAndRewrite(JoinOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    const TileInfo *srcInfo = tile(op.getLhs().getType());
    const TileInfo *dstInfo = tile(op.getType());
    Type type = getTypeConverter()->convertType(op.getType());
    if (!srcInfo || !dstInfo || !type)
      return failure();
    // The new minor dim selects lhs or rhs; every other coordinate maps.
    std::string why;
    auto drop = [](const std::vector<int32_t> &c) {
      return std::vector<int32_t>(c.begin(), c.end() - 1);
    };
    auto gather = registerGather(*dstInfo, *srcInfo, drop, why);
    if (failed(gather))
      return op->emitOpError() << "cannot be lowered: " << why;
    Location loc = op.getLoc();
    SmallVector<int64_t> indices;
    for (int64_t r = 0; r < dstInfo->numRegs; ++r)
      indices.push_back((*gather)[r] + (dstInfo->regCoords[r].back() == 0 ? 0 : srcInfo->numRegs));
    rewriter.replaceOp(op, shuffle(rewriter, loc, adaptor.getLhs(), adaptor.getRhs(), indices));
    return success();
  }
};

struct SplitLowering : TilePattern<SplitOp> {
  using TilePattern::TilePattern;
  LogicalResult matchAndRewrite(SplitOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    const TileInfo *srcInfo = tile(op.getSrc().getType());
    const TileInfo *dstInfo = tile(op.getLhs().getType());
    Type type = getTypeConverter()->convertType(op.getLhs().getType());
    if (!srcInfo || !dstInfo || !type)
      return failure();
    Location loc = op.getLoc();
    Value src = adaptor.getSrc();
    Value halves[2];
    for (int half = 0; half < 2; ++half) {
      std::string why;
      auto gather = registerGather(
          *dstInfo, *srcInfo,
          [&](const std::vector<int32_t> &c) {
            std::vector<int32_t> s = c;
            s.push_back(half);
            return s;
          },
          why);
      if (failed(gather))
        return op->emitOpError() << "cannot be lowered: " << why;
      halves[half] = shuffle(rewriter, loc, src, src, *gather);
    }
    (void)type;
    rewriter.replaceOp(op, {halves[0], halves[1]});
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Program ids
//===----------------------------------------------------------------------===//

struct ProgramIdLowering : TilePattern<ProgramIdOp> {
  using TilePattern::TilePattern;
  LogicalResult matchAndRewrite(ProgramIdOp op, OpAdaptor,
                                ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(op, lowering.hooks.programId(rewriter, op.getLoc(), op.getAxis()));
    return success();
  }
};

struct NumProgramsLowering : TilePattern<NumProgramsOp> {
  using TilePattern::TilePattern;
  LogicalResult matchAndRewrite(NumProgramsOp op, OpAdaptor,
                                ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(op, lowering.hooks.numPrograms(rewriter, op.getLoc(), op.getAxis()));
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Pointers and global memory
//===----------------------------------------------------------------------===//

Type pointeeOf(Type ptrLike) {
  Type element = ptrLike;
  if (auto tensor = dyn_cast<RankedTensorType>(ptrLike))
    element = tensor.getElementType();
  return cast<PointerType>(element).getPointeeType();
}

struct AddPtrLowering : TilePattern<AddPtrOp> {
  using TilePattern::TilePattern;
  LogicalResult matchAndRewrite(AddPtrOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type resultType = getTypeConverter()->convertType(op.getType());
    Type pointee = getTypeConverter()->convertType(pointeeOf(op.getType()));
    if (!resultType || !pointee)
      return failure();
    if (!isa<RankedTensorType>(op.getType())) {
      rewriter.replaceOpWithNewOp<LLVM::GEPOp>(op, resultType, pointee, adaptor.getPtr(),
                                               ValueRange{adaptor.getOffset()});
      return success();
    }
    rewriter.replaceOpWithNewOp<LLVM::GEPOp>(op, resultType, pointee, adaptor.getPtr(),
                                             ValueRange{adaptor.getOffset()});
    (void)loc;
    return success();
  }
};

/// Groups of consecutive registers that one vector access can serve.
struct AccessPlan {
  int64_t vector = 1;   // elements per access
  int64_t alignment = 1; // bytes
};

AccessPlan planAccess(const TileInfo &info, const AxisInfo &ptrInfo, int64_t elemBytes,
                      int64_t maxVectorBytes, bool needsAlignment) {
  AccessPlan plan;
  plan.alignment = std::max<int64_t>(1, std::min<int64_t>(ptrInfo.divisibility.empty()
                                                              ? 1
                                                              : ptrInfo.divisibility[0],
                                                          elemBytes));
  const LinearLayout &ll = info.layout;
  int regBits = ll.getInDimSizeLog2("register");
  if (regBits == 0 || ll.getNumOutDims() == 0)
    return plan;
  // The dim register 0 steps along is the one a vector runs in.
  const LinearLayout::Basis &first = ll.getBasis("register", 0);
  int fast = -1;
  for (size_t d = 0; d < first.size(); ++d)
    if (first[d] != 0)
      fast = fast < 0 && first[d] == 1 ? int(d) : -2;
  if (fast < 0)
    return plan;
  int k = 0;
  while (k < regBits) {
    const LinearLayout::Basis &b = ll.getBasis("register", k);
    bool ok = b[fast] == (1 << k);
    for (size_t d = 0; d < b.size(); ++d)
      ok &= d == size_t(fast) || b[d] == 0;
    if (!ok)
      break;
    ++k;
  }
  int64_t v = int64_t(1) << k;
  // Groups must start at multiples of v along the fast dim.
  for (int i = k; i < regBits; ++i)
    while (v > 1 && ll.getBasis("register", i)[fast] % v != 0)
      v /= 2;
  for (auto *bases : {&info.laneBases, &info.warpBases})
    for (auto &b : *bases)
      while (v > 1 && b[fast] % v != 0)
        v /= 2;
  v = std::min<int64_t>(v, ptrInfo.contiguity[fast]);
  v = std::min<int64_t>(v, std::max<int64_t>(1, maxVectorBytes / elemBytes));
  int64_t divisibility = ptrInfo.divisibility[fast];
  while (needsAlignment && v > 1 && divisibility % (v * elemBytes) != 0)
    v /= 2;
  plan.vector = v;
  plan.alignment = std::max<int64_t>(
      plan.alignment, std::min<int64_t>(int64_t(1) << llvm::countr_zero(uint64_t(divisibility)),
                                        v * elemBytes));
  return plan;
}

/// The lanes [first, first + width) of `vec`.
Value subVector(OpBuilder &b, Location loc, Value vec, int64_t first, int64_t width) {
  SmallVector<int64_t> indices;
  for (int64_t i = 0; i < width; ++i)
    indices.push_back(first + i);
  return shuffle(b, loc, vec, vec, indices);
}

/// The parts (equal power-of-two widths) side by side, joined pairwise so
/// that the shuffles stay O(n log n) in total.
Value concatParts(OpBuilder &b, Location loc, SmallVector<Value> parts) {
  while (parts.size() > 1) {
    SmallVector<Value> next;
    for (size_t i = 0; i < parts.size(); i += 2) {
      int64_t w = cast<VectorType>(parts[i].getType()).getNumElements();
      SmallVector<int64_t> indices;
      for (int64_t j = 0; j < 2 * w; ++j)
        indices.push_back(j);
      next.push_back(shuffle(b, loc, parts[i], parts[i + 1], indices));
    }
    parts = std::move(next);
  }
  return parts.front();
}

struct LoadLowering : TilePattern<LoadOp> {
  using TilePattern::TilePattern;
  LogicalResult matchAndRewrite(LoadOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type resultType = getTypeConverter()->convertType(op.getType());
    Type element = getTypeConverter()->convertType(pointeeOf(op.getPtr().getType()));
    if (!resultType || !element || !element.isIntOrFloat())
      return failure();
    int64_t elemBytes = std::max(1u, element.getIntOrFloatBitWidth() / 8);
    auto vecType = dyn_cast<VectorType>(resultType);
    if (!vecType) {
      // A scalar load: a one-lane masked load keeps masked-off lanes safe.
      if (!adaptor.getMask()) {
        rewriter.replaceOpWithNewOp<LLVM::LoadOp>(op, element, adaptor.getPtr(), elemBytes,
                                                  op.getIsVolatile());
        return success();
      }
      auto one = VectorType::get({1}, element);
      Value mask = splatVector(rewriter, loc, VectorType::get({1}, rewriter.getI1Type()),
                               adaptor.getMask());
      Value passThru = adaptor.getOther()
                           ? splatVector(rewriter, loc, one, adaptor.getOther())
                           : LLVM::ZeroOp::create(rewriter, loc, one).getResult();
      Value v = LLVM::MaskedLoadOp::create(rewriter, loc, one, adaptor.getPtr(), mask,
                                           passThru, uint32_t(elemBytes), false);
      rewriter.replaceOpWithNewOp<LLVM::ExtractElementOp>(op, v, i32Const(rewriter, loc, 0));
      return success();
    }
    int64_t n = vecType.getNumElements();
    AccessPlan plan = planAccess(*tile(op.getType()), lowering.axis.get(op.getPtr()), elemBytes,
                                 lowering.hooks.maxVectorBytes(),
                                 lowering.hooks.vectorAccessNeedsAlignment());
    Value mask = adaptor.getMask();
    Value passThru = adaptor.getOther()
                         ? adaptor.getOther()
                         : LLVM::ZeroOp::create(rewriter, loc, vecType).getResult();
    int64_t v = plan.vector;
    if (v == 1 && n > 1) {
      if (!mask)
        mask = LLVM::ConstantOp::create(
            rewriter, loc, VectorType::get({n}, rewriter.getI1Type()),
            SplatElementsAttr::get(VectorType::get({n}, rewriter.getI1Type()), true));
      rewriter.replaceOpWithNewOp<LLVM::masked_gather>(
          op, vecType, ValueRange{adaptor.getPtr(), mask, passThru},
          ArrayRef<NamedAttribute>{rewriter.getNamedAttr(
              "alignment", rewriter.getI32IntegerAttr(plan.alignment))});
      return success();
    }
    auto partType = VectorType::get({v}, element);
    SmallVector<Value> parts;
    for (int64_t r = 0; r < n; r += v) {
      Value ptr = LLVM::ExtractElementOp::create(rewriter, loc, adaptor.getPtr(),
                                                 i32Const(rewriter, loc, r));
      Value part;
      if (mask)
        part = LLVM::MaskedLoadOp::create(rewriter, loc, partType, ptr,
                                          subVector(rewriter, loc, mask, r, v),
                                          subVector(rewriter, loc, passThru, r, v),
                                          uint32_t(plan.alignment), false);
      else
        part = LLVM::LoadOp::create(rewriter, loc, partType, ptr, plan.alignment,
                                    op.getIsVolatile());
      parts.push_back(part);
    }
    rewriter.replaceOp(op, concatParts(rewriter, loc, std::move(parts)));
    return success();
  }
};

struct StoreLowering : TilePattern<StoreOp> {
  using TilePattern::TilePattern;
  LogicalResult matchAndRewrite(StoreOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type element = getTypeConverter()->convertType(pointeeOf(op.getPtr().getType()));
    if (!element || !element.isIntOrFloat())
      return failure();
    int64_t elemBytes = std::max(1u, element.getIntOrFloatBitWidth() / 8);
    Value value = adaptor.getValue(), mask = adaptor.getMask();
    auto vecType = dyn_cast<VectorType>(value.getType());
    if (!vecType) {
      if (!mask) {
        LLVM::StoreOp::create(rewriter, loc, value, adaptor.getPtr(), elemBytes);
      } else {
        auto one = VectorType::get({1}, element);
        LLVM::MaskedStoreOp::create(
            rewriter, loc, splatVector(rewriter, loc, one, value), adaptor.getPtr(),
            splatVector(rewriter, loc, VectorType::get({1}, rewriter.getI1Type()), mask),
            rewriter.getI32IntegerAttr(elemBytes));
      }
      rewriter.eraseOp(op);
      return success();
    }
    int64_t n = vecType.getNumElements();
    AccessPlan plan = planAccess(*tile(op.getValue().getType()), lowering.axis.get(op.getPtr()),
                                 elemBytes, lowering.hooks.maxVectorBytes(),
                                 lowering.hooks.vectorAccessNeedsAlignment());
    int64_t v = plan.vector;
    if (v == 1 && n > 1) {
      if (!mask)
        mask = LLVM::ConstantOp::create(
            rewriter, loc, VectorType::get({n}, rewriter.getI1Type()),
            SplatElementsAttr::get(VectorType::get({n}, rewriter.getI1Type()), true));
      LLVM::masked_scatter::create(rewriter, loc, value, adaptor.getPtr(), mask,
                                   rewriter.getI32IntegerAttr(plan.alignment));
      rewriter.eraseOp(op);
      return success();
    }
    for (int64_t r = 0; r < n; r += v) {
      Value ptr = LLVM::ExtractElementOp::create(rewriter, loc, adaptor.getPtr(),
                                                 i32Const(rewriter, loc, r));
      Value part = subVector(rewriter, loc, value, r, v);
      if (mask)
        LLVM::MaskedStoreOp::create(rewriter, loc, part, ptr, subVector(rewriter, loc, mask, r, v),
                                    rewriter.getI32IntegerAttr(plan.alignment));
      else
        LLVM::StoreOp::create(rewriter, loc, part, ptr, plan.alignment);
    }
    rewriter.eraseOp(op);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Reductions, scans and dot
//===----------------------------------------------------------------------===//

struct ReduceLowering : TilePattern<ReduceOp> {
  using TilePattern::TilePattern;
  LogicalResult matchAndRewrite(ReduceOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    const TileInfo *src = tile(op.getSrcs().front().getType());
    if (!src)
      return failure();
    unsigned axis = op.getAxis();
    size_t n = op.getSrcs().size();
    SmallVector<SmallVector<Value>> inputs;
    for (Value v : adaptor.getSrcs())
      inputs.push_back(unpack(rewriter, loc, v));

    // Within a thread: registers that differ only along `axis` combine.
    std::map<std::vector<int32_t>, SmallVector<Value>> groups;
    std::vector<std::vector<int32_t>> order;
    for (int64_t r = 0; r < src->numRegs; ++r) {
      std::vector<int32_t> key = src->regCoords[r];
      key.erase(key.begin() + axis);
      auto it = groups.find(key);
      SmallVector<Value> values;
      for (size_t i = 0; i < n; ++i)
        values.push_back(inputs[i][r]);
      if (it == groups.end()) {
        groups.emplace(key, values);
        order.push_back(key);
      } else {
        it->second = inlineCombine(rewriter, op.getCombine(), it->second, values);
      }
    }
    // Across lanes: a butterfly over each lane bit that moves along `axis`.
    for (auto [bit, basis] : llvm::enumerate(src->laneBases)) {
      if (basis[axis] == 0)
        continue;
      for (auto &key : order) {
        SmallVector<Value> &acc = groups[key];
        SmallVector<Value> other;
        for (Value v : acc)
          other.push_back(lowering.hooks.shuffle(rewriter, loc, v,
                                                 i32Const(rewriter, loc, 1 << bit),
                                                 TargetHooks::ShuffleKind::Xor));
        acc = inlineCombine(rewriter, op.getCombine(), acc, other);
      }
    }
    for (auto &basis : src->warpBases)
      if (basis[axis] != 0)
        return op->emitOpError()
               << "reduces across warps, which needs a shared-memory exchange this "
                  "lowering does not implement yet; keep the reduced dimension within "
                  "one warp (warpsPerCTA[" << axis << "] = 1)";

    SmallVector<Value> results;
    if (op.getResults().front().getType().isIntOrIndexOrFloat()) {
      results = groups[order.front()];
    } else {
      for (size_t i = 0; i < n; ++i) {
        Type resultType = op.getResult(i).getType();
        const TileInfo *dst = tile(resultType);
        Type packed = getTypeConverter()->convertType(resultType);
        if (!dst || !packed)
          return failure();
        SmallVector<Value> values;
        for (int64_t r = 0; r < dst->numRegs; ++r) {
          auto it = groups.find(dst->regCoords[r]);
          if (it == groups.end())
            return op->emitOpError("result layout does not match the reduced operand");
          values.push_back(it->second[i]);
        }
        results.push_back(pack(rewriter, loc, packed, values));
      }
    }
    rewriter.replaceOp(op, results);
    return success();
  }
};

struct ScanLowering : TilePattern<ScanOp> {
  using TilePattern::TilePattern;
  LogicalResult matchAndRewrite(ScanOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    const TileInfo *info = tile(op.getSrcs().front().getType());
    if (!info)
      return failure();
    unsigned axis = op.getAxis();
    for (auto *bases : {&info->laneBases, &info->warpBases})
      for (auto &b : *bases)
        if (b[axis] != 0)
          return op->emitOpError() << "scans across threads, which this lowering does not "
                                      "implement yet; keep dimension "
                                   << axis << " within each thread's registers";
    size_t n = op.getSrcs().size();
    SmallVector<SmallVector<Value>> values;
    for (Value v : adaptor.getSrcs())
      values.push_back(unpack(rewriter, loc, v));
    // Registers of each line along `axis`, in coordinate order.
    std::map<std::vector<int32_t>, std::vector<std::pair<int32_t, int64_t>>> lines;
    for (int64_t r = 0; r < info->numRegs; ++r) {
      std::vector<int32_t> key = info->regCoords[r];
      int32_t pos = key[axis];
      key.erase(key.begin() + axis);
      lines[key].push_back({pos, r});
    }
    for (auto &[key, regs] : lines) {
      llvm::sort(regs);
      if (op.getReverse())
        std::reverse(regs.begin(), regs.end());
      SmallVector<Value> acc;
      for (size_t i = 0; i < n; ++i)
        acc.push_back(values[i][regs.front().second]);
      for (size_t j = 1; j < regs.size(); ++j) {
        SmallVector<Value> cur;
        for (size_t i = 0; i < n; ++i)
          cur.push_back(values[i][regs[j].second]);
        acc = inlineCombine(rewriter, op.getCombine(), acc, cur);
        for (size_t i = 0; i < n; ++i)
          values[i][regs[j].second] = acc[i];
      }
    }
    SmallVector<Value> results;
    for (size_t i = 0; i < n; ++i)
      results.push_back(pack(rewriter, loc,
                             getTypeConverter()->convertType(op.getResult(i).getType()),
                             values[i]));
    rewriter.replaceOp(op, results);
    return success();
  }
};

struct DotLowering : TilePattern<DotOp> {
  using TilePattern::TilePattern;
  LogicalResult matchAndRewrite(DotOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    const TileInfo *a = tile(op.getA().getType()), *b = tile(op.getB().getType()),
                   *c = tile(op.getAcc().getType());
    Type packed = getTypeConverter()->convertType(op.getType());
    if (!a || !b || !c || !packed)
      return failure();
    int64_t rank = op.getType().getRank();
    int64_t k = op.getA().getType().getShape().back();
    std::map<std::vector<int32_t>, int64_t> aRegs, bRegs;
    for (int64_t r = 0; r < a->numRegs; ++r)
      aRegs.emplace(a->regCoords[r], r);
    for (int64_t r = 0; r < b->numRegs; ++r)
      bRegs.emplace(b->regCoords[r], r);
    SmallVector<Value> av = unpack(rewriter, loc, adaptor.getA());
    SmallVector<Value> bv = unpack(rewriter, loc, adaptor.getB());
    SmallVector<Value> cv = unpack(rewriter, loc, adaptor.getAcc());
    Type accType = cast<VectorType>(packed).getElementType();
    bool isFloat = isa<FloatType>(accType);
    for (int64_t r = 0; r < c->numRegs; ++r) {
      const std::vector<int32_t> &coord = c->regCoords[r];
      Value acc = cv[r];
      for (int64_t kk = 0; kk < k; ++kk) {
        std::vector<int32_t> ac = coord, bc = coord;
        ac[rank - 1] = kk;
        bc[rank - 2] = kk;
        auto ai = aRegs.find(ac), bi = bRegs.find(bc);
        if (ai == aRegs.end() || bi == bRegs.end())
          return op->emitOpError("operand layouts do not give each thread the rows and "
                                 "columns its accumulator elements need");
        Value x = av[ai->second], y = bv[bi->second];
        if (isFloat) {
          if (x.getType() != accType) {
            x = LLVM::FPExtOp::create(rewriter, loc, accType, x);
            y = LLVM::FPExtOp::create(rewriter, loc, accType, y);
          }
          acc = LLVM::FMulAddOp::create(rewriter, loc, x, y, acc);
        } else {
          x = LLVM::SExtOp::create(rewriter, loc, accType, x);
          y = LLVM::SExtOp::create(rewriter, loc, accType, y);
          acc = LLVM::AddOp::create(rewriter, loc, acc, LLVM::MulOp::create(rewriter, loc, x, y));
        }
      }
      cv[r] = acc;
    }
    rewriter.replaceOp(op, pack(rewriter, loc, packed, cv));
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Hints, debugging
//===----------------------------------------------------------------------===//

template <typename OpT>
struct ForwardLowering : TilePattern<OpT> {
  using TilePattern<OpT>::TilePattern;
  LogicalResult matchAndRewrite(OpT op, typename OpT::Adaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(op, adaptor.getOperands()[0]);
    return success();
  }
};

struct AssumeLowering : TilePattern<AssumeOp> {
  using TilePattern::TilePattern;
  LogicalResult matchAndRewrite(AssumeOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<LLVM::AssumeOp>(op, adaptor.getCondition());
    return success();
  }
};

struct BarrierLowering : TilePattern<BarrierOp> {
  using TilePattern::TilePattern;
  LogicalResult matchAndRewrite(BarrierOp op, OpAdaptor,
                                ConversionPatternRewriter &rewriter) const override {
    lowering.hooks.barrier(rewriter, op.getLoc());
    rewriter.eraseOp(op);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Driver
//===----------------------------------------------------------------------===//

/// Reports, before converting, every value whose layout cannot be lowered,
/// so that the user sees the reason instead of "failed to legalize".
LogicalResult checkLayouts(ModuleOp module, TileInfoCache &tiles) {
  WalkResult walk = module.walk([&](Operation *op) {
    for (Value v : op->getResults()) {
      auto tensor = dyn_cast<RankedTensorType>(v.getType());
      if (!tensor)
        continue;
      if (!isa_and_nonnull<LayoutAttrInterface>(tensor.getEncoding())) {
        op->emitOpError() << "produces " << tensor
                          << " without a hd layout; every tile needs one to be lowered";
        return WalkResult::interrupt();
      }
      std::string error;
      if (!tiles.get(tensor, &error)) {
        op->emitOpError() << "cannot be lowered: " << error;
        return WalkResult::interrupt();
      }
    }
    return WalkResult::advance();
  });
  return failure(walk.wasInterrupted());
}

} // namespace

LogicalResult hadron::distributeToLLVM(ModuleOp module, TargetHooks &hooks) {
  MLIRContext *ctx = module.getContext();
  ctx->loadDialect<LLVM::LLVMDialect, cf::ControlFlowDialect>();
  TileInfoCache tiles(hooks);
  if (failed(checkLayouts(module, tiles)))
    return failure();

  // Structured control flow first: tiles then flow through block arguments.
  {
    RewritePatternSet patterns(ctx);
    populateSCFToControlFlowConversionPatterns(patterns);
    ConversionTarget target(*ctx);
    target.addIllegalDialect<scf::SCFDialect>();
    target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
    if (failed(applyPartialConversion(module, target, std::move(patterns))))
      return failure();
  }

  // Kernels get the target's implicit arguments.
  SmallVector<Type> implicitTypes;
  hooks.appendImplicitKernelArgs(ctx, implicitTypes);
  SmallVector<StringRef> kernels;
  for (auto func : module.getOps<func::FuncOp>()) {
    if (!func->hasAttr(HadronDialect::getKernelAttrName()))
      continue;
    if (func.isExternal())
      return func.emitOpError("is a kernel without a body");
    if (func.getNumResults() != 0)
      return func.emitOpError("is a kernel and must not return values");
    unsigned first = func.getNumArguments();
    SmallVector<Type> inputs(func.getArgumentTypes());
    inputs.append(implicitTypes.begin(), implicitTypes.end());
    Block &entry = func.getBody().front();
    for (Type t : implicitTypes)
      entry.addArgument(t, func.getLoc());
    func.setFunctionType(FunctionType::get(ctx, inputs, {}));
    // Keep the argument attribute list in step with the new arity.
    SmallVector<DictionaryAttr> argAttrs;
    for (unsigned i = 0; i < inputs.size(); ++i)
      argAttrs.push_back(i < first ? func.getArgAttrDict(i) : DictionaryAttr::get(ctx));
    func.setAllArgAttrs(argAttrs);
    hooks.beginKernel(entry, first);
    kernels.push_back(func.getSymName());
  }

  AxisInfoAnalysis axis(module);
  Lowering lowering{hooks, tiles, axis};
  TileTypeConverter converter(ctx, hooks, tiles);

  RewritePatternSet patterns(ctx);
  patterns.add<ArangeLowering, SplatLowering, ConvertLayoutLowering, BroadcastLowering,
               ExpandDimsLowering, PermuteLowering, ReshapeLowering, JoinLowering,
               SplitLowering, ProgramIdLowering, NumProgramsLowering, AddPtrLowering,
               LoadLowering, StoreLowering, ReduceLowering, ScanLowering, DotLowering,
               ForwardLowering<MultipleOfOp>, AssumeLowering, BarrierLowering>(converter,
                                                                              lowering);
  patterns.add<ConstantLowering>(converter, lowering, /*benefit=*/10);
  patterns.add<ElementwiseLowering>(converter, lowering);
  populateFuncToLLVMConversionPatterns(converter, patterns);
  arith::populateArithToLLVMConversionPatterns(converter, patterns);
  populateMathToLLVMConversionPatterns(converter, patterns);
  cf::populateControlFlowToLLVMConversionPatterns(converter, patterns);

  LLVMConversionTarget target(*ctx);
  target.addLegalOp<ModuleOp>();
  target.addIllegalDialect<HadronDialect, arith::ArithDialect, math::MathDialect,
                           func::FuncDialect, cf::ControlFlowDialect>();
  if (failed(applyFullConversion(module, target, std::move(patterns))))
    return failure();

  for (StringRef name : kernels)
    if (auto func = module.lookupSymbol<LLVM::LLVMFuncOp>(name))
      hooks.finishKernel(func);

  SmallVector<UnrealizedConversionCastOp> casts;
  module.walk([&](UnrealizedConversionCastOp cast) { casts.push_back(cast); });
  SmallVector<UnrealizedConversionCastOp> remaining;
  reconcileUnrealizedCasts(casts, &remaining);
  if (!remaining.empty())
    return remaining.front().emitOpError("is left after lowering: a value's type has no "
                                         "per-thread form");
  return success();
}
