// Vector add: out[i] = x[i] + y[i] for i < n, BLOCK elements per program.
// Each thread holds 4 consecutive floats (a 16-byte vector), 32 lanes per
// warp, 4 warps per program: 512 elements per layout tile, repeated to fill
// the block. Launch ceil(n / BLOCK) programs.
#include "Examples.h"

using namespace hadron::builder;

namespace hadron::examples {

auto vectorAddKernel = jit("vector_add", [](Constexpr<int> BLOCK, Constexpr<Layout> layout) {
  Tensor x = arg(pointer_type(float32), {.divisibility = 16});
  Tensor y = arg(pointer_type(float32), {.divisibility = 16});
  Tensor out = arg(pointer_type(float32), {.divisibility = 16});
  Tensor n = arg(int32);
  Tensor offsets = program_id(0) * BLOCK + arange(0, BLOCK, layout);
  Tensor mask = offsets < n;
  store(out + offsets, load(x + offsets, mask) + load(y + offsets, mask), mask);
});

Result<Module> vectorAdd() {
  return vectorAddKernel.specialize({.numWarps = 4}, Constexpr<int>("BLOCK", 1024),
                                    Constexpr<Layout>("layout", Blocked{{4}, {32}, {4}, {0}}));
}

} // namespace hadron::examples
