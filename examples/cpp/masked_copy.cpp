// Masked copy with padding: dst[i] = src[i] for i < n and dst[i] = fill for
// n <= i < n_out, BLOCK elements per program. The load's mask stops at n and
// its `other` value supplies `fill` past it; the store's mask stops at
// n_out. Launch ceil(n_out / BLOCK) programs.
#include "Examples.h"

using namespace hadron::builder;

namespace hadron::examples {

auto maskedCopyKernel = jit("masked_copy", [](Constexpr<int> BLOCK, Constexpr<Layout> layout) {
  Tensor src = arg(pointer_type(float32), {.divisibility = 16});
  Tensor dst = arg(pointer_type(float32), {.divisibility = 16});
  Tensor n = arg(int32);
  Tensor nOut = arg(int32);
  Tensor fill = arg(float32);
  Tensor offsets = program_id(0) * BLOCK + arange(0, BLOCK, layout);
  Tensor x = load(src + offsets, offsets < n, fill);
  store(dst + offsets, x, offsets < nOut);
});

Result<Module> maskedCopy() {
  return maskedCopyKernel.specialize({.numWarps = 4}, Constexpr<int>("BLOCK", 1024),
                                     Constexpr<Layout>("layout", Blocked{{4}, {32}, {4}, {0}}));
}

} // namespace hadron::examples
