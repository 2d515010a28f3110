//===- AmdModel.h - The memory-hierarchy model of AMD GPUs ------*- C++ -*-===//
//
// What Hadron knows about each AMD architecture it compiles for, without a
// device: the numbers the core's verifier and passes read (wavefront size,
// threads and LDS per workgroup), the rest of the memory hierarchy (LDS
// banks, cache lines, L1/L2/MALL, vector registers), the async-copy engine
// and the matrix instructions with their register fragments written as
// linear layouts.
//
// The compiler part fills the module's #hd.target from an ArchModel; the
// runtime part answers hd_device_info from the same table and refines it
// with what HIP reports for the device at hand (CU count, LDS per
// workgroup, L2 size, memory size). Per-SKU figures (CU count, L2, MALL) are
// those of the representative device named in each entry; they are only
// defaults until a device refines them.
//
// Sources: the AMD Instinct MI200 (CDNA2), MI300 (CDNA3) and MI350 (CDNA4)
// instruction set architecture guides and white papers, the RDNA3 ISA guide,
// LLVM's AMDGPUUsage page (wavefront sizes, LDS sizes, code object) and the
// matrix instruction calculator of ROCm (AMDMatrixInstructionCalculator) for
// the fragment layouts. The table is plain data so that the runtime part,
// which links no LLVM or MLIR, can use it; the fragment layouts are built by
// fragmentLayout() in AmdMatrixLayouts.cpp, which needs libhadron-layout.
//
//===----------------------------------------------------------------------===//
#ifndef HADRON_TARGETS_AMD_MODEL_AMDMODEL_H
#define HADRON_TARGETS_AMD_MODEL_AMDMODEL_H

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace hadron {
class LinearLayout;
template <typename T> class Result;
} // namespace hadron

namespace hadron::amd {

/// The architecture families, which decide the wavefront size and the
/// kind of matrix unit.
enum class Family {
  Cdna, ///< Instinct accelerators: wave64, MFMA
  Rdna, ///< Radeon: wave32 (wave64 exists but is not used here), WMMA on RDNA3
};

/// One architecture. Fields that vary between SKUs of one architecture
/// (computeUnits, l2Bytes, mallBytes) are the representative device's.
struct ArchModel {
  const char *arch;           ///< "gfx942": the name --target and the runtime use
  Family family;
  unsigned isaVersion;        ///< major * 1000 + minor * 100 + stepping: 9402 (the
                              ///< value of the device libraries' __oclc_ISA_version)
  const char *representative; ///< the device whose SKU figures are quoted

  unsigned waveSize;          ///< the wavefront size kernels are compiled for
  unsigned maxThreadsPerWorkgroup; ///< 1024
  unsigned maxWavesPerSimd;   ///< resident waves per SIMD
  unsigned simdsPerCU;        ///< 4 on CDNA; 2 per CU (4 per WGP) on RDNA3
  unsigned vgprsPerLane;      ///< most vector registers one wave's lane may use
                              ///< (CDNA: 256 arch + 256 accumulation VGPRs)
  unsigned vgprFileBytesPerSimd; ///< the SIMD's vector register file
  unsigned sgprsPerWave;      ///< addressable scalar registers

  uint64_t ldsBytesPerWorkgroup; ///< 64 KiB; 160 KiB on gfx950
  uint64_t ldsBytesPerCU;        ///< what all resident workgroups of a CU share
  /// LDS banks, which the scratch layouts of convert_layout, reduce and scan
  /// are chosen for (TargetHooks::sharedMemoryBanks): 32 of 4 bytes, as on
  /// CDNA2/CDNA3. Whether gfx950's larger LDS or RDNA3's WGP mode bank
  /// differently is not checked here; they keep the same figure.
  unsigned ldsBanks;             ///< 32
  unsigned ldsBankBytes;         ///< 4
  unsigned cacheLineBytes;       ///< 128 (L2 lines)
  uint64_t l1Bytes;              ///< vector L1 per CU
  uint64_t l2Bytes;              ///< representative device's, all of it
  uint64_t mallBytes;            ///< Infinity Cache (MALL); 0 when the device has none
  unsigned computeUnits;         ///< representative device's
  unsigned maxVectorBytes;       ///< widest per-thread global access: 16
  unsigned maxLdsVectorBytes;    ///< widest per-thread LDS access: 16 (ds_read_b128)

