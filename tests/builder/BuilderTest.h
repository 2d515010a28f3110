//===- BuilderTest.h - What the builder's tests share ----------*- C++ -*-===//
//
// Ordered substring checks on printed IR (FileCheck's CHECK lines, without
// patterns), and host runs: a module built with the builder, compiled and
// launched through libhadron-runtime on the host device, with random inputs
// and outputs poisoned before the launch so that an element the kernel does
// not write fails the comparison.
//
//===----------------------------------------------------------------------===//
#ifndef HADRON_TESTS_BUILDER_BUILDERTEST_H
#define HADRON_TESTS_BUILDER_BUILDERTEST_H

#include "hadron/Builder/Builder.h"
#include "hadron/runtime/Runtime.hpp"

#include <gtest/gtest.h>

#include <array>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <variant>
#include <vector>

namespace hadron::builder::test {

/// Each of `checks` occurs in `ir`, in this order; on failure the message
/// names the first one missing and shows the IR.
::testing::AssertionResult containsInOrder(const std::string &ir,
                                           const std::vector<std::string> &checks);

/// The module's IR, or a test failure with the builder's error.
std::string irOf(const Result<Module> &m);

/// The builder's error message, or a test failure when it built.
std::string errorOf(const Result<Module> &m);

/// "path/to/File.cpp:LINE:" for a line of the calling test file.
std::string at(const char *file, int line);

/// The host device, selected once per process.
runtime::Device &host();
/// The tests' runtime context (every plugin the build made).
runtime::Context &context();
/// True when the plugin `name` ("nvidia", "amd", ...) is loaded.
bool hasPlugin(const std::string &name);
/// The PTX of `m` for sm_90a, or empty (with a failure recorded).
std::string ptxOf(const Module &m);
/// ptxas -arch=sm_90a accepts `ptx`, when the CUDA toolkit is installed.
::testing::AssertionResult assembles(const std::string &ptx);

/// A buffer argument: the host vector is uploaded before the launch and,
/// for an output, downloaded after it.
struct Buffer {
  void *data;
  size_t bytes;
  bool output;
};
template <typename T> Buffer input(std::vector<T> &v) { return {v.data(), v.size() * sizeof(T), false}; }
template <typename T> Buffer output(std::vector<T> &v) {
  return {v.data(), v.size() * sizeof(T), true};
}
using Arg = std::variant<Buffer, hd_arg>;

/// `n` elements no kernel computes (a NaN for floats, 0xAAAAAAAA for
/// integers): an output starts as this, so an unwritten element keeps it.
template <typename T> std::vector<T> poisoned(size_t n) {
  T v;
  if constexpr (std::is_floating_point_v<T>)
    v = std::numeric_limits<T>::quiet_NaN();
  else
    std::memset(&v, 0xAA, sizeof v);
  return std::vector<T>(n, v);
}

/// Compiles `m` for the host, launches its kernel on `grid` and downloads
/// the outputs; a failure is returned with the runtime's message.
::testing::AssertionResult run(const Module &m, std::array<uint32_t, 3> grid,
                               const std::vector<Arg> &args);

std::mt19937_64 &rng();
/// `n` values drawn uniformly from [lo, hi) (floats) or [lo, hi] (integers).
template <typename T> std::vector<T> random(size_t n, T lo, T hi) {
  using Dist = std::conditional_t<std::is_floating_point_v<T>, std::uniform_real_distribution<T>,
                                  std::uniform_int_distribution<T>>;
  Dist d(lo, hi);
  std::vector<T> v(n);
  for (T &x : v)
    x = d(rng());
  return v;
}
inline std::vector<float> randomF32(size_t n, float lo = -1, float hi = 1) {
  return random<float>(n, lo, hi);
}
inline std::vector<int32_t> randomI32(size_t n, int32_t lo, int32_t hi) {
  return random<int32_t>(n, lo, hi);
}

/// |got - want| <= atol + rtol * |want| everywhere (NaN only where wanted).
::testing::AssertionResult close(const std::vector<float> &got, const std::vector<float> &want,
                                 double atol, double rtol);

} // namespace hadron::builder::test

#endif // HADRON_TESTS_BUILDER_BUILDERTEST_H
