//===- HostRuntimeTest.cpp - The host runtime part, without a compiler ----===//
//
// host_kernels.c is built into a shared object by CMake; its bytes are
// loaded as a host binary, so these tests need only the host runtime part.
//
//===----------------------------------------------------------------------===//

#include "hadron/runtime/Runtime.hpp"

#include "VectorAddCheck.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <optional>
#include <fstream>
#include <iterator>
#include <thread>

using namespace hadron::runtime;
using hadron::runtime::tests::checkVectorAdd;

namespace {

constexpr uint32_t kBlock = 1024;

std::vector<char> readFile(const char *path) {
  std::ifstream in(path, std::ios::binary);
  return std::vector<char>(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

const hd_arg_kind kVectorAddArgs[] = {HD_ARG_PTR, HD_ARG_PTR, HD_ARG_PTR, HD_ARG_I32};
const hd_arg_kind kGridIdsArgs[] = {HD_ARG_PTR};
const hd_arg_kind kScalarArgs[] = {HD_ARG_PTR, HD_ARG_I1,  HD_ARG_I64,
                                   HD_ARG_F16, HD_ARG_BF16, HD_ARG_F64};

std::vector<hd_kernel_signature> signatures() {
  return {{"vector_add", 4, kVectorAddArgs, 4, 1, kBlock * sizeof(float), nullptr},
          {"grid_ids", 1, kGridIdsArgs, 1, 1, 0, nullptr},
          {"store_scalars", 6, kScalarArgs, 1, 1, 0, nullptr}};
}

class HostRuntimeTest : public ::testing::Test {
protected:
  void SetUp() override {
    ::unsetenv("HADRON_PLUGIN_PATH");
    auto created = Context::create();
    ASSERT_TRUE(created.ok()) << created.status().message();
    ctx.emplace(std::move(created).value());
    auto dev = ctx->select("host");
    ASSERT_TRUE(dev.ok()) << dev.status().message();
    device.emplace(*dev);
    binary = readFile(HADRON_TEST_HOST_KERNELS);
    ASSERT_GT(binary.size(), 64u) << HADRON_TEST_HOST_KERNELS;
    auto m = device->loadBinary(binary.data(), binary.size(), signatures());
    ASSERT_TRUE(m.ok()) << m.status().message();
    module.emplace(std::move(m).value());
  }

  Kernel kernel(const char *name) {
    auto k = module->kernel(name);
    EXPECT_TRUE(k.ok()) << k.status().message();
    return *k;
  }

  std::optional<Context> ctx;
  std::optional<Device> device;
  std::vector<char> binary;
  std::optional<Module> module;
};

TEST_F(HostRuntimeTest, DeviceInfo) {
  hd_device_info info = device->info();
  EXPECT_EQ(device->name(), "host:0");
  EXPECT_EQ(info.warp_size, 1u);
  EXPECT_EQ(info.max_threads_per_cta, 1024u);
  EXPECT_EQ(info.shared_bytes_per_cta, 1u << 20);
  EXPECT_GE(info.compute_units, 1u);
  EXPECT_GT(info.global_bytes, 0u);
  EXPECT_STREQ(info.arch, "native");
  EXPECT_EQ(std::string(info.name).rfind("host (", 0), 0u) << info.name;
}

TEST_F(HostRuntimeTest, VectorAddMatchesTheReference) {
  checkVectorAdd(*device, kernel("vector_add"), 37 * kBlock + 123, kBlock, 1);
  checkVectorAdd(*device, kernel("vector_add"), 1, kBlock, 2);
  checkVectorAdd(*device, kernel("vector_add"), kBlock, kBlock, 3);
}

TEST_F(HostRuntimeTest, ConcurrentLaunchesFromSeveralThreads) {
  Kernel add = kernel("vector_add");
  std::vector<std::thread> threads;
  for (uint32_t t = 0; t < 4; ++t)
    threads.emplace_back(
        [&, t] { checkVectorAdd(*device, add, 9 * kBlock + 5 * t, kBlock, 10 + t); });
  for (std::thread &t : threads)
    t.join();
}

TEST_F(HostRuntimeTest, EveryCtaSeesItsProgramIds) {
  const uint32_t grid[3] = {3, 4, 5};
  const uint32_t ctas = grid[0] * grid[1] * grid[2];
  auto out = device->alloc(ctas * 6 * sizeof(int32_t));
  ASSERT_TRUE(out.ok());
  std::vector<int32_t> ids(ctas * 6, -1);
  ASSERT_TRUE(out->upload(ids).ok());
  ASSERT_TRUE(kernel("grid_ids").launch({grid[0], grid[1], grid[2]}, {out->arg()}).ok());
  ASSERT_TRUE(out->download(ids).ok());
  for (uint32_t z = 0; z < grid[2]; ++z)
    for (uint32_t y = 0; y < grid[1]; ++y)
      for (uint32_t x = 0; x < grid[0]; ++x) {
        const int32_t *row = &ids[6 * (x + grid[0] * (y + grid[1] * z))];
        EXPECT_EQ(row[0], int32_t(x));
        EXPECT_EQ(row[1], int32_t(y));
        EXPECT_EQ(row[2], int32_t(z));
        EXPECT_EQ(row[3], 3);
        EXPECT_EQ(row[4], 4);
        EXPECT_EQ(row[5], 5);
      }
}

TEST_F(HostRuntimeTest, ScalarsArriveInTheirNaturalTypes) {
  struct Case {
    bool i1;
    int64_t i64;
    double f16, bf16, f64;
    uint16_t f16Bits, bf16Bits;
  } cases[] = {
      {true, -5000000000000, 1.5, 1.5, 3.25, 0x3e00, 0x3fc0},
      {false, 7, -2.0, -2.0, -0.5, 0xc000, 0xc000},
      {true, 0, 65520.0, 1.0 / 3.0, 1e300, 0x7c00, 0x3eab}, // overflow to inf; RNE
      {false, 1, 5.9604644775390625e-8, 0.0, 0.0, 0x0001, 0x0000}, // 2^-24: subnormal
      {false, 1, 65504.0, 0.0, 0.0, 0x7bff, 0x0000},
      // Rounded once from the double: each is just past a tie that, through
      // float, it would land on and round to even the other way.
      {false, 1, 1.0 + std::ldexp(1.0, -11) + std::ldexp(1.0, -40),
       1.0 + std::ldexp(1.0, -8) + std::ldexp(1.0, -40), 0.0, 0x3c01, 0x3f81},
      {false, 1, 65520.0 - std::ldexp(1.0, -30), std::ldexp(1.0, -134) + std::ldexp(1.0, -170),
       0.0, 0x7bff, 0x0001},
  };
  auto out = device->alloc(32);
  ASSERT_TRUE(out.ok());
  Kernel store = kernel("store_scalars");
  for (const Case &c : cases) {
    Status s = store.launch({1, 1, 1}, {out->arg(), arg::i1(c.i1), arg::i64(c.i64),
                                        arg::floating(HD_ARG_F16, c.f16),
                                        arg::floating(HD_ARG_BF16, c.bf16), arg::f64(c.f64)});
    ASSERT_TRUE(s.ok()) << s.message();
    unsigned char bytes[32];
    ASSERT_TRUE(out->copyToHost(bytes, sizeof(bytes)).ok());
    int8_t i1;
    int64_t i64;
    uint16_t f16, bf16;
    double f64;
    std::memcpy(&i1, bytes + 0, 1);
    std::memcpy(&i64, bytes + 8, 8);
    std::memcpy(&f16, bytes + 16, 2);
    std::memcpy(&bf16, bytes + 18, 2);
    std::memcpy(&f64, bytes + 24, 8);
    EXPECT_EQ(i1, c.i1 ? 1 : 0);
    EXPECT_EQ(i64, c.i64);
    EXPECT_EQ(f16, c.f16Bits) << c.f16;
    EXPECT_EQ(bf16, c.bf16Bits) << c.bf16;
    EXPECT_EQ(f64, c.f64);
  }
}

// The count, kind and NULL-pointer checks, zero grids and copy bounds are
// the plugin CTS's (plugins/cts, for every plugin); here the value ranges
// and the shared-memory limit.
TEST_F(HostRuntimeTest, WrongArgumentsAreRefusedWithTheirPosition) {
  Kernel add = kernel("vector_add");
  auto buf = device->alloc(4 * kBlock);
  ASSERT_TRUE(buf.ok());
  Status range = add.launch({1, 1, 1}, {buf->arg(), buf->arg(), buf->arg(), arg::integer(HD_ARG_I32, int64_t(1) << 40)});
  EXPECT_NE(range.message().find("argument 3 of vector_add is i32, value 1099511627776 does not fit"),
            std::string::npos)
      << range.message();

  Status shared = add.launch({1, 1, 1}, {buf->arg(), buf->arg(), buf->arg(), arg::i32(1)}, 1u << 20);
  EXPECT_NE(shared.message().find("needs 4096 static + 1048576 dynamic shared bytes, host:0 allows 1048576"),
            std::string::npos)
      << shared.message();
}

TEST_F(HostRuntimeTest, UnknownKernelListsTheAvailableOnes) {
  auto k = module->kernel("vector_sub");
  ASSERT_FALSE(k.ok());
  EXPECT_EQ(k.status().code(), HD_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(k.status().message(),
            "no kernel 'vector_sub' in module; it has: vector_add, grid_ids, store_scalars");
}

TEST_F(HostRuntimeTest, SignatureWithoutSymbolFailsAtLaunch) {
  hd_kernel_signature ghost = {"ghost", 0, nullptr, 1, 1, 0, nullptr};
  auto m = device->loadBinary(binary.data(), binary.size(), {ghost});
  ASSERT_TRUE(m.ok()) << m.status().message();
  auto k = m->kernel("ghost");
  ASSERT_TRUE(k.ok());
  Status s = k->launch({1, 1, 1}, {});
  EXPECT_EQ(s.code(), HD_ERROR_LAUNCH);
  EXPECT_NE(s.message().find("kernel 'ghost' is not exported by the host binary"), std::string::npos)
      << s.message();
}

TEST_F(HostRuntimeTest, BadBinariesAndSignaturesAreRefused) {
  const char notElf[100] = "this is not an ELF file";
  auto m = device->loadBinary(notElf, sizeof(notElf), signatures());
  ASSERT_FALSE(m.ok());
  EXPECT_NE(m.status().message().find("is not an ELF file"), std::string::npos)
      << m.status().message();

  std::vector<hd_kernel_signature> twice = {signatures()[0], signatures()[0]};
  auto dup = device->loadBinary(binary.data(), binary.size(), twice);
  ASSERT_FALSE(dup.ok());
  EXPECT_EQ(dup.status().message(), "kernel vector_add is listed twice");
}

TEST_F(HostRuntimeTest, ModulesLoadIndependently) {
  // Several live copies of one binary, loaded and unloaded in turn: each
  // must be its own module (a reused /proc/self/fd/N path must not alias).
  for (int round = 0; round < 3; ++round) {
    auto again = device->loadBinary(binary.data(), binary.size(), signatures());
    ASSERT_TRUE(again.ok()) << again.status().message();
    auto k = again->kernel("vector_add");
    ASSERT_TRUE(k.ok());
    checkVectorAdd(*device, *k, 2 * kBlock + round, kBlock, 20 + round);
  }
  checkVectorAdd(*device, kernel("vector_add"), 3 * kBlock, kBlock, 30);
}

TEST_F(HostRuntimeTest, EventsMeasureTime) {
  auto start = device->createEvent();
  auto end = device->createEvent();
  ASSERT_TRUE(start.ok() && end.ok());
  auto early = start->elapsedMsUntil(*end);
  EXPECT_FALSE(early.ok());
  EXPECT_NE(early.status().message().find("never recorded"), std::string::npos);
  ASSERT_TRUE(start->record().ok());
  checkVectorAdd(*device, kernel("vector_add"), 64 * kBlock, kBlock, 40);
  ASSERT_TRUE(end->record().ok());
  auto ms = start->elapsedMsUntil(*end);
  ASSERT_TRUE(ms.ok()) << ms.status().message();
  EXPECT_GT(*ms, 0.f);
}

TEST_F(HostRuntimeTest, MissingCompilerPartOrCompileErrorIsReported) {
  auto m = device->loadIR("this is not hd IR");
  ASSERT_FALSE(m.ok());
  // Without the compiler part: which file is missing. With it: the parse error.
  EXPECT_TRUE(m.status().code() == HD_ERROR_UNSUPPORTED || m.status().code() == HD_ERROR_COMPILE)
      << m.status().message();
  if (m.status().code() == HD_ERROR_UNSUPPORTED) {
    EXPECT_NE(m.status().message().find("libhadron-target-host-compiler.so"), std::string::npos)
        << m.status().message();
  }
}

// The example of docs/runtime.md, as written there.
TEST(RuntimeDocExample, VectorAdd) {
  ::unsetenv("HADRON_PLUGIN_PATH");
  std::vector<char> bytes = readFile(HADRON_TEST_HOST_KERNELS);
  const int32_t n = 5000;
  std::vector<float> a(n, 1.f), b(n, 2.f), c(n);

  // --- docs/runtime.md example begins
  auto ctx = Context::create();
  if (!ctx) { FAIL() << ctx.status().message(); }
  auto dev = ctx->select("host");
  if (!dev) { FAIL() << dev.status().message(); }

  const hd_arg_kind args[] = {HD_ARG_PTR, HD_ARG_PTR, HD_ARG_PTR, HD_ARG_I32};
  hd_kernel_signature sig = {"vector_add", 4, args, /*num_warps=*/4, /*warp_size=*/1,
                             /*static_shared_bytes=*/4096, /*descs=*/nullptr};
  auto module = dev->loadBinary(bytes.data(), bytes.size(), {sig});
  if (!module) { FAIL() << module.status().message(); }
  auto add = module->kernel("vector_add");

  auto da = dev->alloc(n * sizeof(float)), db = dev->alloc(n * sizeof(float)),
       dc = dev->alloc(n * sizeof(float));
  if (!da || !db || !dc) { FAIL() << "alloc failed"; }
  if (!da->upload(a) || !db->upload(b)) { FAIL() << "upload failed"; }
  Status s = add->launch({(n + 1023) / 1024, 1, 1},
                         {da->arg(), db->arg(), dc->arg(), arg::i32(n)});
  if (!s) { FAIL() << s.message(); }
  if (!dc->download(c)) { FAIL() << "download failed"; }
  // --- example ends
  for (float v : c)
    ASSERT_EQ(v, 3.f);
}

} // namespace
