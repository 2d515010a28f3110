//===- Shape.cpp - arange, splat, broadcast, expand_dims, reshape, permute,
//                 join, split -------------------------------------------===//
//
// shape.*: each op's result stored through offsets computed in its own
// layout, so an element that lands at the wrong coordinate shows at once.
// The kernels are the kernel library's (tests/kernels/Shape.h, written with
// the C++ builder); here are the inputs and references.
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
  Plan p = libraryPlan(kernels::shape::arange(layout, first), env.lanes);
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
  const kernels::KernelUse use = kernels::shape::splat(e);
  const int block = use.layout.tile(0, env.lanes);
  Plan p = libraryPlan(use, env.lanes);
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
  const std::vector<int> tile = kernels::outerSumTile(layout, env.lanes);
  const int m = tile[0], n = tile[1];
  Plan p = libraryPlan(kernels::shape::outerSum(layout), env.lanes);
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
Plan reshape(Env &env, const Blocked &l2, bool toFlat) {
  const int m = 16, n = 32, total = m * n;
  Plan p = libraryPlan(kernels::shape::reshape(l2, toFlat), env.lanes);
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
  Plan p = libraryPlan(kernels::shape::permute(from, to, m, n), env.lanes);
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
  const kernels::KernelUse use = join ? kernels::shape::join() : kernels::shape::split();
  const int n = use.layout.tile(0, env.lanes);
  Plan p = libraryPlan(use, env.lanes);
  Array x = randomF32(env, n), y = randomF32(env, n), inter(Elem::F32, 2 * size_t(n));
  for (int i = 0; i < n; ++i) {
    inter.setBits(2 * i, x.bits(i));
    inter.setBits(2 * i + 1, y.bits(i));
  }
  if (join) {
    p.argBuffer(p.addInput("a", x));
    p.argBuffer(p.addInput("b", y));
    p.argBuffer(p.addOutput("out", inter));
  } else {
    p.argBuffer(p.addInput("in", inter));
    p.argBuffer(p.addOutput("even", x));
    p.argBuffer(p.addOutput("odd", y));
  }
  return p;
}

/// split(join(a, b)) == (a, b) within one layout family: out = lo - 2 * hi.
Plan joinSplitRoundTrip(Env &env) {
  const Blocked l2{{1, 4}, {4, 8}, {4, 1}, {1, 0}};
  const Blocked l3{{1, 4, 2}, {4, 8, 1}, {4, 1, 1}, {2, 1, 0}};
  const int m = 16, n = 32;
  Plan p = libraryPlan(kernels::shape::joinSplit(), env.lanes);
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
  cases.push_back({"shape.reshape.2d_to_1d.rows", [r](Env &env) { return reshape(env, r, true); }});
  cases.push_back({"shape.reshape.2d_to_1d.cols", [c](Env &env) { return reshape(env, c, true); }});
  cases.push_back({"shape.reshape.1d_to_2d.rows", [r](Env &env) { return reshape(env, r, false); }});
  cases.push_back({"shape.permute.rows_to_cols", [r, c](Env &env) { return permute(env, r, c, 32, 16); }});
  cases.push_back({"shape.permute.rows_to_rows", [r](Env &env) { return permute(env, r, r, 32, 32); }});
  cases.push_back({"shape.join.interleave", [](Env &env) { return joinSplit(env, true); }});
  cases.push_back({"shape.split.deinterleave", [](Env &env) { return joinSplit(env, false); }});
  cases.push_back({"shape.join_split.roundtrip", joinSplitRoundTrip});
}

} // namespace hadron::conformance
