//===- AmdHooks.h - AMD GPUs' answers to the target hooks -------*- C++ -*-===//
//
// Ids, barriers, shuffles and LDS: amdgcn intrinsics that raiseToRocdl
// (RocdlDialect.h) turns into ROCDL dialect ops after distribute. Matrix
// instructions stay llvm.amdgcn.mfma/wmma intrinsic calls.
//
//===----------------------------------------------------------------------===//
#ifndef HADRON_TARGETS_AMD_COMPILER_AMDHOOKS_H
#define HADRON_TARGETS_AMD_COMPILER_AMDHOOKS_H

#include "hadron/Conversion/TargetHooks.h"

#include "AmdModel.h"

#include <string>

namespace hadron::amd {

/// One wavefront is one hd warp. A CTA is a 1-D workgroup of
/// num_warps * waveSize work-items; program ids are workgroup ids; the
/// grid's size comes from the hidden kernel arguments of code object v5
/// (hidden_block_count_x/y/z), so no device library is needed for it.
class AmdHooks : public TargetHooks {
public:
  explicit AmdHooks(const ArchModel &arch) : arch(arch) {}

  bool foldsThreadsIntoRegisters() const override { return false; }
  unsigned globalAddressSpace() const override { return 1; }
  unsigned sharedAddressSpace() const override { return 3; }
  unsigned maxVectorBytes() const override { return arch.maxVectorBytes; }
  SharedMemoryBanks sharedMemoryBanks() const override {
    return {arch.ldsBanks, arch.ldsBankBytes};
  }
  unsigned maxSharedVectorBytes() const override { return arch.maxLdsVectorBytes; }
  bool vectorAccessNeedsAlignment() const override { return true; }
  /// None: the hidden arguments the code object ABI appends are filled by
  /// the HIP runtime, not by the caller.
  void appendImplicitKernelArgs(mlir::MLIRContext *,
                                llvm::SmallVectorImpl<mlir::Type> &) const override {}
  void beginKernel(mlir::Block &entry, unsigned firstImplicitArg) override;
  void finishKernel(mlir::LLVM::LLVMFuncOp func) override;
  mlir::Value programId(mlir::OpBuilder &b, mlir::Location loc, int axis) override;
  mlir::Value numPrograms(mlir::OpBuilder &b, mlir::Location loc, int axis) override;
  mlir::Value laneId(mlir::OpBuilder &b, mlir::Location loc) override;
  mlir::Value warpId(mlir::OpBuilder &b, mlir::Location loc) override;
  llvm::StringRef atomicSyncScope(int scope) const override;
  void barrier(mlir::OpBuilder &b, mlir::Location loc) override;
  mlir::Value sharedMemoryBase(mlir::OpBuilder &b, mlir::Location loc) override;
  mlir::Value shuffle(mlir::OpBuilder &b, mlir::Location loc, mlir::Value value,
                      mlir::Value laneOrMask, ShuffleKind kind) override;
  void print(mlir::OpBuilder &b, mlir::Location loc, llvm::StringRef format,
             mlir::ValueRange args) override;
  void assertTrue(mlir::OpBuilder &b, mlir::Location loc, mlir::Value condition,
                  llvm::StringRef message) override;
  /// One MFMA (CDNA) or WMMA (RDNA3) of the model's instruction `instr`,
  /// through its llvm.amdgcn intrinsic; an instruction the arch lacks, or
  /// one hd.dot cannot name, is an error that says why.
  Result<llvm::SmallVector<mlir::Value>>
  matrixMultiplyAccumulate(mlir::OpBuilder &b, mlir::Location loc, llvm::StringRef instr,
                           mlir::ValueRange a, mlir::ValueRange bOperand,
                           mlir::ValueRange c) override;

  /// The name of the function calls to which AmdCompiler.cpp replaces by
  /// the device libraries' printf (see print()).
  static constexpr const char *kPrintfName = "__hd_amd_printf";

private:
  mlir::Value threadIdX(mlir::OpBuilder &b, mlir::Location loc);
  /// One 32-bit ds_bpermute from lane `srcLane`.
  mlir::Value permute32(mlir::OpBuilder &b, mlir::Location loc, mlir::Value value,
                        mlir::Value srcLane);
  void defineAssertHelper(mlir::ModuleOp module, mlir::Location loc);

  const ArchModel &arch;
  /// Work-items per workgroup of the kernel being lowered.
  unsigned threads = 0;
  /// The kernel's LDS, planned by the shared-memory allocator: an internal
  /// addrspace(3) global of `ldsBytes`, so that the code object's
  /// group_segment_fixed_size is the plan and the backend knows the LDS
  /// footprint (occupancy). Empty name: the kernel has no planned LDS.
  std::string ldsSymbol;
};

} // namespace hadron::amd

#endif // HADRON_TARGETS_AMD_COMPILER_AMDHOOKS_H
