//===- NvidiaHooks.h - NVIDIA GPUs' answers to the target hooks -*- C++ -*-===//
//
// A CTA is a 1-D block of num_warps * 32 threads. Ids come from the special
// registers (tid.x, ctaid, nctaid), lane = tid.x & 31 and warp = tid.x >> 5;
// barriers are bar.sync 0, shuffles shfl.sync with a full mask, shared
// memory is the kernel's dynamic shared array (address space 3), print is
// vprintf and assert __assertfail, as CUDA C++ does them.
//
// The core's distribute conversion admits LLVM-dialect ops only, so these
// hooks emit the NVVM intrinsics as llvm.call_intrinsic;
// raiseToNVVM (NvvmDialect.h) then rewrites them into NVVM dialect ops
// after distribute, and the NVVM translation turns those into LLVM IR.
//
//===----------------------------------------------------------------------===//
#ifndef HADRON_TARGETS_NVIDIA_COMPILER_NVIDIAHOOKS_H
#define HADRON_TARGETS_NVIDIA_COMPILER_NVIDIAHOOKS_H

#include "hadron/Conversion/TargetHooks.h"

#include "llvm/ADT/StringMap.h"

namespace hadron::nvidia {

struct ArchModel;
struct NamedMatrixInstr;

/// Inline PTX with side effects (it touches memory the compiler does not see).
void inlinePtx(mlir::OpBuilder &b, mlir::Location loc, llvm::StringRef text,
               llvm::StringRef constraints, mlir::ValueRange operands);

class NvidiaHooks : public TargetHooks {
public:
  /// Hooks for code that runs on `arch` (which decides the matrix
  /// instructions it may issue).
  explicit NvidiaHooks(const ArchModel &arch) : arch(arch) {}
  bool foldsThreadsIntoRegisters() const override { return false; }
  unsigned globalAddressSpace() const override { return 1; }
  unsigned sharedAddressSpace() const override { return 3; }
  unsigned maxVectorBytes() const override;
  bool vectorAccessNeedsAlignment() const override { return true; }
  void appendImplicitKernelArgs(mlir::MLIRContext *ctx,
                                llvm::SmallVectorImpl<mlir::Type> &types) const override {}
  void beginKernel(mlir::Block &entry, unsigned firstImplicitArg) override;
  void finishKernel(mlir::LLVM::LLVMFuncOp func) override;
  mlir::Value programId(mlir::OpBuilder &b, mlir::Location loc, int axis) override;
  mlir::Value numPrograms(mlir::OpBuilder &b, mlir::Location loc, int axis) override;
  mlir::Value laneId(mlir::OpBuilder &b, mlir::Location loc) override {
    return threadIds(b).first;
  }
  mlir::Value warpId(mlir::OpBuilder &b, mlir::Location loc) override {
    return threadIds(b).second;
  }
  llvm::StringRef atomicSyncScope(int scope) const override;
  bool atomicOrderingByFences() const override { return true; }
  void barrier(mlir::OpBuilder &b, mlir::Location loc) override;
  /// 16 named barriers; 0 is the CTA's.
  unsigned warpGroupBarrierCount() const override { return 15; }
  void warpGroupBarrier(mlir::OpBuilder &b, mlir::Location loc, unsigned id,
                        unsigned numWarps) override;
  void warpBarrier(mlir::OpBuilder &b, mlir::Location loc) override;
  std::string checkRegisterBudgets(llvm::ArrayRef<unsigned> firsts,
                                   llvm::ArrayRef<unsigned> counts,
                                   llvm::MutableArrayRef<int32_t> regs,
                                   unsigned totalWarps) const override;
  void setRegisterBudget(mlir::OpBuilder &b, mlir::Location loc, unsigned regs,
                         unsigned totalWarps) override;
  mlir::Value sharedMemoryBase(mlir::OpBuilder &b, mlir::Location loc) override;
  SharedMemoryBanks sharedMemoryBanks() const override;
  unsigned maxSharedVectorBytes() const override;
  mlir::Value shuffle(mlir::OpBuilder &b, mlir::Location loc, mlir::Value value,
                      mlir::Value laneOrMask, ShuffleKind kind) override;
  void print(mlir::OpBuilder &b, mlir::Location loc, llvm::StringRef format,
             mlir::ValueRange args) override;
  void assertTrue(mlir::OpBuilder &b, mlir::Location loc, mlir::Value condition,
                  llvm::StringRef message) override;
  unsigned matrixLoadCount() const override { return 4; }
  llvm::SmallVector<mlir::Value> loadMatrices(mlir::OpBuilder &b, mlir::Location loc,
                                              mlir::Value row, bool transpose) override;
  unsigned asyncCopyBytes() const override;
  void asyncCopy(mlir::OpBuilder &b, mlir::Location loc, mlir::Value shared, mlir::Value global,
                 unsigned bytes, mlir::Value valid) override;
  void asyncCommitGroup(mlir::OpBuilder &b, mlir::Location loc) override;
  void asyncWait(mlir::OpBuilder &b, mlir::Location loc, unsigned pending) override;
  Result<llvm::SmallVector<mlir::Value>>
  matrixMultiplyAccumulate(mlir::OpBuilder &b, mlir::Location loc, llvm::StringRef instr,
                           mlir::ValueRange a, mlir::ValueRange bOperand,
                           mlir::ValueRange c) override;
  Result<llvm::SmallVector<mlir::Value>>
  matrixMultiplyAccumulateShared(mlir::OpBuilder &b, mlir::Location loc, llvm::StringRef instr,
                                 const SharedMatrixOperand &a, const SharedMatrixOperand &bOperand,
                                 mlir::ValueRange c) override;
  void beginSharedMatrixGroup(mlir::OpBuilder &b, mlir::Location loc) override;
  llvm::SmallVector<mlir::Value> endSharedMatrixGroup(mlir::OpBuilder &b, mlir::Location loc,
                                                      mlir::ValueRange acc, bool wait) override;
  llvm::SmallVector<mlir::Value> waitSharedMatrixGroups(mlir::OpBuilder &b, mlir::Location loc,
                                                        unsigned pending,
                                                        mlir::ValueRange values) override;

