//===- Memory.cpp - The global-memory kernels, with the builder -----------===//

#include "Memory.h"
#include "Build.h"

namespace hadron::kernels {
namespace {

using Block = Constexpr<int>;
using L = Constexpr<hb::Layout>;
using T = Constexpr<hb::DType>;

auto maskedLoadOther = hb::jit("masked_load_other", [](Block BLOCK, L layout, T type) {
  Tensor in = hb::arg(hb::pointer_type(type)), out = hb::arg(hb::pointer_type(type));
  Tensor n = hb::arg(hb::int32);
  Tensor offsets = hb::program_id(0) * BLOCK + hb::arange(0, BLOCK, layout);
  hb::Operand other = type->isFloat() ? hb::Operand(-7.5) : hb::Operand(-7);
  hb::store(out + offsets, hb::load(in + offsets, offsets < n, other));
});

auto programIds = hb::jit("program_ids", [] {
  Tensor out = hb::arg(hb::pointer_type(hb::int32));
  Tensor pid[3], num[3];
  for (int a = 0; a < 3; ++a) {
    pid[a] = hb::program_id(a);
    num[a] = hb::num_programs(a);
  }
  Tensor base = ((pid[2] * num[1] + pid[1]) * num[0] + pid[0]) * 6;
  const Tensor values[6] = {pid[0], pid[1], pid[2], num[0], num[1], num[2]};
  for (int j = 0; j < 6; ++j)
    hb::store(out + (base + j), values[j]);
});

auto copy2d = hb::jit("copy2d", [](Constexpr<int> BM, Constexpr<int> BN, L layout) {
  Tensor in = hb::arg(hb::pointer_type(hb::float32)), out = hb::arg(hb::pointer_type(hb::float32));
  Tensor rows = hb::arg(hb::int32), cols = hb::arg(hb::int32);
  Tile2d t = tile2d(BM, BN, layout, cols, hb::program_id(1) * BM, hb::program_id(0) * BN, rows, cols);
  Tensor x = hb::load(in + t.offsets, t.mask);
  hb::store(out + t.offsets, x + x, t.mask);
});

auto copy3d = hb::jit("copy3d", [](Block BLOCK, L layout) {
  Tensor in = hb::arg(hb::pointer_type(hb::int32)), out = hb::arg(hb::pointer_type(hb::int32));
  Tensor x = hb::program_id(0), y = hb::program_id(1), z = hb::program_id(2);
  Tensor linear = (z * hb::num_programs(1) + y) * hb::num_programs(0) + x;
  Tensor offsets = linear * BLOCK + hb::arange(0, BLOCK, layout);
  hb::store(out + offsets, hb::load(in + offsets) + z);
});

auto gather = hb::jit("gather", [](Block BLOCK, L layout) {
  Tensor in = hb::arg(hb::pointer_type(hb::float32)), out = hb::arg(hb::pointer_type(hb::float32));
  Tensor n = hb::arg(hb::int32), stride = hb::arg(hb::int32);
  Tensor offsets = hb::program_id(0) * BLOCK + hb::arange(0, BLOCK, layout);
  Tensor mask = offsets < n;
  hb::store(out + offsets, hb::load(in + (offsets * stride) % n, mask), mask);
});

auto largeGrid = hb::jit("large_grid", [](Block BLOCK, L layout) {
  Tensor out = hb::arg(hb::pointer_type(hb::int32));
  Tensor pid = hb::program_id(0);
  hb::store(out + (pid * BLOCK + hb::arange(0, BLOCK, layout)), pid);
});

auto zeroSize = hb::jit("zero_size", [](Block BLOCK, L layout) {
  Tensor in = hb::arg(hb::pointer_type(hb::float32)), out = hb::arg(hb::pointer_type(hb::float32));
  Tensor n = hb::arg(hb::int32);
  Tensor offsets = hb::program_id(0) * BLOCK + hb::arange(0, BLOCK, layout);
  Tensor mask = offsets < n;
  hb::store(out + offsets, hb::load(in + offsets, mask), mask);
});

auto scalarAccess = hb::jit("scalar_access", [](Block BLOCK, L layout) {
  Tensor in = hb::arg(hb::pointer_type(hb::float32)), params = hb::arg(hb::pointer_type(hb::float32));
  Tensor out = hb::arg(hb::pointer_type(hb::float32)), n = hb::arg(hb::int32);
  Tensor offsets = hb::program_id(0) * BLOCK + hb::arange(0, BLOCK, layout);
  Tensor mask = offsets < n;
  Tensor scale = hb::load(params), shift = hb::load(params + 1);
  hb::store(out + offsets, hb::load(in + offsets, mask) * scale + shift, mask);
});

Result<hb::Module> build(const KernelUse &use, unsigned lanes) {
  const hb::Options o = optionsOf(use);
  const hb::Layout layout = layoutOf(use.layout, lanes);
  const int block = use.layout.rank() == 1 ? use.layout.tile(0, lanes) : 0;
  if (use.kernel == "masked_load_other")
    return maskedLoadOther.specialize(o, block, layout, dtypeOf(use.elem));
  if (use.kernel == "program_ids")
    return programIds.specialize(o);
  if (use.kernel == "copy2d") {
    std::vector<int> tile = copy2dTile(use.layout, lanes);
    return copy2d.specialize(o, tile[0], tile[1], layout);
  }
  if (use.kernel == "copy3d")
    return copy3d.specialize(o, block, layout);
  if (use.kernel == "gather")
    return gather.specialize(o, block, layout);
  if (use.kernel == "large_grid")
    return largeGrid.specialize(o, block, layout);
  if (use.kernel == "zero_size")
    return zeroSize.specialize(o, block, layout);
  if (use.kernel == "scalar_access")
    return scalarAccess.specialize(o, block, layout);
  return Error("no memory kernel '" + use.kernel + "' (tests/kernels/Memory.cpp)");
}

} // namespace

std::string addMemoryKernels(BuiltKernels &out) {
  return addUses<KernelUse>(out, memoryUses(), build);
}

} // namespace hadron::kernels
