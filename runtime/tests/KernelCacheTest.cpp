//===- KernelCacheTest.cpp - The on-disk kernel cache ---------------------===//
//
// The hash and the entry format (KernelCache.h) directly, then the cache
// through the C API: a miss writes an entry, a hit needs no compiler part (a
// context whose plugin directory holds only the runtime part still loads the
// kernel), every kind of damaged entry is recompiled and overwritten, an
// unwritable directory or HADRON_CACHE_DIR=off only means no caching, stage
// dumps bypass the cache. The fakejit plugin (runtime/tests/plugins) is the
// compiler for most of them; with the real host compiler part, a kernel
// compiled ahead of time runs where only the runtime part is.
//
// Each test works in its own temporary directory and sets HADRON_CACHE_DIR
// and HADRON_PLUGIN_PATH itself.
//
//===----------------------------------------------------------------------===//

#include "KernelCache.h"

#include "hadron/runtime/Runtime.hpp"

#include "TestFiles.h"
#include "VectorAddCheck.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <thread>

#include <sys/stat.h>
#include <unistd.h>

using namespace hadron::runtime;
namespace cache = hadron::runtime::cache;

using hadron::runtime::tests::checkVectorAdd;
using hadron::runtime::tests::readFile;
using hadron::runtime::tests::writeFile;

