//===- IntelModel.h - The memory-hierarchy model of Intel GPUs --*- C++ -*-===//
//
// What Hadron knows about each Intel architecture it compiles SPIR-V for,
// without a device: the sub-group sizes a kernel may be compiled for, work-
// group and shared local memory (SLM) limits, the memory hierarchy (cache
// lines, L1/L3), the widest vector access, 2D block I/O and the DPAS
// (systolic) matrix instructions. hd.dot on an #hd.mma layout of a DPAS
// instruction calls its OpenCL C builtin; block I/O is declared only.
//
// "cpu" is the OpenCL CPU device (Intel's CPU runtime) that runs the same
// SPIR-V in CI; its sub-group sizes are what that runtime reports.
//
// The compiler part fills the module's #hd.target from an ArchModel; the
// runtime part answers hd_device_info from the same table, refined with what
// Level Zero or OpenCL report for the device at hand. Per-SKU figures (Xe
// cores, L2) are the representative device's.
//
// Sources: Intel's oneAPI GPU optimization guide (Xe-HPC, Xe-HPG, Xe2
// sections: SLM sizes, sub-group sizes, cache lines), the Xe-HPC and Xe2
// architecture whitepapers (Xe cores, L1/L2 sizes), the SPIR-V extension
// specifications SPV_INTEL_2d_block_io and SPV_INTEL_subgroup_matrix_multiply_accumulate
// (block shapes and DPAS shapes), and clinfo of the Intel CPU runtime.
// Plain data, so that the runtime part (no LLVM, no MLIR) can use it; the
// fragment layouts are built by IntelMatrixLayouts.cpp (libhadron-layout).
//
//===----------------------------------------------------------------------===//
#ifndef HADRON_TARGETS_INTEL_MODEL_INTELMODEL_H
#define HADRON_TARGETS_INTEL_MODEL_INTELMODEL_H

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace hadron {
class LinearLayout;
template <typename T> class Result;
} // namespace hadron

namespace hadron::intel {

enum class Family {
  XeHpc, ///< Data Center GPU Max (Ponte Vecchio)
  XeHpg, ///< Arc A-series (Alchemist)
  Xe2,   ///< Arc B-series (Battlemage), Core Ultra 200V (Lunar Lake)
  Cpu,   ///< an OpenCL CPU device
};

/// A DPAS (dot product accumulate systolic) shape: D (MxN) = A (MxK) * B
/// (KxN) + C by one sub-group of `subGroupSize`. hd.dot on an #hd.mma layout
/// of it calls `builtin` (IntelHooks).
struct DpasInstr {
  const char *name; ///< "dpas.f32.8x16x16.f16": the `instr` of an #hd.mma layout
  unsigned subGroupSize;
  unsigned m, n, k;
  const char *aType, *bType, *accType;
  /// The cl_intel_subgroup_matrix_multiply_accumulate(_tf32) OpenCL C
  /// function, Itanium-mangled for this sub-group size's operand vectors.
  const char *builtin;
};

/// 2D block loads/stores (global <-> registers, tiled by the hardware).
/// Declared only.
struct BlockIo {
  bool available;
  unsigned maxWidthBytes;  ///< widest row of one block
  unsigned maxHeight;      ///< rows of one block
  unsigned pitchAlignment; ///< the surface pitch's alignment in bytes
};

struct ArchModel {
  const char *arch;           ///< "pvc": the name --target and the runtime use
  Family family;
  const char *representative; ///< the device whose SKU figures are quoted

  /// Sub-group sizes a kernel may be compiled for, ascending. The kernel's
  /// layouts choose one; #hd.auto/#hd.coalesced resolve to the largest.
  std::vector<unsigned> subGroupSizes;
  unsigned maxWorkGroupSize;
  uint64_t slmBytesPerWorkGroup; ///< 128 KiB on PVC, 64 KiB on the others
  /// SLM banks, which the scratch layouts of convert_layout, reduce and
  /// scan are chosen for (TargetHooks::sharedMemoryBanks). GPUs: 16 of 4
  /// bytes, the figure of the oneAPI GPU optimization guide for Xe-LP, not
  /// checked for Xe-HPC, Xe-HPG or Xe2. cpu: one 64-byte bank, so a layout
  /// costs the cache lines a sub-group's access touches.
  unsigned slmBanks;
  unsigned slmBankBytes;
  unsigned cacheLineBytes;
  uint64_t l1Bytes;        ///< per Xe core (L1 and SLM share it on GPUs)
  uint64_t l2Bytes;        ///< the representative device's last-level cache
  unsigned computeUnits;   ///< Xe cores (CPU: cores) of the representative
  unsigned maxVectorBytes; ///< widest per-work-item global access: 16
  unsigned maxSlmVectorBytes; ///< widest per-work-item SLM access: 16
  BlockIo blockIo;
  std::vector<DpasInstr> dpas;
};

/// Every architecture, in the order of the plugin's descriptor; the first
/// (pvc) is the default.
const std::vector<ArchModel> &archModels();
/// The entry for `arch`, or nullptr.
const ArchModel *findArch(std::string_view arch);
/// The names, "pvc, bmg, ...", for messages.
std::string_view knownArchs();
/// Whether `size` is one of the arch's sub-group sizes.
bool allowsSubGroupSize(const ArchModel &arch, unsigned size);

/// The DPAS instruction named `name` of any arch, or nullptr.
const DpasInstr *findDpas(std::string_view name);

enum class MatrixOperand { A, B, Accumulator };

/// Where each element of a DPAS operand lives in the sub-group, as the
/// extension's OpenCL C functions take it: a linear layout from "register"
/// (elements, not 32-bit components) and "lane" to "dim0" (rows: M for A
/// and the accumulator, K for B) and "dim1" (columns). A row of A is 32
/// bytes spread over the lanes (so with 16 lanes, 8 tf32 lanes hold a row
/// and a component holds two rows); B comes packed along K, 32 bits a
/// component per column (lane); the accumulator holds row r in component r.
/// In IntelMatrixLayouts.cpp, which needs libhadron-layout.
Result<LinearLayout> fragmentLayout(const DpasInstr &instr, MatrixOperand operand);

/// The `#hd.matrix_instr<{...}>` attribute of a DPAS instruction, as kernels
/// name it in their `#hd.mma` layouts (tf32 operands are f32 values a dot
/// reads at tf32 precision).
Result<std::string> matrixInstrAttribute(const DpasInstr &instr);

} // namespace hadron::intel

#endif // HADRON_TARGETS_INTEL_MODEL_INTELMODEL_H
