//===- SharedDotTest.cpp - Dots reading shared memory, async dots ---------===//
//
// C = A * B for 64x64 tiles of C, K walked in steps of 64 through a ring of
// two shared stages: step i's dot reads stage i % 2 where it stands and is
// async; dot_wait(pending = 1) retires step i - 1's, whose stage then takes
// step i + 1, and dot_wait(pending = 0) ends the loop (the shape of
// examples/nvidia/matmul_wgmma_bf16.mlir). A comes from the ring too, or
// from registers (attention's P * V). On the host each kernel runs against a
// C++ reference, with an FMA (Blocked) accumulator and with the wgmma one
// that NVIDIA sm_90a runs on its matrix unit; compiled for sm_90a the PTX
// must issue wgmma.mma_async from matrix descriptors and wait for it.
//
//===----------------------------------------------------------------------===//

#include "BuilderTest.h"

namespace hadron::builder::test {
namespace {

constexpr int kBM = 64, kBN = 64, kBK = 64;

// The NVIDIA model's wgmma.m64n64k16.f16 (matrixInstrAttribute with N = 64):
// the accumulator over a warpgroup; B always, and A without an `a`
// fragment, come from shared memory through matrix descriptors.
const char *const kWgmma =
    "#hd.matrix_instr<{name = \"wgmma.m64n64k16.f16\", shape = [64, 64, 16], aType = f16, "
    "bType = f16, accType = f32, acc = {register = [[0, 1], [8, 0], [0, 8], [0, 16], [0, 32]], "
    "lane = [[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]], warp = [[16, 0], [32, 0]]}}>";
const char *const kWgmmaRegisterA =
    "#hd.matrix_instr<{name = \"wgmma.m64n64k16.f16\", shape = [64, 64, 16], aType = f16, "
    "bType = f16, accType = f32, a = {register = [[0, 1], [8, 0], [0, 8]], lane = [[0, 2], [0, "
    "4], [1, 0], [2, 0], [4, 0]], warp = [[16, 0], [32, 0]]}, acc = {register = [[0, 1], [8, "
    "0], [0, 8], [0, 16], [0, 32]], lane = [[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]], warp = "
    "[[16, 0], [32, 0]]}}>";

const Layout kFma = Blocked{{1, 4}, {4, 8}, {4, 1}, {1, 0}};
const Layout kSwizzledRing = Swizzled{8, 1, 8, {2, 1, 0}};
// What wgmma's descriptors read: 128-byte rows of f16, swizzled.
const Layout kMatrixRing = MatrixShared{128, 16, false, 3};
// 16 bytes a thread along the rows.
const Layout kLoad = Blocked{{1, 8}, {4, 8}, {4, 1}, {1, 0}};

/// The offsets of a rows x cols row-major tile whose rows are `ld` apart.
Tensor tileOffsets(const Layout &L, int rows, int cols, const Operand &ld) {
  return broadcast(expand_dims(arange(0, rows, Slice{1, L}), 1) * ld, {rows, cols}) +
         broadcast(expand_dims(arange(0, cols, Slice{0, L}), 0), {rows, cols});
}

// A: M x K, B: K x N (row-major, f16), C: M x N (f32); K = 64 * steps, N =
// 64, program p computes rows 64 p to 64 p + 63.
auto ringDot = jit("ring_dot", [](Constexpr<Layout> acc, Constexpr<Layout> ring,
                                  Constexpr<bool> aInRegisters) {
  Tensor a = arg(pointer_type(float16), {.divisibility = 16});
  Tensor b = arg(pointer_type(float16), {.divisibility = 16});
  Tensor c = arg(pointer_type(float32), {.divisibility = 16});
  Tensor steps = arg(int32);
  Tensor aRows = a + program_id(0) * kBM * (steps * kBK);
  Tensor aOffsets = tileOffsets(kLoad, kBM, kBK, steps * kBK);
  Tensor bOffsets = tileOffsets(kLoad, kBK, kBN, kBN);
  SharedMemory aRing = allocate_shared_memory(float16, {2, kBM, kBK}, ring);
  SharedMemory bRing = allocate_shared_memory(float16, {2, kBK, kBN}, ring);
  // Step i of K into a stage (A only where the dot reads it from there).
  auto fill = [&](const Tensor &i, const Tensor &stage) {
    if (!aInRegisters)
      aRing.index(stage).store(load(aRows + (aOffsets + i * kBK)));
    bRing.index(stage).store(load(b + (bOffsets + i * (kBK * kBN))));
  };
  fill(constant(0, int32), constant(0, int32));
  Tensor zero = full({kBM, kBN}, 0.0, float32, acc);
  Tensor sum = for_range(0, steps, 1, zero, [&](Tensor i, Tensor sum) {
    Tensor s = i % 2;
    DotInput aStep = aInRegisters ? DotInput(convert_layout(load(aRows + (aOffsets + i * kBK)),
                                                            DotOperand{0, acc}))
                                  : DotInput(aRing.index(s));
    Tensor issued = dot(aStep, bRing.index(s), sum, {.async = true});
    // Step i - 1's dot has retired: its stage takes step i + 1.
    Tensor next = dot_wait(issued, 1);
    if_(i + 1 < steps, [&] { fill(i + 1, (i + 1) % 2); });
    return next;
  });
  Tensor done = dot_wait(sum, 0);
  store(c + (program_id(0) * kBM * kBN + tileOffsets(acc, kBM, kBN, kBN)), done);
});

/// f16 bits of a small integer (exact).
uint16_t halfOf(int v) {
  if (v == 0)
    return 0;
  uint16_t sign = v < 0 ? 0x8000 : 0;
  unsigned m = unsigned(std::abs(v)), e = 0;
  while ((m >> e) > 1)
    ++e;
  return uint16_t(sign | ((e + 15) << 10) | ((m << (10 - e)) & 0x3ff));
}

/// Runs `m` on 2 programs with 3 steps of K on small integers (f16 products
/// and f32 sums are exact) and compares with the C++ product.
void expectProduct(const Module &m) {
  const int programs = 2, steps = 3, rows = programs * kBM, k = steps * kBK;
  std::vector<int> av(size_t(rows) * k), bv(size_t(k) * kBN);
  std::vector<uint16_t> a(av.size()), b(bv.size());
  for (size_t i = 0; i < a.size(); ++i)
    a[i] = halfOf(av[i] = int(rng()() % 7) - 3);
  for (size_t i = 0; i < b.size(); ++i)
    b[i] = halfOf(bv[i] = int(rng()() % 7) - 3);
  std::vector<float> c = poisoned<float>(size_t(rows) * kBN);
  ASSERT_TRUE(run(m, {programs, 1, 1},
                  {input(a), input(b), output(c), runtime::arg::i32(steps)}));
  for (int i = 0; i < rows; ++i)
    for (int j = 0; j < kBN; ++j) {
      int s = 0;
      for (int t = 0; t < k; ++t)
        s += av[size_t(i) * k + t] * bv[size_t(t) * kBN + j];
      ASSERT_EQ(c[size_t(i) * kBN + j], float(s)) << "(" << i << ", " << j << ")";
    }
}

Result<Module> ringDotFor(const Layout &acc, const Layout &ring, bool aInRegisters) {
  return ringDot.specialize({.numWarps = 4}, Constexpr<Layout>("acc", acc),
                            Constexpr<Layout>("ring", ring),
                            Constexpr<bool>("aInRegisters", aInRegisters));
}

TEST(SharedDot, OperandsFromSharedMemoryMatchTheHostReference) {
  auto m = ringDotFor(kFma, kSwizzledRing, false);
  EXPECT_TRUE(containsInOrder(
      irOf(m), {"scf.for", "hd.memdesc_index", "hd.memdesc_index",
                "hd.dot %", "{async} : !hd.memdesc<64x64xf16, #swizzled, alloc = 2x64x64> * "
                            "!hd.memdesc<64x64xf16, #swizzled, alloc = 2x64x64> -> "
                            "tensor<64x64xf32, #blocked",
                "hd.dot_wait %", " pending = 1 : tensor<64x64xf32, #blocked", "scf.if",
                "hd.local_store", "scf.yield", "hd.dot_wait %", " pending = 0"}));
  ASSERT_TRUE(m);
  expectProduct(*m);
}

TEST(SharedDot, AFromRegistersBFromSharedMemory) {
  auto m = ringDotFor(kFma, kSwizzledRing, true);
  EXPECT_TRUE(containsInOrder(irOf(m), {"hd.dot %", "{async} : tensor<64x64xf16, #dot_op> * "
                                                    "!hd.memdesc<64x64xf16, #swizzled",
                                        "hd.dot_wait"}));
  ASSERT_TRUE(m);
  expectProduct(*m);
}

// The wgmma accumulator and matrix-unit shared layouts: what sm_90a issues
// on its matrix unit, run on the host as FMA loops.
TEST(SharedDot, TheWgmmaFormRunsOnTheHost) {
  for (bool aInRegisters : {false, true}) {
    SCOPED_TRACE(aInRegisters ? "A from registers" : "A from shared memory");
    auto m = ringDotFor(Mma{aInRegisters ? kWgmmaRegisterA : kWgmma, {4, 1}}, kMatrixRing,
                        aInRegisters);
    EXPECT_TRUE(containsInOrder(irOf(m), {"#hd.matrix_instr<{name = \"wgmma.m64n64k16.f16\"",
                                          "#hd.matrix_shared<{", "hd.dot", "{async}",
                                          "-> tensor<64x64xf32, #mma>", "hd.dot_wait"}));
    ASSERT_TRUE(m);
    expectProduct(*m);
  }
}

TEST(SharedDot, NvidiaIssuesWgmmaFromMatrixDescriptors) {
  if (!hasPlugin("nvidia"))
    GTEST_SKIP() << "the NVIDIA plugin is not built";
  for (bool aInRegisters : {false, true}) {
    SCOPED_TRACE(aInRegisters ? "A from registers" : "A from shared memory");
    auto m = ringDotFor(Mma{aInRegisters ? kWgmmaRegisterA : kWgmma, {4, 1}}, kMatrixRing,
                        aInRegisters);
    ASSERT_TRUE(m) << m.error();
    std::string ptx = ptxOf(*m);
    // Four k16 steps per stage of 64; A as 4 registers or a descriptor (%rd).
    std::string wgmma = "wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {";
    size_t at = ptx.find(wgmma);
    ASSERT_NE(at, std::string::npos) << ptx;
    std::string operands = ptx.substr(at, ptx.find(';', at) - at);
    EXPECT_EQ(operands.find("}, {%r") != std::string::npos, aInRegisters) << operands;
    EXPECT_TRUE(containsInOrder(ptx, {"fence.proxy.async.shared::cta", "wgmma.fence.sync.aligned",
                                      wgmma, wgmma, wgmma, wgmma,
                                      "wgmma.commit_group.sync.aligned",
                                      "wgmma.wait_group.sync.aligned 1",
                                      "wgmma.wait_group.sync.aligned 0"}));
    // Async: the group is left running (a synchronous dot waits for 0 at once).
    size_t commit = ptx.find("wgmma.commit_group.sync.aligned");
    size_t wait = ptx.find("wgmma.wait_group.sync.aligned", commit);
    ASSERT_NE(wait, std::string::npos) << ptx;
    EXPECT_EQ(ptx.substr(wait, ptx.find(';', wait) - wait), "wgmma.wait_group.sync.aligned 1");
    EXPECT_TRUE(assembles(ptx));
  }
}

// A staging tile over a ring (Gluon's _reinterpret): written as one 64x64
// f32 tile over stages 0 and 1 (after a write of stage 1 through the ring,
// which the planner must order before it) and read back.
auto stagedThroughRing = jit("staged_through_ring", [] {
  Tensor in = arg(pointer_type(float32), {.divisibility = 16});
  Tensor out = arg(pointer_type(float32), {.divisibility = 16});
  SharedMemory ring = allocate_shared_memory(float16, {4, kBM, kBK}, kSwizzledRing);
  ring.index(1).store(full({kBM, kBK}, 1.0, float16, kLoad));
  SharedMemory staging = ring.reinterpret(float32, {kBM, kBN}, Swizzled{4, 1, 8, {1, 0}});
  Tensor offsets = tileOffsets(kFma, kBM, kBN, kBN);
  staging.store(load(in + offsets));
  store(out + offsets, staging.load(kFma) * 2.0);
});

TEST(SharedDot, ReinterpretViewsTheAllocationAsAnotherTile) {
  auto m = stagedThroughRing.specialize({.numWarps = 4});
  EXPECT_TRUE(containsInOrder(irOf(m), {"hd.memdesc_reinterpret %", " : !hd.memdesc<4x64x64xf16, "
                                                                    "#swizzled> -> "
                                                                    "!hd.memdesc<64x64xf32, "
                                                                    "#swizzled1>"}));
  ASSERT_TRUE(m);
  std::vector<float> in = randomF32(kBM * kBN), out = poisoned<float>(kBM * kBN);
  ASSERT_TRUE(run(*m, {1, 1, 1}, {input(in), output(out)}));
  for (int i = 0; i < kBM * kBN; ++i)
    ASSERT_EQ(out[i], in[i] * 2.0f) << "element " << i;
}

} // namespace
} // namespace hadron::builder::test
