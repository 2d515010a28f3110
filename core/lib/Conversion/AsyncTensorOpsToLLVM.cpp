//===- AsyncTensorOpsToLLVM.cpp - Barriers and bulk tensor copies ---------===//
//
// hd.mbarrier_init/expect/arrive/wait, hd.async_tensor_copy,
// hd.async_tensor_store(_wait) and hd.fence_async_shared. Every thread of the
// CTA runs them; one thread, the leader (lane 0 of warp 0), does the work
// that happens once per CTA.
//
// A target with a copy engine (TargetHooks::hasTensorCopyEngine) gets the
// leader predicate and the addresses and emits its own barrier instructions,
// and copies, stores and waits for stores with patterns of its own
// (TargetHooks::populateLoweringPatterns).
// Everywhere else they are implemented here:
//  - a barrier's 8 bytes are two i32 words: the arrivals still missing in
//    the current phase, and (expected count << 1) | phase parity. The
//    leader arrives with an atomic subtract; the arrival that completes the
//    phase refills the count and flips the parity. Expected bytes are not
//    counted: copies complete at once;
//  - a wait spins until the parity differs from the awaited one; where a CTA
//    runs as one thread (TargetHooks::foldsThreadsIntoRegisters) a wait
//    that has not completed never will, and fails as an assertion;
//  - a tensor copy is a loop of the leader over the block's elements
//    (zeros outside the tensor), followed by a CTA barrier; a tensor store
//    is the same loop the other way (nothing written outside the tensor),
//    and waiting for stores is a CTA barrier.
//
//===----------------------------------------------------------------------===//

#include "LoweringInternals.h"

#include "llvm/Support/MathExtras.h"

