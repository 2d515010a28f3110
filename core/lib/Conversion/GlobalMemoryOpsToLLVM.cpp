//===- GlobalMemoryOpsToLLVM.cpp - addptr, load, store ===//

#include "LoweringInternals.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/Matchers.h"
#include "llvm/Support/MathExtras.h"

namespace hadron::lowering {
namespace {

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

/// The element at coordinates `coords` (i32 values, one per dim) of the hd
/// tile `v` as a scalar, rebuilt from the ops that made it (addptr, splat,
/// arange, constant splats, integer add/sub/mul, and the moves broadcast,
/// expand_dims and convert_layout); null otherwise. With `emit` false it
/// only says whether it can. Only where threads are folded: there a tile is
/// one thread's thousands of registers, and taking each vector access's
/// address out of a tile-wide pointer vector costs more than the access
/// itself.
Value elementAt(ConversionPatternRewriter &rewriter, Location loc, Value v,
                ArrayRef<Value> coords, bool emit = true, int depth = 0) {
  if (depth > 8)
    return {};
  auto tensor = dyn_cast<RankedTensorType>(v.getType());
  Operation *def = v.getDefiningOp();
  if (!tensor || !def)
    return {};
  // A placeholder for "can be rebuilt" when nothing is emitted.
  Value yes = v;
  auto sub = [&](Value operand, ArrayRef<Value> at) {
    return elementAt(rewriter, loc, operand, at, emit, depth + 1);
  };
  if (auto splat = dyn_cast<SplatOp>(def))
    return emit ? rewriter.getRemappedValue(splat.getSrc()) : yes;
  if (auto range = dyn_cast<ArangeOp>(def)) {
    if (tensor.getRank() != 1)
      return {};
    if (!emit)
      return yes;
    return LLVM::AddOp::create(rewriter, loc, i32Const(rewriter, loc, range.getStart()),
                               coords[0]);
  }
  if (auto cst = dyn_cast<arith::ConstantOp>(def)) {
    auto dense = dyn_cast<SplatElementsAttr>(cst.getValue());
    if (!dense || !dense.getElementType().isInteger())
      return {};
    if (!emit)
      return yes;
    return LLVM::ConstantOp::create(rewriter, loc, dense.getElementType(),
                                    dense.getSplatValue<Attribute>());
  }
  if (isa<arith::AddIOp, arith::SubIOp, arith::MulIOp>(def)) {
    Value a = sub(def->getOperand(0), coords), b = sub(def->getOperand(1), coords);
    if (!a || !b || (emit && a.getType() != b.getType()))
      return {};
    if (!emit)
      return yes;
    if (isa<arith::AddIOp>(def))
      return LLVM::AddOp::create(rewriter, loc, a, b);
    if (isa<arith::SubIOp>(def))
      return LLVM::SubOp::create(rewriter, loc, a, b);
    return LLVM::MulOp::create(rewriter, loc, a, b);
  }
  if (auto add = dyn_cast<AddPtrOp>(def)) {
    auto pointee = dyn_cast<PointerType>(getElementTypeOrSelf(add.getPtr().getType()));
    if (!pointee || !pointee.getPointeeType().isIntOrFloat())
      return {};
    Value base = sub(add.getPtr(), coords), offset = sub(add.getOffset(), coords);
    if (!base || !offset || (emit && !isa<LLVM::LLVMPointerType>(base.getType())))
      return {};
    if (!emit)
      return yes;
    return LLVM::GEPOp::create(rewriter, loc, base.getType(), pointee.getPointeeType(), base,
                               ValueRange{offset});
  }
  if (auto broadcast = dyn_cast<BroadcastOp>(def)) {
    SmallVector<Value> at(coords);
    auto shape = broadcast.getSrc().getType().getShape();
    for (size_t d = 0; d < at.size(); ++d)
      if (shape[d] == 1)
        at[d] = emit ? i32Const(rewriter, loc, 0) : Value();
    return sub(broadcast.getSrc(), at);
  }
  if (auto expand = dyn_cast<ExpandDimsOp>(def)) {
    SmallVector<Value> at(coords);
    at.erase(at.begin() + expand.getAxis());
    return sub(expand.getSrc(), at);
  }
  if (auto convert = dyn_cast<ConvertLayoutOp>(def))
    return sub(convert.getSrc(), coords);
  return {};
}

/// The address of the element held by register `r` (i32) of the pointer tile
/// `ptrs` (lowered: `converted`), for one vector access: rebuilt as a scalar
/// where threads are folded and the ops that made `ptrs` allow it.
Value accessAddress(ConversionPatternRewriter &rewriter, Location loc, Lowering &lowering,
                    Value ptrs, Value converted, int64_t r) {
  if (lowering.tiles.foldsThreads())
    if (auto tensor = dyn_cast<RankedTensorType>(ptrs.getType()))
      if (const TileInfo *info = lowering.tiles.get(tensor);
          info && elementAt(rewriter, loc, ptrs, SmallVector<Value>(tensor.getRank()),
                            /*emit=*/false)) {
        SmallVector<Value> coords;
        for (int32_t c : info->regCoords[r])
          coords.push_back(i32Const(rewriter, loc, c));
        return elementAt(rewriter, loc, ptrs, coords);
      }
  return LLVM::ExtractElementOp::create(rewriter, loc, converted, i32Const(rewriter, loc, r));
}

/// Where the accesses of a tile run in a loop (walkInLoop): the address of
/// the element of register `r` (i32, at run time) of `ptrs`, rebuilt as a
/// scalar when the ops that made `ptrs` allow it, else read from `spilled`
/// (the lowered pointer tile, written to a stack buffer before the loop).
struct LoopAddresses {
  ConversionPatternRewriter &rewriter;
  Value ptrs;
  const TileInfo &info;
  Value spilled;
  LoopAddresses(ConversionPatternRewriter &rewriter, Operation *op, Value ptrs, Value converted,
                const TileInfo &info)
      : rewriter(rewriter), ptrs(ptrs), info(info) {
    auto tensor = cast<RankedTensorType>(ptrs.getType());
    if (!elementAt(rewriter, op->getLoc(), ptrs, SmallVector<Value>(tensor.getRank()),
                   /*emit=*/false))
      spilled = spillTile(rewriter, op->getLoc(), op, converted);
  }
  Value at(Location loc, Value r) {
    if (spilled)
      return loadLanes(rewriter, loc, spilled, LLVM::LLVMPointerType::get(rewriter.getContext()),
                       r, 0);
    return elementAt(rewriter, loc, ptrs, registerCoords(rewriter, loc, info, r));
  }
};

/// The lanes of `v` (a lowered tile) a loop reads per group: a constant
/// splat stays one narrow constant, anything else is spilled. A null `v`
/// reads as zeros of `zeroType` (when given).
struct LoopOperand {
  Value constant, spilled;
  Type elem;
  LoopOperand(OpBuilder &b, Location loc, Operation *op, Value v, int64_t width,
              VectorType zeroType = {}) {
    if (!v) {
      if (zeroType)
        constant = LLVM::ZeroOp::create(b, loc, zeroType);
      return;
    }
    auto type = cast<VectorType>(v.getType());
    elem = type.getElementType();
    DenseElementsAttr dense;
    if (matchPattern(v, m_Constant(&dense)) && dense.isSplat()) {
      auto narrow = VectorType::get({width}, elem);
      constant = LLVM::ConstantOp::create(b, loc, narrow, dense.resizeSplat(narrow));
    } else {
      spilled = spillTile(b, loc, op, v);
    }
  }
  Value at(OpBuilder &b, Location loc, Value r, int64_t width) const {
    return constant ? constant : loadLanes(b, loc, spilled, elem, r, width);
  }
};

} // namespace

AccessPlan planAccess(const TileInfo &info, const AxisInfo &ptrInfo, int64_t elemBytes,
                      int64_t maxVectorBytes, bool needsAlignment) {
  AccessPlan plan;
  // Every element pointer is naturally aligned (as in Triton: a misaligned
  // f32 pointer is undefined behaviour). Without that, LLVM splits an access
  // into bytes, which is slow everywhere, and one GPU assembler turned byte
  // stores of a float register into conversions.
  plan.alignment = std::max<int64_t>(1, elemBytes);
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
  int64_t divisibility = std::max<int64_t>(ptrInfo.divisibility[fast], elemBytes);
  while (needsAlignment && v > 1 && divisibility % (v * elemBytes) != 0)
    v /= 2;
  plan.vector = v;
  plan.alignment = std::max<int64_t>(
      plan.alignment, std::min<int64_t>(int64_t(1) << llvm::countr_zero(uint64_t(divisibility)),
                                        v * elemBytes));
  return plan;
}

namespace {

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
    if (walkInLoop(lowering.tiles, n / v)) {
      LoopAddresses addresses(rewriter, op, op.getPtr(), adaptor.getPtr(), *tile(op.getType()));
      LoopOperand masks(rewriter, loc, op, mask, v);
      LoopOperand others(rewriter, loc, op, adaptor.getOther(), v, partType);
      Value result = stackBuffer(rewriter, op, element, n);
      emitLoop(rewriter, loc, n / v, [&](Value g) {
        Value r = LLVM::MulOp::create(rewriter, loc, g, i32Const(rewriter, loc, v));
        Value ptr = addresses.at(loc, r);
        Value part =
            mask ? LLVM::MaskedLoadOp::create(rewriter, loc, partType, ptr,
                                              masks.at(rewriter, loc, r, v),
                                              others.at(rewriter, loc, r, v),
                                              uint32_t(plan.alignment), false)
                       .getResult()
                 : LLVM::LoadOp::create(rewriter, loc, partType, ptr, plan.alignment,
                                        op.getIsVolatile())
                       .getResult();
        storeLanes(rewriter, loc, part, result, r);
      });
      rewriter.replaceOp(op, reloadTile(rewriter, loc, result, vecType));
      return success();
    }
    SmallVector<Value> parts;
    for (int64_t r = 0; r < n; r += v) {
      Value ptr = accessAddress(rewriter, loc, lowering, op.getPtr(), adaptor.getPtr(), r);
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
    if (walkInLoop(lowering.tiles, n / v)) {
      LoopAddresses addresses(rewriter, op, op.getPtr(), adaptor.getPtr(),
                              *tile(op.getValue().getType()));
      LoopOperand masks(rewriter, loc, op, mask, v);
      LoopOperand values(rewriter, loc, op, value, v);
      emitLoop(rewriter, loc, n / v, [&](Value g) {
        Value r = LLVM::MulOp::create(rewriter, loc, g, i32Const(rewriter, loc, v));
        Value ptr = addresses.at(loc, r);
        Value part = values.at(rewriter, loc, r, v);
        if (mask)
          LLVM::MaskedStoreOp::create(rewriter, loc, part, ptr, masks.at(rewriter, loc, r, v),
                                      rewriter.getI32IntegerAttr(plan.alignment));
        else
          LLVM::StoreOp::create(rewriter, loc, part, ptr, plan.alignment);
      });
      rewriter.eraseOp(op);
      return success();
    }
    for (int64_t r = 0; r < n; r += v) {
      Value ptr = accessAddress(rewriter, loc, lowering, op.getPtr(), adaptor.getPtr(), r);
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

} // namespace

void populateGlobalMemoryPatterns(TileTypeConverter &converter, Lowering &lowering, RewritePatternSet &patterns) {
  patterns.add<AddPtrLowering, LoadLowering, StoreLowering>(converter, lowering);
}

} // namespace hadron::lowering
