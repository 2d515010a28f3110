//===- Attention.h - The flash-attention examples' reference ----*- C++ -*-===//
#ifndef HADRON_TESTKIT_ATTENTION_H
#define HADRON_TESTKIT_ATTENTION_H

#include <cmath>
#include <vector>

namespace hadron::testkit {

/// O = softmax(Q K^T * scale) V in double, per head: `q`, `k`, `v` and the
/// result laid out [heads][nCtx][d], as examples/nvidia/attention_fwd_hd*.mlir
/// take and write them.
std::vector<double> attentionReference(const std::vector<float> &q, const std::vector<float> &k,
                                       const std::vector<float> &v, int heads, int nCtx, int d,
                                       double scale);

/// How far a bf16 output of those kernels may be from the reference: P is
/// rounded to bf16 before P V (relative 2^-9 per weight, so at most
/// 2^-9 max|v| = 2^-10 on O), exp2 is approximate (2 ulp) and O is stored as
/// bf16 (2^-9 relative).
inline double attentionTolerance(double want) { return 0x1p-8 + 0x1p-8 * std::fabs(want); }

} // namespace hadron::testkit

#endif
