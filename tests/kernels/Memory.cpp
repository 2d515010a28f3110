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

/// The load and store options of a tests/e2e cache-hint case.
std::pair<hb::LoadOptions, hb::StoreOptions> hintsOf(const std::string &label) {
  using C = hb::CacheModifier;
  using E = hb::EvictionPolicy;
  if (label == "cache_all__write_back")
    return {{.cache = C::cache_all}, {.cache = C::write_back}};
  if (label == "cache_global__write_through")
    return {{.cache = C::cache_global}, {.cache = C::write_through}};
  if (label == "streaming_evict_first__both")
    return {{.cache = C::streaming, .evict = E::evict_first},
            {.cache = C::streaming, .evict = E::evict_first}};
  if (label == "no_cache__evict_last")
    return {{.cache = C::no_cache}, {.evict = E::evict_last}};
  if (label == "evict_last__cache_global")
    return {{.evict = E::evict_last}, {.cache = C::cache_global}};
  if (label == "volatile_load")
    return {{.isVolatile = true}, {}};
  return {};
}

Result<hb::Module> buildE2E(const KernelUse &use, unsigned lanes) {
  const hb::Layout layout = layoutOf(use.layout, lanes);
  const hb::Options o = optionsOf(use);
  auto ptrTo = [](const hb::DType &t) { return hb::arg(hb::pointer_type(t)); };
  if (use.kernel == "ids")
    return hb::jit("ids", [&] {
             Tensor ids = ptrTo(hb::int32), tile = ptrTo(hb::int32);
             Tensor pid[3], num[3];
             for (int a = 0; a < 3; ++a) {
               pid[a] = hb::program_id(a);
               num[a] = hb::num_programs(a);
             }
             Tensor lin = pid[0] + num[0] * (pid[1] + num[1] * pid[2]);
             Tensor base = lin * 8;
             const Tensor values[6] = {pid[0], pid[1], pid[2], num[0], num[1], num[2]};
             for (int i = 0; i < 6; ++i)
               hb::store(ids + (base + i), values[i]);
             Tensor range = hb::arange(0, 128, layout);
             hb::store(tile + (lin * 128 + range), lin * 1000 + range);
           }).specialize(o);
  if (use.kernel == "scalars")
    return hb::jit("scalars", [&] {
             Tensor a = ptrTo(hb::float32), b = ptrTo(hb::float32), out = ptrTo(hb::float32);
             Tensor limit = hb::arg(hb::int32);
             Tensor pid = hb::program_id(0);
             Tensor s = hb::load(a + pid) + hb::load(b + pid, pid < limit, -1.0);
             hb::store(out + (pid * 64 + hb::arange(0, 64, layout)), s);
           }).specialize(o);
  if (use.kernel == "copy2d")
    return hb::jit("copy2d", [&] {
             const int m = use.ints[0], n = use.ints[1];
             Tensor in = ptrTo(hb::int32), out = ptrTo(hb::int32);
             Tensor rows = hb::arg(hb::int32), cols = hb::arg(hb::int32);
             Tensor ldIn = hb::arg(hb::int32), ldOut = hb::arg(hb::int32);
             Tensor r0 = hb::program_id(0) * m, c0 = hb::program_id(1) * n;
             Tile2d ti = tile2d(m, n, layout, ldIn, r0, c0, rows, cols);
             Tile2d to = tile2d(m, n, layout, ldOut, r0, c0, rows, cols);
             Tensor x = hb::load(in + ti.offsets, ti.mask);
             // The row index again, from the offsets: (offset - col) / ld is r.
             hb::store(out + to.offsets, (x + x) + ti.offsets / ldIn, to.mask);
           }).specialize(o);
  const int block = use.ints[0];
  if (use.kernel == "masked_copy") {
    const hb::DType type = dtypeOf(use.elem);
    const auto [loadHints, storeHints] = hintsOf(use.variant);
    return hb::jit("masked_copy", [&] {
             Tensor src = hb::arg(hb::pointer_type(type), {.divisibility = 16});
             Tensor dst = hb::arg(hb::pointer_type(type), {.divisibility = 16});
             Tensor n = hb::arg(hb::int32), nOut = hb::arg(hb::int32), fill = hb::arg(type);
             Tensor offsets = hb::program_id(0) * block + hb::arange(0, block, layout);
             Tensor x = hb::load(src + offsets, offsets < n, fill, loadHints);
             hb::store(dst + offsets, x, offsets < nOut, storeHints);
           }).specialize(o);
  }
  if (use.kernel == "gather")
    return hb::jit("gather", [&] {
             Tensor in = ptrTo(hb::float32), out = ptrTo(hb::float32), n = hb::arg(hb::int32);
             Tensor offsets = hb::program_id(0) * block + hb::arange(0, block, layout);
             Tensor mask = offsets < n;
             Tensor src = (offsets * 7 + 3) % n;
             // in + 5 + (src - 5), as two addptrs.
             Tensor five = hb::full({block}, 5, hb::int32, layout);
             Tensor x = hb::load((in + five) + (src - five), mask);
             // out + (n - 1) as a scalar, then minus i per element.
             hb::store((out + (n - 1)) + (0 - offsets), x, mask);
           }).specialize(o);
  if (use.kernel == "copy64")
    return hb::jit("copy64", [&] {
             Tensor in = ptrTo(hb::int32), out = ptrTo(hb::int32), n = hb::arg(hb::int64);
             Tensor offsets = hb::program_id(0).to(hb::int64) * hb::constant(block, hb::int64) +
                              hb::arange(0, block, layout).to(hb::int64);
             Tensor mask = offsets < n;
             hb::store(out + offsets, hb::load(in + offsets, mask), mask);
           }).specialize(o);
  return Error("no e2e memory kernel '" + use.kernel + "' (tests/kernels/Memory.cpp)");
}

} // namespace

std::string addMemoryKernels(BuiltKernels &out) {
  if (std::string error = addUses<KernelUse>(out, memoryUses(), build); !error.empty())
    return error;
  return addUses<KernelUse>(out, e2eMemoryUses(), buildE2E);
}

} // namespace hadron::kernels
