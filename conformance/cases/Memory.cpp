//===- Memory.cpp - loads, stores, masks, grids, program ids -------------===//
//
// mem.*: masked loads with `other` (every lane past n reads it), masked
// stores that must leave the tail untouched, 2-D tiles with row and column
// masks, program_id/num_programs along each axis of 1-D to 3-D grids, a
// grid wider than 65535 programs, zero-size launches (a grid with a zero
// dimension, and n = 0) that must write nothing, gathers and scalar
// accesses.
//
//===----------------------------------------------------------------------===//

#include "Common.h"

namespace hadron::conformance {

namespace {

Array randomArray(Env &env, Elem e, size_t n) {
  Array a(e, n);
  for (size_t i = 0; i < n; ++i) {
    V v = defaultValue(env, e);
    if (isFloat(e))
      a.setF(i, v.f);
    else
      a.setI(i, v.i);
  }
  return a;
}

/// out[i] = load(in[i], mask i < n, other C) over whole tiles, stored
/// unmasked: lanes past n must hold C.
Plan maskedLoadOther(Env &env, Elem e, const Blocked &layout) {
  const int block = layout.tile(0, env.lanes);
  Plan p = libraryPlan(kernels::memory::maskedLoadOther(e, layout), env.lanes);
  const int count = env.tailSize(block, 3 * block);
  const int grid = (count + block - 1) / block;
  Array a = randomArray(env, e, count);
  Array want(e, static_cast<size_t>(grid) * block);
  for (int i = 0; i < grid * block; ++i) {
    if (i < count)
      want.setBits(i, a.bits(i));
    else if (isFloat(e))
      want.setF(i, -7.5);
    else
      want.setI(i, -7);
  }
  addNote(p, "n = " + std::to_string(count));
  p.argBuffer(p.addInput("in", std::move(a)));
  p.argBuffer(p.addOutput("out", std::move(want)));
  p.argI32(count);
  p.grid = {static_cast<uint32_t>(grid), 1, 1};
  return p;
}

/// Each program writes its ids and the grid's size (one scalar store each)
/// to out[linear program index * 6 + k].
Plan programIds(Env &env, int dims) {
  Plan p = libraryPlan(kernels::memory::programIds(), env.lanes);
  uint32_t g[3] = {1, 1, 1};
  g[0] = static_cast<uint32_t>(env.uniformInt(1, dims == 1 ? 300 : 17));
  if (dims >= 2)
    g[1] = static_cast<uint32_t>(env.uniformInt(2, 13));
  if (dims >= 3)
    g[2] = static_cast<uint32_t>(env.uniformInt(2, 5));
  const size_t programs = size_t(g[0]) * g[1] * g[2];
  Array want(Elem::I32, programs * 6);
  for (uint32_t z = 0; z < g[2]; ++z)
    for (uint32_t y = 0; y < g[1]; ++y)
      for (uint32_t x = 0; x < g[0]; ++x) {
        size_t b = ((size_t(z) * g[1] + y) * g[0] + x) * 6;
        const uint32_t v[6] = {x, y, z, g[0], g[1], g[2]};
        for (int j = 0; j < 6; ++j)
          want.setI(b + j, v[j]);
      }
  addNote(p, "grid " + std::to_string(g[0]) + "x" + std::to_string(g[1]) + "x" + std::to_string(g[2]));
  p.argBuffer(p.addOutput("ids", std::move(want)));
  p.grid = {g[0], g[1], g[2]};
  return p;
}

/// A rows x cols f32 matrix copied (times 2) by 2-D tiles over a 2-D grid,
/// with row and column masks.
Plan copy2d(Env &env, const Blocked &layout) {
  const std::vector<int> tile = kernels::copy2dTile(layout, env.lanes);
  const int bm = tile[0], bn = tile[1];
  Plan p = libraryPlan(kernels::memory::copy2d(layout), env.lanes);
  const int m = env.tailSize(bm, 3 * bm), n = env.tailSize(bn, 3 * bn);
  Array a(Elem::F32, size_t(m) * n), want(Elem::F32, size_t(m) * n);
  for (int i = 0; i < m * n; ++i) {
    a.setF(i, env.uniform(-10, 10));
    want.setF(i, 2 * a.f(i));
  }
  addNote(p, std::to_string(m) + " x " + std::to_string(n) + ", tile " + std::to_string(bm) + "x" +
           std::to_string(bn));
  p.argBuffer(p.addInput("in", std::move(a)));
  p.argBuffer(p.addOutput("out", std::move(want)));
  p.argI32(m);
  p.argI32(n);
  p.grid = {static_cast<uint32_t>((n + bn - 1) / bn), static_cast<uint32_t>((m + bm - 1) / bm), 1};
  return p;
}

/// A 3-D grid, each program copying one tile of a [gz][gy][gx * B] array:
/// out = in + program_id(2) (so a program that read another's tile shows).
Plan copy3d(Env &env) {
  const kernels::KernelUse use = kernels::memory::copy3d();
  const int block = use.layout.tile(0, env.lanes);
  Plan p = libraryPlan(use, env.lanes);
  const uint32_t gx = static_cast<uint32_t>(env.uniformInt(1, 5)), gy = static_cast<uint32_t>(env.uniformInt(1, 4)),
                 gz = static_cast<uint32_t>(env.uniformInt(2, 4));
  const size_t total = size_t(gx) * gy * gz * block;
  Array a(Elem::I32, total), want(Elem::I32, total);
  for (size_t i = 0; i < total; ++i) {
    a.setI(i, env.uniformInt(-1000000, 1000000));
    want.setI(i, a.i(i) + static_cast<int64_t>(i / (size_t(gx) * gy * block)));
  }
  addNote(p, "grid " + std::to_string(gx) + "x" + std::to_string(gy) + "x" + std::to_string(gz));
  p.argBuffer(p.addInput("in", std::move(a)));
  p.argBuffer(p.addOutput("out", std::move(want)));
  p.grid = {gx, gy, gz};
  return p;
}

/// out[i] = in[(i * stride) % n]: a gather no vector access can serve.
Plan gather(Env &env) {
  const kernels::KernelUse use = kernels::memory::gather();
  const int block = use.layout.tile(0, env.lanes);
  Plan p = libraryPlan(use, env.lanes);
  const int count = env.tailSize(block, 4 * block);
  const int s = static_cast<int>(env.uniformInt(2, 97));
  Array a(Elem::F32, count), want(Elem::F32, count);
  for (int i = 0; i < count; ++i)
    a.setF(i, env.uniform(-1, 1));
  for (int i = 0; i < count; ++i)
    want.setBits(i, a.bits((int64_t(i) * s) % count));
  addNote(p, "n = " + std::to_string(count) + ", stride " + std::to_string(s));
  p.argBuffer(p.addInput("in", std::move(a)));
  p.argBuffer(p.addOutput("out", std::move(want)));
  p.argI32(count);
  p.argI32(s);
  p.grid = {static_cast<uint32_t>((count + block - 1) / block), 1, 1};
  return p;
}

/// A grid with more programs along x than 16 bits count: every program
/// writes its id into its 32 elements.
Plan largeGrid(Env &env) {
  const kernels::KernelUse use = kernels::memory::largeGrid();
  const int block = use.layout.tile(0, env.lanes);
  Plan p = libraryPlan(use, env.lanes);
  const uint32_t grid = static_cast<uint32_t>(env.uniformInt(65536 + 1, 70000));
  Array want(Elem::I32, size_t(grid) * block);
  for (size_t i = 0; i < want.size(); ++i)
    want.setI(i, static_cast<int64_t>(i / block));
  addNote(p, "grid " + std::to_string(grid));
  p.argBuffer(p.addOutput("out", std::move(want)));
  p.grid = {grid, 1, 1};
  return p;
}

/// Launches that must write nothing: a grid with a zero dimension, or
/// n = 0 with every lane masked off.
Plan zeroSize(Env &env, bool zeroGrid) {
  const kernels::KernelUse use = kernels::memory::zeroSize();
  const int block = use.layout.tile(0, env.lanes);
  Plan p = libraryPlan(use, env.lanes);
  Array a(Elem::F32, block);
  for (int i = 0; i < block; ++i)
    a.setF(i, env.uniform(-1, 1));
  Array want(Elem::F32, block);
  want.fillPoison();
  p.argBuffer(p.addInput("in", std::move(a)));
  p.argBuffer(p.addOutput("out", std::move(want), {}, 0));
  p.argI32(zeroGrid ? block : 0);
  p.grid = zeroGrid ? std::array<uint32_t, 3>{static_cast<uint32_t>(env.uniformInt(1, 4)), 0, 1}
                    : std::array<uint32_t, 3>{2, 1, 1};
  addNote(p, zeroGrid ? "grid with a zero dimension" : "n = 0");
  return p;
}

/// A scalar load of a parameter block, used by every element:
/// out[i] = in[i] * params[0] + params[1].
Plan scalarAccess(Env &env) {
  const kernels::KernelUse use = kernels::memory::scalarAccess();
  const int block = use.layout.tile(0, env.lanes);
  Plan p = libraryPlan(use, env.lanes);
  const int count = env.tailSize(block, 5 * block);
  Array a(Elem::F32, count), pr(Elem::F32, 2), want(Elem::F32, count);
  pr.setF(0, env.uniform(-3, 3));
  pr.setF(1, env.uniform(-3, 3));
  for (int i = 0; i < count; ++i) {
    a.setF(i, env.uniform(-10, 10));
    want.setF(i, static_cast<float>(a.f(i)) * static_cast<float>(pr.f(0)) + static_cast<float>(pr.f(1)));
  }
  p.argBuffer(p.addInput("in", std::move(a)));
  p.argBuffer(p.addInput("params", std::move(pr)));
  // One ULP: a device may fuse the multiply and the add.
  p.argBuffer(p.addOutput("out", std::move(want), Tolerance::ulp(1, 1e-6)));
  p.argI32(count);
  p.grid = {static_cast<uint32_t>((count + block - 1) / block), 1, 1};
  return p;
}

} // namespace

void addMemoryCases(std::vector<Case> &cases) {
  size_t rot = 0;
  for (Elem e : {Elem::F32, Elem::I8, Elem::F16, Elem::I64, Elem::BF16}) {
    Blocked layout = layouts1d()[rot++ % 3];
    cases.push_back({std::string("mem.masked_load_other.") + irName(e),
                     [e, layout](Env &env) { return maskedLoadOther(env, e, layout); }});
  }
  for (int dims = 1; dims <= 3; ++dims)
    cases.push_back({"mem.program_ids." + std::to_string(dims) + "d",
                     [dims](Env &env) { return programIds(env, dims); }});
  for (size_t i = 0; i < layouts2d().size(); ++i) {
    Blocked layout = layouts2d()[i];
    cases.push_back({"mem.copy2d.tails." + layout.name(),
                     [layout](Env &env) { return copy2d(env, layout); }});
  }
  cases.push_back({"mem.grid3d.copy", copy3d});
  cases.push_back({"mem.gather.strided", gather});
  cases.push_back({"mem.grid.large_x", largeGrid});
  cases.push_back({"mem.zero_size.grid", [](Env &env) { return zeroSize(env, true); }});
  cases.push_back({"mem.zero_size.n0", [](Env &env) { return zeroSize(env, false); }});
  cases.push_back({"mem.scalar_load", scalarAccess});
}

} // namespace hadron::conformance
