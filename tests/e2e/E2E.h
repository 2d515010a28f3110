//===- E2E.h - What every end-to-end test uses -----------------*- C++ -*-===//
//
// The suite's session (the device, or the compile-only target), poisoned
// output buffers, per-test seeds and comparisons with host references, on
// the test kit the conformance suite shares (tests/testkit: layouts for any
// warp size, the IR text writer, values, poison, seeds). Everything goes through libhadron-runtime: this binary links
// no LLVM or MLIR, so it runs where only the runtime and the plugins'
// runtime parts exist. How to run it: the comment at the top of Main.cpp.
//
//===----------------------------------------------------------------------===//
#ifndef HADRON_TESTS_E2E_E2E_H
#define HADRON_TESTS_E2E_E2E_H

#include "hadron/runtime/Runtime.hpp"
#include "kernels/BuiltKernels.h"
#include "testkit/Compare.h"
#include "testkit/Random.h"
#include "testkit/TextKernel.h"
#include "testkit/Values.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

namespace hadron::e2e {

using kernels::builtKernelIR;
using runtime::Status;
using testkit::Blocked;
using testkit::linearLayout;
using testkit::shapeStr;
using testkit::slice;
using testkit::tailSize;
using testkit::tensor;
/// The IR text writer of the tests not yet written with the C++ builder.
using KernelBuilder = testkit::Kernel;

//===----------------------------------------------------------------------===//
// The session
//===----------------------------------------------------------------------===//

/// What the kernels are built for, fixed for the process.
struct Session {
  /// Empty when the session is usable; else why not.
  std::string problem;
  /// True when `problem` should skip the tests rather than fail them (the
  /// selected device is absent).
  bool skipAll = false;

  std::optional<runtime::Context> context;
  std::optional<runtime::Device> device; ///< Empty in compile-only mode.
  hd_device_info info{};

  /// HADRON_E2E_COMPILE_ONLY=<plugin>:<arch>: compile through
  /// hd_context_compile for that target and launch nothing.
  bool compileOnly = false;
  std::string plugin, arch;

  /// Threads per warp the layouts are written for: the device's warp size,
  /// or 32 where the device folds warps (warp size 1, the host), or
  /// HADRON_E2E_WARP_SIZE.
  unsigned lanes = 32;

