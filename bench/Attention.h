//===- Attention.h - Flash attention forward, timed -----------------------===//
//
// The attention examples (examples/nvidia/attention_fwd_hd{64,128}.mlir,
// embedded when hadron-bench is built) on [heads, n_ctx, d] bf16 inputs:
// each kernel and shape is first checked against a host reference on a
// sample of rows (fresh random inputs, the output poisoned), then timed with
// device events (median). Throughput counts the two matrix products,
// 4 * heads * n_ctx^2 * d flops (non-causal), in 1e12 per second, as
// FlashAttention's and Triton's benchmarks do. JSON keys:
// "attention_z4h32_ctx4096_hd64.hadron_TFLOPs".
//
//===----------------------------------------------------------------------===//
#ifndef HADRON_BENCH_ATTENTION_H
#define HADRON_BENCH_ATTENTION_H

#include "Bench.h"

#include "hadron/runtime/Runtime.hpp"

#include <string>
#include <vector>

namespace hadron::bench {

/// One attention kernel `name(q, k, v, out, sm_scale, n_ctx)`, one program
/// per `blockM` query rows of one head (grid [ceil(n_ctx / blockM), heads]).
struct AttentionKernel {
  std::string label; ///< where it comes from
  std::string ir, name;
  uint32_t headDim = 64;
  std::string arch; ///< the only device arch it runs on, or "" for any GPU
  /// "" for the head dim's plain kernel, else the JSON key part of another
  /// (hadron_<variant>_TFLOPs).
  std::string variant;
  uint32_t blockM = 128; ///< query rows a program
};

/// The embedded examples (head dims 64 and 128, sm_90a).
const std::vector<AttentionKernel> &attentionKernels();

struct AttentionOptions {
  uint32_t batch = 4, heads = 32;
  std::vector<uint32_t> contexts; ///< n_ctx values, multiples of 128
  unsigned warmup = 3, reps = 10;
  std::vector<AttentionKernel> kernels; ///< empty: attentionKernels()
};

/// Runs and reports every kernel and context into `json`; what went wrong
/// is appended to `failures`.
void benchAttention(const hadron::runtime::Device &dev, const AttentionOptions &o,
                    JsonReport &json, std::vector<std::string> &failures);

} // namespace hadron::bench

#endif // HADRON_BENCH_ATTENTION_H
