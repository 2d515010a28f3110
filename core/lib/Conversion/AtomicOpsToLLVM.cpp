//===- AtomicOpsToLLVM.cpp - atomic_rmw and atomic_cas --------------------===//
//
// One LLVM atomic per element. LLVM atomics cannot be masked, so a
// masked-off element, or a replica held by a thread that does not own the
// element, operates on a private stack slot instead: branch-free, and the
// global memory sees each element's update exactly once.
//
//===----------------------------------------------------------------------===//

#include "TileLowering.h"

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

/// Per element: the pointer to operate on (the real one or the scratch
/// slot) given the element's mask and the thread's ownership.
struct ElementTargets {
  SmallVector<Value> ptrs;
};

ElementTargets elementTargets(ConversionPatternRewriter &rewriter, Operation *op, Lowering &lowering,
                              Type tileType, Value ptrs, Value mask, Type element) {
  Location loc = op->getLoc();
  ElementTargets targets;
  SmallVector<Value> p = unpack(rewriter, loc, ptrs);
  SmallVector<Value> m;
  if (mask)
    m = unpack(rewriter, loc, mask);
  Value owner;
  if (auto tensor = dyn_cast<RankedTensorType>(tileType))
    if (const TileInfo *info = lowering.tiles.get(tensor))
      owner = ownerMask(rewriter, loc, *info, lowering.hooks);
  Value scratch;
  for (size_t i = 0; i < p.size(); ++i) {
    Value enabled = m.empty() ? owner : m[i];
    if (!m.empty() && owner)
      enabled = LLVM::AndOp::create(rewriter, loc, m[i], owner);
    if (!enabled) {
      targets.ptrs.push_back(p[i]);
      continue;
    }
    if (!scratch)
      scratch = entryAlloca(rewriter, op, element);
    targets.ptrs.push_back(LLVM::SelectOp::create(rewriter, loc, enabled, p[i], scratch));
  }
  return targets;
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
    ElementTargets targets = elementTargets(rewriter, op, lowering, op.getType(),
                                            adaptor.getPtr(), adaptor.getMask(), element);
    SmallVector<Value> values = unpack(rewriter, loc, adaptor.getVal());
    StringRef scope = lowering.hooks.atomicSyncScope(static_cast<int>(op.getScope()));
    SmallVector<Value> old;
    for (auto [ptr, value] : llvm::zip(targets.ptrs, values))
      old.push_back(LLVM::AtomicRMWOp::create(rewriter, loc, binOp(op.getKind()), ptr, value,
                                              ordering(op.getSem()), scope));
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
    ElementTargets targets =
        elementTargets(rewriter, op, lowering, op.getType(), adaptor.getPtr(), Value(), element);
    SmallVector<Value> cmps = unpack(rewriter, loc, adaptor.getCmp());
    SmallVector<Value> vals = unpack(rewriter, loc, adaptor.getVal());
    StringRef scope = lowering.hooks.atomicSyncScope(static_cast<int>(op.getScope()));
    LLVM::AtomicOrdering successOrdering = ordering(op.getSem());
    LLVM::AtomicOrdering failureOrdering =
        successOrdering == LLVM::AtomicOrdering::acq_rel || successOrdering == LLVM::AtomicOrdering::acquire
            ? LLVM::AtomicOrdering::acquire
            : LLVM::AtomicOrdering::monotonic;
    SmallVector<Value> old;
    for (size_t i = 0; i < targets.ptrs.size(); ++i) {
      Value cmp = cmps[i], val = vals[i];
      if (element != bits) {
        cmp = LLVM::BitcastOp::create(rewriter, loc, bits, cmp);
        val = LLVM::BitcastOp::create(rewriter, loc, bits, val);
      }
      auto pair = LLVM::AtomicCmpXchgOp::create(rewriter, loc, targets.ptrs[i], cmp, val, successOrdering,
                                                failureOrdering, scope);
      Value prev = LLVM::ExtractValueOp::create(rewriter, loc, pair, 0);
      if (element != bits)
        prev = LLVM::BitcastOp::create(rewriter, loc, element, prev);
      old.push_back(prev);
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
