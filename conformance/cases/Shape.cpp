//===- Shape.cpp - arange, splat, broadcast, expand_dims, reshape, permute,
//                 join, split -------------------------------------------===//
//
// shape.*: each op's result stored through offsets computed in its own
// layout, so an element that lands at the wrong coordinate shows at once.
//
//===----------------------------------------------------------------------===//

#include "Common.h"

namespace hadron::conformance {

namespace {

Array randomF32(Env &env, size_t n) {
  Array a(Elem::F32, n);
  for (size_t i = 0; i < n; ++i)
    a.setF(i, env.uniform(-100, 100));
  return a;
}

/// out[pid * B + i] = start + pid * B + i from `hd.arange start to start + B`.
Plan arange(Env &env, const Blocked &layout, int first) {
  const int block = layout.tile(0, env.lanes);
  Kernel k("arange", layout.numWarps());
  std::string l = k.layout("l", layout.str(env.lanes));
  std::string out = k.arg(ptr("i32"));
  std::string tt = tensor({block}, "i32", l);
  std::string base = k.let("arith.muli " + k.programId(0) + ", " + k.constI32(block) + " : i32");
  std::string r = k.let("hd.arange " + std::to_string(first) + " to " + std::to_string(first + block) +
                        " : " + tt);
  std::string z = k.let("hd.arange 0 to " + std::to_string(block) + " : " + tt);
  std::string offs = k.let("arith.addi " + k.splat(base, tt) + ", " + z + " : " + tt);
  std::string v = k.let("arith.addi " + k.splat(base, tt) + ", " + r + " : " + tt);
  k.store(k.pointers(out, "i32", offs, {block}, l), v, "i32", {block}, l);
  Plan p;
  p.kernel = k.name();
  p.ir = k.str();
  const int grid = static_cast<int>(env.uniformInt(1, 5));
  Array want(Elem::I32, size_t(grid) * block);
  for (int i = 0; i < grid * block; ++i)
    want.setI(i, first + i);
  p.argBuffer(p.addOutput("out", std::move(want)));
  p.grid = {static_cast<uint32_t>(grid), 1, 1};
  return p;
}

/// out[i] = s for i < n, s a scalar argument splat into the tile.
Plan splat(Env &env, Elem e) {
  const Blocked layout = layouts1d()[1];
  const int block = layout.tile(0, env.lanes);
  const std::string en = irName(e);
  Kernel k("splat", layout.numWarps());
  std::string l = k.layout("l", layout.str(env.lanes));
  std::string out = k.arg(ptr(en)), s = k.arg(en), n = k.arg("i32");
  std::string start = k.let("arith.muli " + k.programId(0) + ", " + k.constI32(block) + " : i32");
  auto t = k.tile1d(block, l, start, n);
  k.store(k.pointers(out, en, t.offsets, {block}, l), k.splat(s, tensor({block}, en, l)), en,
          {block}, l, t.mask);
  Plan p;
  p.kernel = k.name();
  p.ir = k.str();
  const int count = env.tailSize(block, 3 * block);
  Array want(e, count);
  V v = defaultValue(env, e);
  for (int i = 0; i < count; ++i)
    isFloat(e) ? want.setF(i, v.f) : want.setI(i, v.i);
  p.argBuffer(p.addOutput("out", want));
  switch (e) {
  case Elem::I32: p.argI32(static_cast<int32_t>(want.i(0))); break;
  case Elem::I64: p.argI64(want.i(0)); break;
  case Elem::F32: p.argF32(static_cast<float>(want.f(0))); break;
  default: p.argF64(want.f(0)); break;
  }
  p.argI32(count);
  p.grid = {static_cast<uint32_t>((count + block - 1) / block), 1, 1};
  return p;
}

/// out[i][j] = a[i] + b[j]: two slices expanded and broadcast to the tile.
Plan outerSum(Env &env, const Blocked &layout) {
  const int m = std::max(layout.tile(0, env.lanes), 16), n = std::max(layout.tile(1, env.lanes), 16);
  Kernel k("outer_sum", layout.numWarps());
  std::string l = k.layout("l", layout.str(env.lanes));
  std::string rl = k.layout("l_r", slice(1, l)), cl = k.layout("l_c", slice(0, l));
  std::string A = k.arg(ptr("f32")), B = k.arg(ptr("f32")), out = k.arg(ptr("f32"));
  auto ta = k.tile1d(m, rl, "", ""), tb = k.tile1d(n, cl, "", "");
  std::string a = k.load(k.pointers(A, "f32", ta.offsets, {m}, rl), "f32", {m}, rl);
  std::string b = k.load(k.pointers(B, "f32", tb.offsets, {n}, cl), "f32", {n}, cl);
  std::string a2 = k.let("hd.expand_dims " + a + " axis = 1 : " + tensor({m}, "f32", rl) + " -> " +
                         tensor({m, 1}, "f32", l));
  std::string b2 = k.let("hd.expand_dims " + b + " axis = 0 : " + tensor({n}, "f32", cl) + " -> " +
                         tensor({1, n}, "f32", l));
  std::string ab = k.let("hd.broadcast " + a2 + " : " + tensor({m, 1}, "f32", l) + " -> " +
                         tensor({m, n}, "f32", l));
  std::string bb = k.let("hd.broadcast " + b2 + " : " + tensor({1, n}, "f32", l) + " -> " +
                         tensor({m, n}, "f32", l));
  std::string s = k.let("arith.addf " + ab + ", " + bb + " : " + tensor({m, n}, "f32", l));
  auto t = k.tile2d({m, n}, l, "", "", k.constI32(n), "", "");
  k.store(k.pointers(out, "f32", t.offsets, {m, n}, l), s, "f32", {m, n}, l);
  Plan p;
  p.kernel = k.name();
  p.ir = k.str();
  Array av = randomF32(env, m), bv = randomF32(env, n), want(Elem::F32, size_t(m) * n);
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j)
      want.setF(i * n + j, static_cast<float>(av.f(i)) + static_cast<float>(bv.f(j)));
  p.argBuffer(p.addInput("a", std::move(av)));
  p.argBuffer(p.addInput("b", std::move(bv)));
  p.argBuffer(p.addOutput("out", std::move(want)));
  return p;
}

/// A 2-D tile reshaped to 1-D (or back) keeps row-major order.
Plan reshape(Env &env, const Blocked &l2, const Blocked &l1, bool toFlat) {
  const int m = 16, n = 32, total = m * n;
  Kernel k("reshape", l2.numWarps());
  std::string a = k.layout("a", l2.str(env.lanes)), b = k.layout("b", l1.str(env.lanes));
  std::string in = k.arg(ptr("i32")), out = k.arg(ptr("i32"));
  auto t2 = k.tile2d({m, n}, a, "", "", k.constI32(n), "", "");
  auto t1 = k.tile1d(total, b, "", "");
  std::string y;
  if (toFlat) {
    std::string x = k.load(k.pointers(in, "i32", t2.offsets, {m, n}, a), "i32", {m, n}, a);
    y = k.let("hd.reshape " + x + " : " + tensor({m, n}, "i32", a) + " -> " + tensor({total}, "i32", b));
    k.store(k.pointers(out, "i32", t1.offsets, {total}, b), y, "i32", {total}, b);
  } else {
    std::string x = k.load(k.pointers(in, "i32", t1.offsets, {total}, b), "i32", {total}, b);
    y = k.let("hd.reshape " + x + " : " + tensor({total}, "i32", b) + " -> " + tensor({m, n}, "i32", a));
    k.store(k.pointers(out, "i32", t2.offsets, {m, n}, a), y, "i32", {m, n}, a);
  }
  Plan p;
  p.kernel = k.name();
  p.ir = k.str();
  Array x(Elem::I32, total);
  for (int i = 0; i < total; ++i)
    x.setI(i, env.uniformInt(INT32_MIN, INT32_MAX));
  p.argBuffer(p.addInput("in", x));
  p.argBuffer(p.addOutput("out", x));
  return p;
}

/// out = in^T: a [m, n] tile permuted to [n, m] and stored from the
/// permuted tensor's own offsets.
Plan permute(Env &env, const Blocked &from, const Blocked &to, int m, int n) {
  Kernel k("permute", from.numWarps());
  std::string a = k.layout("a", from.str(env.lanes)), b = k.layout("b", to.str(env.lanes));
  std::string in = k.arg(ptr("f32")), out = k.arg(ptr("f32"));
  auto ta = k.tile2d({m, n}, a, "", "", k.constI32(n), "", "");
  auto tb = k.tile2d({n, m}, b, "", "", k.constI32(m), "", "");
  std::string v = k.load(k.pointers(in, "f32", ta.offsets, {m, n}, a), "f32", {m, n}, a);
  std::string y = k.let("hd.permute " + v + ", [1, 0] : " + tensor({m, n}, "f32", a) + " -> " +
                        tensor({n, m}, "f32", b));
  k.store(k.pointers(out, "f32", tb.offsets, {n, m}, b), y, "f32", {n, m}, b);
  Plan p;
  p.kernel = k.name();
  p.ir = k.str();
  Array x = randomF32(env, size_t(m) * n), want(Elem::F32, size_t(m) * n);
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j)
      want.setBits(size_t(j) * m + i, x.bits(size_t(i) * n + j));
  p.argBuffer(p.addInput("in", std::move(x)));
  p.argBuffer(p.addOutput("out", std::move(want)));
  return p;
}

