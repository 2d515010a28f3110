//===- CreationOpsToLLVM.cpp - arange, splat, constants, program ids, hints ===//

#include "LoweringInternals.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "llvm/Support/MathExtras.h"

namespace hadron::lowering {
namespace {

//===----------------------------------------------------------------------===//
// Creation ops
//===----------------------------------------------------------------------===//

struct ArangeLowering : TilePattern<ArangeOp> {
  using TilePattern::TilePattern;
  LogicalResult matchAndRewrite(ArangeOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    const TileInfo *info = tile(op.getType());
    Type type = getTypeConverter()->convertType(op.getType());
    if (!info || !type)
      return failure();
    Location loc = op.getLoc();
    SmallVector<Value> thread = threadCoords(rewriter, loc, *info, lowering.hooks);
    SmallVector<int32_t> coords;
    for (int64_t r = 0; r < info->numRegs; ++r)
      coords.push_back(info->regCoords[r][0]);
    Value result = i32Vector(rewriter, loc, coords);
    if (!thread.empty())
      result = LLVM::XOrOp::create(rewriter, loc, result,
                                   splatVector(rewriter, loc, type, thread[0]));
    if (op.getStart() != 0)
      result = LLVM::AddOp::create(
          rewriter, loc, result,
          splatVector(rewriter, loc, type, i32Const(rewriter, loc, op.getStart())));
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct SplatLowering : TilePattern<SplatOp> {
  using TilePattern::TilePattern;
  LogicalResult matchAndRewrite(SplatOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    const TileInfo *info = tile(op.getType());
    Type type = getTypeConverter()->convertType(op.getType());
    if (!info || !type)
      return failure();
    rewriter.replaceOp(op, splatVector(rewriter, op.getLoc(), type, adaptor.getSrc()));
    return success();
  }
};

struct ConstantLowering : TilePattern<arith::ConstantOp> {
  using TilePattern::TilePattern;
  LogicalResult matchAndRewrite(arith::ConstantOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    auto tensorType = dyn_cast<RankedTensorType>(op.getType());
    auto dense = dyn_cast<DenseElementsAttr>(op.getValue());
    const TileInfo *info = tile(op.getType());
    Type type = getTypeConverter()->convertType(op.getType());
    if (!tensorType || !dense || !info || !type)
      return failure();
    Location loc = op.getLoc();
    auto vecType = cast<VectorType>(type);
    if (dense.isSplat()) {
      rewriter.replaceOpWithNewOp<LLVM::ConstantOp>(
          op, vecType, SplatElementsAttr::get(vecType, dense.getSplatValue<Attribute>()));
      return success();
    }
    {
      if (info->laneBases.size() + info->warpBases.size() > 0 &&
          !lowering.hooks.foldsThreadsIntoRegisters())
        return rewriter.notifyMatchFailure(op, "non-splat constant tiles need a per-thread table");
      auto all = dense.getValues<Attribute>();
      ArrayRef<int64_t> shape = tensorType.getShape();
      SmallVector<Attribute> values;
      for (int64_t r = 0; r < info->numRegs; ++r) {
        int64_t linear = 0;
        for (size_t d = 0; d < shape.size(); ++d)
          linear = linear * shape[d] + info->regCoords[r][d];
        values.push_back(all[linear]);
      }
      rewriter.replaceOpWithNewOp<LLVM::ConstantOp>(op, vecType,
                                                    DenseElementsAttr::get(vecType, values));
    }
    (void)loc;
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Program ids
//===----------------------------------------------------------------------===//

struct ProgramIdLowering : TilePattern<ProgramIdOp> {
  using TilePattern::TilePattern;
  LogicalResult matchAndRewrite(ProgramIdOp op, OpAdaptor,
                                ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(op, lowering.hooks.programId(rewriter, op.getLoc(), op.getAxis()));
    return success();
  }
};

struct NumProgramsLowering : TilePattern<NumProgramsOp> {
  using TilePattern::TilePattern;
  LogicalResult matchAndRewrite(NumProgramsOp op, OpAdaptor,
                                ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(op, lowering.hooks.numPrograms(rewriter, op.getLoc(), op.getAxis()));
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Hints, debugging
//===----------------------------------------------------------------------===//

template <typename OpT>
struct ForwardLowering : TilePattern<OpT> {
  using TilePattern<OpT>::TilePattern;
  LogicalResult matchAndRewrite(OpT op, typename OpT::Adaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(op, adaptor.getOperands()[0]);
    return success();
  }
};

struct AssumeLowering : TilePattern<AssumeOp> {
  using TilePattern::TilePattern;
  LogicalResult matchAndRewrite(AssumeOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<LLVM::AssumeOp>(op, adaptor.getCondition());
    return success();
  }
};

} // namespace

void populateCreationPatterns(TileTypeConverter &converter, Lowering &lowering, RewritePatternSet &patterns) {
  patterns.add<ArangeLowering, SplatLowering, ProgramIdLowering, NumProgramsLowering,
               ForwardLowering<MultipleOfOp>, AssumeLowering>(converter, lowering);
  patterns.add<ConstantLowering>(converter, lowering, /*benefit=*/10);
}

} // namespace hadron::lowering
