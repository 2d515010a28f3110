//===- AmdModel.cpp - The AMD architecture and matrix tables --------------===//
//
// Plain data (no LLVM, no MLIR, no layouts), so that the runtime part can
// use it. Figures quoted per SKU are the representative device's:
//
//  - gfx90a, MI250X (CDNA2), one graphics compute die: 110 CUs, 8 MiB L2,
//    no Infinity Cache; 16 KiB vector L1 per CU;
//  - gfx942, MI300X (CDNA3): 304 CUs, 4 MiB L2 per XCD x 8, 256 MiB
//    Infinity Cache (MALL); 32 KiB L1 per CU;
//  - gfx950, MI355X (CDNA4): 256 CUs, 4 MiB L2 per XCD x 8, 256 MiB
//    Infinity Cache, 160 KiB LDS per CU (all of it addressable by one
//    workgroup); 32 KiB L1 per CU;
//  - gfx1100, Radeon RX 7900 XTX (RDNA3): 96 CUs, 6 MiB L2, 96 MiB
//    Infinity Cache; 32 KiB L0 vector cache per CU.
//
// CDNA register files: 512 VGPRs per lane and SIMD (256 architectural + 256
// accumulation registers, one unified file of 128 KiB per SIMD). RDNA3: 1536
// VGPRs per lane and SIMD at wave32 (192 KiB), at most 256 per wave.
//
//===----------------------------------------------------------------------===//

#include "AmdModel.h"

