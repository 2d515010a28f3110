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

//===----------------------------------------------------------------------===//
// tests/e2e's shape kernels
//===----------------------------------------------------------------------===//

using Shape = std::vector<int64_t>;

/// The offsets of a tile of `shape` in `layout`: the sum over d of
/// arange(shape[d]) * strides[d]. Dimension d's range lives in `layout`
/// sliced along every other dimension (from the highest down, so that each
/// slice dimension is an original index) and is expanded back in the
/// reverse order.
Tensor stridedOffsets(const hb::Layout &layout, const std::vector<int> &shape,
                      const std::vector<int> &strides) {
  const int rank = static_cast<int>(shape.size());
  const Shape full(shape.begin(), shape.end());
  Tensor acc;
  for (int d = 0; d < rank; ++d) {
    std::vector<int> others;
    for (int e = rank - 1; e >= 0; --e)
      if (e != d)
        others.push_back(e);
    std::vector<hb::Layout> chain{layout};
    for (int e : others)
      chain.push_back(hb::Slice{static_cast<unsigned>(e), chain.back()});
    Tensor v = hb::arange(0, shape[d], chain.back()) * strides[d];
    for (int i = static_cast<int>(others.size()) - 1; i >= 0; --i)
      v = hb::expand_dims(v, others[i]);
    v = hb::broadcast(v, full);
    acc = acc.valid() ? acc + v : v;
  }
  return acc;
}

/// start + arange(n) in `layout`, and its mask below `limit` when given.
struct Tile1d {
  Tensor offsets, mask;
};
Tile1d tile1d(int n, const hb::Layout &layout, const hb::Operand &start,
              const Tensor &limit = {}) {
  Tile1d t;
  t.offsets = start + hb::arange(0, n, layout);
  if (limit.valid())
    t.mask = t.offsets < limit;
  return t;
}

Result<hb::Module> buildE2e(const KernelUse &use, unsigned lanes) {
  const hb::Options o = optionsOf(use);
  const hb::Layout layout = layoutOf(use.layout, lanes);
  const hb::Layout second = use.second.rank() ? layoutOf(use.second, lanes) : hb::Layout();
  if (use.kernel == "outer_sum") {
    auto k = hb::jit("outer_sum", [](int M, int N, L l) {
      Tensor a = i32Arg(), b = i32Arg(), out = i32Arg();
      Tensor rows = hb::arg(hb::int32), cols = hb::arg(hb::int32);
      Tensor r0 = hb::program_id(0) * M, c0 = hb::program_id(1) * N;
      Tile1d ra = tile1d(M, hb::Slice{1, l}, r0, rows), cb = tile1d(N, hb::Slice{0, l}, c0, cols);
      Tensor av = hb::load(a + ra.offsets, ra.mask), bv = hb::load(b + cb.offsets, cb.mask);
      Tensor sum = hb::broadcast(hb::expand_dims(av * 4096, 1), {M, N}) +
                   hb::broadcast(hb::expand_dims(bv, 0), {M, N});
      Tile2d t = tile2d(M, N, l, cols, r0, c0, rows, cols);
      hb::store(out + t.offsets, sum, t.mask);
    });
    return k.specialize(o, use.ints[0], use.ints[1], layout);
  }
  if (use.kernel == "reshape") {
    auto k = hb::jit("reshape", [](int M, int N, L flat, L shaped) {
      Tensor in = f32Arg(), out2 = f32Arg(), out1 = f32Arg();
      Tensor base = hb::program_id(0) * (M * N);
      Tensor offsets1 = base + hb::arange(0, M * N, flat);
      Tensor y = hb::reshape(hb::load(in + offsets1), {M, N}, shaped);
      Tensor z = hb::reshape(y, {M * N}, flat);
      hb::store(out2 + (tile2d(M, N, shaped, N).offsets + base), y);
      hb::store(out1 + offsets1, z);
    });
    return k.specialize(o, use.ints[0], use.ints[1], layout, second);
  }
  if (use.kernel == "permute") {
    const int rank = static_cast<int>(use.ints.size() / 2);
    const std::vector<int> shape(use.ints.begin(), use.ints.begin() + rank);
    const std::vector<int> perm(use.ints.begin() + rank, use.ints.end());
    std::vector<int> stride(rank), outShape(rank), outStride(rank);
    for (int d = rank - 1, total = 1; d >= 0; --d) {
      stride[d] = total;
      total *= shape[d];
    }
    for (int i = 0; i < rank; ++i) {
      outShape[i] = shape[perm[i]];
      outStride[i] = stride[perm[i]];
    }
    // Stored at the source element's own offset: out equals in.
    auto k = hb::jit("permute", [&](L l, L q) {
      Tensor in = i32Arg(), out = i32Arg();
      Tensor x = hb::load(in + stridedOffsets(l, shape, stride));
      hb::store(out + stridedOffsets(q, outShape, outStride), hb::permute(x, perm, q));
    });
    return k.specialize(o, layout, second);
  }
  if (use.kernel == "join" || use.kernel == "split") {
    const bool isJoin = use.kernel == "join";
    auto k = hb::jit(use.kernel, [&](int N, L l, L j) {
      Tensor p0 = f32Arg(), p1 = f32Arg(), p2 = f32Arg(), count = hb::arg(hb::int32);
      Tensor start = hb::program_id(0) * N;
      Tile1d t = tile1d(N, l, start, count);
      Tile2d pair = tile2d(N, 2, j, 2, start, 0, count, hb::constant(2, hb::int32));
      if (isJoin) {
        Tensor x = hb::join(hb::load(p0 + t.offsets, t.mask), hb::load(p1 + t.offsets, t.mask), j);
        hb::store(p2 + pair.offsets, x, pair.mask);
      } else {
        auto [lo, hi] = hb::split(hb::load(p0 + pair.offsets, pair.mask), l);
        hb::store(p1 + t.offsets, lo, t.mask);
        hb::store(p2 + t.offsets, hi, t.mask);
      }
    });
    return k.specialize(o, use.ints[0], layout, second);
  }
  if (use.kernel == "slices") {
    const hb::Layout flat = layoutOf(Blocked{{2}, {32}, {4}, {0}}, lanes);
    auto k = hb::jit("slices", [&](int LEN, L rows, L cols) {
      Tensor in = f32Arg(), o1 = f32Arg(), o2 = f32Arg(), n = hb::arg(hb::int32);
      const hb::Layout sa = hb::Slice{1, rows}, sb = hb::Slice{0, cols};
      Tile1d ti = tile1d(LEN, sa, 0, n), tf = tile1d(LEN, flat, 0, n), ts = tile1d(LEN, sb, 0, n);
      Tensor x = hb::load(in + ti.offsets, ti.mask);
      hb::store(o1 + tf.offsets, hb::convert_layout(x, flat), tf.mask);
      hb::store(o2 + ts.offsets, hb::convert_layout(x, sb), ts.mask);
    });
    return k.specialize(o, use.ints[0], layout, second);
  }
  return Error("no e2e shape kernel '" + use.kernel + "' (tests/kernels/Shape.cpp)");
}

