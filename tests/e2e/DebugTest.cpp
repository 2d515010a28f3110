//===- DebugTest.cpp - print, assert, assume and multiple_of --------------===//
//
// print and a passing assert must not change what a kernel computes; a
// failing assert must come back as an error from the launch or the
// synchronisation, carrying the assert's message. The assert and hint
// kernels are the kernel library's (tests/kernels/Debug.h, written with the
// C++ builder); the print kernels stay IR text on purpose: they check how
// the parser reads hd.print (an attribute dictionary on a print without
// values, a bare print before an op with a result), which the builder
// cannot write. A device assert may leave
// the device unusable (a CUDA context is), so the failing launch runs in a
// child process: this binary, re-run on this one test.
//
//===----------------------------------------------------------------------===//

#include "E2E.h"
#include "kernels/Debug.h"

#include <cstdlib>
#include <fstream>
#include <sstream>

#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

namespace hadron::e2e {
namespace {

using runtime::arg::i32;

/// out[i] = x[i] + 1 over a masked 1-D tile; `middle` adds lines between
/// the load and the store (given x and the tile).
template <typename F>
KernelBuilder plusOne(const std::string &name, const Blocked &b, int block, F middle) {
  KernelBuilder k(name, b.numWarps());
  std::string l = k.layout("l", b.str(session().lanes));
  std::string in = k.arg("!hd.ptr<i32>", "{hd.divisibility = 16 : i32}");
  std::string out = k.arg("!hd.ptr<i32>", "{hd.divisibility = 16 : i32}");
  std::string n = k.arg("i32");
  std::string start = k.let("arith.muli " + k.let("hd.program_id 0") + ", " + k.constI32(block) +
                            " : i32");
  auto t = k.tile1d(block, l, start, n);
  std::string tt = tensor({block}, "i32", l), pt = tensor({block}, "!hd.ptr<i32>", l);
  std::string x = k.let("hd.load " + k.pointers(in, "i32", t.offsets, {block}, l) + " mask " +
                        t.mask + " other " + k.let("arith.constant dense<0> : " + tt) + " : " + pt);
  middle(k, x, tt, t, n);
  std::string y = k.let("arith.addi " + x + ", " + k.let("arith.constant dense<1> : " + tt) + " : " + tt);
  k.line("hd.store " + k.pointers(out, "i32", t.offsets, {block}, l) + ", " + y + " mask " + t.mask +
         " : " + pt);
  return k;
}

void checkPlusOne(Program &p, int kid, int block, std::mt19937_64 &rng, int32_t lo, int32_t hi) {
  const int count = tailSize(rng, block, 3 * block);
  std::vector<int32_t> hx = randomVector<int32_t>(rng, count, lo, hi);
  auto bi = p.input(hx);
  auto bo = p.output<int32_t>(count + 8);
  E2E_LAUNCH(p, kid, {ceilDiv(count, block), 1, 1}, {bi.arg(), bo.arg(), i32(count)}, {io(bo)});
  std::vector<int32_t> want(count);
  for (int i = 0; i < count; ++i)
    want[i] = hx[i] + 1;
  expectExact(bo.host(), want, "x + 1");
  expectPoisoned(bo.host(), count, bo.size(), "past n");
}

const Blocked kSmall{{1}, {32}, {1}, {0}};

/// The library's kernel of `use` for this session's lane count.
int addKernel(Program &p, const kernels::KernelUse &use) {
  return p.addBuilt(use.key(session().lanes), use.kernel);
}

// Values, a scalar and hex, from a small tile (every thread that holds an
// element prints it); the output is not captured, the results are checked.
TEST(DebugOps, PrintRunsAndChangesNothing) {
  E2E_BEGIN();
  Program p;
  int kid = p.add(plusOne("print", kSmall, 8, [](KernelBuilder &k, const std::string &x,
                                                  const std::string &tt, auto &, const std::string &n) {
    k.line("hd.print \"hadron-e2e print: x = \" : " + x + " : " + tt);
    k.line("hd.print \"hadron-e2e print: n = \" hex : " + n + " : i32");
    // An attribute dictionary on a print without values.
    k.line("hd.print \"hadron-e2e print: no values\" {}");
  }));
  E2E_READY(p);
  checkPlusOne(p, kid, 8, rng, -100, 100);
}

// A print without values followed by an op with a result (the values
// follow a colon, so the next line's result name is not taken for one).
TEST(DebugOps, PrintWithoutValuesBeforeAResult) {
  E2E_BEGIN();
  Program p;
  int kid = p.add(plusOne("print_bare", kSmall, 8, [](KernelBuilder &k, auto &, auto &, auto &,
                                                       auto &) {
    k.line("hd.print \"hadron-e2e print: no values\"");
  }));
  E2E_READY(p);
  checkPlusOne(p, kid, 8, rng, -100, 100);
}

// assert(x < 1000) over inputs that all satisfy it, masked-off elements
// included (they load 0).
TEST(DebugOps, PassingAssertRunsAndChangesNothing) {
  E2E_BEGIN();
  Program p;
  int kid = addKernel(p, kernels::e2edebug::assertOk());
  E2E_READY(p);
  checkPlusOne(p, kid, 512, rng, -1000, 999);
}

// assume (n > 0) and multiple_of on a program's start, its splat and the
// input pointer, all promises that hold; the loads and stores go through the
// hinted values, so a lowering that misuses a hint (a vector access it does
// not justify, a dropped mask) changes the results.
TEST(DebugOps, AssumeAndMultipleOfKeepResults) {
  E2E_BEGIN();
  Program p;
  int kid = addKernel(p, kernels::e2edebug::hints());
  E2E_READY(p);
  checkPlusOne(p, kid, kernels::e2edebug::hints().ints[0], rng, -100000, 100000);
}

//===----------------------------------------------------------------------===//
// A failing assert, in a child process
//===----------------------------------------------------------------------===//

constexpr const char kChildEnv[] = "HADRON_E2E_ASSERT_CHILD";
const std::string kMessage = kernels::e2eAssertMessage();

std::string selfPath() {
  char buf[4096];
  ssize_t n = ::readlink("/proc/self/exe", buf, sizeof(buf) - 1);
  return n > 0 ? std::string(buf, n) : std::string();
}

std::string readAll(const std::string &path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// assert(x != 4242) where one element is 4242. In the child the launch runs
// and its outcome is printed; the parent reads it back.
TEST(DebugOps, FailingAssertIsReportedByTheLaunch) {
  E2E_BEGIN();
  Program p;
  int kid = addKernel(p, kernels::e2edebug::assertFails());
  E2E_READY(p);

  const char *child = std::getenv(kChildEnv);
  if (child && std::string(child) == "1") {
    // Whatever the device prints before it stops reaches the log.
    std::setvbuf(stdout, nullptr, _IONBF, 0);
    std::vector<int32_t> hx = randomVector<int32_t>(rng, 1500, -1000, 1000);
    hx[std::uniform_int_distribution<int>(0, 1499)(rng)] = 4242;
    auto bi = p.input(hx);
    auto bo = p.output<int32_t>(1500);
    Status s = p.launch(kid, {3, 1, 1}, {bi.arg(), bo.arg(), i32(1500)}, {});
    std::fprintf(stderr, "\nE2E-ASSERT-STATUS %d %s\n", static_cast<int>(s.code()),
                 s.message().c_str());
    std::fflush(stderr);
    std::_Exit(0);
  }

  // The parent: the same test, alone, in a child process.
  const ::testing::TestInfo *info = ::testing::UnitTest::GetInstance()->current_test_info();
  std::string filter = std::string("--gtest_filter=") + info->test_suite_name() + "." + info->name();
  std::string exe = selfPath();
  ASSERT_FALSE(exe.empty()) << "cannot read /proc/self/exe";
  char logTemplate[] = "/tmp/hadron-e2e-assert-XXXXXX";
  int fd = ::mkstemp(logTemplate);
  ASSERT_GE(fd, 0);
  const std::string log = logTemplate;
  ::setenv(kChildEnv, "1", 1);
  ::setenv("HADRON_E2E_SEED", std::to_string(e2eSeed).c_str(), 1);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, fd, 1);
  posix_spawn_file_actions_adddup2(&actions, fd, 2);
  std::vector<char *> argv{exe.data(), filter.data(), nullptr};
  pid_t pid = 0;
  int spawned = ::posix_spawn(&pid, exe.c_str(), &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  ::unsetenv(kChildEnv);
  ::close(fd);
  ASSERT_EQ(spawned, 0) << "posix_spawn " << exe << ": " << std::strerror(spawned);
  int status = 0;
  ASSERT_EQ(::waitpid(pid, &status, 0), pid);
  const std::string out = readAll(log);
  ::unlink(log.c_str());
  SCOPED_TRACE("child output:\n" + out);

  if (WIFSIGNALED(status)) {
    FAIL() << "the child died of signal " << WTERMSIG(status);
  }
  size_t at = out.find("E2E-ASSERT-STATUS ");
  ASSERT_NE(at, std::string::npos) << "the child did not report the launch's outcome";
  std::istringstream report(out.substr(at + 18));
  int code = -1;
  report >> code;
  std::string message;
  std::getline(report, message);
  EXPECT_NE(code, HD_OK) << "a failing assert was not reported by launch or synchronize";
  // The message reaches the user in the error, or, where the device prints
  // it itself and the driver reports only that an assert fired (CUDA's
  // device-side assert: CUDA_ERROR_ASSERT), in the process's output with the
  // error naming the assert.
  const bool inError = message.find(kMessage) != std::string::npos;
  const bool printedByDevice = out.substr(0, at).find(kMessage) != std::string::npos &&
                               (message.find("assert") != std::string::npos ||
                                message.find("ASSERT") != std::string::npos);
  EXPECT_TRUE(inError || printedByDevice)
      << "neither the error nor the device's output carries the assert's message: " << message;
}

} // namespace
} // namespace hadron::e2e
