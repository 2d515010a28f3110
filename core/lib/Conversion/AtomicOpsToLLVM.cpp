//===- AtomicOpsToLLVM.cpp - atomic_rmw and atomic_cas --------------------===//
//
// One LLVM atomic per element. LLVM atomics cannot be masked, so a
// masked-off element, or a replica held by a thread that does not own the
// element, operates on a sink slot in the pointer's address space instead:
// branch-free, and the global memory sees each element's update exactly
// once. A scalar atomic runs in thread 0 of the program only; where its
// result is used, thread 0 passes it to the others through the op's
// scratch buffer (16 bytes the shared-memory allocator plans).
//
//===----------------------------------------------------------------------===//

#include "LoweringInternals.h"

namespace hadron::lowering {
namespace {

LLVM::AtomicOrdering ordering(MemSemantic sem) {
  switch (sem) {
  case MemSemantic::relaxed:
    return LLVM::AtomicOrdering::monotonic;
  case MemSemantic::acquire:
    return LLVM::AtomicOrdering::acquire;
  case MemSemantic::release:
    return LLVM::AtomicOrdering::release;
  case MemSemantic::acq_rel:
    return LLVM::AtomicOrdering::acq_rel;
  }
  return LLVM::AtomicOrdering::acq_rel;
}

/// Where the target orders atomics by fences (atomicOrderingByFences): the
/// fence before an atomic of semantics `sem` (release, acq_rel), or after
/// it (acquire, acq_rel), at the atomic's scope; and the ordering the
/// atomic itself then gets (relaxed). Elsewhere nothing, and `sem`'s.
LLVM::AtomicOrdering orderAround(OpBuilder &b, Location loc, TargetHooks &hooks, MemSemantic sem,
                                 StringRef scope, bool after) {
  if (!hooks.atomicOrderingByFences())
    return ordering(sem);
  bool wanted = after ? (sem == MemSemantic::acquire || sem == MemSemantic::acq_rel)
                      : (sem == MemSemantic::release || sem == MemSemantic::acq_rel);
  if (wanted)
    LLVM::FenceOp::create(b, loc, LLVM::AtomicOrdering::acq_rel, scope);
  return LLVM::AtomicOrdering::monotonic;
}

LLVM::AtomicBinOp binOp(AtomicRMWKind kind) {
  switch (kind) {
  case AtomicRMWKind::add:
    return LLVM::AtomicBinOp::add;
  case AtomicRMWKind::fadd:
    return LLVM::AtomicBinOp::fadd;
  case AtomicRMWKind::max:
    return LLVM::AtomicBinOp::max;
  case AtomicRMWKind::min:
    return LLVM::AtomicBinOp::min;
  case AtomicRMWKind::umax:
    return LLVM::AtomicBinOp::umax;
  case AtomicRMWKind::umin:
    return LLVM::AtomicBinOp::umin;
  case AtomicRMWKind::fmax:
    return LLVM::AtomicBinOp::fmax;
  case AtomicRMWKind::fmin:
    return LLVM::AtomicBinOp::fmin;
  case AtomicRMWKind::band:
    return LLVM::AtomicBinOp::_and;
  case AtomicRMWKind::bor:
    return LLVM::AtomicBinOp::_or;
  case AtomicRMWKind::bxor:
    return LLVM::AtomicBinOp::_xor;
  case AtomicRMWKind::xchg:
    return LLVM::AtomicBinOp::xchg;
  }
  return LLVM::AtomicBinOp::xchg;
}

/// A module-level slot in `ptrType`'s address space that masked-off elements
/// operate on instead of their (possibly invalid) address. It lives in the
/// same address space as the real pointers, so the select between the two
/// is well typed on every target (a stack slot would be private memory,
/// which GPUs cannot reach with a global atomic); what lands in it is never
/// read.
Value atomicSink(ConversionPatternRewriter &rewriter, Operation *op, LLVM::LLVMPointerType ptrType) {
  auto module = op->getParentOfType<ModuleOp>();
  std::string name = "__hd_atomic_sink";
  if (ptrType.getAddressSpace() != 0)
    name += "_as" + std::to_string(ptrType.getAddressSpace());
  // Big and aligned enough for any element an atomic takes (up to 8 bytes).
  Type slotType = LLVM::LLVMArrayType::get(rewriter.getI64Type(), 2);
  if (!module.lookupSymbol<LLVM::GlobalOp>(name)) {
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPointToStart(module.getBody());
    auto global = LLVM::GlobalOp::create(rewriter, op->getLoc(), slotType, /*isConstant=*/false,
                                         LLVM::Linkage::Internal, name, LLVM::ZeroAttr::get(rewriter.getContext()),
                                         /*alignment=*/16, ptrType.getAddressSpace());
    (void)global;
  }
  return LLVM::AddressOfOp::create(rewriter, op->getLoc(), ptrType, name);
}

/// i1: lane 0 of warp 0.
Value isThreadZero(OpBuilder &b, Location loc, TargetHooks &hooks) {
  Value zero = i32Const(b, loc, 0);
  Value lane = LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::eq, hooks.laneId(b, loc), zero);
  Value warp = LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::eq, warpIdHere(hooks, b, loc), zero);
  return LLVM::AndOp::create(b, loc, lane, warp);
}

