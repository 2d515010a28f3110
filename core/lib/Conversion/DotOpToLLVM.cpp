//===- DotOpToLLVM.cpp - dot through FMA or a target's matrix units ===//

#include "LoweringInternals.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "llvm/Support/MathExtras.h"

#include <array>

namespace hadron::lowering {
namespace {

/// Coordinates (row, column) of each register of a matrix fragment in lane 0
/// (and warp 0 of a fragment a group of warps holds).
std::vector<std::vector<int32_t>> fragmentCoords(const LinearLayout &fragment) {
  std::vector<std::vector<int32_t>> coords;
  for (int32_t r = 0; r < fragment.getInDimSize("register"); ++r) {
    LinearLayout::Point in = {{"register", r}, {"lane", 0}};
    if (fragment.hasInDim("warp"))
      in.push_back({"warp", 0});
    LinearLayout::Point p = fragment.applyUnchecked(in);
    coords.push_back({p[0].second, p[1].second});
  }
  return coords;
}

struct DotLowering : TilePattern<DotOp> {
  using TilePattern::TilePattern;

  /// An operand's registers and the tile they form.
  struct Operand {
    const TileInfo *info = nullptr;
    SmallVector<Value> regs;
  };

  /// The registers of operand `idx`: the lowered tensor, or a tile read
  /// from a shared-memory operand the way local_load reads it. The tile's
  /// layout is the #hd.dot_op of the accumulator's layout; where lanes and
  /// warps are folded into one thread any layout holds every element, and a
  /// plain blocked one serves accumulators (#hd.mma) whose instruction has
  /// no register fragment for the operand.
  LogicalResult operandRegisters(DotOp op, unsigned idx, Value lowered,
                                 ConversionPatternRewriter &rewriter, Operand &out) const {
    Location loc = op.getLoc();
    Value original = idx == 0 ? op.getA() : op.getB();
    auto memType = dyn_cast<MemDescType>(original.getType());
    if (!memType) {
      out.info = tile(original.getType());
      if (!out.info)
        return failure();
      out.regs = unpack(rewriter, loc, lowered);
      return success();
    }
    auto accLayout = cast<DistributedLayoutAttrInterface>(op.getAcc().getType().getEncoding());
    MLIRContext *ctx = op.getContext();
    Attribute layout = DotOperandLayoutAttr::get(ctx, idx, accLayout, 1);
    auto mma = dyn_cast<MmaLayoutAttr>(accLayout);
    if (mma && mma.getInstr().readsFromShared(idx)) {
      if (!lowering.tiles.foldsThreads())
        return op->emitOpError() << "operand " << idx << " of \"" << mma.getInstr().getName()
                                 << "\" has no register layout";
      unsigned warps = unsigned(accLayout.getNumWarps()), lanes = unsigned(accLayout.getWarpSize());
      layout = BlockedLayoutAttr::get(ctx, {1, 1}, {1, lanes}, {warps, 1}, {1, 0});
    }
    auto regType = RankedTensorType::get(memType.getShape(), memType.getElementType(), layout);
    std::string why;
    FailureOr<Value> v = loadSharedTile(rewriter, loc, lowering, *getTypeConverter(), lowered,
                                        memType, regType, why);
    out.info = lowering.tiles.get(regType, &why);
    if (failed(v) || !out.info)
      return op->emitOpError() << "cannot read operand " << (idx == 0 ? "a" : "b")
                               << " from shared memory: " << why;
    out.regs = unpack(rewriter, loc, *v);
    return success();
  }

