//===- Shape.cpp - The shape kernels, with the builder --------------------===//

#include "Shape.h"
#include "Build.h"

namespace hadron::kernels {
namespace {

using L = Constexpr<hb::Layout>;

Tensor f32Arg() { return hb::arg(hb::pointer_type(hb::float32)); }
Tensor i32Arg() { return hb::arg(hb::pointer_type(hb::int32)); }

auto arange = hb::jit("arange", [](int BLOCK, int FIRST, L layout) {
  Tensor out = i32Arg();
  Tensor base = hb::program_id(0) * BLOCK;
  Tensor values = base + hb::arange(FIRST, FIRST + BLOCK, layout);
  hb::store(out + (base + hb::arange(0, BLOCK, layout)), values);
});

auto splat = hb::jit("splat", [](int BLOCK, L layout, Constexpr<hb::DType> type) {
  Tensor out = hb::arg(hb::pointer_type(type)), s = hb::arg(type), n = hb::arg(hb::int32);
  Tensor offsets = hb::program_id(0) * BLOCK + hb::arange(0, BLOCK, layout);
  hb::store(out + offsets, s, offsets < n);
});

auto outerSum = hb::jit("outer_sum", [](int M, int N, L layout) {
  Tensor a = f32Arg(), b = f32Arg(), out = f32Arg();
  Tensor va = hb::load(a + hb::arange(0, M, hb::Slice{1, layout}));
  Tensor vb = hb::load(b + hb::arange(0, N, hb::Slice{0, layout}));
  Tensor sum = hb::broadcast(hb::expand_dims(va, 1), {M, N}) +
               hb::broadcast(hb::expand_dims(vb, 0), {M, N});
  hb::store(out + tile2d(M, N, layout, N).offsets, sum);
});

auto reshape = hb::jit("reshape", [](int M, int N, L tile, L flat, bool toFlat) {
  Tensor in = i32Arg(), out = i32Arg();
  Tensor offsets2d = tile2d(M, N, tile, N).offsets;
  Tensor offsets1d = hb::arange(0, M * N, flat);
  if (toFlat)
    hb::store(out + offsets1d, hb::reshape(hb::load(in + offsets2d), {M * N}, flat));
  else
    hb::store(out + offsets2d, hb::reshape(hb::load(in + offsets1d), {M, N}, tile));
});

auto permute = hb::jit("permute", [](int M, int N, L from, L to) {
  Tensor in = f32Arg(), out = f32Arg();
  Tensor v = hb::load(in + tile2d(M, N, from, N).offsets);
  hb::store(out + tile2d(N, M, to, M).offsets, hb::permute(v, {1, 0}, to));
});

auto join = hb::jit("join", [](int N, L one, L pair, L flat) {
  Tensor a = f32Arg(), b = f32Arg(), out = f32Arg();
  Tensor i = hb::arange(0, N, one);
  Tensor joined = hb::join(hb::load(a + i), hb::load(b + i), pair);
  hb::store(out + hb::arange(0, 2 * N, flat), hb::reshape(joined, {2 * N}, flat));
});

auto split = hb::jit("split", [](int N, L one, L pair, L flat) {
  Tensor in = f32Arg(), even = f32Arg(), odd = f32Arg();
  Tensor v = hb::reshape(hb::load(in + hb::arange(0, 2 * N, flat)), {N, 2}, pair);
  auto [x, y] = hb::split(v, one);
  Tensor i = hb::arange(0, N, one);
  hb::store(even + i, x);
  hb::store(odd + i, y);
});

auto joinSplit = hb::jit("join_split", [](int M, int N, L tile, L joined) {
  Tensor a = f32Arg(), b = f32Arg(), out = f32Arg();
  Tensor offsets = tile2d(M, N, tile, N).offsets;
  auto [lo, hi] = hb::split(hb::join(hb::load(a + offsets), hb::load(b + offsets), joined), tile);
  hb::store(out + offsets, lo - (hi + hi));
});

Result<hb::Module> build(const KernelUse &use, unsigned lanes) {
  const hb::Options o = optionsOf(use);
  const hb::Layout layout = layoutOf(use.layout, lanes);
  if (use.kernel == "arange")
    return arange.specialize(o, use.layout.tile(0, lanes), use.ints[0], layout);
  if (use.kernel == "splat")
    return splat.specialize(o, use.layout.tile(0, lanes), layout, dtypeOf(use.elem));
  if (use.kernel == "outer_sum") {
    std::vector<int> tile = outerSumTile(use.layout, lanes);
    return outerSum.specialize(o, tile[0], tile[1], layout);
  }
  if (use.kernel == "reshape")
    return reshape.specialize(o, 16, 32, layout, layoutOf(use.second, lanes), use.ints[0] != 0);
  if (use.kernel == "permute")
    return permute.specialize(o, use.ints[0], use.ints[1], layout, layoutOf(use.second, lanes));
  const hb::Layout pair = layoutOf(shape::kJoinPair, lanes), flat = layoutOf(shape::kJoinFlat, lanes);
  if (use.kernel == "join")
    return join.specialize(o, use.layout.tile(0, lanes), layout, pair, flat);
  if (use.kernel == "split")
    return split.specialize(o, use.layout.tile(0, lanes), layout, pair, flat);
  if (use.kernel == "join_split")
    return joinSplit.specialize(o, 16, 32, layout, layoutOf(use.second, lanes));
  return Error("no shape kernel '" + use.kernel + "' (tests/kernels/Shape.cpp)");
}

} // namespace

std::string addShapeKernels(BuiltKernels &out) {
  return addUses<KernelUse>(out, shapeUses(), build);
}

} // namespace hadron::kernels
