//===- NvidiaModel.h - The memory-hierarchy model of NVIDIA GPUs -*- C++ -*-===//
//
// What Hadron knows about each NVIDIA architecture it compiles for, without a
// device: the numbers the core's verifier and passes read (warp size, threads
// and shared memory per CTA), the rest of the memory hierarchy (banks, cache
// lines, L1/L2, registers), the async-copy engines and the matrix
// instructions with their register fragments written as linear layouts.
//
// The compiler part fills the module's #hd.target from an ArchModel; the
// runtime part answers hd_device_info from the same table and refines it
// with what the driver reports for the device at hand (SM count, opt-in
// shared memory, L2 size, memory size). Per-SKU figures (SM count, L2) are
// those of the representative device named in each entry; they are only
// defaults until a device refines them.
//
// Sources: the CUDA C++ Programming Guide, "Compute Capabilities" table
// (threads, shared memory, registers per compute capability), and the PTX
// ISA (mma.sync and wgmma fragment layouts, cp.async / cp.async.bulk.tensor
// availability). The table is plain data so that the runtime part, which
// links no LLVM or MLIR, can use it; the fragment layouts are built by
// fragmentLayout() in NvidiaMatrixLayouts.cpp, which needs libhadron-layout.
//
//===----------------------------------------------------------------------===//
#ifndef HADRON_TARGETS_NVIDIA_MODEL_NVIDIAMODEL_H
#define HADRON_TARGETS_NVIDIA_MODEL_NVIDIAMODEL_H

#include "hadron/Layout/LinearLayout.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace hadron::nvidia {

/// Engines that copy global memory to shared memory without registers.
enum AsyncCopyKind : unsigned {
  kAsyncCopyNone = 0,
  /// cp.async (4, 8 or 16 bytes per thread, commit/wait groups): sm_80+.
  kAsyncCopyCpAsync = 1u << 0,
  /// The Tensor Memory Accelerator, cp.async.bulk.tensor with a tensor map,
  /// and cp.async.bulk for 1-D ranges, completing on an mbarrier: sm_90+.
  kAsyncCopyTma = 1u << 1,
};

/// One architecture. Fields that vary between SKUs of one architecture
/// (smCount, l2Bytes) are the representative device's.
struct ArchModel {
  const char *arch;           ///< "sm_90a": the name --target and the runtime use
  unsigned computeCapability; ///< major * 10 + minor: 90
  bool archSpecific;          ///< the 'a' variant: arch-specific instructions (wgmma)
  const char *representative; ///< the device whose SKU figures are quoted

  unsigned warpSize;            ///< 32 on every NVIDIA GPU
  unsigned maxThreadsPerCTA;    ///< 1024
  unsigned maxThreadsPerSM;     ///< resident threads
  unsigned maxCTAsPerSM;        ///< resident CTAs
  unsigned registersPerSM;      ///< 32-bit registers: 64K
  unsigned maxRegistersPerThread; ///< 255

  uint64_t sharedBytesPerCTA;      ///< without opting in: 48 KiB
  uint64_t sharedBytesPerCTAOptIn; ///< the most one CTA may ask for
  uint64_t sharedBytesPerSM;       ///< the most an SM gives its CTAs together
  uint64_t l1AndSharedBytesPerSM;  ///< the unified L1 / shared array
  unsigned sharedBanks;            ///< 32: a warp's access takes one cycle per
  unsigned sharedBankBytes;        ///< 4    distinct word in its busiest bank
  unsigned cacheLineBytes;         ///< 128 (L1 lines; L2 sectors are 32 B)
  uint64_t l2Bytes;                ///< representative device's
  unsigned smCount;                ///< representative device's
  unsigned maxVectorBytes;         ///< widest per-thread global access: 16
  unsigned maxSharedVectorBytes;   ///< widest per-thread shared access: 16 (ld.shared.v4.b32)

  unsigned asyncCopy; ///< AsyncCopyKind bits
};

/// The architectures this plugin compiles for, in the order of the
/// plugin's descriptor (the first is the default: sm_80 runs on every GPU
/// of compute capability 8.x and its PTX JIT-compiles on newer ones).
const std::vector<ArchModel> &archModels();
/// The entry for `arch`, or nullptr.
const ArchModel *findArch(std::string_view arch);
/// The architecture name of a device of compute capability major.minor:
/// "sm_86", and "sm_90a" / "sm_100a" for 9.0 / 10.0, whose arch-specific
/// instructions the device has.
std::string archName(int major, int minor);

