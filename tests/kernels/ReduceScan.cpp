//===- ReduceScan.cpp - The reduction and scan kernels, with the builder --===//

#include "ReduceScan.h"
#include "Build.h"

#include <cmath>
#include <cstdint>

namespace hadron::kernels {
namespace {

using L = Constexpr<hb::Layout>;

/// A combine region and the identity masked-off lanes read.
struct Combine {
  hb::Combine body;
  hb::Operand identity;
};

Combine combineOf(const std::string &name) {
  auto add = [](Tensor a, Tensor b) { return a + b; };
  if (name == "sum.i32")
    return {add, 0};
  if (name == "sum.f32" || name == "sum.f64")
    return {add, 0.0};
  if (name == "max.f32")
    return {[](Tensor a, Tensor b) { return hb::maximum(a, b); }, -INFINITY};
  if (name == "min.i32")
    return {[](Tensor a, Tensor b) { return hb::minimum(a, b); }, INT32_MAX};
  if (name == "max.i64")
    return {[](Tensor a, Tensor b) { return hb::maximum(a, b); }, INT64_MIN};
  if (name == "custom_sum_abs.f32")
    return {[](Tensor a, Tensor b) { return hb::abs(a) + hb::abs(b); }, 0.0};
  if (name == "custom_xor.i32")
    return {[](Tensor a, Tensor b) { return a ^ b; }, 0};
  return {nullptr, 0};
}

/// The masked M x N tile of (in, out, rows, cols), reduced or scanned.
void reduceOrScan(int M, int N, const hb::Layout &layout, const hb::DType &type, int axis,
                  const Combine &c, bool scan, bool reverse) {
  Tensor in = hb::arg(hb::pointer_type(type)), out = hb::arg(hb::pointer_type(type));
  Tensor rows = hb::arg(hb::int32), cols = hb::arg(hb::int32);
  Tile2d t = tile2d(M, N, layout, cols, 0, 0, rows, cols);
  Tensor x = hb::load(in + t.offsets, t.mask, c.identity);
  if (scan) {
    hb::store(out + t.offsets, hb::associative_scan(x, axis, c.body, reverse), t.mask);
    return;
  }
  Tensor i = hb::arange(0, axis == 0 ? N : M, hb::Slice{static_cast<unsigned>(axis), layout});
  hb::store(out + i, hb::reduce(x, axis, c.body), i < (axis == 0 ? cols : rows));
}

Result<hb::Module> buildReduceOrScan(const KernelUse &use, unsigned lanes) {
  const Combine c = combineOf(use.variant);
  if (!c.body)
    return Error("no combine '" + use.variant + "' (tests/kernels/ReduceScan.cpp)");
  const bool scan = use.kernel == "scan";
  const bool reverse = scan && use.ints[1] != 0;
  auto kernel = hb::jit(use.kernel, [&](int M, int N, L layout, Constexpr<hb::DType> type,
                                        int axis, bool reverse) {
    reduceOrScan(M, N, layout, type, axis, c, scan, reverse);
  });
  std::vector<int> tile = reduceTile(use.layout, lanes);
  return kernel.specialize(optionsOf(use), tile[0], tile[1], layoutOf(use.layout, lanes),
                           dtypeOf(use.elem), use.ints[0], reverse);
}

auto argmax = hb::jit("argmax", [](int M, int N, L layout, int axis) {
  Tensor in = hb::arg(hb::pointer_type(hb::float32)), max = hb::arg(hb::pointer_type(hb::float32));
  Tensor index = hb::arg(hb::pointer_type(hb::int32));
  Tensor offsets = tile2d(M, N, layout, N).offsets;
  Tensor x = hb::load(in + offsets);
  // The index along the axis: each element's row (axis 0) or column.
  Tensor along = axis == 0 ? offsets / N : offsets % N;
  auto r = hb::reduce({x, along}, axis, [](hb::Values a, hb::Values b) {
    Tensor take = (b[0] > a[0]) | ((b[0] == a[0]) & (b[1] < a[1]));
    return hb::Values{hb::where(take, b[0], a[0]), hb::where(take, b[1], a[1])};
  });
  Tensor i = hb::arange(0, axis == 0 ? N : M, hb::Slice{static_cast<unsigned>(axis), layout});
  hb::store(max + i, r[0]);
  hb::store(index + i, r[1]);
});

auto toScalar = hb::jit("reduce_scalar", [](int BLOCK, L layout, Constexpr<hb::DType> type) {
  Tensor in = hb::arg(hb::pointer_type(type)), out = hb::arg(hb::pointer_type(type));
  Tensor n = hb::arg(hb::int32);
  Tensor pid = hb::program_id(0);
  Tensor offsets = pid * BLOCK + hb::arange(0, BLOCK, layout);
  Tensor x = hb::load(in + offsets, offsets < n, 0);
  hb::store(out + pid, hb::reduce(x, 0, [](Tensor a, Tensor b) { return a + b; }));
});

Result<hb::Module> build(const KernelUse &use, unsigned lanes) {
  const hb::Layout layout = layoutOf(use.layout, lanes);
  if (use.kernel == "reduce" || use.kernel == "scan")
    return buildReduceOrScan(use, lanes);
  if (use.kernel == "argmax") {
    std::vector<int> tile = reduceTile(use.layout, lanes);
    return argmax.specialize(optionsOf(use), tile[0], tile[1], layout, use.ints[0]);
  }
  if (use.kernel == "reduce_scalar")
    return toScalar.specialize(optionsOf(use), use.layout.tile(0, lanes), layout, dtypeOf(use.elem));
  return Error("no reduce/scan kernel '" + use.kernel + "' (tests/kernels/ReduceScan.cpp)");
}

/// tests/e2e's combines: the region and the identity.
Combine e2eCombineOf(const std::string &name) {
  auto add = [](Tensor a, Tensor b) { return a + b; };
  auto max = [](Tensor a, Tensor b) { return hb::maximum(a, b); };
  auto min = [](Tensor a, Tensor b) { return hb::minimum(a, b); };
  if (name == "sum_i32")
    return {add, 0};
  if (name == "max_i32")
    return {max, INT32_MIN};
  if (name == "min_i32")
    return {min, INT32_MAX};
  if (name == "sum_f32")
    return {add, 0.0};
  if (name == "max_f32")
    return {max, -INFINITY};
  if (name == "min_f32")
    return {min, INFINITY};
  return {nullptr, 0};
}

/// tests/e2e's matrix tile: pid's m x n tile along the kept axis, loaded
/// with `identity` where masked off, and the kept axis' offsets and mask.
struct KeptTile {
  Tensor values, offsets, mask, kept, keptMask;
};
KeptTile loadForReduction(int m, int n, int axis, const hb::Layout &layout, const Tensor &in,
                          const Tensor &rows, const Tensor &cols, const hb::Operand &identity) {
  Tensor start = hb::program_id(0) * (axis == 1 ? m : n);
  Tile2d t = axis == 1 ? tile2d(m, n, layout, cols, start, 0, rows, cols)
                       : tile2d(m, n, layout, cols, 0, start, rows, cols);
  KeptTile k;
  k.offsets = t.offsets;
  k.mask = t.mask;
  k.values = hb::load(in + t.offsets, t.mask, identity);
  k.kept = start + hb::arange(0, axis == 1 ? m : n, hb::Slice{static_cast<unsigned>(axis), layout});
  k.keptMask = k.kept < (axis == 1 ? rows : cols);
  return k;
}

Result<hb::Module> buildE2E(const KernelUse &use, unsigned lanes) {
  const hb::Layout layout = layoutOf(use.layout, lanes);
  const hb::Options o = optionsOf(use);
  if (use.kernel == "reduce1d")
    return hb::jit("reduce1d", [&] {
             Tensor in = hb::arg(hb::pointer_type(hb::int32));
             Tensor sums = hb::arg(hb::pointer_type(hb::int32));
             Tensor maxs = hb::arg(hb::pointer_type(hb::int32)), n = hb::arg(hb::int32);
             Tensor pid = hb::program_id(0);
             Tensor offsets = pid * use.ints[0] + hb::arange(0, use.ints[0], layout);
             Tensor mask = offsets < n;
             Tensor x = hb::load(in + offsets, mask, 0);
             Tensor s = hb::reduce(x, 0, [](Tensor a, Tensor b) { return a + b; });
             Tensor mx = hb::reduce(hb::where(mask, x, INT32_MIN), 0,
                                    [](Tensor a, Tensor b) { return hb::maximum(a, b); });
             hb::store(sums + pid, s);
             hb::store(maxs + pid, mx);
           }).specialize(o);
  const int m = use.ints[0], n = use.ints[1], axis = use.ints[2];
  const hb::DType type = dtypeOf(use.elem);
  if (use.kernel == "reduce") {
    const Combine c = e2eCombineOf(use.variant);
    if (!c.body)
      return Error("no combine '" + use.variant + "' (tests/kernels/ReduceScan.cpp)");
    return hb::jit("reduce", [&] {
             Tensor in = hb::arg(hb::pointer_type(type)), out = hb::arg(hb::pointer_type(type));
             Tensor rows = hb::arg(hb::int32), cols = hb::arg(hb::int32);
             KeptTile t = loadForReduction(m, n, axis, layout, in, rows, cols, c.identity);
             hb::store(out + t.kept, hb::reduce(t.values, axis, c.body), t.keptMask);
           }).specialize(o);
  }
  if (use.kernel == "argmax")
    return hb::jit("argmax", [&] {
             Tensor in = hb::arg(hb::pointer_type(hb::float32));
             Tensor max = hb::arg(hb::pointer_type(hb::float32));
             Tensor index = hb::arg(hb::pointer_type(hb::int32));
             Tensor rows = hb::arg(hb::int32), cols = hb::arg(hb::int32);
             KeptTile t = loadForReduction(m, n, axis, layout, in, rows, cols, -INFINITY);
             // The index along the reduced axis, broadcast over the tile.
             const unsigned other = static_cast<unsigned>(1 - axis);
             Tensor along = hb::broadcast(
                 hb::expand_dims(hb::arange(0, axis == 1 ? n : m, hb::Slice{other, layout}),
                                 1 - axis),
                 {m, n});
             auto r = hb::reduce({t.values, along}, axis, [](hb::Values a, hb::Values b) {
               Tensor take = (b[0] > a[0]) | ((b[0] == a[0]) & (b[1] < a[1]));
               return hb::Values{hb::where(take, b[0], a[0]), hb::where(take, b[1], a[1])};
             });
             hb::store(max + t.kept, r[0], t.keptMask);
             hb::store(index + t.kept, r[1], t.keptMask);
           }).specialize(o);
  if (use.kernel == "scan")
    return hb::jit("scan", [&] {
             Tensor in = hb::arg(hb::pointer_type(hb::int32)), out = hb::arg(hb::pointer_type(hb::int32));
             Tensor rows = hb::arg(hb::int32), cols = hb::arg(hb::int32);
             KeptTile t = loadForReduction(m, n, axis, layout, in, rows, cols, 0);
             Tensor s = hb::associative_scan(t.values, axis, [](Tensor a, Tensor b) { return a + b; },
                                             use.ints[3] != 0);
             hb::store(out + t.offsets, s, t.mask);
           }).specialize(o);
  return Error("no e2e reduce/scan kernel '" + use.kernel + "' (tests/kernels/ReduceScan.cpp)");
}

} // namespace

std::string addReduceScanKernels(BuiltKernels &out) {
  if (std::string error = addUses<KernelUse>(out, reduceScanUses(), build); !error.empty())
    return error;
  return addUses<KernelUse>(out, e2eReduceScanUses(), buildE2E);
}

} // namespace hadron::kernels
