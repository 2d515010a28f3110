//===- HostHooks.h - The host CPU's answers to the target hooks -*- C++ -*-===//
#ifndef HADRON_TARGETS_HOST_HOSTHOOKS_H
#define HADRON_TARGETS_HOST_HOSTHOOKS_H

#include "HostModel.h"

#include "hadron/Conversion/TargetHooks.h"

#include "mlir/IR/BuiltinOps.h"

namespace hadron::host {

/// One CTA runs as one CPU thread: lanes and warps are folded into
/// registers, barriers are no-ops (there is nobody to wait for), and shared
/// memory is the per-CTA buffer the runtime passes in.
class HostHooks : public TargetHooks {
public:
  explicit HostHooks(unsigned maxVectorBytes) : vectorBytes(maxVectorBytes) {}

  bool foldsThreadsIntoRegisters() const override { return true; }
  unsigned globalAddressSpace() const override { return 0; }
  unsigned sharedAddressSpace() const override { return 0; }
  unsigned maxVectorBytes() const override { return vectorBytes; }
  bool vectorAccessNeedsAlignment() const override { return false; }
  void appendImplicitKernelArgs(mlir::MLIRContext *ctx,
                                llvm::SmallVectorImpl<mlir::Type> &types) const override;
  void beginKernel(mlir::Block &entry, unsigned firstImplicitArg) override;
  void finishKernel(mlir::LLVM::LLVMFuncOp func) override;
  mlir::Value programId(mlir::OpBuilder &b, mlir::Location loc, int axis) override;
  mlir::Value numPrograms(mlir::OpBuilder &b, mlir::Location loc, int axis) override;
  mlir::Value laneId(mlir::OpBuilder &b, mlir::Location loc) override;
  mlir::Value warpId(mlir::OpBuilder &b, mlir::Location loc) override;
  void barrier(mlir::OpBuilder &b, mlir::Location loc) override {}
  mlir::Value sharedMemoryBase(mlir::OpBuilder &b, mlir::Location loc) override;
  SharedMemoryBanks sharedMemoryBanks() const override { return {kSharedBanks, 0}; }
  unsigned maxSharedVectorBytes() const override { return kSharedVectorBytes; }
  mlir::Value shuffle(mlir::OpBuilder &b, mlir::Location loc, mlir::Value value,
                      mlir::Value laneOrMask, ShuffleKind kind) override;
  void print(mlir::OpBuilder &b, mlir::Location loc, llvm::StringRef format,
             mlir::ValueRange args) override;
  void assertTrue(mlir::OpBuilder &b, mlir::Location loc, mlir::Value condition,
                  llvm::StringRef message) override;

private:
  static constexpr const char *kAssertHelper = "__hd_assert";
  void defineAssertHelper(mlir::ModuleOp module, mlir::Location loc);
  mlir::Value gridInfo(mlir::OpBuilder &b, mlir::Location loc, int index);

  unsigned vectorBytes;
  /// Op results (not block arguments) standing for the implicit arguments of
  /// the kernel being lowered, so that they survive the signature conversion.
  mlir::Value grid, shared;
};

} // namespace hadron::host

#endif
