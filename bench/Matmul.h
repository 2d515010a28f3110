//===- Matmul.h - The bf16 GEMM on matrix instructions, timed -------------===//
//
// The GEMM examples (embedded when hadron-bench is built) on M x N x K
// shapes (square by default), side by side: each kernel and size is first checked against a host
// reference on a sample of C's entries (fresh random inputs, C poisoned),
// then timed with device events (median). Throughput counts 2*M*N*K flops,
// as the reference script does, in 1e12 per second. The JSON holds each
// kernel's figure ("matmul8192x8192x8192.hadron_wgmma_TFLOPs") and the best
// one (".hadron_TFLOPs", with ".hadron_best_kernel").
//
//===----------------------------------------------------------------------===//
#ifndef HADRON_BENCH_MATMUL_H
#define HADRON_BENCH_MATMUL_H

#include "Bench.h"

#include "hadron/runtime/Runtime.hpp"

#include <array>
#include <string>
#include <vector>

namespace hadron::bench {

/// One GEMM kernel `name(a, b, c, m, n, k)` that tiles C by tileM x tileN,
/// one program per tile on a 2-D grid.
struct MatmulKernel {
  std::string variant; ///< "mma", "wgmma": the JSON key part
  std::string label;   ///< where it comes from
  std::string ir, name;
  uint32_t tileM = 128, tileN = 128;
  std::string arch; ///< the only device arch it runs on, or "" for any GPU
  /// How many of A, B and C, in that order, are tensor descriptors
  /// (hd_tensor_desc) instead of pointers.
  unsigned descriptors = 0;
  /// One program per compute unit walking the tiles (grid: the smaller of
  /// the tile count and the device's compute units).
  bool persistent = false;
  /// The last partial wave's tiles split along K (matmul_tma_ws_tail): the
  /// kernel takes (ws, cnt, tail, splits) after (a, b, c, m, n, k) and a 1-D
  /// grid; splitTailPlan picks tail and splits.
  bool splitTail = false;
  /// Tiles handed out at run time (matmul_tma_dynamic, matmul_tma_ws_dynamic;
  /// such a kernel is persistent too): it takes a zeroed pair of i32 counters
  /// after (a, b, c, m, n, k), which it leaves at zero.
  bool dynamicTiles = false;
};

/// For `tiles` tiles on `units` compute units, one program a unit at a time:
/// {tail, splits} such that the last tail = tiles % units tiles, split in
/// `splits` parts along K, finish soonest (ceil(tail * s / units) / s rounds
/// of a tile, s from 1 to 4; the smallest s on a tie). {0, 1} when the tiles
/// fill whole waves or splitting gains nothing.
std::array<uint32_t, 2> splitTailPlan(uint32_t tiles, uint32_t units);

/// The GEMMs embedded when hadron-bench is built: examples/nvidia/
/// matmul_mma_bf16.mlir (mma.sync, any sm_80+) and matmul_wgmma_bf16.mlir
/// (wgmma, sm_90a), and matmul_tma_wgmma_bf16.mlir (wgmma fed by the copy
/// engine through tensor descriptors and mbarriers, sm_90a).
const std::vector<MatmulKernel> &matmulKernels();

struct MatmulOptions {
  /// M, N, K of each shape, multiples of 256 (square ones by default).
  std::vector<std::array<uint32_t, 3>> shapes;
  unsigned warmup = 5, reps = 20;
  std::vector<MatmulKernel> kernels; ///< empty: matmulKernels()
  /// cuBLAS as the in-process reference on NVIDIA devices: the library to
  /// dlopen ("" = libcublas.so.13 or .12 from the search path; "off" = none).
  std::string cublas;
};

/// Runs and reports every size and kernel into `json`; a kernel for another
/// arch is skipped with a line saying so; what went wrong is appended to
/// `failures`.
void benchMatmul(const hadron::runtime::Device &dev, const MatmulOptions &o, JsonReport &json,
                 std::vector<std::string> &failures);

} // namespace hadron::bench

#endif // HADRON_BENCH_MATMUL_H
