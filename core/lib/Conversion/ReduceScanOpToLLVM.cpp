//===- ReduceScanOpToLLVM.cpp - reduce and scan ===//

#include "TileLowering.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "llvm/Support/MathExtras.h"

namespace hadron::lowering {
namespace {

//===----------------------------------------------------------------------===//
// Reductions, scans and dot
//===----------------------------------------------------------------------===//

struct ReduceLowering : TilePattern<ReduceOp> {
  using TilePattern::TilePattern;
  LogicalResult matchAndRewrite(ReduceOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    const TileInfo *src = tile(op.getSrcs().front().getType());
    if (!src)
      return failure();
    unsigned axis = op.getAxis();
    size_t n = op.getSrcs().size();
    SmallVector<SmallVector<Value>> inputs;
    for (Value v : adaptor.getSrcs())
      inputs.push_back(unpack(rewriter, loc, v));

    // Within a thread: registers that differ only along `axis` combine.
    std::map<std::vector<int32_t>, SmallVector<Value>> groups;
    std::vector<std::vector<int32_t>> order;
    for (int64_t r = 0; r < src->numRegs; ++r) {
      std::vector<int32_t> key = src->regCoords[r];
      key.erase(key.begin() + axis);
      auto it = groups.find(key);
      SmallVector<Value> values;
      for (size_t i = 0; i < n; ++i)
        values.push_back(inputs[i][r]);
      if (it == groups.end()) {
        groups.emplace(key, values);
        order.push_back(key);
      } else {
        it->second = inlineCombine(rewriter, op.getCombine(), it->second, values);
      }
    }
    // Across lanes: a butterfly over each lane bit that moves along `axis`.
    for (auto [bit, basis] : llvm::enumerate(src->laneBases)) {
      if (basis[axis] == 0)
        continue;
      for (auto &key : order) {
        SmallVector<Value> &acc = groups[key];
        SmallVector<Value> other;
        for (Value v : acc)
          other.push_back(lowering.hooks.shuffle(rewriter, loc, v,
                                                 i32Const(rewriter, loc, 1 << bit),
                                                 TargetHooks::ShuffleKind::Xor));
        acc = inlineCombine(rewriter, op.getCombine(), acc, other);
      }
    }
    for (auto &basis : src->warpBases)
      if (basis[axis] != 0)
        return op->emitOpError()
               << "reduces across warps, which needs a shared-memory exchange this "
                  "lowering does not implement yet; keep the reduced dimension within "
                  "one warp (warpsPerCTA[" << axis << "] = 1)";

    SmallVector<Value> results;
    if (op.getResults().front().getType().isIntOrIndexOrFloat()) {
      results = groups[order.front()];
    } else {
      for (size_t i = 0; i < n; ++i) {
        Type resultType = op.getResult(i).getType();
        const TileInfo *dst = tile(resultType);
        Type packed = getTypeConverter()->convertType(resultType);
        if (!dst || !packed)
          return failure();
        SmallVector<Value> values;
        for (int64_t r = 0; r < dst->numRegs; ++r) {
          auto it = groups.find(dst->regCoords[r]);
          if (it == groups.end())
            return op->emitOpError("result layout does not match the reduced operand");
          values.push_back(it->second[i]);
        }
        results.push_back(pack(rewriter, loc, packed, values));
      }
    }
    rewriter.replaceOp(op, results);
    return success();
  }
};

struct ScanLowering : TilePattern<ScanOp> {
  using TilePattern::TilePattern;
  LogicalResult matchAndRewrite(ScanOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    const TileInfo *info = tile(op.getSrcs().front().getType());
    if (!info)
      return failure();
    unsigned axis = op.getAxis();
    for (auto *bases : {&info->laneBases, &info->warpBases})
      for (auto &b : *bases)
        if (b[axis] != 0)
          return op->emitOpError() << "scans across threads, which this lowering does not "
                                      "implement yet; keep dimension "
                                   << axis << " within each thread's registers";
    size_t n = op.getSrcs().size();
    SmallVector<SmallVector<Value>> values;
    for (Value v : adaptor.getSrcs())
      values.push_back(unpack(rewriter, loc, v));
    // Registers of each line along `axis`, in coordinate order.
    std::map<std::vector<int32_t>, std::vector<std::pair<int32_t, int64_t>>> lines;
    for (int64_t r = 0; r < info->numRegs; ++r) {
      std::vector<int32_t> key = info->regCoords[r];
      int32_t pos = key[axis];
      key.erase(key.begin() + axis);
      lines[key].push_back({pos, r});
    }
    for (auto &[key, regs] : lines) {
      llvm::sort(regs);
      if (op.getReverse())
        std::reverse(regs.begin(), regs.end());
      SmallVector<Value> acc;
      for (size_t i = 0; i < n; ++i)
        acc.push_back(values[i][regs.front().second]);
      for (size_t j = 1; j < regs.size(); ++j) {
        SmallVector<Value> cur;
        for (size_t i = 0; i < n; ++i)
          cur.push_back(values[i][regs[j].second]);
        acc = inlineCombine(rewriter, op.getCombine(), acc, cur);
        for (size_t i = 0; i < n; ++i)
          values[i][regs[j].second] = acc[i];
      }
    }
    SmallVector<Value> results;
    for (size_t i = 0; i < n; ++i)
      results.push_back(pack(rewriter, loc,
                             getTypeConverter()->convertType(op.getResult(i).getType()),
                             values[i]));
    rewriter.replaceOp(op, results);
    return success();
  }
};


} // namespace

void populateReduceScanPatterns(TileTypeConverter &converter, Lowering &lowering, RewritePatternSet &patterns) {
  patterns.add<ReduceLowering, ScanLowering>(converter, lowering);
}

} // namespace hadron::lowering