/// How a matrix instruction is issued.
enum class MatrixFamily {
  /// mma.sync: one warp, A, B and the accumulator in registers.
  MmaSync,
  /// wgmma.mma_async: a warpgroup of 4 warps, A in registers or shared
  /// memory, B in shared memory (a matrix descriptor), the accumulator in
  /// registers. N is a multiple of 8 from 8 to 256.
  Wgmma,
};

enum class MatrixOperand { A, B, Accumulator };

/// A matrix (tensor core) instruction: D (MxN) = A (MxK) * B (KxN) + C.
/// hd.dot on an #hd.mma layout issues the mma.sync ones (NvidiaHooks).
struct MatrixInstr {
  const char *name; ///< "mma.m16n8k16.f16": the `instr` of an #hd.mma layout
  const char *ptx;  ///< the PTX instruction it stands for
  MatrixFamily family;
  unsigned m, n, k; ///< for wgmma n is the largest N (256)
  unsigned nMin;    ///< smallest N (wgmma: 8); n for mma.sync
  const char *aType, *bType, *accType;
  unsigned minComputeCapability;
  bool needsArchSpecific; ///< only on the 'a' arch of that compute capability
};

/// Every matrix instruction the model declares.
const std::vector<MatrixInstr> &matrixInstructions();
/// Those `arch` can issue.
std::vector<const MatrixInstr *> matrixInstructions(const ArchModel &arch);
/// The entry named `name`, or nullptr.
const MatrixInstr *findMatrixInstr(std::string_view name);

/// Where each element of an operand lives, as a linear layout from in dims
/// "register", "lane", "warp" to "dim0" (rows: M for A and the accumulator,
/// K for B) and "dim1" (columns), as the PTX ISA's fragment figures give it.
/// Registers count elements, not 32-bit registers: an .f16x2 register holds
/// registers 2i and 2i+1. For wgmma, `n` picks N (a power of two from 8 to
/// 256; 0 means the largest), and operand B has no register fragment (it is
/// read from shared memory): asking for it is an error, as is asking for an
/// N the instruction does not have.
Result<LinearLayout> fragmentLayout(const MatrixInstr &instr, MatrixOperand operand,
                                    unsigned n = 0);

/// The `#hd.matrix_instr<{...}>` attribute of a matrix instruction, as
/// kernels name it in their `#hd.mma` layouts: its name, shape, types and
/// fragments. For wgmma, `n` picks N (0: the largest); the name spells it
/// ("wgmma.m64n128k16.bf16"), the accumulator fragment spans the warpgroup
/// (warp bases) and A and B have no fragment: the dot reads both from shared
/// memory through matrix descriptors. With `aInRegisters`, a wgmma's A has
/// its register fragment (the warpgroup's four warps, 16 rows each: the
/// form that takes A from registers, e.g. attention's P); B stays in shared
/// memory.
Result<std::string> matrixInstrAttribute(const MatrixInstr &instr, unsigned n = 0,
                                         bool aInRegisters = false);

/// The model entry and N of a matrix-instruction name as matrixInstrAttribute
/// spells it ("mma.m16n8k16.bf16", "wgmma.m64n256k16.bf16"), or an error.
struct NamedMatrixInstr {
  const MatrixInstr *instr;
  unsigned n;
};
Result<NamedMatrixInstr> parseMatrixInstrName(std::string_view name);

/// A wgmma matrix descriptor's layout fields for an operand tile in shared
/// memory (PTX ISA, "Matrix Descriptor Format"): the swizzle mode, the
/// leading and stride byte offsets, and whether the tile is MN-major (the
/// instruction's imm-trans bit).
struct MatrixDescriptorLayout {
  unsigned swizzleBytes = 0; ///< 128, 64 or 32
  unsigned leadingByteOffset = 0, strideByteOffset = 0;
  bool mnMajor = false;
  /// Bits 16..63 of the descriptor: everything but the start address.
  uint64_t fields() const;
};

/// Matches the byte offsets of each coordinate bit of an operand tile
/// (byteOffsets[0]: rows, [1]: columns; M x K for A, K x N for B) against
/// the layouts a descriptor can express: K-major or MN-major (16-bit types
/// only), 128/64/32-byte swizzle, 8-row core-matrix groups `swizzleBytes`
/// apart. An error says why the layout is none of them.
Result<MatrixDescriptorLayout>
matrixDescriptorLayout(const std::vector<std::vector<int64_t>> &byteOffsets, bool operandA,
                       unsigned elementBits);

} // namespace hadron::nvidia

#endif // HADRON_TARGETS_NVIDIA_MODEL_NVIDIAMODEL_H
