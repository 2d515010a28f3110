// Transpose: out[j][i] = in[i][j] for an MxN row-major matrix (M and N
// multiples of TILE) into an NxM one, one TILE x TILE tile per program on a
// grid of (M / TILE, N / TILE). The tile is loaded in `rows` (each thread
// reads 4 consecutive elements of a row of `in`) and convert_layout moves it
// to `cols` (each thread holds 4 consecutive elements of a column, which are
// consecutive in `out`), so both the loads and the stores are contiguous.
#include "Examples.h"

using namespace hadron::builder;

namespace hadron::examples {

auto transposeKernel = jit("transpose", [](Constexpr<int> TILE, Constexpr<Layout> rows,
                                           Constexpr<Layout> cols) {
  Tensor in = arg(pointer_type(float32), {.divisibility = 16});
  Tensor out = arg(pointer_type(float32), {.divisibility = 16});
  Tensor m = arg(int32, {.divisibility = 64});
  Tensor n = arg(int32, {.divisibility = 64});
  Tensor i0 = program_id(0) * TILE;
  Tensor j0 = program_id(1) * TILE;

  // Load in[i0 + i][j0 + j] at offset (i0 + i) * n + j0 + j.
  Tensor gi = expand_dims(i0 + arange(0, TILE, Slice{1, rows}), 1);
  Tensor gj = expand_dims(j0 + arange(0, TILE, Slice{0, rows}), 0);
  Tensor tile = load(in + (gi * n + gj));

  Tensor moved = convert_layout(tile, cols);

  // Store element (i, j) to out[j0 + j][i0 + i] at offset (j0 + j) * m + i0 + i.
  Tensor oi = expand_dims(i0 + arange(0, TILE, Slice{1, cols}), 1);
  Tensor oj = expand_dims(j0 + arange(0, TILE, Slice{0, cols}), 0);
  store(out + (oj * m + oi), moved);
});

Result<Module> transpose() {
  return transposeKernel.specialize(
      {.numWarps = 4}, Constexpr<int>("TILE", 64),
      Constexpr<Layout>("rows", Blocked{{1, 4}, {4, 8}, {4, 1}, {1, 0}}),
      Constexpr<Layout>("cols", Blocked{{4, 1}, {8, 4}, {1, 4}, {0, 1}}));
}

} // namespace hadron::examples
