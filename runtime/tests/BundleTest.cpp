//===- BundleTest.cpp - Bundles: the format, its refusals, the round trip -===//
//
// The format directly (Bundle.h): a round trip, and each malformed bundle
// refused with a message that names the defect. Then through the C API with
// the real compiler parts: one IR compiled for the host and for the GPU
// targets that compile here without a device, written to a file, read back,
// its host entry selected and launched on random inputs; a bundle without an
// entry for the device names the targets it holds.
//
//===----------------------------------------------------------------------===//

#include "Bundle.h"

#include "hadron/runtime/Runtime.hpp"

#include "TestFiles.h"
#include "VectorAddCheck.h"

#include <gtest/gtest.h>

#include <cstdlib>

#include <sys/stat.h>
#include <unistd.h>

using namespace hadron::runtime;
namespace bundle = hadron::runtime::bundle;
namespace cache = hadron::runtime::cache;

using hadron::runtime::tests::checkVectorAdd;
using hadron::runtime::tests::readFile;
using hadron::runtime::tests::writeFile;

namespace {

std::vector<bundle::Entry> sampleEntries() {
  bundle::Entry gpu;
  gpu.plugin = "nvidia";
  gpu.arch = "sm_90a";
  gpu.kernels.push_back({"copy", {HD_ARG_PTR, HD_ARG_PTR, HD_ARG_I32}, 4, 32, 0, {}});
  gpu.binary = "ptx text";
  bundle::Entry host;
  host.plugin = "host";
  host.arch = "native";
  host.cpu = "some cpu";
  host.kernels.push_back({"copy", {HD_ARG_PTR, HD_ARG_PTR, HD_ARG_I32}, 4, 1, 0, {}});
  host.binary = "elf bytes";
  return {gpu, host};
}

/// Recomputes the trailing checksum, so that a test can damage one field
/// and have the bundle refused for that field, not for its checksum.
std::string reseal(std::string bytes) {
  bytes.resize(bytes.size() - bundle::kTrailerSize);
  cache::Sha256 h;
  h.update(bytes);
  cache::Digest sum = h.finish();
  return bytes + std::string(reinterpret_cast<const char *>(sum.data()), sum.size());
}

void putU64At(std::string &bytes, size_t at, uint64_t v) {
  for (int i = 0; i < 8; ++i)
    bytes[at + i] = static_cast<char>(v >> (8 * i));
}

std::string refusal(const std::string &bytes) {
  auto decoded = bundle::decode(bytes);
  EXPECT_FALSE(decoded);
  EXPECT_EQ(decoded.status().code(), HD_ERROR_INVALID_ARGUMENT);
  return decoded.status().message();
}

//===----------------------------------------------------------------------===//
// The format
//===----------------------------------------------------------------------===//

TEST(BundleFormat, RoundTrips) {
  std::string bytes = bundle::encode(sampleEntries());
  auto back = bundle::decode(bytes);
  ASSERT_TRUE(back) << back.status().message();
  ASSERT_EQ(back->size(), 2u);
  EXPECT_EQ((*back)[0].target(), "nvidia:sm_90a");
  EXPECT_EQ((*back)[0].cpu, "");
  EXPECT_EQ((*back)[0].binary, "ptx text");
  ASSERT_EQ((*back)[0].kernels.size(), 1u);
  EXPECT_EQ((*back)[0].kernels[0].name, "copy");
  EXPECT_EQ((*back)[0].kernels[0].warpSize, 32u);
  EXPECT_EQ((*back)[1].target(), "host:native");
  EXPECT_EQ((*back)[1].cpu, "some cpu");
  EXPECT_EQ((*back)[1].binary, "elf bytes");
  EXPECT_EQ((*back)[1].kernels[0].args,
            (std::vector<hd_arg_kind>{HD_ARG_PTR, HD_ARG_PTR, HD_ARG_I32}));
}

TEST(BundleFormat, EveryTruncationAndEveryFlippedByteIsRefused) {
  const std::string bytes = bundle::encode(sampleEntries());
  for (size_t n = 0; n < bytes.size(); ++n)
    EXPECT_FALSE(bundle::decode(bytes.substr(0, n))) << "prefix of " << n << " bytes";
  for (size_t i = 0; i < bytes.size(); ++i) {
    std::string flipped = bytes;
    flipped[i] ^= 0x10;
    EXPECT_FALSE(bundle::decode(flipped)) << "byte " << i;
  }
}

TEST(BundleFormat, EachDefectIsNamed) {
  const std::string good = bundle::encode(sampleEntries());
  EXPECT_NE(refusal("\x7f" "ELF and the rest of a shared object").find("not a Hadron bundle (bad magic)"),
            std::string::npos);

  std::string version = good;
  version[8] = 99;
  EXPECT_NE(refusal(reseal(version)).find("format version 99, this runtime reads 2"),
            std::string::npos);

  EXPECT_NE(refusal(good.substr(0, 20)).find("truncated: 20 bytes"), std::string::npos);
  EXPECT_NE(refusal(good.substr(0, good.size() - 5))
                .find("truncated: the header says " + std::to_string(good.size()) +
                      " bytes, there are " + std::to_string(good.size() - 5)),
            std::string::npos);
  EXPECT_NE(refusal(good + "xx").find("trailing bytes"), std::string::npos);

  std::string flipped = good;
  flipped[good.size() / 2] ^= 1;
  EXPECT_NE(refusal(flipped).find("checksum mismatch"), std::string::npos);

  // The table starts at 32: entry 0's offset, then its size.
  std::string past = good;
  putU64At(past, 32, good.size());
  EXPECT_NE(refusal(reseal(past)).find("entry 0 (offset " + std::to_string(good.size()) +
                                       ", size"),
            std::string::npos);
  EXPECT_NE(refusal(reseal(past)).find("lies outside the records"), std::string::npos);

  std::string intoTrailer = good;
  putU64At(intoTrailer, 32 + 16 + 8, good.size());
  EXPECT_NE(refusal(reseal(intoTrailer)).find("entry 1 (offset"), std::string::npos);

  std::string intoTable = good;
  putU64At(intoTable, 32, 8);
  EXPECT_NE(refusal(reseal(intoTable)).find("entry 0 (offset 8,"), std::string::npos);

  std::string huge = good;
  huge[12] = '\xff';
  huge[13] = '\xff';
  EXPECT_NE(refusal(reseal(huge)).find("entry table of 65535 entries overruns"),
            std::string::npos);

  // Entry 1's record shortened by one byte: its binary no longer fills it.
  std::string shorter = good;
  shorter[32 + 16 + 8] -= 1;
  EXPECT_NE(refusal(reseal(shorter)).find("entry 1: host:native: binary of 9 bytes, 8 bytes left"),
            std::string::npos);

  EXPECT_NE(refusal(bundle::encode({})).find("holds no entries"), std::string::npos);
  std::vector<bundle::Entry> twice = sampleEntries();
  twice[1] = twice[0];
  EXPECT_NE(refusal(bundle::encode(twice)).find("entry 1: nvidia:sm_90a appears twice"),
            std::string::npos);
}

TEST(BundleFormat, TheCApiSaysWhereAndWhy) {
  const std::string good = bundle::encode(sampleEntries());
  hd_bundle *b = nullptr;
  hd_error err;
  ASSERT_EQ(hd_bundle_open(good.data(), good.size(), &b, &err), HD_OK) << err.message;
  ASSERT_EQ(hd_bundle_entry_count(b), 2u);
  hd_bundle_entry e{};
  ASSERT_EQ(hd_bundle_get_entry(b, 1, &e, &err), HD_OK);
  EXPECT_STREQ(e.plugin, "host");
  EXPECT_STREQ(e.arch, "native");
  EXPECT_EQ(std::string(static_cast<const char *>(e.module->binary), e.module->binary_size),
            "elf bytes");
  EXPECT_STREQ(e.module->kernels[0].name, "copy");
  EXPECT_EQ(hd_bundle_get_entry(b, 2, &e, &err), HD_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(err.message).find("out of range (2 entries)"), std::string::npos);
  hd_bundle_destroy(b);

  const std::string damaged = good.substr(0, good.size() - 1);
  EXPECT_EQ(hd_bundle_open(damaged.data(), damaged.size(), &b, &err), HD_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(err.message).find("bundle: truncated"), std::string::npos) << err.message;

  char dir[] = "/tmp/hadron-bundle-XXXXXX";
  ASSERT_NE(::mkdtemp(dir), nullptr);
  const std::string path = std::string(dir) + "/k.hdb";
  writeFile(path, damaged);
  EXPECT_EQ(hd_bundle_open_file(path.c_str(), &b, &err), HD_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(err.message).find(path + ": truncated"), std::string::npos)
      << err.message;
  const std::string missing = std::string(dir) + "/none.hdb";
  EXPECT_EQ(hd_bundle_open_file(missing.c_str(), &b, &err), HD_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(err.message).find(missing), std::string::npos) << err.message;
  EXPECT_EQ(hd_bundle_open_file(dir, &b, &err), HD_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(std::string(err.message), std::string(dir) + ": not a regular file");

  ASSERT_EQ(hd_bundle_open(good.data(), good.size(), &b, &err), HD_OK) << err.message;
  EXPECT_EQ(hd_bundle_write_file(b, (missing + "/k.hdb").c_str(), &err),
            HD_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(std::string(err.message).rfind("cannot create " + missing + "/.k.hdb.", 0), 0u)
      << err.message;
  ASSERT_EQ(hd_bundle_write_file(b, path.c_str(), &err), HD_OK) << err.message;
  EXPECT_EQ(readFile(path), good);
  hd_bundle_destroy(b);
  ::unlink(path.c_str());
  ::rmdir(dir);
}

//===----------------------------------------------------------------------===//
// With the compiler parts
//===----------------------------------------------------------------------===//

#ifdef HADRON_TEST_HOST_RUNTIME_PART

class BundleTest : public ::testing::Test {
protected:
  void SetUp() override {
    char pattern[] = "/tmp/hadron-bundle-test-XXXXXX";
    ASSERT_NE(::mkdtemp(pattern), nullptr);
    root = pattern;
    ::setenv("HADRON_CACHE_DIR", (root + "/cache").c_str(), 1);
    // The build tree's plugins: host and whichever GPU targets are built.
    ::unsetenv("HADRON_PLUGIN_PATH");
    auto c = Context::create();
    ASSERT_TRUE(c.ok()) << c.status().message();
    ctx.emplace(std::move(c).value());
    // vector_add with the layout left to each target (#hd.coalesced), so
    // that one IR compiles for warps of 32 and 64 lanes and for the host.
    std::string ir = readFile(HADRON_SOURCE_DIR "/examples/vector_add.mlir");
    size_t at = ir.find("#blocked = ");
    ASSERT_NE(at, std::string::npos);
    portableIR = ir.substr(0, at) + "#blocked = #hd.coalesced" + ir.substr(ir.find('\n', at));
    for (const char *gpu : {"nvidia:sm_90a", "amd:gfx942", "intel:pvc"}) {
      std::string plugin = std::string(gpu).substr(0, std::string(gpu).find(':'));
      for (const hd_plugin_info &p : ctx->plugins())
        if (p.name == plugin && p.compiler_library)
          gpuTargets.push_back(gpu);
    }
  }
  void TearDown() override {
    ctx.reset();
    EXPECT_EQ(std::system(("rm -rf '" + root + "'").c_str()), 0);
    ::unsetenv("HADRON_CACHE_DIR");
  }

  static std::string joined(const std::vector<std::string> &targets,
                            const std::string &separator = ",") {
    std::string s;
    for (const std::string &t : targets)
      s += (s.empty() ? "" : separator) + t;
    return s;
  }

  std::string root, portableIR;
  std::vector<std::string> gpuTargets;
  std::optional<Context> ctx;
};

TEST_F(BundleTest, HostAndCompileOnlyTargetsRoundTripThroughAFile) {
  std::vector<std::string> targets = gpuTargets;
  targets.push_back("host");
  auto made = ctx->compileBundle(joined(targets), portableIR);
  ASSERT_TRUE(made.ok()) << made.status().message();
  const std::string path = root + "/k.hdb";
  ASSERT_TRUE(made->writeFile(path).ok());

  auto b = Bundle::openFile(path);
  ASSERT_TRUE(b.ok()) << b.status().message();
  std::vector<std::string> expected = gpuTargets;
  expected.push_back("host:native"); // a bare plugin names its default arch
  EXPECT_EQ(b->targets(), expected);
  EXPECT_EQ(b->bytes(), made->bytes());

  auto host = ctx->select("host");
  ASSERT_TRUE(host.ok());
  auto m = host->loadBundle(*b);
  ASSERT_TRUE(m.ok()) << m.status().message();
  checkVectorAdd(*host, *m);

  // The bundle's bytes given to hd_module_load_binary without signatures.
  const std::string bytes = b->bytes();
  hd_module *raw = nullptr;
  hd_error err;
  ASSERT_EQ(hd_module_load_binary(host->get(), bytes.data(), bytes.size(), nullptr, 0, &raw, &err),
            HD_OK)
      << err.message;
  checkVectorAdd(*host, Module(raw));
}

TEST_F(BundleTest, NoEntryForTheDeviceNamesTheTargetsPresent) {
  if (gpuTargets.empty())
    GTEST_SKIP() << "no GPU compiler part is built";
  auto made = ctx->compileBundle(joined(gpuTargets), portableIR);
  ASSERT_TRUE(made.ok()) << made.status().message();
  auto host = ctx->select("host");
  ASSERT_TRUE(host.ok());
  auto m = host->loadBundle(*made);
  ASSERT_FALSE(m.ok());
  EXPECT_EQ(m.status().code(), HD_ERROR_UNSUPPORTED);
  const std::string &msg = m.status().message();
  EXPECT_NE(msg.find("no entry of the bundle fits host:0 (plugin host, arch native); it holds " +
                     joined(gpuTargets, ", ")),
            std::string::npos)
      << msg;
}

// A "native" entry is this CPU's only; another entry of the plugin that the
// device accepts is taken instead, and the refusals are named when none is.
TEST_F(BundleTest, NativeEntryOfAnotherCpuIsPassedOver) {
  auto compiled = ctx->compile("host", portableIR);
  ASSERT_TRUE(compiled.ok()) << compiled.status().message();
  cache::Entry copied = cache::Entry::fromCompiled(compiled->module(), {});
  bundle::Entry elsewhere;
  elsewhere.plugin = "host";
  elsewhere.arch = "native";
  elsewhere.cpu = "a CPU that is not this one";
  elsewhere.kernels = copied.kernels;
  elsewhere.binary = copied.binary;
  auto host = ctx->select("host");
  ASSERT_TRUE(host.ok());

  auto only = Bundle::open(bundle::encode({elsewhere}));
  ASSERT_TRUE(only.ok()) << only.status().message();
  auto refused = host->loadBundle(*only);
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.status().message().find(
                "host:native: compiled for the CPU that built it, not this one"),
            std::string::npos)
      << refused.status().message();

  bundle::Entry generic = elsewhere;
  generic.arch = "x86-64";
  generic.cpu.clear();
  auto both = Bundle::open(bundle::encode({elsewhere, generic}));
  ASSERT_TRUE(both.ok()) << both.status().message();
  auto m = host->loadBundle(*both);
  ASSERT_TRUE(m.ok()) << m.status().message();
  checkVectorAdd(*host, *m);
}

TEST_F(BundleTest, BadTargetListsAreRefused) {
  for (const char *targets : {"", "host,", "Nvidia", "host:", "host,host"}) {
    SCOPED_TRACE(targets);
    auto made = ctx->compileBundle(targets, portableIR);
    ASSERT_FALSE(made.ok());
    EXPECT_EQ(made.status().code(), HD_ERROR_INVALID_ARGUMENT) << made.status().message();
  }
  auto unknown = ctx->compileBundle("host,nosuchplugin", portableIR);
  ASSERT_FALSE(unknown.ok());
  EXPECT_NE(unknown.status().message().find("nosuchplugin: no plugin 'nosuchplugin'"),
            std::string::npos)
      << unknown.status().message();
}

#endif // HADRON_TEST_HOST_RUNTIME_PART

} // namespace