/// Join two tiles, reshape to interleave them (out[2i] = a[i], out[2i+1] =
/// b[i]); or load interleaved data, reshape and split it back.
Plan joinSplit(Env &env, bool join) {
  const Blocked l1{{4}, {32}, {4}, {0}};
  const Blocked l2{{4, 2}, {32, 1}, {4, 1}, {1, 0}};
  const Blocked lf{{8}, {32}, {4}, {0}};
  const int n = l1.tile(0, env.lanes);
  Kernel k(join ? "join" : "split", 4);
  std::string a = k.layout("a", l1.str(env.lanes)), j = k.layout("j", l2.str(env.lanes));
  std::string f = k.layout("f", lf.str(env.lanes));
  const std::string pair = tensor({n, 2}, "f32", j), flat = tensor({2 * n}, "f32", f);
  const std::string one = tensor({n}, "f32", a);
  Plan p;
  Array x = randomF32(env, n), y = randomF32(env, n), inter(Elem::F32, 2 * size_t(n));
  for (int i = 0; i < n; ++i) {
    inter.setBits(2 * i, x.bits(i));
    inter.setBits(2 * i + 1, y.bits(i));
  }
  auto t1 = k.tile1d(n, a, "", "");
  auto tf = k.tile1d(2 * n, f, "", "");
  if (join) {
    std::string A = k.arg(ptr("f32")), B = k.arg(ptr("f32")), out = k.arg(ptr("f32"));
    std::string va = k.load(k.pointers(A, "f32", t1.offsets, {n}, a), "f32", {n}, a);
    std::string vb = k.load(k.pointers(B, "f32", t1.offsets, {n}, a), "f32", {n}, a);
    std::string jn = k.let("hd.join " + va + ", " + vb + " : " + one + " -> " + pair);
    std::string r = k.let("hd.reshape " + jn + " : " + pair + " -> " + flat);
    k.store(k.pointers(out, "f32", tf.offsets, {2 * n}, f), r, "f32", {2 * n}, f);
    p.argBuffer(p.addInput("a", x));
    p.argBuffer(p.addInput("b", y));
    p.argBuffer(p.addOutput("out", inter));
  } else {
    std::string in = k.arg(ptr("f32")), oa = k.arg(ptr("f32")), ob = k.arg(ptr("f32"));
    std::string v = k.load(k.pointers(in, "f32", tf.offsets, {2 * n}, f), "f32", {2 * n}, f);
    std::string r = k.let("hd.reshape " + v + " : " + flat + " -> " + pair);
    std::vector<std::string> parts = k.letMany(2, "hd.split " + r + " : " + pair + " -> " + one + ", " + one);
    k.store(k.pointers(oa, "f32", t1.offsets, {n}, a), parts[0], "f32", {n}, a);
    k.store(k.pointers(ob, "f32", t1.offsets, {n}, a), parts[1], "f32", {n}, a);
    p.argBuffer(p.addInput("in", inter));
    p.argBuffer(p.addOutput("even", x));
    p.argBuffer(p.addOutput("odd", y));
  }
  p.kernel = k.name();
  p.ir = k.str();
  return p;
}

