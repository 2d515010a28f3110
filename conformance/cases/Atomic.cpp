//===- Atomic.cpp - atomic_rmw and atomic_cas under contention -----------===//
//
// atomic.*: every element of every program hits one of a few bins at once.
// Checked: the final bins equal every value folded into the initial ones
// (the kinds are commutative; xchg's final value is one of those written),
// and per bin the old values chain: {initial} + {op(old_i, val_i)} equals
// {old_i} + {final} as multisets, which holds for any order the device
// picks and fails for a lost or torn update or an old value never in
// memory. Masked-off lanes carry a value that would change every bin.
// atomic_cas: per bin exactly one element swaps 0 for its own value and all
// others see that value. The kernels are the kernel library's
// (tests/kernels/Atomic.h, written with the C++ builder), which also fixes
// the cases' order; here are the inputs and the checks.
//
//===----------------------------------------------------------------------===//

#include "Common.h"

#include <algorithm>
#include <map>

namespace hadron::conformance {

namespace {

constexpr int kBins = kernels::kAtomicBins;

int64_t combineInt(const std::string &kind, int64_t old, int64_t val, Elem e) {
  const uint64_t mask = e == Elem::I64 ? ~0ull : 0xffffffffull;
  auto u = [mask](int64_t v) { return static_cast<uint64_t>(v) & mask; };
  if (kind == "add")
    return wrapTo(e, static_cast<int64_t>(static_cast<uint64_t>(old) + static_cast<uint64_t>(val)));
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
  return val; // xchg
}

double combineFloat(const std::string &kind, double old, double val) {
  if (kind == "fadd")
    return static_cast<float>(old + val);
  if (kind == "fmax")
    return std::max(old, val);
  if (kind == "fmin")
    return std::min(old, val);
  return val; // xchg
}

Plan rmw(Env &env, const kernels::KernelUse &use) {
  const std::string &kind = use.variant;
  const Elem e = use.elem;
  const int block = use.layout.tile(0, env.lanes);
  const bool fl = isFloat(e);
  Plan p = libraryPlan(use, env.lanes);
  const int count = env.tailSize(block, 6 * block);
  Array va(e, count), init(e, kBins);
  for (int i = 0; i < count; ++i) {
    if (fl) // integral values: every order of fadd sums exactly
      va.setF(i, static_cast<double>(env.uniformInt(-64, 64)));
    else
      va.setI(i, kind == "add" ? env.uniformInt(-1000, 1000) : defaultValue(env, e).i);
  }
  for (int b = 0; b < kBins; ++b) {
    if (fl)
      init.setF(b, static_cast<double>(env.uniformInt(-1000, 1000)));
    else
      init.setI(b, defaultValue(env, e).i);
  }
  int ib = p.addInput("vals", va);
  int bb = p.addInOut("bins", init, Array());
  p.buffers[bb].check = [](const Array &) { return std::optional<Mismatch>(); };
  Array oldWant(e, count); // every element is written; checked by the chain
  int ob = p.addOutput("olds", oldWant);
  p.buffers[ob].check = [count](const Array &got) -> std::optional<Mismatch> {
    for (size_t i = 0; i < got.size(); ++i)
      if ((i < size_t(count)) == got.isPoison(i))
        return Mismatch{i, i < size_t(count) ? "an old value" : "poison (past n)", got.show(i), 1, "olds"};
    return std::nullopt;
  };
  p.argBuffer(ib);
  p.argBuffer(bb);
  p.argBuffer(ob);
  p.argI32(count);
  p.grid = {static_cast<uint32_t>((count + block - 1) / block), 1, 1};
  addNote(p, "n = " + std::to_string(count) + " into " + std::to_string(kBins) + " bins");
  p.check = [kind, e, fl, count, va, init, bb, ob](const std::vector<Array> &out) -> std::optional<Mismatch> {
    const Array &bins = out[bb], &olds = out[ob];
    for (int b = 0; b < kBins; ++b) {
      std::vector<uint64_t> lhs{init.bits(b)}, rhs{bins.bits(b)};
      double accF = init.f(b);
      int64_t accI = init.i(b);
      std::vector<uint64_t> written{init.bits(b)};
      for (int i = b; i < count; i += kBins) {
        Array tmp(e, 1);
        if (fl) {
          tmp.setF(0, combineFloat(kind, olds.f(i), va.f(i)));
          accF = combineFloat(kind, accF, va.f(i));
        } else {
          tmp.setI(0, combineInt(kind, olds.i(i), va.i(i), e));
          accI = combineInt(kind, accI, va.i(i), e);
        }
        lhs.push_back(tmp.bits(0));
        rhs.push_back(olds.bits(i));
        written.push_back(va.bits(i));
      }
      Array want(e, 1);
      fl ? want.setF(0, accF) : want.setI(0, accI);
      if (kind == "xchg") {
        if (std::find(written.begin(), written.end(), bins.bits(b)) == written.end())
          return Mismatch{size_t(b), "one of the values written", bins.show(b), 1, "bins (xchg)"};
      } else if (bins.bits(b) != want.bits(0)) {
        return Mismatch{size_t(b), want.show(0), bins.show(b), 1, "bins (final value)"};
      }
      std::sort(lhs.begin(), lhs.end());
      std::sort(rhs.begin(), rhs.end());
      if (lhs != rhs)
        return Mismatch{size_t(b), "old values that chain from the initial value to the final one",
                        "a lost, torn or invented update", 1, "olds of bin " + std::to_string(b)};
    }
    return std::nullopt;
  };
  return p;
}

/// old = atomic_cas(bins[i % K], 0, i + 1): per bin one winner.
Plan cas(Env &env, Elem e) {
  const kernels::KernelUse use = kernels::atomic::cas(e);
  const int block = use.layout.tile(0, env.lanes);
  Plan p = libraryPlan(use, env.lanes);
  const int count = static_cast<int>(env.uniformInt(kBins, 4 * block));
  Array init(e, kBins);
  for (int b = 0; b < kBins; ++b)
    init.setI(b, 0);
  int bb = p.addInOut("bins", init, Array());
  p.buffers[bb].check = [](const Array &) { return std::optional<Mismatch>(); };
  int ob = p.addOutput("olds", Array(e, count));
  p.buffers[ob].check = [](const Array &) { return std::optional<Mismatch>(); };
  p.argBuffer(bb);
  p.argBuffer(ob);
  p.argI32(count);
  p.grid = {static_cast<uint32_t>((count + block - 1) / block), 1, 1};
  addNote(p, "n = " + std::to_string(count));
  p.check = [count, bb, ob](const std::vector<Array> &out) -> std::optional<Mismatch> {
    const Array &bins = out[bb], &olds = out[ob];
    for (int b = 0; b < kBins; ++b) {
      const int64_t final = bins.i(b);
      if (final < 1 || final > count || (final - 1) % kBins != b)
        return Mismatch{size_t(b), "the value of an element of this bin", bins.show(b), 1, "bins"};
      int winners = 0;
      for (int i = b; i < count; i += kBins) {
        if (olds.i(i) == 0)
          ++winners;
        else if (olds.i(i) != final)
          return Mismatch{size_t(i), "0 (won) or " + std::to_string(final), olds.show(i), 1, "olds"};
      }
      if (winners != 1 || olds.i(final - 1) != 0)
        return Mismatch{size_t(b), "one winner, the element whose value the bin holds",
                        std::to_string(winners) + " winner(s)", 1, "bins"};
    }
    return std::nullopt;
  };
  return p;
}

/// A histogram: bins[x % 16] += 1 for every element; counts are exact.
Plan histogram(Env &env) {
  const kernels::KernelUse use = kernels::atomic::histogram();
  const int block = use.layout.tile(0, env.lanes);
  constexpr int kHist = 16;
  Plan p = libraryPlan(use, env.lanes);
  const int count = env.tailSize(block, 8 * block);
  Array x0(Elem::I32, count), zero(Elem::I32, kHist), want(Elem::I32, kHist);
  // Skewed: bin 3 gets half of everything (the hottest address).
  for (int i = 0; i < count; ++i)
    x0.setI(i, env.uniformInt(0, 1) ? 3 + 16 * env.uniformInt(0, 100) : env.uniformInt(0, 1 << 20));
  for (int i = 0; i < count; ++i)
    want.setI(x0.i(i) & (kHist - 1), want.i(x0.i(i) & (kHist - 1)) + 1);
  p.argBuffer(p.addInput("in", std::move(x0)));
  p.argBuffer(p.addInOut("hist", std::move(zero), std::move(want)));
  p.argI32(count);
  p.grid = {static_cast<uint32_t>((count + block - 1) / block), 1, 1};
  return p;
}

} // namespace

void addAtomicCases(std::vector<Case> &cases) {
  for (const kernels::KernelUse &use : kernels::atomicUses()) {
    if (use.kernel == "rmw")
      cases.push_back({"atomic.rmw." + use.variant + "." + irName(use.elem) +
                           (use.ints[0] ? ".relaxed_cta" : ""),
                       [use](Env &env) { return rmw(env, use); }});
    else if (use.kernel == "cas")
      cases.push_back({std::string("atomic.cas.") + irName(use.elem),
                       [e = use.elem](Env &env) { return cas(env, e); }});
    else
      cases.push_back({"atomic.histogram.hot_bin", histogram});
  }
}

} // namespace hadron::conformance