  /// "host:0 (native)" or "compile-only nvidia:sm_90a".
  std::string describe() const;
};

/// The process's session, made on first use.
Session &session();

//===----------------------------------------------------------------------===//
// Seeds
//===----------------------------------------------------------------------===//

/// The seed of the running test: HADRON_E2E_SEED when set, else from the
/// clock (a fresh one per test).
uint64_t testSeed();
/// "seed 123 (replay: HADRON_E2E_SEED=123 ./hadron-e2e --gtest_filter=Suite.Test)".
std::string seedMessage(uint64_t seed);

/// A 1-D layout and the elements a program takes.
struct Layout1D {
  Blocked layout;
  int block;
  std::string name() const { return layout.name() + "_b" + std::to_string(block); }
  friend std::ostream &operator<<(std::ostream &os, const Layout1D &l) { return os << l.name(); }
};

/// `text` with line numbers, for failure messages.
std::string numbered(const std::string &text);

//===----------------------------------------------------------------------===//
// Buffers
//===----------------------------------------------------------------------===//

/// IEEE binary16, stored as its bits.
struct Half {
  uint16_t bits = 0;
};
/// Round to nearest even, as the conformance suite's references round.
inline Half toHalf(float f) { return Half{testkit::toHalfBits(f)}; }
inline float fromHalf(Half h) { return testkit::fromHalfBits(h.bits); }

/// The test kit's element type of a host type.
template <typename T> constexpr testkit::Elem elemOf() {
  if constexpr (std::is_same_v<T, float>)
    return testkit::Elem::F32;
  else if constexpr (std::is_same_v<T, double>)
    return testkit::Elem::F64;
  else if constexpr (std::is_same_v<T, Half>)
    return testkit::Elem::F16;
  else if constexpr (sizeof(T) == 1)
    return testkit::Elem::I8;
  else if constexpr (sizeof(T) == 2)
    return testkit::Elem::I16;
  else if constexpr (sizeof(T) == 4)
    return testkit::Elem::I32;
  else
    return testkit::Elem::I64;
}

/// The test kit's poison of T's element type: a NaN no kernel computes, or
/// 0xAA bytes.
template <typename T> T poisonValue() {
  const uint64_t bits = testkit::Array::poisonBits(elemOf<T>());
  if constexpr (std::is_same_v<T, Half>) {
    return Half{static_cast<uint16_t>(bits)};
  } else {
    T v;
    std::memcpy(&v, &bits, sizeof v); // the low bytes: little-endian hosts only
    return v;
  }
}

template <typename T> bool sameBits(const T &a, const T &b) {
  return std::memcmp(&a, &b, sizeof(T)) == 0;
}

/// A device buffer with a host copy. Outputs are re-poisoned before every
/// launch (Program::launch does it), so an element a kernel fails to write
/// keeps the poison and fails the comparison.
template <typename T> class Buf {
public:
  Buf(std::vector<T> host, bool output) : host_(std::move(host)), output_(output) {}
  std::vector<T> &host() { return host_; }
  const std::vector<T> &host() const { return host_; }
  size_t size() const { return host_.size(); }
  bool isOutput() const { return output_; }

  Status create(const runtime::Device &device) {
    auto b = device.alloc(std::max<size_t>(1, host_.size()) * sizeof(T));
    if (!b)
      return b.status();
    dev_.emplace(std::move(b).value());
    return upload();
  }
  Status upload() {
    if (!dev_)
      return Status();
    return dev_->copyFromHost(host_.data(), host_.size() * sizeof(T));
  }
  Status poison() {
    std::fill(host_.begin(), host_.end(), poisonValue<T>());
    return upload();
  }
  Status download() {
    if (!dev_)
      return Status();
    return dev_->copyToHost(host_.data(), host_.size() * sizeof(T));
  }
  hd_arg arg() const { return dev_ ? dev_->arg() : runtime::arg::ptr(0); }

private:
  std::vector<T> host_;
  bool output_;
  std::optional<runtime::Buffer> dev_;
};

/// What Program::launch poisons before and reads back after a launch.
struct AnyBuf {
  std::function<Status()> poison, download;
};
template <typename T> AnyBuf io(Buf<T> &b) {
  return {[&b] { return b.poison(); }, [&b] { return b.download(); }};
}

//===----------------------------------------------------------------------===//
// Programs: compile, then launch
//===----------------------------------------------------------------------===//

/// The kernels of one test. `add` compiles at once (for the device, or
/// through hd_context_compile in compile-only mode) and collects failures;
/// E2E_READY then fails the test on a compile error, or skips it in
/// compile-only mode, after every kernel of the test was compiled.
class Program {
public:
  /// Returns the kernel's index for launch().
  int add(const KernelBuilder &kernel);
  int add(const std::string &ir, const std::string &kernel);
  /// The kernel library's kernel `key` (tests/kernels), whose function is
  /// `kernel`; a test failure names the key when it was not built.
  int addBuilt(const std::string &key, const std::string &kernel);

  bool compileOnly() const { return session().compileOnly; }
  const std::string &errors() const { return errors_; }
  /// True when a kernel failed only because the lowering cannot yet move
  /// elements between threads for one of its ops (convert_layout, reshape,
  /// permute, join/split between layouts that differ across lanes or warps):
  /// the work in progress the suite skips rather than fails.
  bool movesNotLoweredYet() const;
  /// Only the compiler's messages, without the IR.
  const std::string &firstError() const { return firstError_; }
  std::string compileOnlySummary() const;

  /// Makes a device buffer (a no-op in compile-only mode, where nothing
  /// launches).
  template <typename T> Buf<T> input(std::vector<T> host) {
    Buf<T> b(std::move(host), false);
    if (session().device)
      track(b.create(*session().device));
    return b;
  }
  template <typename T> Buf<T> output(size_t n) {
    Buf<T> b(std::vector<T>(n, poisonValue<T>()), true);
    if (session().device)
      track(b.create(*session().device));
    return b;
  }
  const std::string &bufferErrors() const { return bufferErrors_; }

  /// Poisons `outputs`, launches kernel `k` on `grid`, synchronises and
  /// downloads `outputs`. The status is the launch's or the
  /// synchronisation's, with the kernel's name.
  Status launch(int k, std::array<uint32_t, 3> grid, const std::vector<hd_arg> &args,
                std::vector<AnyBuf> outputs);

