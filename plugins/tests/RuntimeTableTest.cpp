//===- RuntimeTableTest.cpp - The SDK's helpers for runtime tables --------===//

#include "hadron/plugin/RuntimeTable.h"

#include <gtest/gtest.h>

#include <cstddef>
#include <cstring>
#include <string>
#include <vector>

using namespace hadron::plugin;

namespace {

TEST(SdkRuntimeTable, FailFormatsTheMessageAndReturnsTheCode) {
  hd_error err{};
  EXPECT_EQ(fail(&err, HD_ERROR_LAUNCH, "kernel '%s' takes %d arguments", "add", 4),
            HD_ERROR_LAUNCH);
  EXPECT_EQ(err.code, HD_ERROR_LAUNCH);
  EXPECT_STREQ(err.message, "kernel 'add' takes 4 arguments");
  EXPECT_EQ(fail(nullptr, HD_ERROR_INTERNAL, "no error to fill"), HD_ERROR_INTERNAL);
}

TEST(SdkRuntimeTable, FailTruncatesALongMessage) {
  hd_error err{};
  std::string longText(2 * sizeof(err.message), 'x');
  fail(&err, HD_ERROR_INTERNAL, "%s", longText.c_str());
  EXPECT_EQ(std::strlen(err.message), sizeof(err.message) - 1);
}

hd_device_info sampleDevice() {
  hd_device_info d{};
  d.struct_size = sizeof(d);
  std::strcpy(d.name, "sample");
  std::strcpy(d.arch, "arch1");
  d.warp_size = 32;
  d.compute_units = 7;
  d.l1_bytes = 128 * 1024;
  d.l2_bytes = 1 << 22;
  return d;
}

TEST(SdkRuntimeTable, DeviceInfoFillsAWholeStruct) {
  hd_device_info info{};
  info.struct_size = sizeof(info);
  ASSERT_EQ(copyDeviceInfo(sampleDevice(), &info, nullptr), HD_OK);
  EXPECT_STREQ(info.name, "sample");
  EXPECT_EQ(info.compute_units, 7u);
  EXPECT_EQ(info.l2_bytes, uint64_t(1) << 22);
  EXPECT_EQ(info.struct_size, sizeof(info));
}

// A caller built against ABI 1.0 has no L1/L2 fields: the bytes past its
// struct_size stay as they were.
TEST(SdkRuntimeTable, DeviceInfoWritesOnlyInsideTheCallersStructSize) {
  hd_device_info info;
  std::memset(&info, 0xab, sizeof(info));
  info.struct_size = offsetof(hd_device_info, l1_bytes);
  ASSERT_EQ(copyDeviceInfo(sampleDevice(), &info, nullptr), HD_OK);
  EXPECT_STREQ(info.arch, "arch1");
  EXPECT_EQ(info.warp_size, 32u);
  EXPECT_EQ(info.struct_size, offsetof(hd_device_info, l1_bytes));
  EXPECT_EQ(info.l1_bytes, 0xababababababababull);
  EXPECT_EQ(info.l2_bytes, 0xababababababababull);
}

TEST(SdkRuntimeTable, DeviceInfoRefusesAStructSmallerThanAbi10) {
  hd_device_info info{};
  info.struct_size = 8;
  hd_error err{};
  EXPECT_EQ(copyDeviceInfo(sampleDevice(), &info, &err), HD_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(std::string(err.message),
            "device_info: struct_size 8 is smaller than ABI 1.0's " +
                std::to_string(offsetof(hd_device_info, l1_bytes)));
  EXPECT_EQ(info.warp_size, 0u);
  EXPECT_EQ(copyDeviceInfo(sampleDevice(), nullptr, &err), HD_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(std::strstr(err.message, "struct_size 0 "), nullptr) << err.message;
}

TEST(SdkRuntimeTable, ArchNamesKeepTheModelsOrderAndEndInNull) {
  struct Model {
    const char *arch;
    int other;
  };
  std::vector<Model> models = {{"b", 1}, {"a", 2}};
  std::vector<const char *> names = archNames(models);
  ASSERT_EQ(names.size(), 3u);
  EXPECT_STREQ(names[0], "b");
  EXPECT_STREQ(names[1], "a");
  EXPECT_EQ(names[2], nullptr);
}

TEST(SdkRuntimeTable, ModelDescriptorListsTheModelsArchsFirstAsDefault) {
  struct Model {
    const char *arch;
  };
  std::vector<Model> models = {{"gen2"}, {"gen1"}};
  const hd_runtime_table table{};
  const hd_plugin_descriptor &d = modelDescriptor("mine", models, "libmine-compiler.so", table);
  EXPECT_EQ(d.struct_size, sizeof(hd_plugin_descriptor));
  EXPECT_EQ(d.abi_major, uint32_t(HADRON_PLUGIN_ABI_MAJOR));
  EXPECT_STREQ(d.name, "mine");
  EXPECT_STREQ(d.default_arch, "gen2");
  ASSERT_NE(d.archs, nullptr);
  EXPECT_STREQ(d.archs[0], "gen2");
  EXPECT_STREQ(d.archs[1], "gen1");
  EXPECT_EQ(d.archs[2], nullptr);
  EXPECT_STREQ(d.compiler_library, "libmine-compiler.so");
  EXPECT_EQ(d.runtime, &table);
}

} // namespace
