//===- DemoCases.cpp - The examples and their host references -------------===//

#include "DemoCases.h"

#include <algorithm>
#include <cmath>

namespace hadron::cli {
namespace {

DemoArg buffer(int index) { return DemoArg{index, {}}; }

DemoArg i32(int32_t v) {
  DemoArg a;
  a.scalar.kind = HD_ARG_I32;
  a.scalar.value.i = v;
  return a;
}

DemoArg f32(float v) {
  DemoArg a;
  a.scalar.kind = HD_ARG_F32;
  a.scalar.value.f = v;
  return a;
}

uint32_t ceilDiv(uint64_t a, uint64_t b) { return static_cast<uint32_t>((a + b - 1) / b); }

// Poisoned slack after an output, to catch writes past its end.
constexpr size_t kSlack = 64;

DemoCase vectorAdd() {
  const int32_t n = (1 << 20) + 77;
  return {"vector_add",
          "n = " + std::to_string(n),
          {{size_t(n), false}, {size_t(n), false}, {n + kSlack, true}},
          {buffer(0), buffer(1), buffer(2), i32(n)},
          {ceilDiv(n, 1024), 1, 1},
          [=](std::vector<std::vector<float>> &b) {
            for (int32_t i = 0; i < n; ++i)
              b[2][i] = b[0][i] + b[1][i];
          },
          0.0,
          0.0,
          12.0 * n,
          0};
}

DemoCase rowSoftmax() {
  const int32_t rows = 2048, cols = 1000;
  const size_t count = size_t(rows) * cols;
  return {"row_softmax",
          std::to_string(rows) + " x " + std::to_string(cols),
          {{count, false}, {count + kSlack, true}},
          {buffer(0), buffer(1), i32(cols)},
          {rows, 1, 1},
          [=](std::vector<std::vector<float>> &b) {
            for (int32_t r = 0; r < rows; ++r) {
              const float *x = &b[0][size_t(r) * cols];
              float *y = &b[1][size_t(r) * cols];
              float max = *std::max_element(x, x + cols);
              double sum = 0;
              for (int32_t c = 0; c < cols; ++c)
                sum += std::exp(double(x[c]) - max);
              for (int32_t c = 0; c < cols; ++c)
                y[c] = static_cast<float>(std::exp(double(x[c]) - max) / sum);
            }
          },
          1e-7,
          1e-4,
          8.0 * count,
          0};
}

DemoCase maskedCopy() {
  const int32_t n = (1 << 20) + 333, nOut = n + 1000;
  const float fill = -7.5f;
  return {"masked_copy",
          std::to_string(n) + " -> " + std::to_string(nOut),
          {{size_t(n), false}, {nOut + kSlack, true}},
          {buffer(0), buffer(1), i32(n), i32(nOut), f32(fill)},
          {ceilDiv(nOut, 1024), 1, 1},
          [=](std::vector<std::vector<float>> &b) {
            for (int32_t i = 0; i < nOut; ++i)
              b[1][i] = i < n ? b[0][i] : fill;
          },
          0.0,
          0.0,
          4.0 * n + 4.0 * nOut,
          0};
}

DemoCase transpose() {
  const int32_t m = 768, n = 512;
  const size_t count = size_t(m) * n;
  return {"transpose",
          std::to_string(m) + " x " + std::to_string(n),
          {{count, false}, {count + kSlack, true}},
          {buffer(0), buffer(1), i32(m), i32(n)},
          {uint32_t(m / 64), uint32_t(n / 64), 1},
          [=](std::vector<std::vector<float>> &b) {
            for (int32_t i = 0; i < m; ++i)
              for (int32_t j = 0; j < n; ++j)
                b[1][size_t(j) * m + i] = b[0][size_t(i) * n + j];
          },
          0.0,
          0.0,
          8.0 * count,
          0};
}

DemoCase matmul() {
  const int32_t m = 256, n = 256, k = 256;
  return {"matmul",
          std::to_string(m) + " x " + std::to_string(n) + " x " + std::to_string(k),
          {{size_t(m) * k, false}, {size_t(k) * n, false}, {size_t(m) * n + kSlack, true}},
          {buffer(0), buffer(1), buffer(2), i32(m), i32(n), i32(k)},
          {uint32_t(m / 32), uint32_t(n / 32), 1},
          [=](std::vector<std::vector<float>> &b) {
            for (int32_t i = 0; i < m; ++i)
              for (int32_t j = 0; j < n; ++j) {
                double sum = 0;
                for (int32_t t = 0; t < k; ++t)
                  sum += double(b[0][size_t(i) * k + t]) * b[1][size_t(t) * n + j];
                b[2][size_t(i) * n + j] = static_cast<float>(sum);
              }
          },
          1e-3,
          1e-4,
          0,
          2.0 * m * n * k};
}

} // namespace

std::vector<DemoCase> demoCases() {
  return {vectorAdd(), rowSoftmax(), maskedCopy(), transpose(), matmul()};
}

} // namespace hadron::cli
