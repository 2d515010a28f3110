//===- ElementwiseOpsToLLVM.cpp - arith and math on tiles ===//

#include "LoweringInternals.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/MathExtras.h"

namespace hadron::lowering {
namespace {

using ApproxFunction = TargetHooks::ApproxFunction;

/// The function a target may approximate for `op`: an f32 exp, exp2, log,
/// rsqrt or divf whose fast-math flags allow approximate functions (afn).
std::optional<ApproxFunction> approximableFunction(Operation *op) {
  auto flags = dyn_cast<arith::ArithFastMathInterface>(op);
  if (!flags || !flags.getFastMathFlagsAttr() ||
      !arith::bitEnumContainsAll(flags.getFastMathFlagsAttr().getValue(),
                                 arith::FastMathFlags::afn) ||
      !getElementTypeOrSelf(op->getResult(0).getType()).isF32())
    return std::nullopt;
  return llvm::TypeSwitch<Operation *, std::optional<ApproxFunction>>(op)
      .Case([](math::ExpOp) { return ApproxFunction::Exp; })
      .Case([](math::Exp2Op) { return ApproxFunction::Exp2; })
      .Case([](math::LogOp) { return ApproxFunction::Log; })
      .Case([](math::RsqrtOp) { return ApproxFunction::Rsqrt; })
      .Case([](arith::DivFOp) { return ApproxFunction::Div; })
      .Default([](Operation *) { return std::nullopt; });
}

//===----------------------------------------------------------------------===//
// Elementwise arith/math on tiles
//===----------------------------------------------------------------------===//

/// Any arith or math op over tiles of one layout: the same op per register,
/// or the target's approximation of it where its flags allow one (then on
/// scalars too).
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
    std::optional<ApproxFunction> approximable = approximableFunction(op);
    auto resultType = dyn_cast<RankedTensorType>(op->getResult(0).getType());
    if (!resultType) {
      // A scalar keeps the upstream lowering unless the target approximates it.
      Value approx = approximable ? lowering.hooks.approximateMath(rewriter, op->getLoc(),
                                                                   *approximable, operands)
                                  : Value();
      if (!approx)
        return failure();
      rewriter.replaceOp(op, approx);
      return success();
    }
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
    if (approximable)
      if (Value approx =
              lowering.hooks.approximateMath(rewriter, loc, *approximable, state.operands)) {
        rewriter.replaceOp(op, approx);
        return success();
      }
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
