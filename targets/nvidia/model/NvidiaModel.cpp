//===- NvidiaModel.cpp - The per-architecture table ------------------------===//
//
// One row per architecture the plugin compiles for. The per-compute-
// capability limits are the CUDA C++ Programming Guide's; smCount and
// l2Bytes are the representative device's (the driver's values replace them
// for a real device).
//
//===----------------------------------------------------------------------===//

#include "NvidiaModel.h"

namespace hadron::nvidia {

namespace {

constexpr uint64_t KiB = 1024;
constexpr uint64_t MiB = 1024 * KiB;

/// The fields every architecture since Volta shares.
ArchModel base(const char *arch, unsigned cc, bool archSpecific, const char *representative) {
  ArchModel m{};
  m.arch = arch;
  m.computeCapability = cc;
  m.archSpecific = archSpecific;
  m.representative = representative;
  m.warpSize = 32;
  m.maxThreadsPerCTA = 1024;
  m.registersPerSM = 64 * 1024;
  m.maxRegistersPerThread = 255;
  m.sharedBytesPerCTA = 48 * KiB;
  m.sharedBanks = 32;
  m.sharedBankBytes = 4;
  m.cacheLineBytes = 128;
  m.maxVectorBytes = 16;
  m.maxSharedVectorBytes = 16;
  m.asyncCopy = kAsyncCopyCpAsync;
  return m;
}

/// Ampere GA100: 164 KiB of shared memory per SM, 163 KiB for one CTA.
ArchModel sm80() {
  ArchModel m = base("sm_80", 80, false, "A100-SXM4-40GB");
  m.maxThreadsPerSM = 2048;
  m.maxCTAsPerSM = 32;
  m.sharedBytesPerCTAOptIn = 163 * KiB;
  m.sharedBytesPerSM = 164 * KiB;
  m.l1AndSharedBytesPerSM = 192 * KiB;
  m.l2Bytes = 40 * MiB;
  m.smCount = 108;
  return m;
}

/// Ampere GA10x: 100 KiB per SM, 99 KiB for one CTA, 1536 threads per SM.
ArchModel sm86() {
  ArchModel m = base("sm_86", 86, false, "GeForce RTX 3090");
  m.maxThreadsPerSM = 1536;
  m.maxCTAsPerSM = 16;
  m.sharedBytesPerCTAOptIn = 99 * KiB;
  m.sharedBytesPerSM = 100 * KiB;
  m.l1AndSharedBytesPerSM = 128 * KiB;
  m.l2Bytes = 6 * MiB;
  m.smCount = 82;
  return m;
}

/// Ada: the shared-memory limits of GA10x, 24 CTAs per SM.
ArchModel sm89() {
  ArchModel m = base("sm_89", 89, false, "GeForce RTX 4090");
  m.maxThreadsPerSM = 1536;
  m.maxCTAsPerSM = 24;
  m.sharedBytesPerCTAOptIn = 99 * KiB;
  m.sharedBytesPerSM = 100 * KiB;
  m.l1AndSharedBytesPerSM = 128 * KiB;
  m.l2Bytes = 72 * MiB;
  m.smCount = 128;
  return m;
}

/// Hopper: 228 KiB per SM, 227 KiB for one CTA, TMA.
ArchModel sm90(const char *arch, bool archSpecific) {
  ArchModel m = base(arch, 90, archSpecific, "H100-SXM5-80GB");
  m.maxThreadsPerSM = 2048;
  m.maxCTAsPerSM = 32;
  m.sharedBytesPerCTAOptIn = 227 * KiB;
  m.sharedBytesPerSM = 228 * KiB;
  m.l1AndSharedBytesPerSM = 256 * KiB;
  m.l2Bytes = 50 * MiB;
  m.smCount = 132;
  m.asyncCopy = kAsyncCopyCpAsync | kAsyncCopyTma;
  return m;
}

/// Blackwell datacenter: Hopper's shared-memory limits, TMA.
ArchModel sm100(const char *arch, bool archSpecific) {
  ArchModel m = base(arch, 100, archSpecific, "B200");
  m.maxThreadsPerSM = 2048;
  m.maxCTAsPerSM = 32;
  m.sharedBytesPerCTAOptIn = 227 * KiB;
  m.sharedBytesPerSM = 228 * KiB;
  m.l1AndSharedBytesPerSM = 256 * KiB;
  m.l2Bytes = 126 * MiB;
  m.smCount = 148;
  m.asyncCopy = kAsyncCopyCpAsync | kAsyncCopyTma;
  return m;
}

} // namespace

const std::vector<ArchModel> &archModels() {
  static const std::vector<ArchModel> models = {
      sm80(),
      sm86(),
      sm89(),
      sm90("sm_90", false),
      sm90("sm_90a", true),
      sm100("sm_100", false),
      sm100("sm_100a", true),
  };
  return models;
}

const ArchModel *findArch(std::string_view arch) {
  for (const ArchModel &m : archModels())
    if (arch == m.arch)
      return &m;
  return nullptr;
}

std::string archName(int major, int minor) {
  std::string name = "sm_" + std::to_string(major) + std::to_string(minor);
  // The arch-specific features of 9.0 and 10.0 (wgmma, tcgen05, setmaxnreg)
  // are there on the device; only code compiled for the 'a' target uses them.
  if ((major == 9 || major == 10) && minor == 0)
    name += "a";
  return name;
}

const std::vector<MatrixInstr> &matrixInstructions() {
  // The integer forms are listed for signed 8-bit inputs; u8 has the same
  // fragments. tf32 has no k16 form: its widest mma.sync is m16n8k8.
  static const std::vector<MatrixInstr> instrs = {
      {"mma.m16n8k16.f16", "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32",
       MatrixFamily::MmaSync, 16, 8, 16, 8, "f16", "f16", "f32", 80, false},
      {"mma.m16n8k16.bf16", "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32",
       MatrixFamily::MmaSync, 16, 8, 16, 8, "bf16", "bf16", "f32", 80, false},
      {"mma.m16n8k8.tf32", "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32",
       MatrixFamily::MmaSync, 16, 8, 8, 8, "tf32", "tf32", "f32", 80, false},
      {"mma.m16n8k16.s8", "mma.sync.aligned.m16n8k16.row.col.s32.s8.s8.s32",
       MatrixFamily::MmaSync, 16, 8, 16, 8, "s8", "s8", "s32", 80, false},
      {"mma.m16n8k32.s8", "mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32",
       MatrixFamily::MmaSync, 16, 8, 32, 8, "s8", "s8", "s32", 80, false},
      {"wgmma.m64nNk16.f16", "wgmma.mma_async.sync.aligned.m64nNk16.f32.f16.f16",
       MatrixFamily::Wgmma, 64, 256, 16, 8, "f16", "f16", "f32", 90, true},
      {"wgmma.m64nNk16.bf16", "wgmma.mma_async.sync.aligned.m64nNk16.f32.bf16.bf16",
       MatrixFamily::Wgmma, 64, 256, 16, 8, "bf16", "bf16", "f32", 90, true},
      {"wgmma.m64nNk8.tf32", "wgmma.mma_async.sync.aligned.m64nNk8.f32.tf32.tf32",
       MatrixFamily::Wgmma, 64, 256, 8, 8, "tf32", "tf32", "f32", 90, true},
      {"wgmma.m64nNk32.s8", "wgmma.mma_async.sync.aligned.m64nNk32.s32.s8.s8",
       MatrixFamily::Wgmma, 64, 256, 32, 8, "s8", "s8", "s32", 90, true},
  };
  return instrs;
}

std::vector<const MatrixInstr *> matrixInstructions(const ArchModel &arch) {
  std::vector<const MatrixInstr *> usable;
  for (const MatrixInstr &instr : matrixInstructions()) {
    if (arch.computeCapability < instr.minComputeCapability)
      continue;
    // An arch-specific instruction exists only on its own compute capability
    // ('a' code does not run on later GPUs): wgmma is sm_90a's alone.
    if (instr.needsArchSpecific &&
        (!arch.archSpecific || arch.computeCapability != instr.minComputeCapability))
      continue;
    usable.push_back(&instr);
  }
  return usable;
}

const MatrixInstr *findMatrixInstr(std::string_view name) {
  for (const MatrixInstr &instr : matrixInstructions())
    if (name == instr.name)
      return &instr;
  return nullptr;
}

} // namespace hadron::nvidia
