//===- TargetHooks.h - What a target supplies to the lowering ---*- C++ -*-===//
//
// The distribute lowering (tile ops -> per-thread LLVM dialect) is shared by
// every target. Wherever the code it emits depends on the machine, it calls
// one of these hooks; a target plugin implements them. Hooks emit LLVM
// dialect ops at the builder's insertion point and return i32 values unless
// said otherwise. No vendor name appears here: a hook says what is needed,
// not how a particular machine does it.
//
//===----------------------------------------------------------------------===//
#ifndef HADRON_CONVERSION_TARGETHOOKS_H
#define HADRON_CONVERSION_TARGETHOOKS_H

#include "hadron/Support/Result.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/Value.h"

#include <vector>
#include <string>

namespace mlir {
class ModuleOp;
class RewritePatternSet;
class Type;
namespace LLVM {
class LLVMFuncOp;
} // namespace LLVM
} // namespace mlir

namespace hadron {

class LinearLayout;
namespace lowering {
class TileTypeConverter;
struct Lowering;
} // namespace lowering

/// Implemented once per target. One instance serves one compilation; the
/// kernel being lowered is announced with beginKernel before any other hook
/// emits code for it.
class TargetHooks {
public:
  virtual ~TargetHooks();

  /// True when one CTA runs as a single thread that owns every element:
  /// lanes and warps are then folded into registers before lowering.
  virtual bool foldsThreadsIntoRegisters() const = 0;

  /// Address space numbers of global and shared memory in LLVM IR.
  virtual unsigned globalAddressSpace() const = 0;
  virtual unsigned sharedAddressSpace() const = 0;

  /// Widest vector, in bytes, of one global load or store by one thread.
  virtual unsigned maxVectorBytes() const = 0;
  /// True when a vector access must be aligned to its size (GPUs); false
  /// when unaligned vectors are merely slower (CPUs).
  virtual bool vectorAccessNeedsAlignment() const = 0;

  /// Arguments the target appends to every kernel (e.g. grid information).
  virtual void appendImplicitKernelArgs(mlir::MLIRContext *ctx,
                                        llvm::SmallVectorImpl<mlir::Type> &types) const = 0;
  /// Called before a kernel is lowered, with its entry block; its arguments
  /// from `firstImplicitArg` on are the implicit ones. A target that needs
  /// values derived from them emits the ops at the start of `entry` here:
  /// later hooks must return op results, never block arguments.
  virtual void beginKernel(mlir::Block &entry, unsigned firstImplicitArg) = 0;
  /// Called on the lowered kernel (an llvm.func) to set its calling
  /// convention, linkage and attributes.
  virtual void finishKernel(mlir::LLVM::LLVMFuncOp func) = 0;

  virtual mlir::Value programId(mlir::OpBuilder &b, mlir::Location loc, int axis) = 0;
  virtual mlir::Value numPrograms(mlir::OpBuilder &b, mlir::Location loc, int axis) = 0;
  /// The lane of this thread in its warp, and the warp in its CTA. Not called
  /// when foldsThreadsIntoRegisters().
  virtual mlir::Value laneId(mlir::OpBuilder &b, mlir::Location loc) = 0;
  virtual mlir::Value warpId(mlir::OpBuilder &b, mlir::Location loc) = 0;

  /// The LLVM sync scope of an atomic of scope `scope` (0 = CTA, 1 = GPU,
  /// 2 = system, as hd::MemScope). "" is the system scope, always correct.
  virtual llvm::StringRef atomicSyncScope(int scope) const { return ""; }
  /// True where the backend drops an atomicrmw's ordering (it emits every
  /// one as relaxed): the lowering then orders it with fences of the
  /// atomic's scope instead, one before a release and one after an acquire.
  virtual bool atomicOrderingByFences() const { return false; }

