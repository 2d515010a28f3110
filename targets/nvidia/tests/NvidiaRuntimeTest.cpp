//===- NvidiaRuntimeTest.cpp - The NVIDIA plugin through the runtime ------===//
//
// Without a GPU (here): the plugin loads, reports why it has no device in
// the words `hadron devices` shows, and its compiler part still compiles
// ahead of time. Each driver scenario runs in a fresh process (a
// "threadsafe" death test), because the plugin initialises once per process.
//
// With a GPU (NvidiaGpu.*, skipped without one): kernels compiled from IR
// run through the runtime on fresh random inputs into NaN-poisoned outputs
// with slack past the end, against a host reference. The examples every
// plugin runs (vector add, events, ...) are the plugin CTS's (plugins/cts,
// hadron-cts-nvidia).
//
//===----------------------------------------------------------------------===//

#include "KernelParams.h"
#include "MmaDotKernel.h"
#include "TensorMap.h"

#include "hadron/runtime/Runtime.hpp"
#include "testkit/Attention.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>
#include <random>
#include <sstream>
#include <vector>

#include <unistd.h>

#include <dlfcn.h>

using namespace hadron::runtime;

namespace {

/// The source tree the kernels are read from: $HADRON_SOURCE_DIR when set
/// (a copy of the tree on another machine), else the one built from.
std::string sourceDir() {
  const char *dir = std::getenv("HADRON_SOURCE_DIR");
  return dir && *dir ? dir : HADRON_SOURCE_DIR;
}
std::string example(const char *name) { return sourceDir() + "/examples/" + name; }
std::string input(const char *name) {
  return sourceDir() + "/targets/nvidia/tests/Inputs/" + name;
}

std::string readFile(const std::string &path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

/// The nvidia plugin's load-report entry, or an empty record.
LoadRecord nvidiaRecord(const Context &ctx) {
  for (const LoadRecord &r : ctx.loadReport())
    if (r.plugin == "nvidia")
      return r;
  return LoadRecord{"", "", HD_OK, ""};
}

/// In a child process: points the plugin at `driver`, creates a context and
/// checks that the plugin is listed with `code` and a reason starting with
/// `reasonPrefix`, and that selecting nvidia explains it. Exits 0 on
/// success, else prints what differed and exits 1.
[[noreturn]] void expectDriverFailure(const char *driver, hd_status code,
                                      const std::string &reasonPrefix) {
  if (driver)
    ::setenv("HADRON_NVIDIA_DRIVER", driver, 1);
  auto ctx = Context::create();
  if (!ctx.ok()) {
    std::fprintf(stderr, "context: %s\n", ctx.status().message().c_str());
    std::exit(1);
  }
  bool listed = false;
  for (const hd_plugin_info &p : ctx->plugins())
    listed |= std::string(p.name) == "nvidia" && p.init_status == code;
  LoadRecord r = nvidiaRecord(*ctx);
  auto dev = ctx->select("nvidia");
  std::string why = dev.ok() ? "" : dev.status().message();
  bool ok = listed && r.code == code && r.reason.rfind(reasonPrefix, 0) == 0 && !dev.ok() &&
            why.find("nvidia: " + reasonPrefix) != std::string::npos;
  std::fprintf(stderr, "listed %d, code %d, reason '%s'\nselect: %s\n", listed, r.code,
               r.reason.c_str(), why.c_str());
  std::exit(ok ? 0 : 1);
}

bool systemHasLibcuda() {
  void *h = ::dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (h)
    ::dlclose(h);
  return h != nullptr;
}

// Each value is just past a tie that, through float, it would land on and
// round to even the other way.
TEST(NvidiaParams, HalfAndBf16AreRoundedOnceFromTheDouble) {
  auto bytes = [](hd_arg_kind kind, double value) {
    hd_arg a{};
    a.kind = kind;
    a.value.f = value;
    hadron::nvidia::ParamSlot slot = hadron::nvidia::paramSlot(a);
    std::vector<unsigned char> out(sizeof(slot));
    std::memcpy(out.data(), &slot, sizeof(slot));
    return out;
  };
  using B = std::vector<unsigned char>;
  EXPECT_EQ(bytes(HD_ARG_F16, 1.0 + std::ldexp(1.0, -11) + std::ldexp(1.0, -40)),
            (B{0x01, 0x3c, 0, 0, 0, 0, 0, 0}));
  EXPECT_EQ(bytes(HD_ARG_F16, 65520.0 - std::ldexp(1.0, -30)), (B{0xff, 0x7b, 0, 0, 0, 0, 0, 0}));
  EXPECT_EQ(bytes(HD_ARG_BF16, 1.0 + std::ldexp(1.0, -8) + std::ldexp(1.0, -40)),
            (B{0x81, 0x3f, 0, 0, 0, 0, 0, 0}));
  EXPECT_EQ(bytes(HD_ARG_BF16, std::ldexp(1.0, -134) + std::ldexp(1.0, -170)),
            (B{0x01, 0x00, 0, 0, 0, 0, 0, 0}));
}

/// A 256x128 bf16 tensor read in 64x64 blocks with a 128-byte swizzle.
struct TensorMapCase {
  hd_tensor_desc desc{0x10000, 2, 0, {256, 128}, {128, 1}};
  hd_tensor_desc_spec spec{2, 2, 128, 1, {64, 64}};

  /// tensorMapArgs' refusal, or "" when it accepts.
  std::string why() const {
    hadron::nvidia::TensorMapArgs a;
    std::string why;
    return hadron::nvidia::tensorMapArgs(desc, spec, a, why) ? "" : why;
  }
};

TEST(NvidiaTensorMap, EncodeArgumentsAreInnermostFirstWithTheSwizzleSpanAsBox) {
  TensorMapCase c;
  hadron::nvidia::TensorMapArgs a;
  std::string why;
  ASSERT_TRUE(hadron::nvidia::tensorMapArgs(c.desc, c.spec, a, why)) << why;
  EXPECT_EQ(a.dataType, 1); // 16-bit
  EXPECT_EQ(a.rank, 2u);
  EXPECT_EQ(a.globalAddress, 0x10000u);
  EXPECT_EQ(a.globalDim[0], 128u);
  EXPECT_EQ(a.globalDim[1], 256u);
  EXPECT_EQ(a.globalStrides[0], 256u); // bytes of a row
  EXPECT_EQ(a.boxDim[0], 64u);         // 128 swizzled bytes of bf16
  EXPECT_EQ(a.boxDim[1], 64u);
  EXPECT_EQ(a.swizzle, 3); // 128B

  c.spec.block[1] = 128; // 256 bytes: cut to the 128-byte span
  ASSERT_TRUE(hadron::nvidia::tensorMapArgs(c.desc, c.spec, a, why)) << why;
  EXPECT_EQ(a.boxDim[0], 64u);
}

TEST(NvidiaTensorMap, EachCopyEngineLimitIsNamed) {
  auto refused = [](void (*change)(TensorMapCase &)) {
    TensorMapCase c;
    change(c);
    return c.why();
  };
  EXPECT_EQ(refused([](TensorMapCase &c) { c.spec.elem_bytes = 3; }),
            "elements of 3 bytes; the copy engine moves 1, 2, 4 or 8");
  EXPECT_EQ(refused([](TensorMapCase &c) { c.spec.swizzle_bytes = 48; }),
            "a 48-byte swizzle; the copy engine has 32, 64 and 128");
  EXPECT_EQ(refused([](TensorMapCase &c) { c.desc.rank = 3; }), "rank 3 for blocks of rank 2");
  EXPECT_EQ(refused([](TensorMapCase &c) { c.desc.base += 8; }),
            "base address 65544 is not 16-byte aligned");
  EXPECT_EQ(refused([](TensorMapCase &c) { c.desc.shape[0] = 0; }),
            "dim 0 has 0 elements; the copy engine takes 1 to 2^32");
  EXPECT_EQ(refused([](TensorMapCase &c) { c.desc.strides[0] = 100; }),
            "dim 0 has a stride of 200 bytes; the copy engine needs a multiple of 16 below 2^40");
  EXPECT_EQ(refused([](TensorMapCase &c) { c.spec.block[0] = 512; }),
            "a box of 512 elements along dim 0; the copy engine takes 1 to 256");
  EXPECT_EQ(refused([](TensorMapCase &c) {
              c.spec.swizzle_bytes = 0;
              c.spec.block[1] = 4;
            }),
            "an innermost box of 8 bytes; the copy engine moves multiples of 16");
}

TEST(NvidiaRuntime, MissingDriverLibraryIsReported) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(expectDriverFailure("libhadron-absent-cuda.so.1", HD_ERROR_DRIVER_MISSING,
                                  "libhadron-absent-cuda.so.1 not found"),
              ::testing::ExitedWithCode(0), "reason 'libhadron-absent-cuda.so.1 not found \\(");
}

/// In a child process: the plugin's runtime table itself, with the driver
/// library absent: init and every call on a device report why there is
/// none, calls without a device check their arguments, and nothing crashes.
[[noreturn]] void expectEveryCallReportsTheMissingDriver() {
  ::setenv("HADRON_NVIDIA_DRIVER", "libhadron-absent-cuda.so.1", 1);
  // The build's plugin, or the one HADRON_PLUGIN_PATH names (a tree
  // staged on another machine).
  std::string path = HADRON_NVIDIA_RUNTIME_PATH;
  if (const char *dirs = std::getenv("HADRON_PLUGIN_PATH")) {
    std::string first(dirs, std::strcspn(dirs, ":"));
    std::string staged = first + "/" + path.substr(path.rfind('/') + 1);
    if (::access(staged.c_str(), R_OK) == 0)
      path = staged;
  }
  void *plugin = ::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  auto entry =
      plugin ? reinterpret_cast<hd_plugin_entry_fn>(::dlsym(plugin, HADRON_PLUGIN_ENTRY_SYMBOL))
             : nullptr;
  if (!entry) {
    std::fprintf(stderr, "dlopen: %s\n", ::dlerror());
    std::exit(1);
  }
  const hd_runtime_table &t = *entry()->runtime;
  bool ok = true;
  auto expect = [&ok](const char *call, hd_status got, hd_status want, const hd_error &err,
                      const std::string &prefix) {
    bool same = got == want && (want == HD_OK || std::string(err.message).rfind(prefix, 0) == 0);
    std::fprintf(stderr, "%s: %d '%s'%s\n", call, got, got ? err.message : "",
                 same ? "" : " (unexpected)");
    ok &= same;
  };
  const std::string missing = "libhadron-absent-cuda.so.1 not found (";
  hd_error err{};
  expect("init", t.init(&err), HD_ERROR_DRIVER_MISSING, err, missing);
  ok &= t.device_count() == 0;
  hd_device_info info{};
  info.struct_size = sizeof(info);
  expect("device_info", t.device_info(0, &info, &err), HD_ERROR_DRIVER_MISSING, err,
         "device_info: " + missing);
  hd_device_ptr ptr = 0;
  expect("mem_alloc", t.mem_alloc(0, 16, &ptr, &err), HD_ERROR_DRIVER_MISSING, err,
         "mem_alloc: " + missing);
  hd_plugin_module *module = nullptr;
  expect("module_load", t.module_load(0, "x", 1, &module, &err), HD_ERROR_DRIVER_MISSING, err,
         "module_load: " + missing);
  expect("synchronize", t.synchronize(0, &err), HD_ERROR_DRIVER_MISSING, err,
         "synchronize: " + missing);
  const uint32_t grid[3] = {1, 1, 1};
  expect("launch", t.launch(nullptr, nullptr, grid, nullptr, 0, &err), HD_ERROR_INVALID_ARGUMENT,
         err, "launch: NULL module");
  expect("module_unload", t.module_unload(nullptr, &err), HD_OK, err, "");
  expect("event_destroy", t.event_destroy(nullptr, &err), HD_OK, err, "");
  std::exit(ok ? 0 : 1);
}

TEST(NvidiaRuntime, EveryCallReportsTheMissingDriver) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(expectEveryCallReportsTheMissingDriver(), ::testing::ExitedWithCode(0),
              "mem_alloc: 3 'mem_alloc: libhadron-absent-cuda.so.1 not found \\(");
}

