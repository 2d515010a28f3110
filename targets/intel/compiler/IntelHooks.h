//===- IntelHooks.h - Intel GPUs' answers to the target hooks ---*- C++ -*-===//
//
// SPIR-V for the OpenCL execution model: the hooks call OpenCL C builtins
// (get_group_id, get_sub_group_local_id, barrier, sub_group_shuffle*,
// printf) by their Itanium-mangled names, which LLVM's SPIR-V backend turns
// into SPIR-V builtin variables and instructions.
//
//===----------------------------------------------------------------------===//
#ifndef HADRON_TARGETS_INTEL_COMPILER_INTELHOOKS_H
#define HADRON_TARGETS_INTEL_COMPILER_INTELHOOKS_H

#include "hadron/Conversion/TargetHooks.h"

#include "IntelModel.h"

#include <map>
#include <string>

namespace hadron::intel {

/// Bytes of the assert status buffer, the second implicit argument: an i32
/// flag (0: no assert failed), then the failed assert's message,
/// NUL-terminated and truncated to fit.
inline constexpr unsigned kAssertStatusBytes = 256;

/// One sub-group is one hd warp. A CTA is a 1-D work-group of
/// num_warps * sub-group size work-items, whose sub-groups are contiguous
/// ranges of work-items (the required sub-group size makes that exact).
///
/// Every kernel gets two implicit arguments after its own:
///   - `ptr addrspace(3)`: its shared memory, a __local argument whose size
///     the runtime sets to the planned bytes plus the launch's dynamic bytes;
///   - `ptr addrspace(1)`: the assert status buffer (kAssertStatusBytes),
///     which a failing hd.assert fills and the runtime reads back.
class IntelHooks : public TargetHooks {
public:
  explicit IntelHooks(const ArchModel &arch) : arch(arch) {}

  bool foldsThreadsIntoRegisters() const override { return false; }
  unsigned globalAddressSpace() const override { return 1; }
  unsigned sharedAddressSpace() const override { return 3; }
  unsigned maxVectorBytes() const override { return arch.maxVectorBytes; }
  SharedMemoryBanks sharedMemoryBanks() const override {
    return {arch.slmBanks, arch.slmBankBytes};
  }
  unsigned maxSharedVectorBytes() const override { return arch.maxSlmVectorBytes; }
  bool vectorAccessNeedsAlignment() const override { return true; }
  void appendImplicitKernelArgs(mlir::MLIRContext *ctx,
                                llvm::SmallVectorImpl<mlir::Type> &types) const override;
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
  /// One DPAS of the model's instruction `instr`: a call of its
  /// cl_intel_subgroup_matrix_multiply_accumulate builtin, which the SPIR-V
  /// module imports and the GPU driver provides. An instruction the arch
  /// lacks (the OpenCL CPU device has none), or one of another sub-group
  /// size than the kernel's, is an error that says why.
  Result<llvm::SmallVector<mlir::Value>>
  matrixMultiplyAccumulate(mlir::OpBuilder &b, mlir::Location loc, llvm::StringRef instr,
                           mlir::ValueRange a, mlir::ValueRange bOperand,
                           mlir::ValueRange c) override;

  /// The sub-group size each kernel was lowered for, by kernel name: the
  /// lanes of its layouts, else the arch's largest.
  const std::map<std::string, unsigned> &subGroupSizes() const { return kernelSubGroups; }

private:
  void defineAssertHelper(mlir::ModuleOp module, mlir::Location loc);

  const ArchModel &arch;
  unsigned subGroup = 0;
  unsigned threads = 0;
  mlir::Value shared, assertStatus;
  std::map<std::string, unsigned> kernelSubGroups;
};

/// The kernel's sub-group size: the lanes of its distributed layouts (the
/// core's verifier has made them one size the arch allows), or the arch's
/// largest when no layout fixes it.
unsigned chooseSubGroupSize(mlir::Operation *func, const ArchModel &arch);

} // namespace hadron::intel

#endif // HADRON_TARGETS_INTEL_COMPILER_INTELHOOKS_H
