//===- PluginCts.cpp - The tests every target plugin passes ---------------===//
//
// One suite for every runtime part (as IREE's HAL CTS is for its drivers):
// each target, the template and a plugin written outside this tree compile
// this file once with hadron_add_plugin_cts (HadronPlugin.cmake), which sets
//
//   HADRON_CTS_PLUGIN       the plugin's name ("amd"), its selector key
//   HADRON_CTS_LIBRARY      the path of its runtime part
//   HADRON_CTS_KERNEL_DIR   vector_add.mlir, transpose.mlir, row_softmax.mlir
//   HADRON_CTS_ENVIRONMENT  VAR=value lines set at start-up unless the
//                           process sets them (HADRON_PLUGIN_PATH, a
//                           driver's switch)
//
// The environment variables HADRON_CTS_LIBRARY and HADRON_CTS_KERNEL_DIR
// override the built-in paths (a tree staged onto a GPU machine,
// scripts/stage-gpu-run.sh).
//
// Without a device, the descriptor is checked and the runtime must say why
// the plugin has none; the tests that launch then skip with that reason.
// With one, the kernels run through libhadron-runtime (compiled by the
// plugin's compiler part) on fresh random inputs into poisoned outputs and
// are compared with host references; the runtime's argument, copy and
// allocation checks must answer for this plugin's device as for any other.
//
//===----------------------------------------------------------------------===//

#include "hadron/plugin/plugin.h"
#include "hadron/runtime/Runtime.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <fstream>
#include <optional>
#include <random>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#if !defined(HADRON_CTS_PLUGIN) || !defined(HADRON_CTS_LIBRARY) ||                             \
    !defined(HADRON_CTS_KERNEL_DIR) || !defined(HADRON_CTS_ENVIRONMENT)
#error "build this file with hadron_add_plugin_cts (HadronPlugin.cmake)"
#endif

