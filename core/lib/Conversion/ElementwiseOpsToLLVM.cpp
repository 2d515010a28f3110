//===- ElementwiseOpsToLLVM.cpp - arith and math on tiles ===//

#include "TileLowering.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "llvm/Support/MathExtras.h"

namespace hadron::lowering {
namespace {

//===----------------------------------------------------------------------===//
// Elementwise arith/math on tiles
//===----------------------------------------------------------------------===//

/// Any arith or math op over tiles of one layout: the same op per register.
struct ElementwiseLowering : ConversionPattern {
  ElementwiseLowering(TileTypeConverter &converter, Lowering &lowering)
      : ConversionPattern(converter, MatchAnyOpTypeTag(), /*benefit=*/10,
                          &converter.getContext()),
        lowering(lowering) {}

  LogicalResult matchAndRewrite(Operation *op, ArrayRef<Value> operands,
                                ConversionPatternRewriter &rewriter) const override {
    if (!isa<arith::ArithDialect, math::MathDialect>(op->getDialect()) ||
        isa<arith::ConstantOp>(op) || op->getNumResults() != 1 || op->getNumRegions() != 0)
      return failure();
    auto resultType = dyn_cast<RankedTensorType>(op->getResult(0).getType());
    if (!resultType)
      return failure();
    const TileInfo *info = lowering.tiles.get(resultType);
    Type packedType = getTypeConverter()->convertType(resultType);
    Type element = getTypeConverter()->convertType(resultType.getElementType());
    if (!info || !packedType || !element)
      return failure();
    Location loc = op->getLoc();
    OperationState state(loc, op->getName());
    for (auto [orig, conv] : llvm::zip(op->getOperands(), operands)) {
      auto tensor = dyn_cast<RankedTensorType>(orig.getType());
      if (!tensor) {
        auto splatType = VectorType::get({info->numRegs}, conv.getType());
        state.addOperands(splatVector(rewriter, loc, splatType, conv));
        continue;
      }
      if (tensor.getEncoding() != resultType.getEncoding())
        return rewriter.notifyMatchFailure(op, "operands of different layouts");
      state.addOperands(conv);
    }
    (void)element;
    state.addTypes(packedType);
    state.addAttributes(op->getAttrs());
    rewriter.replaceOp(op, rewriter.create(state)->getResults());
    return success();
  }
  Lowering &lowering;
};

} // namespace

void populateElementwisePatterns(TileTypeConverter &converter, Lowering &lowering, RewritePatternSet &patterns) {
  patterns.add<ElementwiseLowering>(converter, lowering);
}

} // namespace hadron::lowering
