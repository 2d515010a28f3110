//===- ScratchSize.cpp - Shared memory an op's lowering borrows -----------===//

#include "hadron/Analysis/ScratchSize.h"

#include "hadron/IR/Dialect.h"

#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace hadron::hd;

namespace hadron {

namespace {

bool threadsAgree(const TileInfo &a, const TileInfo &b) {
  return a.laneBases == b.laneBases && a.warpBases == b.warpBases;
}

int64_t tileBytes(RankedTensorType type) {
  Type elem = type.getElementType();
  int64_t bytes = isa<PointerType>(elem) ? 8 : std::max(1u, elem.getIntOrFloatBitWidth() / 8);
  return type.getNumElements() * bytes;
}

} // namespace

int64_t scratchBytes(Operation *op, TileInfoCache &tiles) {
  if (tiles.foldsThreads())
    return 0;
  // A scalar atomic whose old value is used: thread 0 hands it to the
  // others (AtomicOpsToLLVM.cpp).
  if (isa<AtomicRMWOp, AtomicCASOp>(op) && !isa<RankedTensorType>(op->getResult(0).getType()))
    return op->getResult(0).use_empty() ? 0 : 16;
  if (auto cvt = dyn_cast<ConvertLayoutOp>(op)) {
    const TileInfo *src = tiles.get(cvt.getSrc().getType());
    const TileInfo *dst = tiles.get(cvt.getType());
    if (!src || !dst || threadsAgree(*src, *dst))
      return 0;
    return tileBytes(cvt.getType());
  }
  if (auto reduce = dyn_cast<ReduceOp>(op)) {
    auto type = cast<RankedTensorType>(reduce.getSrcs().front().getType());
    const TileInfo *src = tiles.get(type);
    if (!src)
      return 0;
    int64_t crossWarpBits = 0;
    for (auto &basis : src->warpBases)
      crossWarpBits += basis[reduce.getAxis()] != 0;
    if (crossWarpBits == 0)
      return 0;
    int64_t resultElems = type.getNumElements() / type.getShape()[reduce.getAxis()];
    int64_t bytes = 0;
    for (Value v : reduce.getSrcs()) {
      Type elem = cast<RankedTensorType>(v.getType()).getElementType();
      bytes += llvm::alignTo(resultElems * (int64_t(1) << crossWarpBits) *
                                 std::max(1u, elem.getIntOrFloatBitWidth() / 8),
                             16);
    }
    return bytes;
  }
  if (auto scan = dyn_cast<ScanOp>(op)) {
    auto type = cast<RankedTensorType>(scan.getSrcs().front().getType());
    const TileInfo *src = tiles.get(type);
    if (!src)
      return 0;
    bool crossThread = false;
    for (auto *bases : {&src->laneBases, &src->warpBases})
      for (auto &basis : *bases)
        crossThread |= basis[scan.getAxis()] != 0;
    if (!crossThread)
      return 0;
    // The operands go through the scratch buffer one after the other.
    int64_t bytes = 0;
    for (Value v : scan.getSrcs())
      bytes = std::max(bytes, tileBytes(cast<RankedTensorType>(v.getType())));
    return bytes;
  }
  return 0;
}

} // namespace hadron
