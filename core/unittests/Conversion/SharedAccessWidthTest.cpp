//===- SharedAccessWidthTest.cpp - Shared accesses as wide as the target says ===//
//
// TargetHooks::maxSharedVectorBytes: a convert_layout through shared memory
// reads the scratch buffer in vectors as wide as the target allows (at most
// the 16 bytes every buffer is aligned to), and a target that says nothing
// gets 16 bytes.
//
//===----------------------------------------------------------------------===//

#include "hadron/Conversion/LoweringUtils.h"
#include "hadron/Conversion/Passes.h"
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

#include <map>
#include <optional>
#include <string>

using namespace mlir;
using namespace hadron;

namespace {

constexpr unsigned kShared = 3;

/// A GPU-like target with 32-lane warps whose widest shared access is
/// `sharedBytes`, or the default when unset.
class WarpHooks : public TargetHooks {
public:
  explicit WarpHooks(std::optional<unsigned> sharedBytes) : sharedBytes(sharedBytes) {}

  bool foldsThreadsIntoRegisters() const override { return false; }
  unsigned globalAddressSpace() const override { return 1; }
  unsigned sharedAddressSpace() const override { return kShared; }
  unsigned maxVectorBytes() const override { return 16; }
  bool vectorAccessNeedsAlignment() const override { return true; }
  unsigned maxSharedVectorBytes() const override {
    return sharedBytes ? *sharedBytes : TargetHooks::maxSharedVectorBytes();
  }
  void appendImplicitKernelArgs(MLIRContext *, llvm::SmallVectorImpl<Type> &) const override {}
  void beginKernel(Block &, unsigned) override {}
  void finishKernel(LLVM::LLVMFuncOp) override {}
  Value programId(OpBuilder &b, Location loc, int) override {
    return lowering::i32Const(b, loc, 0);
  }
  Value numPrograms(OpBuilder &b, Location loc, int) override {
    return lowering::i32Const(b, loc, 1);
  }
  Value laneId(OpBuilder &b, Location loc) override { return lowering::i32Const(b, loc, 0); }
  Value warpId(OpBuilder &b, Location loc) override { return lowering::i32Const(b, loc, 0); }
  void barrier(OpBuilder &, Location) override {}
  Value sharedMemoryBase(OpBuilder &b, Location loc) override {
    return LLVM::ZeroOp::create(b, loc, LLVM::LLVMPointerType::get(b.getContext(), kShared));
  }
  Value shuffle(OpBuilder &, Location, Value value, Value, ShuffleKind) override { return value; }
  void print(OpBuilder &, Location, llvm::StringRef, ValueRange) override {}
  void assertTrue(OpBuilder &, Location, Value, llvm::StringRef) override {}

private:
  std::optional<unsigned> sharedBytes;
};

/// Transposes the threads of a 32x32 f32 tile: lane l writes column l, one
/// element per row (registers step along dim0, never contiguous in the
/// scratch rows), then reads row l, whose 32 elements are contiguous.
constexpr const char *kKernel = R"mlir(
#cols = #hd.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 1], order = [1, 0]}>
#rows = #hd.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [1, 1], order = [0, 1]}>
module attributes {hd.num_warps = 1 : i32} {
  func.func @transpose(%in: !hd.ptr<f32>, %out: !hd.ptr<f32>) attributes {hd.kernel} {
    %p = hd.splat %in : tensor<32x32x!hd.ptr<f32>, #cols>
    %x = hd.load %p : tensor<32x32x!hd.ptr<f32>, #cols>
    %y = hd.convert_layout %x : tensor<32x32xf32, #cols> -> tensor<32x32xf32, #rows>
    %q = hd.splat %out : tensor<32x32x!hd.ptr<f32>, #rows>
    hd.store %q, %y : tensor<32x32x!hd.ptr<f32>, #rows>
    return
  }
}
)mlir";

class SharedAccessWidthTest : public ::testing::Test {
protected:
  SharedAccessWidthTest() {
    ctx.loadDialect<hd::HadronDialect, arith::ArithDialect, cf::ControlFlowDialect,
                    func::FuncDialect, math::MathDialect, scf::SCFDialect, LLVM::LLVMDialect>();
  }

  /// The shared-memory loads and stores of kKernel lowered with `hooks`:
  /// how many of each accessed type, printed ("vector<4xf32>": 8).
  struct Accesses {
    std::map<std::string, int> loads, stores;
  };
  Accesses lower(TargetHooks &hooks) {
    Accesses out;
    OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(kKernel, &ctx);
    EXPECT_TRUE(module);
    if (!module)
      return out;
    ScopedDiagnosticHandler handler(&ctx, [&](Diagnostic &d) {
      errors += d.str() + "\n";
      return success();
    });
    EXPECT_TRUE(succeeded(allocateSharedMemory(*module, /*foldThreads=*/false))) << errors;
    EXPECT_TRUE(succeeded(distributeToLLVM(*module, hooks))) << errors;
    auto shared = [](Value address) {
      return cast<LLVM::LLVMPointerType>(address.getType()).getAddressSpace() == kShared;
    };
    auto name = [](Type type) {
      std::string s;
      llvm::raw_string_ostream os(s);
      type.print(os);
      return s;
    };
    module->walk([&](Operation *op) {
      if (auto load = dyn_cast<LLVM::LoadOp>(op); load && shared(load.getAddr()))
        ++out.loads[name(load.getType())];
      if (auto store = dyn_cast<LLVM::StoreOp>(op); store && shared(store.getAddr()))
        ++out.stores[name(store.getValue().getType())];
    });
    return out;
  }

  MLIRContext ctx;
  std::string errors;
};

using Counts = std::map<std::string, int>;

// Each lane reads its row of 32 elements in 8 loads of 4: 16 bytes, the
// default. The stores are one element each whatever the width.
TEST_F(SharedAccessWidthTest, DefaultIsSixteenBytes) {
  WarpHooks hooks(std::nullopt);
  Accesses a = lower(hooks);
  EXPECT_EQ(a.loads, (Counts{{"vector<4xf32>", 8}}));
  EXPECT_EQ(a.stores, (Counts{{"f32", 32}}));
}

TEST_F(SharedAccessWidthTest, NarrowerTargetSplitsTheReads) {
  WarpHooks eight(8u);
  EXPECT_EQ(lower(eight).loads, (Counts{{"vector<2xf32>", 16}}));
  WarpHooks four(4u);
  Accesses a = lower(four);
  EXPECT_EQ(a.loads, (Counts{{"f32", 32}}));
  EXPECT_EQ(a.stores, (Counts{{"f32", 32}}));
}

// Buffers are 16-byte aligned (kSharedBufferAlignment), so a wider claim
// still reads 16 bytes at a time.
TEST_F(SharedAccessWidthTest, WiderTargetStopsAtTheBufferAlignment) {
  WarpHooks wide(64u);
  EXPECT_EQ(lower(wide).loads, (Counts{{"vector<4xf32>", 8}}));
}

} // namespace