TEST(NvidiaRuntime, ALibraryWithoutTheDriverApiIsReported) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(
      expectDriverFailure("libm.so.6", HD_ERROR_DRIVER_MISSING, "libm.so.6 has no symbol cuInit"),
      ::testing::ExitedWithCode(0), "reason 'libm.so.6 has no symbol cuInit \\(driver");
}

TEST(NvidiaRuntime, NoLibcudaHereIsReportedInTheseWords) {
  if (systemHasLibcuda())
    GTEST_SKIP() << "libcuda.so.1 is installed: the driver-missing report cannot be seen here";
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(expectDriverFailure(nullptr, HD_ERROR_DRIVER_MISSING, "libcuda.so.1 not found"),
              ::testing::ExitedWithCode(0), "select: no device matches selector 'nvidia'");
}

TEST(NvidiaRuntime, CudaStubLibraryReportsNoDevice) {
  // CUDA's link stub exports every entry point and fails each call, as a
  // driver without a device does.
  if (!std::filesystem::exists(HADRON_CUDA_STUB))
    GTEST_SKIP() << "no CUDA stub library at " << HADRON_CUDA_STUB;
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(expectDriverFailure(HADRON_CUDA_STUB, HD_ERROR_NO_DEVICE, "no device (cuInit: "),
              ::testing::ExitedWithCode(0), "reason 'no device \\(cuInit: ");
}