  /// A CTA-wide barrier that also orders shared-memory accesses.
  virtual void barrier(mlir::OpBuilder &b, mlir::Location loc) = 0;
  /// Barriers over a group of the CTA's warps (hd.warp_specialize gives
  /// each of its regions one): how many there are, 0 (the default) where
  /// the target has none and cannot run warp-specialised kernels.
  virtual unsigned warpGroupBarrierCount() const { return 0; }
  /// Waits for the `numWarps` warps that use barrier `id` (1 ..
  /// warpGroupBarrierCount()) and orders their shared-memory accesses.
  virtual void warpGroupBarrier(mlir::OpBuilder &b, mlir::Location loc, unsigned id,
                                unsigned numWarps) {}
  /// Reconverges the threads of a warp and orders their shared-memory
  /// accesses (before one of them publishes the warp's work). Nothing by
  /// default: threads of a warp run in lockstep.
  virtual void warpBarrier(mlir::OpBuilder &b, mlir::Location loc) {}
  /// Register budgets per group of warps (hd.warp_specialize `regs`):
  /// "" when region i (warps [firsts[i], firsts[i] + counts[i]) of
  /// `totalWarps`) can run with regs[i] registers a thread, or why not,
  /// naming the limit. A budget of 0 for the default region (regs[0]) asks
  /// the target for what the others leave: it sets regs[0]. The default:
  /// the target cannot.
  virtual std::string checkRegisterBudgets(llvm::ArrayRef<unsigned> firsts,
                                           llvm::ArrayRef<unsigned> counts,
                                           llvm::MutableArrayRef<int32_t> regs,
                                           unsigned totalWarps) const {
    return "it cannot give groups of warps registers of their own";
  }
  /// Emitted first in a region whose budget checkRegisterBudgets accepted:
  /// its threads get `regs` registers each.
  virtual void setRegisterBudget(mlir::OpBuilder &b, mlir::Location loc, unsigned regs,
                                 unsigned totalWarps) {}

  /// Base pointer (in sharedAddressSpace()) of the CTA's shared memory.
  virtual mlir::Value sharedMemoryBase(mlir::OpBuilder &b, mlir::Location loc) = 0;

  /// How shared memory serves one warp-wide access: `count` banks of
  /// `bytes` each, a word of `bytes` in bank (address / bytes) % count. The
  /// access takes as many cycles as the most distinct words it touches in
  /// one bank, and at least its size / (count * bytes). `count` 0: no
  /// banks, every layout serves an access equally fast. The scratch layout
  /// of convert_layout, reduce and scan is chosen to minimise those cycles.
  struct SharedMemoryBanks {
    unsigned count = 32;
    unsigned bytes = 4;
  };
  /// The default is 32 banks of 4 bytes.
  virtual SharedMemoryBanks sharedMemoryBanks() const { return {}; }
  /// Widest vector, in bytes, of one shared-memory load or store by one
  /// thread (default 16). Shared allocations are 16-byte aligned
  /// (hd-allocate-shared-memory), so core uses at most 16.
  virtual unsigned maxSharedVectorBytes() const { return 16; }

  /// Moves `value` between lanes of a warp. Not called when
  /// foldsThreadsIntoRegisters().
  enum class ShuffleKind { Xor, Idx, Up, Down };
  virtual mlir::Value shuffle(mlir::OpBuilder &b, mlir::Location loc, mlir::Value value,
                              mlir::Value laneOrMask, ShuffleKind kind) = 0;

  /// Prints `format` with `args` (already scalars) from the calling thread.
  virtual void print(mlir::OpBuilder &b, mlir::Location loc, llvm::StringRef format,
                     mlir::ValueRange args) = 0;
  /// Stops the kernel with `message` where `condition` (i1) is false.
  virtual void assertTrue(mlir::OpBuilder &b, mlir::Location loc, mlir::Value condition,
                          llvm::StringRef message) = 0;

  /// Widest copy, in bytes, that a thread can start from global to shared
  /// memory without waiting for it; 0 (the default) when the target has no
  /// such engine, and async_copy then completes at once.
  virtual unsigned asyncCopyBytes() const { return 0; }
  /// Starts copying `bytes` (a power of two from 4 to asyncCopyBytes()) from
  /// `global` to `shared`, both aligned to `bytes`; where `valid` (i1, or
  /// null for always) is false the bytes are zeros instead.
  virtual void asyncCopy(mlir::OpBuilder &b, mlir::Location loc, mlir::Value shared,
                         mlir::Value global, unsigned bytes, mlir::Value valid) {}
  /// Closes the group of copies this thread started since the last commit.
  virtual void asyncCommitGroup(mlir::OpBuilder &b, mlir::Location loc) {}
  /// Waits until at most `pending` of this thread's committed groups are
  /// still in flight.
  virtual void asyncWait(mlir::OpBuilder &b, mlir::Location loc, unsigned pending) {}

