//===- DotOpToLLVM.cpp - dot through FMA ===//

#include "TileLowering.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "llvm/Support/MathExtras.h"

namespace hadron::lowering {
namespace {

struct DotLowering : TilePattern<DotOp> {
  using TilePattern::TilePattern;
  LogicalResult matchAndRewrite(DotOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    const TileInfo *a = tile(op.getA().getType()), *b = tile(op.getB().getType()),
                   *c = tile(op.getAcc().getType());
    Type packed = getTypeConverter()->convertType(op.getType());
    if (!a || !b || !c || !packed)
      return failure();
    int64_t rank = op.getType().getRank();
    int64_t k = op.getA().getType().getShape().back();
    std::map<std::vector<int32_t>, int64_t> aRegs, bRegs;
    for (int64_t r = 0; r < a->numRegs; ++r)
      aRegs.emplace(a->regCoords[r], r);
    for (int64_t r = 0; r < b->numRegs; ++r)
      bRegs.emplace(b->regCoords[r], r);
    SmallVector<Value> av = unpack(rewriter, loc, adaptor.getA());
    SmallVector<Value> bv = unpack(rewriter, loc, adaptor.getB());
    SmallVector<Value> cv = unpack(rewriter, loc, adaptor.getAcc());
    Type accType = cast<VectorType>(packed).getElementType();
    bool isFloat = isa<FloatType>(accType);
    for (int64_t r = 0; r < c->numRegs; ++r) {
      const std::vector<int32_t> &coord = c->regCoords[r];
      Value acc = cv[r];
      for (int64_t kk = 0; kk < k; ++kk) {
        std::vector<int32_t> ac = coord, bc = coord;
        ac[rank - 1] = kk;
        bc[rank - 2] = kk;
        auto ai = aRegs.find(ac), bi = bRegs.find(bc);
        if (ai == aRegs.end() || bi == bRegs.end())
          return op->emitOpError("operand layouts do not give each thread the rows and "
                                 "columns its accumulator elements need");
        Value x = av[ai->second], y = bv[bi->second];
        if (isFloat) {
          if (x.getType() != accType) {
            x = LLVM::FPExtOp::create(rewriter, loc, accType, x);
            y = LLVM::FPExtOp::create(rewriter, loc, accType, y);
          }
          acc = LLVM::FMulAddOp::create(rewriter, loc, x, y, acc);
        } else {
          x = LLVM::SExtOp::create(rewriter, loc, accType, x);
          y = LLVM::SExtOp::create(rewriter, loc, accType, y);
          acc = LLVM::AddOp::create(rewriter, loc, acc, LLVM::MulOp::create(rewriter, loc, x, y));
        }
      }
      cv[r] = acc;
    }
    rewriter.replaceOp(op, pack(rewriter, loc, packed, cv));
    return success();
  }
};

} // namespace

void populateDotPatterns(TileTypeConverter &converter, Lowering &lowering, RewritePatternSet &patterns) {
  patterns.add<DotLowering>(converter, lowering);
}

} // namespace hadron::lowering
