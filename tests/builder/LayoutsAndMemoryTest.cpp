//===- LayoutsAndMemoryTest.cpp - Layout values, views, async copies, mma --===//
//
// The layout structs print the attributes docs/ir.md shows; Linear and Mma
// layouts, shared-memory views and async copies build, verify and run on
// the host.
//
//===----------------------------------------------------------------------===//

#include "BuilderTest.h"

namespace hadron::builder::test {
namespace {

using runtime::arg::i32;

const Layout kRows = Blocked{{1, 4}, {4, 8}, {4, 1}, {1, 0}};
const Layout kCols = Blocked{{4, 1}, {8, 4}, {1, 4}, {0, 1}};

TEST(BuilderLayouts, PrintAsTheirAttributes) {
  const Layout b = Blocked{{1, 2}, {2, 4}, {2, 1}, {1, 0}};
  EXPECT_EQ(b.str(), "#hd.blocked<{sizePerThread = [1, 2], threadsPerWarp = [2, 4], warpsPerCTA "
                     "= [2, 1], order = [1, 0]}>");
  EXPECT_EQ(Layout(Slice{1, b}).str(), "#hd.slice<{dim = 1, parent = " + b.str() + "}>");
  EXPECT_EQ(Layout(Linear{{{0, 1}}, {{0, 2}, {1, 0}}, {}, {}}).str(),
            "#hd.linear<{register = [[0, 1]], lane = [[0, 2], [1, 0]], warp = [], block = []}>");
  EXPECT_EQ(Layout(DotOperand{0, b}).str(),
            "#hd.dot_op<{opIdx = 0, parent = " + b.str() + ", kWidth = 1}>");
  EXPECT_EQ(Layout(Swizzled{8, 1, 8, {1, 0}}).str(),
            "#hd.swizzled<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>");
  EXPECT_EQ(Layout(Padded{{8}, {1}, {1, 0}}).str(),
            "#hd.padded<{intervals = [8], paddings = [1], order = [1, 0]}>");
  EXPECT_EQ(Layout(SharedLinear{{{0, 1}, {1, 0}, {2, 1}}}).str(),
            "#hd.shared_linear<{offset = [[0, 1], [1, 0], [2, 1]]}>");
  EXPECT_TRUE(Layout(Swizzled{1, 1, 1, {0}}).isShared());
  EXPECT_TRUE(Layout(AutoLayout{}).isDistributed());
  EXPECT_EQ(Layout::fromText(b.str()), b);
  EXPECT_NE(b.mangle(), kRows.mangle());
  EXPECT_EQ(pointer_type(float16, AddressSpace::shared).str(), "!hd.ptr<f16, shared>");
  EXPECT_EQ(pointer_type(pointer_type(int8)).pointee(), pointer_type(int8));
}

// A tile in a permuted #hd.linear layout: each element lands where the
// bases say, and a store through it writes every element once.
auto linearCopy = jit("linear_copy", [](Constexpr<Layout> L) {
  Tensor in = arg(pointer_type(int32));
  Tensor out = arg(pointer_type(int32));
  Tensor offsets = arange(0, 256, L);
  store(out + offsets, load(in + offsets) * 3);
});

TEST(BuilderLayouts, LinearLayoutRuns) {
  // 256 elements: 2 register bits, 5 lane bits, 1 warp bit (2 warps), the
  // element bits handed out scrambled.
  const Layout L = Linear{{{64}, {1}}, {{2}, {128}, {8}, {4}, {16}}, {{32}}, {}};
  auto m = linearCopy.specialize({.numWarps = 2}, L);
  EXPECT_TRUE(containsInOrder(irOf(m), {"#linear = #hd.linear<{register = [[64], [1]]",
                                        "tensor<256xi32, #linear>"}));
  ASSERT_TRUE(m);
  std::vector<int32_t> in = randomI32(256, -1000, 1000), out = poisoned<int32_t>(256);
  ASSERT_TRUE(run(*m, {1, 1, 1}, {input(in), output(out)}));
  for (int i = 0; i < 256; ++i)
    EXPECT_EQ(out[i], in[i] * 3) << "element " << i;
}

// The m16n8k8 f16 instruction of docs/ir.md: a dot on #hd.mma layouts (the
// host computes it with FMAs).
const char *const kInstr =
    "#hd.matrix_instr<{name = \"mma.m16n8k8.f16\", shape = [16, 8, 8], aType = f16, bType = f16, "
    "accType = f32, a = {register = [[0, 1], [8, 0]], lane = [[0, 2], [0, 4], [1, 0], [2, 0], "
    "[4, 0]]}, b = {register = [[1, 0]], lane = [[2, 0], [4, 0], [0, 1], [0, 2], [0, 4]]}, acc "
    "= {register = [[0, 1], [8, 0]], lane = [[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]]}}>";

auto mmaDot = jit("mma_dot", [](Constexpr<Layout> mma) {
  const Layout load2d = Blocked{{1, 1}, {4, 8}, {4, 1}, {1, 0}};
  Tensor a = arg(pointer_type(float16));
  Tensor b = arg(pointer_type(float16));
  Tensor c = arg(pointer_type(float32));
  auto tile = [](const Layout &L, int rows, int cols) {
    return expand_dims(arange(0, rows, Slice{1, L}), 1) * cols +
           expand_dims(arange(0, cols, Slice{0, L}), 0);
  };
  Tensor aTile = convert_layout(load(a + tile(load2d, 64, 16)), DotOperand{0, mma});
  Tensor bTile = convert_layout(load(b + tile(load2d, 16, 32)), DotOperand{1, mma});
  Tensor acc = full({64, 32}, 0.0, float32, mma);
  store(c + tile(mma, 64, 32), dot(aTile, bTile, acc));
});

TEST(BuilderLayouts, MmaDot) {
  auto m = mmaDot.specialize({.numWarps = 4}, Layout(Mma{kInstr, {2, 2}}));
  EXPECT_TRUE(containsInOrder(irOf(m), {"#hd.matrix_instr<{name = \"mma.m16n8k8.f16\"",
                                        "#hd.mma<{instr = ", "hd.dot", "-> tensor<64x32xf32, #mma>"}));
  ASSERT_TRUE(m);
  // Small integers: f16 products and f32 sums are exact.
  std::vector<uint16_t> a(64 * 16), b(16 * 32);
  std::vector<int> av(a.size()), bv(b.size());
  auto half = [](int v) { // exact f16 bits of a small integer
    if (v == 0)
      return uint16_t(0);
    uint16_t sign = v < 0 ? 0x8000 : 0;
    unsigned m = unsigned(std::abs(v)), e = 0;
    while ((m >> e) > 1)
      ++e;
    return uint16_t(sign | ((e + 15) << 10) | ((m << (10 - e)) & 0x3ff));
  };
  for (size_t i = 0; i < a.size(); ++i)
    a[i] = half(av[i] = int(rng()() % 7) - 3);
  for (size_t i = 0; i < b.size(); ++i)
    b[i] = half(bv[i] = int(rng()() % 7) - 3);
  std::vector<float> c = poisoned<float>(64 * 32);
  ASSERT_TRUE(run(*m, {1, 1, 1}, {input(a), input(b), output(c)}));
  for (int i = 0; i < 64; ++i)
    for (int j = 0; j < 32; ++j) {
      int s = 0;
      for (int k = 0; k < 16; ++k)
        s += av[i * 16 + k] * bv[k * 32 + j];
      EXPECT_EQ(c[i * 32 + j], float(s)) << "(" << i << ", " << j << ")";
    }
}

// Two async copies into shared memory (masked, `other` past n) in two
// groups, waited for one at a time.
auto asyncCopy = jit("async_copy", [](Constexpr<Layout> shared) {
  Tensor in0 = arg(pointer_type(float32));
  Tensor out = arg(pointer_type(float32));
  Tensor in1 = arg(pointer_type(float32));
  Tensor n = arg(int32);
  auto offsets = [](const Layout &L) {
    return program_id(0) * 1024 + expand_dims(arange(0, 32, Slice{1, L}), 1) * 32 +
           expand_dims(arange(0, 32, Slice{0, L}), 0);
  };
  Tensor offs = offsets(kRows);
  SharedMemory m0 = allocate_shared_memory(float32, {32, 32}, shared);
  SharedMemory m1 = allocate_shared_memory(float32, {32, 32}, shared);
  Tensor g0 = async_commit_group({async_copy(in0 + offs, m0, offs < n, -5.0)});
  Tensor g1 = async_commit_group({async_copy(in1 + offs, m1, offs < n, -5.0)});
  async_wait_group(1, {g0});
  Tensor x0 = m0.load(kCols);
  async_wait_group(0, {g1});
  Tensor x1 = m1.load(kCols);
  store(out + offsets(kCols), x0 - (x1 + x1));
});

TEST(BuilderMemory, AsyncCopyInTwoGroups) {
  auto m = asyncCopy.specialize({.numWarps = 4}, Layout(Swizzled{4, 1, 8, {1, 0}}));
  EXPECT_TRUE(containsInOrder(irOf(m), {"hd.local_alloc", "hd.local_alloc", "hd.async_copy",
                                        "mask", "other", "hd.async_commit_group",
                                        "hd.async_copy", "hd.async_commit_group",
                                        "hd.async_wait", "pending = 1", "hd.local_load",
                                        "hd.async_wait", "pending = 0", "hd.local_load"}));
  ASSERT_TRUE(m);
  const int programs = 3, total = programs * 1024, n = total - 1 - int(rng()() % 1000);
  std::vector<float> h0 = randomF32(total, -100, 100), h1 = randomF32(total, -100, 100);
  std::vector<float> out = poisoned<float>(total), want(total);
  ASSERT_TRUE(run(*m, {programs, 1, 1}, {input(h0), output(out), input(h1), i32(n)}));
  for (int i = 0; i < total; ++i)
    want[i] = i < n ? h0[i] - (h1[i] + h1[i]) : -5.0f - (-5.0f + -5.0f);
  EXPECT_TRUE(close(out, want, 0, 0));
}

// Views of a 2 x 32 x 32 allocation: x into buffer 0 and y into buffer 1
// through index(), the two 16-row halves of buffer 1 read through slice(),
// buffer 0 read transposed through permute().
auto sharedViews = jit("shared_views", [] {
  const Layout half = Blocked{{1, 4}, {4, 8}, {4, 1}, {1, 0}};
  Tensor x = arg(pointer_type(float32));
  Tensor y = arg(pointer_type(float32));
  Tensor out = arg(pointer_type(float32));
  auto offsets = [](const Layout &L, int rows) {
    return expand_dims(arange(0, rows, Slice{1, L}), 1) * 32 +
           expand_dims(arange(0, 32, Slice{0, L}), 0);
  };
  SharedMemory buffers =
      allocate_shared_memory(float32, {2, 32, 32}, Swizzled{1, 1, 1, {2, 1, 0}});
  buffers.index(0).store(load(x + offsets(kRows, 32)));
  buffers.index(1).store(load(y + offsets(kRows, 32)));
  barrier();
  Tensor top = buffers.index(1).slice({0, 0}, {16, 32}).load(half);
  Tensor bottom = buffers.index(1).slice({16, 0}, {16, 32}).load(half);
  // out rows 0-15: y's rows 16-31, rows 16-31: y's rows 0-15, rows 32-63: x transposed
  store(out + offsets(half, 16), bottom);
  store(out + (offsets(half, 16) + 16 * 32), top);
  store(out + (offsets(kRows, 32) + 32 * 32), buffers.index(0).permute({1, 0}).load(kRows));
});

TEST(BuilderMemory, SharedViews) {
  auto m = sharedViews.specialize({.numWarps = 4});
  EXPECT_TRUE(containsInOrder(irOf(m), {"!hd.memdesc<2x32x32xf32", "hd.memdesc_index",
                                        "alloc = 2x32x32", "hd.local_store", "hd.barrier",
                                        "hd.memdesc_slice", "[0, 0]", "hd.memdesc_slice",
                                        "[16, 0]", "hd.memdesc_permute"}));
  ASSERT_TRUE(m);
  std::vector<float> x = randomF32(1024), y = randomF32(1024), out = poisoned<float>(2048);
  ASSERT_TRUE(run(*m, {1, 1, 1}, {input(x), input(y), output(out)}));
  std::vector<float> want(2048);
  for (int r = 0; r < 32; ++r)
    for (int c = 0; c < 32; ++c) {
      want[((r + 16) % 32) * 32 + c] = y[r * 32 + c];
      want[(32 + r) * 32 + c] = x[c * 32 + r];
    }
  EXPECT_TRUE(close(out, want, 0, 0));
}

} // namespace
} // namespace hadron::builder::test