  /// A dot on a matrix instruction that reads its operands from shared
  /// memory and is issued by a group of warps together: per accumulator tile
  /// of the instruction and step along K, the target gets the address of
  /// the operands' tiles and the byte offsets their layouts give each
  /// coordinate bit (TargetHooks::SharedMatrixOperand). The tiles' origins
  /// are the accumulator tile's, plus the part the warps above the
  /// instruction's own group add (a runtime value).
  LogicalResult lowerOnSharedMatrixUnit(DotOp op, MmaLayoutAttr mma, OpAdaptor adaptor,
                                        ConversionPatternRewriter &rewriter) const {
    Location loc = op.getLoc();
    MatrixInstrAttr instr = mma.getInstr();
    // A may come from registers where the instruction has a fragment for
    // it (a tensor in its #hd.dot_op layout, or a tile loaded from shared
    // memory into that layout); B is always read from shared memory.
    const bool aInRegisters = !instr.readsFromShared(0);
    auto aType = dyn_cast<MemDescType>(op.getA().getType());
    auto bType = dyn_cast<MemDescType>(op.getB().getType());
    if ((!aType && !aInRegisters) || !bType || !instr.readsFromShared(1))
      return op->emitOpError() << "takes an operand in registers; \"" << instr.getName()
                               << "\" reads B (and A, where it has no register fragment) "
                                  "from shared memory";
    Operand aRegsOp;
    if (aInRegisters && failed(operandRegisters(op, 0, adaptor.getA(), rewriter, aRegsOp)))
      return failure();
    const TileInfo *c = tile(op.getAcc().getType());
    Type packed = getTypeConverter()->convertType(op.getType());
    if (!c || !packed)
      return failure();
    std::string why;
    FailureOr<SharedAddressing> aAddr = failure();
    if (!aInRegisters) {
      aAddr = sharedAddressing(aType, why);
      if (failed(aAddr))
        return op->emitOpError() << "cannot address operand a: " << why;
    }
    auto bAddr = sharedAddressing(bType, why);
    if (failed(bAddr))
      return op->emitOpError() << "cannot address operand b: " << why;
    if ((!aInRegisters && !aAddr->paddings.empty()) || !bAddr->paddings.empty())
      return op->emitOpError() << "reads a padded shared layout; \"" << instr.getName()
                               << "\" reads unpadded (swizzled) tiles";
    MemDesc aDesc;
    if (!aInRegisters)
      aDesc = unpackMemDesc(rewriter, loc, adaptor.getA());
    MemDesc bDesc = unpackMemDesc(rewriter, loc, adaptor.getB());

    // Runtime origin of this warp's group: the accumulator's warp bases past
    // the instruction's own warps, as (linear, stacked) element offsets of
    // each operand.
    const int groupBits = llvm::Log2_64(instr.getWarpsPerInstr());
    Value warp = warpIdHere(lowering.hooks, rewriter, loc);
    struct Dynamic {
      Value lin, stack;
    } aDyn, bDyn;
    auto addBit = [&](Dynamic &dyn, const SharedAddressing &addr, int dim, int32_t coord,
                      Value set) {
      for (int bit = 0; (int64_t(1) << bit) <= coord; ++bit) {
        if (!((coord >> bit) & 1))
          continue;
        if (bit >= int(addr.lin[dim].size()))
          continue; // beyond the tile: the layout replicates
        if (int64_t l = addr.lin[dim][bit]) {
          Value term = LLVM::MulOp::create(rewriter, loc, set, i32Const(rewriter, loc, l));
          dyn.lin = dyn.lin ? LLVM::XOrOp::create(rewriter, loc, dyn.lin, term).getResult() : term;
        }
        if (int64_t st = addr.stack[dim][bit]) {
          Value term = LLVM::MulOp::create(rewriter, loc, set, i32Const(rewriter, loc, st));
          dyn.stack =
              dyn.stack ? LLVM::AddOp::create(rewriter, loc, dyn.stack, term).getResult() : term;
        }
      }
    };
    for (size_t i = groupBits; i < c->warpBases.size(); ++i) {
      const LinearLayout::Basis &basis = c->warpBases[i];
      if (basis[0] == 0 && basis[1] == 0)
        continue;
      Value set = LLVM::AndOp::create(
          rewriter, loc, LLVM::LShrOp::create(rewriter, loc, warp, i32Const(rewriter, loc, i)),
          i32Const(rewriter, loc, 1));
      if (!aInRegisters)
        addBit(aDyn, *aAddr, 0, basis[0], set); // rows of A
      addBit(bDyn, *bAddr, 1, basis[1], set);   // columns of B
    }

    Type elemType = getTypeConverter()->convertType(bType.getElementType());
    unsigned elemBits = bType.getElementType().getIntOrFloatBitWidth();
    // The operand tile at `origin`, and its coordinate bits over `extent`.
    auto operandAt = [&](const SharedAddressing &addr, const MemDesc &desc, const Dynamic &dyn,
                         std::vector<int32_t> origin, std::array<int64_t, 2> extent,
                         TargetHooks::SharedMatrixOperand &out) -> LogicalResult {
      auto [l, st] = addr.offsetsOf(origin);
      Value off = LLVM::XOrOp::create(rewriter, loc, desc.origin, i32Const(rewriter, loc, l));
      if (dyn.lin)
        off = LLVM::XOrOp::create(rewriter, loc, off, dyn.lin);
      if (st)
        off = LLVM::AddOp::create(rewriter, loc, off, i32Const(rewriter, loc, st));
      if (dyn.stack)
        off = LLVM::AddOp::create(rewriter, loc, off, dyn.stack);
      out.address = LLVM::GEPOp::create(rewriter, loc, desc.base.getType(), elemType, desc.base,
                                        ValueRange{off});
      out.elementBits = elemBits;
      out.byteOffsets.assign(2, {});
      for (int d = 0; d < 2; ++d)
        for (int bit = 0; (int64_t(1) << bit) < extent[d]; ++bit) {
          if (bit >= int(addr.lin[d].size()) || addr.stack[d][bit] != 0)
            return op->emitOpError() << "operand tile of \"" << instr.getName()
                                     << "\" does not lie within one shared-memory tile";
          out.byteOffsets[d].push_back(addr.lin[d][bit] * addr.elemBytes);
        }
      return success();
    };

    auto indexByCoord = [](const TileInfo &t) {
      std::map<std::vector<int32_t>, int64_t> index;
      for (int64_t r = 0; r < t.numRegs; ++r)
        index.emplace(t.regCoords[r], r);
      return index;
    };
    std::map<std::vector<int32_t>, int64_t> cRegs = indexByCoord(*c), aRegs;
    std::vector<std::vector<int32_t>> fa;
    if (aInRegisters) {
      aRegs = indexByCoord(*aRegsOp.info);
      fa = fragmentCoords(instr.getA());
    }
    auto fc = fragmentCoords(instr.getAcc());
    SmallVector<Value> cv = unpack(rewriter, loc, adaptor.getAcc());
    int64_t k = cast<ShapedType>(op.getA().getType()).getShape().back();
    const int64_t perTile = int64_t(fc.size());
    std::vector<bool> touched(c->numRegs, false);
    lowering.hooks.beginSharedMatrixGroup(rewriter, loc);
    for (int64_t first = 0; first < c->numRegs; first += perTile) {
      int32_t row0 = c->regCoords[first][0] - fc[0][0];
      int32_t col0 = c->regCoords[first][1] - fc[0][1];
      SmallVector<int64_t> cIdx;
      for (const std::vector<int32_t> &rc : fc) {
        auto it = cRegs.find({rc[0] + row0, rc[1] + col0});
        if (it == cRegs.end())
          return op->emitOpError("accumulator layout ") << op.getAcc().getType().getEncoding()
                 << " does not hold whole fragments of \"" << instr.getName() << "\"";
        cIdx.push_back(it->second);
      }
      SmallVector<Value> acc;
      for (int64_t r : cIdx)
        acc.push_back(cv[r]);
      for (int32_t k0 = 0; k0 < k; k0 += int32_t(instr.getK())) {
        TargetHooks::SharedMatrixOperand a, b;
        if (aInRegisters) {
          // The fragment's registers at the tile's origin; the warps above
          // the instruction's group hold their own rows (the operand's
          // layout has the accumulator's warps).
          a.elementBits = elemBits;
          for (const std::vector<int32_t> &rc : fa) {
            auto it = aRegs.find({rc[0] + row0, rc[1] + k0});
            if (it == aRegs.end())
              return op->emitOpError("operand a's layout does not hold the fragment of \"")
                     << instr.getName() << "\" that accumulator tile (" << row0 << ", " << col0
                     << ") needs at k = " << k0;
            a.registers.push_back(aRegsOp.regs[it->second]);
          }
        } else if (failed(operandAt(*aAddr, aDesc, aDyn, {row0, k0},
                                    {instr.getM(), instr.getK()}, a))) {
          return failure();
        }
        if (failed(operandAt(*bAddr, bDesc, bDyn, {k0, col0}, {instr.getK(), instr.getN()}, b)))
          return failure();
        Result<SmallVector<Value>> d = lowering.hooks.matrixMultiplyAccumulateShared(
            rewriter, loc, instr.getName(), a, b, acc);
        if (!d)
          return op->emitOpError() << d.error();
        if (d->size() != acc.size())
          return op->emitOpError() << "the target returned " << d->size()
                                   << " accumulator registers for \"" << instr.getName()
                                   << "\", its fragment has " << acc.size();
        acc.assign(d->begin(), d->end());
      }
      for (auto [r, v] : llvm::zip(cIdx, acc)) {
        cv[r] = v;
        touched[r] = true;
      }
    }
    SmallVector<int64_t> done;
    SmallVector<Value> doneValues;
    for (int64_t r = 0; r < c->numRegs; ++r)
      if (touched[r]) {
        done.push_back(r);
        doneValues.push_back(cv[r]);
      }
    SmallVector<Value> ready =
        lowering.hooks.endSharedMatrixGroup(rewriter, loc, doneValues, !op.getAsync());
    if (ready.size() != done.size())
      return op->emitOpError() << "the target returned " << ready.size()
                               << " registers after the matrix instructions, not "
                               << done.size();
    for (auto [r, v] : llvm::zip(done, ready))
      cv[r] = v;
    rewriter.replaceOp(op, pack(rewriter, loc, packed, cv));
    return success();
  }

