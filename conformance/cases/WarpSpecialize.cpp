//===- WarpSpecialize.cpp - Regions on disjoint warps (hd.warp_specialize) ===//
//
// ws.ring.*: a producer and a consumer region hand blocks through a ring of
// shared buffers guarded by mbarriers ("full": one arrival of the producer;
// "empty": one arrival per consumer warp), over a number of blocks drawn so
// that the ring wraps several times and both phase parities are waited on.
// The consumer folds acc = 3 * acc + block (wrapping i32), so a block read
// twice, skipped, read before it was written or after it was overwritten
// changes the result.
//
// ws.barriers.*: three regions (4, 2 and 1 warps) at once, each moving its
// own block through its own shared buffer between two layouts with
// hd.barrier in between: a barrier that waited for other warps than the
// region's would hang or race.
//
// The kernels are the kernel library's (tests/kernels/WarpSpecialize.h).
// Targets whose programs are one thread (the host) or that have no barriers
// for groups of warps cannot run the op: their expectation files list ws.*
// as unsupported, with the compiler's reason.
//
//===----------------------------------------------------------------------===//

#include "Common.h"

#include "kernels/WarpSpecialize.h"

namespace hadron::conformance {

namespace {

using kernels::kRingBlock;
using kernels::WarpSpecializeUse;

Plan wsPlan(const WarpSpecializeUse &use, unsigned lanes) {
  return builtPlan(use.kernel == "ring" ? "ws_ring" : "ws_barriers", use.key(lanes),
                   kernels::kWsNumWarps);
}

Plan ring(Env &env, const WarpSpecializeUse &use) {
  Plan p = wsPlan(use, env.lanes);
  const int programs = static_cast<int>(env.uniformInt(1, 5));
  // Up to four times round the ring, and sometimes less than once.
  const int nblocks = static_cast<int>(env.uniformInt(1, 4 * use.stages + 1));
  addNote(p, std::to_string(programs) + " programs x " + std::to_string(nblocks) + " blocks, " +
                 std::to_string(use.stages) + " stages");
  Array in(Elem::I32, size_t(programs) * nblocks * kRingBlock);
  for (size_t i = 0; i < in.size(); ++i)
    in.setI(i, env.uniformInt(INT32_MIN, INT32_MAX));
  Array want(Elem::I32, size_t(programs) * kRingBlock);
  for (int q = 0; q < programs; ++q)
    for (int e = 0; e < kRingBlock; ++e) {
      uint32_t acc = 0;
      for (int j = 0; j < nblocks; ++j)
        acc = acc * 3u + uint32_t(in.i((size_t(q) * nblocks + j) * kRingBlock + e));
      want.setI(size_t(q) * kRingBlock + e, int32_t(acc));
    }
  p.argBuffer(p.addInput("in", std::move(in)));
  p.argBuffer(p.addOutput("out", std::move(want), Tolerance::exact()));
  p.argI32(nblocks);
  p.grid = {static_cast<uint32_t>(programs), 1, 1};
  return p;
}

Plan barriers(Env &env, const WarpSpecializeUse &use) {
  Plan p = wsPlan(use, env.lanes);
  const int programs = static_cast<int>(env.uniformInt(1, 4));
  addNote(p, std::to_string(programs) + " programs");
  const size_t n = size_t(programs) * 3 * 1024;
  Array in(Elem::I32, n), want(Elem::I32, n);
  for (size_t i = 0; i < n; ++i) {
    int64_t x = env.uniformInt(INT32_MIN, INT32_MAX);
    in.setI(i, x);
    const uint32_t region = uint32_t(i / 1024 % 3);
    want.setI(i, int32_t(uint32_t(x) * 3u + region)); // first + second = x + (2 x + r)
  }
  p.argBuffer(p.addInput("in", std::move(in)));
  p.argBuffer(p.addOutput("out", std::move(want), Tolerance::exact()));
  p.grid = {static_cast<uint32_t>(programs), 1, 1};
  return p;
}

} // namespace

void addWarpSpecializeCases(std::vector<Case> &cases) {
  for (const WarpSpecializeUse &use : kernels::warpSpecializeUses()) {
    if (use.kernel == "ring")
      cases.push_back({"ws." + use.name(), [use](Env &env) { return ring(env, use); }});
    else
      cases.push_back({"ws." + use.name(), [use](Env &env) { return barriers(env, use); }});
  }
}

} // namespace hadron::conformance