/// A scalar atomic's old value, from thread 0 to every thread of the
/// program: thread 0 stores it in the first 8 bytes of the op's scratch
/// buffer and the others store theirs in the second 8 (never read), then
/// everyone reads the first after a barrier. The leading barrier keeps an
/// earlier reader of the same bytes from seeing the new value.
FailureOr<Value> broadcastFromThreadZero(ConversionPatternRewriter &rewriter, Operation *op,
                                         Value value, TargetHooks &hooks) {
  Location loc = op->getLoc();
  FailureOr<Value> base = sharedBufferOf(rewriter, op, hooks);
  if (failed(base))
    return failure();
  Value other = LLVM::GEPOp::create(rewriter, loc, base->getType(), rewriter.getI8Type(), *base,
                                    ValueRange{i32Const(rewriter, loc, 8)});
  Value slot = LLVM::SelectOp::create(rewriter, loc, isThreadZero(rewriter, loc, hooks), *base, other);
  barrierHere(hooks, rewriter, loc);
  LLVM::StoreOp::create(rewriter, loc, value, slot, 8);
  barrierHere(hooks, rewriter, loc);
  return LLVM::LoadOp::create(rewriter, loc, value.getType(), *base, 8).getResult();
}

/// Per element: the pointer to operate on and whether this thread does
/// (the element's mask and the thread's ownership; null: always).
struct ElementTargets {
  SmallVector<Value> ptrs, enabled;
};

ElementTargets elementTargets(ConversionPatternRewriter &rewriter, Operation *op, Lowering &lowering,
                              Type tileType, Value ptrs, Value mask) {
  Location loc = op->getLoc();
  ElementTargets targets;
  targets.ptrs = unpack(rewriter, loc, ptrs);
  SmallVector<Value> m;
  if (mask)
    m = unpack(rewriter, loc, mask);
  Value owner;
  if (auto tensor = dyn_cast<RankedTensorType>(tileType)) {
    if (const TileInfo *info = lowering.tiles.get(tensor))
      owner = ownerMask(rewriter, loc, *info, lowering.hooks);
  } else if (!lowering.tiles.foldsThreads()) {
    owner = isThreadZero(rewriter, loc, lowering.hooks);
  }
  for (size_t i = 0; i < targets.ptrs.size(); ++i) {
    Value enabled = m.empty() ? owner : m[i];
    if (!m.empty() && owner)
      enabled = LLVM::AndOp::create(rewriter, loc, m[i], owner);
    targets.enabled.push_back(enabled);
  }
  return targets;
}

/// `make()`'s atomic where `enabled` (null: always), else zero: a branch,
/// not an atomic on a dummy address, so that the threads that do not own
/// an element (all but one for a scalar) do not all hit one address.
Value guardedAtomic(ConversionPatternRewriter &rewriter, Location loc, Value enabled, Type type,
                    function_ref<Value()> make) {
  if (!enabled)
    return make();
  Block *before = rewriter.getInsertionBlock();
  Block *after = rewriter.splitBlock(before, rewriter.getInsertionPoint());
  Value result = after->addArgument(type, loc);
  Block *then = rewriter.createBlock(after);
  rewriter.setInsertionPointToEnd(before);
  Value zero = LLVM::ZeroOp::create(rewriter, loc, type);
  LLVM::CondBrOp::create(rewriter, loc, enabled, then, ValueRange{}, after, ValueRange{zero});
  rewriter.setInsertionPointToEnd(then);
  Value old = make();
  LLVM::BrOp::create(rewriter, loc, ValueRange{old}, after);
  rewriter.setInsertionPointToStart(after);
  return result;
}

