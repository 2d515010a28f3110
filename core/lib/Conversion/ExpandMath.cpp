//===- ExpandMath.cpp - math ops with no LLVM counterpart, in arith/math ===//
//
// math.erf has no LLVM intrinsic and no libm-free lowering in MLIR that works
// on tiles, so it becomes, before distribute, ops every target lowers:
//
//   |x| < 0.5:  erf(x) = 2/sqrt(pi) * sum_n (-1)^n x^(2n+1) / (n! (2n+1)),
//               nine terms (the first omitted term is below 2^-30 relative);
//   otherwise:  erf(x) = sign(x) * (1 - erfc(|x|)), with erfc from the
//               Chebyshev fit t*exp(-x^2 + P(t)), t = 1 / (1 + |x|/2), of
//               fractional error below 1.2e-7 (Press et al., Numerical
//               Recipes, 2nd ed., section 6.2); 1 - erfc loses nothing
//               there since erfc(0.5) < 0.48.
//
// Both branches are computed and one selected, so the expansion is
// branch-free on every target. f32 only (f16/bf16 through f32); f64 is left
// for a target's math library and reported if it reaches the lowering.
//
//===----------------------------------------------------------------------===//

#include "hadron/Conversion/Passes.h"
#include "hadron/IR/Dialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/IR/BuiltinOps.h"

#include <cmath>

using namespace mlir;

namespace hadron {
namespace {

Value constant(OpBuilder &b, Location loc, Type type, double value) {
  Type element = getElementTypeOrSelf(type);
  auto attr = b.getFloatAttr(element, value);
  if (auto shaped = dyn_cast<ShapedType>(type))
    return arith::ConstantOp::create(b, loc, DenseElementsAttr::get(shaped, attr.getValue()));
  return arith::ConstantOp::create(b, loc, attr);
}

/// erf of an f32 scalar or tile `x`.
Value expandErfF32(OpBuilder &b, Location loc, Value x) {
  Type type = x.getType();
  auto c = [&](double v) { return constant(b, loc, type, v); };
  auto mul = [&](Value l, Value r) { return arith::MulFOp::create(b, loc, l, r).getResult(); };
  auto fma = [&](Value a, Value m, Value k) { return math::FmaOp::create(b, loc, a, m, k).getResult(); };

  Value ax = math::AbsFOp::create(b, loc, x);
  Value x2 = mul(x, x);

  // Series: x * sum_n a_n x^(2n), a_n = 2/sqrt(pi) (-1)^n / (n! (2n+1)),
  // evaluated by Horner in x^2.
  constexpr int kTerms = 9;
  double coefficients[kTerms];
  double factorial = 1;
  for (int n = 0; n < kTerms; ++n) {
    if (n > 0)
      factorial *= n;
    coefficients[n] = (n % 2 ? -1.0 : 1.0) * 2.0 / std::sqrt(M_PI) / (factorial * (2 * n + 1));
  }
  Value series = c(coefficients[kTerms - 1]);
  for (int n = kTerms - 2; n >= 0; --n)
    series = fma(series, x2, c(coefficients[n]));
  series = mul(series, x);

  // Tail: 1 - t*exp(-x^2 + P(t)), sign restored.
  static const double kTail[] = {-1.26551223, 1.00002368, 0.37409196, 0.09678418, -0.18628806,
                                 0.27886807,  -1.13520398, 1.48851587, -0.82215223, 0.17087277};
  Value t = arith::DivFOp::create(b, loc, c(1.0), fma(ax, c(0.5), c(1.0)));
  Value poly = c(kTail[9]);
  for (int i = 8; i >= 0; --i)
    poly = fma(poly, t, c(kTail[i]));
  Value exponent = arith::SubFOp::create(b, loc, poly, x2);
  Value erfc = mul(t, math::ExpOp::create(b, loc, exponent));
  Value tail = arith::SubFOp::create(b, loc, c(1.0), erfc);
  tail = math::CopySignOp::create(b, loc, tail, x);

  Value small = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT, ax, c(0.5));
  // NaN compares false and takes the tail, whose exp/div keep it NaN.
  return arith::SelectOp::create(b, loc, small, series, tail);
}

} // namespace

LogicalResult expandMath(ModuleOp module) {
  SmallVector<math::ErfOp> erfs;
  module.walk([&](math::ErfOp op) { erfs.push_back(op); });
  for (math::ErfOp op : erfs) {
    Type element = getElementTypeOrSelf(op.getType());
    if (!element.isF32() && !element.isF16() && !element.isBF16())
      continue; // f64: left to the lowering, which names it
    OpBuilder b(op);
    Location loc = op.getLoc();
    Value x = op.getOperand();
    Type f32Type = b.getF32Type();
    if (auto shaped = dyn_cast<RankedTensorType>(op.getType()))
      f32Type = shaped.clone(b.getF32Type());
    if (!element.isF32())
      x = arith::ExtFOp::create(b, loc, f32Type, x);
    Value y = expandErfF32(b, loc, x);
    if (!element.isF32())
      y = arith::TruncFOp::create(b, loc, op.getType(), y);
    op.replaceAllUsesWith(y);
    op.erase();
  }
  return success();
}

} // namespace hadron