  const hd_kernel_signature *signature(int k) const;

private:
  void track(const Status &s) {
    if (!s)
      bufferErrors_ += s.message() + "\n";
  }
  struct Entry {
    std::string name;
    std::optional<runtime::Module> module;
    std::optional<runtime::Kernel> kernel;
  };
  std::vector<std::unique_ptr<Entry>> kernels_;
  std::string errors_, firstError_, bufferErrors_;
  int failedKernels_ = 0, failedMoves_ = 0;
};

/// Features being lowered now: a tiny probe kernel of each is compiled
/// once per process; a test that needs one skips with "not lowered yet:
/// <the compile error>" until the probe compiles.
enum class Feature {
  SharedMemory,      // local_alloc/local_load/local_store/local_dealloc
  MemdescViews,      // memdesc_slice/index/permute
  AsyncCopy,         // async_copy/commit_group/wait
  Barrier,           // hd.barrier between shared-memory accesses
  CrossLaneConvert,  // convert_layout moving elements between lanes and warps
  CrossWarpReduce,   // reduce/scan whose axis spans lanes and warps
};
/// True when the probe compiles; else `why` holds the compile error.
bool lowered(Feature feature, std::string *why);

//===----------------------------------------------------------------------===//
// Comparisons
//===----------------------------------------------------------------------===//

/// Reports up to 10 mismatching elements and the count; `check(i)` returns
/// a description of what is wrong with element i, or nothing.
void expectAll(size_t n, const std::function<std::optional<std::string>(size_t)> &check,
               const std::string &what);

template <typename T> std::string show(const T &v) {
  std::ostringstream s;
  if constexpr (std::is_same_v<T, Half>)
    s << fromHalf(v) << " (0x" << std::hex << v.bits << ")";
  else if constexpr (std::is_floating_point_v<T>)
    s.precision(std::is_same_v<T, float> ? 9 : 17), s << v;
  else if constexpr (sizeof(T) == 1)
    s << static_cast<int>(v);
  else
    s << v;
  return s.str();
}

/// The first `n` elements of `v` as the test kit's array.
template <typename T> testkit::Array toArray(const std::vector<T> &v, size_t n) {
  testkit::Array a(elemOf<T>(), n);
  std::memcpy(a.data(), v.data(), n * sizeof(T));
  return a;
}

/// Fails the test with the first mismatch and the count when `got` does not
/// match `want` by `tol` (the test kit's comparison, the conformance suite's).
void expectMatches(const testkit::Array &got, const testkit::Array &want,
                   const testkit::Tolerance &tol, const std::string &what);

/// Bit-exact (NaN equals NaN of any payload except the poison's).
template <typename T>
void expectExact(const std::vector<T> &got, const std::vector<T> &want, const std::string &what,
                 size_t count = SIZE_MAX) {
  size_t n = std::min(count, want.size());
  ASSERT_GE(got.size(), n) << what;
  expectMatches(toArray(got, n), toArray(want, n), testkit::Tolerance::exact(), what);
}

/// Equal within `ulps`, or within `absTol` (for results near zero, where
/// ULPs are meaningless after cancellation). NaN matches NaN, infinities
/// must match exactly.
template <typename T>
void expectClose(const std::vector<T> &got, const std::vector<T> &want, int64_t ulps,
                 double absTol, const std::string &what, size_t count = SIZE_MAX) {
  size_t n = std::min(count, want.size());
  ASSERT_GE(got.size(), n) << what;
  expectMatches(toArray(got, n), toArray(want, n), testkit::Tolerance::ulp(ulps, absTol), what);
}

/// Elements [from, to) still hold the poison: nothing was written past the
/// end.
template <typename T>
void expectPoisoned(const std::vector<T> &got, size_t from, size_t to, const std::string &what) {
  expectAll(
      to - from,
      [&](size_t i) -> std::optional<std::string> {
        if (sameBits(got[from + i], poisonValue<T>()))
          return std::nullopt;
        return "element " + std::to_string(from + i) + " past the end was written: " +
               show(got[from + i]);
      },
      what);
}

/// Random values of T in [lo, hi] (integers) or [lo, hi) (floats).
template <typename T> std::vector<T> randomVector(std::mt19937_64 &rng, size_t n, double lo,
                                                  double hi) {
  std::vector<T> v(n);
  if constexpr (std::is_same_v<T, Half>) {
    std::uniform_real_distribution<float> d(static_cast<float>(lo), static_cast<float>(hi));
    for (Half &x : v)
      x = toHalf(d(rng));
  } else if constexpr (std::is_floating_point_v<T>) {
    std::uniform_real_distribution<T> d(static_cast<T>(lo), static_cast<T>(hi));
    for (T &x : v)
      x = d(rng);
  } else {
    std::uniform_int_distribution<int64_t> d(static_cast<int64_t>(lo), static_cast<int64_t>(hi));
    for (T &x : v)
      x = static_cast<T>(d(rng));
  }
  return v;
}

/// A scalar launch argument of T's kind.
template <typename T> hd_arg scalarArg(T v) {
  if constexpr (std::is_same_v<T, Half>)
    return runtime::arg::floating(HD_ARG_F16, fromHalf(v));
  else if constexpr (std::is_same_v<T, float>)
    return runtime::arg::f32(v);
  else if constexpr (std::is_same_v<T, double>)
    return runtime::arg::f64(v);
  else if constexpr (sizeof(T) == 1)
    return runtime::arg::integer(HD_ARG_I8, v);
  else if constexpr (sizeof(T) == 2)
    return runtime::arg::integer(HD_ARG_I16, v);
  else if constexpr (sizeof(T) == 4)
    return runtime::arg::i32(static_cast<int32_t>(v));
  else
    return runtime::arg::i64(static_cast<int64_t>(v));
}

inline uint32_t ceilDiv(int64_t a, int64_t b) { return static_cast<uint32_t>((a + b - 1) / b); }

/// Test names from free text: letters and digits kept, the rest '_'.
std::string identifier(const std::string &text);

// Test parameters print as their names in gtest's messages. (In the unnamed
// namespace, where each test file declares its parameter types, so that
// argument-dependent lookup finds it.)
namespace {
template <typename T>
auto operator<<(std::ostream &os, const T &value) -> decltype(value.name(), os) {
  return os << value.name();
}
} // namespace

} // namespace hadron::e2e

