//===- Kernels.h - The benchmarks' hd kernels, one per config -------------===//
//
// Every benchmark kernel is written with the C++ builder (KernelSources.cpp)
// and specialised by its block size, sizePerThread and num_warps (a 1-D
// blocked layout with 32 threads per warp, which the host target folds into
// registers). hadron-bench links no MLIR, so the build runs the builder for
// every config the bench accepts (allConfigs()) and compiles the IR into a
// table (KernelIR.cpp). Pointer arguments and the element counts carry
// hd.divisibility = 16 (as Triton specialises arguments divisible by 16), so
// the loads and stores, masked ones included, are 16-byte vectors: a launch
// must pass counts that are multiples of 16 (kCountMultiple). The IR text is
// the kernel cache's key: the compile-only mode and a device run get the
// same bytes for the same config.
//
//===----------------------------------------------------------------------===//
#ifndef HADRON_BENCH_KERNELS_H
#define HADRON_BENCH_KERNELS_H

#include <cstdint>
#include <string>
#include <vector>

namespace hadron::bench {

enum class Op { Copy, Add, Softmax };

/// What the kernels' integer arguments (n, n_cols) are promised to divide by.
constexpr uint64_t kCountMultiple = 16;

/// One kernel variant: `block` elements per program (for softmax: the row
/// tile, a power of two >= the row length), `spt` consecutive elements per
/// thread, `warps` warps per program.
struct Config {
  uint32_t block = 1024;
  uint32_t spt = 4;
  uint32_t warps = 4;

  /// "block=4096 spt=4 warps=8"
  std::string describe() const;
  /// "b4096_s4_w8", for JSON keys.
  std::string tag() const;
};

const char *opName(Op op);
/// The kernel's symbol: "bench_copy", "bench_add", "bench_softmax".
std::string kernelName(Op op);

/// The kernel's IR. copy(src, dst, n), add(a, b, c, n) over `n` elements;
/// softmax(in, out, n_cols): one program per row of n_cols <= block floats.
/// Empty for a config outside allConfigs() (the option parser rejects those).
std::string kernelIR(Op op, const Config &c);

/// Every config the bench accepts: block, spt and warps powers of two,
/// block <= 65536 and spt * 32 * warps <= block.
std::vector<Config> allConfigs();

/// Configs worth trying: block sizes x spt x warps, keeping those whose
/// layout tile (spt * 32 * warps) fits in the block.
std::vector<Config> sweep(const std::vector<uint32_t> &blocks, const std::vector<uint32_t> &spts,
                          const std::vector<uint32_t> &warps);

/// The smallest power of two >= v (v >= 1).
uint32_t nextPowerOfTwo(uint32_t v);

} // namespace hadron::bench

#endif // HADRON_BENCH_KERNELS_H
