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

} // namespace

std::string addReduceScanKernels(BuiltKernels &out) {
  return addUses<KernelUse>(out, reduceScanUses(), build);
}

} // namespace hadron::kernels
