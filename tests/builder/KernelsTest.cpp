//===- KernelsTest.cpp - Kernels written with the builder, run on the host -===//
//
// Each test builds a kernel, checks the ops it printed (in order), then runs
// it on the host device against a C++ reference on random inputs, with the
// outputs poisoned (and some slack past their end) so that a missing or
// stray write fails.
//
//===----------------------------------------------------------------------===//

#include "BuilderTest.h"
#include "Examples.h"

#include <algorithm>
#include <cmath>

namespace hadron::builder::test {
namespace {

using runtime::arg::i32;

constexpr size_t kSlack = 64;
uint32_t ceilDiv(int64_t a, int64_t b) { return static_cast<uint32_t>((a + b - 1) / b); }

const Layout k1D = Blocked{{4}, {32}, {4}, {0}};

auto copyKernel = jit("copy", [](Constexpr<int> BLOCK, Constexpr<Layout> layout) {
  Tensor src = arg(pointer_type(float32), {.divisibility = 16});
  Tensor dst = arg(pointer_type(float32), {.divisibility = 16});
  Tensor n = arg(int32);
  Tensor offsets = program_id(0) * BLOCK + arange(0, BLOCK, layout);
  Tensor mask = offsets < n;
  store(dst + offsets, load(src + offsets, mask), mask);
});

TEST(BuilderKernels, Copy) {
  auto m = copyKernel.specialize({.numWarps = 4}, Constexpr<int>("BLOCK", 1024),
                                 Constexpr<Layout>("layout", k1D));
  std::string ir = irOf(m);
  EXPECT_TRUE(containsInOrder(
      ir, {"#blocked = #hd.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = "
           "[4], order = [0]}>",
           "module @copy.BLOCK_1024.layout_blocked_", ".w4 attributes {hd.num_warps = 4 : i32}",
           "func.func @copy(%arg0: !hd.ptr<f32> {hd.divisibility = 16 : i32}, %arg1: "
           "!hd.ptr<f32> {hd.divisibility = 16 : i32}, %arg2: i32) attributes {hd.kernel}",
           "hd.arange 0 to 1024 : tensor<1024xi32, #blocked>", "hd.program_id 0",
           "arith.muli", "arith.addi", "arith.cmpi slt", "hd.addptr", "hd.load",
           "hd.store", "return"}));
  ASSERT_TRUE(m);

  const int n = 3000 + int(rng()() % 1000);
  std::vector<float> src = randomF32(n), dst = poisoned<float>(n + kSlack);
  ASSERT_TRUE(run(*m, {ceilDiv(n, 1024), 1, 1}, {input(src), output(dst), i32(n)}));
  std::vector<float> want = poisoned<float>(n + kSlack);
  std::copy(src.begin(), src.end(), want.begin());
  EXPECT_TRUE(close(dst, want, 0, 0));
}

auto addKernel = jit("add", [](Constexpr<int> BLOCK, Constexpr<Layout> layout) {
  Tensor a = arg(pointer_type(float32));
  Tensor b = arg(pointer_type(float32));
  Tensor c = arg(pointer_type(float32));
  Tensor n = arg(int32);
  Tensor offsets = program_id(0) * BLOCK + arange(0, BLOCK, layout);
  Tensor mask = offsets < n;
  store(c + offsets, load(a + offsets, mask, 0.0) + load(b + offsets, mask, 0.0), mask);
});

TEST(BuilderKernels, AddInTwoSpecialisations) {
  auto small = addKernel.specialize({.numWarps = 4}, 512, k1D);
  auto big = addKernel.specialize({.numWarps = 4}, 2048, k1D);
  ASSERT_TRUE(small && big);
  EXPECT_NE(small->key(), big->key());
  EXPECT_EQ(small->kernelName(), "add");
  EXPECT_EQ(big->kernelName(), "add");
  EXPECT_TRUE(containsInOrder(irOf(small), {"hd.arange 0 to 512", "hd.load", "other", "arith.addf"}));
  EXPECT_TRUE(containsInOrder(irOf(big), {"hd.arange 0 to 2048", "arith.addf"}));

  const int n = 5000 + int(rng()() % 1000);
  std::vector<float> a = randomF32(n), b = randomF32(n), want = poisoned<float>(n + kSlack);
  for (int i = 0; i < n; ++i)
    want[i] = a[i] + b[i];
  for (auto *m : {&*small, &*big}) {
    uint32_t block = m == &*small ? 512 : 2048;
    std::vector<float> c = poisoned<float>(n + kSlack);
    ASSERT_TRUE(run(*m, {ceilDiv(n, block), 1, 1}, {input(a), input(b), output(c), i32(n)}));
    EXPECT_TRUE(close(c, want, 0, 0)) << m->key();
  }
}

// ROWS rows of at most COLS columns per program: the max and the sum along
// axis 1 are Slice{1, L} vectors, expanded back and broadcast.
auto softmaxKernel = jit("softmax_rows", [](Constexpr<int> ROWS, Constexpr<int> COLS,
                                            Constexpr<Layout> L) {
  Tensor in = arg(pointer_type(float32), {.divisibility = 16});
  Tensor out = arg(pointer_type(float32), {.divisibility = 16});
  Tensor nRows = arg(int32);
  Tensor nCols = arg(int32);
  Tensor rows = expand_dims(program_id(0) * ROWS + arange(0, ROWS, Slice{1, L}), 1);
  Tensor cols = expand_dims(arange(0, COLS, Slice{0, L}), 0);
  Tensor offsets = rows * nCols + cols;
  Tensor mask = (rows < nRows) & (cols < nCols);
  Tensor x = load(in + offsets, mask, -INFINITY);
  Tensor e = exp(x - expand_dims(max(x, 1), 1), FastMath::afn);
  Tensor y = fdiv(e, expand_dims(sum(e, 1), 1), FastMath::afn);
  store(out + offsets, y, mask);
});

TEST(BuilderKernels, SoftmaxLikeReduce) {
  const Layout L = Blocked{{1, 4}, {4, 8}, {4, 1}, {1, 0}};
  auto m = softmaxKernel.specialize({.numWarps = 4}, 8, 128, L);
  EXPECT_TRUE(containsInOrder(
      irOf(m), {"hd.arange 0 to 8 : tensor<8xi32, #slice>", "hd.expand_dims",
                "-> tensor<8x1xi32, #blocked>", "hd.arange 0 to 128 : tensor<128xi32, #slice1>",
                "hd.broadcast", "arith.andi", "dense<0xFF800000>", "hd.load", "hd.reduce(",
                "axis = 1", "arith.maximumf", "hd.yield", "math.exp", "fastmath<afn>",
                "hd.reduce(", "arith.addf", "arith.divf", "hd.store"}));
  ASSERT_TRUE(m);

  const int rows = 37, cols = 100;
  std::vector<float> in = randomF32(rows * cols, -4, 4), out = poisoned<float>(rows * cols + kSlack);
  ASSERT_TRUE(run(*m, {ceilDiv(rows, 8), 1, 1}, {input(in), output(out), i32(rows), i32(cols)}));
  std::vector<float> want = poisoned<float>(rows * cols + kSlack);
  for (int r = 0; r < rows; ++r) {
    const float *x = &in[r * cols];
    float mx = *std::max_element(x, x + cols);
    double s = 0;
    for (int c = 0; c < cols; ++c)
      s += std::exp(double(x[c]) - mx);
    for (int c = 0; c < cols; ++c)
      want[r * cols + c] = float(std::exp(double(x[c]) - mx) / s);
  }
  EXPECT_TRUE(close(out, want, 1e-7, 1e-4));
}

auto scanKernel = jit("scans", [](Constexpr<int> BLOCK, Constexpr<Layout> L) {
  Tensor xi = arg(pointer_type(int32));
  Tensor xf = arg(pointer_type(float32));
  Tensor sums = arg(pointer_type(int32));
  Tensor maxes = arg(pointer_type(float32));
  Tensor offsets = program_id(0) * BLOCK + arange(0, BLOCK, L);
  store(sums + offsets, cumsum(load(xi + offsets), 0));
  store(maxes + offsets,
        associative_scan(load(xf + offsets), 0, [](Tensor a, Tensor b) { return maximum(a, b); },
                         /*reverse=*/true));
});

TEST(BuilderKernels, Scan) {
  auto m = scanKernel.specialize({.numWarps = 4}, 256, Blocked{{2}, {32}, {4}, {0}});
  EXPECT_TRUE(containsInOrder(irOf(m), {"hd.scan(", "axis = 0 reverse = false", "arith.addi",
                                        "hd.scan(", "axis = 0 reverse = true",
                                        "arith.maximumf"}));
  ASSERT_TRUE(m);

  const int programs = 3, n = programs * 256;
  std::vector<int32_t> xi = randomI32(n, -1000, 1000), sums = poisoned<int32_t>(n);
  std::vector<float> xf = randomF32(n), maxes = poisoned<float>(n);
  ASSERT_TRUE(run(*m, {programs, 1, 1}, {input(xi), input(xf), output(sums), output(maxes)}));
  std::vector<float> wantMax(n);
  for (int p = 0; p < programs; ++p) {
    int32_t s = 0;
    for (int i = 0; i < 256; ++i) {
      s += xi[p * 256 + i];
      EXPECT_EQ(sums[p * 256 + i], s) << "element " << p * 256 + i;
    }
    float mx = -INFINITY;
    for (int i = 255; i >= 0; --i)
      wantMax[p * 256 + i] = mx = std::max(mx, xf[p * 256 + i]);
  }
  EXPECT_TRUE(close(maxes, wantMax, 0, 0));
}

// A 32x32 tile per program: loaded along rows, stored to shared memory,
// read back along columns, written transposed.
auto smemTranspose = jit("smem_transpose", [](Constexpr<Layout> shared) {
  const Layout rows = Blocked{{1, 4}, {4, 8}, {4, 1}, {1, 0}};
  const Layout cols = Blocked{{4, 1}, {8, 4}, {1, 4}, {0, 1}};
  Tensor in = arg(pointer_type(float32), {.divisibility = 16});
  Tensor out = arg(pointer_type(float32), {.divisibility = 16});
  Tensor m = arg(int32);
  Tensor n = arg(int32);
  Tensor i0 = program_id(0) * 32, j0 = program_id(1) * 32;
  Tensor ri = expand_dims(i0 + arange(0, 32, Slice{1, rows}), 1);
  Tensor rj = expand_dims(j0 + arange(0, 32, Slice{0, rows}), 0);
  SharedMemory tile = allocate_shared_memory(float32, {32, 32}, shared);
  tile.store(load(in + ri * n + rj));
  barrier();
  Tensor t = tile.load(cols);
  Tensor ci = expand_dims(i0 + arange(0, 32, Slice{1, cols}), 1);
  Tensor cj = expand_dims(j0 + arange(0, 32, Slice{0, cols}), 0);
  store(out + cj * m + ci, t);
  tile.dealloc();
});

TEST(BuilderKernels, SharedMemoryRoundTrip) {
  for (Layout shared : {Layout(Swizzled{4, 1, 8, {1, 0}}), Layout(Padded{{32}, {1}, {1, 0}})}) {
    auto mod = smemTranspose.specialize({.numWarps = 4}, shared);
    EXPECT_TRUE(containsInOrder(irOf(mod), {"hd.local_alloc", "!hd.memdesc<32x32xf32",
                                            "hd.local_store", "hd.barrier", "hd.local_load",
                                            "hd.store", "hd.local_dealloc"}));
    ASSERT_TRUE(mod);
    const int m = 96, n = 64;
    std::vector<float> in = randomF32(m * n), out = poisoned<float>(m * n + kSlack);
    ASSERT_TRUE(run(*mod, {m / 32, n / 32, 1}, {input(in), output(out), i32(m), i32(n)}));
    std::vector<float> want = poisoned<float>(m * n + kSlack);
    for (int i = 0; i < m; ++i)
      for (int j = 0; j < n; ++j)
        want[j * m + i] = in[i * n + j];
    EXPECT_TRUE(close(out, want, 0, 0)) << shared.str();
  }
}

// examples/cpp/matmul.cpp: C = A * B on 32x32 tiles, K walked in steps of 8
// with the accumulator carried through for_range (the FMA dot every target
// runs).
TEST(BuilderKernels, DotInALoop) {
  auto mod = examples::matmul();
  EXPECT_TRUE(containsInOrder(irOf(mod), {"arith.constant dense<0.000000e+00> : tensor<32x32xf32",
                                          "arith.index_cast", "scf.for", "iter_args(",
                                          "hd.convert_layout", "#dot_op", "hd.dot",
                                          "scf.yield", "hd.store"}));
  ASSERT_TRUE(mod);
  const int m = 64, n = 96, k = 48;
  std::vector<float> a = randomF32(m * k), b = randomF32(k * n), c = poisoned<float>(m * n + kSlack);
  ASSERT_TRUE(
      run(*mod, {m / 32, n / 32, 1}, {input(a), input(b), output(c), i32(m), i32(n), i32(k)}));
  std::vector<float> want = poisoned<float>(m * n + kSlack);
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) {
      double s = 0;
      for (int t = 0; t < k; ++t)
        s += double(a[i * k + t]) * b[t * n + j];
      want[i * n + j] = float(s);
    }
  EXPECT_TRUE(close(c, want, 1e-5, 1e-4));
}

// if_ with a result and without, while_, and for_range with a carried tile.
auto controlFlow = jit("control_flow", [](Constexpr<int> BLOCK) {
  const Layout L = Blocked{{1}, {32}, {4}, {0}};
  Tensor x = arg(pointer_type(float32));
  Tensor out = arg(pointer_type(float32));
  Tensor flag = arg(pointer_type(int32));
  Tensor n = arg(int32);
  Tensor pid = program_id(0);
  Tensor scale = if_(
      pid % 2 == 0, [] { return constant(2.0, float32); },
      [] { return constant(-1.0, float32); });
  Values w = while_(
      {pid}, [](Values v) { return v[0] < 7; }, [](Values v) { return Values{v[0] + 3}; });
  Tensor ramp = for_range(0, 4, 1, full({BLOCK}, 0.0, float32, L),
                          [](Tensor i, Tensor acc) { return acc + i.to(float32); });
  if_(pid == 0, [&] { store(flag, 1); });
  Tensor offsets = pid * BLOCK + arange(0, BLOCK, L);
  Tensor mask = offsets < n;
  store(out + offsets, load(x + offsets, mask) * scale + w[0].to(float32) + ramp, mask);
});

TEST(BuilderKernels, ControlFlow) {
  auto mod = controlFlow.specialize({.numWarps = 4}, 128);
  EXPECT_TRUE(containsInOrder(irOf(mod), {"scf.if", "-> (f32)", "scf.yield", "} else {",
                                          "scf.while", "scf.condition", "} do {", "scf.for",
                                          "arith.sitofp", "scf.if", "hd.store", "hd.store"}));
  ASSERT_TRUE(mod);
  const int n = 128 * 9 - 17;
  std::vector<float> x = randomF32(n), out = poisoned<float>(n + kSlack);
  std::vector<int32_t> flag = {0};
  ASSERT_TRUE(run(*mod, {9, 1, 1}, {input(x), output(out), output(flag), i32(n)}));
  std::vector<float> want = poisoned<float>(n + kSlack);
  for (int i = 0; i < n; ++i) {
    int pid = i / 128, w = pid;
    while (w < 7)
      w += 3;
    want[i] = x[i] * (pid % 2 == 0 ? 2.0f : -1.0f) + float(w) + 6.0f;
  }
  EXPECT_TRUE(close(out, want, 1e-6, 1e-6));
  EXPECT_EQ(flag[0], 1);
}

auto argmaxKernel = jit("row_argmax", [](Constexpr<int> ROWS, Constexpr<int> COLS) {
  const Layout L = Blocked{{1, 4}, {2, 16}, {4, 1}, {1, 0}};
  Tensor in = arg(pointer_type(float32));
  Tensor out = arg(pointer_type(int32));
  Tensor row = program_id(0) * ROWS + arange(0, ROWS, Slice{1, L});
  Tensor offsets = expand_dims(row, 1) * COLS + expand_dims(arange(0, COLS, Slice{0, L}), 0);
  store(out + row, argmax(load(in + offsets), 1));
});

TEST(BuilderKernels, Argmax) {
  auto mod = argmaxKernel.specialize({.numWarps = 4}, 8, 64);
  EXPECT_TRUE(containsInOrder(irOf(mod), {"hd.reduce(", "axis = 1", "arith.select",
                                          "arith.select", "hd.yield"}));
  ASSERT_TRUE(mod);
  const int rows = 32, cols = 64;
  std::vector<float> in = randomF32(rows * cols);
  std::vector<int32_t> out = poisoned<int32_t>(rows);
  ASSERT_TRUE(run(*mod, {rows / 8, 1, 1}, {input(in), output(out)}));
  for (int r = 0; r < rows; ++r)
    EXPECT_EQ(out[r], std::max_element(&in[r * cols], &in[r * cols] + cols) - &in[r * cols])
        << "row " << r;
}

auto histogramKernel = jit("histogram", [](Constexpr<int> BLOCK, Constexpr<int> BINS) {
  const Layout L = Blocked{{1}, {32}, {4}, {0}};
  Tensor x = arg(pointer_type(int32));
  Tensor hist = arg(pointer_type(int32));
  Tensor n = arg(int32);
  Tensor offsets = program_id(0) * BLOCK + arange(0, BLOCK, L);
  Tensor mask = offsets < n;
  atomic_add(hist + load(x + offsets, mask, 0) % BINS, 1, mask, {.sem = MemSemantic::relaxed});
});

TEST(BuilderKernels, AtomicHistogram) {
  auto mod = histogramKernel.specialize({.numWarps = 4}, 256, 16);
  EXPECT_TRUE(containsInOrder(irOf(mod), {"arith.remsi", "hd.atomic_rmw add", "mask",
                                          "sem = #hd.sem<relaxed>"}));
  ASSERT_TRUE(mod);
  const int n = 256 * 5 - 3;
  std::vector<int32_t> x = randomI32(n, 0, 999), hist(16, 0), want(16, 0);
  ASSERT_TRUE(run(*mod, {5, 1, 1}, {input(x), output(hist), i32(n)}));
  for (int v : x)
    ++want[v % 16];
  EXPECT_EQ(hist, want);
}

} // namespace
} // namespace hadron::builder::test
