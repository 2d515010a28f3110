// Row softmax: each program normalises one row of at most COLS floats
// (n_cols may be smaller; masked-off columns read -inf so they add nothing).
// exp and the divide allow approximate functions (afn), as Triton's softmax
// computes them. Launch one program per row.
#include "Examples.h"

#include <cmath>

using namespace hadron::builder;

namespace hadron::examples {

auto rowSoftmaxKernel = jit("row_softmax", [](Constexpr<int> COLS, Constexpr<Layout> layout) {
  Tensor in = arg(pointer_type(float32), {.divisibility = 16});
  Tensor out = arg(pointer_type(float32), {.divisibility = 16});
  Tensor nCols = arg(int32);
  Tensor cols = arange(0, COLS, layout);
  Tensor mask = cols < nCols;
  Tensor offsets = program_id(0) * nCols + cols;
  Tensor x = load(in + offsets, mask, -INFINITY);
  Tensor e = exp(x - max(x, 0), FastMath::afn);
  store(out + offsets, fdiv(e, sum(e, 0), FastMath::afn), mask);
});

Result<Module> rowSoftmax() {
  return rowSoftmaxKernel.specialize({.numWarps = 8}, Constexpr<int>("COLS", 1024),
                                     Constexpr<Layout>("layout", Blocked{{4}, {32}, {8}, {0}}));
}

} // namespace hadron::examples