Result<hb::Module> buildConvert(const ConvertUse &use, unsigned lanes) {
  const bool pointers = use.elem == "ptr";
  const hb::DType elem = hb::DType::fromText(pointers ? "i32" : use.elem);
  const int m = use.shape[0], n = use.shape[1];
  auto k = hb::jit("convert", [&](L a, L b) {
    Tensor in = hb::arg(hb::pointer_type(elem)), out = hb::arg(hb::pointer_type(elem));
    Tensor rows = hb::arg(hb::int32), cols = hb::arg(hb::int32);
    Tensor r0 = hb::program_id(0) * m, c0 = hb::program_id(1) * n;
    Tile2d ta = tile2d(m, n, a, cols, r0, c0, rows, cols);
    Tile2d tb = tile2d(m, n, b, cols, r0, c0, rows, cols);
    Tensor y = pointers ? hb::load(hb::convert_layout(in + ta.offsets, b), tb.mask)
                        : hb::convert_layout(hb::load(in + ta.offsets, ta.mask), b);
    hb::store(out + tb.offsets, y, tb.mask);
  });
  return k.specialize({.numWarps = static_cast<unsigned>(use.from.numWarps())},
                      hb::Layout::fromText(use.from.str(use.shape, lanes)),
                      hb::Layout::fromText(use.to.str(use.shape, lanes)));
}

Result<hb::Module> buildConvert1d(const Convert1DUse &use, unsigned lanes) {
  auto k = hb::jit("convert1d", [&](int LEN, L a, L b) {
    Tensor in = f32Arg(), out = f32Arg(), n = hb::arg(hb::int32);
    Tensor start = hb::program_id(0) * LEN;
    Tile1d ta = tile1d(LEN, a, start, n), tb = tile1d(LEN, b, start, n);
    hb::store(out + tb.offsets, hb::convert_layout(hb::load(in + ta.offsets, ta.mask), b),
              tb.mask);
  });
  return k.specialize({.numWarps = static_cast<unsigned>(use.from.numWarps())}, use.len,
                      hb::Layout::fromText(use.from.str({use.len}, lanes)),
                      hb::Layout::fromText(use.to.str({use.len}, lanes)));
}

} // namespace

std::string addShapeKernels(BuiltKernels &out) {
  for (std::string error :
       {addUses<KernelUse>(out, shapeUses(), build), addUses<KernelUse>(out, e2eShapeUses(), buildE2e),
        addUses<ConvertUse>(out, e2eShapeCases().converts, buildConvert),
        addUses<Convert1DUse>(out, e2eShapeCases().converts1d, buildConvert1d)})
    if (!error.empty())
      return error;
  return "";
}

} // namespace hadron::kernels
