//===- Dot.cpp - hd.dot for f16/bf16/f32/f64/i8, several shapes ----------===//
//
// dot.<in>_<acc>.<bm>x<bn>x<bk>: D = C + A x B over an M x N x K problem
// with tails in every dimension, the K loop an scf.for carrying the
// accumulator, operands loaded in blocked layouts and converted to their
// dot_op layouts. Narrow types draw small integers, so every product and
// partial sum is exact and the result must match bit for bit whatever the
// summation order (a matrix unit's or an FMA loop's); f32 and f64 draw
// uniform values and compare by relative norm.
//
// dot.mma.<instr>[.tails]: the same kernel with the accumulator in an
// #hd.mma layout of a matrix instruction a target reported (MatrixInstr.h),
// over two warps: one tile of 2m x 2n x k with the warps along M (each
// repeats the instruction along N), and tiles of 2m x 2n x k with the warps
// along N (each repeats it along M) over a problem with tails in M, N and K
// (a K loop, masked loads). An instruction of m*n*k > 2048 is not repeated.
// Inputs are small integers, so the result is exact.
//
// The dot.* kernels are the kernel library's (tests/kernels/Dot.h, written
// with the C++ builder). The dot.mma.* kernels stay IR text here: the
// #hd.matrix_instr their accumulator layout names is what a target plugin
// reports at run time, and the library is a table built at build time,
// where no plugin is asked.
//
//===----------------------------------------------------------------------===//

#include "Common.h"

#include "kernels/Dot.h"
#include "testkit/TextKernel.h"

#include <optional>

