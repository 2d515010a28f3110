// Matmul: C = A * B for row-major f32 matrices A (MxK), B (KxN), C (MxN),
// with M and N multiples of BM and BN and K a multiple of BK. Each program
// computes one BM x BN tile of C on a grid of (M / BM, N / BN): for_range
// walks K in steps of BK with the accumulator carried through the loop.
// Each step loads a BM x BK slab of A and a BK x BN slab of B in coalesced
// blocked layouts, converts them to the DotOperand layouts of the
// accumulator's layout and multiplies them with dot, here the FMA form
// every target runs.
#include "Examples.h"

using namespace hadron::builder;

namespace hadron::examples {

auto matmulKernel = jit("matmul", [](Constexpr<int> BM, Constexpr<int> BN, Constexpr<int> BK) {
  const Layout acc = Blocked{{2, 4}, {4, 8}, {4, 1}, {1, 0}};
  const Layout aLoad = Blocked{{1, 2}, {8, 4}, {4, 1}, {1, 0}};
  const Layout bLoad = Blocked{{1, 2}, {2, 16}, {4, 1}, {1, 0}};
  Tensor a = arg(pointer_type(float32), {.divisibility = 16});
  Tensor b = arg(pointer_type(float32), {.divisibility = 16});
  Tensor c = arg(pointer_type(float32), {.divisibility = 16});
  arg(int32); // m: the grid covers it
  Tensor n = arg(int32);
  Tensor k = arg(int32);
  Tensor m0 = program_id(0) * BM;
  Tensor n0 = program_id(1) * BN;

  // Loop-invariant parts of the offsets: A's rows (m0 + i) * k, B's
  // columns n0 + j, and the K ranges 0..BK-1 of both slabs.
  Tensor aBase = expand_dims(m0 + arange(0, BM, Slice{1, aLoad}), 1) * k +
                 expand_dims(arange(0, BK, Slice{0, aLoad}), 0);
  Tensor bBase = expand_dims(arange(0, BK, Slice{1, bLoad}), 1) * n +
                 expand_dims(n0 + arange(0, BN, Slice{0, bLoad}), 0);

  Tensor result =
      for_range(0, k, BK, full({BM, BN}, 0.0, float32, acc), [&](Tensor kk, Tensor sum) {
        Tensor aTile = load(a + (aBase + kk));
        Tensor bTile = load(b + (bBase + kk * n));
        return dot(convert_layout(aTile, DotOperand{0, acc}),
                   convert_layout(bTile, DotOperand{1, acc}), sum);
      });

  // C[m0 + i][n0 + j] at offset (m0 + i) * n + n0 + j.
  Tensor ci = expand_dims(m0 + arange(0, BM, Slice{1, acc}), 1);
  Tensor cj = expand_dims(n0 + arange(0, BN, Slice{0, acc}), 0);
  store(c + (ci * n + cj), result);
});

Result<Module> matmul() {
  return matmulKernel.specialize({.numWarps = 4}, Constexpr<int>("BM", 32),
                                 Constexpr<int>("BN", 32), Constexpr<int>("BK", 8));
}

} // namespace hadron::examples
