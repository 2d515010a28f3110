//===- WarpSpecialize.cpp - The warp-specialised kernels, with the builder ===//

#include "WarpSpecialize.h"
#include "Build.h"

namespace hadron::kernels {
namespace {

/// A 1-D layout of `warps` warps over kRingBlock elements.
hb::Layout ringLayout(int warps, unsigned lanes) {
  return layoutOf({{kRingBlock / (32 * warps)}, {32}, {warps}, {0}}, lanes);
}

Result<hb::Module> buildRing(const WarpSpecializeUse &use, unsigned lanes) {
  auto kernel = hb::jit("ws_ring", [&] {
    Tensor in = hb::arg(hb::pointer_type(hb::int32), {.divisibility = 16});
    Tensor out = hb::arg(hb::pointer_type(hb::int32), {.divisibility = 16});
    Tensor nblocks = hb::arg(hb::int32);
    const int S = use.stages;
    hb::SharedMemory ring =
        hb::allocate_shared_memory(hb::int32, {S, kRingBlock}, hb::Swizzled{1, 1, 1, {1, 0}});
    hb::SharedMemory full = hb::allocate_mbarriers(S), empty = hb::allocate_mbarriers(S);
    const int consumerWarps = use.producerIsWorker ? kWsNumWarps : use.workerWarps;
    for (int s = 0; s < S; ++s) {
      hb::mbarrier_init(full.index(s), 1);
      hb::mbarrier_init(empty.index(s), consumerWarps);
    }
    Tensor pid = hb::program_id(0);

    auto produce = [&] {
      hb::Layout layout = ringLayout(hb::num_warps(), lanes);
      Tensor first = in + pid * nblocks * kRingBlock;
      hb::for_range(0, nblocks, 1, [&](Tensor j) {
        Tensor s = j % S, round = j / S;
        hb::mbarrier_wait(empty.index(s), (round & 1) ^ 1);
        Tensor block = hb::load(first + (j * kRingBlock + hb::arange(0, kRingBlock, layout)));
        ring.index(s).store(block);
        hb::mbarrier_arrive(full.index(s));
      });
    };
    auto consume = [&] {
      hb::Layout layout = ringLayout(hb::num_warps(), lanes);
      Tensor zero = hb::full({kRingBlock}, 0, hb::int32, layout);
      Tensor acc = hb::for_range(0, nblocks, 1, zero, [&](Tensor j, Tensor acc) {
        Tensor s = j % S, round = j / S;
        hb::mbarrier_wait(full.index(s), round & 1);
        Tensor block = ring.index(s).load(layout);
        hb::mbarrier_arrive(empty.index(s), 1, {}, /*perWarp=*/true);
        return acc * 3 + block;
      });
      hb::store(out + (pid * kRingBlock + hb::arange(0, kRingBlock, layout)), acc);
    };
    if (use.producerIsWorker)
      hb::warp_specialize(consume, {{use.workerWarps, produce}});
    else
      hb::warp_specialize(produce, {{use.workerWarps, consume}});
  });
  return kernel.specialize({.numWarps = kWsNumWarps});
}

Result<hb::Module> buildBarriers(const WarpSpecializeUse &, unsigned lanes) {
  auto kernel = hb::jit("ws_barriers", [&] {
    Tensor in = hb::arg(hb::pointer_type(hb::int32), {.divisibility = 16});
    Tensor out = hb::arg(hb::pointer_type(hb::int32), {.divisibility = 16});
    Tensor pid = hb::program_id(0);
    auto region = [&](int r) {
      return [&, r] {
        const int w = static_cast<int>(hb::num_warps());
        const hb::Layout rows = layoutOf({{1, 4}, {4, 8}, {w, 1}, {1, 0}}, lanes);
        const hb::Layout cols = layoutOf({{4, 1}, {8, 4}, {1, w}, {0, 1}}, lanes);
        Tensor base = (pid * 3 + r) * 1024;
        Tensor atRows = base + tile2d(32, 32, rows, 32).offsets;
        Tensor atCols = base + tile2d(32, 32, cols, 32).offsets;
        Tensor x = hb::load(in + atRows);
        hb::SharedMemory buf =
            hb::allocate_shared_memory(hb::int32, {32, 32}, hb::Swizzled{4, 1, 8, {1, 0}});
        buf.store(x);
        hb::barrier();
        Tensor first = buf.load(cols);
        hb::barrier();
        Tensor y = hb::load(in + atCols);
        buf.store(y * 2 + r);
        hb::barrier();
        Tensor second = hb::convert_layout(buf.load(rows), cols);
        hb::store(out + atCols, first + second);
      };
    };
    hb::warp_specialize(region(0), {{2, region(1)}, {1, region(2)}});
  });
  return kernel.specialize({.numWarps = kWsNumWarps});
}

} // namespace

std::string addWarpSpecializeKernels(BuiltKernels &out) {
  return addUses<WarpSpecializeUse>(
      out, warpSpecializeUses(), [](const WarpSpecializeUse &use, unsigned lanes) {
        return use.kernel == "ring" ? buildRing(use, lanes) : buildBarriers(use, lanes);
      });
}

} // namespace hadron::kernels
