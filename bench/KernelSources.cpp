//===- KernelSources.cpp - copy, add and row softmax with the builder -----===//
//
// Pointer arguments and the element counts carry divisibility 16
// (kCountMultiple), so that loads and stores, masked ones included, are
// 16-byte vectors.
//
//===----------------------------------------------------------------------===//

#include "KernelSources.h"

#include <cmath>

using namespace hadron::builder;

namespace hadron::bench {
namespace {

constexpr int kDiv = static_cast<int>(kCountMultiple);

/// This program's block of offsets.
Tensor blockOffsets(int block, const Layout &layout) {
  return program_id(0) * block + arange(0, block, layout);
}

auto copyKernel = jit("bench_copy", [](Constexpr<int> BLOCK, Constexpr<Layout> layout) {
  Tensor src = arg(pointer_type(float32), {.divisibility = kDiv});
  Tensor dst = arg(pointer_type(float32), {.divisibility = kDiv});
  Tensor n = arg(int32, {.divisibility = kDiv});
  Tensor offsets = blockOffsets(BLOCK, layout);
  Tensor mask = offsets < n;
  store(dst + offsets, load(src + offsets, mask), mask);
});

auto addKernel = jit("bench_add", [](Constexpr<int> BLOCK, Constexpr<Layout> layout) {
  Tensor a = arg(pointer_type(float32), {.divisibility = kDiv});
  Tensor b = arg(pointer_type(float32), {.divisibility = kDiv});
  Tensor c = arg(pointer_type(float32), {.divisibility = kDiv});
  Tensor n = arg(int32, {.divisibility = kDiv});
  Tensor offsets = blockOffsets(BLOCK, layout);
  Tensor mask = offsets < n;
  store(c + offsets, load(a + offsets, mask) + load(b + offsets, mask), mask);
});

// Row softmax as examples/cpp/row_softmax.cpp, with the row tile a
// parameter (and, like it, afn on exp and the divide: what Triton's softmax
// computes).
auto softmaxKernel = jit("bench_softmax", [](Constexpr<int> BLOCK, Constexpr<Layout> layout) {
  Tensor in = arg(pointer_type(float32), {.divisibility = kDiv});
  Tensor out = arg(pointer_type(float32), {.divisibility = kDiv});
  Tensor nCols = arg(int32, {.divisibility = kDiv});
  Tensor cols = arange(0, BLOCK, layout);
  Tensor mask = cols < nCols;
  Tensor offsets = program_id(0) * nCols + cols;
  Tensor x = load(in + offsets, mask, -INFINITY);
  Tensor e = exp(x - max(x, 0), FastMath::afn);
  store(out + offsets, fdiv(e, sum(e, 0), FastMath::afn), mask);
});

} // namespace

Result<Module> buildKernel(Op op, const Config &c) {
  Options options{.numWarps = c.warps};
  Constexpr<int> block("BLOCK", static_cast<int>(c.block));
  Constexpr<Layout> layout("layout", Blocked{{c.spt}, {32}, {c.warps}, {0}});
  switch (op) {
  case Op::Copy:
    return copyKernel.specialize(options, block, layout);
  case Op::Add:
    return addKernel.specialize(options, block, layout);
  case Op::Softmax:
    return softmaxKernel.specialize(options, block, layout);
  }
  return Error("unknown benchmark op");
}

} // namespace hadron::bench