TEST(NvidiaRuntime, CompilesAheadOfTimeWithoutADevice) {
  auto ctx = Context::create();
  ASSERT_TRUE(ctx.ok()) << ctx.status().message();
  const std::string ir = readFile(example("vector_add.mlir"));
  hd_compile_options options{sizeof(hd_compile_options), "sm_90a", 3, nullptr};
  hd_compiled *compiled = nullptr;
  hd_error err;
  ASSERT_EQ(hd_context_compile(ctx->get(), "nvidia", ir.data(), ir.size(), &options, &compiled,
                               &err),
            HD_OK)
      << err.message;
  const hd_compiled_module *result = hd_compiled_get(compiled);
  ASSERT_EQ(result->num_kernels, 1u);
  EXPECT_STREQ(result->kernels[0].name, "vector_add");
  EXPECT_EQ(result->kernels[0].num_warps, 4u);
  EXPECT_EQ(result->kernels[0].warp_size, 32u);
  EXPECT_NE(std::string(result->assembly).find(".entry vector_add"), std::string::npos);
  hd_compiled_destroy(compiled);
}

//===----------------------------------------------------------------------===//
// On a GPU
//===----------------------------------------------------------------------===//

class NvidiaGpu : public ::testing::Test {
public:
  std::optional<Device> &device() { return dev; }
  std::mt19937 &random() { return rng; }
  std::optional<Module> loadExample(const std::string &file) { return load(example(file.c_str())); }

protected:
  void SetUp() override {
    auto c = Context::create();
    ASSERT_TRUE(c.ok()) << c.status().message();
    ctx.emplace(std::move(*c));
    auto d = ctx->select("nvidia");
    if (!d.ok())
      GTEST_SKIP() << "no NVIDIA device: " << d.status().message();
    dev.emplace(*d);
    hd_device_info info = dev->info();
    std::printf("[ device   ] %s (%s), %u SMs, %llu shared bytes/CTA\n", info.name, info.arch,
                info.compute_units, static_cast<unsigned long long>(info.shared_bytes_per_cta));
  }

  std::optional<Module> load(const std::string &path) {
    std::string ir = readFile(path);
    EXPECT_FALSE(ir.empty()) << "cannot read " << path
                             << " (set HADRON_SOURCE_DIR to the source tree)";
    auto m = dev->loadIR(ir);
    EXPECT_TRUE(m.ok()) << path << ": " << m.status().message();
    if (!m.ok())
      return std::nullopt;
    return std::move(*m);
  }

  std::optional<Context> ctx;
  std::optional<Device> dev;
  std::mt19937 rng{std::random_device{}()};
};

TEST_F(NvidiaGpu, DeviceInfoIsRefinedByTheDriver) {
  hd_device_info info = dev->info();
  EXPECT_EQ(info.warp_size, 32u);
  EXPECT_EQ(info.max_threads_per_cta, 1024u);
  EXPECT_GT(info.compute_units, 0u);
  EXPECT_GT(info.global_bytes, 0u);
  EXPECT_GT(info.l2_bytes, 0u);
  EXPECT_GE(info.shared_bytes_per_cta, 48u * 1024);
  EXPECT_EQ(std::string(info.arch).rfind("sm_", 0), 0u) << info.arch;
}

TEST_F(NvidiaGpu, LaunchWithMoreThan48KiBOfSharedMemory) {
  // The kernel ignores it, but the launch must raise the function's limit.
  auto module = load(example("vector_add.mlir"));
  ASSERT_TRUE(module);
  auto add = module->kernel("vector_add");
  ASSERT_TRUE(add.ok());
  hd_device_info info = dev->info();
  if (info.shared_bytes_per_cta <= 48 * 1024)
    GTEST_SKIP() << info.arch << " allows no more than 48 KiB per CTA";
  const int32_t n = 4096;
  std::vector<float> x(n, 1.5f), y(n, 2.25f), out(n, std::nanf(""));
  auto dx = dev->alloc(n * 4), dy = dev->alloc(n * 4), dout = dev->alloc(n * 4);
  ASSERT_TRUE(dx->upload(x).ok() && dy->upload(y).ok() && dout->upload(out).ok());
  Status s = add->launch({4, 1, 1}, {dx->arg(), dy->arg(), dout->arg(), arg::i32(n)},
                         info.shared_bytes_per_cta);
  ASSERT_TRUE(s.ok()) << s.message();
  ASSERT_TRUE(dout->download(out).ok());
  for (int32_t i = 0; i < n; ++i)
    ASSERT_EQ(out[i], 3.75f) << i;
  Status tooMuch = add->launch({4, 1, 1}, {dx->arg(), dy->arg(), dout->arg(), arg::i32(n)},
                               info.shared_bytes_per_cta + 1);
  EXPECT_FALSE(tooMuch.ok());
}

TEST_F(NvidiaGpu, RowSumReducesAcrossLanes) {
  auto module = load(input("row_sum.mlir"));
  ASSERT_TRUE(module);
  auto sum = module->kernel("row_sum");
  ASSERT_TRUE(sum.ok()) << sum.status().message();
  const int32_t rows = 4 * 300, cols = 128, slack = 5;
  std::uniform_real_distribution<float> dist(-1.f, 1.f);
  std::vector<float> in(rows * cols), out(rows + slack, std::nanf(""));
  for (float &v : in)
    v = dist(rng);
  auto din = dev->alloc(in.size() * 4), dout = dev->alloc(out.size() * 4);
  ASSERT_TRUE(din->upload(in).ok() && dout->upload(out).ok());
  ASSERT_TRUE(sum->launch({rows / 4, 1, 1}, {din->arg(), dout->arg()}).ok());
  ASSERT_TRUE(dout->download(out).ok());
  for (int32_t r = 0; r < rows; ++r) {
    double ref = 0;
    for (int32_t c = 0; c < cols; ++c)
      ref += in[r * cols + c];
    ASSERT_NEAR(out[r], ref, 1e-4) << "row " << r;
  }
  for (int32_t r = rows; r < rows + slack; ++r)
    ASSERT_TRUE(std::isnan(out[r])) << r;
}

float halfToFloat(uint16_t h) {
  int sign = h >> 15, exp = (h >> 10) & 31, man = h & 1023;
  float v = exp == 0 ? std::ldexp(float(man), -24) : std::ldexp(float(man | 1024), exp - 25);
  return sign ? -v : v;
}

TEST_F(NvidiaGpu, WideAndNarrowShufflesReduceExactly) {
  auto module = load(input("row_sum_wide.mlir"));
  ASSERT_TRUE(module);
  auto kernel = module->kernel("row_sum_wide");
  ASSERT_TRUE(kernel.ok()) << kernel.status().message();
  const int32_t rows = 4 * 64, cols = 128;
  // Integers of magnitude <= 2048 are exact in f16, so the maximum is too.
  std::uniform_int_distribution<int32_t> dist(-2048, 2048);
  std::vector<int32_t> in(rows * cols);
  for (int32_t &v : in)
    v = dist(rng);
  std::vector<int64_t> sums(rows, INT64_MIN);
  std::vector<uint16_t> maxs(rows, 0x7e00); // NaN
  auto din = dev->alloc(in.size() * 4), dsums = dev->alloc(rows * 8), dmaxs = dev->alloc(rows * 2);
  ASSERT_TRUE(din->upload(in).ok() && dsums->upload(sums).ok() && dmaxs->upload(maxs).ok());
  ASSERT_TRUE(kernel->launch({rows / 4, 1, 1}, {din->arg(), dsums->arg(), dmaxs->arg()}).ok());
  ASSERT_TRUE(dsums->download(sums).ok() && dmaxs->download(maxs).ok());
  for (int32_t r = 0; r < rows; ++r) {
    int64_t sum = 0;
    int32_t max = INT32_MIN;
    for (int32_t c = 0; c < cols; ++c)
      sum += in[r * cols + c], max = std::max(max, in[r * cols + c]);
    ASSERT_EQ(sums[r], sum) << "row " << r;
    ASSERT_EQ(halfToFloat(maxs[r]), float(max)) << "row " << r;
  }
}

