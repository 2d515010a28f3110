// The AMD runtime part. Without a GPU (CI): the plugin loads, HIP reports
// no device and init says exactly "amd: no device (hipErrorNoDevice)";
// without libamdhip64 it says which library it looked for; the kernarg
// packing is checked value by value. The examples on a GPU are the plugin
// CTS's (plugins/cts, hadron-cts-amd).

#include "KernargLayout.h"

#include "hadron/plugin/plugin.h"
#include "hadron/runtime/Runtime.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>

using namespace hadron::amd;

namespace {

const hd_plugin_descriptor *plugin() {
  static const hd_plugin_descriptor *desc = [] {
    void *so = dlopen(HADRON_AMD_PLUGIN_PATH, RTLD_NOW | RTLD_LOCAL);
    if (!so)
      return static_cast<const hd_plugin_descriptor *>(nullptr);
    auto entry = reinterpret_cast<hd_plugin_entry_fn>(dlsym(so, HADRON_PLUGIN_ENTRY_SYMBOL));
    return entry ? entry() : nullptr;
  }();
  return desc;
}

TEST(AmdPlugin, Descriptor) {
  const hd_plugin_descriptor *d = plugin();
  ASSERT_NE(d, nullptr) << dlerror();
  EXPECT_EQ(d->abi_major, unsigned(HADRON_PLUGIN_ABI_MAJOR));
  EXPECT_STREQ(d->name, "amd");
  EXPECT_STREQ(d->default_arch, "gfx942");
  std::vector<std::string> archs;
  for (const char *const *a = d->archs; *a; ++a)
    archs.push_back(*a);
  EXPECT_EQ(archs, (std::vector<std::string>{"gfx942", "gfx90a", "gfx950", "gfx1100"}));
  EXPECT_STREQ(d->compiler_library, "libhadron-target-amd-compiler.so");
}

TEST(AmdPlugin, NoDeviceIsReportedCleanly) {
  if (std::getenv("HADRON_AMD_HIP_LIBRARY"))
    GTEST_SKIP() << "HADRON_AMD_HIP_LIBRARY is set: this process tests the missing driver";
  const hd_plugin_descriptor *d = plugin();
  ASSERT_NE(d, nullptr);
  hd_error err{};
  hd_status s = d->runtime->init(&err);
  if (s == HD_OK)
    GTEST_SKIP() << "an AMD GPU is present (" << d->runtime->device_count() << " device(s))";
  if (s == HD_ERROR_DRIVER_MISSING)
    GTEST_SKIP() << "libamdhip64 is not installed: " << err.message;
  EXPECT_EQ(s, HD_ERROR_NO_DEVICE);
  EXPECT_STREQ(err.message, "amd: no device (hipErrorNoDevice)");
  // Idempotent, and every other entry fails with the reason, not a crash.
  hd_error again{};
  EXPECT_EQ(d->runtime->init(&again), HD_ERROR_NO_DEVICE);
  EXPECT_STREQ(again.message, err.message);
  EXPECT_EQ(d->runtime->device_count(), 0u);
  hd_device_info info{};
  info.struct_size = sizeof(info);
  EXPECT_EQ(d->runtime->device_info(0, &info, &err), HD_ERROR_NO_DEVICE);
  EXPECT_NE(std::strstr(err.message, "device_info: amd: no device (hipErrorNoDevice)"), nullptr)
      << err.message;
  hd_device_ptr p = 0;
  EXPECT_EQ(d->runtime->mem_alloc(0, 64, &p, &err), HD_ERROR_NO_DEVICE);
  EXPECT_NE(std::strstr(err.message, "mem_alloc: amd: no device (hipErrorNoDevice)"), nullptr)
      << err.message;
  hd_plugin_module *m = nullptr;
  const char junk[] = "not a code object";
  EXPECT_NE(d->runtime->module_load(0, junk, sizeof(junk), &m, &err), HD_OK);
  EXPECT_EQ(m, nullptr);
}

// Run by the ctest entry AmdRuntimeDriverMissing, which points
// HADRON_AMD_HIP_LIBRARY at a file that does not exist.
TEST(AmdPlugin, DriverMissingNamesTheLibrary) {
  const char *forced = std::getenv("HADRON_AMD_HIP_LIBRARY");
  if (!forced)
    GTEST_SKIP() << "runs with HADRON_AMD_HIP_LIBRARY set (ctest: AmdRuntimeDriverMissing)";
  const hd_plugin_descriptor *d = plugin();
  ASSERT_NE(d, nullptr);
  hd_error err{};
  EXPECT_EQ(d->runtime->init(&err), HD_ERROR_DRIVER_MISSING);
  EXPECT_NE(std::strstr(err.message, "amd: libamdhip64.so not found (tried "), nullptr)
      << err.message;
  EXPECT_NE(std::strstr(err.message, forced), nullptr) << err.message;
  EXPECT_EQ(d->runtime->device_count(), 0u);
}

TEST(AmdKernargs, LayoutAlignsEachArgumentToItsSize) {
  const hd_arg_kind kinds[] = {HD_ARG_I8,  HD_ARG_F64, HD_ARG_I1,   HD_ARG_PTR,
                               HD_ARG_F16, HD_ARG_I64, HD_ARG_BF16, HD_ARG_I32,
                               HD_ARG_I16, HD_ARG_F32, HD_ARG_I1};
  KernargLayout layout = kernargLayout(kinds, 11);
  EXPECT_EQ(layout.offsets, (std::vector<uint32_t>{0, 8, 16, 24, 32, 40, 48, 52, 56, 60, 64}));
  EXPECT_EQ(layout.size, 65u);
  EXPECT_EQ(kernargLayout(nullptr, 0).size, 0u);
}

TEST(AmdKernargs, PackedValues) {
  std::vector<hd_arg> args(6);
  args[0].kind = HD_ARG_I8, args[0].value.i = -3;
  args[1].kind = HD_ARG_PTR, args[1].value.ptr = 0x123456789abcdef0ull;
  args[2].kind = HD_ARG_F16, args[2].value.f = 1.5;
  args[3].kind = HD_ARG_I32, args[3].value.i = -70000;
  args[4].kind = HD_ARG_F64, args[4].value.f = -2.25;
  args[5].kind = HD_ARG_BF16, args[5].value.f = 3.0;
  std::vector<unsigned char> buffer = packKernargs(args.data(), 6);
  ASSERT_EQ(buffer.size(), 34u); // 0, 8, 16, 20, 24, 32 (+2)
  EXPECT_EQ(int8_t(buffer[0]), -3);
  for (int i = 1; i < 8; ++i)
    EXPECT_EQ(buffer[i], 0) << "padding at " << i << " is not zero";
  uint64_t ptr;
  std::memcpy(&ptr, &buffer[8], 8);
  EXPECT_EQ(ptr, 0x123456789abcdef0ull);
  uint16_t half;
  std::memcpy(&half, &buffer[16], 2);
  EXPECT_EQ(half, 0x3e00);
  int32_t i32;
  std::memcpy(&i32, &buffer[20], 4);
  EXPECT_EQ(i32, -70000);
  double f64;
  std::memcpy(&f64, &buffer[24], 8);
  EXPECT_EQ(f64, -2.25);
  uint16_t bf16;
  std::memcpy(&bf16, &buffer[32], 2);
  EXPECT_EQ(bf16, 0x4040);
}

// Each value is just past a tie that, through float, it would land on and
// round to even the other way.
TEST(AmdKernargs, HalfAndBf16AreRoundedOnceFromTheDouble) {
  const double values[] = {1.0 + std::ldexp(1.0, -11) + std::ldexp(1.0, -40),
                           65520.0 - std::ldexp(1.0, -30),
                           1.0 + std::ldexp(1.0, -8) + std::ldexp(1.0, -40),
                           std::ldexp(1.0, -134) + std::ldexp(1.0, -170)};
  const hd_arg_kind kinds[] = {HD_ARG_F16, HD_ARG_F16, HD_ARG_BF16, HD_ARG_BF16};
  std::vector<hd_arg> args(4);
  for (int i = 0; i < 4; ++i)
    args[i].kind = kinds[i], args[i].value.f = values[i];
  std::vector<unsigned char> buffer = packKernargs(args.data(), 4);
  ASSERT_EQ(buffer.size(), 8u);
  uint16_t bits[4];
  std::memcpy(bits, buffer.data(), 8);
  EXPECT_EQ(bits[0], 0x3c01);
  EXPECT_EQ(bits[1], 0x7bff);
  EXPECT_EQ(bits[2], 0x3f81);
  EXPECT_EQ(bits[3], 0x0001);
}

} // namespace
