//===- AtomicTest.cpp - atomic_rmw and atomic_cas under contention --------===//
//
// Many programs hit a few addresses at once. Besides the final values, every
// returned old value is checked: for each address the old values and the
// results op(old, val) must form one chain from the initial value to the
// final one (the multiset {initial} + {op(old_i, val_i)} equals {old_i} +
// {final}), which holds for any order the device picks and fails for a lost
// update, a torn one, or an old value that was never in memory.
//
//===----------------------------------------------------------------------===//

#include "E2E.h"

#include <algorithm>
#include <map>

namespace hadron::e2e {
namespace {

using runtime::arg::i32;

const Layout1D kLayouts[] = {
    {{{1}, {32}, {4}, {0}}, 256},
    {{{4}, {32}, {1}, {0}}, 128},
    {{{2}, {32}, {8}, {0}}, 512},
};

enum class Elem { I32, I64, F32 };

struct RmwCase {
  std::string kind; ///< hd.atomic_rmw's keyword
  Elem elem;
  std::string attrs; ///< sem / scope
  std::string name() const {
    static const char *names[] = {"i32", "i64", "f32"};
    return kind + "_" + names[static_cast<int>(elem)] + (attrs.empty() ? "" : "_relaxed_cta");
  }
};

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
  const std::string e = c.elem == Elem::I32 ? "i32" : c.elem == Elem::I64 ? "i64" : "f32";
  constexpr int kBins = 7;
  KernelBuilder k("rmw", lay.layout.numWarps());
  std::string l = k.layout("l", lay.layout.str(S.lanes));
  std::string vals = k.arg("!hd.ptr<" + e + ">"), bins = k.arg("!hd.ptr<" + e + ">");
  std::string olds = k.arg("!hd.ptr<" + e + ">"), n = k.arg("i32");
  std::string start = k.let("arith.muli " + k.let("hd.program_id 0") + ", " +
                            k.constI32(lay.block) + " : i32");
  auto t = k.tile1d(lay.block, l, start, n);
  std::string it = tensor({lay.block}, "i32", l), vt = tensor({lay.block}, e, l);
  std::string pt = tensor({lay.block}, "!hd.ptr<" + e + ">", l);
  std::string poison =
      k.let("arith.constant dense<" + std::string(e == "f32" ? "1048577.0" : "1048577") + "> : " + vt);
  std::string v = k.let("hd.load " + k.pointers(vals, e, t.offsets, {lay.block}, l) + " mask " +
                        t.mask + " other " + poison + " : " + pt);
  std::string bin = k.let("arith.remsi " + t.offsets + ", " +
                          k.let("arith.constant dense<" + std::to_string(kBins) + "> : " + it) +
                          " : " + it);
  std::string bp = k.pointers(bins, e, bin, {lay.block}, l);
  std::string old = k.let("hd.atomic_rmw " + c.kind + ", " + bp + ", " + v + " mask " + t.mask +
                          (c.attrs.empty() ? "" : " {" + c.attrs + "}") + " : " + pt + " -> " + vt);
  k.line("hd.store " + k.pointers(olds, e, t.offsets, {lay.block}, l) + ", " + old + " mask " +
         t.mask + " : " + pt);