TEST_F(NvidiaGpu, MathThroughLibdeviceMatchesTheHost) {
  auto module = load(input("math.mlir"));
  ASSERT_TRUE(module);
  auto math = module->kernel("math");
  ASSERT_TRUE(math.ok()) << math.status().message();
  const int32_t n = 3 * 512 + 100, slack = 11;
  std::uniform_real_distribution<float> dist(-4.f, 4.f);
  std::vector<float> x(n), out(n + slack, std::nanf(""));
  for (float &v : x)
    v = dist(rng);
  auto dx = dev->alloc(n * 4), dout = dev->alloc(out.size() * 4);
  ASSERT_TRUE(dx->upload(x).ok() && dout->upload(out).ok());
  ASSERT_TRUE(math->launch({(n + 511) / 512, 1, 1}, {dx->arg(), dout->arg(), arg::i32(n)}).ok());
  ASSERT_TRUE(dout->download(out).ok());
  for (int32_t i = 0; i < n; ++i) {
    double v = x[i];
    double ref = std::exp(v) + std::log(std::fabs(v) + 1) + std::sqrt(std::fabs(v)) +
                 std::tanh(v) + std::sin(v);
    ASSERT_NEAR(out[i], ref, 1e-5 * std::max(1.0, std::fabs(ref))) << "x = " << v;
  }
  for (int32_t i = n; i < n + slack; ++i)
    ASSERT_TRUE(std::isnan(out[i])) << i;
}

TEST_F(NvidiaGpu, OutOfMemorySaysHowMuchIsFree) {
  auto huge = dev->alloc(uint64_t{1} << 52);
  ASSERT_FALSE(huge.ok());
  EXPECT_EQ(huge.status().code(), HD_ERROR_OUT_OF_MEMORY);
  EXPECT_NE(huge.status().message().find("bytes free"), std::string::npos)
      << huge.status().message();
}

TEST_F(NvidiaGpu, BadPtxShowsTheJitLog) {
  const std::string ptx = ".version 8.0\n.target sm_80\n.address_size 64\n"
                          ".visible .entry k() { bogus.instruction; }\n";
  hd_kernel_signature sig{"k", 0, nullptr, 1, 32, 0, nullptr};
  auto m = dev->loadBinary(ptx.data(), ptx.size(), {sig});
  ASSERT_FALSE(m.ok());
  EXPECT_NE(m.status().message().find("cuModuleLoadDataEx"), std::string::npos)
      << m.status().message();
}

/// Bits of a float that bf16 / f16 hold exactly (small integers, or values
/// already rounded to the format).
uint16_t bf16Bits(float v) {
  uint32_t u;
  std::memcpy(&u, &v, 4);
  return static_cast<uint16_t>(u >> 16);
}
uint16_t f16BitsExact(float v) {
  uint32_t u;
  std::memcpy(&u, &v, 4);
  uint32_t sign = (u >> 16) & 0x8000u, exp = (u >> 23) & 0xff, man = u & 0x7fffffu;
  if (exp == 0)
    return static_cast<uint16_t>(sign);
  return static_cast<uint16_t>(sign | ((exp - 127 + 15) << 10) | (man >> 13));
}
float bf16Round(float v) {
  uint32_t u;
  std::memcpy(&u, &v, 4);
  u = (u + 0x7fffu + ((u >> 16) & 1)) & 0xffff0000u;
  std::memcpy(&v, &u, 4);
  return v;
}

class NvidiaMma : public NvidiaGpu, public ::testing::WithParamInterface<std::string> {};

/// Runs `kernel(a, b, c, d)` (D = A * B + C, row-major) of `ir` in one CTA on
/// small integers and compares D with the host's exact result.
void expectDotMatchesTheHost(Device &dev, std::mt19937 &rng, const std::string &ir,
                             const char *kernelName, const hadron::nvidia::testing::MmaDotShape &s,
                             const std::string &what) {
  auto m = dev.loadIR(ir);
  ASSERT_TRUE(m.ok()) << m.status().message();
  auto kernel = m->kernel(kernelName);
  ASSERT_TRUE(kernel.ok()) << kernel.status().message();
  // Small integers: every product and sum is exact in each type, so the
  // result must equal the host's whatever order the unit adds in.
  const bool ints = s.elem == "i8";
  std::uniform_int_distribution<int> small(ints ? -128 : -8, ints ? 127 : 8);
  std::vector<int> a(s.m * s.k), b(s.k * s.n), c(s.m * s.n);
  for (int &v : a)
    v = small(rng);
  for (int &v : b)
    v = small(rng);
  for (int &v : c)
    v = small(rng) * 16;
  auto upload = [&](const std::vector<int> &values, const std::string &elem) {
    size_t width = elem == "i8" ? 1 : elem == "f32" || elem == "i32" ? 4 : 2;
    std::vector<uint8_t> bytes(values.size() * width);
    for (size_t i = 0; i < values.size(); ++i) {
      float f = static_cast<float>(values[i]);
      int32_t i32 = values[i];
      uint16_t h = elem == "bf16" ? bf16Bits(f) : f16BitsExact(f);
      const void *src = elem == "f32" ? static_cast<const void *>(&f)
                        : elem == "i32" || elem == "i8" ? static_cast<const void *>(&i32)
                                                        : static_cast<const void *>(&h);
      std::memcpy(&bytes[i * width], src, width);
    }
    auto buffer = dev.alloc(bytes.size());
    EXPECT_TRUE(buffer.ok() && buffer->upload(bytes).ok());
    return std::move(*buffer);
  };
  auto da = upload(a, s.elem), db = upload(b, s.elem), dc = upload(c, s.acc);
  std::vector<uint32_t> out(s.m * s.n, 0x7fc00001u); // a NaN (f32), not a likely i32
  auto dd = dev.alloc(out.size() * 4);
  ASSERT_TRUE(dd.ok() && dd->upload(out).ok());
  ASSERT_TRUE(kernel->launch({1, 1, 1}, {da.arg(), db.arg(), dc.arg(), dd->arg()}).ok());
  ASSERT_TRUE(dd->download(out).ok());
  for (int i = 0; i < s.m; ++i)
    for (int j = 0; j < s.n; ++j) {
      int64_t ref = c[i * s.n + j];
      for (int t = 0; t < s.k; ++t)
        ref += int64_t(a[i * s.k + t]) * b[t * s.n + j];
      uint32_t bits = out[i * s.n + j];
      double got;
      if (s.acc == "i32") {
        got = static_cast<int32_t>(bits);
      } else {
        float f;
        std::memcpy(&f, &bits, 4);
        got = f;
      }
      ASSERT_EQ(got, double(ref)) << what << " D[" << i << "][" << j << "]";
    }
}

