//===- Layout.cpp - convert_layout pairs and shared-memory round trips ---===//
//
// layout.convert.*: a tile loaded in one layout, converted, and stored from
// offsets computed in the other, so each element must keep its coordinates:
// blocked <-> blocked with other orders, sizes per thread and warp
// arrangements, 1-D linear layouts with scrambled bits, slices, and a tile
// smaller than the layout (lanes and warps replicate it).
//
// smem.*: the same tile through shared memory: local_alloc from a tensor in
// one layout, local_load into another, for each shared layout kind
// (swizzled with several vec/perPhase/maxPhase and both orders, padded,
// shared_linear); local_store + barrier + local_load; multi-buffering with
// memdesc_index; memdesc_slice and memdesc_permute views; async_copy.
//
//===----------------------------------------------------------------------===//

#include "Common.h"

namespace hadron::conformance {

namespace {

/// A distributed layout: blocked, or linear over a fixed shape.
struct Dist {
  std::string label;
  std::function<std::string(unsigned lanes)> str;
  int warps;
};

Dist blocked(const Blocked &b) {
  return {b.name(), [b](unsigned lanes) { return b.str(lanes); }, b.numWarps()};
}

Dist linear(const std::string &label, std::vector<int> shape, std::vector<int> perm, int warps) {
  return {label, [shape, perm, warps](unsigned lanes) { return linearLayout(shape, lanes, warps, perm); },
          warps};
}

/// A rows x cols matrix (tails in both dimensions) through [m, n] tiles:
/// load in `from`, convert to `to`, store from `to`'s offsets.
Plan convert2d(Env &env, const Dist &from, const Dist &to, int m, int n, Elem e) {
  const std::string en = irName(e);
  Kernel k("convert", from.warps);
  std::string a = k.layout("a", from.str(env.lanes)), b = k.layout("b", to.str(env.lanes));
  std::string in = k.arg(ptr(en)), out = k.arg(ptr(en)), rows = k.arg("i32"), cols = k.arg("i32");
  std::string r0 = k.let("arith.muli " + k.programId(0) + ", " + k.constI32(m) + " : i32");
  std::string c0 = k.let("arith.muli " + k.programId(1) + ", " + k.constI32(n) + " : i32");
  auto ta = k.tile2d({m, n}, a, r0, c0, cols, rows, cols);
  auto tb = k.tile2d({m, n}, b, r0, c0, cols, rows, cols);
  std::string x = k.load(k.pointers(in, en, ta.offsets, {m, n}, a), en, {m, n}, a, ta.mask);
  std::string y = k.let("hd.convert_layout " + x + " : " + tensor({m, n}, en, a) + " -> " +
                        tensor({m, n}, en, b));
  k.store(k.pointers(out, en, tb.offsets, {m, n}, b), y, en, {m, n}, b, tb.mask);
  Plan p;
  p.kernel = k.name();
  p.ir = k.str();
  const int rowsN = env.tailSize(m, 2 * m + 3), colsN = env.tailSize(n, 2 * n + 3);
  Array x0(e, size_t(rowsN) * colsN);
  for (size_t i = 0; i < x0.size(); ++i) {
    if (e == Elem::I32)
      x0.setI(i, env.uniformInt(INT32_MIN, INT32_MAX));
    else
      x0.setF(i, env.uniform(-100, 100));
  }
  p.note = std::to_string(rowsN) + " x " + std::to_string(colsN);
  p.argBuffer(p.addInput("in", x0));
  p.argBuffer(p.addOutput("out", x0));
  p.argI32(rowsN);
  p.argI32(colsN);
  p.grid = {static_cast<uint32_t>((rowsN + m - 1) / m), static_cast<uint32_t>((colsN + n - 1) / n), 1};
  return p;
}

/// 1-D: out[i] = in[i] for i < n through a conversion.
Plan convert1d(Env &env, const Dist &from, const Dist &to, int len) {
  Kernel k("convert1d", from.warps);
  std::string a = k.layout("a", from.str(env.lanes)), b = k.layout("b", to.str(env.lanes));
  std::string in = k.arg(ptr("f32")), out = k.arg(ptr("f32")), n = k.arg("i32");
  std::string start = k.let("arith.muli " + k.programId(0) + ", " + k.constI32(len) + " : i32");
  auto ta = k.tile1d(len, a, start, n), tb = k.tile1d(len, b, start, n);
  std::string x = k.load(k.pointers(in, "f32", ta.offsets, {len}, a), "f32", {len}, a, ta.mask);
  std::string y = k.let("hd.convert_layout " + x + " : " + tensor({len}, "f32", a) + " -> " +
                        tensor({len}, "f32", b));
  k.store(k.pointers(out, "f32", tb.offsets, {len}, b), y, "f32", {len}, b, tb.mask);
  Plan p;
  p.kernel = k.name();
  p.ir = k.str();
  const int count = env.tailSize(len, 3 * len);
  Array x0(Elem::F32, count);
  for (int i = 0; i < count; ++i)
    x0.setF(i, env.uniform(-1, 1));
  p.argBuffer(p.addInput("in", x0));
  p.argBuffer(p.addOutput("out", x0));
  p.argI32(count);
  p.grid = {static_cast<uint32_t>((count + len - 1) / len), 1, 1};
  return p;
}

/// A column vector (slice of one 2-D layout) converted to a 1-D blocked
/// layout or to the slice of another 2-D layout.
Plan convertSlice(Env &env, bool toSlice) {
  const Blocked rows = layouts2d()[0], cols = layouts2d()[1];
  const Blocked flat{{2}, {32}, {4}, {0}};
  const int len = 64;
  Kernel k("convert_slice", 4);
  std::string a = k.layout("a", rows.str(env.lanes)), b = k.layout("b", cols.str(env.lanes));
  std::string sa = k.layout("sa", slice(1, a));
  std::string dst = toSlice ? k.layout("sb", slice(0, b)) : k.layout("flat", flat.str(env.lanes));
  std::string in = k.arg(ptr("f32")), out = k.arg(ptr("f32")), n = k.arg("i32");
  auto ti = k.tile1d(len, sa, "", n), to = k.tile1d(len, dst, "", n);
  std::string x = k.load(k.pointers(in, "f32", ti.offsets, {len}, sa), "f32", {len}, sa, ti.mask);
  std::string y = k.let("hd.convert_layout " + x + " : " + tensor({len}, "f32", sa) + " -> " +
                        tensor({len}, "f32", dst));
  k.store(k.pointers(out, "f32", to.offsets, {len}, dst), y, "f32", {len}, dst, to.mask);
  Plan p;
  p.kernel = k.name();
  p.ir = k.str();
  const int count = env.tailSize(len, len);
  Array x0(Elem::F32, count);
  for (int i = 0; i < count; ++i)
    x0.setF(i, env.uniform(-1, 1));
  p.argBuffer(p.addInput("in", x0));
  p.argBuffer(p.addOutput("out", x0, {}, len - count));
  p.argI32(count);
  return p;
}

//===----------------------------------------------------------------------===//
// Shared memory
//===----------------------------------------------------------------------===//

enum class Smem { AllocLoad, StoreBarrierLoad, MultiBuffer, SliceView, PermuteView, AsyncCopy };

/// A 32 x 32 tile through shared memory with layout `shared`, written from
/// kRows and read into kCols.
Plan sharedRoundTrip(Env &env, const std::string &shared, Elem e, Smem how,
                     const std::string &shared3 = "") {
  const Blocked rows = layouts2d()[0], cols = layouts2d()[1];
  const int m = 32, n = 32;
  const std::string en = irName(e);
  Kernel k("smem", 4);
  std::string a = k.layout("a", rows.str(env.lanes)), b = k.layout("b", cols.str(env.lanes));
  std::string sw = k.layout("sw", shared);
  std::string in = k.arg(ptr(en)), out = k.arg(ptr(en));
  auto ta = k.tile2d({m, n}, a, "", "", k.constI32(n), "", "");
  auto tb = k.tile2d({m, n}, b, "", "", k.constI32(n), "", "");
  const std::string at = tensor({m, n}, en, a), bt = tensor({m, n}, en, b);
  const std::string md = "!hd.memdesc<32x32x" + en + ", " + sw + ">";
  std::string ptrsA = k.pointers(in, en, ta.offsets, {m, n}, a);
  std::string y;
  Array x0(e, m * n), want(e, m * n);
  for (int i = 0; i < m * n; ++i) {
    if (isFloat(e))
      x0.setF(i, env.uniform(-100, 100));
    else
      x0.setI(i, env.uniformInt(INT32_MIN, INT32_MAX));
  }
  want = x0;
  switch (how) {
  case Smem::AllocLoad: {
    std::string x = k.load(ptrsA, en, {m, n}, a);
    std::string s = k.let("hd.local_alloc " + x + " : " + at + " -> " + md);
    y = k.let("hd.local_load " + s + " : " + md + " -> " + bt);
    k.line("hd.local_dealloc " + s + " : " + md);
    break;
  }
  case Smem::StoreBarrierLoad: {
    std::string x = k.load(ptrsA, en, {m, n}, a);
    std::string s = k.let("hd.local_alloc -> " + md);
    k.line("hd.local_store " + x + ", " + s + " : " + at + " -> " + md);
    k.line("hd.barrier");
    y = k.let("hd.local_load " + s + " : " + md + " -> " + bt);
    k.line("hd.local_dealloc " + s + " : " + md);
    break;
  }
  case Smem::MultiBuffer: {
    // Two stages: x in stage 1, x + x in stage 0; read back stage 1 - 0 = -x.
    std::string sw3 = k.layout("sw3", shared3);
    const std::string md3 = "!hd.memdesc<2x32x32x" + en + ", " + sw3 + ">";
    const std::string view = "!hd.memdesc<32x32x" + en + ", " + sw3 + ", alloc = 2x32x32>";
    std::string x = k.load(ptrsA, en, {m, n}, a);
    std::string x2 = k.let("arith.addf " + x + ", " + x + " : " + at);
    std::string bufs = k.let("hd.local_alloc -> " + md3);
    std::string one = k.constI32(1), zero = k.constI32(0);
    std::string v1 = k.let("hd.memdesc_index " + bufs + "[" + one + "] : " + md3 + " -> " + view);
    std::string v0 = k.let("hd.memdesc_index " + bufs + "[" + zero + "] : " + md3 + " -> " + view);
    k.line("hd.local_store " + x + ", " + v1 + " : " + at + " -> " + view);
    k.line("hd.local_store " + x2 + ", " + v0 + " : " + at + " -> " + view);
    k.line("hd.barrier");
    std::string l1 = k.let("hd.local_load " + v1 + " : " + view + " -> " + bt);
    std::string l0 = k.let("hd.local_load " + v0 + " : " + view + " -> " + bt);
    y = k.let("arith.subf " + l1 + ", " + l0 + " : " + bt);
    k.line("hd.local_dealloc " + bufs + " : " + md3);
    for (int i = 0; i < m * n; ++i) {
      float v = static_cast<float>(x0.f(i));
      want.setF(i, v - (v + v));
    }
    break;
  }
  case Smem::SliceView: {
    // The lower half through a [16, 0] view, stored to rows 0..15; rows
    // 16..31 are not written.
    std::string x = k.load(ptrsA, en, {m, n}, a);
    std::string s = k.let("hd.local_alloc " + x + " : " + at + " -> " + md);
    const std::string hv = "!hd.memdesc<16x32x" + en + ", " + sw + ", alloc = 32x32>";
    std::string h = k.let("hd.memdesc_slice " + s + " [16, 0] : " + md + " -> " + hv);
    auto th = k.tile2d({16, n}, b, "", "", k.constI32(n), "", "");
    std::string hy = k.let("hd.local_load " + h + " : " + hv + " -> " + tensor({16, n}, en, b));
    k.store(k.pointers(out, en, th.offsets, {16, n}, b), hy, en, {16, n}, b);
    k.line("hd.local_dealloc " + s + " : " + md);
    for (int i = 0; i < m * n; ++i) {
      if (i < 16 * n)
        want.setBits(i, x0.bits(i + 16 * n));
      else
        want.setPoison(i);
    }
    break;
  }
  case Smem::PermuteView: {
    // Transposed through the descriptor: out = in^T.
    std::string swT = k.layout("sw_t", shared3);
    const std::string mdT = "!hd.memdesc<32x32x" + en + ", " + swT + ">";
    std::string x = k.load(ptrsA, en, {m, n}, a);
    std::string s = k.let("hd.local_alloc " + x + " : " + at + " -> " + md);
    std::string t = k.let("hd.memdesc_permute " + s + ", [1, 0] : " + md + " -> " + mdT);
    y = k.let("hd.local_load " + t + " : " + mdT + " -> " + bt);
    k.line("hd.local_dealloc " + s + " : " + md);
    for (int i = 0; i < m; ++i)
      for (int j = 0; j < n; ++j)
        want.setBits(size_t(j) * m + i, x0.bits(size_t(i) * n + j));
    break;
  }
  case Smem::AsyncCopy: {
    std::string s = k.let("hd.local_alloc -> " + md);
    std::string tok = k.let("hd.async_copy " + ptrsA + ", " + s + " : " + tensor({m, n}, ptr(en), a) +
                            " -> " + md);
    std::string g = k.let("hd.async_commit_group " + tok);
    k.let("hd.async_wait " + g + " pending = 0");
    y = k.let("hd.local_load " + s + " : " + md + " -> " + bt);
    k.line("hd.local_dealloc " + s + " : " + md);
    break;
  }
  }
  if (how != Smem::SliceView)
    k.store(k.pointers(out, en, tb.offsets, {m, n}, b), y, en, {m, n}, b);
  Plan p;
  p.kernel = k.name();
  p.ir = k.str();
  p.argBuffer(p.addInput("in", std::move(x0)));
  p.argBuffer(p.addOutput("out", std::move(want)));
  return p;
}

std::string swizzled(int vec, int perPhase, int maxPhase, const std::string &order) {
  return "#hd.swizzled<{vec = " + std::to_string(vec) + ", perPhase = " + std::to_string(perPhase) +
         ", maxPhase = " + std::to_string(maxPhase) + ", order = " + order + "}>";
}

} // namespace

void addLayoutCases(std::vector<Case> &cases) {
  const Blocked rows = layouts2d()[0], cols = layouts2d()[1];
  struct Pair {
    Dist from, to;
    int m, n;
    Elem e;
  };
  const std::vector<Pair> pairs = {
      {blocked(rows), blocked(cols), 32, 32, Elem::I32},
      {blocked(cols), blocked(rows), 16, 16, Elem::F16},
      {blocked(rows), blocked({{2, 2}, {8, 4}, {2, 2}, {1, 0}}), 32, 32, Elem::I32},
      {blocked({{1, 1}, {1, 32}, {4, 1}, {1, 0}}), blocked({{1, 1}, {32, 1}, {1, 4}, {0, 1}}), 32, 32, Elem::F32},
      {blocked({{1, 2}, {8, 4}, {1, 1}, {1, 0}}), blocked({{2, 1}, {4, 8}, {1, 1}, {0, 1}}), 16, 16, Elem::I32},
      {blocked({{2, 2}, {2, 16}, {2, 4}, {1, 0}}), blocked({{1, 1}, {16, 2}, {8, 1}, {0, 1}}), 16, 64, Elem::F32},
      // A tile smaller than both layouts: lanes and warps hold copies.
      {blocked({{1, 4}, {4, 8}, {4, 1}, {1, 0}}), blocked({{1, 1}, {32, 1}, {1, 4}, {0, 1}}), 8, 8, Elem::I32},
      {blocked({{4, 4}, {4, 8}, {2, 2}, {1, 0}}), blocked({{1, 1}, {4, 8}, {4, 1}, {0, 1}}), 64, 64, Elem::F16},
  };
  for (const Pair &p : pairs)
    cases.push_back({"layout.convert." + p.from.label + ".to." + p.to.label + "." +
                         std::to_string(p.m) + "x" + std::to_string(p.n) + "." + irName(p.e),
                     [p](Env &env) { return convert2d(env, p.from, p.to, p.m, p.n, p.e); }});
  const std::vector<int> scrambled = {3, 8, 0, 5, 1, 7, 2, 6, 4};
  const std::vector<int> scrambledRegs = {8, 0, 3, 5, 1, 7, 2, 6, 4};
  const std::vector<std::pair<Dist, Dist>> pairs1 = {
      {blocked({{1}, {32}, {4}, {0}}), blocked({{4}, {32}, {4}, {0}})},
      {blocked({{4}, {32}, {4}, {0}}), linear("linear_scrambled", {512}, scrambled, 4)},
      {linear("linear_scrambled", {512}, scrambled, 4), blocked({{2}, {32}, {4}, {0}})},
      {linear("linear_scrambled", {512}, scrambled, 4), linear("linear_regs", {512}, scrambledRegs, 4)},
  };
  for (const auto &pr : pairs1) {
    auto p = pr;
    cases.push_back({"layout.convert1d." + p.first.label + ".to." + p.second.label,
                     [p](Env &env) { return convert1d(env, p.first, p.second, 512); }});
  }
  cases.push_back({"layout.convert.slice.to_blocked", [](Env &env) { return convertSlice(env, false); }});
  cases.push_back({"layout.convert.slice.to_other_slice", [](Env &env) { return convertSlice(env, true); }});

  struct Shared {
    std::string name, layout;
    Elem e;
  };
  const std::vector<Shared> shared = {
      {"swizzled_1_1_1", swizzled(1, 1, 1, "[1, 0]"), Elem::F32},
      {"swizzled_4_1_8", swizzled(4, 1, 8, "[1, 0]"), Elem::F32},
      {"swizzled_8_2_4.f16", swizzled(8, 2, 4, "[1, 0]"), Elem::F16},
      {"swizzled_2_4_2", swizzled(2, 4, 2, "[1, 0]"), Elem::I32},
      {"swizzled_4_1_8.col_major", swizzled(4, 1, 8, "[0, 1]"), Elem::F32},
      {"padded_32_4", "#hd.padded<{intervals = [32], paddings = [4], order = [1, 0]}>", Elem::F32},
      {"padded_two_levels", "#hd.padded<{intervals = [32, 256], paddings = [1, 8], order = [1, 0]}>", Elem::I32},
      {"shared_linear_xor",
       "#hd.shared_linear<{offset = [[0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [1, 1], [2, 2], [4, 4], "
       "[8, 8], [16, 16]]}>",
       Elem::F32},
  };
  for (const Shared &s : shared) {
    Shared c = s;
    cases.push_back({"smem.roundtrip." + c.name,
                     [c](Env &env) { return sharedRoundTrip(env, c.layout, c.e, Smem::AllocLoad); }});
  }
  const std::string sw = swizzled(4, 1, 8, "[1, 0]");
  cases.push_back({"smem.store_barrier_load", [sw](Env &env) {
                     return sharedRoundTrip(env, sw, Elem::F32, Smem::StoreBarrierLoad);
                   }});
  cases.push_back({"smem.multibuffer.memdesc_index", [sw](Env &env) {
                     return sharedRoundTrip(env, sw, Elem::F32, Smem::MultiBuffer,
                                            swizzled(4, 1, 8, "[2, 1, 0]"));
                   }});
  cases.push_back({"smem.view.memdesc_slice", [sw](Env &env) {
                     return sharedRoundTrip(env, sw, Elem::F32, Smem::SliceView);
                   }});
  cases.push_back({"smem.view.memdesc_permute", [sw](Env &env) {
                     return sharedRoundTrip(env, sw, Elem::F32, Smem::PermuteView,
                                            swizzled(4, 1, 8, "[0, 1]"));
                   }});
  cases.push_back({"smem.async_copy", [sw](Env &env) {
                     return sharedRoundTrip(env, sw, Elem::F32, Smem::AsyncCopy);
                   }});
}

} // namespace hadron::conformance
