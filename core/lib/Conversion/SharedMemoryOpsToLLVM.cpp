//===- SharedMemoryOpsToLLVM.cpp - local_*, memdesc views, async copies ---===//
//
// A memdesc lowers to {ptr base, i32 origin} (TypeConverter.h); its tiles
// are read and written through SharedAddressing.h. The same addressing
// serves the scratch buffers of convert_layout, reduce and scan when
// elements move between threads (convertThroughScratch, below).
//
//===----------------------------------------------------------------------===//

#include "LoweringInternals.h"

#include "hadron/Layout/LayoutFactories.h"

#include "llvm/Support/MathExtras.h"

#include <set>

namespace hadron::lowering {

FailureOr<Value> sharedBufferOf(OpBuilder &b, Operation *op, TargetHooks &hooks) {
  auto offset = op->getAttrOfType<IntegerAttr>(kSharedOffsetAttr);
  if (!offset) {
    op->emitOpError() << "has no shared memory planned for it (attribute " << kSharedOffsetAttr
                      << "); run the shared-memory allocator (hd-allocate-shared-memory) "
                         "before lowering";
    return failure();
  }
  Location loc = op->getLoc();
  Value base = hooks.sharedMemoryBase(b, loc);
  if (offset.getInt() == 0)
    return base;
  return LLVM::GEPOp::create(b, loc, base.getType(), b.getI8Type(), base,
                             ValueRange{i32Const(b, loc, offset.getInt())})
      .getResult();
}

//===----------------------------------------------------------------------===//
// Scratch round trips
//===----------------------------------------------------------------------===//

namespace {

/// Cycles of one phase (stores of `tile` or loads into it) with a scratch
/// layout on `banks` (TargetHooks::SharedMemoryBanks): for every vector
/// access, the largest number of distinct words lanes of warp 0 touch in
/// one bank, or the cycles its size needs if more, summed. 0 without banks.
int64_t bankConflicts(const TileInfo &tile, const SharedAddressing &addr, int64_t vector,
                      TargetHooks::SharedMemoryBanks banks) {
  if (banks.count == 0)
    return 0;
  const int64_t bankBytes = banks.bytes, lineBytes = int64_t(banks.count) * banks.bytes;
  int64_t total = 0;
  int lanes = tile.laneBases.size();
  for (int64_t r = 0; r < tile.numRegs; r += vector) {
    std::map<int64_t, std::set<int64_t>> words;
    for (int64_t lane = 0; lane < (int64_t(1) << lanes); ++lane) {
      std::vector<int32_t> c = tile.regCoords[r];
      for (int bit = 0; bit < lanes; ++bit)
        if ((lane >> bit) & 1)
          for (size_t d = 0; d < c.size(); ++d)
            c[d] ^= tile.laneBases[bit][d];
      int64_t bytes = addr.offsetsOf(c).first * addr.elemBytes;
      for (int64_t w = bytes / bankBytes; w <= (bytes + vector * addr.elemBytes - 1) / bankBytes;
           ++w)
        words[w % banks.count].insert(w);
    }
    size_t worst = 1;
    for (auto &[bank, set] : words)
      worst = std::max(worst, set.size());
    // All banks serve one line of count * bytes a cycle, at best.
    int64_t lines =
        std::max<int64_t>(1, ((int64_t(1) << lanes) * vector * addr.elemBytes) / lineBytes);
    total += std::max<int64_t>(int64_t(worst), lines);
  }
  return total;
}

int64_t contiguousRegs(const TileInfo &tile, int dim) {
  const LinearLayout &ll = tile.layout;
  int64_t k = 0;
  while (k < ll.getInDimSizeLog2("register")) {
    const auto &basis = ll.getBasis("register", k);
    bool ok = basis[dim] == (1 << k);
    for (size_t d = 0; d < basis.size(); ++d)
      ok &= int(d) == dim || basis[d] == 0;
    if (!ok)
      break;
    ++k;
  }
  return int64_t(1) << k;
}

} // namespace

LinearLayout chooseScratchLayout(ArrayRef<int64_t> shape, const TileInfo &src,
                                 const TileInfo &dst, int64_t elemBytes,
                                 TargetHooks::SharedMemoryBanks banks, int64_t maxVectorBytes) {
  std::vector<int32_t> shape32(shape.begin(), shape.end());
  int rank = shape.size();
  // Rows run along the dim the reader holds contiguously (its register 0
  // basis), so that its loads vectorise; the swizzle then spreads the
  // writer's accesses over the banks.
  int fast = rank - 1;
  if (dst.layout.getInDimSizeLog2("register") > 0) {
    const auto &basis = dst.layout.getBasis("register", 0);
    for (int d = 0; d < rank; ++d)
      if (basis[d] == 1)
        fast = d;
  }
  std::vector<int32_t> order{fast};
  for (int d = rank - 1; d >= 0; --d)
    if (d != fast)
      order.push_back(d);
  auto unswizzled = [&] {
    return std::move(swizzledSharedLayout(shape32, 1, 1, 1, order)).value();
  };
  if (rank < 2)
    return unswizzled();
  int64_t cols = shape[fast];
  int64_t maxVec = std::max<int64_t>(1, maxVectorBytes / elemBytes);
  int64_t vec = std::min(maxVec, std::min(contiguousRegs(dst, fast), cols));
  // Phases past the vectors of one line of banks keep every vector in its
  // bank; the search also stops at one phase per bank.
  int64_t phases = std::max<int64_t>(
      1, std::min<int64_t>(banks.count, int64_t(banks.count) * banks.bytes / (vec * elemBytes)));
  LinearLayout best = unswizzled();
  int64_t bestCost = -1;
  for (int64_t perPhase = 1; perPhase <= 8; perPhase *= 2) {
    for (int64_t maxPhase = perPhase == 1 ? 1 : 2; maxPhase * vec <= cols && maxPhase <= phases; maxPhase *= 2) {
      Result<LinearLayout> candidate =
          swizzledSharedLayout(shape32, vec, perPhase, maxPhase, order);
      if (!candidate)
        continue;
      std::string why;
      auto addr = scratchAddressing(*candidate, elemBytes, why);
      if (failed(addr))
        continue;
      int64_t cost = bankConflicts(src, *addr, 1, banks) + bankConflicts(dst, *addr, vec, banks);
      if (bestCost < 0 || cost < bestCost) {
        bestCost = cost;
        best = *candidate;
      }
    }
  }
  return best;
}

Value convertThroughScratch(RewriterBase &b, Location loc, Value packed, ArrayRef<int64_t> shape,
                            Type elemType, const TileInfo &src, const TileInfo &dst,
                            Type dstType, Value scratch, TargetHooks &hooks, int64_t warpSize) {
  // Booleans travel as bytes: a vector of i1 is stored bit-packed.
  if (elemType.isInteger(1)) {
    Type i8 = b.getI8Type();
    auto srcVec = cast<VectorType>(packed.getType());
    Value wide = LLVM::ZExtOp::create(b, loc, VectorType::get(srcVec.getShape(), i8), packed);
    Value moved = convertThroughScratch(b, loc, wide, shape, i8, src, dst,
                                        VectorType::get(cast<VectorType>(dstType).getShape(), i8),
                                        scratch, hooks, warpSize);
    return LLVM::TruncOp::create(b, loc, dstType, moved);
  }
  int64_t elemBytes = std::max<int64_t>(1, elemType.getIntOrFloatBitWidth() / 8);
  const int64_t vectorBytes = sharedVectorBytes(hooks);
  LinearLayout layout =
      chooseScratchLayout(shape, src, dst, elemBytes, hooks.sharedMemoryBanks(), vectorBytes);
  std::string why;
  SharedAddressing addr = *scratchAddressing(layout, elemBytes, why);
  TileAccess store = planTileAccess(b, loc, src, addr, hooks, vectorBytes);
  TileAccess load = planTileAccess(b, loc, dst, addr, hooks, vectorBytes);
  // Earlier readers of the scratch buffer are done before it is rewritten,
  // and every element is written before any is read.
  barrierHere(hooks, b, loc);
  storeTileToShared(b, loc, packed, scratch, Value(), store, addr);
  barrierHere(hooks, b, loc);
  return loadTileFromShared(b, loc, dstType, scratch, Value(), load, addr);
}

//===----------------------------------------------------------------------===//
// Patterns
//===----------------------------------------------------------------------===//

namespace {

/// Writes `packed` (a lowered tile of `tileType`) into the view `desc` of
/// `memType`.
LogicalResult storeTile(RewriterBase &b, Operation *op, Lowering &lowering, Value packed,
                        RankedTensorType tileType, MemDescType memType, MemDesc desc) {
  std::string why;
  const TileInfo *info = lowering.tiles.get(tileType, &why);
  auto addr = sharedAddressing(memType, why);
  if (!info || failed(addr))
    return op->emitOpError() << "cannot be lowered: " << why;
  TileAccess access = planTileAccess(b, op->getLoc(), *info, *addr, lowering.hooks,
                                     sharedVectorBytes(lowering.hooks));
  storeTileToShared(b, op->getLoc(), packed, desc.base, desc.origin, access, *addr);
  return success();
}

struct LocalAllocLowering : TilePattern<LocalAllocOp> {
  using TilePattern::TilePattern;
  LogicalResult matchAndRewrite(LocalAllocOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    FailureOr<Value> base = sharedBufferOf(rewriter, op, lowering.hooks);
    if (failed(base))
      return failure();
    MemDesc desc{*base, i32Const(rewriter, loc, 0)};
    if (adaptor.getSrc() &&
        failed(storeTile(rewriter, op, lowering, adaptor.getSrc(),
                         cast<RankedTensorType>(op.getSrc().getType()), op.getType(), desc)))
      return failure();
    rewriter.replaceOp(op, packMemDesc(rewriter, loc, getTypeConverter()->convertType(op.getType()),
                                       desc));
    return success();
  }
};

struct LocalDeallocLowering : TilePattern<LocalDeallocOp> {
  using TilePattern::TilePattern;
  LogicalResult matchAndRewrite(LocalDeallocOp op, OpAdaptor,
                                ConversionPatternRewriter &rewriter) const override {
    rewriter.eraseOp(op); // the allocator already ended the buffer's lifetime here
    return success();
  }
};

struct LocalStoreLowering : TilePattern<LocalStoreOp> {
  using TilePattern::TilePattern;
  LogicalResult matchAndRewrite(LocalStoreOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    MemDesc desc = unpackMemDesc(rewriter, op.getLoc(), adaptor.getDst());
    if (failed(storeTile(rewriter, op, lowering, adaptor.getValue(), op.getValue().getType(),
                         op.getDst().getType(), desc)))
      return failure();
    rewriter.eraseOp(op);
    return success();
  }
};

/// A tile of 16-bit elements whose layout gives every warp 8x8 matrices the
/// way the target's matrix load (TargetHooks::loadMatrices) delivers them:
/// register bit 0 and lane bits 0, 1 step 1, 2, 4 along one dim, lane bits
/// 2..4 along the other, and the shared layout keeps rows of 8 elements
/// contiguous and 16-byte aligned. Each load serves matrixLoadCount()
/// register pairs; lanes 8q..8q+7 pass the rows of the q-th. Null when the
/// tile does not have that shape.
Value loadTileAsMatrices(OpBuilder &b, Location loc, const TileInfo &info,
                         const SharedAddressing &addr, Type vectorType, MemDesc desc,
                         TargetHooks &hooks) {
  const unsigned perLoad = hooks.matrixLoadCount();
  const LinearLayout &ll = info.layout;
  if (perLoad == 0 || !llvm::isPowerOf2_32(perLoad) || perLoad > 4 || addr.elemBytes != 2 ||
      addr.subByte || !addr.paddings.empty() || ll.getNumOutDims() != 2 ||
      info.laneBases.size() != 5 || info.numRegs % (2 * perLoad) != 0)
    return {};
  // c: the dim whose first 8 elements are consecutive in memory; o: the other.
  int c = -1;
  for (int d = 0; d < 2; ++d)
    if (addr.lin[d].size() >= 3 && addr.lin[d][0] == 1 && addr.lin[d][1] == 2 &&
        addr.lin[d][2] == 4)
      c = d;
  if (c < 0 || addr.lin[1 - c].size() < 3 || (addr.originBits & 7))
    return {};
  const int o = 1 - c;
  for (int d = 0; d < 2; ++d)
    for (size_t bit = 0; bit < addr.lin[d].size(); ++bit)
      if ((d != c || bit >= 3) && (addr.lin[d][bit] & 7))
        return {};
  for (const auto &dim : addr.stack)
    for (int64_t s : dim)
      if (s != 0)
        return {};
  auto unit = [](int d, int32_t v) {
    LinearLayout::Basis basis(2, 0);
    basis[d] = v;
    return basis;
  };
  const auto &lanes = info.laneBases;
  auto fragmentAlong = [&](int pairs, int rows) {
    return ll.getBasis("register", 0) == unit(pairs, 1) && lanes[0] == unit(pairs, 2) &&
           lanes[1] == unit(pairs, 4) && lanes[2] == unit(rows, 1) && lanes[3] == unit(rows, 2) &&
           lanes[4] == unit(rows, 4);
  };
  bool transpose;
  if (fragmentAlong(c, o))
    transpose = false;
  else if (fragmentAlong(o, c))
    transpose = true;
  else
    return {};
  // Every other basis moves whole 8x8 blocks.
  auto blockAligned = [](const LinearLayout::Basis &basis) {
    return (basis[0] & 7) == 0 && (basis[1] & 7) == 0;
  };
  for (int i = 1; i < ll.getInDimSizeLog2("register"); ++i)
    if (!blockAligned(ll.getBasis("register", i)))
      return {};
  for (const auto &basis : info.warpBases)
    if (!blockAligned(basis))
      return {};
  auto linOf = [&](const LinearLayout::Basis &coord) { return addr.offsetsOf(coord).first; };
  // The row this lane passes: row lane % 8 of the matrix of register pair
  // lane / 8 (register bits 1.. pick it), in this warp.
  Value lane = hooks.laneId(b, loc), warp = warpIdHere(hooks, b, loc);
  Value rowLin = i32Const(b, loc, 0);
  auto addBit = [&](Value id, int bit, int64_t lin) {
    if (lin == 0)
      return;
    Value set = LLVM::AndOp::create(b, loc, LLVM::LShrOp::create(b, loc, id, i32Const(b, loc, bit)),
                                    i32Const(b, loc, 1));
    rowLin = LLVM::XOrOp::create(b, loc, rowLin,
                                 LLVM::MulOp::create(b, loc, set, i32Const(b, loc, lin)));
  };
  for (int bit = 0; bit < 3; ++bit)
    addBit(lane, bit, linOf(unit(o, 1 << bit)));
  for (int bit = 0; (1u << bit) < perLoad; ++bit)
    addBit(lane, 3 + bit, linOf(ll.getBasis("register", 1 + bit)));
  for (auto [bit, basis] : llvm::enumerate(info.warpBases))
    addBit(warp, int(bit), linOf(basis));
  if (desc.origin)
    rowLin = LLVM::XOrOp::create(b, loc, rowLin, desc.origin);
  auto vecType = cast<VectorType>(vectorType);
  Type elem = vecType.getElementType();
  auto pairType = VectorType::get({2}, elem);
  SmallVector<Value> regs(info.numRegs);
  for (int64_t r0 = 0; r0 < info.numRegs; r0 += 2 * perLoad) {
    Value off = LLVM::XOrOp::create(b, loc, rowLin, i32Const(b, loc, linOf(info.regCoords[r0])));
    Value row = LLVM::GEPOp::create(b, loc, desc.base.getType(), elem, desc.base, ValueRange{off});
    SmallVector<Value> words = hooks.loadMatrices(b, loc, row, transpose);
    if (words.size() != perLoad)
      return {};
    for (unsigned q = 0; q < perLoad; ++q) {
      Value pair = LLVM::BitcastOp::create(b, loc, pairType, words[q]);
      for (int i = 0; i < 2; ++i)
        regs[r0 + 2 * q + i] = LLVM::ExtractElementOp::create(b, loc, pair, i32Const(b, loc, i));
    }
  }
  return pack(b, loc, vectorType, regs);
}

} // namespace

FailureOr<Value> loadSharedTile(RewriterBase &b, Location loc, Lowering &lowering,
                                const TypeConverter &converter, Value loweredMemDesc,
                                MemDescType memType, RankedTensorType tileType,
                                std::string &why) {
  const TileInfo *info = lowering.tiles.get(tileType, &why);
  auto addr = sharedAddressing(memType, why);
  Type type = converter.convertType(tileType);
  if (!info || failed(addr))
    return failure();
  if (!type) {
    why = "no register type for the tile";
    return failure();
  }
  MemDesc desc = unpackMemDesc(b, loc, loweredMemDesc);
  if (!lowering.tiles.foldsThreads())
    if (Value v = loadTileAsMatrices(b, loc, *info, *addr, type, desc, lowering.hooks))
      return v;
  TileAccess access = planTileAccess(b, loc, *info, *addr, lowering.hooks,
                                     sharedVectorBytes(lowering.hooks));
  return loadTileFromShared(b, loc, type, desc.base, desc.origin, access, *addr);
}

namespace {

struct LocalLoadLowering : TilePattern<LocalLoadOp> {
  using TilePattern::TilePattern;
  LogicalResult matchAndRewrite(LocalLoadOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    std::string why;
    FailureOr<Value> v = loadSharedTile(rewriter, op.getLoc(), lowering, *getTypeConverter(),
                                        adaptor.getSrc(), op.getSrc().getType(), op.getType(),
                                        why);
    if (failed(v))
      return op->emitOpError() << "cannot be lowered: " << why;
    rewriter.replaceOp(op, *v);
    return success();
  }
};

struct MemDescSliceLowering : TilePattern<MemDescSliceOp> {
  using TilePattern::TilePattern;
  LogicalResult matchAndRewrite(MemDescSliceOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    std::string why;
    // The offsets are coordinates of the source view: its addressing places them.
    auto addr = sharedAddressing(op.getSrc().getType(), why);
    if (failed(addr))
      return op->emitOpError() << "cannot be lowered: " << why;
    std::vector<int32_t> origin(op.getOffsets().begin(), op.getOffsets().end());
    auto [l, s] = addr->offsetsOf(origin);
    MemDesc desc = unpackMemDesc(rewriter, loc, adaptor.getSrc());
    if (l != 0)
      desc.origin = LLVM::XOrOp::create(rewriter, loc, desc.origin, i32Const(rewriter, loc, l));
    if (s != 0)
      desc.base = LLVM::GEPOp::create(rewriter, loc, desc.base.getType(),
                                      getTypeConverter()->convertType(op.getType().getElementType()),
                                      desc.base, ValueRange{i32Const(rewriter, loc, s)});
    rewriter.replaceOp(op, packMemDesc(rewriter, loc, getTypeConverter()->convertType(op.getType()),
                                       desc));
    return success();
  }
};

struct MemDescIndexLowering : TilePattern<MemDescIndexOp> {
  using TilePattern::TilePattern;
  LogicalResult matchAndRewrite(MemDescIndexOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    std::string why;
    auto addr = sharedAddressing(op.getSrc().getType(), why);
    if (failed(addr))
      return op->emitOpError() << "cannot be lowered: " << why;
    MemDesc desc = unpackMemDesc(rewriter, loc, adaptor.getSrc());
    Value index = adaptor.getIndex();
    Value lin, stack;
    // Bit by bit of the (dynamic) index along the leading view dim.
    for (size_t bit = 0; bit < addr->lin[0].size(); ++bit) {
      Value set = LLVM::AndOp::create(
          rewriter, loc, LLVM::LShrOp::create(rewriter, loc, index, i32Const(rewriter, loc, bit)),
          i32Const(rewriter, loc, 1));
      if (int64_t l = addr->lin[0][bit]) {
        Value term = LLVM::MulOp::create(rewriter, loc, set, i32Const(rewriter, loc, l));
        lin = lin ? LLVM::XOrOp::create(rewriter, loc, lin, term).getResult() : term;
      }
      if (int64_t s = addr->stack[0][bit]) {
        Value term = LLVM::MulOp::create(rewriter, loc, set, i32Const(rewriter, loc, s));
        stack = stack ? LLVM::AddOp::create(rewriter, loc, stack, term).getResult() : term;
      }
    }
    if (lin)
      desc.origin = LLVM::XOrOp::create(rewriter, loc, desc.origin, lin);
    if (stack)
      desc.base = LLVM::GEPOp::create(rewriter, loc, desc.base.getType(),
                                      getTypeConverter()->convertType(op.getType().getElementType()),
                                      desc.base, ValueRange{stack});
    rewriter.replaceOp(op, packMemDesc(rewriter, loc, getTypeConverter()->convertType(op.getType()),
                                       desc));
    return success();
  }
};

/// Another tile over a whole allocation: its base, and no XOR offset.
struct MemDescReinterpretLowering : TilePattern<MemDescReinterpretOp> {
  using TilePattern::TilePattern;
  LogicalResult matchAndRewrite(MemDescReinterpretOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MemDesc desc = unpackMemDesc(rewriter, loc, adaptor.getSrc());
    desc.origin = i32Const(rewriter, loc, 0);
    rewriter.replaceOp(op, packMemDesc(rewriter, loc, getTypeConverter()->convertType(op.getType()),
                                       desc));
    return success();
  }
};

/// A permuted view keeps base and origin; its type must describe the same
/// memory with the dims permuted, which is checked here on the offsets of
/// every coordinate basis.
struct MemDescPermuteLowering : TilePattern<MemDescPermuteOp> {
  using TilePattern::TilePattern;
  LogicalResult matchAndRewrite(MemDescPermuteOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    std::string why;
    auto src = sharedAddressing(op.getSrc().getType(), why);
    auto dst = sharedAddressing(op.getType(), why);
    if (failed(src) || failed(dst))
      return op->emitOpError() << "cannot be lowered: " << why;
    ArrayRef<int32_t> order = op.getOrder();
    bool same = dst->paddings == src->paddings;
    for (size_t d = 0; same && d < order.size(); ++d)
      same = dst->lin[d] == src->lin[order[d]] && dst->stack[d] == src->stack[order[d]];
    if (!same)
      return op->emitOpError()
             << "result " << op.getType() << " does not describe the memory of " << op.getSrc().getType()
             << " with its dimensions permuted by [" << order
             << "]: give the result the permuted layout and allocation shape";
    rewriter.replaceOp(op, adaptor.getSrc());
    return success();
  }
};

struct BarrierLowering : TilePattern<BarrierOp> {
  using TilePattern::TilePattern;
  LogicalResult matchAndRewrite(BarrierOp op, OpAdaptor,
                                ConversionPatternRewriter &rewriter) const override {
    barrierHere(lowering.hooks, rewriter, op.getLoc());
    rewriter.eraseOp(op);
    return success();
  }
};

/// The dim register 0 of `info` steps along by one element, or -1.
int fastDim(const TileInfo &info) {
  const LinearLayout &ll = info.layout;
  if (ll.getInDimSizeLog2("register") == 0)
    return -1;
  const LinearLayout::Basis &first = ll.getBasis("register", 0);
  int fast = -1;
  for (size_t d = 0; d < first.size(); ++d)
    if (first[d] != 0)
      fast = fast < 0 && first[d] == 1 ? int(d) : -2;
  return fast < 0 ? -1 : fast;
}

/// Where the target copies asynchronously (TargetHooks::asyncCopyBytes),
/// each group of registers contiguous in global and in shared memory is one
/// copy of 4..asyncCopyBytes() bytes; a mask must be constant over a group
/// (it zero-fills the group). Elsewhere, and for an `other` value or groups
/// under 4 bytes, the copy happens at once: a masked global load of the
/// view's tile, then a store into shared memory. Tokens are plain integers.
struct AsyncCopyLowering : TilePattern<AsyncCopyOp> {
  using TilePattern::TilePattern;