TEST_P(NvidiaMma, DotOnTheMatrixUnitMatchesTheHost) {
  namespace nv = hadron::nvidia;
  const nv::MatrixInstr *instr = nv::findMatrixInstr(GetParam());
  ASSERT_NE(instr, nullptr);
  hd_device_info info = dev->info();
  if (std::atoi(info.arch + 3) < static_cast<int>(instr->minComputeCapability)) // "sm_90a"
    GTEST_SKIP() << info.arch << " has no " << instr->name;
  hadron::Result<std::string> ir = nv::testing::mmaDotKernel(*instr);
  ASSERT_TRUE(ir.ok()) << ir.error();
  expectDotMatchesTheHost(*dev, rng, *ir, "mma_dot", nv::testing::mmaDotShape(*instr),
                          instr->name);
}

INSTANTIATE_TEST_SUITE_P(NvidiaGpu, NvidiaMma,
                         ::testing::ValuesIn(hadron::nvidia::testing::mmaSyncInstructions()),
                         [](const auto &info) { return hadron::nvidia::testing::testName(info.param); });

class NvidiaWgmma : public NvidiaGpu,
                    public ::testing::WithParamInterface<hadron::nvidia::testing::WgmmaCase> {};

TEST_P(NvidiaWgmma, DotFromSharedMemoryMatchesTheHost) {
  namespace nv = hadron::nvidia;
  hd_device_info info = dev->info();
  if (std::string(info.arch) != "sm_90a")
    GTEST_SKIP() << info.arch << " has no wgmma (sm_90a's alone)";
  hadron::Result<std::string> ir = nv::testing::wgmmaDotKernel(GetParam());
  ASSERT_TRUE(ir.ok()) << ir.error();
  expectDotMatchesTheHost(*dev, rng, *ir, "wgmma_dot", nv::testing::wgmmaDotShape(GetParam()),
                          nv::testing::wgmmaCaseName(GetParam()));
}

INSTANTIATE_TEST_SUITE_P(NvidiaGpu, NvidiaWgmma,
                         ::testing::ValuesIn(hadron::nvidia::testing::wgmmaCases()),
                         [](const auto &info) {
                           return hadron::nvidia::testing::wgmmaCaseName(info.param);
                         });

/// The example GEMM `name` of `file` on tiles of tileM x tileN against the
/// host, on shapes given as {m, n, k}.
/// How a GEMM kernel takes its matrices: all as pointers, A and B as
/// tensor descriptors, or C too.
enum class Operands { Pointers, DescriptorsAB, DescriptorsABC };

/// `tail` >= 0: the kernel splits its last `tail` tiles in `splits` parts
/// along K (matmul_tma_ws_tail): it gets a workspace and counters, a 1-D
/// grid, and runs twice (the counters must come back to zero).
void expectGemmMatchesTheHost(NvidiaGpu &t, const char *file, const char *name, int tileM,
                              int tileN, std::initializer_list<std::array<int, 3>> shapes,
                              Operands operands = Operands::Pointers, uint32_t programs = 0,
                              int tail = -1, int splits = 1, bool dynamicTiles = false);

TEST_F(NvidiaGpu, BF16GemmOnTensorCoresMatchesTheHost) {
  expectGemmMatchesTheHost(*this, "nvidia/matmul_mma_bf16.mlir", "matmul_mma", 128, 128,
                           {{128, 128, 32}, {256, 384, 96}, {512, 256, 1024}});
}

TEST_F(NvidiaGpu, BF16GemmOnWarpgroupMatrixUnitMatchesTheHost) {
  if (std::string(dev->info().arch) != "sm_90a")
    GTEST_SKIP() << dev->info().arch << " has no wgmma (sm_90a's alone)";
  expectGemmMatchesTheHost(*this, "nvidia/matmul_wgmma_bf16.mlir", "matmul_wgmma", 128, 256,
                           {{128, 256, 64}, {256, 512, 192}, {384, 256, 1024}});
}

// A and B through tensor descriptors (CUtensorMaps encoded at launch), the
// ring filled by the copy engine and guarded by mbarriers; K of 1, 3 (fewer
// steps than stages) and 16 blocks, so every phase parity and the
// predicated refills past the end are taken.
TEST_F(NvidiaGpu, TmaGemmMatchesTheHost) {
  if (std::string(dev->info().arch) != "sm_90a")
    GTEST_SKIP() << dev->info().arch << " has no wgmma (sm_90a's alone)";
  expectGemmMatchesTheHost(*this, "nvidia/matmul_tma_wgmma_bf16.mlir", "matmul_tma_wgmma", 128,
                           256, {{128, 256, 64}, {256, 512, 192}, {384, 256, 1024}},
                           Operands::DescriptorsAB);
}

// The persistent form: 3 programs walk 1, 4 and 3 tiles each (the ring runs
// ahead across tiles, so a tile's first steps land during the previous
// tile's epilogue), and 5 programs more than the 4 tiles of the middle shape
// leave one program without a tile.
TEST_F(NvidiaGpu, PersistentTmaGemmMatchesTheHost) {
  if (std::string(dev->info().arch) != "sm_90a")
    GTEST_SKIP() << dev->info().arch << " has no wgmma (sm_90a's alone)";
  expectGemmMatchesTheHost(*this, "nvidia/matmul_tma_persistent_bf16.mlir",
                           "matmul_tma_persistent", 128, 256,
                           {{128, 256, 64}, {256, 512, 192}, {384, 512, 1024}},
                           Operands::DescriptorsAB, /*programs=*/3);
  expectGemmMatchesTheHost(*this, "nvidia/matmul_tma_persistent_bf16.mlir",
                           "matmul_tma_persistent", 128, 256, {{256, 512, 192}},
                           Operands::DescriptorsAB, /*programs=*/5);
}

// The warp-specialised form: a producer warp (hd.warp_specialize) fills the
// ring, the consumer warps release stages through per-warp arrivals; K of
// 1, 3 and 16 steps go round the 4-stage ring zero, one and four times.
TEST_F(NvidiaGpu, WarpSpecializedTmaGemmMatchesTheHost) {
  if (std::string(dev->info().arch) != "sm_90a")
    GTEST_SKIP() << dev->info().arch << " has no wgmma (sm_90a's alone)";
  expectGemmMatchesTheHost(*this, "nvidia/matmul_tma_ws_bf16.mlir", "matmul_tma_ws", 128, 256,
                           {{128, 256, 64}, {256, 512, 192}, {384, 512, 1024}},
                           Operands::DescriptorsAB);
}

