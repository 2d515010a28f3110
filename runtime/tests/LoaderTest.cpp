//===- LoaderTest.cpp - Plugin loading, the load report and selection -----===//
//
// HADRON_PLUGIN_PATH points at a directory of test plugins: a good one
// ("fake", two devices in host memory), one built for the next ABI major, one
// without the entry symbol, one whose driver is "missing", and a runtime part
// named like a compiler part. The install directory adds the host plugin.
//
//===----------------------------------------------------------------------===//

#include "hadron/runtime/Runtime.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <climits>
#include <cstdlib>
#include <optional>
#include <string>
#include <unistd.h>

using namespace hadron::runtime;

namespace {

bool endsWith(const std::string &s, const std::string &suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

const LoadRecord *findRecord(const std::vector<LoadRecord> &report, const std::string &file) {
  for (const LoadRecord &r : report)
    if (endsWith(r.path, "/" + file))
      return &r;
  return nullptr;
}

std::string describe(const std::vector<LoadRecord> &report) {
  std::string s;
  for (const LoadRecord &r : report)
    s += "\n  " + r.path + " [" + r.plugin + "] " + hd_status_name(r.code) + ": " + r.reason;
  return s;
}

class LoaderTest : public ::testing::Test {
protected:
  void SetUp() override {
    ::setenv("HADRON_PLUGIN_PATH", HADRON_TEST_PLUGIN_DIR, 1);
    ::unsetenv("HADRON_DEVICE");
    auto created = Context::create();
    ASSERT_TRUE(created.ok()) << created.status().message();
    ctx.emplace(std::move(created).value());
  }
  std::optional<Context> ctx;
};

TEST_F(LoaderTest, GoodPluginsAndTheirDevicesAreListed) {
  std::vector<std::string> names;
  for (const Device &d : ctx->devices())
    names.push_back(d.name());
  EXPECT_NE(std::find(names.begin(), names.end(), "fake:0"), names.end());
  EXPECT_NE(std::find(names.begin(), names.end(), "fake:1"), names.end());
  EXPECT_NE(std::find(names.begin(), names.end(), "host:0"), names.end());

  bool sawFake = false;
  for (const hd_plugin_info &p : ctx->plugins()) {
    if (std::string(p.name) != "fake")
      continue;
    sawFake = true;
    EXPECT_EQ(p.device_count, 2u);
    EXPECT_EQ(p.init_status, HD_OK);
    EXPECT_STREQ(p.default_arch, "fake1");
    ASSERT_NE(p.archs[0], nullptr);
    EXPECT_STREQ(p.archs[0], "fake1");
    EXPECT_EQ(p.archs[1], nullptr);
    EXPECT_TRUE(endsWith(p.path, "/libhadron-target-fake.so")) << p.path;
    EXPECT_TRUE(endsWith(p.compiler_library, "/libhadron-target-fake-compiler.so"));
  }
  EXPECT_TRUE(sawFake);

  auto fake1 = ctx->select("fake:1");
  ASSERT_TRUE(fake1.ok()) << fake1.status().message();
  EXPECT_EQ(fake1->info().shared_bytes_per_cta, 4096u);
  EXPECT_STREQ(fake1->info().name, "fake device 1");
}

TEST_F(LoaderTest, EveryFailureIsInTheReport) {
  std::vector<LoadRecord> report = ctx->loadReport();

  const LoadRecord *abi = findRecord(report, "libhadron-target-fakeabi.so");
  ASSERT_NE(abi, nullptr) << describe(report);
  EXPECT_EQ(abi->code, HD_ERROR_UNSUPPORTED);
  std::string expected = "built for plugin ABI " + std::to_string(HADRON_PLUGIN_ABI_MAJOR + 1) +
                         ".0, this runtime speaks " + std::to_string(HADRON_PLUGIN_ABI_MAJOR) +
                         ".x";
  EXPECT_EQ(abi->reason, expected);

  const LoadRecord *noEntry = findRecord(report, "libhadron-target-fakenoentry.so");
  ASSERT_NE(noEntry, nullptr) << describe(report);
  EXPECT_NE(noEntry->reason.find("no symbol 'hadron_plugin_entry'"), std::string::npos)
      << noEntry->reason;

  const LoadRecord *driver = findRecord(report, "libhadron-target-fakedriver.so");
  ASSERT_NE(driver, nullptr) << describe(report);
  EXPECT_EQ(driver->plugin, "fakedriver");
  EXPECT_EQ(driver->code, HD_ERROR_DRIVER_MISSING);
  EXPECT_EQ(driver->reason, "fake-driver: libfake.so.1 not found");

  // Not a failure, and not loaded: compiler parts are never runtime parts.
  EXPECT_EQ(findRecord(report, "libhadron-target-fakeskip-compiler.so"), nullptr);
  for (const hd_plugin_info &p : ctx->plugins())
    EXPECT_STRNE(p.name, "fakeskip");
  // The good plugin has no record.
  EXPECT_EQ(findRecord(report, "libhadron-target-fake.so"), nullptr) << describe(report);
}

TEST_F(LoaderTest, PluginWithMissingDriverIsListedWithoutDevices) {
  bool saw = false;
  for (const hd_plugin_info &p : ctx->plugins()) {
    if (std::string(p.name) == "fakedriver") {
      saw = true;
      EXPECT_EQ(p.init_status, HD_ERROR_DRIVER_MISSING);
      EXPECT_EQ(p.device_count, 0u);
    }
  }
  EXPECT_TRUE(saw);
}

TEST_F(LoaderTest, NoMatchSaysWhyEachBackendIsMissing) {
  auto driver = ctx->select("fakedriver");
  ASSERT_FALSE(driver.ok());
  EXPECT_EQ(driver.status().code(), HD_ERROR_NO_DEVICE);
  EXPECT_NE(driver.status().message().find("fakedriver: fake-driver: libfake.so.1 not found"),
            std::string::npos)
      << driver.status().message();

  auto abi = ctx->select("fakeabi;novendor:3");
  ASSERT_FALSE(abi.ok());
  const std::string &msg = abi.status().message();
  EXPECT_NE(msg.find("fakeabi: built for plugin ABI"), std::string::npos) << msg;
  EXPECT_NE(msg.find("novendor: no plugin named 'novendor' was found (searched: " HADRON_TEST_PLUGIN_DIR),
            std::string::npos)
      << msg;
  EXPECT_NE(msg.find("devices present: "), std::string::npos) << msg;
  EXPECT_NE(msg.find("fake:1"), std::string::npos) << msg;

  auto index = ctx->select("fake:2");
  ASSERT_FALSE(index.ok());
  EXPECT_NE(index.status().message().find("fake: has 2 device(s), fake:0..fake:1"),
            std::string::npos)
      << index.status().message();
}

TEST_F(LoaderTest, MalformedSelectorIsAnInvalidArgumentWithTheGrammar) {
  auto bad = ctx->select("fake:;host");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().code(), HD_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(bad.status().message().find("grammar"), std::string::npos);
}

TEST_F(LoaderTest, EmptySelectorReadsHadronDevice) {
  ::setenv("HADRON_DEVICE", "fake:1", 1);
  auto fromEnv = ctx->select("");
  ASSERT_TRUE(fromEnv.ok()) << fromEnv.status().message();
  EXPECT_EQ(fromEnv->name(), "fake:1");
  hd_device *d = nullptr;
  ASSERT_EQ(hd_context_select(ctx->get(), nullptr, &d, nullptr), HD_OK);
  EXPECT_STREQ(hd_device_name(d), "fake:1");

  ::setenv("HADRON_DEVICE", "", 1);
  auto fallback = ctx->select("");
  ASSERT_TRUE(fallback.ok());
  // `auto` ranks any non-host plugin above the host.
  EXPECT_EQ(fallback->name(), "fake:0");
  ::unsetenv("HADRON_DEVICE");
}

TEST_F(LoaderTest, LaunchChecksAgainstTheDevice) {
  auto d0 = ctx->select("fake:0");
  auto d1 = ctx->select("fake:1");
  ASSERT_TRUE(d0.ok() && d1.ok());
  auto other = d0->alloc(256);
  auto mine = d1->alloc(256);
  ASSERT_TRUE(other.ok() && mine.ok());

  const hd_arg_kind kinds[] = {HD_ARG_PTR};
  hd_kernel_signature sigs[] = {{"k", 1, kinds, 4, 32, 1024, nullptr}, {"wide", 1, kinds, 16, 32, 0, nullptr}};
  const char binary[] = "fake binary";
  auto module = d1->loadBinary(binary, sizeof(binary), {sigs[0], sigs[1]});
  ASSERT_TRUE(module.ok()) << module.status().message();
  auto k = module->kernel("k");
  ASSERT_TRUE(k.ok());

  EXPECT_TRUE(k->launch({1, 1, 1}, {mine->arg()}).ok());
  Status foreign = k->launch({1, 1, 1}, {other->arg()});
  EXPECT_EQ(foreign.code(), HD_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(foreign.message().find("is not inside a live buffer of fake:1"), std::string::npos)
      << foreign.message();
  // Inside the buffer is fine, one past its end too, further is not.
  EXPECT_TRUE(k->launch({1, 1, 1}, {arg::ptr(mine->devicePtr() + 100)}).ok());
  EXPECT_TRUE(k->launch({1, 1, 1}, {arg::ptr(mine->devicePtr() + 256)}).ok());

  Status shared = k->launch({1, 1, 1}, {mine->arg()}, 4096);
  EXPECT_NE(shared.message().find("k needs 1024 static + 4096 dynamic shared bytes, fake:1 allows 4096"),
            std::string::npos)
      << shared.message();
  auto wide = module->kernel("wide");
  ASSERT_TRUE(wide.ok());
  Status threads = wide->launch({1, 1, 1}, {mine->arg()});
  EXPECT_NE(threads.message().find("16 warps of 32 = 512 threads per CTA, fake:1 allows 256"),
            std::string::npos)
      << threads.message();
}

TEST_F(LoaderTest, MissingCompilerPartIsAClearError) {
  auto d = ctx->select("fake");
  ASSERT_TRUE(d.ok());
  auto m = d->loadIR("module {}");
  ASSERT_FALSE(m.ok());
  EXPECT_EQ(m.status().code(), HD_ERROR_UNSUPPORTED);
  EXPECT_NE(m.status().message().find("compiler part of plugin 'fake' not found"),
            std::string::npos)
      << m.status().message();
  EXPECT_NE(m.status().message().find("libhadron-target-fake-compiler.so"), std::string::npos);
}

TEST_F(LoaderTest, IrIsCompiledByTheCompilerPartAndLoaded) {
  auto d = ctx->select("fakejit:1");
  ASSERT_TRUE(d.ok()) << d.status().message();
  // No arch given: the device's own ("fake1") is passed to the compiler.
  auto m = d->loadIR("module {}");
  ASSERT_TRUE(m.ok()) << m.status().message();
  auto k = m->kernel("jit_fake1");
  ASSERT_TRUE(k.ok()) << k.status().message();
  EXPECT_EQ(k->signature().num_args, 1u);
  EXPECT_EQ(k->signature().args[0], HD_ARG_PTR);
  auto buf = d->alloc(16);
  ASSERT_TRUE(buf.ok());
  EXPECT_TRUE(k->launch({2, 1, 1}, {buf->arg()}).ok());

  hd_compile_options options = {sizeof(hd_compile_options), "other-arch", 2, nullptr};
  auto withArch = d->loadIR("module {}", &options);
  ASSERT_TRUE(withArch.ok()) << withArch.status().message();
  EXPECT_TRUE(withArch->kernel("jit_other-arch").ok());

  auto bad = d->loadIR("error here");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().code(), HD_ERROR_COMPILE);
  EXPECT_EQ(bad.status().message(), "fakejit:1: compile failed: <ir>:1: expected an operation");
}

TEST_F(LoaderTest, CompilesWithoutADeviceForThePluginsDefaultArch) {
  hd_compiled *compiled = nullptr;
  hd_error err;
  ASSERT_EQ(hd_context_compile(ctx->get(), "fakejit", "module {}", 9, nullptr, &compiled, &err),
            HD_OK)
      << err.message;
  const hd_compiled_module *result = hd_compiled_get(compiled);
  ASSERT_NE(result, nullptr);
  ASSERT_EQ(result->num_kernels, 1u);
  EXPECT_STREQ(result->kernels[0].name, "jit_fake1");
  hd_compiled_destroy(compiled);

  EXPECT_EQ(hd_context_compile(ctx->get(), "fakejit", "error here", 10, nullptr, &compiled, &err),
            HD_ERROR_COMPILE);
  EXPECT_STREQ(err.message, "fakejit: compile failed: <ir>:1: expected an operation");
  EXPECT_EQ(compiled, nullptr);
}

TEST_F(LoaderTest, MatrixInstructionsComeFromTheCompilerPart) {
  auto texts = ctx->matrixInstructions("fakejit");
  ASSERT_TRUE(texts.ok()) << texts.status().message();
  EXPECT_EQ(*texts, (std::vector<std::string>{"#fake.mma<a>", "#fake.mma<b>"}));

  // The context owns the answer: asking again hands out the same strings.
  uint32_t n1 = 0, n2 = 0;
  const char *const *first = nullptr, *const *second = nullptr;
  hd_error err;
  ASSERT_EQ(hd_context_matrix_instructions(ctx->get(), "fakejit", "fake1", &n1, &first, &err),
            HD_OK)
      << err.message;
  ASSERT_EQ(hd_context_matrix_instructions(ctx->get(), "fakejit", nullptr, &n2, &second, &err),
            HD_OK);
  EXPECT_EQ(n1, 2u);
  EXPECT_EQ(n2, 2u);
  EXPECT_EQ(first, second);

  auto badArch = ctx->matrixInstructions("fakejit", "fake9");
  ASSERT_FALSE(badArch.ok());
  EXPECT_EQ(badArch.status().code(), HD_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(badArch.status().message(),
            "plugin 'fakejit' does not compile for arch 'fake9'; it lists: fake1");
  auto noCompiler = ctx->matrixInstructions("fake");
  ASSERT_FALSE(noCompiler.ok());
  EXPECT_EQ(noCompiler.status().code(), HD_ERROR_UNSUPPORTED);
  EXPECT_NE(noCompiler.status().message().find("compiler part of plugin 'fake' not found"),
            std::string::npos)
      << noCompiler.status().message();
  auto noPlugin = ctx->matrixInstructions("nosuch");
  ASSERT_FALSE(noPlugin.ok());
  EXPECT_EQ(noPlugin.status().code(), HD_ERROR_UNSUPPORTED);
  EXPECT_EQ(hd_context_matrix_instructions(ctx->get(), "fakejit", nullptr, nullptr, &first, &err),
            HD_ERROR_INVALID_ARGUMENT);
}

// A compiler part built against ABI 1.1 has a table that ends at `release`.
TEST_F(LoaderTest, CompilerPartWithAnOlderMinorsShorterTableLoads) {
  auto d = ctx->select("fakeold");
  ASSERT_TRUE(d.ok()) << d.status().message();
  auto m = d->loadIR("module { old }");
  ASSERT_TRUE(m.ok()) << m.status().message();
  EXPECT_TRUE(m->kernel("jit_fake1").ok());
  auto texts = ctx->matrixInstructions("fakeold");
  ASSERT_TRUE(texts.ok()) << texts.status().message();
  EXPECT_TRUE(texts->empty());
}

TEST_F(LoaderTest, CompilingForAPluginThatFailedToLoadGivesTheReason) {
  hd_compiled *compiled = nullptr;
  hd_error err;
  EXPECT_EQ(hd_context_compile(ctx->get(), "fakeabi", "module {}", 9, nullptr, &compiled, &err),
            HD_ERROR_UNSUPPORTED);
  const std::string message = err.message;
  EXPECT_NE(message.find("no plugin 'fakeabi' is loaded"), std::string::npos) << message;
  EXPECT_NE(message.find("libhadron-target-fakeabi.so: built for plugin ABI"), std::string::npos)
      << message;
}

TEST(LoaderSearchPath, MissingDirectoriesAreSkippedAndDuplicatesLoadedOnce) {
  std::string path = std::string("/nonexistent/hadron:") + HADRON_TEST_PLUGIN_DIR + ":" +
                     HADRON_TEST_PLUGIN_DIR + "/.";
  ::setenv("HADRON_PLUGIN_PATH", path.c_str(), 1);
  auto ctx = Context::create();
  ASSERT_TRUE(ctx.ok());
  std::vector<LoadRecord> report = ctx->loadReport();
  for (const LoadRecord &r : report)
    EXPECT_EQ(r.path.find("/nonexistent"), std::string::npos) << describe(report);
  unsigned fakes = 0;
  for (const hd_plugin_info &p : ctx->plugins())
    fakes += std::string(p.name) == "fake";
  EXPECT_EQ(fakes, 1u);
  EXPECT_EQ(hd_context_search_dir_count(ctx->get()), 4u);
  EXPECT_STREQ(hd_context_search_dir(ctx->get(), 0), "/nonexistent/hadron");
}

TEST(LoaderSearchPath, TheCurrentDirectoryIsNeverSearched) {
  char previous[PATH_MAX];
  ASSERT_NE(::getcwd(previous, sizeof(previous)), nullptr);
  ASSERT_EQ(::chdir(HADRON_TEST_CWD_PLUGIN_DIR), 0);
  // Empty entries would mean "." to a shell.
  ::setenv("HADRON_PLUGIN_PATH", "::", 1);
  auto ctx = Context::create();
  ASSERT_EQ(::chdir(previous), 0);
  ASSERT_TRUE(ctx.ok());
  for (const hd_plugin_info &p : ctx->plugins())
    EXPECT_STRNE(p.name, "fakecwd");
  for (const LoadRecord &r : ctx->loadReport())
    EXPECT_EQ(r.path.find("fakecwd"), std::string::npos) << r.path;
  for (uint32_t i = 0; i < hd_context_search_dir_count(ctx->get()); ++i)
    EXPECT_STRNE(hd_context_search_dir(ctx->get(), i), ".");
  // The install directory is still searched.
  auto host = ctx->select("host");
  EXPECT_TRUE(host.ok()) << host.status().message();

  // The plugin itself is fine: found when its directory is on the path.
  ::setenv("HADRON_PLUGIN_PATH", HADRON_TEST_CWD_PLUGIN_DIR, 1);
  auto withPath = Context::create();
  ASSERT_TRUE(withPath.ok());
  EXPECT_TRUE(withPath->select("fakecwd").ok());
}

TEST(LoaderCApi, ArgumentsAreChecked) {
  hd_error err;
  EXPECT_EQ(hd_context_create(nullptr, &err), HD_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(err.message).find("out is NULL"), std::string::npos);
  ::unsetenv("HADRON_PLUGIN_PATH");
  hd_context *ctx = nullptr;
  ASSERT_EQ(hd_context_create(&ctx, &err), HD_OK);
  EXPECT_EQ(err.code, HD_OK);
  hd_load_record r;
  EXPECT_EQ(hd_context_load_report_get(ctx, 1000, &r, &err), HD_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(err.message).find("out of range"), std::string::npos);
  hd_device *d;
  EXPECT_EQ(hd_context_get_device(ctx, 1000, &d, &err), HD_ERROR_INVALID_ARGUMENT);
  hd_context_destroy(ctx);
  hd_context_destroy(nullptr);
}

} // namespace
