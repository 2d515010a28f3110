//===- Attention.cpp - The flash-attention examples' reference ------------===//

#include "testkit/Attention.h"

#include <algorithm>

namespace hadron::testkit {

std::vector<double> attentionReference(const std::vector<float> &q, const std::vector<float> &k,
                                       const std::vector<float> &v, int heads, int nCtx, int d,
                                       double scale) {
  std::vector<double> out(size_t(heads) * nCtx * d), s(nCtx);
  for (int h = 0; h < heads; ++h) {
    const size_t head = size_t(h) * nCtx * d;
    for (int i = 0; i < nCtx; ++i) {
      double mx = -INFINITY;
      for (int j = 0; j < nCtx; ++j) {
        double dot = 0;
        for (int x = 0; x < d; ++x)
          dot += double(q[head + size_t(i) * d + x]) * k[head + size_t(j) * d + x];
        s[j] = dot * scale;
        mx = std::max(mx, s[j]);
      }
      double sum = 0;
      double *row = &out[head + size_t(i) * d];
      for (int j = 0; j < nCtx; ++j) {
        double p = std::exp(s[j] - mx);
        sum += p;
        for (int x = 0; x < d; ++x)
          row[x] += p * v[head + size_t(j) * d + x];
      }
      for (int x = 0; x < d; ++x)
        row[x] /= sum;
    }
  }
  return out;
}

} // namespace hadron::testkit