// Warp-specialised and persistent, C stored through the copy engine: the
// producer's steps run across tiles while the consumers store the previous
// one in four chunks through two staging buffers; 3 and 5 programs over 1
// to 12 tiles (one program left without a tile), so the buffers are reused
// within a tile and across tiles.
TEST_F(NvidiaGpu, PersistentWarpSpecializedTmaGemmMatchesTheHost) {
  if (std::string(dev->info().arch) != "sm_90a")
    GTEST_SKIP() << dev->info().arch << " has no wgmma (sm_90a's alone)";
  expectGemmMatchesTheHost(*this, "nvidia/matmul_tma_ws_persistent_bf16.mlir",
                           "matmul_tma_ws_persistent", 128, 256,
                           {{128, 256, 64}, {256, 512, 192}, {384, 512, 1024}},
                           Operands::DescriptorsABC, /*programs=*/3);
  expectGemmMatchesTheHost(*this, "nvidia/matmul_tma_ws_persistent_bf16.mlir",
                           "matmul_tma_ws_persistent", 128, 256, {{256, 512, 192}},
                           Operands::DescriptorsABC, /*programs=*/5);
}

/// A persistent GEMM that takes its tiles from a counter (`file`'s kernel
/// `name`, C a descriptor): 3 programs over 1 to 12 tiles, 5 over 4 (one
/// takes none), 2 over 24 tiles of `k` (a multiple of 64), each launched
/// twice (the last program out leaves both counters at zero).
void expectDynamicGemmMatchesTheHost(NvidiaGpu &t, const char *file, const char *name, int k) {
  expectGemmMatchesTheHost(t, file, name, 128, 256,
                           {{128, 256, 64}, {256, 512, 192}, {384, 1024, 1024}},
                           Operands::DescriptorsABC, /*programs=*/3, -1, 1, /*dynamicTiles=*/true);
  expectGemmMatchesTheHost(t, file, name, 128, 256, {{256, 512, 192}}, Operands::DescriptorsABC,
                           /*programs=*/5, -1, 1, true);
  expectGemmMatchesTheHost(t, file, name, 128, 256, {{768, 1024, k}}, Operands::DescriptorsABC,
                           /*programs=*/2, -1, 1, true);
}

// Warp-specialised: the producer warp takes each tile from the counter
// (hd.atomic_rmw) and passes it to the consumer warps through a two-slot
// ring of tile ids in shared memory with its own barriers.
TEST_F(NvidiaGpu, DynamicPersistentWarpSpecializedTmaGemmMatchesTheHost) {
  if (std::string(dev->info().arch) != "sm_90a")
    GTEST_SKIP() << dev->info().arch << " has no wgmma (sm_90a's alone)";
  expectDynamicGemmMatchesTheHost(*this, "nvidia/matmul_tma_ws_dynamic_bf16.mlir",
                                  "matmul_tma_ws_dynamic", 128);
}

// With a CTA barrier (no producer warp): the loader, 3 K steps ahead, takes
// the next tile when its steps wrap and writes each step's tile id next to
// the stage; with 1 K step a tile it is 3 tiles ahead.
TEST_F(NvidiaGpu, DynamicPersistentTmaGemmMatchesTheHost) {
  if (std::string(dev->info().arch) != "sm_90a")
    GTEST_SKIP() << dev->info().arch << " has no wgmma (sm_90a's alone)";
  expectDynamicGemmMatchesTheHost(*this, "nvidia/matmul_tma_dynamic_bf16.mlir",
                                  "matmul_tma_dynamic", 64);
}

// The last partial wave split along K: each part writes its f32 partial
// product to a workspace slot and counts in; the last adds the slots and
// stores the tile. No split (tail 0), every tile split (uneven K: 16 steps
// in 3 parts), one tile of four, and parts with no K step at all (3 steps in
// 4 parts; 1 step in 2), twice each so the counters are seen reset.
TEST_F(NvidiaGpu, SplitTailWarpSpecializedTmaGemmMatchesTheHost) {
  if (std::string(dev->info().arch) != "sm_90a")
    GTEST_SKIP() << dev->info().arch << " has no wgmma (sm_90a's alone)";
  const char *file = "nvidia/matmul_tma_ws_tail_bf16.mlir", *name = "matmul_tma_ws_tail";
  for (auto [tail, splits] : {std::pair{0, 1}, {4, 3}, {1, 2}})
    expectGemmMatchesTheHost(*this, file, name, 128, 256, {{256, 512, 1024}},
                             Operands::DescriptorsAB, 0, tail, splits);
  expectGemmMatchesTheHost(*this, file, name, 128, 256, {{384, 512, 192}}, Operands::DescriptorsAB,
                           0, 2, 4);
  expectGemmMatchesTheHost(*this, file, name, 128, 256, {{128, 256, 64}}, Operands::DescriptorsAB,
                           0, 1, 2);
}

// Clusters of two programs (hd.cluster_dims) on neighbouring row tiles share
// B: each producer copies half of every B block, multicast into both
// programs, and each stage's "empty" barrier counts the consumer warps of
// both (remote arrivals). M of 2, 4 and 6 row tiles: 1 to 3 clusters a
// column; K of 1, 3 and 16 steps round the ring.
TEST_F(NvidiaGpu, ClusterWarpSpecializedTmaGemmMatchesTheHost) {
  if (std::string(dev->info().arch) != "sm_90a")
    GTEST_SKIP() << dev->info().arch << " has no wgmma (sm_90a's alone)";
  expectGemmMatchesTheHost(*this, "nvidia/matmul_tma_ws_cluster_bf16.mlir",
                           "matmul_tma_ws_cluster", 128, 256,
                           {{256, 256, 64}, {512, 512, 192}, {768, 512, 1024}},
                           Operands::DescriptorsAB);
}