  // Tensor memory access (TMA) and mbarriers, sm_90+ (NvidiaTensorCopy.cpp).
  bool hasTensorCopyEngine() const override;
  mlir::Type tensorDescType(mlir::MLIRContext *ctx, unsigned rank) override;
  void mbarrierInit(mlir::OpBuilder &b, mlir::Location loc, mlir::Value barrier, unsigned count,
                    mlir::Value leader) override;
  void mbarrierArrive(mlir::OpBuilder &b, mlir::Location loc, mlir::Value barrier, unsigned count,
                      int64_t expectBytes, mlir::Value leader, mlir::Value rank) override;
  void mbarrierWait(mlir::OpBuilder &b, mlir::Location loc, mlir::Value barrier,
                    mlir::Value phase) override;
  void fenceAsyncShared(mlir::OpBuilder &b, mlir::Location loc) override;
  /// Thread block clusters (sm_90+): 8 CTAs, the portable limit.
  unsigned maxClusterPrograms() const override;
  void clusterBarrier(mlir::OpBuilder &b, mlir::Location loc) override;
  /// hd.async_tensor_copy, hd.async_tensor_store(_wait) on sm_90+:
  /// cp.async.bulk.tensor.
  void populateLoweringPatterns(lowering::TileTypeConverter &converter,
                                lowering::Lowering &lowering,
                                mlir::RewritePatternSet &patterns) override;

private:
  /// The model's entry for `name` if this arch can issue it, else why not.
  Result<NamedMatrixInstr> usableMatrixInstr(llvm::StringRef name) const;
  static constexpr const char *kAssertHelper = "__hd_assert";
  void defineAssertHelper(mlir::Block &entry);
  mlir::Value shuffle32(mlir::OpBuilder &b, mlir::Location loc, mlir::Value value,
                        mlir::Value laneOrMask, ShuffleKind kind);

  const ArchModel &arch;
  /// Some kernel of the module has a dot reading shared memory directly.
  bool sharedMatrixReads = false;
  /// The (lane, warp) of the kernel `b` inserts into.
  std::pair<mlir::Value, mlir::Value> threadIds(mlir::OpBuilder &b) const;
  /// Per kernel, by name: computed at the start of its entry block (op
  /// results, so they survive the signature conversion and dominate every
  /// use). Every kernel of a module begins before any is converted.
  llvm::StringMap<std::pair<mlir::Value, mlir::Value>> kernelThreadIds;

public:
  mlir::Value approximateMath(mlir::OpBuilder &b, mlir::Location loc, ApproxFunction fn,
                              mlir::ValueRange operands) override;
};

} // namespace hadron::nvidia

#endif // HADRON_TARGETS_NVIDIA_COMPILER_NVIDIAHOOKS_H