  /// Barriers in shared memory and bulk tensor copies (hd.mbarrier_*,
  /// hd.async_tensor_copy, hd.fence_async_shared). Where this is false (the
  /// default) core implements them with plain loads, stores and atomics on
  /// the barrier's 8 bytes, tensor copies complete at once, and a tensor
  /// descriptor argument is tensorDescType(). A target with a copy engine
  /// and hardware barriers returns true, implements every hook below and
  /// lowers hd.async_tensor_copy, hd.async_tensor_store and
  /// hd.async_tensor_store_wait with patterns of its own
  /// (populateLoweringPatterns): core's copy, a loop of one thread, would
  /// never arrive on such barriers.
  virtual bool hasTensorCopyEngine() const { return false; }
  /// The per-thread type of a tensor-descriptor kernel argument of `rank`
  /// dims. The default is the runtime's generic encoding (plugin/
  /// TensorDesc.h), passed by value: {i64 base address, [rank x i64] shape,
  /// [rank x i64] strides}. Descriptor arguments keep the `hd.tensor_desc`
  /// argument attribute through lowering, for finishKernel.
  virtual mlir::Type tensorDescType(mlir::MLIRContext *ctx, unsigned rank);
  /// `barrier` points to the barrier (sharedAddressSpace()). `leader` (i1)
  /// is true in exactly one thread of the CTA, and false where the op's own
  /// predicate is; every thread calls these.
  virtual void mbarrierInit(mlir::OpBuilder &b, mlir::Location loc, mlir::Value barrier,
                            unsigned count, mlir::Value leader) {}
  /// One arrival of `count`; with `expectBytes` >= 0 an arrival that also
  /// expects that many bytes. With `rank` (i32, only where
  /// maxClusterPrograms() > 1) the arrival is on the barrier at the same
  /// place in program `rank` of the cluster.
  virtual void mbarrierArrive(mlir::OpBuilder &b, mlir::Location loc, mlir::Value barrier,
                              unsigned count, int64_t expectBytes, mlir::Value leader,
                              mlir::Value rank) {}
  /// Waits for the completion of the phase of parity `phase` (i32).
  virtual void mbarrierWait(mlir::OpBuilder &b, mlir::Location loc, mlir::Value barrier,
                            mlir::Value phase) {}
  virtual void fenceAsyncShared(mlir::OpBuilder &b, mlir::Location loc) {}

  /// The most programs one cluster may hold (hd.cluster_dims): programs of a
  /// cluster run at once and reach each other's shared memory (copies with
  /// a multicast mask, arrivals with a rank). 1, the default, where they
  /// cannot; core then lowers `multicast` and `rank` as this program alone.
  virtual unsigned maxClusterPrograms() const { return 1; }
  /// hd.cluster_barrier where maxClusterPrograms() > 1: every thread of the
  /// cluster's programs meets; shared-memory writes and barrier inits before
  /// it are visible to all of them after it.
  virtual void clusterBarrier(mlir::OpBuilder &b, mlir::Location loc) {}

  /// How many 8x8 matrices of 16-bit elements one warp-wide load from
  /// shared memory delivers (0, the default: the target has no such load).
  virtual unsigned matrixLoadCount() const { return 0; }
  /// The warp-wide load: lane l passes in `row` the address of row l % 8 of
  /// matrix l / 8 (8 consecutive elements, 16-byte aligned). Returns
  /// matrixLoadCount() i32 values, value j holding two elements of matrix j:
  /// row lane / 4, columns 2 * (lane % 4) and + 1, or with `transpose` the
  /// same of the transposed matrix (column lane / 4, rows 2 * (lane % 4), + 1).
  virtual llvm::SmallVector<mlir::Value> loadMatrices(mlir::OpBuilder &b, mlir::Location loc,
                                                      mlir::Value row, bool transpose) {
    return {};
  }

  /// D = A * B + C on one matrix instruction named `instr` (an
  /// #hd.matrix_instr the target's model declares), issued by the calling
  /// thread's warp. `a`, `b` and `c` are the thread's registers of the
  /// instruction's fragments, in the order the fragments number them; the
  /// result is D's registers in the accumulator's order. A target that cannot
  /// issue `instr` returns an error naming it (the default: no matrix units).
  virtual Result<llvm::SmallVector<mlir::Value>>
  matrixMultiplyAccumulate(mlir::OpBuilder &b, mlir::Location loc, llvm::StringRef instr,
                           mlir::ValueRange a, mlir::ValueRange bOperand, mlir::ValueRange c) {
    return Error("the target has no matrix instruction \"" + instr.str() + "\"");
  }

