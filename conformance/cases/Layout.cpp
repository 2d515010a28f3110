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
// The kernels are the kernel library's (tests/kernels/Layout.h, written with
// the C++ builder), which also fixes the cases' order; here are the inputs
// and the expected outputs.
//
//===----------------------------------------------------------------------===//

#include "Common.h"

namespace hadron::conformance {

namespace {

/// A rows x cols matrix (tails in both dimensions) through [m, n] tiles:
/// load in `from`, convert to `to`, store from `to`'s offsets.
using kernels::LayoutUse;
using kernels::Smem;

/// The kernel library's kernel of `use` for the env's lanes.
Plan layoutPlan(const LayoutUse &use, unsigned lanes) {
  return builtPlan(use.kernel, use.key(lanes), use.numWarps());
}

Plan convert2d(Env &env, const LayoutUse &use) {
  const int m = use.m, n = use.n;
  const Elem e = use.elem;
  Plan p = layoutPlan(use, env.lanes);
  const int rowsN = env.tailSize(m, 2 * m + 3), colsN = env.tailSize(n, 2 * n + 3);
  Array x0(e, size_t(rowsN) * colsN);
  for (size_t i = 0; i < x0.size(); ++i) {
    if (e == Elem::I32)
      x0.setI(i, env.uniformInt(INT32_MIN, INT32_MAX));
    else
      x0.setF(i, env.uniform(-100, 100));
  }
  addNote(p, std::to_string(rowsN) + " x " + std::to_string(colsN));
  p.argBuffer(p.addInput("in", x0));
  p.argBuffer(p.addOutput("out", x0));
  p.argI32(rowsN);
  p.argI32(colsN);
  p.grid = {static_cast<uint32_t>((rowsN + m - 1) / m), static_cast<uint32_t>((colsN + n - 1) / n), 1};
  return p;
}

/// 1-D: out[i] = in[i] for i < n through a conversion.
Plan convert1d(Env &env, const LayoutUse &use) {
  const int len = use.m;
  Plan p = layoutPlan(use, env.lanes);
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
Plan convertSlice(Env &env, const LayoutUse &use) {
  const int len = use.m;
  Plan p = layoutPlan(use, env.lanes);
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

/// A 32 x 32 tile through shared memory, written from the row-major layout
/// and read into the column-major one.
Plan sharedRoundTrip(Env &env, const LayoutUse &use) {
  const int m = use.m, n = use.n;
  const Elem e = use.elem;
  Plan p = layoutPlan(use, env.lanes);
  Array x0(e, m * n), want(e, m * n);
  for (int i = 0; i < m * n; ++i) {
    if (isFloat(e))
      x0.setF(i, env.uniform(-100, 100));
    else
      x0.setI(i, env.uniformInt(INT32_MIN, INT32_MAX));
  }
  want = x0;
  switch (use.how) {
  case Smem::AllocLoad:
  case Smem::StoreBarrierLoad:
  case Smem::AsyncCopy:
  case Smem::TensorCopy:
  case Smem::TensorCopyCluster:
    break;
  case Smem::TensorCopyClusterPair: { // the tile, once per program of the pair
    p.grid = {2, 1, 1};
    Array both(e, 2 * m * n);
    for (int i = 0; i < 2 * m * n; ++i)
      both.setBits(i, x0.bits(i % (m * n)));
    want = both;
    break;
  }
  case Smem::TensorCopyRing: // the sum of the blocks at (8 i - 8, 4 i - 4), zeros outside
    for (int r = 0; r < m; ++r)
      for (int c = 0; c < n; ++c) {
        uint32_t sum = 0;
        for (int i = 0; i < 3; ++i) {
          int y = r + 8 * i - 8, x = c + 4 * i - 4;
          if (y >= 0 && y < m && x >= 0 && x < n)
            sum += uint32_t(x0.i(size_t(y) * n + x));
        }
        want.setI(size_t(r) * n + c, int32_t(sum));
      }
    break;
  case Smem::MultiBuffer: // x in stage 1, x + x in stage 0: stage 1 - 0 = -x
    for (int i = 0; i < m * n; ++i) {
      float v = static_cast<float>(x0.f(i));
      want.setF(i, v - (v + v));
    }
    break;
  case Smem::SliceView: // rows 16..31 to rows 0..15; the others are not written
    for (int i = 0; i < m * n; ++i) {
      if (i < 16 * n)
        want.setBits(i, x0.bits(i + 16 * n));
      else
        want.setPoison(i);
    }
    break;
  case Smem::PermuteView: // out = in^T
    for (int i = 0; i < m; ++i)
      for (int j = 0; j < n; ++j)
        want.setBits(size_t(j) * m + i, x0.bits(size_t(i) * n + j));
    break;
  }
  const int in = p.addInput("in", std::move(x0));
  if (use.how == Smem::TensorCopy || use.how == Smem::TensorCopyRing ||
      use.how == Smem::TensorCopyCluster || use.how == Smem::TensorCopyClusterPair)
    p.argTensorDesc(in, {uint64_t(m), uint64_t(n)}, {uint64_t(n), 1});
  else
    p.argBuffer(in);
  p.argBuffer(p.addOutput("out", std::move(want)));
  return p;
}

} // namespace

void addLayoutCases(std::vector<Case> &cases) {
  for (const LayoutUse &use : kernels::layoutUses()) {
    std::function<Plan(Env &)> plan;
    if (use.kernel == "convert")
      plan = [use](Env &env) { return convert2d(env, use); };
    else if (use.kernel == "convert1d")
      plan = [use](Env &env) { return convert1d(env, use); };
    else if (use.kernel == "convert_slice")
      plan = [use](Env &env) { return convertSlice(env, use); };
    else
      plan = [use](Env &env) { return sharedRoundTrip(env, use); };
    cases.push_back({use.name, plan});
  }
}

} // namespace hadron::conformance