/// Where one thread holds a whole tile (walkInLoop), the atomics of its
/// elements as a loop: `element(ptr, values)` makes one element's atomic on
/// `ptr` (the sink for a masked-off element) with that element's lanes of
/// `operands`, and returns the old value. The tiles go through stack
/// buffers. Null where the tile is short or not folded.
Value atomicsInLoop(ConversionPatternRewriter &rewriter, Operation *op, Lowering &lowering,
                    Type resultType, Value ptrs, Value mask, ValueRange operands,
                    function_ref<Value(Value, ArrayRef<Value>)> element) {
  auto vec = dyn_cast<VectorType>(resultType);
  if (!vec || !walkInLoop(lowering.tiles, vec.getNumElements()))
    return {};
  Location loc = op->getLoc();
  Type ptrType = cast<VectorType>(ptrs.getType()).getElementType();
  Value ptrBuffer = spillTile(rewriter, loc, op, ptrs);
  Value maskBuffer = mask ? spillTile(rewriter, loc, op, mask) : Value();
  SmallVector<Value> buffers;
  for (Value v : operands)
    buffers.push_back(spillTile(rewriter, loc, op, v));
  Value sink = mask ? atomicSink(rewriter, op, cast<LLVM::LLVMPointerType>(ptrType)) : Value();
  Value out = stackBuffer(rewriter, op, vec.getElementType(), vec.getNumElements());
  emitLoop(rewriter, loc, vec.getNumElements(), [&](Value r) {
    Value ptr = loadLanes(rewriter, loc, ptrBuffer, ptrType, r, 0);
    if (mask)
      ptr = LLVM::SelectOp::create(rewriter, loc,
                                   loadLanes(rewriter, loc, maskBuffer, rewriter.getI1Type(), r, 0),
                                   ptr, sink);
    SmallVector<Value> values;
    for (auto [buffer, v] : llvm::zip(buffers, operands))
      values.push_back(
          loadLanes(rewriter, loc, buffer, cast<VectorType>(v.getType()).getElementType(), r, 0));
    storeLanes(rewriter, loc, element(ptr, values), out, r);
  });
  return reloadTile(rewriter, loc, out, resultType);
}

/// Replaces `op` by its per-element results: a vector for a tile, the one
/// value for a scalar.
void replaceWithElements(ConversionPatternRewriter &rewriter, Operation *op, Type resultType,
                         ArrayRef<Value> elements) {
  if (isa<VectorType>(resultType))
    rewriter.replaceOp(op, pack(rewriter, op->getLoc(), resultType, elements));
  else
    rewriter.replaceOp(op, elements.front());
}

struct AtomicRMWLowering : TilePattern<AtomicRMWOp> {
  using TilePattern::TilePattern;
  LogicalResult matchAndRewrite(AtomicRMWOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type resultType = getTypeConverter()->convertType(op.getType());
    Type element = getTypeConverter()->convertType(getElementTypeOrSelf(op.getType()));
    if (!resultType || !element)
      return failure();
    StringRef scope = lowering.hooks.atomicSyncScope(static_cast<int>(op.getScope()));
    LLVM::AtomicOrdering order =
        orderAround(rewriter, loc, lowering.hooks, op.getSem(), scope, /*after=*/false);
    if (Value result = atomicsInLoop(
            rewriter, op, lowering, resultType, adaptor.getPtr(), adaptor.getMask(),
            adaptor.getVal(), [&](Value ptr, ArrayRef<Value> v) -> Value {
              return LLVM::AtomicRMWOp::create(rewriter, loc, binOp(op.getKind()), ptr, v[0],
                                               order, scope);
            })) {
      orderAround(rewriter, loc, lowering.hooks, op.getSem(), scope, /*after=*/true);
      rewriter.replaceOp(op, result);
      return success();
    }
    ElementTargets targets =
        elementTargets(rewriter, op, lowering, op.getType(), adaptor.getPtr(), adaptor.getMask());
    SmallVector<Value> vals = unpack(rewriter, loc, adaptor.getVal());
    SmallVector<Value> old;
    for (size_t i = 0; i < vals.size(); ++i)
      old.push_back(guardedAtomic(rewriter, loc, targets.enabled[i], element, [&]() -> Value {
        return LLVM::AtomicRMWOp::create(rewriter, loc, binOp(op.getKind()), targets.ptrs[i],
                                         vals[i], order, scope);
      }));
    orderAround(rewriter, loc, lowering.hooks, op.getSem(), scope, /*after=*/true);
    if (scratchBytes(op, lowering.tiles) > 0) {
      FailureOr<Value> shared = broadcastFromThreadZero(rewriter, op, old.front(), lowering.hooks);
      if (failed(shared))
        return failure();
      old.front() = *shared;
    }
    replaceWithElements(rewriter, op, resultType, old);
    return success();
  }
};

