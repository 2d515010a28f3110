//===- Matmul.h - The bf16 GEMM on matrix instructions, timed -------------===//
//
// examples/nvidia/matmul_mma_bf16.mlir (embedded when hadron-bench is built)
// on square sizes: each size is first checked against a host reference on a
// sample of C's entries (fresh random inputs, C poisoned), then timed with
// device events (median). Throughput counts 2*M*N*K flops, as the reference
// script does, in 1e12 per second.
//
//===----------------------------------------------------------------------===//
#ifndef HADRON_BENCH_MATMUL_H
#define HADRON_BENCH_MATMUL_H

#include "Bench.h"

#include "hadron/runtime/Runtime.hpp"

#include <string>
#include <vector>

namespace hadron::bench {

/// The GEMM kernel's IR and name, as the device run loads it.
const std::string &matmulIR();
inline const char *matmulKernelName() { return "matmul_mma"; }

struct MatmulOptions {
  std::vector<uint32_t> sizes; ///< square M = N = K, multiples of 128
  unsigned warmup = 5, reps = 20;
  std::string ir;    ///< the kernel; empty: matmulIR()
  std::string label = "examples/nvidia/matmul_mma_bf16.mlir";
};

/// Runs and reports every size into `json` ("matmul8192x8192x8192.hadron_TFLOPs");
/// what went wrong is appended to `failures`.
void benchMatmul(const hadron::runtime::Device &dev, const MatmulOptions &o, JsonReport &json,
                 std::vector<std::string> &failures);

} // namespace hadron::bench

#endif // HADRON_BENCH_MATMUL_H
