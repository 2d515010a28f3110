//===- ElementwiseOpsToLLVM.cpp - arith and math on tiles ===//

#include "LoweringInternals.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <cmath>

namespace hadron::lowering {
namespace {

using ApproxFunction = TargetHooks::ApproxFunction;

constexpr llvm::StringLiteral kPolynomialShareAttr = "hd.polynomial_share";

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

/// 2^x on f32 `x` (scalar or vector) with FMAs and integer ops only, no
/// special-function instruction: x is clamped to [-127, 128], split into
/// j = round(x) (adding 1.5 * 2^23 leaves j in the low mantissa bits) and
/// f = x - j in [-0.5, 0.5], 2^f comes from a degree-3 polynomial (Horner,
/// p(0) = 1 exactly) and j is added to its exponent field. Relative error
/// at most 1.02e-4 (docs/ir.md, "Fast math"); exact at integers, +0 at and
/// below -127, +inf from 128 on.
Value polynomialExp2(OpBuilder &b, Location loc, Value x) {
  Type type = x.getType();
  Type intType = b.getI32Type();
  if (auto vector = dyn_cast<VectorType>(type))
    intType = VectorType::get(vector.getShape(), intType);
  auto fconst = [&](float v) -> Value {
    Attribute attr = b.getF32FloatAttr(v);
    if (auto vector = dyn_cast<VectorType>(type))
      attr = DenseElementsAttr::get(vector, v);
    return LLVM::ConstantOp::create(b, loc, type, attr);
  };
  // Minimax of 2^f / p(f) - 1 on [-0.5, 0.5] with p(0) = 1.
  constexpr float c1 = 0.69328293f, c2 = 0.242211f, c3 = 0.05500891f;
  constexpr float kRound = 12582912.0f; // 1.5 * 2^23
  Value clamped = LLVM::MaxNumOp::create(b, loc, x, fconst(-127.0f));
  clamped = LLVM::MinNumOp::create(b, loc, clamped, fconst(128.0f));
  Value shifted = LLVM::FAddOp::create(b, loc, clamped, fconst(kRound));
  Value rounded = LLVM::FSubOp::create(b, loc, shifted, fconst(kRound));
  Value f = LLVM::FSubOp::create(b, loc, clamped, rounded);
  Value p = LLVM::FMAOp::create(b, loc, f, fconst(c3), fconst(c2));
  p = LLVM::FMAOp::create(b, loc, f, p, fconst(c1));
  p = LLVM::FMAOp::create(b, loc, f, p, fconst(1.0f));
  // The bits of `shifted` are those of 1.5 * 2^23 plus j; shifted left by
  // 23 only j remains, in the exponent field.
  Value twentyThree = LLVM::ConstantOp::create(
      b, loc, intType,
      isa<VectorType>(intType)
          ? Attribute(DenseElementsAttr::get(cast<ShapedType>(intType), int32_t(23)))
          : Attribute(b.getI32IntegerAttr(23)));
  Value j = LLVM::ShlOp::create(b, loc, LLVM::BitcastOp::create(b, loc, intType, shifted),
                                twentyThree);
  Value bits = LLVM::AddOp::create(b, loc, LLVM::BitcastOp::create(b, loc, intType, p), j);
  return LLVM::BitcastOp::create(b, loc, type, bits);
}

/// `x` for exp2, `x` log2(e) for exp.
Value exp2Argument(OpBuilder &b, Location loc, ApproxFunction fn, Value x) {
  if (fn != ApproxFunction::Exp)
    return x;
  Attribute log2e = b.getF32FloatAttr(float(llvm::numbers::log2e));
  if (auto vector = dyn_cast<VectorType>(x.getType()))
    log2e = DenseElementsAttr::get(vector, float(llvm::numbers::log2e));
  return LLVM::FMulOp::create(b, loc, x, LLVM::ConstantOp::create(b, loc, x.getType(), log2e));
}

/// Whether register `i` of a tile takes the polynomial under `share`: an
/// even spread, floor(share * n) of every n consecutive registers.
bool takesPolynomial(int64_t i, double share) {
  return std::floor(double(i + 1) * share) > std::floor(double(i) * share);
}

//===----------------------------------------------------------------------===//
// Elementwise arith/math on tiles
//===----------------------------------------------------------------------===//

/// The share of an exp or exp2's registers computed by polynomialExp2:
/// its `hd.polynomial_share` (the verifier keeps it to afn f32 exp and
/// exp2, in [0, 1]), else 0.
double polynomialShare(Operation *op, std::optional<ApproxFunction> fn) {
  auto attr = op->getAttrOfType<FloatAttr>(kPolynomialShareAttr);
  if (!attr || !fn || (*fn != ApproxFunction::Exp && *fn != ApproxFunction::Exp2))
    return 0.0;
  return std::clamp(attr.getValueAsDouble(), 0.0, 1.0);
}

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
      // A scalar keeps the upstream lowering unless the target approximates
      // it; it is one register, the polynomial's only at share 1.
      Value approx;
      if (polynomialShare(op, approximable) >= 1.0)
        approx = polynomialExp2(rewriter, op->getLoc(),
                                exp2Argument(rewriter, op->getLoc(), *approximable, operands[0]));
      else if (approximable)
        approx = lowering.hooks.approximateMath(rewriter, op->getLoc(), *approximable, operands);
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
    double share = polynomialShare(op, approximable);
    Value lowered;
    if (share < 1.0) {
      if (approximable)
        lowered = lowering.hooks.approximateMath(rewriter, loc, *approximable, state.operands);
      if (!lowered) {
        state.addTypes(packedType);
        for (NamedAttribute attr : op->getAttrs())
          if (attr.getName() != kPolynomialShareAttr)
            state.addAttribute(attr.getName(), attr.getValue());
        lowered = rewriter.create(state)->getResult(0);
      }
    }
    if (share > 0.0) {
      // The share's registers from the polynomial, the others from `lowered`.
      Value poly = polynomialExp2(rewriter, loc,
                                  exp2Argument(rewriter, loc, *approximable, state.operands[0]));
      if (!lowered) {
        lowered = poly;
      } else {
        SmallVector<int32_t> mask;
        for (int64_t i = 0; i < info->numRegs; ++i)
          mask.push_back(int32_t(takesPolynomial(i, share) ? i : info->numRegs + i));
        lowered = LLVM::ShuffleVectorOp::create(rewriter, loc, poly, lowered, mask);
      }
    }
    rewriter.replaceOp(op, lowered);
    return success();
  }
  Lowering &lowering;
};

} // namespace

void populateElementwisePatterns(TileTypeConverter &converter, Lowering &lowering, RewritePatternSet &patterns) {
  patterns.add<ElementwiseLowering>(converter, lowering);
}

} // namespace hadron::lowering
