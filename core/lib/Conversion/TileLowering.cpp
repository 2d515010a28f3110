//===- TileLowering.cpp - Shared pieces of the distribute lowering --------===//

#include "TileLowering.h"

#include "mlir/IR/IRMapping.h"

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
  // Bases map through the linear part of `map` (split's map adds which half
  // as a constant): map(b) XOR map(0).
  const std::vector<int32_t> origin =
      map(std::vector<int32_t>(dst.regCoords.empty() ? 0 : dst.regCoords.front().size(), 0));
  auto mapBasis = [&](const LinearLayout::Basis &b) {
    std::vector<int32_t> m = map(b);
    for (size_t i = 0; i < m.size() && i < origin.size(); ++i)
      m[i] ^= origin[i];
    return m;
  };
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
void mapCombineArguments(Region &combine, ValueRange accs, ValueRange values,
                         IRMapping &mapping) {
  Block &block = combine.front();
  for (auto [i, acc] : llvm::enumerate(accs))
    mapping.map(block.getArgument(i), acc);
  for (auto [i, v] : llvm::enumerate(values))
    mapping.map(block.getArgument(accs.size() + i), v);
}

SmallVector<Value> inlineCombine(ConversionPatternRewriter &rewriter, Region &combine,
                                 ValueRange accs, ValueRange values) {
  Block &block = combine.front();
  IRMapping mapping;
  mapCombineArguments(combine, accs, values, mapping);
  for (Operation &op : block.without_terminator())
    rewriter.clone(op, mapping);
  SmallVector<Value> results;
  for (Value v : block.getTerminator()->getOperands())
    results.push_back(mapping.lookupOrDefault(v));
  return results;
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
  addBits(info.warpBases, [&] { return hooks.warpId(b, loc); });
  return owner;
}

} // namespace hadron::lowering