/// Opens every test: the session (skipping or failing the test when it is
/// unusable), a seeded `rng` and the seed in every failure message.
#define E2E_BEGIN()                                                                              \
  ::hadron::e2e::Session &S = ::hadron::e2e::session();                                         \
  if (!S.problem.empty()) {                                                                      \
    if (S.skipAll)                                                                               \
      GTEST_SKIP() << S.problem;                                                                 \
    FAIL() << S.problem;                                                                         \
  }                                                                                              \
  const uint64_t e2eSeed = ::hadron::e2e::testSeed();                                            \
  std::mt19937_64 rng(e2eSeed);                                                                  \
  SCOPED_TRACE(::hadron::e2e::seedMessage(e2eSeed));                                             \
  (void)S;                                                                                       \
  (void)rng

/// After the kernels were added: fails on a compile or allocation error
/// (skips when the error is the lowering's "not available ... yet" for
/// moving elements between threads), skips the launches in compile-only
/// mode.
#define E2E_READY(prog)                                                                          \
  do {                                                                                           \
    if (!(prog).errors().empty()) {                                                              \
      if ((prog).movesNotLoweredYet())                                                           \
        GTEST_SKIP() << "not lowered yet: " << (prog).firstError();                              \
      FAIL() << (prog).errors();                                                                 \
    }                                                                                            \
    if ((prog).compileOnly())                                                                    \
      GTEST_SKIP() << (prog).compileOnlySummary();                                               \
    if (!(prog).bufferErrors().empty())                                                          \
      FAIL() << (prog).bufferErrors();                                                           \
  } while (0)

/// Like E2E_READY, but a compile error of a test that covers a known core
/// bug (`bug` not empty, what is wrong) skips it with "KNOWN CORE BUG: ...";
/// once the bug is fixed the kernel compiles and the test runs again.
/// E2E_READY inside a loop that builds one kernel per iteration: in
/// compile-only mode it goes on to the next iteration (so every kernel of
/// the test is compiled and cached) instead of skipping the test; end the
/// loop with E2E_COMPILE_ONLY_DONE().
#define E2E_READY_IN_LOOP(prog)                                                                  \
  if ((prog).errors().empty() && (prog).compileOnly())                                           \
    continue;                                                                                    \
  E2E_READY(prog)
#define E2E_COMPILE_ONLY_DONE()                                                                  \
  do {                                                                                           \
    if (::hadron::e2e::session().compileOnly)                                                    \
      GTEST_SKIP() << "compile-only: every kernel of the test compiled";                         \
  } while (0)

#define E2E_READY_UNLESS_KNOWN_BUG(prog, bug)                                                    \
  do {                                                                                           \
    if (!std::string(bug).empty() && !(prog).errors().empty())                                   \
      GTEST_SKIP() << "KNOWN CORE BUG: " << (bug) << ": " << (prog).firstError();                \
    E2E_READY(prog);                                                                             \
  } while (0)

/// Skips a test whose op is not lowered yet for this target.
#define E2E_REQUIRE(feature)                                                                     \
  do {                                                                                           \
    std::string e2eWhy;                                                                          \
    if (!::hadron::e2e::lowered(::hadron::e2e::Feature::feature, &e2eWhy))                       \
      GTEST_SKIP() << "not lowered yet: " << e2eWhy;                                             \
  } while (0)

#define E2E_LAUNCH(prog, ...)                                                                    \
  do {                                                                                           \
    ::hadron::runtime::Status e2eStatus = (prog).launch(__VA_ARGS__);                            \
    ASSERT_TRUE(e2eStatus.ok()) << e2eStatus.message();                                          \
  } while (0)

#endif // HADRON_TESTS_E2E_E2E_H
