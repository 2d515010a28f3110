//===- LoweringUtils.cpp - Building blocks of distribute patterns ---------===//

#include "hadron/Conversion/LoweringUtils.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

using namespace mlir;
using namespace hadron::hd;

namespace hadron::lowering {

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

Value splatVector(OpBuilder &b, Location loc, Type type, Value scalar) {
  auto vecType = cast<VectorType>(type);
  Value one = LLVM::InsertElementOp::create(b, loc, LLVM::UndefOp::create(b, loc, vecType),
                                            scalar, i32Const(b, loc, 0));
  SmallVector<int32_t> zeros(vecType.getNumElements(), 0);
  return LLVM::ShuffleVectorOp::create(b, loc, one, one, zeros);
}

namespace {
unsigned moduleWarps(Block *block) {
  TargetAttr target = block ? getTarget(block->getParentOp()) : TargetAttr();
  return target ? target.getNumWarps() : 4;
}
} // namespace

Value warpIdHere(TargetHooks &hooks, OpBuilder &b, Location loc) {
  Value warp = hooks.warpId(b, loc);
  auto [ws, index] = enclosingWarpRegion(b.getInsertionBlock());
  if (!ws || index == 0)
    return warp;
  unsigned first = ws.regionWarps(index, moduleWarps(b.getInsertionBlock())).first;
  return LLVM::SubOp::create(b, loc, warp, i32Const(b, loc, first));
}

void barrierHere(TargetHooks &hooks, OpBuilder &b, Location loc) {
  auto [ws, index] = enclosingWarpRegion(b.getInsertionBlock());
  if (!ws || hooks.foldsThreadsIntoRegisters()) {
    hooks.barrier(b, loc);
    return;
  }
  // Region i uses barrier i + 1 (the CTA's is 0 where a target numbers
  // them); distributeToLLVM checked that the target has enough.
  unsigned warps = ws.regionWarps(index, moduleWarps(b.getInsertionBlock())).second;
  hooks.warpGroupBarrier(b, loc, index + 1, warps);
}

unsigned warpsHere(OpBuilder &b) {
  return warpsRunning(b.getInsertionBlock(), moduleWarps(b.getInsertionBlock()));
}

Value shuffle(OpBuilder &b, Location loc, Value src, Value other, ArrayRef<int64_t> indices) {
  SmallVector<int32_t> mask(indices.begin(), indices.end());
  return LLVM::ShuffleVectorOp::create(b, loc, src, other, mask);
}

Value i32Vector(OpBuilder &b, Location loc, ArrayRef<int32_t> values) {
  auto type = VectorType::get({int64_t(values.size())}, b.getI32Type());
  return LLVM::ConstantOp::create(b, loc, type, DenseElementsAttr::get(type, values));
}

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
    addBits(warpIdHere(hooks, b, loc), info.warpBases);
  return coords;
}

Value coordValue(OpBuilder &b, Location loc, const TileInfo &info, ArrayRef<Value> thread,
                 int64_t r, size_t dim) {
  Value c = i32Const(b, loc, info.regCoords[r][dim]);
  if (thread.empty())
    return c;
  return LLVM::XOrOp::create(b, loc, c, thread[dim]);
}

MemDesc unpackMemDesc(OpBuilder &b, Location loc, Value lowered) {
  return {LLVM::ExtractValueOp::create(b, loc, lowered, ArrayRef<int64_t>{0}),
          LLVM::ExtractValueOp::create(b, loc, lowered, ArrayRef<int64_t>{1})};
}

Value packMemDesc(OpBuilder &b, Location loc, Type type, MemDesc desc) {
  Value s = LLVM::UndefOp::create(b, loc, type);
  s = LLVM::InsertValueOp::create(b, loc, s, desc.base, ArrayRef<int64_t>{0});
  return LLVM::InsertValueOp::create(b, loc, s, desc.origin, ArrayRef<int64_t>{1});
}

Value barrierAddress(OpBuilder &b, Location loc, Value lowered) {
  MemDesc desc = unpackMemDesc(b, loc, lowered);
  return LLVM::GEPOp::create(b, loc, desc.base.getType(), b.getI64Type(), desc.base,
                             ValueRange{desc.origin});
}

Value leaderOf(OpBuilder &b, Location loc, TargetHooks &hooks, Value pred) {
  Value lane = hooks.laneId(b, loc), warp = warpIdHere(hooks, b, loc);
  Value ids = LLVM::OrOp::create(b, loc, lane, warp);
  Value leader = LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::eq, ids, i32Const(b, loc, 0));
  return pred ? LLVM::AndOp::create(b, loc, leader, pred).getResult() : leader;
}

Value ownerMask(OpBuilder &b, Location loc, const TileInfo &info, TargetHooks &hooks) {
  Value owner;
  auto addBits = [&](const std::vector<LinearLayout::Basis> &bases, auto getId) {
    Value id;
    for (auto [bit, basis] : llvm::enumerate(bases)) {
      if (llvm::any_of(basis, [](int32_t v) { return v != 0; }))
        continue;
      if (!id)
        id = getId();
      Value set = LLVM::AndOp::create(b, loc, id, i32Const(b, loc, 1 << bit));
      Value clear = LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::eq, set,
                                         i32Const(b, loc, 0));
      owner = owner ? LLVM::AndOp::create(b, loc, owner, clear).getResult() : clear;
    }
  };
  addBits(info.laneBases, [&] { return hooks.laneId(b, loc); });
  addBits(info.warpBases, [&] { return warpIdHere(hooks, b, loc); });
  return owner;
}

} // namespace hadron::lowering
