//===- DotOpToLLVM.cpp - dot through FMA or a target's matrix units ===//

#include "TileLowering.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "llvm/Support/MathExtras.h"

namespace hadron::lowering {
namespace {

/// Coordinates (row, column) of each register of a matrix fragment in lane 0.
std::vector<std::vector<int32_t>> fragmentCoords(const LinearLayout &fragment) {
  std::vector<std::vector<int32_t>> coords;
  for (int32_t r = 0; r < fragment.getInDimSize("register"); ++r) {
    LinearLayout::Point p = fragment.applyUnchecked({{"register", r}, {"lane", 0}});
    coords.push_back({p[0].second, p[1].second});
  }
  return coords;
}

struct DotLowering : TilePattern<DotOp> {
  using TilePattern::TilePattern;

  /// A dot whose accumulator has an #hd.mma layout, on a target that runs
  /// warps: one matrix instruction per instruction tile of the accumulator
  /// and step along K. The layouts (matrixOperandLayout) put each fragment's
  /// registers at fixed coordinates plus the tile's origin, so the registers
  /// an instruction takes are found by coordinate.
  LogicalResult lowerOnMatrixUnit(DotOp op, MmaLayoutAttr mma, OpAdaptor adaptor,
                                  ConversionPatternRewriter &rewriter) const {
    Location loc = op.getLoc();
    MatrixInstrAttr instr = mma.getInstr();
    const TileInfo *a = tile(op.getA().getType()), *b = tile(op.getB().getType()),
                   *c = tile(op.getAcc().getType());
    Type packed = getTypeConverter()->convertType(op.getType());
    if (!a || !b || !c || !packed)
      return failure();
    auto indexByCoord = [](const TileInfo &t) {
      std::map<std::vector<int32_t>, int64_t> index;
      for (int64_t r = 0; r < t.numRegs; ++r)
        index.emplace(t.regCoords[r], r);
      return index;
    };
    std::map<std::vector<int32_t>, int64_t> aRegs = indexByCoord(*a), bRegs = indexByCoord(*b),
                                            cRegs = indexByCoord(*c);
    auto fa = fragmentCoords(instr.getA()), fb = fragmentCoords(instr.getB()),
         fc = fragmentCoords(instr.getAcc());
    // Registers of the fragment `frag` placed at `origin`, looked up in `regs`.
    auto gather = [](const std::map<std::vector<int32_t>, int64_t> &regs,
                     const std::vector<std::vector<int32_t>> &frag, int32_t row0, int32_t col0,
                     SmallVector<int64_t> &out) {
      out.clear();
      for (const std::vector<int32_t> &rc : frag) {
        auto it = regs.find({rc[0] + row0, rc[1] + col0});
        if (it == regs.end())
          return false;
        out.push_back(it->second);
      }
      return true;
    };
    SmallVector<Value> av = unpack(rewriter, loc, adaptor.getA());
    SmallVector<Value> bv = unpack(rewriter, loc, adaptor.getB());
    SmallVector<Value> cv = unpack(rewriter, loc, adaptor.getAcc());
    int64_t k = op.getA().getType().getShape().back();
    // The accumulator's registers come in whole fragments (the layout puts a
    // fragment's registers first, then its repetitions): one tile each.
    const int64_t perTile = int64_t(fc.size());
    SmallVector<int64_t> aIdx, bIdx, cIdx;
    for (int64_t first = 0; first < c->numRegs; first += perTile) {
      int32_t row0 = c->regCoords[first][0] - fc[0][0];
      int32_t col0 = c->regCoords[first][1] - fc[0][1];
      if (!gather(cRegs, fc, row0, col0, cIdx))
        return op->emitOpError("accumulator layout ") << op.getAcc().getType().getEncoding()
               << " does not hold whole fragments of \"" << instr.getName() << "\"";
      SmallVector<Value> acc;
      for (int64_t r : cIdx)
        acc.push_back(cv[r]);
      for (int32_t k0 = 0; k0 < k; k0 += int32_t(instr.getK())) {
        if (!gather(aRegs, fa, row0, k0, aIdx) || !gather(bRegs, fb, k0, col0, bIdx))
          return op->emitOpError("operand layouts do not hold the fragments of \"")
                 << instr.getName() << "\" that accumulator tile (" << row0 << ", " << col0
                 << ") needs at k = " << k0;
        SmallVector<Value> aOps, bOps;
        for (int64_t r : aIdx)
          aOps.push_back(av[r]);
        for (int64_t r : bIdx)
          bOps.push_back(bv[r]);
        Result<SmallVector<Value>> d = lowering.hooks.matrixMultiplyAccumulate(
            rewriter, loc, instr.getName(), aOps, bOps, acc);
        if (!d)
          return op->emitOpError() << d.error();
        if (d->size() != acc.size())
          return op->emitOpError() << "the target returned " << d->size()
                                   << " accumulator registers for \"" << instr.getName()
                                   << "\", its fragment has " << acc.size();
        acc.assign(d->begin(), d->end());
      }
      for (auto [r, v] : llvm::zip(cIdx, acc))
        cv[r] = v;
    }
    rewriter.replaceOp(op, pack(rewriter, loc, packed, cv));
    return success();
  }

  LogicalResult matchAndRewrite(DotOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    // A target that runs a CTA as one thread holds every row and column in
    // that thread, so the FMA loop below serves any accumulator layout.
    if (auto mma = dyn_cast_or_null<MmaLayoutAttr>(op.getAcc().getType().getEncoding()))
      if (!lowering.tiles.foldsThreads())
        return lowerOnMatrixUnit(op, mma, adaptor, rewriter);
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