struct AtomicCASLowering : TilePattern<AtomicCASOp> {
  using TilePattern::TilePattern;
  LogicalResult matchAndRewrite(AtomicCASOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type resultType = getTypeConverter()->convertType(op.getType());
    Type element = getTypeConverter()->convertType(getElementTypeOrSelf(op.getType()));
    if (!resultType || !element)
      return failure();
    // cmpxchg works on integers: floats travel as their bits.
    Type bits = rewriter.getIntegerType(element.getIntOrFloatBitWidth());
    StringRef scope = lowering.hooks.atomicSyncScope(static_cast<int>(op.getScope()));
    LLVM::AtomicOrdering successOrdering = ordering(op.getSem());
    LLVM::AtomicOrdering failureOrdering =
        successOrdering == LLVM::AtomicOrdering::acq_rel || successOrdering == LLVM::AtomicOrdering::acquire
            ? LLVM::AtomicOrdering::acquire
            : LLVM::AtomicOrdering::monotonic;
    auto exchange = [&](Value ptr, Value cmp, Value val) -> Value {
      if (element != bits) {
        cmp = LLVM::BitcastOp::create(rewriter, loc, bits, cmp);
        val = LLVM::BitcastOp::create(rewriter, loc, bits, val);
      }
      auto pair = LLVM::AtomicCmpXchgOp::create(rewriter, loc, ptr, cmp, val, successOrdering,
                                                failureOrdering, scope);
      Value prev = LLVM::ExtractValueOp::create(rewriter, loc, pair, 0);
      if (element != bits)
        prev = LLVM::BitcastOp::create(rewriter, loc, element, prev);
      return prev;
    };
    if (Value result = atomicsInLoop(rewriter, op, lowering, resultType, adaptor.getPtr(),
                                     Value(), ValueRange{adaptor.getCmp(), adaptor.getVal()},
                                     [&](Value ptr, ArrayRef<Value> v) {
                                       return exchange(ptr, v[0], v[1]);
                                     })) {
      rewriter.replaceOp(op, result);
      return success();
    }
    ElementTargets targets =
        elementTargets(rewriter, op, lowering, op.getType(), adaptor.getPtr(), Value());
    SmallVector<Value> cmps = unpack(rewriter, loc, adaptor.getCmp());
    SmallVector<Value> vals = unpack(rewriter, loc, adaptor.getVal());
    SmallVector<Value> old;
    for (size_t i = 0; i < targets.ptrs.size(); ++i)
      old.push_back(guardedAtomic(rewriter, loc, targets.enabled[i], element,
                                  [&] { return exchange(targets.ptrs[i], cmps[i], vals[i]); }));
    if (scratchBytes(op, lowering.tiles) > 0) {
      FailureOr<Value> shared = broadcastFromThreadZero(rewriter, op, old.front(), lowering.hooks);
      if (failed(shared))
        return failure();
      old.front() = *shared;
    }
    replaceWithElements(rewriter, op, resultType, old);
    return success();
  }
};

} // namespace

void populateAtomicPatterns(TileTypeConverter &converter, Lowering &lowering,
                            RewritePatternSet &patterns) {
  patterns.add<AtomicRMWLowering, AtomicCASLowering>(converter, lowering);
}

} // namespace hadron::lowering