  /// The copy as the target's asynchronous copies; failure (nothing
  /// emitted) where they cannot express it.
  LogicalResult lowerAsync(AsyncCopyOp op, OpAdaptor adaptor,
                           ConversionPatternRewriter &rewriter) const {
    Location loc = op.getLoc();
    const int64_t maxBytes = lowering.hooks.asyncCopyBytes();
    auto ptrType = cast<RankedTensorType>(op.getPtr().getType());
    Type elem = getTypeConverter()->convertType(
        cast<PointerType>(ptrType.getElementType()).getPointeeType());
    const TileInfo *info = tile(ptrType);
    if (maxBytes < 4 || op.getOther() || !info || !elem || !elem.isIntOrFloat())
      return failure();
    std::string why;
    auto addr = sharedAddressing(op.getDst().getType(), why);
    int fast = fastDim(*info);
    if (failed(addr) || addr->subByte || fast < 0)
      return failure();
    const int64_t elemBytes = std::max(1u, elem.getIntOrFloatBitWidth() / 8);
    // Registers contiguous in global memory (and aligned), in shared memory,
    // and under one mask value.
    AccessPlan global = planAccess(*info, lowering.axis.get(op.getPtr()), elemBytes, maxBytes,
                                   /*needsAlignment=*/true);
    int64_t v = global.vector;
    if (op.getMask())
      v = std::min<int64_t>(v, lowering.axis.get(op.getMask()).constancy[fast]);
    if (v * elemBytes < 4)
      return failure();
    TileAccess access = planTileAccess(rewriter, loc, *info, *addr, lowering.hooks, maxBytes);
    v = int64_t(1) << llvm::Log2_64(std::max<int64_t>(1, std::min(v, access.vector)));
    if (v * elemBytes < 4)
      return failure();
    MemDesc desc = unpackMemDesc(rewriter, loc, adaptor.getDst());
    for (int64_t r = 0; r < info->numRegs; r += v) {
      Value globalPtr = LLVM::ExtractElementOp::create(rewriter, loc, adaptor.getPtr(),
                                                       i32Const(rewriter, loc, r));
      Value shared =
          sharedElementAddress(rewriter, loc, elem, desc.base, desc.origin, access, *addr, r);
      Value valid = adaptor.getMask()
                        ? LLVM::ExtractElementOp::create(rewriter, loc, adaptor.getMask(),
                                                         i32Const(rewriter, loc, r))
                              .getResult()
                        : Value();
      lowering.hooks.asyncCopy(rewriter, loc, shared, globalPtr, unsigned(v * elemBytes), valid);
    }
    rewriter.replaceOp(op, i32Const(rewriter, loc, 0));
    return success();
  }