namespace hadron::lowering {

namespace {

Value i64Const(OpBuilder &b, Location loc, int64_t v) {
  return LLVM::ConstantOp::create(b, loc, b.getI64Type(), b.getI64IntegerAttr(v));
}

/// Emits `body` under `cond`: before -> (cond) then -> after.
template <typename Fn>
void emitIf(ConversionPatternRewriter &rewriter, Location loc, Value cond, Fn body) {
  Block *before = rewriter.getInsertionBlock();
  Block *after = rewriter.splitBlock(before, rewriter.getInsertionPoint());
  Block *then = rewriter.createBlock(after);
  rewriter.setInsertionPointToEnd(before);
  LLVM::CondBrOp::create(rewriter, loc, cond, then, after);
  rewriter.setInsertionPointToEnd(then);
  body();
  LLVM::BrOp::create(rewriter, loc, ValueRange{}, after);
  rewriter.setInsertionPointToStart(after);
}

/// The two i32 words of a generic barrier.
std::pair<Value, Value> barrierWords(OpBuilder &b, Location loc, Value barrier) {
  Type i32 = b.getI32Type();
  Value pending = LLVM::GEPOp::create(b, loc, barrier.getType(), i32, barrier,
                                      ArrayRef<LLVM::GEPArg>{0});
  Value state = LLVM::GEPOp::create(b, loc, barrier.getType(), i32, barrier,
                                    ArrayRef<LLVM::GEPArg>{1});
  return {pending, state};
}

void genericArrive(ConversionPatternRewriter &rewriter, Location loc, Value barrier,
                   unsigned count, Value leader) {
  emitIf(rewriter, loc, leader, [&] {
    auto [pendingPtr, statePtr] = barrierWords(rewriter, loc, barrier);
    Value n = i32Const(rewriter, loc, count);
    Value old = LLVM::AtomicRMWOp::create(rewriter, loc, LLVM::AtomicBinOp::sub, pendingPtr, n,
                                          LLVM::AtomicOrdering::acq_rel);
    Value last = LLVM::ICmpOp::create(rewriter, loc, LLVM::ICmpPredicate::eq, old, n);
    emitIf(rewriter, loc, last, [&] {
      Value state = LLVM::LoadOp::create(rewriter, loc, rewriter.getI32Type(), statePtr, 4,
                                         /*isVolatile=*/false, /*isNonTemporal=*/false,
                                         /*isInvariant=*/false, /*isInvariantGroup=*/false,
                                         LLVM::AtomicOrdering::monotonic);
      Value expected = LLVM::LShrOp::create(rewriter, loc, state, i32Const(rewriter, loc, 1));
      LLVM::StoreOp::create(rewriter, loc, expected, pendingPtr, 4, /*isVolatile=*/false,
                            /*isNonTemporal=*/false, /*isInvariantGroup=*/false,
                            LLVM::AtomicOrdering::monotonic);
      LLVM::AtomicRMWOp::create(rewriter, loc, LLVM::AtomicBinOp::_xor, statePtr,
                                i32Const(rewriter, loc, 1), LLVM::AtomicOrdering::release);
    });
  });
}

struct MBarrierInitLowering : TilePattern<MBarrierInitOp> {
  using TilePattern::TilePattern;
  LogicalResult matchAndRewrite(MBarrierInitOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    TargetHooks &hooks = lowering.hooks;
    Value barrier = barrierAddress(rewriter, loc, adaptor.getBarrier());
    Value leader = leaderOf(rewriter, loc, hooks, Value());
    unsigned count = op.getCount();
    if (hooks.hasTensorCopyEngine()) {
      hooks.mbarrierInit(rewriter, loc, barrier, count, leader);
    } else {
      emitIf(rewriter, loc, leader, [&] {
        uint64_t word = (uint64_t(count) << 33) | count;
        LLVM::StoreOp::create(rewriter, loc, i64Const(rewriter, loc, int64_t(word)), barrier, 8);
      });
    }
    // Every thread sees the barrier initialised.
    barrierHere(hooks, rewriter, loc);
    rewriter.eraseOp(op);
    return success();
  }
};

template <typename OpT> struct ArriveLowering : TilePattern<OpT> {
  using TilePattern<OpT>::TilePattern;
  using OpAdaptor = typename TilePattern<OpT>::OpAdaptor;
  LogicalResult matchAndRewrite(OpT op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    TargetHooks &hooks = this->lowering.hooks;
    Value barrier = barrierAddress(rewriter, loc, adaptor.getBarrier());
    Value leader = leaderOf(rewriter, loc, hooks, adaptor.getPred());
    unsigned count = 1;
    int64_t bytes = -1;
    Value rank;
    if constexpr (std::is_same_v<OpT, MBarrierExpectOp>) {
      bytes = op.getBytes();
    } else {
      count = op.getCount();
      // Without clusters the only program of the cluster is this one.
      if (hooks.maxClusterPrograms() > 1)
        rank = adaptor.getRank();
      if (op.getPerWarp()) {
        // Lane 0 of each warp arrives for its warp once the warp's threads
        // are done; where one thread runs the CTA it arrives for them all.
        if (hooks.foldsThreadsIntoRegisters()) {
          count *= warpsHere(rewriter);
        } else {
          hooks.warpBarrier(rewriter, loc);
          Value lane0 = LLVM::ICmpOp::create(rewriter, loc, LLVM::ICmpPredicate::eq,
                                             hooks.laneId(rewriter, loc), i32Const(rewriter, loc, 0));
          leader = adaptor.getPred() ? LLVM::AndOp::create(rewriter, loc, lane0, adaptor.getPred())
                                           .getResult()
                                     : lane0;
        }
      } else {
        // A plain arrival publishes what the whole CTA did before it (a
        // buffer it finished reading, say): every thread gets there
        // first. (An expect only announces bytes of copies that follow it.)
        barrierHere(hooks, rewriter, loc);
      }
    }
    if (hooks.hasTensorCopyEngine())
      hooks.mbarrierArrive(rewriter, loc, barrier, count, bytes, leader, rank);
    else
      genericArrive(rewriter, loc, barrier, count, leader);
    rewriter.eraseOp(op);
    return success();
  }
};

struct MBarrierWaitLowering : TilePattern<MBarrierWaitOp> {
  using TilePattern::TilePattern;
  LogicalResult matchAndRewrite(MBarrierWaitOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    TargetHooks &hooks = lowering.hooks;
    Value barrier = barrierAddress(rewriter, loc, adaptor.getBarrier());
    Value phase = adaptor.getPhase();
    if (hooks.hasTensorCopyEngine()) {
      hooks.mbarrierWait(rewriter, loc, barrier, phase);
      rewriter.eraseOp(op);
      return success();
    }
    Value statePtr = barrierWords(rewriter, loc, barrier).second;
    Value one = i32Const(rewriter, loc, 1);
    Value want = LLVM::AndOp::create(rewriter, loc, phase, one);
    auto completed = [&]() -> Value {
      Value state = LLVM::LoadOp::create(rewriter, loc, rewriter.getI32Type(), statePtr, 4,
                                         /*isVolatile=*/true, /*isNonTemporal=*/false,
                                         /*isInvariant=*/false, /*isInvariantGroup=*/false,
                                         LLVM::AtomicOrdering::acquire);
      Value parity = LLVM::AndOp::create(rewriter, loc, state, one);
      return LLVM::ICmpOp::create(rewriter, loc, LLVM::ICmpPredicate::ne, parity, want);
    };
    if (hooks.foldsThreadsIntoRegisters()) {
      // One thread runs the CTA: nothing else can arrive while it waits.
      hooks.assertTrue(rewriter, loc, completed(),
                       "hd.mbarrier_wait: the awaited phase has not completed and no other "
                       "thread of this CTA can complete it (the target runs a CTA as one "
                       "thread)");
      rewriter.eraseOp(op);
      return success();
    }
    // before -> header <-> header -> after
    Block *before = rewriter.getInsertionBlock();
    Block *after = rewriter.splitBlock(before, rewriter.getInsertionPoint());
    Block *header = rewriter.createBlock(after);
    rewriter.setInsertionPointToEnd(before);
    LLVM::BrOp::create(rewriter, loc, ValueRange{}, header);
    rewriter.setInsertionPointToEnd(header);
    LLVM::CondBrOp::create(rewriter, loc, completed(), after, header);
    rewriter.setInsertionPointToStart(after);
    rewriter.eraseOp(op);
    return success();
  }
};

/// The generic tensor copy, run by one thread: for (i = 0; i < numel; ++i)
/// with `toShared`, tile[coords of i] = in bounds ? global[...] : 0;
/// without, global[...] = tile[coords of i] where in bounds.
void blockLoop(ConversionPatternRewriter &rewriter, Location loc, TargetHooks &hooks, Value desc,
             ValueRange coords, ArrayRef<int64_t> block, Type elem,
             const SharedAddressing &addr, MemDesc dst, bool toShared) {
  const int rank = block.size();
  Type i64 = rewriter.getI64Type(), i32 = rewriter.getI32Type();
  int64_t numel = 1;
  for (int64_t n : block)
    numel *= n;
  Value base = LLVM::IntToPtrOp::create(
      rewriter, loc,
      LLVM::LLVMPointerType::get(rewriter.getContext(), hooks.globalAddressSpace()),
      LLVM::ExtractValueOp::create(rewriter, loc, desc, ArrayRef<int64_t>{0}).getResult());
  SmallVector<Value> shape, strides, start;
  for (int d = 0; d < rank; ++d) {
    shape.push_back(LLVM::ExtractValueOp::create(rewriter, loc, desc, ArrayRef<int64_t>{1, d}));
    strides.push_back(
        LLVM::ExtractValueOp::create(rewriter, loc, desc, ArrayRef<int64_t>{2, d}));
    start.push_back(LLVM::SExtOp::create(rewriter, loc, i64, coords[d]));
  }

  Block *before = rewriter.getInsertionBlock();
  Block *after = rewriter.splitBlock(before, rewriter.getInsertionPoint());
  Block *header = rewriter.createBlock(after, {i32}, {loc});
  Block *body = rewriter.createBlock(after);
  rewriter.setInsertionPointToEnd(before);
  LLVM::BrOp::create(rewriter, loc, ValueRange{i32Const(rewriter, loc, 0)}, header);
  rewriter.setInsertionPointToEnd(header);
  Value i = header->getArgument(0);
  Value more = LLVM::ICmpOp::create(rewriter, loc, LLVM::ICmpPredicate::slt, i,
                                    i32Const(rewriter, loc, numel));
  LLVM::CondBrOp::create(rewriter, loc, more, body, after);

  rewriter.setInsertionPointToEnd(body);
  // Coordinates in the block: dims are powers of two, innermost last.
  Value inBounds, offset = i64Const(rewriter, loc, 0), lin, stack;
  int shift = 0;
  for (int d = rank - 1; d >= 0; --d) {
    int bits = llvm::Log2_64(block[d]);
    Value c = LLVM::AndOp::create(
        rewriter, loc, LLVM::LShrOp::create(rewriter, loc, i, i32Const(rewriter, loc, shift)),
        i32Const(rewriter, loc, block[d] - 1));
    shift += bits;
    // Where it lies in the tensor.
    Value g = LLVM::AddOp::create(rewriter, loc, start[d],
                                  LLVM::ZExtOp::create(rewriter, loc, i64, c));
    Value ok = LLVM::AndOp::create(
        rewriter, loc,
        LLVM::ICmpOp::create(rewriter, loc, LLVM::ICmpPredicate::sge, g,
                             i64Const(rewriter, loc, 0)),
        LLVM::ICmpOp::create(rewriter, loc, LLVM::ICmpPredicate::slt, g, shape[d]));
    inBounds = inBounds ? LLVM::AndOp::create(rewriter, loc, inBounds, ok).getResult() : ok;
    offset = LLVM::AddOp::create(rewriter, loc, offset,
                                 LLVM::MulOp::create(rewriter, loc, g, strides[d]));
    // Where it lands in shared memory.
    for (int bit = 0; bit < bits && bit < int(addr.lin[d].size()); ++bit) {
      int64_t l = addr.lin[d][bit], s = addr.stack[d][bit];
      if (l == 0 && s == 0)
        continue;
      Value set = LLVM::AndOp::create(
          rewriter, loc, LLVM::LShrOp::create(rewriter, loc, c, i32Const(rewriter, loc, bit)),
          i32Const(rewriter, loc, 1));
      if (l) {
        Value term = LLVM::MulOp::create(rewriter, loc, set, i32Const(rewriter, loc, l));
        lin = lin ? LLVM::XOrOp::create(rewriter, loc, lin, term).getResult() : term;
      }
      if (s) {
        Value term = LLVM::MulOp::create(rewriter, loc, set, i32Const(rewriter, loc, s));
        stack = stack ? LLVM::AddOp::create(rewriter, loc, stack, term).getResult() : term;
      }
    }
  }
  Value off = lin ? lin : i32Const(rewriter, loc, 0);
  off = LLVM::XOrOp::create(rewriter, loc, off, dst.origin);
  if (!addr.paddings.empty()) {
    Value padded = off;
    for (auto [log2Interval, padding] : addr.paddings) {
      Value blocks = LLVM::LShrOp::create(rewriter, loc, off, i32Const(rewriter, loc, log2Interval));
      padded = LLVM::AddOp::create(
          rewriter, loc, padded,
          LLVM::MulOp::create(rewriter, loc, blocks, i32Const(rewriter, loc, padding)));
    }
    off = padded;
  }
  if (stack)
    off = LLVM::AddOp::create(rewriter, loc, off, stack);
  Value tile = LLVM::GEPOp::create(rewriter, loc, dst.base.getType(), elem, dst.base,
                                   ValueRange{off});
  if (toShared) {
    // Out of bounds: read the base element (always valid), store zero.
    Value safe =
        LLVM::SelectOp::create(rewriter, loc, inBounds, offset, i64Const(rewriter, loc, 0));
    Value src = LLVM::GEPOp::create(rewriter, loc, base.getType(), elem, base, ValueRange{safe});
    Value v = LLVM::LoadOp::create(rewriter, loc, elem, src, addr.elemBytes);
    Value zero = LLVM::ZeroOp::create(rewriter, loc, elem);
    v = LLVM::SelectOp::create(rewriter, loc, inBounds, v, zero);
    LLVM::StoreOp::create(rewriter, loc, v, tile, addr.elemBytes);
  } else {
    emitIf(rewriter, loc, inBounds, [&] {
      Value v = LLVM::LoadOp::create(rewriter, loc, elem, tile, addr.elemBytes);
      Value to = LLVM::GEPOp::create(rewriter, loc, base.getType(), elem, base, ValueRange{offset});
      LLVM::StoreOp::create(rewriter, loc, v, to, addr.elemBytes);
    });
  }
  Value next = LLVM::AddOp::create(rewriter, loc, i, i32Const(rewriter, loc, 1));
  LLVM::BrOp::create(rewriter, loc, ValueRange{next}, header);
  rewriter.setInsertionPointToStart(after);
}

/// The generic copy or store of a block of `descType` between the
/// descriptor `desc` (lowered) and the tile `tile` (lowered, of `tileType`):
/// blockLoop, run where `leader` is true.
LogicalResult leaderBlockLoop(ConversionPatternRewriter &rewriter, Operation *op,
                              const TypeConverter &converter, TargetHooks &hooks,
                              TensorDescType descType, Value desc, ValueRange coords,
                              MemDescType tileType, Value tile, Value leader, bool toShared) {
  Location loc = op->getLoc();
  std::string why;
  auto addr = sharedAddressing(tileType, why);
  if (failed(addr))
    return op->emitOpError() << why;
  Type elem = converter.convertType(tileType.getElementType());
  SmallVector<int64_t> block(descType.getShape());
  MemDesc lowered = unpackMemDesc(rewriter, loc, tile);
  emitIf(rewriter, loc, leader, [&] {
    blockLoop(rewriter, loc, hooks, desc, coords, block, elem, *addr, lowered, toShared);
  });
  return success();
}

struct AsyncTensorCopyLowering : TilePattern<AsyncTensorCopyOp> {
  using TilePattern::TilePattern;

