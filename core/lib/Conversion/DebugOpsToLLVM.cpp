//===- DebugOpsToLLVM.cpp - print and assert ------------------------------===//
//
// hd.print prints, from every thread, each element it holds with its program
// id and tensor coordinates; scalars print once per thread on one line.
// hd.assert reduces the thread's condition elements and hands the result to
// the target's assert hook.
//
//===----------------------------------------------------------------------===//

#include "LoweringInternals.h"

namespace hadron::lowering {
namespace {

/// printf conversion and the value promoted as C varargs are.
std::pair<std::string, Value> formatValue(OpBuilder &b, Location loc, Value v, bool hex) {
  Type t = v.getType();
  if (isa<LLVM::LLVMPointerType>(t))
    return {"%p", v};
  if (auto f = dyn_cast<FloatType>(t)) {
    if (f.getWidth() < 64)
      v = LLVM::FPExtOp::create(b, loc, b.getF64Type(), v);
    return {hex ? "%a" : "%g", v};
  }
  unsigned width = t.getIntOrFloatBitWidth();
  if (width == 64)
    return {hex ? "0x%llx" : "%lld", v};
  if (width < 32)
    v = width == 1 ? LLVM::ZExtOp::create(b, loc, b.getI32Type(), v).getResult()
                   : LLVM::SExtOp::create(b, loc, b.getI32Type(), v).getResult();
  return {hex ? "0x%x" : "%d", v};
}

struct PrintLowering : TilePattern<PrintOp> {
  using TilePattern::TilePattern;
  LogicalResult matchAndRewrite(PrintOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    TargetHooks &hooks = lowering.hooks;
    SmallVector<Value> pids;
    for (int axis = 0; axis < 3; ++axis)
      pids.push_back(hooks.programId(rewriter, loc, axis));
    std::string prefix = op.getPrefix().str();
    // Escape '%' so the user's prefix is printed as written.
    std::string escaped;
    for (char c : prefix)
      escaped += c == '%' ? std::string("%%") : std::string(1, c);

    SmallVector<Value> scalars;
    std::string scalarFormat = "pid (%d, %d, %d) " + escaped;
    bool anyScalar = false;
    for (auto [orig, conv] : llvm::zip(op.getArgs(), adaptor.getArgs())) {
      auto tensor = dyn_cast<RankedTensorType>(orig.getType());
      if (!tensor) {
        auto [fmt, v] = formatValue(rewriter, loc, conv, op.getHex());
        scalarFormat += (anyScalar ? ", " : "") + fmt;
        scalars.push_back(v);
        anyScalar = true;
        continue;
      }
      const TileInfo *info = lowering.tiles.get(tensor);
      if (!info)
        return failure();
      SmallVector<Value> thread = threadCoords(rewriter, loc, *info, hooks);
      auto printAt = [&](ArrayRef<Value> coords, Value value) {
        SmallVector<Value> args(pids);
        std::string format = "pid (%d, %d, %d) idx (";
        for (auto [d, c] : llvm::enumerate(coords)) {
          format += d ? ", %d" : "%d";
          args.push_back(c);
        }
        auto [fmt, v] = formatValue(rewriter, loc, value, op.getHex());
        format += ") " + escaped + fmt + "\n";
        args.push_back(v);
        hooks.print(rewriter, loc, format, args);
      };
      if (thread.empty() && walkInLoop(lowering.tiles, info->numRegs)) {
        Type elem = cast<VectorType>(conv.getType()).getElementType();
        Value buffer = spillTile(rewriter, loc, op, conv);
        emitLoop(rewriter, loc, info->numRegs, [&](Value r) {
          printAt(registerCoords(rewriter, loc, *info, r),
                  loadLanes(rewriter, loc, buffer, elem, r, 0));
        });
        continue;
      }
      SmallVector<Value> values = unpack(rewriter, loc, conv);
      for (int64_t r = 0; r < info->numRegs; ++r) {
        SmallVector<Value> coords;
        for (int64_t d = 0; d < tensor.getRank(); ++d)
          coords.push_back(coordValue(rewriter, loc, *info, thread, r, d));
        printAt(coords, values[r]);
      }
    }
    if (anyScalar || op.getArgs().empty()) {
      SmallVector<Value> args(pids);
      args.append(scalars.begin(), scalars.end());
      hooks.print(rewriter, loc, scalarFormat + "\n", args);
    }
    rewriter.eraseOp(op);
    return success();
  }
};

struct AssertLowering : TilePattern<AssertOp> {
  using TilePattern::TilePattern;
  LogicalResult matchAndRewrite(AssertOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value cond = adaptor.getCondition();
    if (auto vec = dyn_cast<VectorType>(cond.getType());
        vec && walkInLoop(lowering.tiles, vec.getNumElements())) {
      Value buffer = spillTile(rewriter, loc, op, cond);
      cond = emitLoop(rewriter, loc, vec.getNumElements(),
                      ValueRange{LLVM::ConstantOp::create(rewriter, loc, rewriter.getI1Type(),
                                                          rewriter.getBoolAttr(true))
                                     .getResult()},
                      [&](Value r, ValueRange all) {
                        Value bit = loadLanes(rewriter, loc, buffer, rewriter.getI1Type(), r, 0);
                        return SmallVector<Value>{LLVM::AndOp::create(rewriter, loc, all[0], bit)};
                      })
                 .front();
    } else if (auto vec = dyn_cast<VectorType>(cond.getType())) {
      SmallVector<Value> bits = unpack(rewriter, loc, cond);
      cond = bits.front();
      for (size_t i = 1; i < bits.size(); ++i)
        cond = LLVM::AndOp::create(rewriter, loc, cond, bits[i]);
    }
    std::string message = op.getMessage().str();
    if (auto file = dyn_cast<FileLineColLoc>(loc))
      message = (file.getFilename().getValue() + ":" + std::to_string(file.getLine()) +
                 ": assertion failed: " + message)
                    .str();
    else
      message = "assertion failed: " + message;
    lowering.hooks.assertTrue(rewriter, loc, cond, message);
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

void populateDebugPatterns(TileTypeConverter &converter, Lowering &lowering,
                           RewritePatternSet &patterns) {
  patterns.add<PrintLowering, AssertLowering>(converter, lowering);
}

} // namespace hadron::lowering
