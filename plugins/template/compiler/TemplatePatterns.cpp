//===- TemplatePatterns.cpp - The template target's own lowering patterns -===//
//
// Besides answering the hooks, a target may lower an op itself, in place of
// core's generic pattern (TargetHooks::populateLoweringPatterns): a dot on
// its matrix units, a copy on its engine (NVIDIA lowers hd.async_tensor_copy
// to TMA this way). Its patterns are written like core's, with the public
// building blocks (hadron/Conversion/LoweringUtils.h, TypeConverter.h,
// SharedAddressing.h), and added with kTargetPatternBenefit so that they are
// tried first. A pattern that returns failure() before changing the IR
// declines: core's pattern then lowers the op.
//
// The template's example is hd.barrier: one thread runs a CTA here, so a
// barrier has nothing to wait for and is erased outright. A real target puts
// its fast paths here, declining the cases they do not cover.
//
//===----------------------------------------------------------------------===//

#include "TemplateHooks.h"

#include "hadron/Conversion/LoweringUtils.h"

namespace template_target {

namespace {

struct BarrierLowering : hadron::lowering::TilePattern<hadron::hd::BarrierOp> {
  using TilePattern::TilePattern;
  mlir::LogicalResult matchAndRewrite(hadron::hd::BarrierOp op, OpAdaptor,
                                      mlir::ConversionPatternRewriter &rewriter) const override {
    rewriter.eraseOp(op);
    return mlir::success();
  }
};

} // namespace

void TemplateHooks::populateLoweringPatterns(hadron::lowering::TileTypeConverter &converter,
                                             hadron::lowering::Lowering &lowering,
                                             mlir::RewritePatternSet &patterns) {
  patterns.add<BarrierLowering>(converter, lowering, hadron::lowering::kTargetPatternBenefit);
}

} // namespace template_target
