//===- ConstexprsTest.cpp - Constants given as a map ----------------------===//
//
// A kernel that takes `const Constexprs &`: the map's order does not change
// the specialisation, each distinct map is its own module and its own entry
// in the runtime's kernel cache, and a constant the kernel asks for but the
// map lacks (or holds as another kind) is a trace error at the user's line.
//
//===----------------------------------------------------------------------===//

#include "BuilderTest.h"

#include <cstdlib>
#include <filesystem>
#include <optional>

namespace hadron::builder::test {
namespace {

using runtime::arg::i32;

const Layout k1D = Blocked{{4}, {32}, {4}, {0}};
int line = 0;

auto fillKernel = jit("fill", [](const Constexprs &c) {
  int block = c.get<int>("BLOCK");
  Tensor dst = arg(pointer_type(int32), {.divisibility = 16});
  Tensor n = arg(int32);
  Tensor offsets = program_id(0) * block + arange(0, block, c.get<Layout>("layout"));
  store(dst + offsets, full({block}, c.get<int>("VALUE"), int32, c.get<Layout>("layout")),
        offsets < n);
});

auto askForMissing = jit("missing", [](const Constexprs &c) {
  line = __LINE__; (void)arange(0, c.get<int>("BLOK"), k1D);
});

auto askForAnotherKind = jit("kind", [](const Constexprs &c) {
  line = __LINE__; (void)arange(0, 128, c.get<Layout>("BLOCK"));
});

size_t entriesIn(const std::filesystem::path &cache) {
  std::error_code ec;
  size_t n = 0;
  for (const auto &e : std::filesystem::directory_iterator(cache / "kernels", ec))
    n += e.path().extension() == ".hdk";
  return n;
}

TEST(BuilderConstexprs, TheMapsOrderDoesNotMatterItsValuesDo) {
  auto a = fillKernel.specialize({.numWarps = 4}, Constexprs{{"BLOCK", 512}, {"layout", k1D},
                                                             {"VALUE", 7}});
  auto b = fillKernel.specialize({.numWarps = 4}, Constexprs{{"VALUE", 7}, {"layout", k1D},
                                                             {"BLOCK", 512}});
  Constexprs other{{"BLOCK", 512}, {"layout", k1D}};
  other.set("VALUE", 8);
  auto c = fillKernel.specialize({.numWarps = 4}, other);
  ASSERT_TRUE(a && b && c);
  EXPECT_EQ(a->key(), b->key());
  EXPECT_EQ(a->str(), b->str());
  EXPECT_NE(a->key(), c->key());
  EXPECT_EQ(a->key().rfind("fill.BLOCK_512.VALUE_7.layout_blocked_", 0), 0u) << a->key();
  EXPECT_TRUE(other.contains("VALUE") && !other.contains("value"));

  const int n = 1000 + int(rng()() % 1000);
  for (auto *m : {&*a, &*c}) {
    std::vector<int32_t> out = poisoned<int32_t>(n), want(n, m == &*a ? 7 : 8);
    ASSERT_TRUE(run(*m, {uint32_t((n + 511) / 512), 1, 1}, {output(out), i32(n)}));
    EXPECT_EQ(out, want) << m->key();
  }
}

TEST(BuilderConstexprs, EachMapIsItsOwnCachedBinary) {
  namespace fs = std::filesystem;
  fs::path cache = fs::temp_directory_path() /
                   ("hadron-constexprs-" + std::to_string(rng()()));
  const char *saved = std::getenv("HADRON_CACHE_DIR");
  std::optional<std::string> restore = saved ? std::optional<std::string>(saved) : std::nullopt;
  ::setenv("HADRON_CACHE_DIR", cache.c_str(), 1);
  {
    auto context = runtime::Context::create();
    ASSERT_TRUE(context) << context.status().message();
    auto device = context->select("host");
    ASSERT_TRUE(device) << device.status().message();
    std::vector<size_t> counts;
    for (int block : {256, 512, 256}) {
      auto m = fillKernel.specialize({.numWarps = 4}, Constexprs{{"BLOCK", block},
                                                                 {"layout", k1D},
                                                                 {"VALUE", 1}});
      ASSERT_TRUE(m) << m.error();
      auto module = device->loadIR(m->str());
      ASSERT_TRUE(module) << module.status().message();
      counts.push_back(entriesIn(cache));
    }
    EXPECT_EQ(counts, (std::vector<size_t>{1, 2, 2}));
  }
  if (restore)
    ::setenv("HADRON_CACHE_DIR", restore->c_str(), 1);
  else
    ::unsetenv("HADRON_CACHE_DIR");
  std::error_code ec;
  fs::remove_all(cache, ec);
}

TEST(BuilderConstexprs, AMissingOrMistypedConstantNamesIt) {
  line = 0;
  std::string error = errorOf(askForMissing.specialize({.numWarps = 4},
                                                       Constexprs{{"BLOCK", 128}, {"L", k1D}}));
  EXPECT_EQ(error.rfind(at(__FILE__, line), 0), 0u) << error;
  EXPECT_NE(error.find("constexpr: `BLOK` is not given (the specialisation has BLOCK, L)"),
            std::string::npos)
      << error;
  line = 0;
  error = errorOf(askForAnotherKind.specialize({.numWarps = 4}, Constexprs{{"BLOCK", 128}}));
  EXPECT_EQ(error.rfind(at(__FILE__, line), 0), 0u) << error;
  EXPECT_NE(error.find("constexpr: `BLOCK` is an integer, not a Layout"), std::string::npos)
      << error;
}

} // namespace
} // namespace hadron::builder::test
