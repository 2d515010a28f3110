// The Intel runtime part. Without a GPU (CI): the plugin loads, Level Zero
// says ZE_RESULT_ERROR_UNINITIALIZED and init reports "no device" with the
// reason of each driver; without the drivers it names the libraries it
// looked for; arguments are packed value by value. On an OpenCL CPU device
// that takes SPIR-V (ctest sets HADRON_INTEL_OPENCL_CPU=1; Intel's CPU
// runtime in CI): sixteen-lane layouts, buffer offsets, a failing
// hd.assert, DPAS refused; the examples, events and the runtime's checks
// are the plugin CTS's (plugins/cts, hadron-cts-intel).

#include "IntelRuntime.h"
#include "MatrixDotKernel.h"
#include "SpirTranslation.h"

#include "hadron/plugin/plugin.h"
#include "hadron/runtime/Runtime.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <fstream>
#include <optional>
#include <random>
#include <regex>
#include <sstream>

namespace {

const hd_plugin_descriptor *plugin() {
  static const hd_plugin_descriptor *desc = [] {
    void *so = dlopen(HADRON_INTEL_PLUGIN_PATH, RTLD_NOW | RTLD_LOCAL);
    if (!so)
      return static_cast<const hd_plugin_descriptor *>(nullptr);
    auto entry = reinterpret_cast<hd_plugin_entry_fn>(dlsym(so, HADRON_PLUGIN_ENTRY_SYMBOL));
    return entry ? entry() : nullptr;
  }();
  return desc;
}

std::string readFile(const std::string &path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string example(const std::string &name) {
  const char *root = std::getenv("HADRON_SOURCE_DIR");
  return readFile(std::string(root ? root : HADRON_SOURCE_DIR) + "/examples/" + name);
}

TEST(IntelPlugin, Descriptor) {
  const hd_plugin_descriptor *d = plugin();
  ASSERT_NE(d, nullptr) << dlerror();
  EXPECT_EQ(d->abi_major, unsigned(HADRON_PLUGIN_ABI_MAJOR));
  EXPECT_STREQ(d->name, "intel");
  EXPECT_STREQ(d->default_arch, "pvc");
  std::vector<std::string> archs;
  for (const char *const *a = d->archs; *a; ++a)
    archs.push_back(*a);
  EXPECT_EQ(archs, (std::vector<std::string>{"pvc", "bmg", "lnl", "acm", "cpu"}));
  EXPECT_STREQ(d->compiler_library, "libhadron-target-intel-compiler.so");
  const void *const *entries = reinterpret_cast<const void *const *>(&d->runtime->init);
  for (size_t i = 0; i < (sizeof(hd_runtime_table) - offsetof(hd_runtime_table, init)) /
                             sizeof(void *);
       ++i)
    EXPECT_NE(entries[i], nullptr) << "runtime entry " << i;
}

// Run without HADRON_INTEL_OPENCL_CPU (ctest: IntelRuntimeNoGpu): on a
// machine without an Intel GPU init fails, naming each driver's reason.
TEST(IntelPlugin, NoGpuIsReportedCleanly) {
  if (std::getenv("HADRON_INTEL_OPENCL_CPU") || std::getenv("HADRON_INTEL_ZE_LIBRARY"))
    GTEST_SKIP() << "this process lists OpenCL CPU devices or tests missing drivers";
  const hd_plugin_descriptor *d = plugin();
  ASSERT_NE(d, nullptr);
  hd_error err{};
  hd_status s = d->runtime->init(&err);
  if (s == HD_OK)
    GTEST_SKIP() << "an Intel GPU is present (" << d->runtime->device_count() << " device(s))";
  std::string message = err.message;
  // Neither libze_loader nor libOpenCL installed: the same, as missing drivers.
  if (s == HD_ERROR_DRIVER_MISSING)
    EXPECT_EQ(message.rfind("intel: no driver (Level Zero: libze_loader.so.1 not found", 0), 0u)
        << message;
  else
    EXPECT_EQ(message.rfind("intel: no device (Level Zero: ", 0), 0u) << message;
  ASSERT_TRUE(s == HD_ERROR_NO_DEVICE || s == HD_ERROR_DRIVER_MISSING) << message;
  if (void *ze = dlopen("libze_loader.so.1", RTLD_NOW | RTLD_LOCAL)) {
    dlclose(ze);
    EXPECT_NE(message.find("Level Zero: zeInit: ZE_RESULT_ERROR_UNINITIALIZED (0x78000001)"),
              std::string::npos)
        << message;
  }
  EXPECT_NE(message.find("OpenCL: "), std::string::npos) << message;
  // Idempotent, and every other entry fails with the reason, not a crash.
  hd_error again{};
  EXPECT_EQ(d->runtime->init(&again), s);
  EXPECT_STREQ(again.message, err.message);
  EXPECT_EQ(d->runtime->device_count(), 0u);
  hd_device_info info{};
  info.struct_size = sizeof(info);
  EXPECT_NE(d->runtime->device_info(0, &info, &err), HD_OK);
  hd_device_ptr p = 0;
  EXPECT_EQ(d->runtime->mem_alloc(0, 64, &p, &err), s);
  EXPECT_NE(std::strstr(err.message, ("mem_alloc: " + message).c_str()), nullptr) << err.message;
  hd_plugin_module *m = nullptr;
  const char junk[] = "not spir-v";
  EXPECT_NE(d->runtime->module_load(0, junk, sizeof(junk), &m, &err), HD_OK);
  EXPECT_EQ(m, nullptr);
  EXPECT_EQ(d->runtime->synchronize(0, &err), s);
}

// Run by the ctest entry IntelRuntimeDriversMissing, which points both
// HADRON_INTEL_ZE_LIBRARY and HADRON_INTEL_OPENCL_LIBRARY at absent files.
TEST(IntelPlugin, DriversMissingNameTheLibraries) {
  const char *ze = std::getenv("HADRON_INTEL_ZE_LIBRARY");
  const char *cl = std::getenv("HADRON_INTEL_OPENCL_LIBRARY");
  if (!ze || !cl)
    GTEST_SKIP() << "runs with HADRON_INTEL_ZE_LIBRARY and HADRON_INTEL_OPENCL_LIBRARY set "
                    "(ctest: IntelRuntimeDriversMissing)";
  const hd_plugin_descriptor *d = plugin();
  ASSERT_NE(d, nullptr);
  hd_error err{};
  EXPECT_EQ(d->runtime->init(&err), HD_ERROR_DRIVER_MISSING);
  std::string message = err.message;
  EXPECT_NE(message.find("intel: no driver (Level Zero: " + std::string(ze) + " not found"),
            std::string::npos)
      << message;
  EXPECT_NE(message.find("OpenCL: " + std::string(cl) + " not found"), std::string::npos)
      << message;
  EXPECT_EQ(d->runtime->device_count(), 0u);
}

TEST(IntelArgs, ScalarsAreWhatTheKernelTakes) {
  using namespace hadron::intel;
  auto pack = [](hd_arg_kind kind, double f, int64_t i) {
    hd_arg a{};
    a.kind = kind;
    if (kind >= HD_ARG_F16)
      a.value.f = f;
    else
      a.value.i = i;
    std::vector<unsigned char> out(8, 0xee);
    packScalarArg(a, out.data());
    out.resize(scalarArgBytes(kind));
    return out;
  };
  using B = std::vector<unsigned char>;
  EXPECT_EQ(pack(HD_ARG_I1, 0, 5), (B{1}));
  EXPECT_EQ(pack(HD_ARG_I8, 0, -3), (B{0xfd}));
  EXPECT_EQ(pack(HD_ARG_I16, 0, -2), (B{0xfe, 0xff}));
  EXPECT_EQ(pack(HD_ARG_I32, 0, -70000), (B{0x90, 0xee, 0xfe, 0xff}));
  EXPECT_EQ(pack(HD_ARG_I64, 0, 1), (B{1, 0, 0, 0, 0, 0, 0, 0}));
  EXPECT_EQ(pack(HD_ARG_F16, 1.5, 0), (B{0x00, 0x3e}));
  EXPECT_EQ(pack(HD_ARG_F16, -65504, 0), (B{0xff, 0xfb}));
  EXPECT_EQ(pack(HD_ARG_F16, 1e6, 0), (B{0x00, 0x7c}));     // overflow: inf
  EXPECT_EQ(pack(HD_ARG_F16, 6e-8, 0), (B{0x01, 0x00}));    // smallest subnormal
  EXPECT_EQ(pack(HD_ARG_F16, 1.0 + 1.0 / 2048, 0), (B{0x00, 0x3c})); // tie to even
  EXPECT_EQ(pack(HD_ARG_BF16, 3.0, 0), (B{0x40, 0x40}));
  EXPECT_EQ(pack(HD_ARG_BF16, 1.0 + 1.0 / 256, 0), (B{0x80, 0x3f})); // tie to even
  // Rounded once from the double: each is just past a tie that, through
  // float, it would land on and round to even the other way.
  EXPECT_EQ(pack(HD_ARG_F16, 1.0 + std::ldexp(1.0, -11) + std::ldexp(1.0, -40), 0),
            (B{0x01, 0x3c}));
  EXPECT_EQ(pack(HD_ARG_F16, 65520.0 - std::ldexp(1.0, -30), 0), (B{0xff, 0x7b}));
  EXPECT_EQ(pack(HD_ARG_BF16, 1.0 + std::ldexp(1.0, -8) + std::ldexp(1.0, -40), 0),
            (B{0x81, 0x3f}));
  EXPECT_EQ(pack(HD_ARG_BF16, std::ldexp(1.0, -134) + std::ldexp(1.0, -170), 0),
            (B{0x01, 0x00}));
  EXPECT_EQ(pack(HD_ARG_F32, -2.25, 0), (B{0, 0, 0x10, 0xc0}));
  EXPECT_EQ(scalarArgBytes(HD_ARG_F64), 8u);
  EXPECT_EQ(scalarArgBytes(HD_ARG_PTR), 0u);
}

TEST(IntelArgs, ArchOfPciDeviceId) {
  using hadron::intel::archOfDeviceId;
  EXPECT_STREQ(archOfDeviceId(0x0bd5), "pvc"); // Max 1550
  EXPECT_STREQ(archOfDeviceId(0xe20b), "bmg"); // Arc B580
  EXPECT_STREQ(archOfDeviceId(0x64a0), "lnl");
  EXPECT_STREQ(archOfDeviceId(0x56a0), "acm"); // Arc A770
  EXPECT_STREQ(archOfDeviceId(0x9a49), "");    // Tiger Lake: not a target
}

// LLVM 22's scalar OpConstantNull, which llvm-spirv 15 rejects, becomes
// OpConstant 0 (two words for 64 bits) or OpConstantFalse; composite nulls
// stay.
TEST(IntelSpirTranslation, ScalarNullsBecomeConstants) {
  const std::vector<uint32_t> in = {
      0x07230203, 0x00010400, 0, 20, 0,
      (4u << 16) | 21, 1, 32, 0,  // %1 = OpTypeInt 32 0
      (4u << 16) | 21, 2, 64, 0,  // %2 = OpTypeInt 64 0
      (3u << 16) | 22, 3, 32,     // %3 = OpTypeFloat 32
      (2u << 16) | 20, 4,         // %4 = OpTypeBool
      (4u << 16) | 23, 5, 3, 4,   // %5 = OpTypeVector %3 4
      (3u << 16) | 46, 1, 10,     // %10 = OpConstantNull %1
      (3u << 16) | 46, 2, 11,     // %11 = OpConstantNull %2
      (3u << 16) | 46, 3, 12,     // %12 = OpConstantNull %3
      (3u << 16) | 46, 4, 13,     // %13 = OpConstantNull %4
      (3u << 16) | 46, 5, 14,     // %14 = OpConstantNull %5 (a vector: kept)
  };
  const std::vector<uint32_t> expected = {
      0x07230203, 0x00010400, 0, 20, 0,
      (4u << 16) | 21, 1, 32, 0,
      (4u << 16) | 21, 2, 64, 0,
      (3u << 16) | 22, 3, 32,
      (2u << 16) | 20, 4,
      (4u << 16) | 23, 5, 3, 4,
      (4u << 16) | 43, 1, 10, 0,
      (5u << 16) | 43, 2, 11, 0, 0,
      (4u << 16) | 43, 3, 12, 0,
      (3u << 16) | 42, 4, 13,
      (3u << 16) | 46, 5, 14,
  };
  std::string why;
  std::string out = hadron::intel::rewriteScalarNulls(
      std::string(reinterpret_cast<const char *>(in.data()), in.size() * 4), why);
  ASSERT_EQ(out.size(), expected.size() * 4) << why;
  std::vector<uint32_t> words(expected.size());
  std::memcpy(words.data(), out.data(), out.size());
  EXPECT_EQ(words, expected);
  EXPECT_EQ(hadron::intel::rewriteScalarNulls("short", why), "");
  EXPECT_EQ(why, "not a SPIR-V module");
  std::vector<uint32_t> broken = {0x07230203, 0x00010400, 0, 20, 0, (9u << 16) | 21, 1};
  EXPECT_EQ(hadron::intel::rewriteScalarNulls(
                std::string(reinterpret_cast<const char *>(broken.data()), broken.size() * 4), why),
            "");
  EXPECT_EQ(why, "malformed instruction at word 5");
}

/// The first intel device that is an OpenCL CPU (ctest sets
/// HADRON_INTEL_OPENCL_CPU=1 for these), through libhadron-runtime.
class IntelCpu : public ::testing::Test {
protected:
  void SetUp() override {
    auto c = hadron::runtime::Context::create();
    ASSERT_TRUE(c.ok()) << c.status().message();
    ctx.emplace(std::move(*c));
    auto d = ctx->select("intel");
    if (!d.ok()) {
      std::string why = d.status().message();
      for (const hadron::runtime::LoadRecord &r : ctx->loadReport())
        if (r.plugin == "intel")
          why = r.reason;
      GTEST_SKIP() << "no Intel device (install one with scripts/install-opencl-cpu.sh): " << why;
    }
    dev.emplace(std::move(*d));
  }
  std::optional<hadron::runtime::Context> ctx;
  std::optional<hadron::runtime::Device> dev;
  std::mt19937 rng{std::random_device{}()};
};

// 16-wide sub-groups: the same kernel with other layouts.
TEST_F(IntelCpu, VectorAddWithSixteenLanes) {
  std::string ir = std::regex_replace(example("vector_add.mlir"),
                                      std::regex("threadsPerWarp = \\[32\\]"),
                                      "threadsPerWarp = [16]");
  auto module = dev->loadIR(ir);
  ASSERT_TRUE(module.ok()) << module.status().message();
  auto add = module->kernel("vector_add");
  ASSERT_TRUE(add.ok());
  EXPECT_EQ(add->signature().warp_size, 16u);
  const int32_t n = 3000;
  std::vector<float> x(n), y(n), out(n + 8, std::nanf(""));
  std::uniform_real_distribution<float> dist(-10, 10);
  for (int32_t i = 0; i < n; ++i)
    x[i] = dist(rng), y[i] = dist(rng);
  auto dx = dev->alloc(n * 4), dy = dev->alloc(n * 4), dout = dev->alloc(out.size() * 4);
  ASSERT_TRUE(dx->upload(x).ok() && dy->upload(y).ok() && dout->upload(out).ok());
  ASSERT_TRUE(add->launch({uint32_t(n + 511) / 512, 1, 1},
                          {dx->arg(), dy->arg(), dout->arg(), hadron::runtime::arg::i32(n)})
                  .ok());
  ASSERT_TRUE(dout->download(out).ok());
  for (int32_t i = 0; i < n; ++i)
    ASSERT_EQ(out[i], x[i] + y[i]) << i;
  for (int32_t i = n; i < n + 8; ++i)
    ASSERT_TRUE(std::isnan(out[i])) << i;
}

// Arguments and copies at an offset into a buffer.
TEST_F(IntelCpu, BufferOffsets) {
  auto module = dev->loadIR(example("vector_add.mlir"));
  ASSERT_TRUE(module.ok()) << module.status().message();
  auto add = module->kernel("vector_add");
  ASSERT_TRUE(add.ok());
  const int32_t n = 1000, skip = 256; // 1 KiB: a multiple of the base alignment
  std::vector<float> x(n + skip), y(n + skip), out(n + skip, std::nanf(""));
  std::uniform_real_distribution<float> dist(-10, 10);
  for (size_t i = 0; i < x.size(); ++i)
    x[i] = dist(rng), y[i] = dist(rng);
  auto dx = dev->alloc(x.size() * 4), dy = dev->alloc(y.size() * 4), dout = dev->alloc(out.size() * 4);
  ASSERT_TRUE(dx->upload(x).ok() && dy->upload(y).ok() && dout->upload(out).ok());
  auto at = [&](const hadron::runtime::Buffer &b) {
    return hadron::runtime::arg::ptr(b.devicePtr() + skip * 4);
  };
  auto s = add->launch({1, 1, 1}, {at(*dx), at(*dy), at(*dout), hadron::runtime::arg::i32(n)});
  ASSERT_TRUE(s.ok()) << s.message();
  std::vector<float> tail(n);
  ASSERT_TRUE(dout->copyToHost(tail.data(), n * 4, skip * 4).ok());
  for (int32_t i = 0; i < n; ++i)
    ASSERT_EQ(tail[i], x[skip + i] + y[skip + i]) << i;
  std::vector<float> head(skip);
  ASSERT_TRUE(dout->copyToHost(head.data(), skip * 4).ok());
  for (float v : head)
    ASSERT_TRUE(std::isnan(v));
  // Not a multiple of the alignment OpenCL sub-buffers need: a clear error.
  auto odd = add->launch({1, 1, 1}, {hadron::runtime::arg::ptr(dx->devicePtr() + 4), dy->arg(),
                                     dout->arg(), hadron::runtime::arg::i32(n)});
  EXPECT_FALSE(odd.ok());
  EXPECT_NE(odd.message().find("CL_DEVICE_MEM_BASE_ADDR_ALIGN"), std::string::npos)
      << odd.message();
}

// A failing hd.assert: synchronize reports it with the message, once.
TEST_F(IntelCpu, FailingAssertIsReported) {
  const std::string ir = R"(
#b = #hd.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {hd.num_warps = 4 : i32} {
  func.func @checked(%x: !hd.ptr<i32>, %out: !hd.ptr<i32>) attributes {hd.kernel} {
    %r = hd.arange 0 to 512 : tensor<512xi32, #b>
    %xp = hd.splat %x : tensor<512x!hd.ptr<i32>, #b>
    %p = hd.addptr %xp, %r : tensor<512x!hd.ptr<i32>, #b>, tensor<512xi32, #b>
    %v = hd.load %p : tensor<512x!hd.ptr<i32>, #b>
    %bad = arith.constant dense<4242> : tensor<512xi32, #b>
    %ok = arith.cmpi ne, %v, %bad : tensor<512xi32, #b>
    hd.assert %ok, "planted value found" : tensor<512xi1, #b>
    %op = hd.splat %out : tensor<512x!hd.ptr<i32>, #b>
    %q = hd.addptr %op, %r : tensor<512x!hd.ptr<i32>, #b>, tensor<512xi32, #b>
    hd.store %q, %v : tensor<512x!hd.ptr<i32>, #b>
    return
  }
}
)";
  auto module = dev->loadIR(ir);
  ASSERT_TRUE(module.ok()) << module.status().message();
  auto k = module->kernel("checked");
  ASSERT_TRUE(k.ok());
  std::vector<int32_t> x(512);
  std::uniform_int_distribution<int32_t> dist(-1000, 1000);
  for (int32_t &v : x)
    v = dist(rng);
  auto dx = dev->alloc(512 * 4), dout = dev->alloc(512 * 4);
  ASSERT_TRUE(dx->upload(x).ok());
  // Passing: nothing reported.
  ASSERT_TRUE(k->launch({1, 1, 1}, {dx->arg(), dout->arg()}).ok());
  auto clean = dev->synchronize();
  EXPECT_TRUE(clean.ok()) << clean.message();
  x[std::uniform_int_distribution<int>(0, 511)(rng)] = 4242;
  ASSERT_TRUE(dx->upload(x).ok());
  ASSERT_TRUE(k->launch({1, 1, 1}, {dx->arg(), dout->arg()}).ok());
  auto failed = dev->synchronize();
  EXPECT_EQ(failed.code(), HD_ERROR_LAUNCH);
  EXPECT_NE(failed.message().find("a kernel's hd.assert failed: "), std::string::npos)
      << failed.message();
  EXPECT_NE(failed.message().find("planted value found"), std::string::npos) << failed.message();
  // Reported once: the next synchronize is clean.
  auto after = dev->synchronize();
  EXPECT_TRUE(after.ok()) << after.message();
}

