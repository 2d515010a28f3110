//===- IntelModel.cpp - The Intel architecture table ----------------------===//
//
// Representative devices:
//  - pvc: Data Center GPU Max 1550, 128 Xe cores, 512 KiB L1/SLM per core
//    (up to 128 KiB SLM per work-group), 408 MiB L2 (Rambo cache, both
//    stacks); DPAS with 16-wide sub-groups; 2D block I/O.
//  - bmg: Arc B580, 20 Xe2 cores, 256 KiB L1/SLM per core, 18 MiB L2.
//  - lnl: Core Ultra 200V (Lunar Lake) iGPU, 8 Xe2 cores, 8 MiB L2.
//  - acm: Arc A770, 32 Xe cores, 192 KiB L1/SLM per core, 16 MiB L2; DPAS
//    with 8-wide sub-groups, no 2D block I/O from OpenCL/SPIR-V.
//  - cpu: the OpenCL CPU runtime: sub-groups 8, 16, 32 (it also has 4 and
//    64, which no GPU arch here has, so kernels for it are not offered),
//    256 KiB local memory, 64-byte lines.
//
//===----------------------------------------------------------------------===//

#include "IntelModel.h"

#include <algorithm>
#include <string>

namespace hadron::intel {
namespace {

constexpr uint64_t KiB = 1024, MiB = 1024 * KiB;

std::vector<DpasInstr> dpasShapes(unsigned sg) {
  // M = 8 rows (the systolic depth), N = the sub-group size, K = 32 bytes
  // of the input type per row. With 16 lanes a lane holds 16 bits of each
  // row of A (short8), with 8 lanes 32 bits (int8). tf32 exists only for
  // 16-lane sub-groups (cl_intel_subgroup_matrix_multiply_accumulate_tf32).
  if (sg == 16)
    return {
        {"dpas.f32.8x16x16.f16", 16, 8, 16, 16, "f16", "f16", "f32",
         "_Z38intel_sub_group_f16_f16_matrix_mad_k16Dv8_sDv8_iDv8_f"},
        {"dpas.f32.8x16x16.bf16", 16, 8, 16, 16, "bf16", "bf16", "f32",
         "_Z40intel_sub_group_bf16_bf16_matrix_mad_k16Dv8_sDv8_iDv8_f"},
        {"dpas.f32.8x16x8.tf32", 16, 8, 16, 8, "tf32", "tf32", "f32",
         "_Z39intel_sub_group_tf32_tf32_matrix_mad_k8Dv4_fDv8_fS0_"},
        {"dpas.i32.8x16x32.i8", 16, 8, 16, 32, "i8", "i8", "i32",
         "_Z36intel_sub_group_i8_i8_matrix_mad_k32Dv8_sDv8_iS0_"},
    };
  return {
      {"dpas.f32.8x8x16.f16", 8, 8, 8, 16, "f16", "f16", "f32",
       "_Z38intel_sub_group_f16_f16_matrix_mad_k16Dv8_iS_Dv8_f"},
      {"dpas.f32.8x8x16.bf16", 8, 8, 8, 16, "bf16", "bf16", "f32",
       "_Z40intel_sub_group_bf16_bf16_matrix_mad_k16Dv8_iS_Dv8_f"},
      {"dpas.i32.8x8x32.i8", 8, 8, 8, 32, "i8", "i8", "i32",
       "_Z36intel_sub_group_i8_i8_matrix_mad_k32Dv8_iS_S_"},
  };
}

ArchModel gpu(const char *arch, Family family, const char *representative,
              std::vector<unsigned> sizes, uint64_t slm, uint64_t l1, uint64_t l2, unsigned cores,
              bool blockIo, unsigned dpasSubGroup) {
  ArchModel m{};
  m.arch = arch;
  m.family = family;
  m.representative = representative;
  m.subGroupSizes = std::move(sizes);
  m.maxWorkGroupSize = 1024;
  m.slmBytesPerWorkGroup = slm;
  m.slmBanks = 16;
  m.slmBankBytes = 4;
  m.cacheLineBytes = 64;
  m.l1Bytes = l1;
  m.l2Bytes = l2;
  m.computeUnits = cores;
  m.maxVectorBytes = 16;
  m.maxSlmVectorBytes = 16;
  m.blockIo = blockIo ? BlockIo{true, 64, 32, 16} : BlockIo{false, 0, 0, 0};
  m.dpas = dpasShapes(dpasSubGroup);
  return m;
}

ArchModel cpu() {
  ArchModel m{};
  m.arch = "cpu";
  m.family = Family::Cpu;
  m.representative = "Intel CPU OpenCL runtime";
  m.subGroupSizes = {8, 16, 32};
  m.maxWorkGroupSize = 8192;
  m.slmBytesPerWorkGroup = 256 * KiB;
  m.slmBanks = 1;
  m.slmBankBytes = 64;
  m.cacheLineBytes = 64;
  m.l1Bytes = 48 * KiB;
  m.l2Bytes = 1 * MiB;
  m.computeUnits = 1;
  m.maxVectorBytes = 16;
  m.maxSlmVectorBytes = 16;
  m.blockIo = BlockIo{false, 0, 0, 0};
  return m;
}

} // namespace

const std::vector<ArchModel> &archModels() {
  static const std::vector<ArchModel> models = {
      gpu("pvc", Family::XeHpc, "Data Center GPU Max 1550", {16, 32}, 128 * KiB, 512 * KiB,
          408 * MiB, 128, true, 16),
      gpu("bmg", Family::Xe2, "Arc B580", {16, 32}, 64 * KiB, 256 * KiB, 18 * MiB, 20, true, 16),
      gpu("lnl", Family::Xe2, "Core Ultra 200V (Arc 140V)", {16, 32}, 64 * KiB, 192 * KiB,
          8 * MiB, 8, true, 16),
      gpu("acm", Family::XeHpg, "Arc A770", {8, 16, 32}, 64 * KiB, 192 * KiB, 16 * MiB, 32,
          false, 8),
      cpu(),
  };
  return models;
}

const ArchModel *findArch(std::string_view arch) {
  for (const ArchModel &m : archModels())
    if (arch == m.arch)
      return &m;
  return nullptr;
}

std::string_view knownArchs() {
  static const std::string names = [] {
    std::string out;
    for (const ArchModel &m : archModels())
      out += (out.empty() ? "" : ", ") + std::string(m.arch);
    return out;
  }();
  return names;
}

bool allowsSubGroupSize(const ArchModel &arch, unsigned size) {
  return std::find(arch.subGroupSizes.begin(), arch.subGroupSizes.end(), size) !=
         arch.subGroupSizes.end();
}

const DpasInstr *findDpas(std::string_view name) {
  for (const ArchModel &m : archModels())
    for (const DpasInstr &d : m.dpas)
      if (name == d.name)
        return &d;
  return nullptr;
}

} // namespace hadron::intel