namespace hadron::amd {
namespace {

constexpr uint64_t KiB = 1024, MiB = 1024 * KiB;

ArchModel cdna(const char *arch, unsigned isa, const char *representative, uint64_t lds,
               uint64_t l1, uint64_t l2, uint64_t mall, unsigned cus, unsigned ldsDma) {
  ArchModel m{};
  m.arch = arch;
  m.family = Family::Cdna;
  m.isaVersion = isa;
  m.representative = representative;
  m.waveSize = 64;
  m.maxThreadsPerWorkgroup = 1024;
  m.maxWavesPerSimd = 8;
  m.simdsPerCU = 4;
  m.vgprsPerLane = 512;
  m.vgprFileBytesPerSimd = 512 * 64 * 4;
  m.sgprsPerWave = 102;
  m.ldsBytesPerWorkgroup = lds;
  m.ldsBytesPerCU = lds;
  m.ldsBanks = 32;
  m.ldsBankBytes = 4;
  m.cacheLineBytes = 128;
  m.l1Bytes = l1;
  m.l2Bytes = l2;
  m.mallBytes = mall;
  m.computeUnits = cus;
  m.maxVectorBytes = 16;
  m.maxLdsVectorBytes = 16;
  m.ldsDmaBytes = ldsDma;
  return m;
}

ArchModel rdna3(const char *arch, unsigned isa, const char *representative, uint64_t l2,
                uint64_t mall, unsigned cus) {
  ArchModel m{};
  m.arch = arch;
  m.family = Family::Rdna;
  m.isaVersion = isa;
  m.representative = representative;
  m.waveSize = 32;
  m.maxThreadsPerWorkgroup = 1024;
  m.maxWavesPerSimd = 16;
  m.simdsPerCU = 2;
  m.vgprsPerLane = 256;
  m.vgprFileBytesPerSimd = 1536 * 32 * 4;
  m.sgprsPerWave = 106;
  m.ldsBytesPerWorkgroup = 64 * KiB;
  m.ldsBytesPerCU = 64 * KiB; // 128 KiB per WGP of two CUs
  m.ldsBanks = 32;
  m.ldsBankBytes = 4;
  m.cacheLineBytes = 128;
  m.l1Bytes = 32 * KiB;
  m.l2Bytes = l2;
  m.mallBytes = mall;
  m.computeUnits = cus;
  m.maxVectorBytes = 16;
  m.maxLdsVectorBytes = 16;
  m.ldsDmaBytes = 0; // RDNA has no LDS DMA from buffer/global loads
  return m;
}

} // namespace

const std::vector<ArchModel> &archModels() {
  // gfx942 first: the default arch of the plugin, the MI300 series.
  // LDS DMA: buffer_load_dword ... lds on gfx90a (4 bytes per lane),
  // global_load_lds_dword on gfx942 (1, 2 or 4 bytes), and dwordx3/x4 added
  // on gfx950 (up to 16 bytes).
  static const std::vector<ArchModel> models = {
      cdna("gfx942", 9402, "AMD Instinct MI300X", 64 * KiB, 32 * KiB, 32 * MiB, 256 * MiB, 304,
           4),
      cdna("gfx90a", 9010, "AMD Instinct MI250X (one GCD)", 64 * KiB, 16 * KiB, 8 * MiB, 0, 110,
           4),
      cdna("gfx950", 9500, "AMD Instinct MI355X", 160 * KiB, 32 * KiB, 32 * MiB, 256 * MiB, 256,
           16),
      rdna3("gfx1100", 11000, "AMD Radeon RX 7900 XTX", 6 * MiB, 96 * MiB, 96),
  };
  return models;
}

std::string_view processorOf(std::string_view targetId) {
  return targetId.substr(0, targetId.find(':'));
}

const ArchModel *findArch(std::string_view arch) {
  std::string_view processor = processorOf(arch);
  for (const ArchModel &m : archModels())
    if (processor == m.arch)
      return &m;
  return nullptr;
}

namespace {

/// Which archs issue an instruction: a space-separated list of names.
bool listed(const char *archs, std::string_view arch) {
  std::string_view list(archs);
  size_t pos = 0;
  while (pos < list.size()) {
    size_t end = list.find(' ', pos);
    if (end == std::string_view::npos)
      end = list.size();
    if (list.substr(pos, end - pos) == arch)
      return true;
    pos = end + 1;
  }
  return false;
}

struct Entry {
  MatrixInstr instr;
  const char *archs;
};

MatrixInstr mfma(const char *name, const char *isa, const char *intrinsic, unsigned m,
                 unsigned n, unsigned k, const char *ab, const char *acc, unsigned kPerLane) {
  return {name, isa, intrinsic, MatrixFamily::Mfma, m, n, k, ab, ab, acc, kPerLane};
}

MatrixInstr wmma(const char *name, const char *isa, const char *intrinsic, const char *ab,
                 const char *acc) {
  return {name, isa, intrinsic, MatrixFamily::Wmma, 16, 16, 16, ab, ab, acc, 16};
}

const std::vector<Entry> &entries() {
  // The i8 MFMAs of CDNA2 with K = 8/16 were replaced on CDNA3 by K = 16/32;
  // xf32 exists on gfx942 only; the double-K f16/bf16 forms are CDNA4's.
  // gfx942's fp8 is the FNUZ encoding, gfx950's the OCP one.
  static const char *kCdna = "gfx90a gfx942 gfx950";
  static const std::vector<Entry> table = {
      {mfma("mfma.f32.32x32x2.f32", "v_mfma_f32_32x32x2f32",
            "llvm.amdgcn.mfma.f32.32x32x2f32", 32, 32, 2, "f32", "f32", 1), kCdna},
      {mfma("mfma.f32.16x16x4.f32", "v_mfma_f32_16x16x4f32",
            "llvm.amdgcn.mfma.f32.16x16x4f32", 16, 16, 4, "f32", "f32", 1), kCdna},
      {mfma("mfma.f32.32x32x8.f16", "v_mfma_f32_32x32x8f16",
            "llvm.amdgcn.mfma.f32.32x32x8f16", 32, 32, 8, "f16", "f32", 4), kCdna},
      {mfma("mfma.f32.16x16x16.f16", "v_mfma_f32_16x16x16f16",
            "llvm.amdgcn.mfma.f32.16x16x16f16", 16, 16, 16, "f16", "f32", 4),
       kCdna},
      {mfma("mfma.f32.32x32x8.bf16", "v_mfma_f32_32x32x8bf16_1k",
            "llvm.amdgcn.mfma.f32.32x32x8bf16.1k", 32, 32, 8, "bf16", "f32", 4),
       kCdna},
      {mfma("mfma.f32.16x16x16.bf16", "v_mfma_f32_16x16x16bf16_1k",
            "llvm.amdgcn.mfma.f32.16x16x16bf16.1k", 16, 16, 16, "bf16", "f32", 4),
       kCdna},
      {mfma("mfma.f64.16x16x4.f64", "v_mfma_f64_16x16x4f64",
            "llvm.amdgcn.mfma.f64.16x16x4f64", 16, 16, 4, "f64", "f64", 1), kCdna},
      {mfma("mfma.i32.32x32x8.i8", "v_mfma_i32_32x32x8i8",
            "llvm.amdgcn.mfma.i32.32x32x8i8", 32, 32, 8, "i8", "i32", 4), "gfx90a"},
      {mfma("mfma.i32.16x16x16.i8", "v_mfma_i32_16x16x16i8",
            "llvm.amdgcn.mfma.i32.16x16x16i8", 16, 16, 16, "i8", "i32", 4),
       "gfx90a"},
      {mfma("mfma.i32.32x32x16.i8", "v_mfma_i32_32x32x16_i8",
            "llvm.amdgcn.mfma.i32.32x32x16.i8", 32, 32, 16, "i8", "i32", 8),
       "gfx942 gfx950"},
      {mfma("mfma.i32.16x16x32.i8", "v_mfma_i32_16x16x32_i8",
            "llvm.amdgcn.mfma.i32.16x16x32.i8", 16, 16, 32, "i8", "i32", 8),
       "gfx942 gfx950"},
      {mfma("mfma.f32.32x32x4.xf32", "v_mfma_f32_32x32x4_xf32",
            "llvm.amdgcn.mfma.f32.32x32x4.xf32", 32, 32, 4, "xf32", "f32", 2),
       "gfx942"},
      {mfma("mfma.f32.16x16x8.xf32", "v_mfma_f32_16x16x8_xf32",
            "llvm.amdgcn.mfma.f32.16x16x8.xf32", 16, 16, 8, "xf32", "f32", 2),
       "gfx942"},
      {mfma("mfma.f32.16x16x32.f8e4m3fnuz", "v_mfma_f32_16x16x32_fp8_fp8",
            "llvm.amdgcn.mfma.f32.16x16x32.fp8.fp8", 16, 16, 32,
            "f8E4M3FNUZ", "f32", 8),
       "gfx942"},
      {mfma("mfma.f32.16x16x32.f8e4m3fn", "v_mfma_f32_16x16x32_fp8_fp8",
            "llvm.amdgcn.mfma.f32.16x16x32.fp8.fp8", 16, 16, 32, "f8E4M3FN",
            "f32", 8),
       "gfx950"},
      {mfma("mfma.f32.32x32x16.f16", "v_mfma_f32_32x32x16_f16",
            "llvm.amdgcn.mfma.f32.32x32x16.f16", 32, 32, 16, "f16", "f32", 8),
       "gfx950"},
      {mfma("mfma.f32.16x16x32.f16", "v_mfma_f32_16x16x32_f16",
            "llvm.amdgcn.mfma.f32.16x16x32.f16", 16, 16, 32, "f16", "f32", 8),
       "gfx950"},
      {mfma("mfma.f32.32x32x16.bf16", "v_mfma_f32_32x32x16_bf16",
            "llvm.amdgcn.mfma.f32.32x32x16.bf16", 32, 32, 16, "bf16", "f32", 8),
       "gfx950"},
      {mfma("mfma.f32.16x16x32.bf16", "v_mfma_f32_16x16x32_bf16",
            "llvm.amdgcn.mfma.f32.16x16x32.bf16", 16, 16, 32, "bf16", "f32", 8),
       "gfx950"},
      {wmma("wmma.f32.16x16x16.f16", "v_wmma_f32_16x16x16_f16",
            "llvm.amdgcn.wmma.f32.16x16x16.f16", "f16", "f32"), "gfx1100"},
      {wmma("wmma.f32.16x16x16.bf16", "v_wmma_f32_16x16x16_bf16",
            "llvm.amdgcn.wmma.f32.16x16x16.bf16", "bf16", "f32"), "gfx1100"},
      {wmma("wmma.i32.16x16x16.i8", "v_wmma_i32_16x16x16_iu8",
            "llvm.amdgcn.wmma.i32.16x16x16.iu8", "i8", "i32"), "gfx1100"},
  };
  return table;
}

} // namespace

const std::vector<MatrixInstr> &matrixInstructions() {
  static const std::vector<MatrixInstr> all = [] {
    std::vector<MatrixInstr> out;
    for (const Entry &e : entries())
      out.push_back(e.instr);
    return out;
  }();
  return all;
}

std::vector<const MatrixInstr *> matrixInstructions(const ArchModel &arch) {
  std::vector<const MatrixInstr *> out;
  const std::vector<MatrixInstr> &all = matrixInstructions();
  for (size_t i = 0; i < all.size(); ++i)
    if (listed(entries()[i].archs, arch.arch))
      out.push_back(&all[i]);
  return out;
}

const MatrixInstr *findMatrixInstr(std::string_view name) {
  for (const MatrixInstr &instr : matrixInstructions())
    if (name == instr.name)
      return &instr;
  return nullptr;
}

} // namespace hadron::amd