  LogicalResult matchAndRewrite(AsyncTensorCopyOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    TargetHooks &hooks = lowering.hooks;
    if (hooks.hasTensorCopyEngine())
      return rewriter.notifyMatchFailure(op, "the target's own pattern copies on its engine");
    Value pred = adaptor.getPred();
    if (Value mask = adaptor.getMulticast()) {
      // Without clusters this program is rank 0 of its own: the block lands
      // here where the mask names it, nowhere else.
      Value self = LLVM::ICmpOp::create(
          rewriter, loc, LLVM::ICmpPredicate::ne,
          LLVM::AndOp::create(rewriter, loc, mask, i32Const(rewriter, loc, 1)),
          i32Const(rewriter, loc, 0));
      pred = pred ? LLVM::AndOp::create(rewriter, loc, pred, self).getResult() : self;
    }
    Value leader = leaderOf(rewriter, loc, hooks, pred);
    if (failed(leaderBlockLoop(rewriter, op, *getTypeConverter(), hooks, op.getDesc().getType(),
                               adaptor.getDesc(), adaptor.getCoords(), op.getDst().getType(),
                               adaptor.getDst(), leader, /*toShared=*/true)))
      return failure();
    // The block is visible to the CTA before anyone arrives or waits.
    barrierHere(hooks, rewriter, loc);
    rewriter.eraseOp(op);
    return success();
  }
};

struct AsyncTensorStoreLowering : TilePattern<AsyncTensorStoreOp> {
  using TilePattern::TilePattern;

