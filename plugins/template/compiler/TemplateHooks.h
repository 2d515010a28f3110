//===- TemplateHooks.h - The template target's answers to the hooks -*- C++ -*-===//
//
// How the shared distribute lowering emits this target's ids, barriers,
// shuffles and shared memory. The template runs one CTA as one CPU thread,
// like the host target: lanes and warps are folded into registers, so there
// is no lane id, no shuffle and nobody to wait for at a barrier. A GPU
// target returns its thread-id intrinsics, shuffles and barriers instead
// (see hadron/Conversion/TargetHooks.h for what each hook must do).
//
//===----------------------------------------------------------------------===//
#ifndef TEMPLATE_COMPILER_TEMPLATEHOOKS_H
#define TEMPLATE_COMPILER_TEMPLATEHOOKS_H

#include "hadron/Conversion/TargetHooks.h"

namespace template_target {

class TemplateHooks : public hadron::TargetHooks {
public:
  bool foldsThreadsIntoRegisters() const override { return true; }
  unsigned globalAddressSpace() const override { return 0; }
  unsigned sharedAddressSpace() const override { return 0; }
  unsigned maxVectorBytes() const override { return 16; }
  bool vectorAccessNeedsAlignment() const override { return false; }
  void appendImplicitKernelArgs(mlir::MLIRContext *ctx,
                                llvm::SmallVectorImpl<mlir::Type> &types) const override;
  void beginKernel(mlir::Block &entry, unsigned firstImplicitArg) override;
  void finishKernel(mlir::LLVM::LLVMFuncOp func) override;
  mlir::Value programId(mlir::OpBuilder &b, mlir::Location loc, int axis) override;
  mlir::Value numPrograms(mlir::OpBuilder &b, mlir::Location loc, int axis) override;
  mlir::Value laneId(mlir::OpBuilder &b, mlir::Location loc) override;
  mlir::Value warpId(mlir::OpBuilder &b, mlir::Location loc) override;
  void barrier(mlir::OpBuilder &, mlir::Location) override {}
  mlir::Value sharedMemoryBase(mlir::OpBuilder &, mlir::Location) override { return shared; }
  /// Shared memory is plain memory here: no banks, so every scratch layout
  /// is as good. A GPU target returns its model's bank count and width.
  SharedMemoryBanks sharedMemoryBanks() const override { return {0, 0}; }
  unsigned maxSharedVectorBytes() const override { return 16; }
  mlir::Value shuffle(mlir::OpBuilder &, mlir::Location, mlir::Value value, mlir::Value,
                      ShuffleKind) override {
    return value; // a warp of one lane
  }
  void print(mlir::OpBuilder &b, mlir::Location loc, llvm::StringRef format,
             mlir::ValueRange args) override;
  void assertTrue(mlir::OpBuilder &b, mlir::Location loc, mlir::Value condition,
                  llvm::StringRef message) override;
  /// The target's own patterns, tried before core's (TemplatePatterns.cpp).
  void populateLoweringPatterns(hadron::lowering::TileTypeConverter &converter,
                                hadron::lowering::Lowering &lowering,
                                mlir::RewritePatternSet &patterns) override;

private:
  /// The implicit arguments (grid info, shared memory) as op results, which
  /// survive the signature conversion that block arguments do not.
  mlir::Value grid, shared;
};

} // namespace template_target

#endif