/// The kernel of pvc's f16 DPAS (16-lane sub-groups), from the text the
/// compiler part reports.
std::string dpasKernel(const hadron::runtime::Context &ctx) {
  auto texts = ctx.matrixInstructions("intel", "pvc");
  EXPECT_TRUE(texts.ok()) << texts.status().message();
  for (const std::string &text : *texts)
    if (text.find("\"dpas.f32.8x16x16.f16\"") != std::string::npos)
      return hadron::testing::matrixDotKernel(hadron::testing::parseMatrixInstrText(text), 16);
  ADD_FAILURE() << "pvc reports no dpas.f32.8x16x16.f16";
  return "";
}

// The CPU device has no matrix unit: a DPAS kernel compiled for it is
// refused with the reason, and pvc's SPIR-V, which imports the extension's
// builtin, fails to build there with the driver's log; neither crashes or
// runs.
TEST_F(IntelCpu, DpasIsRefusedWithTheReason) {
  std::string ir = dpasKernel(*ctx);
  auto own = dev->loadIR(ir);
  ASSERT_FALSE(own.ok());
  EXPECT_NE(own.status().message().find("matrix instruction \"dpas.f32.8x16x16.f16\" is DPAS, "
                                        "which cpu has not (no matrix unit)"),
            std::string::npos)
      << own.status().message();
  hd_compile_options forPvc{};
  forPvc.struct_size = sizeof(forPvc);
  forPvc.arch = "pvc";
  forPvc.opt_level = 3;
  auto gpu = dev->loadIR(ir, &forPvc);
  ASSERT_FALSE(gpu.ok());
  // Intel's CPU runtime: "clBuildProgram: CL_BUILD_PROGRAM_FAILURE (-11);
  // build log: ... Symbols not found: [ _Z38intel_sub_group_f16_f16_... ]".
  EXPECT_NE(gpu.status().message().find("clBuildProgram"), std::string::npos)
      << gpu.status().message();
  EXPECT_NE(gpu.status().message().find("intel_sub_group_f16_f16_matrix_mad_k16"),
            std::string::npos)
      << gpu.status().message();
}

