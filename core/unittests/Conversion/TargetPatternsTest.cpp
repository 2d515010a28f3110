//===- TargetPatternsTest.cpp - A target's patterns before core's ---------===//
//
// TargetHooks::populateLoweringPatterns: a target's pattern replaces core's
// generic lowering of the ops it matches, a pattern that declines leaves the
// op to core, and a pattern too weak to be tried first is refused.
//
//===----------------------------------------------------------------------===//

#include "hadron/Conversion/LoweringUtils.h"
#include "hadron/Conversion/TargetHooks.h"
#include "hadron/IR/Dialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Parser/Parser.h"

#include <gtest/gtest.h>

#include <set>
#include <string>

using namespace mlir;
using namespace hadron;

namespace {

/// Which lowering produced each hd.program_id: the axes core's generic
/// pattern asked the hook for, and those the target's pattern lowered.
struct Record {
  std::set<int> hookAxes, patternAxes;
};

/// hd.program_id on the axes in `axes`, as the constant 1000 + axis;
/// declines every other axis.
struct ProgramIdOverride : lowering::TilePattern<hd::ProgramIdOp> {
  ProgramIdOverride(lowering::TileTypeConverter &converter, lowering::Lowering &lowering,
                    unsigned benefit, std::set<int> axes, Record &record)
      : TilePattern(converter, lowering, benefit), axes(std::move(axes)), record(record) {}
  LogicalResult matchAndRewrite(hd::ProgramIdOp op, OpAdaptor,
                                ConversionPatternRewriter &rewriter) const override {
    int axis = int(op.getAxis());
    if (!axes.count(axis))
      return rewriter.notifyMatchFailure(op, "not an axis this target lowers itself");
    record.patternAxes.insert(axis);
    rewriter.replaceOp(op, lowering::i32Const(rewriter, op.getLoc(), 1000 + axis));
    return success();
  }
  std::set<int> axes;
  Record &record;
};

/// A target where one thread runs a CTA, so that only ids and a few
/// addresses come from the hooks.
class TestHooks : public TargetHooks {
public:
  TestHooks(unsigned benefit, std::set<int> axes) : benefit(benefit), axes(std::move(axes)) {}
  Record record;

  bool foldsThreadsIntoRegisters() const override { return true; }
  unsigned globalAddressSpace() const override { return 0; }
  unsigned sharedAddressSpace() const override { return 0; }
  unsigned maxVectorBytes() const override { return 16; }
  bool vectorAccessNeedsAlignment() const override { return false; }
  void appendImplicitKernelArgs(MLIRContext *, llvm::SmallVectorImpl<Type> &) const override {}
  void beginKernel(Block &, unsigned) override {}
  void finishKernel(LLVM::LLVMFuncOp) override {}
  Value programId(OpBuilder &b, Location loc, int axis) override {
    record.hookAxes.insert(axis);
    return lowering::i32Const(b, loc, axis);
  }
  Value numPrograms(OpBuilder &b, Location loc, int) override {
    return lowering::i32Const(b, loc, 1);
  }
  Value laneId(OpBuilder &b, Location loc) override { return lowering::i32Const(b, loc, 0); }
  Value warpId(OpBuilder &b, Location loc) override { return lowering::i32Const(b, loc, 0); }
  void barrier(OpBuilder &, Location) override {}
  Value sharedMemoryBase(OpBuilder &b, Location loc) override {
    return LLVM::ZeroOp::create(b, loc, LLVM::LLVMPointerType::get(b.getContext()));
  }
  Value shuffle(OpBuilder &, Location, Value value, Value, ShuffleKind) override { return value; }
  void print(OpBuilder &, Location, llvm::StringRef, ValueRange) override {}
  void assertTrue(OpBuilder &, Location, Value, llvm::StringRef) override {}

  void populateLoweringPatterns(lowering::TileTypeConverter &converter,
                                lowering::Lowering &lowering,
                                RewritePatternSet &patterns) override {
    patterns.add<ProgramIdOverride>(converter, lowering, benefit, axes, record);
  }

private:
  unsigned benefit;
  std::set<int> axes;
};

/// Stores program ids 0 and 1.
constexpr const char *kKernel = R"mlir(
module attributes {hd.num_warps = 1 : i32} {
  func.func @ids(%out: !hd.ptr<i32>) attributes {hd.kernel} {
    %x = hd.program_id 0
    %y = hd.program_id 1
    %s = arith.addi %x, %y : i32
    hd.store %out, %s : !hd.ptr<i32>
    return
  }
}
)mlir";

class TargetPatternsTest : public ::testing::Test {
protected:
  TargetPatternsTest() {
    ctx.loadDialect<hd::HadronDialect, arith::ArithDialect, cf::ControlFlowDialect,
                    func::FuncDialect, math::MathDialect, scf::SCFDialect, LLVM::LLVMDialect>();
  }
  /// Lowers kKernel with `hooks`; the diagnostics go to `errors`.
  LogicalResult lower(TestHooks &hooks) {
    OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(kKernel, &ctx);
    EXPECT_TRUE(module);
    ScopedDiagnosticHandler handler(&ctx, [&](Diagnostic &d) {
      errors += d.str() + "\n";
      return success();
    });
    return distributeToLLVM(*module, hooks);
  }
  MLIRContext ctx;
  std::string errors;
};

TEST_F(TargetPatternsTest, TargetPatternReplacesTheGenericOne) {
  TestHooks hooks(lowering::kTargetPatternBenefit, {0, 1});
  ASSERT_TRUE(succeeded(lower(hooks))) << errors;
  EXPECT_EQ(hooks.record.patternAxes, (std::set<int>{0, 1}));
  EXPECT_TRUE(hooks.record.hookAxes.empty());
}

TEST_F(TargetPatternsTest, DecliningPatternFallsBackToTheGenericOne) {
  TestHooks hooks(lowering::kTargetPatternBenefit, {0});
  ASSERT_TRUE(succeeded(lower(hooks))) << errors;
  EXPECT_EQ(hooks.record.patternAxes, (std::set<int>{0}));
  EXPECT_EQ(hooks.record.hookAxes, (std::set<int>{1}));
}

TEST_F(TargetPatternsTest, PatternBelowTheTargetBenefitIsRefused) {
  TestHooks hooks(/*benefit=*/1, {0, 1});
  EXPECT_TRUE(failed(lower(hooks)));
  EXPECT_NE(errors.find("a target pattern for hd.program_id has benefit 1; a target's patterns "
                        "need at least 100 (kTargetPatternBenefit)"),
            std::string::npos)
      << errors;
  EXPECT_TRUE(hooks.record.patternAxes.empty());
}

} // namespace