namespace hadron::conformance {

namespace {

using testkit::Kernel;
using testkit::ptr;
using testkit::tensor;

/// One dot.mma kernel and its problem.
struct DotTile {
  Elem in, acc;
  std::string accLayout; ///< written for `lanes`
  /// An #hd.matrix_instr that accLayout names as #instr; empty for none.
  std::string instr;
  int warps;
  unsigned lanes;
  int bm, bn, bk;
  bool tf32;  ///< f32 operands read at tf32 precision
  bool tails; ///< M, N, K drawn with tails; else exactly one bm x bn x bk tile
};

/// The problem of a dot kernel (A, B, C, D, M, N, K) with bm x bn x bk
/// tiles: M, N and K with tails (or exactly one tile), inputs, reference.
Plan dotProblem(Env &env, Plan p, Elem in, Elem acc, int bm, int bn, int bk, bool tf32,
                bool tails);

/// The text kernel of a dot.mma case and its problem.
Plan mmaDot(Env &env, const DotTile &c) {
  const int warps = c.warps;
  const std::string e = irName(c.in), ae = irName(c.acc);
  Kernel k("matmul", warps);
  if (!c.instr.empty())
    k.layout("instr", c.instr);
  std::string acc = k.layout("acc", c.accLayout);
  std::string aop = k.layout("a_op", "#hd.dot_op<{opIdx = 0, parent = " + acc + "}>");
  std::string bop = k.layout("b_op", "#hd.dot_op<{opIdx = 1, parent = " + acc + "}>");
  std::string al = k.layout("a_load", Blocked{{1, 1}, {8, 4}, {warps, 1}, {1, 0}}.str(c.lanes));
  std::string bl = k.layout("b_load", Blocked{{1, 1}, {2, 16}, {1, warps}, {1, 0}}.str(c.lanes));
  std::string A = k.arg(ptr(e)), B = k.arg(ptr(e)), C = k.arg(ptr(ae)), D = k.arg(ptr(ae));
  std::string m = k.arg("i32"), n = k.arg("i32"), kk = k.arg("i32");
  std::string m0 = k.let("arith.muli " + k.programId(0) + ", " + k.constI32(c.bm) + " : i32");
  std::string n0 = k.let("arith.muli " + k.programId(1) + ", " + k.constI32(c.bn) + " : i32");
  auto tc = k.tile2d({c.bm, c.bn}, acc, m0, n0, n, m, n);
  const std::string accT = tensor({c.bm, c.bn}, ae, acc);
  const bool intAcc = !isFloat(c.acc);
  std::string c0 = k.load(k.pointers(C, ae, tc.offsets, {c.bm, c.bn}, acc), ae, {c.bm, c.bn}, acc,
                          tc.mask, k.dense(intAcc ? "0" : "0.0", accT));
  std::string ub = k.let("arith.index_cast " + kk + " : i32 to index");
  std::string iv = k.fresh(), carried = k.fresh();
  std::string result = k.let("scf.for " + iv + " = " + k.constIndex(0) + " to " + ub + " step " +
                             k.constIndex(c.bk) + " iter_args(" + carried + " = " + c0 + ") -> (" +
                             accT + ") {");
  std::string k0 = k.let("arith.index_cast " + iv + " : index to i32");
  auto ta = k.tile2d({c.bm, c.bk}, al, m0, k0, kk, m, kk);
  auto tb = k.tile2d({c.bk, c.bn}, bl, k0, n0, n, kk, n);
  const std::string aT = tensor({c.bm, c.bk}, e, al), bT = tensor({c.bk, c.bn}, e, bl);
  const std::string zero = isFloat(c.in) ? "0.0" : "0";
  std::string a = k.load(k.pointers(A, e, ta.offsets, {c.bm, c.bk}, al), e, {c.bm, c.bk}, al, ta.mask,
                         k.dense(zero, aT));
  std::string b = k.load(k.pointers(B, e, tb.offsets, {c.bk, c.bn}, bl), e, {c.bk, c.bn}, bl, tb.mask,
                         k.dense(zero, bT));
  const std::string aOpT = tensor({c.bm, c.bk}, e, aop), bOpT = tensor({c.bk, c.bn}, e, bop);
  std::string ad = k.let("hd.convert_layout " + a + " : " + aT + " -> " + aOpT);
  std::string bd = k.let("hd.convert_layout " + b + " : " + bT + " -> " + bOpT);
  std::string next = k.let("hd.dot " + ad + ", " + bd + ", " + carried +
                           (c.tf32 ? " {inputPrecision = #hd.precision<tf32>}" : "") + " : " +
                           aOpT + " * " + bOpT + " -> " + accT);
  k.line("scf.yield " + next + " : " + accT);
  k.line("}");
  k.store(k.pointers(D, ae, tc.offsets, {c.bm, c.bn}, acc), result, ae, {c.bm, c.bn}, acc, tc.mask);

  Plan p;
  p.kernel = k.name();
  p.ir = k.str();
  return dotProblem(env, std::move(p), c.in, c.acc, c.bm, c.bn, c.bk, c.tf32, c.tails);
}

Plan dotProblem(Env &env, Plan p, Elem in, Elem acc, int bm, int bn, int bk, bool tf32,
                bool tails) {
  const struct {
    Elem in, acc;
    int bm, bn, bk;
    bool tf32, tails;
  } c{in, acc, bm, bn, bk, tf32, tails};
  const bool intAcc = !isFloat(c.acc);
  const int M = c.tails ? env.tailSize(c.bm, 2 * c.bm) : c.bm;
  const int N = c.tails ? env.tailSize(c.bn, 2 * c.bn) : c.bn;
  const int K = c.tails ? env.tailSize(c.bk, 4 * c.bk) : c.bk;
  const bool exact = c.tf32 || (c.in != Elem::F32 && c.in != Elem::F64);
  auto draw = [&](Array &x) {
    for (size_t i = 0; i < x.size(); ++i) {
      if (exact)
        isFloat(x.elem()) ? x.setF(i, double(env.uniformInt(-4, 4))) : x.setI(i, env.uniformInt(-4, 4));
      else
        x.setF(i, env.uniform(-1, 1));
    }
  };
  Array ha(c.in, size_t(M) * K), hb(c.in, size_t(K) * N), hc(c.acc, size_t(M) * N);
  draw(ha);
  draw(hb);
  draw(hc);
  Array want(c.acc, size_t(M) * N);
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      double s = intAcc ? double(hc.i(size_t(i) * N + j)) : hc.f(size_t(i) * N + j);
      for (int q = 0; q < K; ++q)
        s += (intAcc ? double(ha.i(size_t(i) * K + q)) * double(hb.i(size_t(q) * N + j))
                     : ha.f(size_t(i) * K + q) * hb.f(size_t(q) * N + j));
      intAcc ? want.setI(size_t(i) * N + j, static_cast<int64_t>(s)) : want.setF(size_t(i) * N + j, s);
    }
  addNote(p, "M, N, K = " + std::to_string(M) + ", " + std::to_string(N) + ", " + std::to_string(K));
  p.argBuffer(p.addInput("a", std::move(ha)));
  p.argBuffer(p.addInput("b", std::move(hb)));
  p.argBuffer(p.addInput("c", std::move(hc)));
  p.argBuffer(p.addOutput("d", std::move(want),
                          exact ? Tolerance{} : Tolerance::norm(c.in == Elem::F64 ? 1e-12 : 1e-5)));
  p.argI32(M);
  p.argI32(N);
  p.argI32(K);
  p.grid = {static_cast<uint32_t>((M + c.bm - 1) / c.bm), static_cast<uint32_t>((N + c.bn - 1) / c.bn), 1};
  return p;
}

} // namespace

