//===- AtomicTest.cpp - atomic_rmw and atomic_cas under contention --------===//
//
// Many programs hit a few addresses at once. Besides the final values, every
// returned old value is checked: for each address the old values and the
// results op(old, val) must form one chain from the initial value to the
// final one (the multiset {initial} + {op(old_i, val_i)} equals {old_i} +
// {final}), which holds for any order the device picks and fails for a lost
// update, a torn one, or an old value that was never in memory. The
// kernels are the kernel library's (tests/kernels/Atomic.h, written with
// the C++ builder and built at build time for every warp size).
//
//===----------------------------------------------------------------------===//

#include "E2E.h"
#include "kernels/Atomic.h"

#include <algorithm>
#include <map>

namespace hadron::e2e {
namespace {

using runtime::arg::i32;

using kernels::Elem;

/// The library's layouts and blocks for these tests.
std::vector<Layout1D> layouts() {
  std::vector<Layout1D> l;
  for (const kernels::E2EAtomicLayout &x : kernels::e2eAtomicLayouts())
    l.push_back({x.layout, x.block});
  return l;
}

struct RmwCase {
  std::string kind; ///< hd.atomic_rmw's keyword
  Elem elem;
  bool relaxedCta; ///< relaxed at CTA scope, else acq_rel at GPU scope
  std::string name() const {
    return kind + "_" + testkit::irName(elem) + (relaxedCta ? "_relaxed_cta" : "");
  }
};

std::vector<RmwCase> rmwCases() {
  std::vector<RmwCase> c;
  for (const kernels::E2ERmwKind &k : kernels::e2eRmwKinds())
    c.push_back({k.kind, k.e, k.relaxedCta});
  return c;
}

/// The library's kernel of `use` for this session's lane count.
int addKernel(Program &p, const kernels::KernelUse &use) {
  return p.addBuilt(use.key(session().lanes), use.kernel);
}

// The combine of each kind on values held as int64 (integers) or double
// (f32, whose values are kept integral so that sums are exact).
double combine(const std::string &kind, double old, double val) {
  if (kind == "fadd")
    return static_cast<float>(old + val);
  if (kind == "fmax")
    return std::max(old, val);
  if (kind == "fmin")
    return std::min(old, val);
  if (kind == "xchg")
    return val;
  return NAN;
}

int64_t combine(const std::string &kind, int64_t old, int64_t val, bool wide) {
  auto w = [wide](int64_t v) {
    return wide ? v : static_cast<int64_t>(static_cast<int32_t>(static_cast<uint32_t>(v)));
  };
  auto u = [wide](int64_t v) { return wide ? static_cast<uint64_t>(v) : uint64_t(uint32_t(v)); };
  if (kind == "add")
    return w(static_cast<int64_t>(static_cast<uint64_t>(old) + static_cast<uint64_t>(val)));
  if (kind == "max")
    return std::max(old, val);
  if (kind == "min")
    return std::min(old, val);
  if (kind == "umax")
    return u(old) >= u(val) ? old : val;
  if (kind == "umin")
    return u(old) <= u(val) ? old : val;
  if (kind == "and")
    return old & val;
  if (kind == "or")
    return old | val;
  if (kind == "xor")
    return old ^ val;
  if (kind == "xchg")
    return val;
  return 0;
}

class AtomicRmw : public ::testing::TestWithParam<std::tuple<RmwCase, Layout1D>> {};

// olds[i] = atomic_rmw(kind, bins[i % 7], vals[i]) for i < n; masked-off
// elements carry a value that would change every bin, so an atomic they
// perform shows in the totals.
TEST_P(AtomicRmw, TotalsAndOldValuesFormOneChain) {
  E2E_BEGIN();
  const RmwCase &c = std::get<0>(GetParam());
  const Layout1D &lay = std::get<1>(GetParam());
  constexpr int kBins = kernels::kAtomicBins;
  Program p;
  int kid = addKernel(p, kernels::atomic::rmw(c.kind, c.elem, lay.layout, c.relaxedCta, lay.block));
  E2E_READY(p);
  const int count = tailSize(rng, lay.block, 6 * lay.block);
  const uint32_t grid = ceilDiv(count, lay.block);

  auto check = [&](auto sample, auto gen) {
    using T = decltype(sample);
    std::vector<T> hv(count), init(kBins);
    for (T &x : hv)
      x = gen();
    for (T &x : init)
      x = gen();
    auto bv = p.input(hv);
    auto bb = p.input(init);
    auto bo = p.output<T>(count + 8);
    // The bins are an input that the kernel also changes: read them back.
    std::vector<AnyBuf> outs{io(bo), {[&] { return Status(); }, [&] { return bb.download(); }}};
    E2E_LAUNCH(p, kid, {grid, 1, 1}, {bv.arg(), bb.arg(), bo.arg(), i32(count)}, outs);
    std::vector<T> finals = bb.host();
    const bool wide = std::is_same_v<T, int64_t>;
    for (int b = 0; b < kBins; ++b) {
      std::vector<T> from{init[b]}, to{finals[b]};
      for (int i = b; i < count; i += kBins) {
        T o = bo.host()[i];
        to.push_back(o);
        if constexpr (std::is_same_v<T, float>)
          from.push_back(static_cast<float>(combine(c.kind, o, hv[i])));
        else
          from.push_back(static_cast<T>(combine(c.kind, int64_t(o), int64_t(hv[i]), wide)));
      }
      std::sort(from.begin(), from.end());
      std::sort(to.begin(), to.end());
      EXPECT_EQ(from, to) << "bin " << b << ": the old values and results do not chain from "
                          << show(init[b]) << " to the final " << show(finals[b]);
      // The final value is what the whole chain gives for kinds where the
      // order does not matter.
      if (c.kind != "xchg") {
        T total = init[b];
        for (int i = b; i < count; i += kBins) {
          if constexpr (std::is_same_v<T, float>)
            total = static_cast<float>(combine(c.kind, total, hv[i]));
          else
            total = static_cast<T>(combine(c.kind, int64_t(total), int64_t(hv[i]), wide));
        }
        EXPECT_EQ(finals[b], total) << "final value of bin " << b;
      }
    }
    expectPoisoned(bo.host(), count, bo.size(), "olds past n");
  };
  if (c.elem == Elem::F32)
    check(float(), [&] { return static_cast<float>(std::uniform_int_distribution<int>(-500, 500)(rng)); });
  else if (c.elem == Elem::I64)
    check(int64_t(), [&] {
      return std::uniform_int_distribution<int64_t>(INT64_MIN, INT64_MAX)(rng);
    });
  else
    check(int32_t(), [&] {
      return static_cast<int32_t>(std::uniform_int_distribution<int64_t>(INT32_MIN, INT32_MAX)(rng));
    });
}

INSTANTIATE_TEST_SUITE_P(
    Kinds, AtomicRmw,
    ::testing::Combine(
        ::testing::ValuesIn(rmwCases()),
        ::testing::Values(layouts()[0], layouts()[1])),
    [](const auto &info) {
      return std::get<0>(info.param).name() + "_" + std::get<1>(info.param).name();
    });

// A scalar atomic runs once per program, however many threads the program
// has: counter = number of programs, and each program's old value is a
// distinct ticket 0 .. programs - 1.
TEST(AtomicScalar, OncePerProgram) {
  E2E_BEGIN();
  for (int warps : {1, 4, 8}) {
    SCOPED_TRACE(std::to_string(warps) + " warps");
    Program p;
    int kid = addKernel(p, kernels::atomic::ticket(warps));
    E2E_READY_IN_LOOP(p);
    const int programs = std::uniform_int_distribution<int>(5, 40)(rng);
    auto bc = p.input(std::vector<int32_t>{0});
    auto bt = p.output<int32_t>(programs);
    std::vector<AnyBuf> outs{io(bt), {[] { return Status(); }, [&] { return bc.download(); }}};
    E2E_LAUNCH(p, kid, {uint32_t(programs), 1, 1}, {bc.arg(), bt.arg()}, outs);
    EXPECT_EQ(bc.host()[0], programs);
    std::vector<int32_t> got = bt.host(), want(programs);
    std::sort(got.begin(), got.end());
    for (int i = 0; i < programs; ++i)
      want[i] = i;
    expectExact(got, want, "tickets, sorted");
  }
  E2E_COMPILE_ONLY_DONE();
}

class AtomicCas : public ::testing::TestWithParam<Layout1D> {};

// Every element of every program tries cas(slot, 0, id + 1): exactly one
// wins (sees 0), every other sees the winner's id + 1, and the slot ends
// holding it.
TEST_P(AtomicCas, OneWinnerUnderContention) {
  E2E_BEGIN();
  const Layout1D &lay = GetParam();
  Program p;
  int kid = addKernel(p, kernels::atomic::casWinner(lay.layout, lay.block));
  E2E_READY(p);
  const uint32_t grid = std::uniform_int_distribution<uint32_t>(3, 9)(rng);
  const int total = grid * lay.block;
  auto bs = p.input(std::vector<int32_t>{0});
  auto bo = p.output<int32_t>(total);
  std::vector<AnyBuf> outs{io(bo), {[] { return Status(); }, [&] { return bs.download(); }}};
  E2E_LAUNCH(p, kid, {grid, 1, 1}, {bs.arg(), bo.arg()}, outs);
  const int32_t winner = bs.host()[0];
  ASSERT_GE(winner, 1);
  ASSERT_LE(winner, total);
  int zeros = 0;
  for (int i = 0; i < total; ++i) {
    if (bo.host()[i] == 0) {
      ++zeros;
      EXPECT_EQ(i + 1, winner) << "element " << i << " saw 0 but did not win";
    } else {
      EXPECT_EQ(bo.host()[i], winner) << "element " << i;
    }
  }
  EXPECT_EQ(zeros, 1) << "exactly one element must see the initial 0";
}

// Independent addresses: cas(p[i], cmp[i], val[i]) swaps where cmp equals
// the current value (about half of them), on i32 and i64, with a tail.
TEST_P(AtomicCas, SwapsWhereTheComparisonHolds) {
  E2E_BEGIN();
  const Layout1D &lay = GetParam();
  for (Elem e : {Elem::I32, Elem::I64}) {
    SCOPED_TRACE(testkit::irName(e));
    Program p;
    int kid = addKernel(p, kernels::atomic::casEach(lay.layout, lay.block, e));
    E2E_READY_IN_LOOP(p);
    const int count = tailSize(rng, lay.block, 3 * lay.block);
    auto run = [&](auto sample) {
      using T = decltype(sample);
      std::vector<T> hm = randomVector<T>(rng, count, -1000000, 1000000), hc(count);
      std::vector<T> hv = randomVector<T>(rng, count, -1000000, 1000000);
      std::bernoulli_distribution equal(0.5);
      for (int i = 0; i < count; ++i)
        hc[i] = equal(rng) ? hm[i] : hm[i] + 1;
      auto bm = p.input(hm), bc = p.input(hc), bv = p.input(hv);
      auto bo = p.output<T>(count + 8);
      std::vector<AnyBuf> outs{io(bo), {[] { return Status(); }, [&] { return bm.download(); }}};
      E2E_LAUNCH(p, kid, {ceilDiv(count, lay.block), 1, 1},
                 {bm.arg(), bc.arg(), bv.arg(), bo.arg(), i32(count)}, outs);
      std::vector<T> wantMem(count);
      for (int i = 0; i < count; ++i)
        wantMem[i] = hc[i] == hm[i] ? hv[i] : hm[i];
      expectExact(bo.host(), hm, "old values");
      expectExact(bm.host(), wantMem, "memory after");
      expectPoisoned(bo.host(), count, bo.size(), "olds past n");
    };
    if (e == Elem::I32)
      run(int32_t());
    else
      run(int64_t());
  }
  E2E_COMPILE_ONLY_DONE();
}

INSTANTIATE_TEST_SUITE_P(Layouts, AtomicCas, ::testing::ValuesIn(layouts()),
                         ::testing::PrintToStringParamName());

} // namespace
} // namespace hadron::e2e