  LogicalResult matchAndRewrite(AsyncCopyOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    if (succeeded(lowerAsync(op, adaptor, rewriter)))
      return success();
    Location loc = op.getLoc();
    auto ptrType = cast<RankedTensorType>(op.getPtr().getType());
    Type elem = cast<PointerType>(ptrType.getElementType()).getPointeeType();
    auto tileType = RankedTensorType::get(ptrType.getShape(), elem, ptrType.getEncoding());
    Type packedType = getTypeConverter()->convertType(tileType);
    if (!packedType)
      return failure();
    // The element loads: a load op built on the lowered operands would need
    // a second conversion; emit the gather directly.
    auto vecType = cast<VectorType>(packedType);
    int64_t elemBytes = std::max<int64_t>(1, vecType.getElementType().getIntOrFloatBitWidth() / 8);
    Value mask = adaptor.getMask();
    Value passthru = adaptor.getOther();
    if (!passthru)
      passthru = LLVM::ZeroOp::create(rewriter, loc, vecType);
    if (!mask) {
      auto i1Vec = VectorType::get({vecType.getNumElements()}, rewriter.getI1Type());
      mask = LLVM::ConstantOp::create(rewriter, loc, i1Vec, SplatElementsAttr::get(i1Vec, true));
    }
    Value value = LLVM::masked_gather::create(
        rewriter, loc, vecType, ValueRange{adaptor.getPtr(), mask, passthru},
        ArrayRef<NamedAttribute>{
            rewriter.getNamedAttr("alignment", rewriter.getI32IntegerAttr(elemBytes))});
    MemDesc desc = unpackMemDesc(rewriter, loc, adaptor.getDst());
    if (failed(storeTile(rewriter, op, lowering, value, tileType, op.getDst().getType(), desc)))
      return failure();
    rewriter.replaceOp(op, i32Const(rewriter, loc, 0));
    return success();
  }
};

/// Commit and wait order this thread's asynchronous copies (nothing where
/// copies complete at once); their tokens are plain integers.
struct AsyncCommitGroupLowering : TilePattern<AsyncCommitGroupOp> {
  using TilePattern::TilePattern;
  LogicalResult matchAndRewrite(AsyncCommitGroupOp op, OpAdaptor,
                                ConversionPatternRewriter &rewriter) const override {
    lowering.hooks.asyncCommitGroup(rewriter, op.getLoc());
    rewriter.replaceOp(op, i32Const(rewriter, op.getLoc(), 0));
    return success();
  }
};

struct AsyncWaitLowering : TilePattern<AsyncWaitOp> {
  using TilePattern::TilePattern;
  LogicalResult matchAndRewrite(AsyncWaitOp op, OpAdaptor,
                                ConversionPatternRewriter &rewriter) const override {
    lowering.hooks.asyncWait(rewriter, op.getLoc(), op.getPending());
    rewriter.replaceOp(op, i32Const(rewriter, op.getLoc(), 0));
    return success();
  }
};

} // namespace

void populateSharedMemoryPatterns(TileTypeConverter &converter, Lowering &lowering,
                                  RewritePatternSet &patterns) {
  patterns.add<LocalAllocLowering, LocalDeallocLowering, LocalStoreLowering, LocalLoadLowering,
               MemDescSliceLowering, MemDescIndexLowering, MemDescPermuteLowering, MemDescReinterpretLowering,
               BarrierLowering, AsyncCopyLowering, AsyncCommitGroupLowering,
               AsyncWaitLowering>(converter, lowering);
}

} // namespace hadron::lowering