  Program p;
  int kid = p.add(k);
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
        ::testing::Values(RmwCase{"add", Elem::I32, ""}, RmwCase{"max", Elem::I32, ""},
                          RmwCase{"min", Elem::I32, ""}, RmwCase{"umax", Elem::I32, ""},
                          RmwCase{"umin", Elem::I32, ""}, RmwCase{"and", Elem::I32, ""},
                          RmwCase{"or", Elem::I32, ""}, RmwCase{"xor", Elem::I32, ""},
                          RmwCase{"xchg", Elem::I32, ""}, RmwCase{"add", Elem::I64, ""},
                          RmwCase{"max", Elem::I64, ""}, RmwCase{"xchg", Elem::I64, ""},
                          RmwCase{"fadd", Elem::F32, ""}, RmwCase{"fmax", Elem::F32, ""},
                          RmwCase{"fmin", Elem::F32, ""}, RmwCase{"xchg", Elem::F32, ""},
                          RmwCase{"add", Elem::I32,
                                  "sem = #hd.sem<relaxed>, scope = #hd.scope<cta>"}),
        ::testing::Values(kLayouts[0], kLayouts[1])),
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
    KernelBuilder k("ticket", warps);
    std::string counter = k.arg("!hd.ptr<i32>"), tickets = k.arg("!hd.ptr<i32>");
    std::string pid = k.let("hd.program_id 0");
    std::string one = k.constI32(1);
    std::string old = k.let("hd.atomic_rmw add, " + counter + ", " + one + " : !hd.ptr<i32> -> i32");
    k.line("hd.store " + k.let("hd.addptr " + tickets + ", " + pid + " : !hd.ptr<i32>, i32") +
           ", " + old + " : !hd.ptr<i32>");
    Program p;
    int kid = p.add(k);
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
  KernelBuilder k("cas_winner", lay.layout.numWarps());
  std::string l = k.layout("l", lay.layout.str(S.lanes));
  std::string slot = k.arg("!hd.ptr<i32>"), seen = k.arg("!hd.ptr<i32>");
  std::string start = k.let("arith.muli " + k.let("hd.program_id 0") + ", " +
                            k.constI32(lay.block) + " : i32");
  auto t = k.tile1d(lay.block, l, start, "");
  std::string it = tensor({lay.block}, "i32", l), pt = tensor({lay.block}, "!hd.ptr<i32>", l);
  std::string id1 = k.let("arith.addi " + t.offsets + ", " + k.let("arith.constant dense<1> : " + it) +
                          " : " + it);
  std::string zero = k.let("arith.constant dense<0> : " + it);
  std::string sp = k.splat(slot, pt);
  std::string old = k.let("hd.atomic_cas " + sp + ", " + zero + ", " + id1 + " : " + pt + " -> " + it);
  k.line("hd.store " + k.pointers(seen, "i32", t.offsets, {lay.block}, l) + ", " + old + " : " + pt);
  Program p;
  int kid = p.add(k);
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
  for (const char *e : {"i32", "i64"}) {
    SCOPED_TRACE(e);
    KernelBuilder k("cas_each", lay.layout.numWarps());
    std::string l = k.layout("l", lay.layout.str(S.lanes));
    std::string ty = e;
    std::string mem = k.arg("!hd.ptr<" + ty + ">"), cmp = k.arg("!hd.ptr<" + ty + ">");
    std::string val = k.arg("!hd.ptr<" + ty + ">"), olds = k.arg("!hd.ptr<" + ty + ">");
    std::string n = k.arg("i32");
    std::string start = k.let("arith.muli " + k.let("hd.program_id 0") + ", " +
                              k.constI32(lay.block) + " : i32");
    auto t = k.tile1d(lay.block, l, start, n);
    std::string pt = tensor({lay.block}, "!hd.ptr<" + ty + ">", l), vt = tensor({lay.block}, ty, l);
    std::string cv = k.let("hd.load " + k.pointers(cmp, ty, t.offsets, {lay.block}, l) + " mask " +
                           t.mask + " : " + pt);
    std::string vv = k.let("hd.load " + k.pointers(val, ty, t.offsets, {lay.block}, l) + " mask " +
                           t.mask + " : " + pt);
    // Past n the addresses are clamped to element 0 with an impossible
    // comparison, so nothing outside the arrays is touched.
    std::string it = tensor({lay.block}, "i32", l);
    std::string safe = k.let("arith.select " + t.mask + ", " + t.offsets + ", " +
                             k.let("arith.constant dense<0> : " + it) + " : " +
                             tensor({lay.block}, "i1", l) + ", " + it);
    std::string never = k.let("arith.constant dense<" + std::string("-7777777") + "> : " + vt);
    std::string cmpSafe = k.let("arith.select " + t.mask + ", " + cv + ", " + never + " : " +
                                tensor({lay.block}, "i1", l) + ", " + vt);
    std::string old = k.let("hd.atomic_cas " + k.pointers(mem, ty, safe, {lay.block}, l) + ", " +
                            cmpSafe + ", " + vv + " : " + pt + " -> " + vt);
    k.line("hd.store " + k.pointers(olds, ty, t.offsets, {lay.block}, l) + ", " + old + " mask " +
           t.mask + " : " + pt);
    Program p;
    int kid = p.add(k);
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
    if (ty == "i32")
      run(int32_t());
    else
      run(int64_t());
  }
  E2E_COMPILE_ONLY_DONE();
}

INSTANTIATE_TEST_SUITE_P(Layouts, AtomicCas, ::testing::ValuesIn(kLayouts),
                         ::testing::PrintToStringParamName());

} // namespace
} // namespace hadron::e2e