// The OpenCL build log reaches the error of a module the device rejects.
TEST_F(IntelCpu, RejectedBinaryIsAnError) {
  const uint32_t header[] = {0x07230203, 0x00010400, 0, 16, 0, 0xdeadbeef};
  hd_kernel_signature sig{};
  sig.name = "none";
  auto m = dev->loadBinary(header, sizeof(header), {sig});
  EXPECT_FALSE(m.ok());
  EXPECT_NE(m.status().message().find("intel:"), std::string::npos) << m.status().message();
}

// An OpenCL device without SPIR-V IL (PoCL) takes the SPIR 1.2 path: the
// module is translated and built; PoCL 3.1 has no sub-group builtins, so
// the build fails there with its log, naming them. A device that builds it
// must compute the right values.
TEST(IntelSpirDevice, VectorAddThroughSpir) {
  auto c = hadron::runtime::Context::create();
  ASSERT_TRUE(c.ok()) << c.status().message();
  std::optional<hadron::runtime::Device> spirDevice;
  for (uint32_t i = 0; i < 16 && !spirDevice; ++i) {
    auto d = c->select("intel:" + std::to_string(i));
    if (d.ok() && std::string(d->info().name).find("through SPIR 1.2") != std::string::npos)
      spirDevice.emplace(std::move(*d));
  }
  if (!spirDevice)
    GTEST_SKIP() << "no OpenCL device that takes SPIR 1.2 only (PoCL with llvm-spirv-15)";
  auto module = spirDevice->loadIR(example("vector_add.mlir"));
  if (!module.ok()) {
    const std::string &m = module.status().message();
    EXPECT_NE(m.find("clBuildProgram"), std::string::npos) << m;
    EXPECT_NE(m.find("get_sub_group"), std::string::npos) << m;
    return;
  }
  auto add = module->kernel("vector_add");
  ASSERT_TRUE(add.ok());
  const int32_t n = 1500;
  std::vector<float> x(n), y(n), out(n + 16, std::nanf(""));
  for (int32_t i = 0; i < n; ++i)
    x[i] = float(i) * 0.5f, y[i] = float(n - i);
  auto dx = spirDevice->alloc(n * 4), dy = spirDevice->alloc(n * 4),
       dout = spirDevice->alloc(out.size() * 4);
  ASSERT_TRUE(dx->upload(x).ok() && dy->upload(y).ok() && dout->upload(out).ok());
  ASSERT_TRUE(add->launch({2, 1, 1}, {dx->arg(), dy->arg(), dout->arg(),
                                      hadron::runtime::arg::i32(n)})
                  .ok());
  ASSERT_TRUE(dout->download(out).ok());
  for (int32_t i = 0; i < n; ++i)
    ASSERT_EQ(out[i], x[i] + y[i]) << i;
  for (int32_t i = n; i < n + 16; ++i)
    ASSERT_TRUE(std::isnan(out[i])) << i;
}

} // namespace
