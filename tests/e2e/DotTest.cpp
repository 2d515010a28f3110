//===- DotTest.cpp - hd.dot through the FMA lowering every target runs ----===//
//
// D = A * B + C for M x K and K x N row-major matrices whose sizes are not
// multiples of the tiles: each program owns one BM x BN tile of D, walks K
// in steps of BK with an scf.for carrying the accumulator, and loads A and
// B masked (zeros past the edges) in blocked layouts converted to the
// #hd.dot_op layouts of the accumulator. Integral inputs make every sum
// exact whatever order the lowering adds in; one case also runs fractional
// values against an error bound.
//
// The kernels whose operands stay in registers are the kernel library's
// matmul (tests/kernels/Dot.h, written with the C++ builder). Those whose
// operands reach the dot as shared-memory tiles stay IR text: the builder's
// dot takes register tiles only (it has no async dot on shared-memory
// descriptors and no dot_wait), and the group case names a made-up matrix
// instruction inline.
//
//===----------------------------------------------------------------------===//

#include "E2E.h"
#include "kernels/Dot.h"

namespace hadron::e2e {
namespace {

using runtime::arg::i32;

struct DotCase {
  Blocked acc;
  int bm, bn, bk;
  std::string in = "f32"; ///< A and B; the accumulator is f32 (f64 for f64).
  /// A and B reach the dot as shared-memory tiles (local_alloc of the loaded
  /// tiles), which the dot reads where they stand.
  bool shared = false;
  /// With `group`, the accumulator is an #hd.mma of an instruction that 4
  /// warps issue together reading A and B from shared memory (no register
  /// fragments); targets that fold warps into one thread run it as FMAs.
  bool group = false;
  std::string name() const {
    return in + "_" + acc.name() + "_" + std::to_string(bm) + "x" + std::to_string(bn) + "x" +
           std::to_string(bk) + (shared ? "_shared" : "") + (group ? "_group" : "");
  }
  std::string accElem() const { return in == "f64" ? "f64" : "f32"; }
};

/// The cases: the library's uses, then those with shared-memory operands.
std::vector<DotCase> dotCases() {
  std::vector<DotCase> cases;
  for (const kernels::KernelUse &u : kernels::e2eDotUses())
    cases.push_back({u.layout, u.ints[0], u.ints[1], u.ints[2], testkit::irName(u.elem)});
  cases.push_back({{{2, 4}, {4, 8}, {4, 1}, {1, 0}}, 32, 32, 8, "f32", true});
  cases.push_back({{{2, 2}, {8, 4}, {1, 1}, {1, 0}}, 16, 16, 8, "f16", true});
  cases.push_back({{{1, 1}, {8, 4}, {4, 1}, {1, 0}}, 32, 16, 8, "f16", true, true});
  return cases;
}

/// The library's matmul of a case whose operands stay in registers, for
/// this session's lane count.
int addLibraryKernel(Program &p, const DotCase &c) {
  const auto elem = [](const std::string &t) { return t == "f16" ? testkit::Elem::F16
                                                      : t == "f64" ? testkit::Elem::F64
                                                                   : testkit::Elem::F32; };
  kernels::KernelUse use = kernels::dotUse(elem(c.in), elem(c.accElem()), c.acc, c.bm, c.bn, c.bk);
  return p.addBuilt(use.key(session().lanes), use.kernel);
}

/// The text kernel of a case whose operands are shared-memory tiles.
int addSharedOperandKernel(Program &p, const DotCase &c) {
  Session &S = session();
  const int warps = c.acc.numWarps();
  const std::string e = c.in, ae = c.accElem();
  KernelBuilder k("matmul", warps);
  std::string acc =
      c.group ? k.layout("acc", "#hd.mma<{instr = #hd.matrix_instr<{name = \"group.m32n8k8\", "
                                "shape = [32, 8, 8], aType = " + c.in + ", bType = " + c.in +
                                ", accType = f32, acc = {register = [[0, 1]], lane = [[0, 2], "
                                "[0, 4], [1, 0], [2, 0], [4, 0]], warp = [[8, 0], [16, 0]]}}>, "
                                "warpsPerCTA = [4, 1]}>")
              : k.layout("acc", c.acc.str(S.lanes));
  std::string al = k.layout("a_load", Blocked{{1, 1}, {8, 4}, {warps, 1}, {1, 0}}.str(S.lanes));
  std::string bl = k.layout("b_load", Blocked{{1, 1}, {2, 16}, {1, warps}, {1, 0}}.str(S.lanes));
  std::string A = k.arg("!hd.ptr<" + e + ">"), B = k.arg("!hd.ptr<" + e + ">");
  std::string C = k.arg("!hd.ptr<" + ae + ">"), D = k.arg("!hd.ptr<" + ae + ">");
  std::string m = k.arg("i32"), n = k.arg("i32"), kk = k.arg("i32");
  std::string m0 = k.let("arith.muli " + k.let("hd.program_id 0") + ", " + k.constI32(c.bm) + " : i32");
  std::string n0 = k.let("arith.muli " + k.let("hd.program_id 1") + ", " + k.constI32(c.bn) + " : i32");
  // The accumulator starts from C.
  auto tc = k.tile2d({c.bm, c.bn}, acc, m0, n0, n, m, n);
  std::string accT = tensor({c.bm, c.bn}, ae, acc);
  std::string accP = tensor({c.bm, c.bn}, "!hd.ptr<" + ae + ">", acc);
  std::string c0 = k.let("hd.load " + k.pointers(C, ae, tc.offsets, {c.bm, c.bn}, acc) + " mask " +
                         tc.mask + " other " + k.let("arith.constant dense<0.0> : " + accT) + " : " +
                         accP);
  std::string lb = k.constIndex(0), step = k.constIndex(c.bk);
  std::string ub = k.let("arith.index_cast " + kk + " : i32 to index");
  std::string iv = k.fresh(), carried = k.fresh();
  std::string result = k.let("scf.for " + iv + " = " + lb + " to " + ub + " step " + step +
                             " iter_args(" + carried + " = " + c0 + ") -> (" + accT + ") {");
  std::string k0 = k.let("arith.index_cast " + iv + " : index to i32");
  auto ta = k.tile2d({c.bm, c.bk}, al, m0, k0, kk, m, kk);
  auto tb = k.tile2d({c.bk, c.bn}, bl, k0, n0, n, kk, n);
  std::string aT = tensor({c.bm, c.bk}, e, al), bT = tensor({c.bk, c.bn}, e, bl);
  std::string a = k.let("hd.load " + k.pointers(A, e, ta.offsets, {c.bm, c.bk}, al) + " mask " +
                        ta.mask + " other " + k.let("arith.constant dense<0.0> : " + aT) + " : " +
                        tensor({c.bm, c.bk}, "!hd.ptr<" + e + ">", al));
  std::string b = k.let("hd.load " + k.pointers(B, e, tb.offsets, {c.bk, c.bn}, bl) + " mask " +
                        tb.mask + " other " + k.let("arith.constant dense<0.0> : " + bT) + " : " +
                        tensor({c.bk, c.bn}, "!hd.ptr<" + e + ">", bl));
  const std::string sw = "#hd.swizzled<{vec = 2, perPhase = 1, maxPhase = 4, order = [1, 0]}>";
  const std::string aOpT = "!hd.memdesc<" + std::to_string(c.bm) + "x" + std::to_string(c.bk) +
                           "x" + e + ", " + sw + ">";
  const std::string bOpT = "!hd.memdesc<" + std::to_string(c.bk) + "x" + std::to_string(c.bn) +
                           "x" + e + ", " + sw + ">";
  std::string ad = k.let("hd.local_alloc " + a + " : " + aT + " -> " + aOpT);
  std::string bd = k.let("hd.local_alloc " + b + " : " + bT + " -> " + bOpT);
  // The dot is async and a dot_wait retires it (on targets whose dots
  // complete at once both are plain).
  std::string next = k.let("hd.dot " + ad + ", " + bd + ", " + carried + " {async} : " + aOpT +
                           " * " + bOpT + " -> " + accT);
  next = k.let("hd.dot_wait " + next + " pending = 0 : " + accT);
  k.line("scf.yield " + next + " : " + accT);
  k.line("}");
  k.line("hd.store " + k.pointers(D, ae, tc.offsets, {c.bm, c.bn}, acc) + ", " + result + " mask " +
         tc.mask + " : " + accP);
  return p.add(k);
}

class Dot : public ::testing::TestWithParam<DotCase> {};

TEST_P(Dot, MatmulWithTailsAndAccumulator) {
  E2E_BEGIN();
  const DotCase &c = GetParam();
  // Operands move between threads to reach the dot_op layouts.
  E2E_REQUIRE(CrossLaneConvert);
  // A compile-only run has no device info: the host plugin is the one that
  // folds warps (the AOT run then needs this kernel in the cache).
  const bool foldsWarps = S.compileOnly ? S.plugin == "host" : S.info.warp_size == 1;
  if (c.group && (!foldsWarps || S.lanes != 32))
    GTEST_SKIP() << "the group instruction is made up, for 32-lane warps: only a target that "
                    "folds warps into one thread runs it (as FMAs), with 32-lane layouts";
  Program p;
  int kid = c.shared ? addSharedOperandKernel(p, c) : addLibraryKernel(p, c);
  E2E_READY(p);
  const int M = tailSize(rng, c.bm, 3 * c.bm), N = tailSize(rng, c.bn, 3 * c.bn);
  const int K = tailSize(rng, c.bk, 5 * c.bk);
  SCOPED_TRACE("M, N, K = " + std::to_string(M) + ", " + std::to_string(N) + ", " + std::to_string(K));
  auto run = [&](auto inSample, auto accSample, bool integral) {
    using TI = decltype(inSample);
    using TA = decltype(accSample);
    auto gen = [&](int count) {
      std::vector<double> v(count);
      std::uniform_int_distribution<int> d(-4, 4);
      std::uniform_real_distribution<double> f(-1, 1);
      for (double &x : v)
        x = integral ? d(rng) : f(rng);
      return v;
    };
    std::vector<double> a = gen(M * K), b = gen(K * N), c0 = gen(M * N);
    auto typed = [](const std::vector<double> &v, auto sample) {
      using T = decltype(sample);
      std::vector<T> out(v.size());
      for (size_t i = 0; i < v.size(); ++i) {
        if constexpr (std::is_same_v<T, Half>)
          out[i] = toHalf(static_cast<float>(v[i]));
        else
          out[i] = static_cast<T>(v[i]);
      }
      return out;
    };
    std::vector<TI> ha = typed(a, TI()), hb = typed(b, TI());
    std::vector<TA> hc = typed(c0, TA());
    // The reference sees the inputs as the device does (rounded to their type).
    auto value = [](const auto &x) {
      if constexpr (std::is_same_v<std::decay_t<decltype(x)>, Half>)
        return double(fromHalf(x));
      else
        return double(x);
    };
    auto ba = p.input(ha), bb = p.input(hb), bc = p.input(hc);
    auto bd = p.output<TA>(M * N + 8);
    E2E_LAUNCH(p, kid, {ceilDiv(M, c.bm), ceilDiv(N, c.bn), 1},
               {ba.arg(), bb.arg(), bc.arg(), bd.arg(), i32(M), i32(N), i32(K)}, {io(bd)});
    std::vector<TA> want(M * N);
    std::vector<double> bound(M * N);
    for (int i = 0; i < M; ++i)
      for (int j = 0; j < N; ++j) {
        double s = value(hc[i * N + j]), mag = std::fabs(s);
        for (int q = 0; q < K; ++q) {
          double t = value(ha[i * K + q]) * value(hb[q * N + j]);
          s += t;
          mag += std::fabs(t);
        }
        want[i * N + j] = static_cast<TA>(s);
        bound[i * N + j] = (K + 1) * (std::is_same_v<TA, float> ? 1.2e-7 : 2.3e-16) * mag;
      }
    if (integral) {
      expectExact(bd.host(), want, "D = A * B + C");
    } else {
      expectAll(
          M * N,
          [&](size_t i) -> std::optional<std::string> {
            if (std::fabs(double(bd.host()[i]) - double(want[i])) <= bound[i])
              return std::nullopt;
            return "got " + show(bd.host()[i]) + ", want " + show(want[i]) + " within " +
                   show(bound[i]);
          },
          "D = A * B + C, fractional");
    }
    expectPoisoned(bd.host(), M * N, bd.size(), "past D");
  };
  if (c.in == "f16") {
    run(Half(), float(), true);
  } else if (c.in == "f64") {
    run(double(), double(), true);
    run(double(), double(), false);
  } else {
    run(float(), float(), true);
    run(float(), float(), false);
  }
}

INSTANTIATE_TEST_SUITE_P(Tiles, Dot, ::testing::ValuesIn(dotCases()),
                         ::testing::PrintToStringParamName());

} // namespace
} // namespace hadron::e2e