// The cluster primitives alone: a block multicast by two programs, half
// each, lands whole in both; an arrival on the peer's barrier completes it.
// A grid that is not a whole number of clusters is refused before launch.
TEST_F(NvidiaGpu, ClusterMulticastFillsEveryProgramOfTheMask) {
  if (std::string(dev->info().arch) != "sm_90a")
    GTEST_SKIP() << dev->info().arch << " runs no multicast copies here (sm_90a only)";
  auto module = load(input("cluster_multicast.mlir"));
  ASSERT_TRUE(module);
  auto kernel = module->kernel("cluster_multicast");
  ASSERT_TRUE(kernel.ok()) << kernel.status().message();
  const uint32_t clusters = 3, programs = 2 * clusters;
  std::uniform_real_distribution<float> dist(-4.f, 4.f);
  std::vector<uint16_t> src(clusters * 64 * 64);
  for (uint16_t &v : src)
    v = bf16Bits(dist(rng));
  std::vector<uint16_t> out(programs * 64 * 64, 0x7fc1); // bf16 NaN
  std::vector<int32_t> flags(programs, -1);
  auto dsrc = dev->alloc(src.size() * 2), dout = dev->alloc(out.size() * 2),
       dflags = dev->alloc(flags.size() * 4);
  ASSERT_TRUE(dsrc.ok() && dout.ok() && dflags.ok());
  ASSERT_TRUE(dsrc->upload(src).ok() && dout->upload(out).ok() && dflags->upload(flags).ok());
  hd_tensor_desc desc{};
  desc.base = dsrc->arg().value.ptr, desc.rank = 2;
  desc.shape[0] = clusters * 64, desc.shape[1] = 64;
  desc.strides[0] = 64, desc.strides[1] = 1;
  hd_arg descArg{};
  descArg.kind = HD_ARG_TENSOR_DESC;
  descArg.value.desc = &desc;
  Status st = kernel->launch({programs, 1, 1}, {descArg, dout->arg(), dflags->arg()});
  ASSERT_TRUE(st.ok()) << st.message();
  ASSERT_TRUE(dout->download(out).ok() && dflags->download(flags).ok());
  for (uint32_t p = 0; p < programs; ++p) {
    EXPECT_EQ(flags[p], int32_t(p % 2 + 1)) << "program " << p;
    for (uint32_t i = 0; i < 64 * 64; ++i)
      ASSERT_EQ(out[p * 64 * 64 + i], src[(p / 2) * 64 * 64 + i])
          << "program " << p << ", row " << i / 64 << ", column " << i % 64;
  }
  Status odd = kernel->launch({programs - 1, 1, 1}, {descArg, dout->arg(), dflags->arg()});
  ASSERT_FALSE(odd.ok());
  EXPECT_NE(odd.message().find("runs in clusters of 2x1x1 programs; grid x is 5, not a multiple "
                               "of 2"),
            std::string::npos)
      << odd.message();
}

/// The flash-attention forward example of head dim `d` against the host:
/// O = softmax(Q K^T * scale) V per head, on `heads` heads of `nCtx` rows,
/// `rows` query rows a program (the last program's rows past nCtx masked).
void expectAttentionMatchesTheHost(NvidiaGpu &t, int d, int heads, int nCtx,
                                   const std::string &stem = "attention_fwd",
                                   unsigned rows = 128) {
  auto &dev = t.device();
  auto &rng = t.random();
  std::string name = stem + "_hd" + std::to_string(d);
  std::string file = "nvidia/" + name + ".mlir";
  auto module = t.loadExample(file);
  ASSERT_TRUE(module);
  auto attn = module->kernel(name);
  ASSERT_TRUE(attn.ok()) << attn.status().message();
  SCOPED_TRACE(file + ": " + std::to_string(heads) + " heads of " + std::to_string(nCtx));
  const size_t count = size_t(heads) * nCtx * d;
  std::uniform_real_distribution<float> dist(-2.f, 2.f);
  std::vector<float> q(count), k(count), v(count);
  std::vector<uint16_t> qb(count), kb(count), vb(count);
  for (size_t i = 0; i < count; ++i) {
    q[i] = bf16Round(dist(rng)), qb[i] = bf16Bits(q[i]);
    k[i] = bf16Round(dist(rng)), kb[i] = bf16Bits(k[i]);
    v[i] = bf16Round(dist(rng) / 2), vb[i] = bf16Bits(v[i]);
  }
  const size_t slack = 64;
  std::vector<uint16_t> o(count + slack, 0x7fc1); // bf16 NaN
  auto dq = dev->alloc(count * 2), dk = dev->alloc(count * 2), dv = dev->alloc(count * 2),
       dout = dev->alloc(o.size() * 2);
  ASSERT_TRUE(dq.ok() && dk.ok() && dv.ok() && dout.ok());
  ASSERT_TRUE(dq->upload(qb).ok() && dk->upload(kb).ok() && dv->upload(vb).ok() &&
              dout->upload(o).ok());
  const float scale = 1.f / std::sqrt(float(d));
  std::vector<hd_arg> args{dq->arg(), dk->arg(), dv->arg(), dout->arg(), arg::f32(scale),
                           arg::i32(nCtx)};
  // A kernel fed by the copy engine takes q, k and v as descriptors over
  // [heads * n_ctx, d].
  hd_tensor_desc descs[3] = {};
  if (attn->signature().args[0] == HD_ARG_TENSOR_DESC)
    for (int i = 0; i < 3; ++i) {
      descs[i].base = args[i].value.ptr, descs[i].rank = 2;
      descs[i].shape[0] = uint64_t(heads) * nCtx, descs[i].shape[1] = d;
      descs[i].strides[0] = d, descs[i].strides[1] = 1;
      args[i].kind = HD_ARG_TENSOR_DESC;
      args[i].value.desc = &descs[i];
    }
  Status st = attn->launch({(uint32_t(nCtx) + rows - 1) / rows, uint32_t(heads), 1}, args);
  ASSERT_TRUE(st.ok()) << st.message();
  ASSERT_TRUE(dout->download(o).ok());
  std::vector<double> ref = hadron::testkit::attentionReference(q, k, v, heads, nCtx, d, scale);
  for (size_t i = 0; i < count; ++i) {
    uint32_t bits = uint32_t(o[i]) << 16;
    float got;
    std::memcpy(&got, &bits, 4);
    ASSERT_NEAR(got, ref[i], hadron::testkit::attentionTolerance(ref[i]))
        << "O[" << i / (size_t(nCtx) * d) << "][" << i / d % nCtx << "][" << i % d << "]";
  }
  for (size_t i = count; i < count + slack; ++i)
    ASSERT_EQ(o[i], 0x7fc1) << "element " << i << " past O was written";
}

TEST_F(NvidiaGpu, FlashAttentionForwardMatchesTheHost) {
  if (std::string(dev->info().arch) != "sm_90a")
    GTEST_SKIP() << dev->info().arch << " has no wgmma (sm_90a's alone)";
  for (int d : {64, 128}) {
    expectAttentionMatchesTheHost(*this, d, 1, 128);
    expectAttentionMatchesTheHost(*this, d, 3, 512);
  }
}

// FlashAttention-3's schedule: a producer warpgroup and two consumer
// warpgroups taking turns on the matrix unit, with register budgets; n_ctx
// of 128 (one block: no loop iteration) and 512 (three), 1 and 3 heads.
TEST_F(NvidiaGpu, PingPongFlashAttentionForwardMatchesTheHost) {
  if (std::string(dev->info().arch) != "sm_90a")
    GTEST_SKIP() << dev->info().arch << " has no wgmma or setmaxnreg (sm_90a's alone)";
  for (int d : {64, 128}) {
    expectAttentionMatchesTheHost(*this, d, 1, 128, "attention_fwd_pingpong");
    expectAttentionMatchesTheHost(*this, d, 3, 512, "attention_fwd_pingpong");
  }
}

// Three consumer warpgroups taking turns round-robin, 192 query rows a
// program: n_ctx 128 (one program, its last 64 rows masked), 384 (two
// programs, none masked) and 512 (three, the last one's rows past n_ctx
// reading the next head's q and not stored).
TEST_F(NvidiaGpu, ThreeConsumerPingPongFlashAttentionForwardMatchesTheHost) {
  if (std::string(dev->info().arch) != "sm_90a")
    GTEST_SKIP() << dev->info().arch << " has no wgmma or setmaxnreg (sm_90a's alone)";
  expectAttentionMatchesTheHost(*this, 64, 1, 128, "attention_fwd_pingpong3", 192);
  expectAttentionMatchesTheHost(*this, 64, 2, 384, "attention_fwd_pingpong3", 192);
  expectAttentionMatchesTheHost(*this, 64, 3, 512, "attention_fwd_pingpong3", 192);
}

