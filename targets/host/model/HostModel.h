//===- HostModel.h - The model of the host CPU target ---------*- C++ -*-===//
//
// What Hadron knows about each host arch, for both parts of the target: the
// runtime part lists the archs in its descriptor, answers hd_device_info and
// refuses a binary whose level this CPU lacks; the compiler part fills the
// module's #hd.target and picks LLVM's CPU and vector width. One table, so
// the two parts cannot disagree.
//
// Archs: "native" is the compiling machine's CPU with all its features (the
// default: a JIT compiles where it runs); "x86-64", "x86-64-v2", "x86-64-v3"
// and "x86-64-v4" are the psABI's generic levels, for binaries that must run
// on other machines.
//
// Plain data, free of LLVM, for the runtime part.
//
//===----------------------------------------------------------------------===//
#ifndef HADRON_TARGETS_HOST_MODEL_HOSTMODEL_H
#define HADRON_TARGETS_HOST_MODEL_HOSTMODEL_H

#include <cstdint>
#include <string_view>
#include <vector>

namespace hadron::host {

struct ArchModel {
  const char *arch; ///< as the descriptor lists it
  /// LLVM's CPU name; empty for the CPU the compiler part runs on.
  const char *cpu;
  /// The psABI level (1..4) a CPU must have to run the code; 0 for
  /// "native", which runs where it was compiled.
  unsigned level;
  /// The widest vector register, in bytes; 0 for "native", where the
  /// compiler part reads it from the CPU's features.
  unsigned vectorBytes;
};

/// Every arch; the first ("native") is the default.
const std::vector<ArchModel> &archModels();

/// The arch named `arch`, or nullptr.
const ArchModel *findArch(std::string_view arch);

/// A CTA's limits, the same for every arch. Lanes and warps are folded into
/// registers, so these are not hardware limits: 1024 threads is the largest
/// CTA the GPU targets accept, so a kernel written for a GPU compiles and
/// launches unchanged; shared memory is a per-worker buffer in host memory,
/// and 1 MiB stays within a core's L2 on current CPUs.
constexpr uint32_t kMaxThreadsPerCta = 1024;
constexpr uint64_t kSharedBytesPerCta = 1u << 20;

/// The warp sizes a kernel's layouts may use: any, up to 64, since lanes
/// are folded into registers.
constexpr unsigned kWarpSizes[] = {1, 2, 4, 8, 16, 32, 64};

/// Shared memory is ordinary memory, read by one thread per CTA: it has no
/// banks (every layout serves an access equally fast), and one access moves
/// at most 16 bytes, the vector register every arch has.
constexpr unsigned kSharedBanks = 0;
constexpr unsigned kSharedVectorBytes = 16;

} // namespace hadron::host

#endif // HADRON_TARGETS_HOST_MODEL_HOSTMODEL_H
