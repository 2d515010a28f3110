//===- HostLoops.cpp - Plain C++ loops, parallel over std::thread ---------===//

#include "HostLoops.h"

#include <cmath>
#include <thread>
#include <vector>

namespace hadron::bench {

namespace {

/// Runs body(begin, end) over [0, n) in `threads` contiguous chunks, one
/// std::thread each (the calling thread takes the last).
template <typename Body> void parallelFor(size_t n, unsigned threads, const Body &body) {
  if (threads <= 1 || n < threads) {
    body(size_t(0), n);
    return;
  }
  std::vector<std::thread> pool;
  pool.reserve(threads - 1);
  size_t chunk = (n + threads - 1) / threads;
  for (unsigned t = 0; t + 1 < threads; ++t) {
    size_t begin = t * chunk, end = std::min(n, begin + chunk);
    pool.emplace_back([&body, begin, end] { body(begin, end); });
  }
  body(std::min(n, (threads - 1) * chunk), n);
  for (std::thread &t : pool)
    t.join();
}

} // namespace

void loopCopy(const float *__restrict src, float *__restrict dst, size_t n, unsigned threads) {
  parallelFor(n, threads, [=](size_t begin, size_t end) {
    for (size_t i = begin; i < end; ++i)
      dst[i] = src[i];
  });
}

void loopAdd(const float *__restrict a, const float *__restrict b, float *__restrict c, size_t n,
             unsigned threads) {
  parallelFor(n, threads, [=](size_t begin, size_t end) {
    for (size_t i = begin; i < end; ++i)
      c[i] = a[i] + b[i];
  });
}

void loopSoftmax(const float *__restrict in, float *__restrict out, size_t rows, size_t cols,
                 unsigned threads) {
  parallelFor(rows, threads, [=](size_t begin, size_t end) {
    for (size_t r = begin; r < end; ++r) {
      const float *x = in + r * cols;
      float *y = out + r * cols;
      float max = -INFINITY;
      for (size_t j = 0; j < cols; ++j)
        max = std::fmax(max, x[j]);
      float sum = 0;
      for (size_t j = 0; j < cols; ++j) {
        y[j] = std::exp(x[j] - max);
        sum += y[j];
      }
      float inv = 1.0f / sum;
      for (size_t j = 0; j < cols; ++j)
        y[j] *= inv;
    }
  });
}

} // namespace hadron::bench