  /// A dot whose accumulator has an #hd.mma layout, on a target that runs
  /// warps: one matrix instruction per instruction tile of the accumulator
  /// and step along K. The layouts (matrixOperandLayout) put each fragment's
  /// registers at fixed coordinates plus the tile's origin, so the registers
  /// an instruction takes are found by coordinate.
  LogicalResult lowerOnMatrixUnit(DotOp op, MmaLayoutAttr mma, const Operand &aOp,
                                  const Operand &bOp, OpAdaptor adaptor,
                                  ConversionPatternRewriter &rewriter) const {
    Location loc = op.getLoc();
    MatrixInstrAttr instr = mma.getInstr();
    const TileInfo *a = aOp.info, *b = bOp.info, *c = tile(op.getAcc().getType());
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
    const SmallVector<Value> &av = aOp.regs, &bv = bOp.regs;
    SmallVector<Value> cv = unpack(rewriter, loc, adaptor.getAcc());
    int64_t k = cast<ShapedType>(op.getA().getType()).getShape().back();
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
    auto mma = dyn_cast_or_null<MmaLayoutAttr>(op.getAcc().getType().getEncoding());
    bool onMatrixUnit = mma && !lowering.tiles.foldsThreads();
    if (onMatrixUnit &&
        (mma.getInstr().readsFromShared(0) || mma.getInstr().readsFromShared(1)))
      return lowerOnSharedMatrixUnit(op, mma, adaptor, rewriter);
    Operand aOp, bOp;
    if (failed(operandRegisters(op, 0, adaptor.getA(), rewriter, aOp)) ||
        failed(operandRegisters(op, 1, adaptor.getB(), rewriter, bOp)))
      return failure();
    if (onMatrixUnit)
      return lowerOnMatrixUnit(op, mma, aOp, bOp, adaptor, rewriter);
    Location loc = op.getLoc();
    const TileInfo *a = aOp.info, *b = bOp.info, *c = tile(op.getAcc().getType());
    Type packed = getTypeConverter()->convertType(op.getType());
    if (!a || !b || !c || !packed)
      return failure();
    int64_t rank = op.getType().getRank();
    int64_t k = cast<ShapedType>(op.getA().getType()).getShape().back();
    std::map<std::vector<int32_t>, int64_t> aRegs, bRegs;
    for (int64_t r = 0; r < a->numRegs; ++r)
      aRegs.emplace(a->regCoords[r], r);
    for (int64_t r = 0; r < b->numRegs; ++r)
      bRegs.emplace(b->regCoords[r], r);
    const SmallVector<Value> &av = aOp.regs, &bv = bOp.regs;
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

/// The registers of `value` through the target's wait for async dots.
struct DotWaitLowering : TilePattern<DotWaitOp> {
  using TilePattern::TilePattern;
  LogicalResult matchAndRewrite(DotWaitOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type packed = getTypeConverter()->convertType(op.getType());
    if (!packed)
      return failure();
    SmallVector<Value> regs = unpack(rewriter, loc, adaptor.getValue());
    SmallVector<Value> ready =
        lowering.hooks.waitSharedMatrixGroups(rewriter, loc, unsigned(op.getPending()), regs);
    if (ready.size() != regs.size())
      return op->emitOpError() << "the target returned " << ready.size() << " registers, not "
                               << regs.size();
    // Where the wait changes no register (a target without async matrix
    // units), the tile stays as it is instead of being rebuilt lane by lane.
    if (llvm::equal(ready, regs))
      rewriter.replaceOp(op, adaptor.getValue());
    else
      rewriter.replaceOp(op, pack(rewriter, loc, packed, ready));
    return success();
  }
};

} // namespace

void populateDotPatterns(TileTypeConverter &converter, Lowering &lowering, RewritePatternSet &patterns) {
  patterns.add<DotLowering, DotWaitLowering>(converter, lowering);
}

} // namespace hadron::lowering