  /// Global -> LDS without registers (buffer_load/global_load ... lds): the
  /// widest access per lane in bytes, 0 when the architecture has none.
  unsigned ldsDmaBytes;
};

/// The architectures this plugin compiles for, in the order of the plugin's
/// descriptor; the first (gfx942, the MI300 series) is the default.
const std::vector<ArchModel> &archModels();
/// The entry for `arch`, or nullptr. Accepts a target id with features
/// ("gfx90a:sramecc+:xnack-"), as HIP reports it.
const ArchModel *findArch(std::string_view arch);
/// The processor part of a target id: "gfx90a:sramecc+:xnack-" -> "gfx90a".
std::string_view processorOf(std::string_view targetId);

/// How a matrix instruction is issued. Both are one wavefront, with A, B and
/// the accumulator in vector registers.
enum class MatrixFamily {
  Mfma, ///< CDNA v_mfma_*: wave64
  Wmma, ///< RDNA3 v_wmma_*: wave32
};

enum class MatrixOperand { A, B, Accumulator };

/// A matrix instruction: D (MxN) = A (MxK) * B (KxN) + C, one wavefront.
/// hd.dot on an #hd.mma layout issues those with an #hd.matrix_instr
/// (AmdHooks); the fp8 ones are declared only (hd.dot has no fp8 operands).
struct MatrixInstr {
  const char *name;      ///< "mfma.f32.32x32x8.f16": the `instr` of an #hd.mma layout
  const char *isa;       ///< the instruction as gfx90a names it: "v_mfma_f32_32x32x8f16"
  const char *intrinsic; ///< LLVM's: "llvm.amdgcn.mfma.f32.32x32x8f16"
  MatrixFamily family;
  unsigned m, n, k;
  const char *aType, *bType, *accType;
  /// Elements of A (and of B) one lane holds: consecutive along K.
  unsigned kPerLane;
};

/// Every matrix instruction the model declares.
const std::vector<MatrixInstr> &matrixInstructions();
/// Those `arch` can issue.
std::vector<const MatrixInstr *> matrixInstructions(const ArchModel &arch);
/// The entry named `name`, or nullptr.
const MatrixInstr *findMatrixInstr(std::string_view name);

/// Where each element of an operand lives, as a linear layout from in dims
/// "register" and "lane" to "dim0" (rows: M for A and the accumulator, K for
/// B) and "dim1" (columns: K for A, N for B and the accumulator). Registers
/// count elements, not 32-bit VGPRs: a VGPR holding two f16 holds registers
/// 2i and 2i+1. Lanes that hold a copy of another lane's elements (RDNA3's
/// A and B, which both half-waves read) have zero lane bases.
Result<LinearLayout> fragmentLayout(const MatrixInstr &instr, MatrixOperand operand);

/// Whether hd.dot can name `instr`: its operand types are ones hd.dot takes
/// (every declared instruction but the fp8 ones).
bool issuedByDot(const MatrixInstr &instr);

/// The `#hd.matrix_instr<{...}>` attribute of an instruction, as kernels
/// name it in their `#hd.mma` layouts: its name, shape, MLIR types (xf32 is
/// written tf32: f32 operands a dot reads at reduced precision) and
/// fragments. An error for an instruction hd.dot cannot issue (fp8).
Result<std::string> matrixInstrAttribute(const MatrixInstr &instr);

} // namespace hadron::amd

#endif // HADRON_TARGETS_AMD_MODEL_AMDMODEL_H
