//===- ConformanceTest.cpp - The suite as GoogleTest: cases x targets ----===//
//
// hadron-conformance-gtest runs every case on every target the runner picks,
// one test per cell: Conformance/Cell.Run/<target>__<case>. The targets come
// from the environment, read once when the tests are registered:
//
//   HADRON_CONFORMANCE_DEVICE   what `hadron conformance --device` takes
//                               (default: all devices found)
//   HADRON_CONFORMANCE_TARGETS  comma-separated compile-only targets
//   HADRON_CONFORMANCE_FILTER   globs over case names
//   HADRON_CONFORMANCE_SEED     the run's seed (printed, replays a failure)
//
// A pass passes, a failure or an XPASS fails with the runner's message
// (first mismatch, seed and the command that replays it), xfail,
// unsupported and no-device skip with their reasons, a compile-only cell
// passes once compiled and validated.
//
// Also here: tests of the runner itself (comparisons, expectations, the
// reports) that need no device.
//
//===----------------------------------------------------------------------===//

#include "Report.h"
#include "Runner.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <fstream>
#include <map>
#include <set>

using namespace hadron::conformance;
using namespace hadron::testkit;

namespace {

std::string env(const char *name, const char *fallback = "") {
  const char *v = std::getenv(name);
  return v && *v ? v : fallback;
}

/// The process's runner, made on first use.
Runner *runner(std::string *error = nullptr) {
  static std::string problem;
  static std::unique_ptr<Runner> r = [] {
    Options o;
    o.devices = env("HADRON_CONFORMANCE_DEVICE", "all");
    std::string targets = env("HADRON_CONFORMANCE_TARGETS");
    for (size_t start = 0; start < targets.size();) {
      size_t comma = targets.find(',', start);
      if (comma == std::string::npos)
        comma = targets.size();
      if (comma > start)
        o.compileTargets.push_back(targets.substr(start, comma - start));
      start = comma + 1;
    }
    o.filter = env("HADRON_CONFORMANCE_FILTER");
    o.expectationsDir = env("HADRON_CONFORMANCE_EXPECTATIONS", HADRON_CONFORMANCE_EXPECTATIONS_DIR);
    auto created = Runner::create(o);
    if (!created)
      problem = created.status().message();
    return created ? std::move(created).value() : nullptr;
  }();
  if (error)
    *error = problem;
  return r.get();
}

struct Cell {
  size_t target;
  const Case *c;
};

std::vector<Cell> cells() {
  std::vector<Cell> out;
  Runner *r = runner();
  if (!r)
    return out;
  for (size_t t = 0; t < r->targets().size(); ++t)
    for (const Case *c : r->cases())
      out.push_back({t, c});
  return out;
}

std::string identifier(const std::string &s) {
  std::string o;
  for (char ch : s)
    o += std::isalnum(static_cast<unsigned char>(ch)) ? ch : '_';
  return o;
}

class Conformance : public ::testing::TestWithParam<Cell> {};

TEST_P(Conformance, Run) {
  Runner *r = runner();
  ASSERT_NE(r, nullptr);
  Target &t = r->targets()[GetParam().target];
  const Case &c = *GetParam().c;
  Result res = r->run(c, t);
  const std::string where = c.name + " on " + t.id + " (seed " + std::to_string(res.seed) +
                            ", replay: HADRON_CONFORMANCE_SEED=" + std::to_string(r->seed()) +
                            ", or " + r->replay(c.name, t.id) + ")";
  switch (res.outcome) {
  case Outcome::Pass:
  case Outcome::CompileOnly:
    SUCCEED() << res.validation;
    break;
  case Outcome::XFail:
  case Outcome::Unsupported:
  case Outcome::NoDevice:
    GTEST_SKIP() << outcomeName(res.outcome) << ": " << res.message;
  case Outcome::Fail:
  case Outcome::XPass:
    FAIL() << outcomeName(res.outcome) << " " << where << ": " << res.message
           << (res.note.empty() ? "" : "\n  drawn: " + res.note);
  }
}

INSTANTIATE_TEST_SUITE_P(Cell, Conformance, ::testing::ValuesIn(cells()),
                         [](const ::testing::TestParamInfo<Cell> &info) {
                           return identifier(runner()->targets()[info.param.target].id) + "__" +
                                  identifier(info.param.c->name);
                         });
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(Conformance);

TEST(ConformanceSuite, HasTheCasesTheIssueAsksFor) {
  std::map<std::string, int> families;
  std::set<std::string> names;
  for (const Case &c : allCases()) {
    ++families[c.family()];
    EXPECT_TRUE(names.insert(c.name).second) << "two cases are named " << c.name;
  }
  EXPECT_GE(allCases().size(), 150u);
  for (const char *f : {"ew", "cvt", "mem", "shape", "reduce", "scan", "layout", "smem", "atomic",
                        "dot", "cf", "misc"})
    EXPECT_GT(families[f], 0) << "no case of family " << f;
}

// Ahead-of-time runs rely on it: a compile-only run with one seed fills the
// kernel cache that a device run with another seed reads.
TEST(ConformanceSuite, KernelTextDoesNotDependOnTheSeed) {
  std::vector<const Case *> cases;
  if (Runner *r = runner())
    cases = r->cases();
  else
    for (const Case &c : allCases())
      cases.push_back(&c);
  for (const Case *c : cases) {
    std::mt19937_64 r1(1), r2(987654321);
    Env e1, e2;
    e1.rng = &r1;
    e2.rng = &r2;
    EXPECT_EQ(c->build(e1).ir, c->build(e2).ir) << c->name;
  }
}

//===----------------------------------------------------------------------===//
// Matrix-instruction cases
//===----------------------------------------------------------------------===//

// The text NVIDIA's model writes for mma.m16n8k16 with f16 operands.
const char kMmaF16[] =
    "#hd.matrix_instr<{name = \"mma.m16n8k16.f16\", shape = [16, 8, 16], aType = f16, "
    "bType = f16, accType = f32, "
    "a = {register = [[0, 1], [8, 0], [0, 8]], lane = [[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]]}, "
    "b = {register = [[1, 0], [8, 0]], lane = [[2, 0], [4, 0], [0, 1], [0, 2], [0, 4]]}, "
    "acc = {register = [[0, 1], [8, 0]], lane = [[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]]}}>";

TEST(ConformanceMatrixInstr, ReadsShapeTypesAndLanes) {
  auto mi = parseMatrixInstr(kMmaF16);
  ASSERT_TRUE(mi) << mi.status().message();
  EXPECT_EQ(mi->name, "mma.m16n8k16.f16");
  EXPECT_EQ(mi->attribute, kMmaF16);
  EXPECT_EQ(mi->m, 16);
  EXPECT_EQ(mi->n, 8);
  EXPECT_EQ(mi->k, 16);
  EXPECT_EQ(mi->aType, "f16");
  EXPECT_EQ(mi->bType, "f16");
  EXPECT_EQ(mi->accType, "f32");
  EXPECT_EQ(mi->lanes, 32u);
}

TEST(ConformanceMatrixInstr, MalformedTextsSayWhatIsMissing) {
  auto problem = [](std::string text) {
    auto mi = parseMatrixInstr(text);
    EXPECT_FALSE(mi) << text;
    EXPECT_EQ(mi.status().code(), HD_ERROR_INVALID_ARGUMENT);
    return mi.status().message();
  };
  const std::string good = kMmaF16;
  auto without = [&](const std::string &from, const std::string &to) {
    std::string t = good;
    t.replace(t.find(from), from.size(), to);
    return t;
  };
  EXPECT_NE(problem("#hd.mma<{}>").find("not an #hd.matrix_instr"), std::string::npos);
  EXPECT_NE(problem(without("name = ", "nom = ")).find("no name"), std::string::npos);
  EXPECT_NE(problem(without("[16, 8, 16]", "[16, 8]")).find("three sizes"), std::string::npos);
  EXPECT_NE(problem(without("[16, 8, 16]", "[16, 0, 16]")).find("three sizes"), std::string::npos);
  // "aType" must be a key of its own, not the end of "accType".
  EXPECT_NE(problem(without("aType = f16", "xType = f16")).find("no aType"), std::string::npos);
  EXPECT_NE(problem(without("acc = {", "c = {")).find("no acc"), std::string::npos);
}

// Each reported instruction becomes two cases whose kernels name it, which
// the host runs and a target without it does not.
TEST(ConformanceMatrixInstr, CasesFollowWhatThePluginsReport) {
  Runner *r = runner();
  if (!r)
    GTEST_SKIP() << "no runner";
  hd_context *ctx = nullptr;
  ASSERT_EQ(hd_context_create(&ctx, nullptr), HD_OK);
  uint32_t count = 0;
  const char *const *texts = nullptr;
  hd_status s = hd_context_matrix_instructions(ctx, "nvidia", "sm_90a", &count, &texts, nullptr);
  std::vector<std::string> reported(texts, texts + (s == HD_OK ? count : 0));
  hd_context_destroy(ctx);
  if (s != HD_OK)
    GTEST_SKIP() << "no nvidia plugin with a compiler part here";
  ASSERT_EQ(reported.size(), 5u);

  std::map<std::string, const Case *> byName;
  for (const Case *c : r->cases())
    byName[c->name] = c;
  for (const std::string &text : reported) {
    auto mi = parseMatrixInstr(text);
    ASSERT_TRUE(mi) << mi.status().message();
    for (const char *suffix : {"", ".tails"}) {
      const std::string name = "dot.mma." + mi->name + suffix;
      if (!r->options().filter.empty() && !filterMatch(r->options().filter, name))
        continue;
      ASSERT_TRUE(byName.count(name)) << name;
      const Case &c = *byName[name];
      EXPECT_EQ(c.matrixInstr, mi->name);
      std::mt19937_64 rng(1);
      Env env;
      env.rng = &rng;
      EXPECT_NE(c.build(env).ir.find("#instr = " + text), std::string::npos) << name;

      // A device of 32 lanes whose compiler part reports none: unsupported,
      // never compiled. (The host, warp size 1, runs it: its Cell tests.)
      Target gpu;
      gpu.id = gpu.plugin = "gpu";
      gpu.arch = "x1";
      gpu.info.warp_size = 32;
      Result res = r->run(c, gpu);
      EXPECT_EQ(res.outcome, Outcome::Unsupported) << name;
      EXPECT_EQ(res.message, "gpu arch x1 has no matrix instruction " + mi->name +
                                 " (its compiler part reports none)");
      EXPECT_FALSE(res.compiled);
    }
  }
}

TEST(ConformanceSuite, RunnerStarts) {
  std::string error;
  ASSERT_NE(runner(&error), nullptr) << error;
}

//===----------------------------------------------------------------------===//
// The runner's own machinery
//===----------------------------------------------------------------------===//

TEST(ConformanceCompare, PoisonAndTolerances) {
  Buffer b;
  b.name = "out";
  b.role = Buffer::Output;
  b.want = Array(Elem::F32, 3);
  b.want.setF(0, 1.0);
  b.want.setF(1, 2.0);
  b.want.setF(2, NAN);
  Array got(Elem::F32, 5);
  got.fillPoison();
  got.setF(0, 1.0);
  got.setF(1, 2.0);
  got.setF(2, NAN);
  EXPECT_FALSE(compareOutput(b, got)) << "identical output";
  got.setF(4, 0.0);
  auto m = compareOutput(b, got);
  ASSERT_TRUE(m);
  EXPECT_EQ(m->index, 4u) << "written past the end";
  got.setPoison(4);
  got.setPoison(1);
  m = compareOutput(b, got);
  ASSERT_TRUE(m);
  EXPECT_EQ(m->index, 1u);
  EXPECT_NE(m->got.find("not written"), std::string::npos) << m->got;
  got.setF(1, std::nextafter(2.0f, 3.0f));
  EXPECT_TRUE(compareOutput(b, got)) << "one ulp off, exact";
  b.tol = Tolerance::ulp(1);
  EXPECT_FALSE(compareOutput(b, got)) << "one ulp off, 1 ulp allowed";
  b.tol = Tolerance::norm(1e-3);
  got.setF(1, 2.01);
  EXPECT_TRUE(compareOutput(b, got)) << "relative error 4.5e-3";
}

TEST(ConformanceCompare, PerElementBounds) {
  Buffer b;
  b.name = "out";
  b.role = Buffer::Output;
  b.want = Array(Elem::F32, 2);
  b.want.setF(0, 1e-6);
  b.want.setF(1, 5.0);
  b.tol = Tolerance::within({1e-4, 1e-6});
  Array got(Elem::F32, 2);
  got.setF(0, -5e-5); // a sum that cancelled: relative error 50, inside its bound
  got.setF(1, 5.0);
  EXPECT_FALSE(compareOutput(b, got));
  got.setF(0, 2e-4);
  auto m = compareOutput(b, got);
  ASSERT_TRUE(m);
  EXPECT_EQ(m->index, 0u);
  EXPECT_NE(m->got.find("over the bound"), std::string::npos) << m->got;
  // gamma_n = n*u / (1 - n*u)
  EXPECT_TRUE(std::isinf(Tolerance::sumBound(4, 0.25, 2.0))) << "n*u >= 1 bounds nothing";
  EXPECT_DOUBLE_EQ(Tolerance::sumBound(2, 0.25, 2.0), 2.0);
}

TEST(ConformanceCompare, HalfAndBf16RoundToNearestEven) {
  // 1 + 2^-11 is a tie between 1 and 1 + 2^-10 in f16: to even, 1.
  EXPECT_EQ(toHalfBits(1.0f + std::ldexp(1.0f, -11)), 0x3c00);
  EXPECT_EQ(toHalfBits(1.0f + 3 * std::ldexp(1.0f, -11)), 0x3c02);
  EXPECT_EQ(toHalfBits(65520.0f), 0x7c00);
  EXPECT_EQ(toBf16Bits(1.0f + std::ldexp(1.0f, -8)), 0x3f80);
  EXPECT_EQ(toBf16Bits(1.0f + 3 * std::ldexp(1.0f, -8)), 0x3f82);
  EXPECT_EQ(fromBf16Bits(0x3f82), 1.0f + std::ldexp(1.0f, -6));
}

TEST(ConformanceExpectations, ParsesAndRejects) {
  Expectations e;
  EXPECT_TRUE(e.parse("# comment\nlanes 64\nunsupported dot.* no matrix unit here\n"
                      "xfail ew.bf16.* bf16 arithmetic is not lowered\n",
                      "t.txt")
                  .ok());
  EXPECT_EQ(e.lanes(), 64u);
  ASSERT_NE(e.find("dot.f16.m16"), nullptr);
  EXPECT_EQ(e.find("dot.f16.m16")->kind, Expectation::Unsupported);
  EXPECT_EQ(e.find("ew.bf16.addf")->reason, "bf16 arithmetic is not lowered");
  EXPECT_EQ(e.find("ew.f32.addf"), nullptr);
  Expectations bad;
  hadron::runtime::Status error = bad.parse("xfail ew.*\n", "bad.txt");
  ASSERT_FALSE(error.ok());
  EXPECT_EQ(error.code(), HD_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(error.message().find("bad.txt:1"), std::string::npos) << error.message();
  EXPECT_FALSE(Expectations().parse("frobnicate x y\n", "bad.txt").ok());
  EXPECT_FALSE(Expectations().parse("lanes 48\n", "bad.txt").ok());
}

/// The checked-in expectation files parse, and each entry names a case: one
/// of allCases() or a dot.mma case of an instruction the built plugins report.
TEST(ConformanceExpectations, CheckedInFilesAreValid) {
  Options everything;
  everything.devices = "none";
  auto created = Runner::create(everything);
  ASSERT_TRUE(created) << created.status().message();
  Runner *runner = created->get();
  for (const char *plugin : {"host", "nvidia", "amd", "intel"}) {
    Expectations e;
    hadron::runtime::Status loaded =
        Expectations::load(HADRON_CONFORMANCE_EXPECTATIONS_DIR, plugin, "", e);
    EXPECT_TRUE(loaded.ok()) << loaded.message();
    for (const Expectation &x : e.entries()) {
      bool any = false;
      for (const Case *c : runner->cases())
        any |= globMatch(x.glob, c->name);
      EXPECT_TRUE(any) << x.file << ": '" << x.glob << "' matches no case";
    }
  }
}

/// A runner over `devices` with `filter`, or nullptr (the test then skips).
std::unique_ptr<Runner> runnerFor(const std::string &filter, const std::string &devices = "host",
                                  bool differential = false) {
  Options o;
  o.devices = devices;
  o.filter = filter;
  o.seed = 42;
  o.differential = differential;
  auto r = Runner::create(o);
  if (!r) {
    std::fprintf(stderr, "no runner over '%s': %s\n", devices.c_str(),
                 r.status().message().c_str());
    return nullptr;
  }
  return std::move(r).value();
}

/// An xfail that passes is XPASS and fails the run; unsupported does not run.
TEST(ConformanceExpectations, XPassFailsTheRun) {
  auto r = runnerFor("ew.i32.addi");
  if (!r)
    GTEST_SKIP() << "no host device";
  ASSERT_EQ(r->targets().size(), 1u);
  ASSERT_TRUE(
      r->targets()[0].expectations.parse("xfail ew.i32.addi pretend it is broken\n", "test").ok());
  r->runAll(nullptr);
  ASSERT_EQ(r->results().size(), 1u);
  EXPECT_EQ(r->results()[0].outcome, Outcome::XPass) << r->results()[0].message;
  EXPECT_TRUE(r->summary().failed());

  auto u = runnerFor("ew.i32.addi");
  ASSERT_TRUE(
      u->targets()[0].expectations.parse("unsupported ew.i32.* no integers here\n", "test").ok());
  u->runAll(nullptr);
  EXPECT_EQ(u->results()[0].outcome, Outcome::Unsupported);
  EXPECT_FALSE(u->summary().failed());
}

/// A plan whose reference is wrong fails with the first mismatch and seed.
TEST(ConformanceRunner, AWrongReferenceFails) {
  auto r = runnerFor("ew.i32.addi");
  if (!r)
    GTEST_SKIP() << "no host device";
  const Case *good = r->cases().at(0);
  Case broken{"ew.i32.addi", [good](Env &env) {
                Plan p = good->build(env);
                for (Buffer &b : p.buffers)
                  if (b.role == Buffer::Output)
                    b.want.setI(0, b.want.i(0) + 1);
                return p;
              }};
  Result res = r->run(broken, r->targets()[0]);
  EXPECT_EQ(res.outcome, Outcome::Fail);
  ASSERT_TRUE(res.mismatch) << res.message;
  EXPECT_EQ(res.mismatch->index, 0u);
}

/// Differential mode: the same device twice agrees with itself.
TEST(ConformanceRunner, DifferentialAgreesOnOneDeviceTwice) {
  auto r = runnerFor("ew.f32.addf,reduce.sum.f32.to_scalar", "host,host", true);
  if (!r)
    GTEST_SKIP() << "no host device";
  r->runAll(nullptr);
  ASSERT_FALSE(r->differences().empty());
  for (const DiffResult &d : r->differences())
    EXPECT_TRUE(d.agree && d.comparable) << d.caseName << ": " << d.message;
}

/// SEL@ARCH: the device, with kernels compiled for another arch of its
/// plugin; an arch the plugin does not list is refused up front.
TEST(ConformanceRunner, DeviceAtArchCompilesForThatArch) {
  auto r = runnerFor("ew.i32.addi,cvt.f32_bf16.rne", "host@x86-64");
  if (!r)
    GTEST_SKIP() << "no host device";
  ASSERT_EQ(r->targets().size(), 1u);
  EXPECT_EQ(r->targets()[0].arch, "x86-64");
  EXPECT_NE(r->targets()[0].id.find("@x86-64"), std::string::npos) << r->targets()[0].id;
  r->runAll(nullptr);
  for (const Result &res : r->results())
    EXPECT_EQ(res.outcome, Outcome::Pass) << res.caseName << ": " << res.message;
  EXPECT_NE(r->replay("ew.i32.addi", r->targets()[0].id).find("@x86-64"), std::string::npos);

  Options o;
  o.devices = "host@x86-64-v9";
  auto refused = Runner::create(o);
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.status().code(), HD_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(refused.status().message().find("has no arch 'x86-64-v9'"), std::string::npos)
      << refused.status().message();
}

/// The reports hold the matrix, the seed and the device models.
TEST(ConformanceReport, JsonMarkdownHtml) {
  auto r = runnerFor("ew.i32.addi,mem.zero_size.*");
  if (!r)
    GTEST_SKIP() << "no host device";
  r->runAll(nullptr);
  std::string json = jsonReport(*r), md = markdownReport(*r), html = htmlReport(*r);
  EXPECT_NE(json.find("\"seed\": 42"), std::string::npos);
  EXPECT_NE(json.find("\"case\": \"ew.i32.addi\""), std::string::npos);
  EXPECT_NE(md.find("| ew.i32.addi |"), std::string::npos) << md;
  EXPECT_NE(html.find("<td class=\"case\">mem.zero_size.grid</td>"), std::string::npos);
  EXPECT_NE(html.find(r->targets()[0].description), std::string::npos) << "device model";
  EXPECT_EQ(html.find("<script src"), std::string::npos) << "self-contained";
  EXPECT_EQ(html.find("<link"), std::string::npos) << "self-contained";
}

} // namespace