/// split(join(a, b)) == (a, b) within one layout family: out = lo - 2 * hi.
Plan joinSplitRoundTrip(Env &env) {
  const Blocked l2{{1, 4}, {4, 8}, {4, 1}, {1, 0}};
  const Blocked l3{{1, 4, 2}, {4, 8, 1}, {4, 1, 1}, {2, 1, 0}};
  const int m = 16, n = 32;
  Kernel k("join_split", 4);
  std::string b = k.layout("b", l2.str(env.lanes)), b3 = k.layout("b3", l3.str(env.lanes));
  std::string A = k.arg(ptr("f32")), B = k.arg(ptr("f32")), out = k.arg(ptr("f32"));
  auto t = k.tile2d({m, n}, b, "", "", k.constI32(n), "", "");
  const std::string tt = tensor({m, n}, "f32", b), pt = tensor({m, n, 2}, "f32", b3);
  std::string va = k.load(k.pointers(A, "f32", t.offsets, {m, n}, b), "f32", {m, n}, b);
  std::string vb = k.load(k.pointers(B, "f32", t.offsets, {m, n}, b), "f32", {m, n}, b);
  std::string jn = k.let("hd.join " + va + ", " + vb + " : " + tt + " -> " + pt);
  std::vector<std::string> s = k.letMany(2, "hd.split " + jn + " : " + pt + " -> " + tt + ", " + tt);
  std::string twice = k.let("arith.addf " + s[1] + ", " + s[1] + " : " + tt);
  std::string r = k.let("arith.subf " + s[0] + ", " + twice + " : " + tt);
  k.store(k.pointers(out, "f32", t.offsets, {m, n}, b), r, "f32", {m, n}, b);
  Plan p;
  p.kernel = k.name();
  p.ir = k.str();
  Array x = randomF32(env, m * n), y = randomF32(env, m * n), want(Elem::F32, m * n);
  for (int i = 0; i < m * n; ++i) {
    float h = static_cast<float>(y.f(i));
    want.setF(i, static_cast<float>(x.f(i)) - (h + h));
  }
  p.argBuffer(p.addInput("a", std::move(x)));
  p.argBuffer(p.addInput("b", std::move(y)));
  p.argBuffer(p.addOutput("out", std::move(want)));
  return p;
}

} // namespace

