//===- Layout.cpp - The conversion and shared-memory kernels, with the builder -===//

#include "Layout.h"
#include "Build.h"

namespace hadron::kernels {
namespace {

Result<hb::Module> build(const LayoutUse &use, unsigned lanes) {
  hb::Options options{.numWarps = static_cast<unsigned>(use.numWarps())};
  if (use.how == Smem::TensorCopyClusterPair)
    options.clusterDims = {2, 1, 1};
  const hb::DType type = dtypeOf(use.elem);
  if (use.kernel == "convert") {
    const hb::Layout a = hb::Layout::fromText(use.from.str(lanes));
    const hb::Layout b = hb::Layout::fromText(use.to.str(lanes));
    return hb::jit("convert", [&] {
             Tensor in = hb::arg(hb::pointer_type(type)), out = hb::arg(hb::pointer_type(type));
             Tensor rows = hb::arg(hb::int32), cols = hb::arg(hb::int32);
             Tensor r0 = hb::program_id(0) * use.m, c0 = hb::program_id(1) * use.n;
             Tile2d ta = tile2d(use.m, use.n, a, cols, r0, c0, rows, cols);
             Tile2d tb = tile2d(use.m, use.n, b, cols, r0, c0, rows, cols);
             Tensor y = hb::convert_layout(hb::load(in + ta.offsets, ta.mask), b);
             hb::store(out + tb.offsets, y, tb.mask);
           }).specialize(options);
  }
  if (use.kernel == "convert1d") {
    const hb::Layout a = hb::Layout::fromText(use.from.str(lanes));
    const hb::Layout b = hb::Layout::fromText(use.to.str(lanes));
    return hb::jit("convert1d", [&] {
             Tensor in = hb::arg(hb::pointer_type(hb::float32));
             Tensor out = hb::arg(hb::pointer_type(hb::float32)), n = hb::arg(hb::int32);
             Tensor start = hb::program_id(0) * use.m;
             Tensor ia = start + hb::arange(0, use.m, a), ib = start + hb::arange(0, use.m, b);
             Tensor y = hb::convert_layout(hb::load(in + ia, ia < n), b);
             hb::store(out + ib, y, ib < n);
           }).specialize(options);
  }
  const hb::Layout rows = layoutOf(layouts2d()[0], lanes), cols = layoutOf(layouts2d()[1], lanes);
  if (use.kernel == "convert_slice") {
    const hb::Layout src = hb::Slice{1, rows};
    const hb::Layout dst = use.toSlice ? hb::Layout(hb::Slice{0, cols})
                                       : layoutOf({{2}, {32}, {4}, {0}}, lanes);
    return hb::jit("convert_slice", [&] {
             Tensor in = hb::arg(hb::pointer_type(hb::float32));
             Tensor out = hb::arg(hb::pointer_type(hb::float32)), n = hb::arg(hb::int32);
             Tensor i = hb::arange(0, use.m, src), o = hb::arange(0, use.m, dst);
             hb::store(out + o, hb::convert_layout(hb::load(in + i, i < n), dst), o < n);
           }).specialize(options);
  }
  if (use.kernel != "smem")
    return Error("no layout kernel '" + use.kernel + "' (tests/kernels/Layout.cpp)");
  const hb::Layout sw = hb::Layout::fromText(use.shared);
  if (use.how == Smem::TensorCopyClusterPair)
    return hb::jit("smem", [&] {
             const int m = use.m, n = use.n;
             hb::TensorDescriptor half = hb::tensor_descriptor_arg(type, {m / 2, n}, sw);
             Tensor out = hb::arg(hb::pointer_type(type));
             hb::SharedMemory bars = hb::allocate_mbarriers(2);
             hb::SharedMemory s = hb::allocate_shared_memory(type, {m, n}, sw);
             Tensor pid = hb::program_id(0), rank = pid % 2;
             hb::mbarrier_init(bars.index(0), 1);
             hb::mbarrier_init(bars.index(1), 2);
             hb::cluster_barrier(); // both programs' barriers are ready
             hb::mbarrier_expect(bars.index(0), 2 * half.blockBytes());
             for (int r = 0; r < 2; ++r)
               hb::async_tensor_copy(half, {r * m / 2, 0}, bars.index(0),
                                     s.slice({r * m / 2, 0}, {m / 2, n}), rank == r,
                                     /*multicast=*/3);
             for (int r = 0; r < 2; ++r)
               hb::mbarrier_arrive(bars.index(1), 1, {}, false, /*rank=*/r);
             hb::mbarrier_wait(bars.index(1), 0);
             hb::mbarrier_wait(bars.index(0), 0);
             Tensor y = s.load(cols);
             hb::store(out + pid * (m * n) + tile2d(m, n, cols, n).offsets, y);
             hb::cluster_barrier(); // no program leaves while the other may write to it
           }).specialize(options);
  if (use.how == Smem::TensorCopy || use.how == Smem::TensorCopyRing ||
      use.how == Smem::TensorCopyCluster)
    return hb::jit("smem", [&] {
             const int m = use.m, n = use.n;
             hb::TensorDescriptor desc = hb::tensor_descriptor_arg(type, {m, n}, sw);
             Tensor out = hb::arg(hb::pointer_type(type));
             hb::SharedMemory bars = hb::allocate_mbarriers(2);
             Tensor y;
             if (use.how == Smem::TensorCopy) {
               hb::SharedMemory s = hb::allocate_shared_memory(type, {m, n}, sw);
               hb::mbarrier_init(bars.index(0), 1);
               hb::mbarrier_expect(bars.index(0), desc.blockBytes());
               hb::async_tensor_copy(desc, {0, 0}, bars.index(0), s);
               hb::mbarrier_wait(bars.index(0), 0);
               y = s.load(cols);
             } else if (use.how == Smem::TensorCopyCluster) {
               hb::SharedMemory s = hb::allocate_shared_memory(type, {m, n}, sw);
               hb::mbarrier_init(bars.index(0), 1);
               hb::mbarrier_init(bars.index(1), 1);
               hb::cluster_barrier();
               hb::mbarrier_expect(bars.index(0), desc.blockBytes());
               hb::async_tensor_copy(desc, {0, 0}, bars.index(0), s, {}, /*multicast=*/1);
               hb::mbarrier_arrive(bars.index(1), 1, {}, false, /*rank=*/0);
               hb::mbarrier_wait(bars.index(1), 0);
               hb::mbarrier_wait(bars.index(0), 0);
               y = s.load(cols);
               hb::cluster_barrier();
             } else {
               hb::SharedMemory ring =
                   hb::allocate_shared_memory(type, {2, m, n}, hb::Layout::fromText(use.shared3));
               hb::mbarrier_init(bars.index(0), 1);
               hb::mbarrier_init(bars.index(1), 1);
               for (int i = 0; i < 3; ++i) {
                 hb::SharedMemory bar = bars.index(i % 2), stage = ring.index(i % 2);
                 hb::mbarrier_expect(bar, desc.blockBytes());
                 hb::async_tensor_copy(desc, {8 * i - 8, 4 * i - 4}, bar, stage);
                 hb::mbarrier_wait(bar, (i / 2) & 1);
                 Tensor block = stage.load(cols);
                 y = i ? y + block : block;
               }
             }
             hb::store(out + tile2d(m, n, cols, n).offsets, y);
           }).specialize(options);
  return hb::jit("smem", [&] {
           const int m = use.m, n = use.n;
           Tensor in = hb::arg(hb::pointer_type(type)), out = hb::arg(hb::pointer_type(type));
           Tensor from = in + tile2d(m, n, rows, n).offsets;
           Tensor y;
           switch (use.how) {
           case Smem::AllocLoad: {
             hb::SharedMemory s = hb::allocate_shared_memory(type, {m, n}, sw, hb::load(from));
             y = s.load(cols);
             s.dealloc();
             break;
           }
           case Smem::StoreBarrierLoad: {
             Tensor x = hb::load(from);
             hb::SharedMemory s = hb::allocate_shared_memory(type, {m, n}, sw);
             s.store(x);
             hb::barrier();
             y = s.load(cols);
             s.dealloc();
             break;
           }
           case Smem::MultiBuffer: {
             Tensor x = hb::load(from);
             Tensor x2 = x + x;
             hb::SharedMemory bufs = hb::allocate_shared_memory(
                 type, {2, m, n}, hb::Layout::fromText(use.shared3));
             hb::SharedMemory v1 = bufs.index(1), v0 = bufs.index(0);
             v1.store(x);
             v0.store(x2);
             hb::barrier();
             Tensor l1 = v1.load(cols), l0 = v0.load(cols);
             y = l1 - l0;
             bufs.dealloc();
             break;
           }
           case Smem::SliceView: {
             hb::SharedMemory s = hb::allocate_shared_memory(type, {m, n}, sw, hb::load(from));
             Tensor half = s.slice({16, 0}, {16, n}).load(cols);
             hb::store(out + tile2d(16, n, cols, n).offsets, half);
             s.dealloc();
             return;
           }
           case Smem::PermuteView: {
             hb::SharedMemory s = hb::allocate_shared_memory(type, {m, n}, sw, hb::load(from));
             y = s.permute({1, 0}).load(cols);
             s.dealloc();
             break;
           }
           case Smem::AsyncCopy: {
             hb::SharedMemory s = hb::allocate_shared_memory(type, {m, n}, sw);
             Tensor copy = hb::async_copy(from, s);
             hb::async_wait_group(0, {hb::async_commit_group({copy})});
             y = s.load(cols);
             s.dealloc();
             break;
           }
           case Smem::TensorCopy:
           case Smem::TensorCopyRing:
           case Smem::TensorCopyCluster:
           case Smem::TensorCopyClusterPair:
             break; // above
           }
           hb::store(out + tile2d(m, n, cols, n).offsets, y);
         }).specialize(options);
}

} // namespace

std::string addLayoutKernels(BuiltKernels &out) {
  return addUses<LayoutUse>(out, layoutUses(), build);
}

} // namespace hadron::kernels