  LogicalResult matchAndRewrite(AsyncTensorStoreOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    TargetHooks &hooks = lowering.hooks;
    if (hooks.hasTensorCopyEngine())
      return rewriter.notifyMatchFailure(op, "the target's own pattern stores on its engine");
    // What the CTA wrote is what the leader stores, now; the barrier of
    // hd.async_tensor_store_wait keeps the others from overwriting it.
    barrierHere(hooks, rewriter, loc);
    Value leader = leaderOf(rewriter, loc, hooks, Value());
    if (failed(leaderBlockLoop(rewriter, op, *getTypeConverter(), hooks, op.getDesc().getType(),
                               adaptor.getDesc(), adaptor.getCoords(), op.getSrc().getType(),
                               adaptor.getSrc(), leader, /*toShared=*/false)))
      return failure();
    rewriter.eraseOp(op);
    return success();
  }
};

struct AsyncTensorStoreWaitLowering : TilePattern<AsyncTensorStoreWaitOp> {
  using TilePattern::TilePattern;
  LogicalResult matchAndRewrite(AsyncTensorStoreWaitOp op, OpAdaptor,
                                ConversionPatternRewriter &rewriter) const override {
    TargetHooks &hooks = lowering.hooks;
    if (hooks.hasTensorCopyEngine())
      return rewriter.notifyMatchFailure(op, "the target's own pattern waits for its engine");
    // Stores completed when they were made: the tiles may be written again
    // once every thread is past the leader's store.
    barrierHere(hooks, rewriter, op.getLoc());
    rewriter.eraseOp(op);
    return success();
  }
};

struct FenceAsyncSharedLowering : TilePattern<FenceAsyncSharedOp> {
  using TilePattern::TilePattern;
  LogicalResult matchAndRewrite(FenceAsyncSharedOp op, OpAdaptor,
                                ConversionPatternRewriter &rewriter) const override {
    lowering.hooks.fenceAsyncShared(rewriter, op.getLoc());
    rewriter.eraseOp(op);
    return success();
  }
};

/// hd.cluster_barrier: the target's, or a CTA barrier where a cluster is
/// one program.
struct ClusterBarrierLowering : TilePattern<ClusterBarrierOp> {
  using TilePattern::TilePattern;
  LogicalResult matchAndRewrite(ClusterBarrierOp op, OpAdaptor,
                                ConversionPatternRewriter &rewriter) const override {
    if (lowering.hooks.maxClusterPrograms() > 1)
      lowering.hooks.clusterBarrier(rewriter, op.getLoc());
    else
      barrierHere(lowering.hooks, rewriter, op.getLoc());
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

void populateAsyncTensorPatterns(TileTypeConverter &converter, Lowering &lowering,
                                 RewritePatternSet &patterns) {
  patterns.add<MBarrierInitLowering, ArriveLowering<MBarrierExpectOp>,
               ArriveLowering<MBarrierArriveOp>, MBarrierWaitLowering, AsyncTensorCopyLowering,
               AsyncTensorStoreLowering, AsyncTensorStoreWaitLowering, FenceAsyncSharedLowering,
               ClusterBarrierLowering>(
      converter, lowering);
}

} // namespace hadron::lowering
