//===- Passes.cpp - MLIR pass wrappers of the core passes -----------------===//

#include "hadron/Conversion/Passes.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassRegistry.h"

using namespace mlir;

namespace {

struct ResolveLayoutsPass : PassWrapper<ResolveLayoutsPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(ResolveLayoutsPass)
  ResolveLayoutsPass() = default;
  ResolveLayoutsPass(const ResolveLayoutsPass &other) : PassWrapper(other) {}
  StringRef getArgument() const override { return "hd-resolve-layouts"; }
  StringRef getDescription() const override {
    return "Replace #hd.auto and #hd.coalesced layouts by blocked layouts for the target";
  }
  Option<unsigned> maxVectorBytes{*this, "max-vector-bytes",
                                  llvm::cl::desc("Widest vector access of one thread"),
                                  llvm::cl::init(16)};
  void runOnOperation() override {
    hadron::ResolveLayoutsOptions options;
    options.maxVectorBytes = maxVectorBytes;
    if (failed(hadron::resolveLayouts(getOperation(), options)))
      signalPassFailure();
  }
};

struct AllocateSharedMemoryPass
    : PassWrapper<AllocateSharedMemoryPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(AllocateSharedMemoryPass)
  AllocateSharedMemoryPass() = default;
  AllocateSharedMemoryPass(const AllocateSharedMemoryPass &other) : PassWrapper(other) {}
  StringRef getArgument() const override { return "hd-allocate-shared-memory"; }
  StringRef getDescription() const override {
    return "Give every shared-memory buffer an offset, reusing memory across lifetimes";
  }
  Option<bool> foldThreads{*this, "fold-threads",
                           llvm::cl::desc("The target runs each CTA as one thread"),
                           llvm::cl::init(false)};
  void runOnOperation() override {
    if (failed(hadron::allocateSharedMemory(getOperation(), foldThreads)))
      signalPassFailure();
  }
};

struct ExpandMathPass : PassWrapper<ExpandMathPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(ExpandMathPass)
  StringRef getArgument() const override { return "hd-expand-math"; }
  StringRef getDescription() const override {
    return "Rewrite math ops with no LLVM counterpart (erf) into arith/math ops";
  }
  void runOnOperation() override {
    if (failed(hadron::expandMath(getOperation())))
      signalPassFailure();
  }
};

struct LegalizeShapeMovesPass : PassWrapper<LegalizeShapeMovesPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(LegalizeShapeMovesPass)
  LegalizeShapeMovesPass() = default;
  LegalizeShapeMovesPass(const LegalizeShapeMovesPass &other) : PassWrapper(other) {}
  StringRef getArgument() const override { return "hd-legalize-shape-moves"; }
  StringRef getDescription() const override {
    return "Split reshape/join/split that move elements between threads into a register-only "
           "op and a convert_layout";
  }
  Option<bool> foldThreads{*this, "fold-threads",
                           llvm::cl::desc("The target runs each CTA as one thread"),
                           llvm::cl::init(false)};
  void runOnOperation() override {
    if (failed(hadron::legalizeShapeMoves(getOperation(), foldThreads)))
      signalPassFailure();
  }
};

struct InsertBarriersPass : PassWrapper<InsertBarriersPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(InsertBarriersPass)
  StringRef getArgument() const override { return "hd-insert-barriers"; }
  StringRef getDescription() const override {
    return "Insert hd.barrier where shared-memory accesses of different threads race";
  }
  void runOnOperation() override {
    if (failed(hadron::insertBarriers(getOperation())))
      signalPassFailure();
  }
};

} // namespace

void hadron::registerHadronPasses() {
  PassRegistration<ResolveLayoutsPass>();
  PassRegistration<ExpandMathPass>();
  PassRegistration<LegalizeShapeMovesPass>();
  PassRegistration<AllocateSharedMemoryPass>();
  PassRegistration<InsertBarriersPass>();
}