namespace {

using namespace hadron::runtime;

const std::string kPlugin = HADRON_CTS_PLUGIN;

/// HADRON_CTS_ENVIRONMENT, before any test makes a context.
[[maybe_unused]] const bool kEnvironmentSet = [] {
  std::istringstream lines(HADRON_CTS_ENVIRONMENT);
  for (std::string line; std::getline(lines, line);)
    if (size_t eq = line.find('='); eq != std::string::npos && eq > 0)
      ::setenv(line.substr(0, eq).c_str(), line.substr(eq + 1).c_str(), /*overwrite=*/0);
  return true;
}();

/// A built-in path, or the environment's `var` where set.
std::string path(const char *var, const char *builtIn) {
  const char *set = std::getenv(var);
  return set && *set ? set : builtIn;
}

const hd_plugin_descriptor *descriptor(std::string &why) {
  const std::string library = path("HADRON_CTS_LIBRARY", HADRON_CTS_LIBRARY);
  void *so = dlopen(library.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!so) {
    why = dlerror();
    return nullptr;
  }
  auto entry = reinterpret_cast<hd_plugin_entry_fn>(dlsym(so, HADRON_PLUGIN_ENTRY_SYMBOL));
  if (!entry) {
    why = library + " has no " + HADRON_PLUGIN_ENTRY_SYMBOL;
    return nullptr;
  }
  return entry();
}

/// A kernel of HADRON_CTS_KERNEL_DIR with its threadsPerWarp scaled from
/// the 32 lanes it is written for to `lanes`.
std::string kernel(const std::string &name, unsigned lanes) {
  std::ifstream in(path("HADRON_CTS_KERNEL_DIR", HADRON_CTS_KERNEL_DIR) + "/" + name);
  std::stringstream ss;
  ss << in.rdbuf();
  std::string ir = ss.str();
  static const std::regex tpw(R"(threadsPerWarp = \[(\d+))");
  std::string out;
  size_t last = 0;
  for (auto it = std::sregex_iterator(ir.begin(), ir.end(), tpw); it != std::sregex_iterator();
       ++it) {
    out += ir.substr(last, it->position() - last) + "threadsPerWarp = [" +
           std::to_string(std::stoi((*it)[1]) * lanes / 32);
    last = it->position() + it->length();
  }
  return out + ir.substr(last);
}

TEST(PluginCts, DescriptorIsWellFormed) {
  std::string why;
  const hd_plugin_descriptor *d = descriptor(why);
  ASSERT_NE(d, nullptr) << why;
  EXPECT_GE(d->struct_size, sizeof(hd_plugin_descriptor));
  EXPECT_EQ(d->abi_major, unsigned(HADRON_PLUGIN_ABI_MAJOR));
  EXPECT_LE(d->abi_minor, unsigned(HADRON_PLUGIN_ABI_MINOR));
  ASSERT_NE(d->name, nullptr);
  EXPECT_EQ(d->name, kPlugin);
  ASSERT_NE(d->archs, nullptr);
  std::vector<std::string> archs;
  for (const char *const *a = d->archs; *a; ++a)
    archs.push_back(*a);
  EXPECT_FALSE(archs.empty()) << "a compiler part that emits nothing";
  ASSERT_NE(d->default_arch, nullptr);
  EXPECT_NE(std::find(archs.begin(), archs.end(), d->default_arch), archs.end())
      << "default arch " << d->default_arch << " is not one of the archs";
  if (d->compiler_library) {
    EXPECT_EQ(std::string(d->compiler_library), "libhadron-target-" + kPlugin + "-compiler.so");
  }
  ASSERT_NE(d->runtime, nullptr);
  EXPECT_GE(d->runtime->struct_size, sizeof(hd_runtime_table));
  // Every entry of the table: the runtime calls them without checking.
  const void *const *entries = reinterpret_cast<const void *const *>(&d->runtime->init);
  for (size_t i = 0;
       i < (sizeof(hd_runtime_table) - offsetof(hd_runtime_table, init)) / sizeof(void *); ++i)
    EXPECT_NE(entries[i], nullptr) << "runtime table entry " << i << " is NULL";
}

TEST(PluginCts, TheRuntimeLoadsItOrSaysWhyNot) {
  auto c = Context::create();
  ASSERT_TRUE(c.ok()) << c.status().message();
  auto d = c->select(kPlugin);
  if (d.ok()) {
    EXPECT_EQ(d->pluginName(), kPlugin);
    EXPECT_EQ(d->name().rfind(kPlugin + ":", 0), 0u) << d->name();
    hd_device_info info = d->info();
    EXPECT_GE(info.warp_size, 1u);
    EXPECT_GE(info.max_threads_per_cta, info.warp_size);
    EXPECT_GE(info.compute_units, 1u);
    return;
  }
  // No device: the selector's answer names the plugin, and the load
  // report says why in words (a missing driver, no device).
  EXPECT_NE(d.status().message().find(kPlugin), std::string::npos) << d.status().message();
  bool reported = false;
  for (const LoadRecord &r : c->loadReport())
    if (r.plugin == kPlugin) {
      reported = true;
      EXPECT_NE(r.code, HD_OK);
      EXPECT_GT(r.reason.size(), 10u) << "too short to say why: '" << r.reason << "'";
    }
  EXPECT_TRUE(reported) << "no load report entry for " << kPlugin;
}

/// The plugin's first device, through libhadron-runtime; skipped with the
/// runtime's reason where there is none.
class PluginDevice : public ::testing::Test {
protected:
  void SetUp() override {
    auto c = Context::create();
    ASSERT_TRUE(c.ok()) << c.status().message();
    ctx.emplace(std::move(*c));
    auto d = ctx->select(kPlugin);
    if (!d.ok()) {
      std::string why = d.status().message();
      for (const LoadRecord &r : ctx->loadReport())
        if (r.plugin == kPlugin)
          why = r.reason;
      GTEST_SKIP() << "no " << kPlugin << " device: " << why;
    }
    dev.emplace(std::move(*d));
    // Layouts for the device's lanes; 32 where it folds warps (warp size 1).
    unsigned warp = dev->info().warp_size;
    lanes = warp > 1 ? warp : 32;
  }

  Kernel load(const std::string &file, const std::string &name) {
    auto module = dev->loadIR(kernel(file, lanes));
    EXPECT_TRUE(module.ok()) << file << ": " << module.status().message();
    if (!module.ok())
      return Kernel(nullptr);
    modules.push_back(std::move(*module));
    auto k = modules.back().kernel(name);
    EXPECT_TRUE(k.ok()) << k.status().message();
    return k.ok() ? *k : Kernel(nullptr);
  }

