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
    addBits(warpIdHere(hooks, b, loc), info.warpBases);
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

SmallVector<Value> emitLoop(RewriterBase &rewriter, Location loc, int64_t count,
                            ValueRange init,
                            function_ref<SmallVector<Value>(Value, ValueRange)> body) {
  Block *before = rewriter.getInsertionBlock();
  Block *after = rewriter.splitBlock(before, rewriter.getInsertionPoint());
  SmallVector<Type> types{rewriter.getI32Type()};
  SmallVector<Location> locs{loc};
  for (Value v : init) {
    types.push_back(v.getType());
    locs.push_back(loc);
  }
  Block *loop = rewriter.createBlock(after, types, locs);
  for (Value v : init)
    after->addArgument(v.getType(), loc);
  rewriter.setInsertionPointToEnd(before);
  SmallVector<Value> entry{i32Const(rewriter, loc, 0)};
  entry.append(init.begin(), init.end());
  LLVM::BrOp::create(rewriter, loc, entry, loop);
  rewriter.setInsertionPointToEnd(loop);
  Value i = loop->getArgument(0);
  SmallVector<Value> next = body(i, loop->getArguments().drop_front());
  Value step = LLVM::AddOp::create(rewriter, loc, i, i32Const(rewriter, loc, 1));
  Value more = LLVM::ICmpOp::create(rewriter, loc, LLVM::ICmpPredicate::slt, step,
                                    i32Const(rewriter, loc, count));
  SmallVector<Value> again{step};
  again.append(next.begin(), next.end());
  LLVM::CondBrOp::create(rewriter, loc, more, loop, again, after, next);
  rewriter.setInsertionPointToStart(after);
  return SmallVector<Value>(after->getArguments());
}

namespace {
/// How a stack buffer holds elements of `elem`.
Type storageOf(Type elem) {
  return elem.isInteger(1) ? IntegerType::get(elem.getContext(), 8) : elem;
}
int64_t alignOf(Type storage) {
  if (isa<LLVM::LLVMPointerType>(storage))
    return 8;
  return std::max<int64_t>(1, storage.getIntOrFloatBitWidth() / 8);
}
} // namespace

Value stackBuffer(OpBuilder &b, Operation *op, Type elem, int64_t count) {
  OpBuilder::InsertionGuard guard(b);
  auto func = dyn_cast<FunctionOpInterface>(op);
  if (!func)
    func = op->getParentOfType<FunctionOpInterface>();
  b.setInsertionPointToStart(&func.getFunctionBody().front());
  Location loc = op->getLoc();
  Type storage = storageOf(elem);
  return LLVM::AllocaOp::create(b, loc, LLVM::LLVMPointerType::get(b.getContext()), storage,
                                i32Const(b, loc, count), std::max<int64_t>(16, alignOf(storage)));
}

Value spillTile(OpBuilder &b, Location loc, Operation *op, Value packed) {
  auto type = cast<VectorType>(packed.getType());
  Value buffer = stackBuffer(b, op, type.getElementType(), type.getNumElements());
  storeLanes(b, loc, packed, buffer, i32Const(b, loc, 0));
  return buffer;
}

Value loadLanes(OpBuilder &b, Location loc, Value buffer, Type elem, Value first,
                int64_t count) {
  Type storage = storageOf(elem);
  Value at = LLVM::GEPOp::create(b, loc, buffer.getType(), storage, buffer, ValueRange{first});
  Type type = count == 0 ? storage : Type(VectorType::get({count}, storage));
  Value v = LLVM::LoadOp::create(b, loc, type, at, alignOf(storage));
  if (storage == elem)
    return v;
  return LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::ne, v,
                              LLVM::ZeroOp::create(b, loc, type));
}

void storeLanes(OpBuilder &b, Location loc, Value value, Value buffer, Value first) {
  Type elem = getElementTypeOrSelf(value.getType());
  Type storage = storageOf(elem);
  if (storage != elem) {
    Type wide = isa<VectorType>(value.getType())
                    ? Type(VectorType::get(cast<VectorType>(value.getType()).getShape(), storage))
                    : storage;
    value = LLVM::ZExtOp::create(b, loc, wide, value);
  }
  Value at = LLVM::GEPOp::create(b, loc, buffer.getType(), storage, buffer, ValueRange{first});
  LLVM::StoreOp::create(b, loc, value, at, alignOf(storage));
}

Value reloadTile(OpBuilder &b, Location loc, Value buffer, Type vectorType) {
  auto type = cast<VectorType>(vectorType);
  return loadLanes(b, loc, buffer, type.getElementType(), i32Const(b, loc, 0),
                   type.getNumElements());
}

Value bitLinear(OpBuilder &b, Location loc, Value index, ArrayRef<int64_t> values, bool xorSum) {
  Value sum;
  for (size_t i = 0; i < values.size();) {
    int64_t v = values[i];
    if (v == 0) {
      ++i;
      continue;
    }
    Value term;
    if (v > 0 && llvm::isPowerOf2_64(uint64_t(v))) {
      // Bits i..i+k-1 of the index land on consecutive bits from log2(v).
      size_t k = 1;
      while (i + k < values.size() && values[i + k] == (v << k))
        ++k;
      term = LLVM::LShrOp::create(b, loc, index, i32Const(b, loc, int64_t(i)));
      term = LLVM::AndOp::create(b, loc, term, i32Const(b, loc, (int64_t(1) << k) - 1));
      if (v != 1)
        term = LLVM::ShlOp::create(b, loc, term, i32Const(b, loc, llvm::Log2_64(uint64_t(v))));
      i += k;
    } else {
      term = LLVM::LShrOp::create(b, loc, index, i32Const(b, loc, int64_t(i)));
      term = LLVM::AndOp::create(b, loc, term, i32Const(b, loc, 1));
      term = LLVM::MulOp::create(b, loc, term, i32Const(b, loc, v));
      ++i;
    }
    if (!sum)
      sum = term;
    else if (xorSum)
      sum = LLVM::XOrOp::create(b, loc, sum, term);
    else
      sum = LLVM::AddOp::create(b, loc, sum, term);
  }
  return sum ? sum : i32Const(b, loc, 0);
}

std::vector<int64_t> linearInRegisterBits(int64_t numRegs, function_ref<int64_t(int64_t)> f,
                                          bool xorSum) {
  std::vector<int64_t> perBit;
  if (f(0) != 0)
    return {};
  for (int64_t bit = 1; bit < numRegs; bit <<= 1)
    perBit.push_back(f(bit));
  for (int64_t r = 0; r < numRegs; ++r) {
    int64_t expect = 0;
    for (size_t i = 0; i < perBit.size(); ++i)
      if (r >> i & 1)
        expect = xorSum ? expect ^ perBit[i] : expect + perBit[i];
    if (f(r) != expect)
      return {};
  }
  return perBit;
}

SmallVector<Value> registerCoords(OpBuilder &b, Location loc, const TileInfo &info, Value r) {
  SmallVector<Value> coords;
  size_t rank = info.layout.getNumOutDims();
  for (size_t d = 0; d < rank; ++d) {
    std::vector<int64_t> perBit;
    for (int i = 0; i < info.layout.getInDimSizeLog2("register"); ++i)
      perBit.push_back(info.layout.getBasis("register", i)[d]);
    coords.push_back(bitLinear(b, loc, r, perBit, /*xorSum=*/true));
  }
  return coords;
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
  addBits(info.warpBases, [&] { return warpIdHere(hooks, b, loc); });
  return owner;
}

} // namespace hadron::lowering
