//===- ControlFlowTest.cpp - scf.for / if / while with tiles as loop values ===//
//
// Tiles carried through loops with run-time trip counts, yielded from both
// branches of an scf.if (each program takes one of them), carried with a
// counter through an scf.while, and a loop nest with a branch inside.
//
//===----------------------------------------------------------------------===//

#include "E2E.h"

namespace hadron::e2e {
namespace {

using runtime::arg::i32;

struct Layout1D {
  Blocked layout;
  int block;
  std::string name() const { return layout.name() + "_b" + std::to_string(block); }
};

const Layout1D kLayouts[] = {
    {{{4}, {32}, {4}, {0}}, 512},
    {{{1}, {32}, {8}, {0}}, 256},
    {{{2}, {32}, {1}, {0}}, 64},
};

/// The loop tests' kernel frame: x loaded from %arg0 in a masked tile, the
/// result stored to %arg1; `body` turns x into the result.
struct Frame {
  KernelBuilder k;
  std::string l, tt, x, pid, extra, offsets, mask, out;
};

Frame frame(const Layout1D &c, const std::string &name, const std::string &extraArg) {
  Frame f{KernelBuilder(name, c.layout.numWarps()), "", "", "", "", "", "", "", ""};
  KernelBuilder &k = f.k;
  f.l = k.layout("l", c.layout.str(session().lanes));
  std::string in = k.arg("!hd.ptr<i32>");
  f.out = k.arg("!hd.ptr<i32>");
  std::string n = k.arg("i32");
  if (!extraArg.empty())
    f.extra = k.arg(extraArg);
  f.pid = k.let("hd.program_id 0");
  std::string start = k.let("arith.muli " + f.pid + ", " + k.constI32(c.block) + " : i32");
  auto t = k.tile1d(c.block, f.l, start, n);
  f.tt = tensorType({c.block}, "i32", f.l);
  f.x = k.let("hd.load " + k.pointers(in, "i32", t.offsets, {c.block}, f.l) + " mask " + t.mask +
              " : " + tensorType({c.block}, "!hd.ptr<i32>", f.l));
  f.offsets = t.offsets;
  f.mask = t.mask;
  return f;
}

/// Stores `result` where x came from.
void finish(Frame &f, const Layout1D &c, const std::string &result) {
  KernelBuilder &k = f.k;
  k.line("hd.store " + k.pointers(f.out, "i32", f.offsets, {c.block}, f.l) + ", " + result +
         " mask " + f.mask + " : " + tensorType({c.block}, "!hd.ptr<i32>", f.l));
}

/// Launches the kernel over `count` random elements and compares with
/// `ref(x, i)` for element i.
void runAndCheck(Program &p, int kid, const Layout1D &c, std::mt19937_64 &rng,
                 const std::vector<hd_arg> &extraArgs,
                 const std::function<int32_t(int32_t, int)> &ref) {
  const int count = tailSize(rng, c.block, 4 * c.block);
  std::vector<int32_t> hx = randomVector<int32_t>(rng, count, -1000, 1000);
  auto bi = p.input(hx);
  auto bo = p.output<int32_t>(count + 8);
  std::vector<hd_arg> args{bi.arg(), bo.arg(), i32(count)};
  args.insert(args.end(), extraArgs.begin(), extraArgs.end());
  E2E_LAUNCH(p, kid, {ceilDiv(count, c.block), 1, 1}, args, {io(bo)});
  std::vector<int32_t> want(count);
  for (int i = 0; i < count; ++i)
    want[i] = ref(hx[i], i);
  expectExact(bo.host(), want, "result");
  expectPoisoned(bo.host(), count, bo.size(), "past n");
}

class ControlFlow : public ::testing::TestWithParam<Layout1D> {};

// acc = x; for i in [0, trips): acc = acc + x * i  =>  x * (1 + trips * (trips - 1) / 2)
TEST_P(ControlFlow, ForCarriesATile) {
  E2E_BEGIN();
  const Layout1D &c = GetParam();
  Frame f = frame(c, "for_loop", "i32");
  KernelBuilder &k = f.k;
  std::string ub = k.let("arith.index_cast " + f.extra + " : i32 to index");
  std::string iv = k.fresh(), acc = k.fresh();
  std::string r = k.let("scf.for " + iv + " = " + k.constIndex(0) + " to " + ub + " step " +
                        k.constIndex(1) + " iter_args(" + acc + " = " + f.x + ") -> (" + f.tt + ") {");
  std::string i = k.let("arith.index_cast " + iv + " : index to i32");
  std::string xi = k.let("arith.muli " + f.x + ", " + k.splat(i, f.tt) + " : " + f.tt);
  k.line("scf.yield " + k.let("arith.addi " + acc + ", " + xi + " : " + f.tt) + " : " + f.tt);
  k.line("}");
  finish(f, c, r);
  Program p;
  int kid = p.add(k);
  E2E_READY(p);
  const int trips = std::uniform_int_distribution<int>(0, 12)(rng);
  SCOPED_TRACE(std::to_string(trips) + " trips");
  runAndCheck(p, kid, c, rng, {i32(trips)},
              [&](int32_t x, int) { return x * (1 + trips * (trips - 1) / 2); });
}

// Even programs take the then-branch (x * 3), odd ones the else-branch
// (x - 7), each yielding a tile.
TEST_P(ControlFlow, IfYieldsTilesFromBothBranches) {
  E2E_BEGIN();
  const Layout1D &c = GetParam();
  Frame f = frame(c, "if_else", "");
  KernelBuilder &k = f.k;
  std::string odd = k.let("arith.andi " + f.pid + ", " + k.constI32(1) + " : i32");
  std::string even = k.let("arith.cmpi eq, " + odd + ", " + k.constI32(0) + " : i32");
  std::string r = k.let("scf.if " + even + " -> (" + f.tt + ") {");
  k.line("scf.yield " +
         k.let("arith.muli " + f.x + ", " + k.let("arith.constant dense<3> : " + f.tt) + " : " + f.tt) +
         " : " + f.tt);
  k.line("} else {");
  k.line("scf.yield " +
         k.let("arith.subi " + f.x + ", " + k.let("arith.constant dense<7> : " + f.tt) + " : " + f.tt) +
         " : " + f.tt);
  k.line("}");
  finish(f, c, r);
  Program p;
  int kid = p.add(k);
  E2E_READY(p);
  runAndCheck(p, kid, c, rng, {}, [&](int32_t x, int i) {
    return (i / c.block) % 2 == 0 ? x * 3 : x - 7;
  });
}

// Program p doubles its tile (p % 5) + limit0 times in an scf.while that
// carries the tile and a counter.
TEST_P(ControlFlow, WhileCarriesATileAndACounter) {
  E2E_BEGIN();
  const Layout1D &c = GetParam();
  Frame f = frame(c, "while_loop", "i32");
  KernelBuilder &k = f.k;
  std::string five = k.constI32(5);
  std::string limit = k.let("arith.addi " + k.let("arith.remsi " + f.pid + ", " + five + " : i32") +
                            ", " + f.extra + " : i32");
  std::string t0 = k.fresh(), n0 = k.fresh(), t1 = k.fresh(), n1 = k.fresh();
  auto res = k.letMany(2, "scf.while (" + t0 + " = " + f.x + ", " + n0 + " = " + k.constI32(0) +
                              ") : (" + f.tt + ", i32) -> (" + f.tt + ", i32) {");
  std::string more = k.let("arith.cmpi slt, " + n0 + ", " + limit + " : i32");
  k.line("scf.condition(" + more + ") " + t0 + ", " + n0 + " : " + f.tt + ", i32");
  k.line("} do {");
  k.line("^bb0(" + t1 + ": " + f.tt + ", " + n1 + ": i32):");
  std::string doubled = k.let("arith.addi " + t1 + ", " + t1 + " : " + f.tt);
  std::string next = k.let("arith.addi " + n1 + ", " + k.constI32(1) + " : i32");
  k.line("scf.yield " + doubled + ", " + next + " : " + f.tt + ", i32");
  k.line("}");
  finish(f, c, res[0]);
  Program p;
  int kid = p.add(k);
  E2E_READY(p);
  const int base = std::uniform_int_distribution<int>(0, 3)(rng);
  runAndCheck(p, kid, c, rng, {i32(base)}, [&](int32_t x, int i) {
    int times = (i / c.block) % 5 + base;
    return static_cast<int32_t>(static_cast<uint32_t>(x) << times);
  });
}

// for i < a: for j < b: acc = (i + j) even ? acc + x : acc - 1, with the
// branch's condition a scalar of the nest.
TEST_P(ControlFlow, NestedLoopsWithABranch) {
  E2E_BEGIN();
  const Layout1D &c = GetParam();
  Frame f = frame(c, "nest", "i32");
  KernelBuilder &k = f.k;
  std::string ub = k.let("arith.index_cast " + f.extra + " : i32 to index");
  std::string ub2 = k.constIndex(3);
  std::string i = k.fresh(), a0 = k.fresh();
  std::string outer = k.let("scf.for " + i + " = " + k.constIndex(0) + " to " + ub + " step " +
                            k.constIndex(1) + " iter_args(" + a0 + " = " + f.x + ") -> (" + f.tt + ") {");
  std::string j = k.fresh(), a1 = k.fresh();
  std::string inner = k.let("scf.for " + j + " = " + k.constIndex(0) + " to " + ub2 + " step " +
                            k.constIndex(1) + " iter_args(" + a1 + " = " + a0 + ") -> (" + f.tt + ") {");
  std::string s = k.let("arith.index_cast " + k.let("arith.addi " + i + ", " + j + " : index") +
                        " : index to i32");
  std::string even = k.let("arith.cmpi eq, " + k.let("arith.andi " + s + ", " + k.constI32(1) + " : i32") +
                           ", " + k.constI32(0) + " : i32");
  std::string br = k.let("scf.if " + even + " -> (" + f.tt + ") {");
  k.line("scf.yield " + k.let("arith.addi " + a1 + ", " + f.x + " : " + f.tt) + " : " + f.tt);
  k.line("} else {");
  k.line("scf.yield " +
         k.let("arith.subi " + a1 + ", " + k.let("arith.constant dense<1> : " + f.tt) + " : " + f.tt) +
         " : " + f.tt);
  k.line("}");
  k.line("scf.yield " + br + " : " + f.tt);
  k.line("}");
  k.line("scf.yield " + inner + " : " + f.tt);
  k.line("}");
  finish(f, c, outer);
  Program p;
  int kid = p.add(k);
  E2E_READY(p);
  const int a = std::uniform_int_distribution<int>(0, 5)(rng);
  runAndCheck(p, kid, c, rng, {i32(a)}, [&](int32_t x, int) {
    int32_t acc = x;
    for (int ii = 0; ii < a; ++ii)
      for (int jj = 0; jj < 3; ++jj)
        acc = (ii + jj) % 2 == 0 ? acc + x : acc - 1;
    return acc;
  });
}

INSTANTIATE_TEST_SUITE_P(Layouts, ControlFlow, ::testing::ValuesIn(kLayouts),
                         ::testing::PrintToStringParamName());

} // namespace
} // namespace hadron::e2e
