//===- VectorAddCheck.h - Runs vector_add and checks every element -*- C++ -*-===//
//
// The runtime tests load examples/vector_add.mlir (x, y, out, n; `block`
// elements per program) in many ways: from IR, from the kernel cache, from
// a bundle, from a binary. Each then runs it through this check: fresh
// random inputs, an output poisoned with NaN, `n` exact sums and a few
// elements past n that must stay NaN.
//
//===----------------------------------------------------------------------===//
#ifndef HADRON_RUNTIME_TESTS_VECTORADDCHECK_H
#define HADRON_RUNTIME_TESTS_VECTORADDCHECK_H

#include "hadron/runtime/Runtime.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

namespace hadron::runtime::tests {

/// Fails the current test (gtest assertions) on the first wrong element.
inline void checkVectorAdd(const Device &device, const Kernel &add, int32_t n, uint32_t block,
                           uint32_t seed) {
  const int32_t slack = 7;
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> dist(-100.f, 100.f);
  std::vector<float> x(n), y(n), out(n + slack, std::nanf(""));
  for (int32_t i = 0; i < n; ++i) {
    x[i] = dist(rng);
    y[i] = dist(rng);
  }
  auto dx = device.alloc(x.size() * sizeof(float));
  auto dy = device.alloc(y.size() * sizeof(float));
  auto dout = device.alloc(out.size() * sizeof(float));
  ASSERT_TRUE(dx.ok() && dy.ok() && dout.ok());
  ASSERT_TRUE(dx->upload(x).ok() && dy->upload(y).ok() && dout->upload(out).ok());
  const uint32_t programs = (static_cast<uint32_t>(n) + block - 1) / block;
  Status s = add.launch({programs, 1, 1}, {dx->arg(), dy->arg(), dout->arg(), arg::i32(n)});
  ASSERT_TRUE(s.ok()) << s.message();
  s = device.synchronize();
  ASSERT_TRUE(s.ok()) << s.message();
  ASSERT_TRUE(dout->download(out).ok());
  for (int32_t i = 0; i < n; ++i)
    ASSERT_EQ(out[i], x[i] + y[i]) << "element " << i << " of " << n << " (seed " << seed << ")";
  for (int32_t i = n; i < n + slack; ++i)
    ASSERT_TRUE(std::isnan(out[i])) << "element " << i << " past n = " << n << " was written";
}

/// The same for the kernel `vector_add` of `module`, blocks of 1024 as in
/// the example, on a random size and seed.
inline void checkVectorAdd(const Device &device, const Module &module) {
  auto add = module.kernel("vector_add");
  ASSERT_TRUE(add.ok()) << add.status().message();
  std::mt19937 rng(std::random_device{}());
  const int32_t n = std::uniform_int_distribution<int32_t>(1000, 5000)(rng);
  checkVectorAdd(device, *add, n, 1024, static_cast<uint32_t>(rng()));
}

} // namespace hadron::runtime::tests

#endif // HADRON_RUNTIME_TESTS_VECTORADDCHECK_H
