//===- ConcurrencyTest.cpp - Compile, load and launch from many threads ---===//
//
// One context, 16 threads, the real host compiler part: each thread loads
// one of a few kernels (so several threads want the same kernel at once and
// different kernels compile side by side), through hd_module_load_ir or
// through hd_context_compile + hd_module_load_binary, then launches it on
// fresh random inputs with a poisoned output and checks every element. Run
// first with an empty kernel cache (everything compiles), then from a new
// context (everything comes from disk). The `tsan` preset runs this test
// under ThreadSanitizer (docs/runtime.md).
//
//===----------------------------------------------------------------------===//

#include "hadron/runtime/Runtime.hpp"

#include "TestFiles.h"

#include <gtest/gtest.h>

#include <atomic>
#include <cmath>
#include <cstdlib>
#include <random>
#include <thread>

#include <unistd.h>

using namespace hadron::runtime;

using hadron::runtime::tests::readFile;

namespace {

constexpr int kThreads = 16;
constexpr int kRounds = 3;
constexpr int kVariants = 4;

/// vector_add with a comment that makes each variant's IR, and so its cache
/// key, its own.
std::string variantIR(int variant) {
  static const std::string base = readFile(HADRON_SOURCE_DIR "/examples/vector_add.mlir");
  return base + "// variant " + std::to_string(variant) + "\n";
}

/// Loads variant `v` on `device`: odd threads compile ahead of time and load
/// the binary, even ones load the IR.
Expected<Module> load(const Context &ctx, const Device &device, int thread, int v) {
  const std::string ir = variantIR(v);
  if (thread % 2 == 0)
    return device.loadIR(ir);
  auto compiled = ctx.compile("host:" + std::string(device.info().arch), ir);
  if (!compiled)
    return compiled.status();
  const hd_compiled_module &m = compiled->module();
  return device.loadBinary(m.binary, m.binary_size,
                           std::vector<hd_kernel_signature>(m.kernels, m.kernels + m.num_kernels));
}

/// One launch of vector_add on `n` random elements; an empty string when
/// every element is right, else what went wrong.
std::string runOnce(const Device &device, const Module &module, std::mt19937 &rng) {
  auto add = module.kernel("vector_add");
  if (!add)
    return add.status().message();
  const int32_t n = std::uniform_int_distribution<int32_t>(1, 5000)(rng);
  std::uniform_real_distribution<float> dist(-1e3f, 1e3f);
  std::vector<float> x(n), y(n), out(n, std::nanf(""));
  for (int32_t i = 0; i < n; ++i) {
    x[i] = dist(rng);
    y[i] = dist(rng);
  }
  auto dx = device.alloc(n * 4), dy = device.alloc(n * 4), dout = device.alloc(n * 4);
  if (!dx || !dy || !dout)
    return "alloc failed";
  if (!dx->upload(x) || !dy->upload(y) || !dout->upload(out))
    return "upload failed";
  Status s = add->launch({static_cast<uint32_t>((n + 1023) / 1024), 1, 1},
                         {dx->arg(), dy->arg(), dout->arg(), arg::i32(n)});
  if (!s)
    return s.message();
  if (!dout->download(out))
    return "download failed";
  for (int32_t i = 0; i < n; ++i)
    if (!(out[i] == x[i] + y[i]))
      return "element " + std::to_string(i) + " of " + std::to_string(n) + " is " +
             std::to_string(out[i]) + ", expected " + std::to_string(x[i] + y[i]);
  return "";
}

class ConcurrencyTest : public ::testing::Test {
protected:
  void SetUp() override {
    char pattern[] = "/tmp/hadron-concurrency-XXXXXX";
    ASSERT_NE(::mkdtemp(pattern), nullptr);
    root = pattern;
    ::setenv("HADRON_CACHE_DIR", (root + "/cache").c_str(), 1);
  }
  void TearDown() override {
    EXPECT_EQ(std::system(("rm -rf '" + root + "'").c_str()), 0);
    ::unsetenv("HADRON_CACHE_DIR");
  }

  /// kThreads threads, kRounds rounds each, on one context; every failure
  /// is collected with its thread and round.
  static void hammer() {
    auto ctx = Context::create();
    ASSERT_TRUE(ctx.ok()) << ctx.status().message();
    auto device = ctx->select("host");
    ASSERT_TRUE(device.ok()) << device.status().message();
    std::vector<std::string> failures(kThreads);
    std::atomic<int> ready{0};
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t)
      threads.emplace_back([&, t] {
        std::mt19937 rng(std::random_device{}() + t);
        // Start together, so that the first loads of a kernel overlap.
        ++ready;
        while (ready.load() < kThreads)
          std::this_thread::yield();
        for (int r = 0; r < kRounds && failures[t].empty(); ++r) {
          const int v = (t + r) % kVariants;
          auto module = load(*ctx, *device, t, v);
          std::string failure = module ? runOnce(*device, *module, rng) : module.status().message();
          if (!failure.empty())
            failures[t] = "thread " + std::to_string(t) + ", round " + std::to_string(r) +
                          ", variant " + std::to_string(v) + ": " + failure;
        }
      });
    for (auto &t : threads)
      t.join();
    for (const std::string &f : failures)
      EXPECT_TRUE(f.empty()) << f;
  }

  std::string root;
};

TEST_F(ConcurrencyTest, SixteenThreadsCompileLoadAndLaunch) {
  {
    SCOPED_TRACE("empty cache: the kernels compile");
    hammer();
  }
  {
    SCOPED_TRACE("a new context: the kernels come from disk");
    hammer();
  }
}

} // namespace
