//===- ConvertLayoutOpToLLVM.cpp - convert_layout and the other moves ===//

#include "LoweringInternals.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "llvm/Support/MathExtras.h"

namespace hadron::lowering {
namespace {

//===----------------------------------------------------------------------===//
// Rearrangements as register moves
//===----------------------------------------------------------------------===//

template <typename OpT>
struct GatherLowering : TilePattern<OpT> {
  using TilePattern<OpT>::TilePattern;
  using Adaptor = typename OpT::Adaptor;
  /// Maps result coordinates to operand coordinates.
  virtual std::vector<int32_t> mapCoords(OpT op, const std::vector<int32_t> &c) const = 0;

  LogicalResult matchAndRewrite(OpT op, Adaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Value src = op->getOperand(0);
    const TileInfo *srcInfo = this->tile(src.getType());
    const TileInfo *dstInfo = this->tile(op->getResult(0).getType());
    Type type = this->getTypeConverter()->convertType(op->getResult(0).getType());
    if (!srcInfo || !dstInfo || !type)
      return failure();
    std::string why;
    auto gather = registerGather(
        *dstInfo, *srcInfo, [&](const std::vector<int32_t> &c) { return mapCoords(op, c); },
        why);
    if (failed(gather))
      return op->emitOpError() << "cannot be lowered: " << why;
    Value src0 = adaptor.getOperands()[0];
    (void)type;
    rewriter.replaceOp(op, shuffle(rewriter, op.getLoc(), src0, src0, *gather));
    return success();
  }
};

/// convert_layout: a register permutation when every element stays in its
/// thread; otherwise a round trip through the op's scratch buffer (see
/// convertThroughScratch), which handles any pair of layouts.
struct ConvertLayoutLowering : GatherLowering<ConvertLayoutOp> {
  using GatherLowering::GatherLowering;
  std::vector<int32_t> mapCoords(ConvertLayoutOp, const std::vector<int32_t> &c) const override {
    return c;
  }
  LogicalResult matchAndRewrite(ConvertLayoutOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    if (scratchBytes(op, lowering.tiles) == 0)
      return GatherLowering::matchAndRewrite(op, adaptor, rewriter);
    const TileInfo *src = tile(op.getSrc().getType());
    const TileInfo *dst = tile(op.getType());
    Type type = getTypeConverter()->convertType(op.getType());
    Type elem = getTypeConverter()->convertType(op.getType().getElementType());
    if (!src || !dst || !type || !elem)
      return failure();
    FailureOr<Value> scratch = sharedBufferOf(rewriter, op, lowering.hooks);
    if (failed(scratch))
      return failure();
    Location loc = op.getLoc();
    Value value = adaptor.getSrc();
    Type moved = type;
    // Pointers travel as 64-bit integers.
    bool pointers = isa<LLVM::LLVMPointerType>(elem);
    if (pointers) {
      Type i64 = rewriter.getI64Type();
      auto srcVec = cast<VectorType>(value.getType());
      value = LLVM::PtrToIntOp::create(rewriter, loc, VectorType::get(srcVec.getShape(), i64),
                                       value);
      moved = VectorType::get(cast<VectorType>(type).getShape(), i64);
      elem = i64;
    }
    Value result = convertThroughScratch(rewriter, loc, value, op.getType().getShape(), elem,
                                         *src, *dst, moved, *scratch, lowering.hooks,
                                         dst->layout.getInDimSize("lane"));
    if (pointers)
      result = LLVM::IntToPtrOp::create(rewriter, loc, type, result);
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct BroadcastLowering : GatherLowering<BroadcastOp> {
  using GatherLowering::GatherLowering;
  std::vector<int32_t> mapCoords(BroadcastOp op, const std::vector<int32_t> &c) const override {
    std::vector<int32_t> s = c;
    auto shape = op.getSrc().getType().getShape();
    for (size_t d = 0; d < s.size(); ++d)
      if (shape[d] == 1)
        s[d] = 0;
    return s;
  }
};

struct ExpandDimsLowering : GatherLowering<ExpandDimsOp> {
  using GatherLowering::GatherLowering;
  std::vector<int32_t> mapCoords(ExpandDimsOp op, const std::vector<int32_t> &c) const override {
    std::vector<int32_t> s = c;
    s.erase(s.begin() + op.getAxis());
    return s;
  }
};

struct PermuteLowering : GatherLowering<PermuteOp> {
  using GatherLowering::GatherLowering;
  std::vector<int32_t> mapCoords(PermuteOp op, const std::vector<int32_t> &c) const override {
    std::vector<int32_t> s(c.size());
    for (auto [i, d] : llvm::enumerate(op.getOrder()))
      s[d] = c[i];
    return s;
  }
};

struct ReshapeLowering : GatherLowering<ReshapeOp> {
  using GatherLowering::GatherLowering;
  std::vector<int32_t> mapCoords(ReshapeOp op, const std::vector<int32_t> &c) const override {
    auto dstShape = op.getType().getShape();
    auto srcShape = op.getSrc().getType().getShape();
    int64_t linear = 0;
    for (size_t d = 0; d < dstShape.size(); ++d)
      linear = linear * dstShape[d] + c[d];
    std::vector<int32_t> s(srcShape.size());
    for (size_t d = srcShape.size(); d-- > 0;) {
      s[d] = linear % srcShape[d];
      linear /= srcShape[d];
    }
    return s;
  }
};

struct JoinLowering : TilePattern<JoinOp> {
  using TilePattern::TilePattern;
  LogicalResult matchAndRewrite(JoinOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    const TileInfo *srcInfo = tile(op.getLhs().getType());
    const TileInfo *dstInfo = tile(op.getType());
    Type type = getTypeConverter()->convertType(op.getType());
    if (!srcInfo || !dstInfo || !type)
      return failure();
    // The new minor dim selects lhs or rhs; every other coordinate maps.
    std::string why;
    auto drop = [](const std::vector<int32_t> &c) {
      return std::vector<int32_t>(c.begin(), c.end() - 1);
    };
    auto gather = registerGather(*dstInfo, *srcInfo, drop, why);
    if (failed(gather))
      return op->emitOpError() << "cannot be lowered: " << why;
    Location loc = op.getLoc();
    SmallVector<int64_t> indices;
    for (int64_t r = 0; r < dstInfo->numRegs; ++r)
      indices.push_back((*gather)[r] + (dstInfo->regCoords[r].back() == 0 ? 0 : srcInfo->numRegs));
    rewriter.replaceOp(op, shuffle(rewriter, loc, adaptor.getLhs(), adaptor.getRhs(), indices));
    return success();
  }
};

struct SplitLowering : TilePattern<SplitOp> {
  using TilePattern::TilePattern;
  LogicalResult matchAndRewrite(SplitOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    const TileInfo *srcInfo = tile(op.getSrc().getType());
    const TileInfo *dstInfo = tile(op.getLhs().getType());
    Type type = getTypeConverter()->convertType(op.getLhs().getType());
    if (!srcInfo || !dstInfo || !type)
      return failure();
    Location loc = op.getLoc();
    Value src = adaptor.getSrc();
    Value halves[2];
    for (int half = 0; half < 2; ++half) {
      std::string why;
      auto gather = registerGather(
          *dstInfo, *srcInfo,
          [&](const std::vector<int32_t> &c) {
            std::vector<int32_t> s = c;
            s.push_back(half);
            return s;
          },
          why);
      if (failed(gather))
        return op->emitOpError() << "cannot be lowered: " << why;
      halves[half] = shuffle(rewriter, loc, src, src, *gather);
    }
    (void)type;
    rewriter.replaceOp(op, {halves[0], halves[1]});
    return success();
  }
};

} // namespace

void populateLayoutMovePatterns(TileTypeConverter &converter, Lowering &lowering, RewritePatternSet &patterns) {
  patterns.add<ConvertLayoutLowering, BroadcastLowering, ExpandDimsLowering, PermuteLowering,
               ReshapeLowering, JoinLowering, SplitLowering>(converter, lowering);
}

} // namespace hadron::lowering