namespace {

bool exists(const std::string &path) {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0;
}

cache::Digest sha(std::string_view s) {
  cache::Sha256 h;
  h.update(s);
  return h.finish();
}

// Recomputes the trailing checksum, so that a test can damage one field and
// have the entry refused for that field, not for its checksum.
std::string reseal(std::string bytes) {
  bytes.resize(bytes.size() - 32);
  cache::Digest sum = sha(bytes);
  return bytes + std::string(reinterpret_cast<const char *>(sum.data()), sum.size());
}

void putU32At(std::string &bytes, size_t at, uint32_t v) {
  for (int i = 0; i < 4; ++i)
    bytes[at + i] = static_cast<char>(v >> (8 * i));
}

cache::Entry sampleEntry() {
  cache::Entry e;
  e.compilerIdentity.fill(7);
  e.binary = "binary bytes";
  e.kernels.push_back({"first", {HD_ARG_PTR, HD_ARG_I32}, 4, 32, 1024});
  e.kernels.push_back({"second", {}, 1, 1, 0});
  e.assembly = "asm text";
  return e;
}

//===----------------------------------------------------------------------===//
// The hash, the key and the format
//===----------------------------------------------------------------------===//

TEST(KernelCacheHash, Sha256KnownAnswers) {
  EXPECT_EQ(cache::toHex(sha("")),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(cache::toHex(sha("abc")),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(cache::toHex(sha("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  EXPECT_EQ(cache::toHex(sha(std::string(1000000, 'a'))),
            "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST(KernelCacheHash, UpdatesInPiecesEqualOneUpdate) {
  std::string text;
  for (int i = 0; i < 300; ++i)
    text += static_cast<char>(i * 37);
  for (size_t piece : {1u, 3u, 63u, 64u, 65u, 200u}) {
    cache::Sha256 h;
    for (size_t at = 0; at < text.size(); at += piece)
      h.update(std::string_view(text).substr(at, piece));
    EXPECT_EQ(h.finish(), sha(text)) << "pieces of " << piece;
  }
}

TEST(KernelCacheKey, EveryInputChangesTheKey) {
  cache::KeyInputs base{"nvidia", 1, 1, "sm_90a", 3, "module {}"};
  cache::Digest k = cache::computeKey(base);
  EXPECT_EQ(k, cache::computeKey(base));
  auto differs = [&](cache::KeyInputs changed, const char *what) {
    EXPECT_NE(cache::computeKey(changed), k) << what;
  };
  cache::KeyInputs c = base;
  c.plugin = "amd";
  differs(c, "plugin");
  c = base;
  c.abiMajor = 2;
  differs(c, "abi major");
  c = base;
  c.abiMinor = 2;
  differs(c, "abi minor");
  c = base;
  c.arch = "sm_100a";
  differs(c, "arch");
  c = base;
  c.optLevel = 2;
  differs(c, "opt level");
  c = base;
  c.ir = "module { }";
  differs(c, "ir");
  // Fields are length-prefixed: moving a byte from one to the next changes
  // the key.
  cache::KeyInputs a{"ab", 1, 1, "c", 3, "x"}, b{"a", 1, 1, "bc", 3, "x"};
  EXPECT_NE(cache::computeKey(a), cache::computeKey(b));
}

TEST(KernelCacheFormat, RoundTrips) {
  cache::Digest key = sha("key");
  cache::Entry e = sampleEntry();
  auto back = cache::decode(key, cache::encode(key, e));
  ASSERT_TRUE(back) << back.status().message();
  EXPECT_EQ(back->compilerIdentity, e.compilerIdentity);
  EXPECT_EQ(back->binary, e.binary);
  ASSERT_EQ(back->kernels.size(), 2u);
  EXPECT_EQ(back->kernels[0].name, "first");
  EXPECT_EQ(back->kernels[0].args, (std::vector<hd_arg_kind>{HD_ARG_PTR, HD_ARG_I32}));
  EXPECT_EQ(back->kernels[0].numWarps, 4u);
  EXPECT_EQ(back->kernels[0].warpSize, 32u);
  EXPECT_EQ(back->kernels[0].staticSharedBytes, 1024u);
  EXPECT_EQ(back->kernels[1].name, "second");
  EXPECT_TRUE(back->kernels[1].args.empty());
  EXPECT_EQ(back->assembly, std::optional<std::string>("asm text"));
  EXPECT_FALSE(back->llvmIR.has_value());

  cache::CompiledView view(std::move(*back));
  const hd_compiled_module &m = view.module();
  EXPECT_EQ(std::string(static_cast<const char *>(m.binary), m.binary_size), "binary bytes");
  ASSERT_EQ(m.num_kernels, 2u);
  EXPECT_STREQ(m.kernels[0].name, "first");
  EXPECT_EQ(m.kernels[0].num_args, 2u);
  EXPECT_EQ(m.kernels[0].args[1], HD_ARG_I32);
  EXPECT_STREQ(m.assembly, "asm text");
  EXPECT_EQ(m.llvm_ir, nullptr);
}

TEST(KernelCacheFormat, EveryTruncationAndEveryFlippedByteIsRefused) {
  cache::Digest key = sha("key");
  std::string bytes = cache::encode(key, sampleEntry());
  for (size_t n = 0; n < bytes.size(); ++n)
    EXPECT_FALSE(cache::decode(key, std::string_view(bytes).substr(0, n)))
        << "prefix of " << n << " bytes";
  for (size_t i = 0; i < bytes.size(); ++i) {
    std::string flipped = bytes;
    flipped[i] ^= 0x20;
    EXPECT_FALSE(cache::decode(key, flipped)) << "byte " << i;
  }
}

TEST(KernelCacheFormat, RefusalsSayWhy) {
  cache::Digest key = sha("key");
  const std::string good = cache::encode(key, sampleEntry());
  auto why = [&](const std::string &bytes, const cache::Digest &k) {
    auto decoded = cache::decode(k, bytes);
    EXPECT_FALSE(decoded);
    EXPECT_EQ(decoded.status().code(), HD_ERROR_INVALID_ARGUMENT);
    return decoded.status().message();
  };
  EXPECT_NE(why("ELF garbage that is no entry", key).find("bad magic"), std::string::npos);

  std::string version = good;
  putU32At(version, 8, 99);
  EXPECT_NE(why(reseal(version), key)
                .find("format version 99, this runtime reads " +
                      std::to_string(cache::kFormatVersion)),
            std::string::npos);

  EXPECT_NE(why(good.substr(0, good.size() - 1), key).find("checksum mismatch"),
            std::string::npos);
  EXPECT_NE(why(good, sha("other key")).find("another key"), std::string::npos);

  // Offsets: magic 8, version 4, reserved 4, key 32, identity 32, then the
  // binary size at 80.
  std::string sizes = good;
  putU32At(sizes, 80, 1000);
  EXPECT_NE(why(reseal(sizes), key).find("sizes do not add up: binary 1000"), std::string::npos);

  // Kernel count at 104; first kernel: name size at 108, "first", then the
  // argument count at 117.
  std::string args = good;
  putU32At(args, 117, 0x7fffffff);
  EXPECT_NE(why(reseal(args), key).find("argument count 2147483647 overruns"), std::string::npos);

  std::string name = good;
  putU32At(name, 108, 5000);
  EXPECT_NE(why(reseal(name), key).find("a name of 5000 bytes overruns"), std::string::npos);

  std::string kind = good;
  putU32At(kind, 121, 77);
  EXPECT_NE(why(reseal(kind), key).find("unknown argument kind 77"), std::string::npos);

  std::string kernels = good;
  putU32At(kernels, 104, 0xffffffff);
  EXPECT_NE(why(reseal(kernels), key).find("overrun"), std::string::npos);
}

TEST(KernelCacheDirectory, FollowsTheEnvironment) {
  ::setenv("HADRON_CACHE_DIR", "/some/dir", 1);
  EXPECT_EQ(cache::directory(), "/some/dir");
  ::setenv("HADRON_CACHE_DIR", "off", 1);
  EXPECT_EQ(cache::directory(), "");
  ::setenv("HADRON_CACHE_DIR", "", 1);
  ::setenv("XDG_CACHE_HOME", "/xdg", 1);
  EXPECT_EQ(cache::directory(), "/xdg/hadron");
  ::unsetenv("HADRON_CACHE_DIR");
  ::unsetenv("XDG_CACHE_HOME");
  ::setenv("HOME", "/home/someone", 1);
  EXPECT_EQ(cache::directory(), "/home/someone/.cache/hadron");
  ::unsetenv("HOME");
  EXPECT_EQ(cache::directory(), "");
}

//===----------------------------------------------------------------------===//
// Through the runtime
//===----------------------------------------------------------------------===//

class KernelCacheTest : public ::testing::Test {
protected:
  void SetUp() override {
    char pattern[] = "/tmp/hadron-cache-test-XXXXXX";
    ASSERT_NE(::mkdtemp(pattern), nullptr);
    root = pattern;
    cacheDir = root + "/cache";
    ::setenv("HADRON_CACHE_DIR", cacheDir.c_str(), 1);
    // The fakejit runtime part alone: a plugin whose compiler part is absent.
    runtimeOnly = root + "/runtime-only";
    ASSERT_EQ(::mkdir(runtimeOnly.c_str(), 0755), 0);
    copy(HADRON_TEST_PLUGIN_DIR "/libhadron-target-fakejit.so",
         runtimeOnly + "/libhadron-target-fakejit.so");
  }
  void TearDown() override {
    ::chmod(cacheDir.c_str(), 0755);
    std::string cmd = "rm -rf '" + root + "'";
    EXPECT_EQ(std::system(cmd.c_str()), 0);
    ::unsetenv("HADRON_CACHE_DIR");
  }

  static void copy(const std::string &from, const std::string &to) {
    std::string bytes = readFile(from);
    ASSERT_FALSE(bytes.empty()) << from;
    writeFile(to, bytes);
  }

  /// A context that loads the plugins of `pluginDir` (before the install's).
  static Context contextFor(const std::string &pluginDir) {
    ::setenv("HADRON_PLUGIN_PATH", pluginDir.c_str(), 1);
    auto ctx = Context::create();
    EXPECT_TRUE(ctx.ok()) << ctx.status().message();
    return std::move(ctx).value();
  }

  /// The key hd_module_load_ir gives `ir` on a fakejit device (arch fake1,
  /// opt level 3 unless options say otherwise).
  static cache::Digest fakeKey(const std::string &ir, const char *arch = "fake1",
                               uint32_t opt = 3) {
    return cache::computeKey(
        {"fakejit", HADRON_PLUGIN_ABI_MAJOR, 0, arch, opt, std::string_view(ir)});
  }

  std::string entryOf(const cache::Digest &key) const { return cache::entryPath(cacheDir, key); }

  /// Writes an entry for `key` whose one kernel is called `kernel`, as if a
  /// compiler build other than this one (identity 0x55...) had made it.
  void plantForeignBuildEntry(const cache::Digest &key, const std::string &kernel) {
    cache::Entry e;
    e.compilerIdentity.fill(0x55);
    e.binary = "stale";
    e.kernels.push_back({kernel, {HD_ARG_PTR}, 1, 32, 0});
    Status stored = cache::store(cacheDir, key, e);
    ASSERT_TRUE(stored) << stored.message();
  }

  std::string root, cacheDir, runtimeOnly;
};

TEST_F(KernelCacheTest, MissCompilesAndWritesTheEntry) {
  Context ctx = contextFor(HADRON_TEST_PLUGIN_DIR);
  auto d = ctx.select("fakejit");
  ASSERT_TRUE(d.ok()) << d.status().message();
  const std::string ir = "module { miss }";
  ASSERT_FALSE(exists(entryOf(fakeKey(ir))));
  auto m = d->loadIR(ir);
  ASSERT_TRUE(m.ok()) << m.status().message();

  auto loaded = cache::load(cacheDir, fakeKey(ir));
  ASSERT_TRUE(loaded) << loaded.status().message();
  const std::optional<cache::Entry> &entry = *loaded;
  ASSERT_TRUE(entry);
  EXPECT_EQ(entry->binary, ir);
  ASSERT_EQ(entry->kernels.size(), 1u);
  EXPECT_EQ(entry->kernels[0].name, "jit_fake1");
  EXPECT_EQ(entry->kernels[0].args, std::vector<hd_arg_kind>{HD_ARG_PTR});
  EXPECT_EQ(entry->kernels[0].warpSize, 32u);
  EXPECT_FALSE(cache::isZero(entry->compilerIdentity));
  // No temporary file is left behind.
  EXPECT_EQ(std::system(("test $(ls -A '" + cacheDir + "/kernels' | wc -l) -eq 1").c_str()), 0);
}

// What the cache creates is the user's alone: directories 0700 (the XDG
// spec's rule for the cache home), entries 0600.
TEST_F(KernelCacheTest, WhatItCreatesIsTheUsersAlone) {
  const mode_t saved = ::umask(0);
  const std::string nested = root + "/a/b/cache";
  ::setenv("HADRON_CACHE_DIR", nested.c_str(), 1);
  Context ctx = contextFor(HADRON_TEST_PLUGIN_DIR);
  auto d = ctx.select("fakejit");
  ASSERT_TRUE(d.ok());
  ASSERT_TRUE(d->loadIR("module { modes }").ok());
  // The XDG default, whose parent does not exist yet either.
  ::unsetenv("HADRON_CACHE_DIR");
  ::setenv("XDG_CACHE_HOME", (root + "/xdg").c_str(), 1);
  ASSERT_TRUE(d->loadIR("module { xdg modes }").ok());
  ::unsetenv("XDG_CACHE_HOME");
  ::umask(saved);

  auto mode = [](const std::string &path) {
    struct stat st;
    EXPECT_EQ(::stat(path.c_str(), &st), 0) << path;
    return st.st_mode & 07777;
  };
  for (const std::string &dir : {root + "/a", root + "/a/b", nested, nested + "/kernels",
                                 root + "/xdg", root + "/xdg/hadron", root + "/xdg/hadron/kernels"})
    EXPECT_EQ(mode(dir), 0700u) << dir;
  EXPECT_EQ(mode(cache::entryPath(nested, fakeKey("module { modes }"))), 0600u);
  // A directory that exists keeps its mode.
  EXPECT_EQ(mode(root), 0700u); // mkdtemp's
}

// The context keeps what it loaded: a second load of one kernel reads no
// file, and its modules share the loaded binary.
TEST_F(KernelCacheTest, SecondLoadInAContextComesFromMemory) {
  Context ctx = contextFor(HADRON_TEST_PLUGIN_DIR);
  auto d = ctx.select("fakejit");
  ASSERT_TRUE(d.ok());
  const std::string ir = "module { memory }";
  auto first = d->loadIR(ir);
  ASSERT_TRUE(first.ok());
  ASSERT_EQ(::unlink(entryOf(fakeKey(ir)).c_str()), 0);
  auto second = d->loadIR(ir);
  ASSERT_TRUE(second.ok()) << second.status().message();
  EXPECT_FALSE(exists(entryOf(fakeKey(ir))));
  // The binary both modules share outlives the first.
  *first = Module(nullptr);
  auto buf = d->alloc(16);
  ASSERT_TRUE(buf.ok());
  auto k = second->kernel("jit_fake1");
  ASSERT_TRUE(k.ok());
  EXPECT_TRUE(k->launch({1, 1, 1}, {buf->arg()}).ok());
  // Another device of the plugin loads its own copy.
  auto other = ctx.select("fakejit:1");
  ASSERT_TRUE(other.ok());
  auto third = other->loadIR(ir);
  ASSERT_TRUE(third.ok()) << third.status().message();
  auto buf1 = other->alloc(16);
  ASSERT_TRUE(buf1.ok());
  auto k1 = third->kernel("jit_fake1");
  ASSERT_TRUE(k1.ok());
  EXPECT_TRUE(k1->launch({1, 1, 1}, {buf1->arg()}).ok());
}

TEST_F(KernelCacheTest, HitNeedsNoCompilerPart) {
  const std::string ir = "module { hit }";
  {
    Context ctx = contextFor(HADRON_TEST_PLUGIN_DIR);
    auto d = ctx.select("fakejit:1");
    ASSERT_TRUE(d.ok());
    ASSERT_TRUE(d->loadIR(ir).ok());
  }
  Context ctx = contextFor(runtimeOnly);
  auto d = ctx.select("fakejit:1");
  ASSERT_TRUE(d.ok()) << d.status().message();
  auto m = d->loadIR(ir);
  ASSERT_TRUE(m.ok()) << m.status().message();
  auto k = m->kernel("jit_fake1");
  ASSERT_TRUE(k.ok()) << k.status().message();
  EXPECT_EQ(k->signature().num_args, 1u);
  EXPECT_EQ(k->signature().warp_size, 32u);
  auto buf = d->alloc(16);
  ASSERT_TRUE(buf.ok());
  EXPECT_TRUE(k->launch({1, 1, 1}, {buf->arg()}).ok());

  // Other IR is a miss, and this context really has no compiler.
  auto other = d->loadIR("module { other }");
  ASSERT_FALSE(other.ok());
  EXPECT_EQ(other.status().code(), HD_ERROR_UNSUPPORTED);
  EXPECT_NE(other.status().message().find("compiler part of plugin 'fakejit' not found"),
            std::string::npos)
      << other.status().message();
}

// What lets the conformance suite name the same kernels on a machine
// without the compiler part as on the one that compiled them.
TEST_F(KernelCacheTest, MatrixInstructionsAskedOnceNeedNoCompilerPart) {
  {
    Context ctx = contextFor(runtimeOnly);
    auto none = ctx.matrixInstructions("fakejit");
    ASSERT_FALSE(none.ok());
    EXPECT_EQ(none.status().code(), HD_ERROR_UNSUPPORTED);
    EXPECT_NE(none.status().message().find("compiler part of plugin 'fakejit' not found"),
              std::string::npos)
        << none.status().message();
  }
  {
    Context ctx = contextFor(HADRON_TEST_PLUGIN_DIR);
    ASSERT_TRUE(ctx.matrixInstructions("fakejit").ok());
  }
  Context ctx = contextFor(runtimeOnly);
  auto texts = ctx.matrixInstructions("fakejit", "fake1");
  ASSERT_TRUE(texts.ok()) << texts.status().message();
  EXPECT_EQ(*texts, (std::vector<std::string>{"#fake.mma<a>", "#fake.mma<b>"}));
  // Not a kernel's entry: a kernel key never equals the answer's.
  EXPECT_NE(cache::computeQueryKey("matrix-instructions", "fakejit", HADRON_PLUGIN_ABI_MAJOR, 0,
                                   "fake1"),
            fakeKey(""));
}

TEST_F(KernelCacheTest, AheadOfTimeCompileGivesTheKeyOfALoadOnADevice) {
  const std::string ir = "module { aot }";
  {
    Context ctx = contextFor(HADRON_TEST_PLUGIN_DIR);
    hd_compiled *compiled = nullptr;
    hd_error err;
    // No device is needed; NULL options mean the plugin's default arch.
    ASSERT_EQ(hd_context_compile(ctx.get(), "fakejit", ir.data(), ir.size(), nullptr, &compiled,
                                 &err),
              HD_OK)
        << err.message;
    hd_compiled_destroy(compiled);
  }
  EXPECT_TRUE(exists(entryOf(fakeKey(ir))));
  Context ctx = contextFor(runtimeOnly);
  auto d = ctx.select("fakejit");
  ASSERT_TRUE(d.ok());
  auto m = d->loadIR(ir);
  ASSERT_TRUE(m.ok()) << m.status().message();
  EXPECT_TRUE(m->kernel("jit_fake1").ok());

  // hd_context_compile hits too, and gives what the compiler gave.
  hd_compiled *compiled = nullptr;
  hd_error err;
  hd_compile_options options{sizeof(options), "fake1", 3, nullptr};
  ASSERT_EQ(hd_context_compile(ctx.get(), "fakejit", ir.data(), ir.size(), &options, &compiled,
                               &err),
            HD_OK)
      << err.message;
  const hd_compiled_module *result = hd_compiled_get(compiled);
  ASSERT_NE(result, nullptr);
  EXPECT_EQ(std::string(static_cast<const char *>(result->binary), result->binary_size), ir);
  ASSERT_EQ(result->num_kernels, 1u);
  EXPECT_STREQ(result->kernels[0].name, "jit_fake1");
  EXPECT_EQ(result->assembly, nullptr);
  hd_compiled_destroy(compiled);
}

TEST_F(KernelCacheTest, OptionsThatChangeCodeAreInTheKey) {
  Context ctx = contextFor(HADRON_TEST_PLUGIN_DIR);
  auto d = ctx.select("fakejit");
  ASSERT_TRUE(d.ok());
  const std::string ir = "module { options }";
  hd_compile_options o2{sizeof(o2), nullptr, 2, nullptr};
  hd_compile_options other{sizeof(other), "other-arch", 3, nullptr};
  ASSERT_TRUE(d->loadIR(ir).ok());
  ASSERT_TRUE(d->loadIR(ir, &o2).ok());
  auto m = d->loadIR(ir, &other);
  ASSERT_TRUE(m.ok());
  EXPECT_TRUE(m->kernel("jit_other-arch").ok());
  EXPECT_TRUE(exists(entryOf(fakeKey(ir))));
  EXPECT_TRUE(exists(entryOf(fakeKey(ir, "fake1", 2))));
  EXPECT_TRUE(exists(entryOf(fakeKey(ir, "other-arch"))));
}

// Each damaged entry is ignored: the kernel is compiled again and the entry
// rewritten, valid.
TEST_F(KernelCacheTest, DamagedEntriesAreRecompiledAndOverwritten) {
  Context ctx = contextFor(HADRON_TEST_PLUGIN_DIR);
  auto d = ctx.select("fakejit");
  ASSERT_TRUE(d.ok());
  const std::string ir = "module { damaged }";
  const cache::Digest key = fakeKey(ir);
  ASSERT_TRUE(d->loadIR(ir).ok());
  const std::string good = readFile(entryOf(key));
  ASSERT_FALSE(good.empty());

  std::string version = good;
  putU32At(version, 8, cache::kFormatVersion + 1);
  std::string sizes = good;
  putU32At(sizes, 80, 4096);
  std::string foreign = cache::encode(sha("another key"), sampleEntry());
  const std::pair<const char *, std::string> damages[] = {
      {"empty", ""},
      {"garbage", "not a cache entry at all"},
      {"truncated header", good.substr(0, 20)},
      {"truncated payload", good.substr(0, good.size() - 40)},
      {"one byte short", good.substr(0, good.size() - 1)},
      {"flipped byte", [&] {
         std::string s = good;
         s[s.size() / 2] ^= 1;
         return s;
       }()},
      {"other version", reseal(version)},
      {"sizes that do not add up", reseal(sizes)},
      {"entry of another key", foreign},
  };
  // Each load in a fresh context: the first context's in-memory cache would
  // not look at the file again.
  std::string warned;
  for (const auto &[what, bytes] : damages) {
    SCOPED_TRACE(what);
    writeFile(entryOf(key), bytes);
    Context fresh = contextFor(HADRON_TEST_PLUGIN_DIR);
    auto fd = fresh.select("fakejit");
    ASSERT_TRUE(fd.ok());
    testing::internal::CaptureStderr();
    auto m = fd->loadIR(ir);
    warned += testing::internal::GetCapturedStderr();
    ASSERT_TRUE(m.ok()) << m.status().message();
    EXPECT_TRUE(m->kernel("jit_fake1").ok());
    EXPECT_EQ(readFile(entryOf(key)), good);
  }
  // Each kind of damage was reported (once: DamageIsReportedOnce), naming
  // the file and what is wrong with it.
  for (const std::string &reason :
       {std::string("bad magic"), std::string("truncated (20 bytes)"),
        std::string("checksum mismatch"),
        "format version " + std::to_string(cache::kFormatVersion + 1),
        std::string("sizes do not add up"), std::string("entry was written for another key")})
    EXPECT_NE(warned.find("hadron: warning: ignoring kernel cache entry " + entryOf(key) + ": " +
                          reason),
              std::string::npos)
        << reason << " in:\n"
        << warned;

  // A directory where the entry should be cannot be overwritten: still no
  // failure.
  ::unlink(entryOf(key).c_str());
  ASSERT_EQ(::mkdir(entryOf(key).c_str(), 0755), 0);
  Context fresh = contextFor(HADRON_TEST_PLUGIN_DIR);
  auto fd = fresh.select("fakejit");
  ASSERT_TRUE(fd.ok());
  auto m = fd->loadIR(ir);
  ASSERT_TRUE(m.ok()) << m.status().message();
}

// A damaged entry is reported once per process, not at every load that
// meets it again.
TEST_F(KernelCacheTest, DamageIsReportedOnce) {
  const std::string ir = "module { reported once }";
  ASSERT_EQ(::mkdir(cacheDir.c_str(), 0700), 0);
  ASSERT_EQ(::mkdir((cacheDir + "/kernels").c_str(), 0700), 0);
  std::string warnings;
  for (int i = 0; i < 3; ++i) {
    writeFile(entryOf(fakeKey(ir)), "HDKCACHE and then nothing useful");
    Context ctx = contextFor(HADRON_TEST_PLUGIN_DIR);
    auto d = ctx.select("fakejit");
    ASSERT_TRUE(d.ok());
    testing::internal::CaptureStderr();
    ASSERT_TRUE(d->loadIR(ir).ok());
    warnings += testing::internal::GetCapturedStderr();
  }
  EXPECT_NE(warnings.find(entryOf(fakeKey(ir))), std::string::npos) << warnings;
  EXPECT_EQ(warnings.find("hadron: warning"), warnings.rfind("hadron: warning")) << warnings;
}

// A damaged entry with no compiler to fall back on is a plain miss.
TEST_F(KernelCacheTest, DamagedEntryWithoutACompilerIsAMiss) {
  const std::string ir = "module { damaged, no compiler }";
  ASSERT_EQ(::mkdir(cacheDir.c_str(), 0755), 0);
  ASSERT_EQ(::mkdir((cacheDir + "/kernels").c_str(), 0755), 0);
  writeFile(entryOf(fakeKey(ir)), "HDKCACHE but nothing else");
  Context ctx = contextFor(runtimeOnly);
  auto d = ctx.select("fakejit");
  ASSERT_TRUE(d.ok());
  auto m = d->loadIR(ir);
  ASSERT_FALSE(m.ok());
  EXPECT_NE(m.status().message().find("compiler part of plugin 'fakejit' not found"),
            std::string::npos)
      << m.status().message();
}

TEST_F(KernelCacheTest, EntryOfAnotherCompilerBuildIsRecompiledWhenACompilerIsThere) {
  const std::string ir = "module { stale }";
  plantForeignBuildEntry(fakeKey(ir), "stale_kernel");
  {
    // No compiler here: the entry is all there is, and it is used.
    Context ctx = contextFor(runtimeOnly);
    auto d = ctx.select("fakejit");
    ASSERT_TRUE(d.ok());
    auto m = d->loadIR(ir);
    ASSERT_TRUE(m.ok()) << m.status().message();
    EXPECT_TRUE(m->kernel("stale_kernel").ok());
  }
  Context ctx = contextFor(HADRON_TEST_PLUGIN_DIR);
  auto d = ctx.select("fakejit");
  ASSERT_TRUE(d.ok());
  auto m = d->loadIR(ir);
  ASSERT_TRUE(m.ok()) << m.status().message();
  EXPECT_TRUE(m->kernel("jit_fake1").ok());
  EXPECT_FALSE(m->kernel("stale_kernel").ok());
  auto loaded = cache::load(cacheDir, fakeKey(ir));
  ASSERT_TRUE(loaded) << loaded.status().message();
  const std::optional<cache::Entry> &entry = *loaded;
  ASSERT_TRUE(entry);
  EXPECT_EQ(entry->kernels[0].name, "jit_fake1");
  // The whole digest: its first byte alone is 0x55 for one build in 256.
  cache::Digest foreign;
  foreign.fill(0x55);
  EXPECT_NE(entry->compilerIdentity, foreign);
}

TEST_F(KernelCacheTest, UnwritableDirectoryOnlyMeansNoCaching) {
  Context ctx = contextFor(HADRON_TEST_PLUGIN_DIR);
  auto d = ctx.select("fakejit");
  ASSERT_TRUE(d.ok());
  // A regular file where the directory should be, and a directory nobody
  // can create (not even root: /proc takes no new entries).
  writeFile(cacheDir, "a file");
  for (const std::string &dir : {cacheDir, std::string("/proc/hadron-kernel-cache")}) {
    SCOPED_TRACE(dir);
    ::setenv("HADRON_CACHE_DIR", dir.c_str(), 1);
    auto m = d->loadIR("module { unwritable }");
    ASSERT_TRUE(m.ok()) << m.status().message();
    EXPECT_TRUE(m->kernel("jit_fake1").ok());
    hd_compiled *compiled = nullptr;
    hd_error err;
    EXPECT_EQ(hd_context_compile(ctx.get(), "fakejit", "module {}", 9, nullptr, &compiled, &err),
              HD_OK)
        << err.message;
    hd_compiled_destroy(compiled);
  }
  EXPECT_EQ(readFile(cacheDir), "a file");
}

TEST_F(KernelCacheTest, ReadOnlyDirectoryOnlyMeansNoCaching) {
  ASSERT_EQ(::mkdir(cacheDir.c_str(), 0500), 0);
  if (::access(cacheDir.c_str(), W_OK) == 0)
    GTEST_SKIP() << "this user (root?) writes into a mode 0500 directory; "
                    "UnwritableDirectoryOnlyMeansNoCaching covers the case";
  Context ctx = contextFor(HADRON_TEST_PLUGIN_DIR);
  auto d = ctx.select("fakejit");
  ASSERT_TRUE(d.ok());
  auto m = d->loadIR("module { read-only }");
  ASSERT_TRUE(m.ok()) << m.status().message();
  EXPECT_FALSE(exists(cacheDir + "/kernels"));
}

TEST_F(KernelCacheTest, OffDisablesReadingAndWriting) {
  const std::string ir = "module { off }";
  plantForeignBuildEntry(fakeKey(ir), "cached_kernel");
  ::setenv("HADRON_CACHE_DIR", "off", 1);
  ::setenv("XDG_CACHE_HOME", (root + "/xdg").c_str(), 1);
  Context ctx = contextFor(runtimeOnly);
  auto d = ctx.select("fakejit");
  ASSERT_TRUE(d.ok());
  // The planted entry would serve this context if the cache were read.
  EXPECT_FALSE(d->loadIR(ir).ok());

  Context full = contextFor(HADRON_TEST_PLUGIN_DIR);
  auto fd = full.select("fakejit");
  ASSERT_TRUE(fd.ok());
  ASSERT_TRUE(fd->loadIR("module { off, compiled }").ok());
  EXPECT_FALSE(exists(entryOf(fakeKey("module { off, compiled }"))));
  // Hadron's default directory under XDG_CACHE_HOME is not created (other
  // libraries a plugin loads, an OpenCL ICD say, may keep their own there).
  EXPECT_FALSE(exists(root + "/xdg/hadron"));
  ::unsetenv("XDG_CACHE_HOME");
}

TEST_F(KernelCacheTest, DefaultsToXdgCacheHomeThenHome) {
  ::unsetenv("HADRON_CACHE_DIR");
  const char *home = std::getenv("HOME");
  const std::string savedHome = home ? home : "";
  ::setenv("XDG_CACHE_HOME", (root + "/xdg").c_str(), 1);
  Context ctx = contextFor(HADRON_TEST_PLUGIN_DIR);
  auto d = ctx.select("fakejit");
  ASSERT_TRUE(d.ok());
  ASSERT_TRUE(d->loadIR("module { xdg }").ok());
  EXPECT_TRUE(exists(cache::entryPath(root + "/xdg/hadron", fakeKey("module { xdg }"))));

  ::unsetenv("XDG_CACHE_HOME");
  ::setenv("HOME", (root + "/home").c_str(), 1);
  ASSERT_TRUE(d->loadIR("module { home }").ok());
  EXPECT_TRUE(exists(cache::entryPath(root + "/home/.cache/hadron", fakeKey("module { home }"))));
  if (home)
    ::setenv("HOME", savedHome.c_str(), 1);
}

TEST_F(KernelCacheTest, DumpDirBypassesTheCache) {
  const std::string ir = "module { dumps }";
  plantForeignBuildEntry(fakeKey(ir), "cached_kernel");
  std::string dumps = root + "/dumps";
  hd_compile_options options{sizeof(options), nullptr, 3, dumps.c_str()};
  {
    // The entry would serve a runtime-only context; with dumps asked for,
    // it must compile (and cannot).
    Context ctx = contextFor(runtimeOnly);
    auto d = ctx.select("fakejit");
    ASSERT_TRUE(d.ok());
    EXPECT_FALSE(d->loadIR(ir, &options).ok());
    EXPECT_TRUE(d->loadIR(ir).ok());
  }
  Context ctx = contextFor(HADRON_TEST_PLUGIN_DIR);
  auto d = ctx.select("fakejit");
  ASSERT_TRUE(d.ok());
  const std::string fresh = "module { dumps, fresh }";
  ASSERT_TRUE(d->loadIR(fresh, &options).ok());
  EXPECT_FALSE(exists(entryOf(fakeKey(fresh))));
  hd_compiled *compiled = nullptr;
  hd_error err;
  ASSERT_EQ(hd_context_compile(ctx.get(), "fakejit", fresh.data(), fresh.size(), &options,
                               &compiled, &err),
            HD_OK);
  hd_compiled_destroy(compiled);
  EXPECT_FALSE(exists(entryOf(fakeKey(fresh))));
}

TEST_F(KernelCacheTest, ConcurrentMissesOfOneKeyLeaveOneValidEntry) {
  Context ctx = contextFor(HADRON_TEST_PLUGIN_DIR);
  auto d = ctx.select("fakejit");
  ASSERT_TRUE(d.ok());
  const std::string ir = "module { concurrent }";
  std::vector<std::thread> threads;
  std::vector<int> ok(8, 0);
  for (int t = 0; t < 8; ++t)
    threads.emplace_back([&, t] {
      for (int i = 0; i < 20; ++i)
        ok[t] += d->loadIR(ir).ok();
    });
  for (auto &t : threads)
    t.join();
  for (int t = 0; t < 8; ++t)
    EXPECT_EQ(ok[t], 20) << "thread " << t;
  auto loaded = cache::load(cacheDir, fakeKey(ir));
  ASSERT_TRUE(loaded) << loaded.status().message();
  EXPECT_TRUE(*loaded);
  EXPECT_EQ(std::system(("test $(ls -A '" + cacheDir + "/kernels' | wc -l) -eq 1").c_str()), 0);
}

// The file helpers as the cache and the bundles use them: a missing file
// is no error, anything else names the path and what went wrong.
TEST_F(KernelCacheTest, FileErrorsNameThePathAndTheCause) {
  const std::string missing = root + "/none";
  auto absent = cache::readFile(missing);
  ASSERT_TRUE(absent) << absent.status().message();
  EXPECT_FALSE(*absent);

  writeFile(root + "/file", std::string("three\0bytes", 11));
  auto present = cache::readFile(root + "/file");
  ASSERT_TRUE(present && *present);
  EXPECT_EQ(**present, std::string("three\0bytes", 11));

  auto directory = cache::readFile(root);
  ASSERT_FALSE(directory);
  EXPECT_EQ(directory.status().code(), HD_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(directory.status().message(), root + ": not a regular file");

  Status created = cache::writeFileAtomically(missing + "/f", "x", 0600);
  ASSERT_FALSE(created);
  EXPECT_EQ(created.code(), HD_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(created.message().rfind("cannot create " + missing + "/.f.", 0), 0u)
      << created.message();

  // The cache directory is a regular file: no entry can be stored.
  writeFile(cacheDir, "a file");
  Status stored = cache::store(cacheDir, sha("key"), sampleEntry());
  ASSERT_FALSE(stored);
  EXPECT_EQ(stored.message().rfind("cannot create " + cacheDir + "/kernels: ", 0), 0u)
      << stored.message();
  ::unlink(cacheDir.c_str());

  // No entry is a miss; a damaged one an error that names its file.
  auto miss = cache::load(cacheDir, sha("key"));
  ASSERT_TRUE(miss) << miss.status().message();
  EXPECT_FALSE(*miss);
  ASSERT_TRUE(cache::store(cacheDir, sha("key"), sampleEntry()));
  auto hit = cache::load(cacheDir, sha("key"));
  ASSERT_TRUE(hit && *hit);
  EXPECT_EQ((*hit)->binary, sampleEntry().binary);
  writeFile(cache::entryPath(cacheDir, sha("key")), "garbage");
  auto damaged = cache::load(cacheDir, sha("key"));
  ASSERT_FALSE(damaged);
  EXPECT_EQ(damaged.status().code(), HD_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(damaged.status().message(), cache::entryPath(cacheDir, sha("key")) +
                                            ": bad magic (not a Hadron kernel cache entry)");
}

//===----------------------------------------------------------------------===//
// With the real host compiler part
//===----------------------------------------------------------------------===//

#ifdef HADRON_TEST_HOST_RUNTIME_PART

class HostKernelCacheTest : public KernelCacheTest {
protected:
  void SetUp() override {
    KernelCacheTest::SetUp();
    hostRuntimeOnly = root + "/host-runtime-only";
    ASSERT_EQ(::mkdir(hostRuntimeOnly.c_str(), 0755), 0);
    copy(HADRON_TEST_HOST_RUNTIME_PART, hostRuntimeOnly + "/libhadron-target-host.so");
    ir = readFile(HADRON_SOURCE_DIR "/examples/vector_add.mlir");
    ASSERT_FALSE(ir.empty());
  }

  std::string hostRuntimeOnly, ir;
};

// What `hadron compile` does ahead of time, then a machine with only the
// runtime part runs the kernel.
TEST_F(HostKernelCacheTest, CompiledAheadOfTimeRunsWithoutTheCompiler) {
  {
    // runtimeOnly holds no host plugin: this is the install's, with its
    // compiler part.
    Context ctx = contextFor(runtimeOnly);
    hd_compile_options options{sizeof(options), "native", 3, nullptr};
    hd_compiled *compiled = nullptr;
    hd_error err;
    ASSERT_EQ(hd_context_compile(ctx.get(), "host", ir.data(), ir.size(), &options, &compiled,
                                 &err),
              HD_OK)
        << err.message;
    const hd_compiled_module *first = hd_compiled_get(compiled);
    const std::string assembly = first->assembly, llvmIR = first->llvm_ir;
    hd_compiled_destroy(compiled);

    // The second compile is a hit that still gives the assembly and LLVM IR
    // (`hadron compile --emit=asm` needs them).
    ASSERT_EQ(hd_context_compile(ctx.get(), "host", ir.data(), ir.size(), &options, &compiled,
                                 &err),
              HD_OK);
    const hd_compiled_module *second = hd_compiled_get(compiled);
    ASSERT_NE(second->assembly, nullptr);
    EXPECT_EQ(second->assembly, assembly);
    ASSERT_NE(second->llvm_ir, nullptr);
    EXPECT_EQ(second->llvm_ir, llvmIR);
    hd_compiled_destroy(compiled);
  }
  Context ctx = contextFor(hostRuntimeOnly);
  auto d = ctx.select("host");
  ASSERT_TRUE(d.ok()) << d.status().message();
  auto m = d->loadIR(ir);
  ASSERT_TRUE(m.ok()) << m.status().message();
  checkVectorAdd(*d, *m);
  // The kernel truly came from the cache: other IR needs the compiler.
  auto other = d->loadIR(ir + "\n");
  ASSERT_FALSE(other.ok());
  EXPECT_NE(other.status().message().find("compiler part of plugin 'host' not found"),
            std::string::npos)
      << other.status().message();
}

// A binary that passes every check of the format but that the device
// refuses (here not an ELF file) is compiled again.
TEST_F(HostKernelCacheTest, BinaryTheDeviceRefusesIsRecompiled) {
  Context ctx = contextFor(runtimeOnly);
  auto d = ctx.select("host");
  ASSERT_TRUE(d.ok());
  ASSERT_TRUE(d->loadIR(ir).ok());
  hd_device_info info = d->info();
  cache::Digest key =
      cache::computeKey({"host", HADRON_PLUGIN_ABI_MAJOR, HADRON_PLUGIN_ABI_MINOR, info.arch, 3,
                         std::string_view(ir)});
  auto loaded = cache::load(cacheDir, key);
  ASSERT_TRUE(loaded) << loaded.status().message();
  std::optional<cache::Entry> &entry = *loaded;
  ASSERT_TRUE(entry) << "no entry at " << cache::entryPath(cacheDir, key);
  entry->binary = "definitely not an ELF shared object";
  ASSERT_TRUE(cache::store(cacheDir, key, *entry));

  // A fresh context reads the file (the first one has the kernel in memory).
  Context fresh = contextFor(runtimeOnly);
  d = fresh.select("host");
  ASSERT_TRUE(d.ok());
  auto m = d->loadIR(ir);
  ASSERT_TRUE(m.ok()) << m.status().message();
  checkVectorAdd(*d, *m);
  auto rewritten = cache::load(cacheDir, key);
  ASSERT_TRUE(rewritten && *rewritten);
  EXPECT_EQ((*rewritten)->binary.compare(0, 4, "\x7f"
                                            "ELF"),
            0);
}

#endif // HADRON_TEST_HOST_RUNTIME_PART

} // namespace
