//===- SharedAddressing.cpp - Where a tile's elements live in shared memory ===//

#include "LoweringInternals.h"

#include "llvm/Support/MathExtras.h"

namespace hadron::lowering {

std::pair<int64_t, int64_t> SharedAddressing::offsetsOf(const std::vector<int32_t> &c) const {
  int64_t l = 0, s = 0;
  for (size_t d = 0; d < c.size() && d < lin.size(); ++d)
    for (size_t bit = 0; bit < lin[d].size(); ++bit)
      if ((c[d] >> bit) & 1) {
        l ^= lin[d][bit];
        s += stack[d][bit];
      }
  return {l, s};
}

namespace {

/// Inverse of `layout` (offset -> dims) as, per dim and bit, the offset of
/// that coordinate unit vector.
FailureOr<std::vector<std::vector<int64_t>>> inverseBases(const LinearLayout &layout,
                                                          std::string &why) {
  Result<LinearLayout> inv = layout.invert();
  if (!inv) {
    why = "the shared layout is not a bijection between offsets and elements: " + inv.error();
    return failure();
  }
  std::vector<std::string> dims = layout.getOutDimNames();
  std::vector<std::vector<int64_t>> bases(dims.size());
  for (size_t d = 0; d < dims.size(); ++d) {
    for (int bit = 0; bit < inv->getInDimSizeLog2(dims[d]); ++bit)
      bases[d].push_back(inv->getBasis(dims[d], bit).front());
  }
  return bases;
}

} // namespace

FailureOr<SharedAddressing> sharedAddressing(MemDescType type, std::string &why) {
  Result<LinearLayout> layout = toLinearLayout(type);
  if (!layout) {
    why = layout.error();
    return failure();
  }
  auto inv = inverseBases(*layout, why);
  if (failed(inv))
    return failure();
  SharedAddressing addr;
  Type elem = type.getElementType();
  addr.elemBytes = std::max<int64_t>(1, elem.getIntOrFloatBitWidth() / 8);
  addr.subByte = elem.getIntOrFloatBitWidth() < 8;
  ArrayRef<int64_t> alloc = type.getAllocShape();
  ArrayRef<int64_t> view = type.getShape();
  int64_t encRank = type.getEncoding().getRank();
  int64_t allocRank = alloc.size(), viewRank = view.size();
  int64_t stackedRank = allocRank - encRank;
  int64_t tileElems = type.getEncoding().getAllocatedElements(alloc.take_back(encRank));
  if (auto padded = dyn_cast<PaddedSharedLayoutAttr>(type.getEncoding()))
    for (auto [interval, padding] : llvm::zip(padded.getIntervals(), padded.getPaddings()))
      addr.paddings.push_back({int(llvm::Log2_64(interval)), padding});
  // Strides of the stacked dims, in elements.
  std::vector<int64_t> stride(std::max<int64_t>(stackedRank, 0), tileElems);
  for (int64_t a = stackedRank - 2; a >= 0; --a)
    stride[a] = stride[a + 1] * alloc[a + 1];
  addr.lin.resize(viewRank);
  addr.stack.resize(viewRank);
  for (int64_t d = 0; d < viewRank; ++d) {
    int64_t a = allocRank - viewRank + d;
    int bits = llvm::Log2_64_Ceil(std::max<int64_t>(1, view[d]));
    for (int bit = 0; bit < bits; ++bit) {
      if (a < stackedRank) {
        addr.lin[d].push_back(0);
        addr.stack[d].push_back(stride[a] << bit);
      } else {
        addr.lin[d].push_back((*inv)[a - stackedRank][bit]);
        addr.stack[d].push_back(0);
      }
    }
  }
  // Origin bits: any alloc coordinate bit of an encoded dim that the view
  // does not span (dropped dims entirely, sliced dims above their extent).
  for (int64_t a = std::max<int64_t>(stackedRank, 0); a < allocRank; ++a) {
    int64_t d = a - (allocRank - viewRank);
    int64_t extent = d >= 0 ? view[d] : 1;
    int lowBits = llvm::Log2_64_Ceil(std::max<int64_t>(1, extent));
    const auto &bases = (*inv)[a - stackedRank];
    for (int bit = lowBits; bit < int(bases.size()); ++bit)
      addr.originBits |= bases[bit];
  }
  return addr;
}

FailureOr<SharedAddressing> scratchAddressing(const LinearLayout &layout, int64_t elemBytes,
                                              std::string &why) {
  auto inv = inverseBases(layout, why);
  if (failed(inv))
    return failure();
  SharedAddressing addr;
  addr.elemBytes = elemBytes;
  addr.lin = *inv;
  for (auto &dim : addr.lin)
    addr.stack.push_back(std::vector<int64_t>(dim.size(), 0));
  return addr;
}

TileAccess planTileAccess(OpBuilder &b, Location loc, const TileInfo &tile,
                          const SharedAddressing &addr, TargetHooks &hooks,
                          int64_t maxVectorBytes) {
  TileAccess access;
  for (int64_t r = 0; r < tile.numRegs; ++r) {
    auto [l, s] = addr.offsetsOf(tile.regCoords[r]);
    access.regLin.push_back(l);
    access.regStack.push_back(s);
  }
  // Per-thread parts: every lane / warp bit contributes a constant.
  int64_t threadLinBits = 0;
  auto emit = [&](const std::vector<LinearLayout::Basis> &bases, auto getId) {
    Value id;
    for (auto [bit, basis] : llvm::enumerate(bases)) {
      auto [l, s] = addr.offsetsOf(basis);
      if (l == 0 && s == 0)
        continue;
      threadLinBits |= l;
      if (!id)
        id = getId();
      Value set = LLVM::AndOp::create(
          b, loc, LLVM::LShrOp::create(b, loc, id, i32Const(b, loc, bit)), i32Const(b, loc, 1));
      if (l != 0) {
        Value term = LLVM::MulOp::create(b, loc, set, i32Const(b, loc, l));
        access.thrLin =
            access.thrLin ? LLVM::XOrOp::create(b, loc, access.thrLin, term).getResult() : term;
      }
      if (s != 0) {
        Value term = LLVM::MulOp::create(b, loc, set, i32Const(b, loc, s));
        access.thrStack =
            access.thrStack ? LLVM::AddOp::create(b, loc, access.thrStack, term).getResult()
                            : term;
      }
    }
  };
  emit(tile.laneBases, [&] { return hooks.laneId(b, loc); });
  emit(tile.warpBases, [&] { return warpIdHere(hooks, b, loc); });

  // The widest vector: groups of v registers at consecutive offsets that no
  // runtime part (thread, origin, padding) can split.
  int64_t v = addr.subByte ? 1 : std::max<int64_t>(1, maxVectorBytes / addr.elemBytes);
  v = std::min<int64_t>(v, int64_t(1) << llvm::Log2_64(std::max<int64_t>(1, tile.numRegs)));
  auto fits = [&](int64_t v) {
    if (tile.numRegs % v != 0 || ((threadLinBits | addr.originBits) & (v - 1)) != 0)
      return false;
    for (auto [log2Interval, padding] : addr.paddings)
      if ((int64_t(1) << log2Interval) % v != 0 || padding % v != 0)
        return false;
    for (int64_t r = 0; r < tile.numRegs; r += v) {
      if (access.regLin[r] % v != 0)
        return false;
      for (int64_t i = 1; i < v; ++i)
        if (access.regLin[r + i] != (access.regLin[r] | i) ||
            access.regStack[r + i] != access.regStack[r])
          return false;
    }
    return true;
  };
  while (v > 1 && !fits(v))
    v /= 2;
  access.vector = v;
  if (hooks.foldsThreadsIntoRegisters() && tile.numRegs / v >= kMinLoopGroups) {
    access.linBits = linearInRegisterBits(
        tile.numRegs, [&](int64_t r) { return access.regLin[r]; }, /*xorSum=*/true);
    access.stackBits = linearInRegisterBits(
        tile.numRegs, [&](int64_t r) { return access.regStack[r]; }, /*xorSum=*/false);
    access.loop = !access.linBits.empty() && !access.stackBits.empty();
  }
  return access;
}

namespace {

/// The address of the element at offset `lin` (XOR part) plus `stack`
/// (sum part) of a register, both i32 (null for zero), in the view.
Value sharedAddress(OpBuilder &b, Location loc, Type elemType, Value base, Value origin,
                    const TileAccess &access, const SharedAddressing &addr, Value lin,
                    Value stack) {
  Value off = lin ? lin : i32Const(b, loc, 0);
  if (access.thrLin)
    off = LLVM::XOrOp::create(b, loc, off, access.thrLin);
  if (origin)
    off = LLVM::XOrOp::create(b, loc, off, origin);
  if (!addr.paddings.empty()) {
    Value padded = off;
    for (auto [log2Interval, padding] : addr.paddings) {
      Value blocks = LLVM::LShrOp::create(b, loc, off, i32Const(b, loc, log2Interval));
      padded = LLVM::AddOp::create(
          b, loc, padded, LLVM::MulOp::create(b, loc, blocks, i32Const(b, loc, padding)));
    }
    off = padded;
  }
  if (stack)
    off = LLVM::AddOp::create(b, loc, off, stack);
  if (access.thrStack)
    off = LLVM::AddOp::create(b, loc, off, access.thrStack);
  return LLVM::GEPOp::create(b, loc, base.getType(), elemType, base, ValueRange{off});
}

/// The address of the register `r` (i32, at run time) in a loop.
Value loopAddress(OpBuilder &b, Location loc, Type elemType, Value base, Value origin,
                  const TileAccess &access, const SharedAddressing &addr, Value r) {
  return sharedAddress(b, loc, elemType, base, origin, access, addr,
                       bitLinear(b, loc, r, access.linBits, /*xorSum=*/true),
                       bitLinear(b, loc, r, access.stackBits, /*xorSum=*/false));
}

} // namespace

Value sharedElementAddress(OpBuilder &b, Location loc, Type elemType, Value base, Value origin,
                           const TileAccess &access, const SharedAddressing &addr, int64_t r) {
  return sharedAddress(b, loc, elemType, base, origin, access, addr,
                       i32Const(b, loc, access.regLin[r]),
                       access.regStack[r] != 0 ? i32Const(b, loc, access.regStack[r]) : Value());
}

void storeTileToShared(RewriterBase &b, Location loc, Value packed, Value base, Value origin,
                       const TileAccess &access, const SharedAddressing &addr) {
  auto vecType = cast<VectorType>(packed.getType());
  Type elem = vecType.getElementType();
  int64_t v = access.vector;
  if (access.loop) {
    Value buffer = spillTile(b, loc, b.getInsertionBlock()->getParentOp(), packed);
    emitLoop(b, loc, vecType.getNumElements() / v, [&](Value g) {
      Value r = LLVM::MulOp::create(b, loc, g, i32Const(b, loc, v));
      Value ptr = loopAddress(b, loc, elem, base, origin, access, addr, r);
      LLVM::StoreOp::create(b, loc, loadLanes(b, loc, buffer, elem, r, v == 1 ? 0 : v), ptr,
                            v * addr.elemBytes);
    });
    return;
  }
  for (int64_t r = 0; r < vecType.getNumElements(); r += v) {
    Value ptr = sharedElementAddress(b, loc, elem, base, origin, access, addr, r);
    if (v == 1) {
      Value x = LLVM::ExtractElementOp::create(b, loc, packed, i32Const(b, loc, r));
      LLVM::StoreOp::create(b, loc, x, ptr, addr.elemBytes);
      continue;
    }
    SmallVector<int32_t> lanes;
    for (int64_t i = 0; i < v; ++i)
      lanes.push_back(r + i);
    Value part = LLVM::ShuffleVectorOp::create(b, loc, packed, packed, lanes);
    LLVM::StoreOp::create(b, loc, part, ptr, v * addr.elemBytes);
  }
}

Value loadTileFromShared(RewriterBase &b, Location loc, Type vectorType, Value base, Value origin,
                         const TileAccess &access, const SharedAddressing &addr) {
  auto vecType = cast<VectorType>(vectorType);
  Type elem = vecType.getElementType();
  int64_t v = access.vector, n = vecType.getNumElements();
  if (access.loop) {
    Value buffer = stackBuffer(b, b.getInsertionBlock()->getParentOp(), elem, n);
    emitLoop(b, loc, n / v, [&](Value g) {
      Value r = LLVM::MulOp::create(b, loc, g, i32Const(b, loc, v));
      Value ptr = loopAddress(b, loc, elem, base, origin, access, addr, r);
      Type partType = v == 1 ? elem : Type(VectorType::get({v}, elem));
      storeLanes(b, loc, LLVM::LoadOp::create(b, loc, partType, ptr, v * addr.elemBytes), buffer,
                 r);
    });
    return reloadTile(b, loc, buffer, vectorType);
  }
  SmallVector<Value> parts;
  for (int64_t r = 0; r < n; r += v) {
    Value ptr = sharedElementAddress(b, loc, elem, base, origin, access, addr, r);
    Type partType = v == 1 ? elem : Type(VectorType::get({v}, elem));
    parts.push_back(LLVM::LoadOp::create(b, loc, partType, ptr, v * addr.elemBytes));
  }
  if (v == 1)
    return pack(b, loc, vectorType, parts);
  // Join the parts: lane j of the result is lane j % v of part j / v.
  Value result = LLVM::UndefOp::create(b, loc, vectorType);
  for (auto [i, part] : llvm::enumerate(parts)) {
    SmallVector<int32_t> widen(n, -1);
    for (int64_t j = 0; j < v; ++j)
      widen[i * v + j] = j;
    Value wide = LLVM::ShuffleVectorOp::create(b, loc, part, part, widen);
    SmallVector<int32_t> select;
    for (int64_t j = 0; j < n; ++j)
      select.push_back(j / v == int64_t(i) ? n + j : j);
    result = LLVM::ShuffleVectorOp::create(b, loc, result, wide, select);
  }
  return result;
}

} // namespace hadron::lowering