  /// An operand that a matrix instruction reads from shared memory (one
  /// whose #hd.matrix_instr has no register fragment for it). `address` (a
  /// pointer in sharedAddressSpace()) holds the element at the origin of the
  /// instruction's tile; byteOffsets[d][i] is the byte offset from there of
  /// coordinate 2^i along dim d of that tile (dim 0: rows, dim 1: columns;
  /// M x K for A, K x N for B), for every bit the instruction's extent
  /// spans. The offsets come from the memdesc's shared layout, so a target
  /// can check that the layout is one its matrix unit reads.
  /// An instruction whose #hd.matrix_instr has a register fragment for A
  /// (and none for B) takes A from registers instead: then `address` is
  /// null and `registers` holds the calling thread's registers of A's
  /// fragment, in the order the fragment numbers them.
  struct SharedMatrixOperand {
    mlir::Value address;
    std::vector<std::vector<int64_t>> byteOffsets;
    unsigned elementBits = 0;
    llvm::SmallVector<mlir::Value> registers;
    bool inRegisters() const { return !address && !registers.empty(); }
  };
  /// D = A * B + C on the matrix instruction `instr` reading A and B from
  /// shared memory; `c` and the result are the calling thread's registers of
  /// the accumulator fragment. The instructions of one dot are bracketed by
  /// beginSharedMatrixGroup and endSharedMatrixGroup; every thread of the
  /// group of warps the instruction names calls this with the same operands.
  /// The default: the target has no such instruction.
  virtual Result<llvm::SmallVector<mlir::Value>>
  matrixMultiplyAccumulateShared(mlir::OpBuilder &b, mlir::Location loc, llvm::StringRef instr,
                                 const SharedMatrixOperand &a, const SharedMatrixOperand &bOperand,
                                 mlir::ValueRange c) {
    return Error("the target has no matrix instruction \"" + instr.str() +
                 "\" that reads shared memory");
  }
  /// Before the first instruction of a dot that reads shared memory: orders
  /// the CTA's earlier shared-memory writes before the matrix unit's reads.
  virtual void beginSharedMatrixGroup(mlir::OpBuilder &b, mlir::Location loc) {}
  /// After the last one: closes the dot's group of instructions and, with
  /// `wait`, waits for it; returns `acc` (every accumulator register the
  /// dot's instructions produced), safe to read when waited for.
  virtual llvm::SmallVector<mlir::Value> endSharedMatrixGroup(mlir::OpBuilder &b,
                                                             mlir::Location loc,
                                                             mlir::ValueRange acc, bool wait) {
    return llvm::SmallVector<mlir::Value>(acc.begin(), acc.end());
  }
  /// hd.dot_wait: waits until at most `pending` of this thread's groups
  /// are in flight and returns `values` (registers of their results), safe
  /// to read. The default: groups complete when they end.
  virtual llvm::SmallVector<mlir::Value> waitSharedMatrixGroups(mlir::OpBuilder &b,
                                                               mlir::Location loc,
                                                               unsigned pending,
                                                               mlir::ValueRange values) {
    return llvm::SmallVector<mlir::Value>(values.begin(), values.end());
  }

  /// The f32 functions a target may compute approximately where the op
  /// carries the `afn` fast-math flag (docs/ir.md, "Fast math"):
  /// math.exp, math.exp2, math.log, math.rsqrt and arith.divf.
  enum class ApproxFunction { Exp, Exp2, Log, Rsqrt, Div };
  /// Emits `fn` of `operands` (the dividend and divisor for Div, else one
  /// value; f32 scalars or vectors of f32, all of one type) with the target's
  /// approximate instructions and returns the result. Returns a null Value,
  /// having emitted nothing, to keep the precise lowering: the default, since
  /// the flag permits an approximation and never requires one.
  virtual mlir::Value approximateMath(mlir::OpBuilder &b, mlir::Location loc, ApproxFunction fn,
                                      mlir::ValueRange operands) {
    return {};
  }

  /// Adds the target's own conversion patterns to the distribute lowering,
  /// for ops whose generic lowering it replaces (a dot on its matrix units,
  /// a copy on its engine, ...). Give each kTargetPatternBenefit
  /// (LoweringUtils.h): the conversion then tries them before core's, and
  /// core's pattern runs where the target's declines (fails to match). The
  /// default adds none.
  virtual void populateLoweringPatterns(lowering::TileTypeConverter &converter,
                                        lowering::Lowering &lowering,
                                        mlir::RewritePatternSet &patterns) {}
};

/// Lowers every kernel of `module` (hd ops, arith/math/scf/cf/func on tiles)
/// to the LLVM dialect, one function per kernel whose body is what one
/// thread executes. Fails with diagnostics on the module's ops.
mlir::LogicalResult distributeToLLVM(mlir::ModuleOp module, TargetHooks &hooks);

} // namespace hadron

#endif // HADRON_CONVERSION_TARGETHOOKS_H