void addDotCases(std::vector<Case> &cases) {
  for (const kernels::KernelUse &use : kernels::dotUses()) {
    const Elem in = use.elem, acc = kernels::elemNamed(use.variant);
    const int bm = use.ints[0], bn = use.ints[1], bk = use.ints[2];
    cases.push_back({"dot." + std::string(irName(in)) + "_" + irName(acc) + "." +
                         std::to_string(bm) + "x" + std::to_string(bn) + "x" + std::to_string(bk) +
                         ".w" + std::to_string(use.layout.numWarps()),
                     [=](Env &env) {
                       return dotProblem(env, libraryPlan(use, env.lanes), in, acc, bm, bn, bk,
                                         false, true);
                     }});
  }
}

std::vector<std::string> addMatrixDotCases(std::vector<Case> &cases,
                                           const std::vector<MatrixInstr> &instrs) {
  std::vector<std::string> problems;
  // tf32 operands are f32 values the unit reads at tf32 precision; small
  // integers are exact in every one of these types.
  auto elem = [](const std::string &type) -> std::optional<Elem> {
    if (type == "f64")
      return Elem::F64;
    if (type == "f16")
      return Elem::F16;
    if (type == "bf16")
      return Elem::BF16;
    if (type == "tf32" || type == "f32")
      return Elem::F32;
    if (type == "i8")
      return Elem::I8;
    if (type == "i32")
      return Elem::I32;
    return std::nullopt;
  };
  for (const MatrixInstr &mi : instrs) {
    std::optional<Elem> in = elem(mi.aType), acc = elem(mi.accType);
    if (!in || !acc || mi.aType != mi.bType) {
      problems.push_back("matrix instruction " + mi.name + ": no dot.mma case for operand types " +
                         mi.aType + " x " + mi.bType + " -> " + mi.accType +
                         " (the suite draws f16, bf16, tf32, f32, f64 and i8 into f32, f64 "
                         "or i32)");
      continue;
    }
    const bool tf32 = mi.aType == "tf32";
    // Two warps, each repeating the instruction along N in one case and
    // along M in the other, within a tile of at most 8192 multiply-adds (as
    // the other dot cases): the host compiles a CTA into one thread, and an
    // i8 tile of 64 x 16 x 32 took it 300 s.
    const int repeat = mi.m * mi.n * mi.k <= 2048 ? 2 : 1;
    DotTile one{*in, *acc, "#hd.mma<{instr = #instr, warpsPerCTA = [2, 1]}>", mi.attribute, 2,
                mi.lanes, 2 * mi.m, repeat * mi.n, mi.k, tf32, false};
    DotTile tiles{*in, *acc, "#hd.mma<{instr = #instr, warpsPerCTA = [1, 2]}>", mi.attribute, 2,
                  mi.lanes, repeat * mi.m, 2 * mi.n, mi.k, tf32, true};
    const std::string name = "dot.mma." + mi.name;
    cases.push_back({name, [one](Env &env) { return mmaDot(env, one); }, mi.name});
    cases.push_back({name + ".tails", [tiles](Env &env) { return mmaDot(env, tiles); }, mi.name});
  }
  return problems;
}

} // namespace hadron::conformance