void addShapeCases(std::vector<Case> &cases) {
  for (const Blocked &l : layouts1d())
    cases.push_back({"shape.arange." + l.name(), [l](Env &env) { return arange(env, l, 0); }});
  cases.push_back({"shape.arange.offset_start", [](Env &env) { return arange(env, layouts1d()[0], 16); }});
  for (Elem e : {Elem::I32, Elem::I64, Elem::F32, Elem::F64})
    cases.push_back({std::string("shape.splat.") + irName(e), [e](Env &env) { return splat(env, e); }});
  for (const Blocked &l : layouts2d())
    cases.push_back({"shape.broadcast.outer_sum." + l.name(), [l](Env &env) { return outerSum(env, l); }});
  const Blocked r = layouts2d()[0], c = layouts2d()[1];
  const Blocked f{{4}, {32}, {4}, {0}};
  cases.push_back({"shape.reshape.2d_to_1d.rows", [r, f](Env &env) { return reshape(env, r, f, true); }});
  cases.push_back({"shape.reshape.2d_to_1d.cols", [c, f](Env &env) { return reshape(env, c, f, true); }});
  cases.push_back({"shape.reshape.1d_to_2d.rows", [r, f](Env &env) { return reshape(env, r, f, false); }});
  cases.push_back({"shape.permute.rows_to_cols", [r, c](Env &env) { return permute(env, r, c, 32, 16); }});
  cases.push_back({"shape.permute.rows_to_rows", [r](Env &env) { return permute(env, r, r, 32, 32); }});
  cases.push_back({"shape.join.interleave", [](Env &env) { return joinSplit(env, true); }});
  cases.push_back({"shape.split.deinterleave", [](Env &env) { return joinSplit(env, false); }});
  cases.push_back({"shape.join_split.roundtrip", joinSplitRoundTrip});
}

} // namespace hadron::conformance
