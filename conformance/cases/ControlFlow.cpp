//===- ControlFlow.cpp - scf.for/if/while with loop-carried tiles, and the
//                       debugging ops -------------------------------------===//
//
// cf.*: loops and branches carry tiles (and scalars) in their iter_args and
// results; trip counts are drawn per run and passed as arguments, so nothing
// folds away. misc.*: print (the kernel's output is captured and must hold
// the prefix), a passing assert, assume/multiple_of hints, a barrier without
// shared memory, 1 and 16 warps, many arguments. A failing assert is not a
// case: on a GPU it leaves the context unusable for the cases after it.
//
//===----------------------------------------------------------------------===//

#include "Common.h"

namespace hadron::conformance {

namespace {

/// The frame: x = in[tile] (masked), body(x) stored to out[tile]; the
/// reference maps (x, element index, extra scalar) to the result.
struct Frame {
  Kernel k;
  std::string l, tt, x, pid, extra, n;
  Kernel::Tile t;
  std::string out;
  int block;
};

Frame frame(Env &env, const Blocked &layout, const std::string &name, bool extra) {
  Frame f{Kernel(name, layout.numWarps()), "", "", "", "", "", "", {}, "", layout.tile(0, env.lanes)};
  Kernel &k = f.k;
  f.l = k.layout("l", layout.str(env.lanes));
  std::string in = k.arg(ptr("i32"));
  f.out = k.arg(ptr("i32"));
  f.n = k.arg("i32");
  if (extra)
    f.extra = k.arg("i32");
  f.pid = k.programId(0);
  std::string start = k.let("arith.muli " + f.pid + ", " + k.constI32(f.block) + " : i32");
  f.t = k.tile1d(f.block, f.l, start, f.n);
  f.tt = tensor({f.block}, "i32", f.l);
  f.x = k.load(k.pointers(in, "i32", f.t.offsets, {f.block}, f.l), "i32", {f.block}, f.l, f.t.mask);
  return f;
}

Plan finish(Env &env, Frame &f, const std::string &result, int32_t extraValue,
            const std::function<int64_t(int64_t x, int i, int32_t extra)> &ref) {
  f.k.store(f.k.pointers(f.out, "i32", f.t.offsets, {f.block}, f.l), result, "i32", {f.block}, f.l, f.t.mask);
  Plan p;
  p.kernel = f.k.name();
  p.ir = f.k.str();
  const int count = env.tailSize(f.block, 4 * f.block);
  Array x(Elem::I32, count), want(Elem::I32, count);
  for (int i = 0; i < count; ++i) {
    x.setI(i, env.uniformInt(-1000, 1000));
    want.setI(i, wrapTo(Elem::I32, ref(x.i(i), i, extraValue)));
  }
  p.argBuffer(p.addInput("in", std::move(x)));
  p.argBuffer(p.addOutput("out", std::move(want)));
  p.argI32(count);
  if (!f.extra.empty())
    p.argI32(extraValue);
  p.grid = {static_cast<uint32_t>((count + f.block - 1) / f.block), 1, 1};
  p.note = "n = " + std::to_string(count) + (f.extra.empty() ? "" : ", extra " + std::to_string(extraValue));
  return p;
}

// acc = x; for i < trips: acc += x * i
Plan forLoop(Env &env, const Blocked &layout) {
  Frame f = frame(env, layout, "for_loop", true);
  Kernel &k = f.k;
  std::string ub = k.let("arith.index_cast " + f.extra + " : i32 to index");
  std::string iv = k.fresh(), acc = k.fresh();
  std::string r = k.let("scf.for " + iv + " = " + k.constIndex(0) + " to " + ub + " step " +
                        k.constIndex(1) + " iter_args(" + acc + " = " + f.x + ") -> (" + f.tt + ") {");
  std::string i = k.let("arith.index_cast " + iv + " : index to i32");
  std::string xi = k.let("arith.muli " + f.x + ", " + k.splat(i, f.tt) + " : " + f.tt);
  k.line("scf.yield " + k.let("arith.addi " + acc + ", " + xi + " : " + f.tt) + " : " + f.tt);
  k.line("}");
  const int trips = static_cast<int>(env.uniformInt(0, 12));
  return finish(env, f, r, trips, [](int64_t x, int, int32_t t) { return x * (1 + t * (t - 1) / 2); });
}

// Even programs take x * 3, odd ones x - 7.
Plan ifElse(Env &env, const Blocked &layout) {
  Frame f = frame(env, layout, "if_else", false);
  Kernel &k = f.k;
  std::string odd = k.let("arith.andi " + f.pid + ", " + k.constI32(1) + " : i32");
  std::string even = k.let("arith.cmpi eq, " + odd + ", " + k.constI32(0) + " : i32");
  std::string r = k.let("scf.if " + even + " -> (" + f.tt + ") {");
  k.line("scf.yield " + k.let("arith.muli " + f.x + ", " + k.dense("3", f.tt) + " : " + f.tt) + " : " + f.tt);
  k.line("} else {");
  k.line("scf.yield " + k.let("arith.subi " + f.x + ", " + k.dense("7", f.tt) + " : " + f.tt) + " : " + f.tt);
  k.line("}");
  const int block = f.block;
  return finish(env, f, r, 0, [block](int64_t x, int i, int32_t) { return (i / block) % 2 == 0 ? x * 3 : x - 7; });
}

// while (count < pid % 5 + base) { t += t; ++count }
Plan whileLoop(Env &env, const Blocked &layout) {
  Frame f = frame(env, layout, "while_loop", true);
  Kernel &k = f.k;
  std::string limit = k.let("arith.addi " + k.let("arith.remsi " + f.pid + ", " + k.constI32(5) + " : i32") +
                            ", " + f.extra + " : i32");
  std::string t0 = k.fresh(), n0 = k.fresh(), t1 = k.fresh(), n1 = k.fresh();
  auto res = k.letMany(2, "scf.while (" + t0 + " = " + f.x + ", " + n0 + " = " + k.constI32(0) + ") : (" +
                              f.tt + ", i32) -> (" + f.tt + ", i32) {");
  std::string more = k.let("arith.cmpi slt, " + n0 + ", " + limit + " : i32");
  k.line("scf.condition(" + more + ") " + t0 + ", " + n0 + " : " + f.tt + ", i32");
  k.line("} do {");
  k.line("^bb0(" + t1 + ": " + f.tt + ", " + n1 + ": i32):");
  std::string doubled = k.let("arith.addi " + t1 + ", " + t1 + " : " + f.tt);
  std::string next = k.let("arith.addi " + n1 + ", " + k.constI32(1) + " : i32");
  k.line("scf.yield " + doubled + ", " + next + " : " + f.tt + ", i32");
  k.line("}");
  const int base = static_cast<int>(env.uniformInt(0, 3));
  const int block = f.block;
  return finish(env, f, res[0], base, [block](int64_t x, int i, int32_t b) {
    return static_cast<int64_t>(static_cast<uint32_t>(x) << ((i / block) % 5 + b));
  });
}

// for i < a: for j < 3: acc = (i + j) even ? acc + x : acc - 1
Plan nested(Env &env, const Blocked &layout) {
  Frame f = frame(env, layout, "nest", true);
  Kernel &k = f.k;
  std::string ub = k.let("arith.index_cast " + f.extra + " : i32 to index");
  std::string i = k.fresh(), a0 = k.fresh();
  std::string outer = k.let("scf.for " + i + " = " + k.constIndex(0) + " to " + ub + " step " +
                            k.constIndex(1) + " iter_args(" + a0 + " = " + f.x + ") -> (" + f.tt + ") {");
  std::string j = k.fresh(), a1 = k.fresh();
  std::string inner = k.let("scf.for " + j + " = " + k.constIndex(0) + " to " + k.constIndex(3) + " step " +
                            k.constIndex(1) + " iter_args(" + a1 + " = " + a0 + ") -> (" + f.tt + ") {");
  std::string s = k.let("arith.index_cast " + k.let("arith.addi " + i + ", " + j + " : index") + " : index to i32");
  std::string even = k.let("arith.cmpi eq, " + k.let("arith.andi " + s + ", " + k.constI32(1) + " : i32") +
                           ", " + k.constI32(0) + " : i32");
  std::string br = k.let("scf.if " + even + " -> (" + f.tt + ") {");
  k.line("scf.yield " + k.let("arith.addi " + a1 + ", " + f.x + " : " + f.tt) + " : " + f.tt);
  k.line("} else {");
  k.line("scf.yield " + k.let("arith.subi " + a1 + ", " + k.dense("1", f.tt) + " : " + f.tt) + " : " + f.tt);
  k.line("}");
  k.line("scf.yield " + br + " : " + f.tt);
  k.line("}");
  k.line("scf.yield " + inner + " : " + f.tt);
  k.line("}");
  const int a = static_cast<int>(env.uniformInt(0, 5));
  return finish(env, f, outer, a, [](int64_t x, int, int32_t a) {
    int64_t acc = x;
    for (int ii = 0; ii < a; ++ii)
      for (int jj = 0; jj < 3; ++jj)
        acc = (ii + jj) % 2 == 0 ? acc + x : acc - 1;
    return acc;
  });
}

// A loop that stores every iteration: out = x + (trips - 1) * 10 after
// overwriting the same tile trips times (the last store wins).
Plan storeInLoop(Env &env, const Blocked &layout) {
  Frame f = frame(env, layout, "store_in_loop", true);
  Kernel &k = f.k;
  std::string ub = k.let("arith.index_cast " + f.extra + " : i32 to index");
  std::string iv = k.fresh();
  k.line("scf.for " + iv + " = " + k.constIndex(0) + " to " + ub + " step " + k.constIndex(1) + " {");
  std::string i = k.let("arith.index_cast " + iv + " : index to i32");
  std::string ten = k.let("arith.muli " + i + ", " + k.constI32(10) + " : i32");
  std::string v = k.let("arith.addi " + f.x + ", " + k.splat(ten, f.tt) + " : " + f.tt);
  k.store(k.pointers(f.out, "i32", f.t.offsets, {f.block}, f.l), v, "i32", {f.block}, f.l, f.t.mask);
  k.line("}");
  // The frame's own store of the last value keeps the case well defined for 1+ trips.
  std::string last = k.let("arith.muli " + k.let("arith.subi " + f.extra + ", " + k.constI32(1) + " : i32") +
                           ", " + k.constI32(10) + " : i32");
  std::string r = k.let("arith.addi " + f.x + ", " + k.splat(last, f.tt) + " : " + f.tt);
  const int trips = static_cast<int>(env.uniformInt(1, 6));
  return finish(env, f, r, trips, [](int64_t x, int, int32_t t) { return x + (t - 1) * 10; });
}

} // namespace

void addControlFlowCases(std::vector<Case> &cases) {
  const auto &l = layouts1d();
  for (size_t i = 0; i < l.size(); ++i) {
    Blocked b = l[i];
    cases.push_back({"cf.for.carried_tile." + b.name(), [b](Env &env) { return forLoop(env, b); }});
  }
  for (size_t i = 0; i < 2; ++i) {
    Blocked b = l[i];
    cases.push_back({"cf.if.both_branches." + b.name(), [b](Env &env) { return ifElse(env, b); }});
    cases.push_back({"cf.while.tile_and_counter." + b.name(), [b](Env &env) { return whileLoop(env, b); }});
  }
  cases.push_back({"cf.for.nested_with_if", [](Env &env) { return nested(env, layouts1d()[2]); }});
  cases.push_back({"cf.for.store_each_iteration", [](Env &env) { return storeInLoop(env, layouts1d()[0]); }});
}

//===----------------------------------------------------------------------===//
// misc
//===----------------------------------------------------------------------===//

namespace {

// out = x + 1, with `extra` emitted before the store.
Plan plusOne(Env &env, const Blocked &layout, const std::string &name,
             const std::function<void(Frame &, Kernel &)> &extra, const std::string &expectStdout = "") {
  Frame f = frame(env, layout, name, false);
  Kernel &k = f.k;
  extra(f, k);
  std::string r = k.let("arith.addi " + f.x + ", " + k.dense("1", f.tt) + " : " + f.tt);
  Plan p = finish(env, f, r, 0, [](int64_t x, int, int32_t) { return x + 1; });
  p.expectStdout = expectStdout;
  return p;
}

/// A kernel with 12 pointer arguments: out_j = in_j * (j + 1).
Plan manyArgs(Env &env) {
  const Blocked layout = layouts1d()[2];
  const int block = layout.tile(0, env.lanes);
  constexpr int kPairs = 6;
  Kernel k("many_args", layout.numWarps());
  std::string l = k.layout("l", layout.str(env.lanes));
  std::vector<std::string> ins, outs;
  for (int j = 0; j < kPairs; ++j) {
    ins.push_back(k.arg(ptr("i32")));
    outs.push_back(k.arg(ptr("i32")));
  }
  std::string n = k.arg("i32");
  auto t = k.tile1d(block, l, "", n);
  const std::string tt = tensor({block}, "i32", l);
  for (int j = 0; j < kPairs; ++j) {
    std::string x = k.load(k.pointers(ins[j], "i32", t.offsets, {block}, l), "i32", {block}, l, t.mask);
    std::string y = k.let("arith.muli " + x + ", " + k.dense(std::to_string(j + 1), tt) + " : " + tt);
    k.store(k.pointers(outs[j], "i32", t.offsets, {block}, l), y, "i32", {block}, l, t.mask);
  }
  Plan p;
  p.kernel = k.name();
  p.ir = k.str();
  const int count = env.tailSize(block, block);
  for (int j = 0; j < kPairs; ++j) {
    Array x(Elem::I32, count), want(Elem::I32, count);
    for (int i = 0; i < count; ++i) {
      x.setI(i, env.uniformInt(-10000, 10000));
      want.setI(i, x.i(i) * (j + 1));
    }
    p.argBuffer(p.addInput("in" + std::to_string(j), std::move(x)));
    p.argBuffer(p.addOutput("out" + std::to_string(j), std::move(want)));
  }
  p.argI32(count);
  return p;
}

} // namespace

void addMiscCases(std::vector<Case> &cases) {
  const Blocked small{{1}, {32}, {1}, {0}}, wide{{4}, {32}, {4}, {0}};
  cases.push_back({"misc.print.values", [small](Env &env) {
                     return plusOne(env, small, "print", [](Frame &f, Kernel &k) {
                       k.line("hd.print \"hadron-conformance print: x = \" : " + f.x + " : " + f.tt);
                       k.line("hd.print \"hadron-conformance print: n = \" hex : " + f.n + " : i32");
                     }, "hadron-conformance print: x = ");
                   }});
  cases.push_back({"misc.assert.passing", [wide](Env &env) {
                     return plusOne(env, wide, "assert_ok", [](Frame &f, Kernel &k) {
                       std::string ok = k.let("arith.cmpi slt, " + f.x + ", " + k.dense("1001", f.tt) + " : " + f.tt);
                       k.line("hd.assert " + ok + ", \"x out of range\" : " + withElem(f.tt, "i1"));
                     });
                   }});
  cases.push_back({"misc.hints.assume_multiple_of", [wide](Env &env) {
                     return plusOne(env, wide, "hints", [](Frame &f, Kernel &k) {
                       std::string pos = k.let("arith.cmpi sgt, " + f.n + ", " + k.constI32(0) + " : i32");
                       k.line("hd.assume " + pos);
                       k.let("hd.multiple_of " + f.t.offsets + ", [1] : " + f.tt);
                     });
                   }});
  cases.push_back({"misc.barrier.no_shared_memory", [wide](Env &env) {
                     return plusOne(env, wide, "barrier_only", [](Frame &, Kernel &k) { k.line("hd.barrier"); });
                   }});
  cases.push_back({"misc.num_warps.1", [](Env &env) {
                     return plusOne(env, Blocked{{8}, {32}, {1}, {0}}, "one_warp", [](Frame &, Kernel &) {});
                   }});
  cases.push_back({"misc.num_warps.16", [](Env &env) {
                     return plusOne(env, Blocked{{1}, {32}, {16}, {0}}, "sixteen_warps", [](Frame &, Kernel &) {});
                   }});
  cases.push_back({"misc.many_arguments", manyArgs});
}

} // namespace hadron::conformance