  std::optional<Context> ctx;
  std::optional<Device> dev;
  std::vector<Module> modules;
  unsigned lanes = 32;
  std::mt19937 rng{std::random_device{}()};
};

TEST_F(PluginDevice, VectorAddWithTailsIntoPoisonedOutput) {
  Kernel add = load("vector_add.mlir", "vector_add");
  ASSERT_NE(add.get(), nullptr);
  for (int32_t n : {1, 1000, 1024, 5 * 1024 + 77}) {
    const int32_t slack = 64;
    std::uniform_real_distribution<float> dist(-1e3f, 1e3f);
    std::vector<float> x(n), y(n), out(n + slack, std::nanf(""));
    for (int32_t i = 0; i < n; ++i) {
      x[i] = dist(rng);
      y[i] = dist(rng);
    }
    auto dx = dev->alloc(n * sizeof(float)), dy = dev->alloc(n * sizeof(float)),
         dout = dev->alloc(out.size() * sizeof(float));
    ASSERT_TRUE(dx.ok() && dy.ok() && dout.ok());
    ASSERT_TRUE(dx->upload(x).ok() && dy->upload(y).ok() && dout->upload(out).ok());
    Status s = add.launch({uint32_t(n + 1023) / 1024, 1, 1},
                          {dx->arg(), dy->arg(), dout->arg(), arg::i32(n)});
    ASSERT_TRUE(s.ok()) << s.message();
    ASSERT_TRUE(dout->download(out).ok());
    for (int32_t i = 0; i < n; ++i)
      ASSERT_EQ(out[i], x[i] + y[i]) << "n = " << n << ", element " << i;
    for (int32_t i = n; i < n + slack; ++i)
      ASSERT_TRUE(std::isnan(out[i])) << "element " << i << " past n = " << n << " was written";
  }
}

// A layout change through shared memory, with barriers.
TEST_F(PluginDevice, TransposeThroughSharedMemory) {
  Kernel k = load("transpose.mlir", "transpose");
  ASSERT_NE(k.get(), nullptr);
  const int32_t m = 128, n = 192;
  std::uniform_real_distribution<float> dist(-1, 1);
  std::vector<float> in(m * n), out(n * m, std::nanf(""));
  for (float &v : in)
    v = dist(rng);
  auto din = dev->alloc(in.size() * 4), dout = dev->alloc(out.size() * 4);
  ASSERT_TRUE(din.ok() && dout.ok());
  ASSERT_TRUE(din->upload(in).ok() && dout->upload(out).ok());
  Status s = k.launch({m / 64, n / 64, 1}, {din->arg(), dout->arg(), arg::i32(m), arg::i32(n)});
  ASSERT_TRUE(s.ok()) << s.message();
  ASSERT_TRUE(dout->download(out).ok());
  for (int32_t i = 0; i < m; ++i)
    for (int32_t j = 0; j < n; ++j)
      ASSERT_EQ(out[j * m + i], in[i * n + j]) << "(" << i << ", " << j << ")";
}

// Reductions across lanes and warps, and exp.
TEST_F(PluginDevice, RowSoftmaxAcrossLanesAndWarps) {
  Kernel k = load("row_softmax.mlir", "row_softmax");
  ASSERT_NE(k.get(), nullptr);
  const int32_t rows = 9, cols = 1000;
  std::normal_distribution<float> dist(0, 3);
  std::vector<float> in(rows * cols), out(rows * cols + 16, std::nanf(""));
  for (float &v : in)
    v = dist(rng);
  auto din = dev->alloc(in.size() * 4), dout = dev->alloc(out.size() * 4);
  ASSERT_TRUE(din.ok() && dout.ok());
  ASSERT_TRUE(din->upload(in).ok() && dout->upload(out).ok());
  Status s = k.launch({rows, 1, 1}, {din->arg(), dout->arg(), arg::i32(cols)});
  ASSERT_TRUE(s.ok()) << s.message();
  ASSERT_TRUE(dout->download(out).ok());
  for (int32_t r = 0; r < rows; ++r) {
    double mx = -INFINITY, sum = 0;
    for (int32_t c = 0; c < cols; ++c)
      mx = std::max<double>(mx, in[r * cols + c]);
    for (int32_t c = 0; c < cols; ++c)
      sum += std::exp(in[r * cols + c] - mx);
    for (int32_t c = 0; c < cols; ++c) {
      double ref = std::exp(in[r * cols + c] - mx) / sum;
      ASSERT_NEAR(out[r * cols + c], ref, 1e-6 + 1e-5 * ref) << "row " << r << " col " << c;
    }
  }
  for (size_t i = rows * cols; i < out.size(); ++i)
    ASSERT_TRUE(std::isnan(out[i])) << "element " << i << " past the rows was written";
}

TEST_F(PluginDevice, EventsTimeALaunch) {
  Kernel add = load("vector_add.mlir", "vector_add");
  ASSERT_NE(add.get(), nullptr);
  const int32_t n = 1 << 20;
  auto dx = dev->alloc(n * 4), dy = dev->alloc(n * 4), dout = dev->alloc(n * 4);
  ASSERT_TRUE(dx.ok() && dy.ok() && dout.ok());
  auto start = dev->createEvent(), end = dev->createEvent();
  ASSERT_TRUE(start.ok() && end.ok());
  auto unrecorded = start->elapsedMsUntil(*end);
  EXPECT_FALSE(unrecorded.ok()) << "an interval between events never recorded";
  ASSERT_TRUE(start->record().ok());
  ASSERT_TRUE(add.launch({n / 1024, 1, 1}, {dx->arg(), dy->arg(), dout->arg(), arg::i32(n)}).ok());
  ASSERT_TRUE(end->record().ok());
  auto ms = start->elapsedMsUntil(*end);
  ASSERT_TRUE(ms.ok()) << ms.status().message();
  EXPECT_GT(*ms, 0.0f);
}

// The runtime's checks before the plugin is called, for this device too.
TEST_F(PluginDevice, WrongArgumentsAreRefusedWithTheirPosition) {
  Kernel add = load("vector_add.mlir", "vector_add");
  ASSERT_NE(add.get(), nullptr);
  auto buf = dev->alloc(4096);
  ASSERT_TRUE(buf.ok());
  Status count = add.launch({1, 1, 1}, {buf->arg(), buf->arg(), buf->arg()});
  EXPECT_EQ(count.code(), HD_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(count.message(), "vector_add takes 4 arguments, got 3");
  Status kind = add.launch({1, 1, 1}, {buf->arg(), buf->arg(), arg::f32(1.f), arg::i32(1)});
  EXPECT_EQ(kind.message(), "argument 2 of vector_add is ptr, got f32");
  Status null = add.launch({1, 1, 1}, {arg::ptr(0), buf->arg(), buf->arg(), arg::i32(1)});
  EXPECT_EQ(null.message(), "argument 0 of vector_add is a NULL pointer");
}

TEST_F(PluginDevice, ZeroGridIsANoOp) {
  Kernel add = load("vector_add.mlir", "vector_add");
  ASSERT_NE(add.get(), nullptr);
  std::vector<float> c(1024, std::nanf(""));
  auto buf = dev->alloc(c.size() * sizeof(float));
  ASSERT_TRUE(buf.ok());
  ASSERT_TRUE(buf->upload(c).ok());
  for (std::array<uint32_t, 3> grid : {std::array<uint32_t, 3>{0, 1, 1}, {1, 0, 1}, {4, 4, 0}}) {
    Status s = add.launch(grid, {buf->arg(), buf->arg(), buf->arg(), arg::i32(1024)});
    EXPECT_TRUE(s.ok()) << s.message();
  }
  ASSERT_TRUE(dev->synchronize().ok());
  ASSERT_TRUE(buf->download(c).ok());
  for (float v : c)
    ASSERT_TRUE(std::isnan(v)) << "a grid with a zero dimension ran";
}

TEST_F(PluginDevice, CopiesAreBoundsChecked) {
  auto buf = dev->alloc(4096);
  ASSERT_TRUE(buf.ok());
  std::vector<char> big(8192, 1);
  Status in = buf->copyFromHost(big.data(), big.size());
  EXPECT_EQ(in.code(), HD_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(in.message(), "copy to device of 8192 bytes at offset 0 overruns buffer of 4096 "
                          "bytes on " + dev->name());
  Status out = buf->copyToHost(big.data(), 100, 4000);
  EXPECT_EQ(out.message(), "copy to host of 100 bytes at offset 4000 overruns buffer of 4096 "
                           "bytes on " + dev->name());
  EXPECT_TRUE(buf->copyToHost(big.data(), 96, 4000).ok());
  EXPECT_TRUE(buf->copyFromHost(nullptr, 0).ok()) << "an empty copy";
}

// Out of memory is an error that says how much was asked for and how much
// the device has, and the device still works after it.
TEST_F(PluginDevice, AnAllocationPastTheDeviceIsRefused) {
  const uint64_t huge = uint64_t(1) << 60;
  auto b = dev->alloc(huge);
  ASSERT_FALSE(b.ok()) << "2^60 bytes allocated";
  EXPECT_NE(b.status().code(), HD_OK);
  EXPECT_EQ(b.status().code(), HD_ERROR_OUT_OF_MEMORY) << b.status().message();
  EXPECT_NE(b.status().message().find(std::to_string(huge)), std::string::npos)
      << b.status().message();
  // The limit, where the device knows it.
  if (uint64_t global = dev->info().global_bytes) {
    EXPECT_NE(b.status().message().find("has " + std::to_string(global) + " bytes"),
              std::string::npos)
        << b.status().message();
  }
  auto small = dev->alloc(4096);
  EXPECT_TRUE(small.ok()) << small.status().message();
}

TEST_F(PluginDevice, IRThatDoesNotParseIsACompileError) {
  auto m = dev->loadIR("this is not hd IR");
  ASSERT_FALSE(m.ok());
  EXPECT_TRUE(m.status().code() == HD_ERROR_COMPILE || m.status().code() == HD_ERROR_UNSUPPORTED)
      << m.status().message();
}

} // namespace