void expectGemmMatchesTheHost(NvidiaGpu &t, const char *file, const char *name, int tileM,
                              int tileN, std::initializer_list<std::array<int, 3>> shapes,
                              Operands operands, uint32_t programs, int tail, int splits,
                              bool dynamicTiles) {
  auto &dev = t.device();
  auto &rng = t.random();
  auto module = t.loadExample(file);
  ASSERT_TRUE(module);
  auto gemm = module->kernel(name);
  ASSERT_TRUE(gemm.ok()) << gemm.status().message();
  std::uniform_real_distribution<float> dist(-1.f, 1.f);
  for (auto [m, n, k] : shapes) {
    SCOPED_TRACE(std::to_string(m) + "x" + std::to_string(n) + "x" + std::to_string(k));
    std::vector<float> a(m * k), b(k * n);
    std::vector<uint16_t> abits(m * k), bbits(k * n);
    for (int i = 0; i < m * k; ++i)
      a[i] = bf16Round(dist(rng)), abits[i] = bf16Bits(a[i]);
    for (int i = 0; i < k * n; ++i)
      b[i] = bf16Round(dist(rng)), bbits[i] = bf16Bits(b[i]);
    const int slack = 64;
    std::vector<uint16_t> c(m * n + slack, 0x7fc1); // bf16 NaN
    auto da = dev->alloc(abits.size() * 2), db = dev->alloc(bbits.size() * 2),
         dc = dev->alloc(c.size() * 2);
    ASSERT_TRUE(da.ok() && db.ok() && dc.ok());
    ASSERT_TRUE(da->upload(abits).ok() && db->upload(bbits).ok() && dc->upload(c).ok());
    // Row-major A (m x k) and B (k x n) as descriptors.
    hd_tensor_desc ad{}, bd{};
    ad.base = da->devicePtr(), ad.rank = 2, ad.shape[0] = m, ad.shape[1] = k;
    ad.strides[0] = k, ad.strides[1] = 1;
    bd.base = db->devicePtr(), bd.rank = 2, bd.shape[0] = k, bd.shape[1] = n;
    bd.strides[0] = n, bd.strides[1] = 1;
    hd_tensor_desc cd{};
    cd.base = dc->devicePtr(), cd.rank = 2, cd.shape[0] = m, cd.shape[1] = n;
    cd.strides[0] = n, cd.strides[1] = 1;
    hd_arg aArg = da->arg(), bArg = db->arg(), cArg = dc->arg();
    if (operands != Operands::Pointers) {
      aArg.kind = bArg.kind = HD_ARG_TENSOR_DESC;
      aArg.value.desc = &ad, bArg.value.desc = &bd;
    }
    if (operands == Operands::DescriptorsABC)
      cArg.kind = HD_ARG_TENSOR_DESC, cArg.value.desc = &cd;
    // A persistent kernel walks the tiles with `programs` programs.
    std::array<uint32_t, 3> grid{uint32_t(m / tileM), uint32_t(n / tileN), 1};
    if (programs)
      grid = {programs, 1, 1};
    std::vector<hd_arg> args{aArg, bArg, cArg, arg::i32(m), arg::i32(n), arg::i32(k)};
    const int tiles = (m / tileM) * (n / tileN);
    std::optional<Buffer> ws, cnt;
    if (tail >= 0) {
      SCOPED_TRACE("tail " + std::to_string(tail) + " in " + std::to_string(splits) + " parts");
      ASSERT_LE(tail, tiles);
      // Slots poisoned with NaN: every part must write all of its slot.
      std::vector<float> slots(size_t(std::max(tail * splits, 1)) * tileM * tileN, std::nanf(""));
      std::vector<int32_t> zeros(std::max(tail, 1), 0);
      auto w = dev->alloc(slots.size() * 4), ct = dev->alloc(zeros.size() * 4);
      ASSERT_TRUE(w.ok() && ct.ok());
      ASSERT_TRUE(w->upload(slots).ok() && ct->upload(zeros).ok());
      ws.emplace(std::move(*w)), cnt.emplace(std::move(*ct));
      args.insert(args.end(), {ws->arg(), cnt->arg(), arg::i32(tail), arg::i32(splits)});
      grid = {uint32_t(tiles - tail + tail * splits), 1, 1};
    }
    if (dynamicTiles) {
      // The tile counter and the finished-programs counter, zero before the
      // first launch; the kernel leaves them at zero for the second.
      auto ct = dev->alloc(8);
      ASSERT_TRUE(ct.ok() && ct->upload(std::vector<int32_t>{0, 0}).ok());
      cnt.emplace(std::move(*ct));
      args.push_back(cnt->arg());
    }
    for (int run = 0; run < (tail >= 0 || dynamicTiles ? 2 : 1); ++run) {
      if (run) {
        ASSERT_TRUE(dc->upload(std::vector<uint16_t>(c.size(), 0x7fc1)).ok());
      }
      Status st = gemm->launch(grid, args);
      ASSERT_TRUE(st.ok()) << st.message();
    }
    ASSERT_TRUE(dc->download(c).ok());
    if (cnt && dynamicTiles) {
      std::vector<int32_t> counts(2, -1);
      ASSERT_TRUE(cnt->download(counts).ok());
      ASSERT_EQ(counts[0], 0) << "tile counter not reset";
      ASSERT_EQ(counts[1], 0) << "finished-programs counter not reset";
    } else if (cnt) {
      std::vector<int32_t> counts(std::max(tail, 1), -1);
      ASSERT_TRUE(cnt->download(counts).ok());
      for (int i = 0; i < tail; ++i)
        ASSERT_EQ(counts[i], 0) << "counter of split tile " << i << " not reset";
    }
    for (int i = 0; i < m; ++i)
      for (int j = 0; j < n; ++j) {
        double ref = 0, mag = 0;
        for (int t = 0; t < k; ++t) {
          ref += double(a[i * k + t]) * b[t * n + j];
          mag += std::fabs(double(a[i * k + t]) * b[t * n + j]);
        }
        // Products of bf16 are exact in f32 and the f32 sums' error is at
        // most k * 2^-24 * sum |a b| in any order; the store rounds to bf16.
        uint32_t bits = uint32_t(c[i * n + j]) << 16;
        float got;
        std::memcpy(&got, &bits, 4);
        ASSERT_NEAR(got, ref, k * 0x1p-24 * mag + 0x1p-8 * std::fabs(ref) + 1e-30)
            << "C[" << i << "][" << j << "]";
      }
    for (int i = m * n; i < m * n + slack; ++i)
      ASSERT_EQ(c[i], 0x7fc1) << "element " << i << " past C was written";
  }
}

} // namespace
