//===- LoweringInternals.cpp - Core's own pieces of the distribute lowering ===//

#include "LoweringInternals.h"

#include "mlir/IR/IRMapping.h"

namespace hadron::lowering {

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


} // namespace hadron::lowering
