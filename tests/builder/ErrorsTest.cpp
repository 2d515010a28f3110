//===- ErrorsTest.cpp - Trace-time errors name the user's line ------------===//
//
// Each kernel makes one mistake on a line it records (`line = __LINE__;` on
// the same line as the mistake); the error must start with that file and
// line and say what is wrong in the user's terms, with no IR dump.
//
//===----------------------------------------------------------------------===//

#include "BuilderTest.h"

namespace hadron::builder::test {
namespace {

const Layout L1 = Blocked{{4}, {32}, {4}, {0}};
const Layout L2 = Blocked{{1, 4}, {4, 8}, {4, 1}, {1, 0}};

int line = 0;

/// The error of `kernel` specialised with `cs`, checked to start at `line`
/// of this file and to hold `what`.
template <typename K, typename... Cs>
void expectError(const K &kernel, const std::string &what, const Cs &...cs) {
  line = 0;
  auto m = kernel.specialize({.numWarps = 4}, cs...);
  std::string error = errorOf(m);
  ASSERT_NE(line, 0) << "the kernel did not reach the mistake";
  EXPECT_EQ(error.rfind(at(__FILE__, line), 0), 0u)
      << "the error does not start at " << at(__FILE__, line) << ": " << error;
  EXPECT_NE(error.find(what), std::string::npos) << "expected `" << what << "` in: " << error;
  EXPECT_EQ(error.find("func.func"), std::string::npos) << "an IR dump: " << error;
  EXPECT_EQ(error.find('\n'), std::string::npos) << "one line expected: " << error;
}

TEST(BuilderErrors, ShapesDiffer) {
  auto k = jit("k", [] {
    Tensor a = arange(0, 128, L1);
    Tensor b = arange(0, 256, L1);
    line = __LINE__; (void)(a + b);
  });
  expectError(k, "+: shapes [128] and [256] differ");
}

TEST(BuilderErrors, LayoutsDiffer) {
  auto k = jit("k", [] {
    Tensor a = arange(0, 128, L1);
    Tensor b = arange(0, 128, Blocked{{1}, {32}, {4}, {0}});
    line = __LINE__; (void)(a * b);
  });
  expectError(k, "*: the operands' layouts differ");
}

TEST(BuilderErrors, MismatchedElementTypes) {
  auto k = jit("k", [] {
    Tensor a = arange(0, 128, L1);
    Tensor b = a.to(float32);
    line = __LINE__; (void)(a < b);
  });
  expectError(k, "<: mismatched element types i32 and f32; convert one with .to(...)");
}

TEST(BuilderErrors, FloatNumberForIntegers) {
  auto k = jit("k", [] {
    Tensor a = arange(0, 128, L1);
    line = __LINE__; (void)(a - 0.5);
  });
  expectError(k, "-: the number 0.500000 is not an integer, and the other operand is i32");
}

TEST(BuilderErrors, LoadFromIntegers) {
  auto k = jit("k", [] {
    Tensor offsets = arange(0, 128, L1);
    line = __LINE__; load(offsets);
  });
  expectError(k, "load: the pointer operand is tensor<128xi32");
}

TEST(BuilderErrors, MaskOfAnotherShape) {
  auto k = jit("k", [](Constexpr<int> BLOCK) {
    Tensor p = arg(pointer_type(float32));
    Tensor offsets = arange(0, BLOCK, L1);
    Tensor mask = arange(0, 2 * BLOCK, L1) < 7;
    line = __LINE__; load(p + offsets, mask);
  });
  expectError(k, "load: the mask tensor<256xi1", 128);
}

TEST(BuilderErrors, StoreOfAnotherElementType) {
  auto k = jit("k", [] {
    Tensor p = arg(pointer_type(float16));
    Tensor offsets = arange(0, 128, L1);
    line = __LINE__; store(p + offsets, offsets.to(float32));
  });
  expectError(k, "store: the value is tensor<128xf32");
}

TEST(BuilderErrors, ExpandDimsNeedsASlice) {
  auto k = jit("k", [] {
    Tensor a = arange(0, 128, L1);
    line = __LINE__; expand_dims(a, 0);
  });
  expectError(k, "expand_dims: along axis 0 the operand's layout must be Slice{0, parent}");
}

TEST(BuilderErrors, DotOperandsNeedDotLayouts) {
  auto k = jit("k", [] {
    Tensor a = full({32, 8}, 1.0, float32, L2);
    Tensor b = full({8, 32}, 1.0, float32, L2);
    Tensor c = full({32, 32}, 0.0, float32, L2);
    line = __LINE__; dot(a, b, c);
  });
  expectError(k, "dot: a must have layout DotOperand{0, <acc's layout>}");
}

TEST(BuilderErrors, DotShapesDoNotChain) {
  auto k = jit("k", [] {
    Tensor a = full({32, 8}, 1.0, float32, DotOperand{0, L2});
    Tensor b = full({16, 32}, 1.0, float32, DotOperand{1, L2});
    Tensor c = full({32, 32}, 0.0, float32, L2);
    line = __LINE__; dot(a, b, c);
  });
  expectError(k, "dot: shapes do not chain: a [32, 8] * b [16, 32]");
}

// Dots on shared memory and async dots.
const Layout kRing = Swizzled{8, 1, 8, {2, 1, 0}};
const Layout kStage = Swizzled{8, 1, 8, {1, 0}};

TEST(BuilderErrors, DotReadsRank2SharedTiles) {
  auto k = jit("k", [] {
    SharedMemory ring = allocate_shared_memory(float16, {2, 32, 32}, kRing);
    SharedMemory b = allocate_shared_memory(float16, {32, 32}, kStage);
    Tensor c = full({32, 32}, 0.0, float32, L2);
    line = __LINE__; dot(ring, b, c);
  });
  expectError(k, "dot: a is a shared-memory tile of shape [2, 32, 32]; dot reads rank-2 tiles "
                 "from shared memory (take one with .index(i))");
}

TEST(BuilderErrors, DotSharedOperandsOfDifferentTypes) {
  auto k = jit("k", [] {
    SharedMemory a = allocate_shared_memory(float16, {32, 16}, kStage);
    SharedMemory b = allocate_shared_memory(float32, {16, 32}, kStage);
    Tensor c = full({32, 32}, 0.0, float32, L2);
    line = __LINE__; dot(a, b, c);
  });
  expectError(k, "dot: a (shared memory) holds f16 but b (shared memory) holds f32; the operands "
                 "must have one element type");
}

TEST(BuilderErrors, DotRegisterAndSharedOperandsOfDifferentTypes) {
  auto k = jit("k", [] {
    Tensor a = full({32, 16}, 1.0, float32, DotOperand{0, L2});
    SharedMemory b = allocate_shared_memory(float16, {16, 32}, kStage);
    Tensor c = full({32, 32}, 0.0, float32, L2);
    line = __LINE__; dot(a, b, c);
  });
  expectError(k, "dot: a holds f32 but b (shared memory) holds f16");
}

TEST(BuilderErrors, DotSharedShapesDoNotChain) {
  auto k = jit("k", [] {
    SharedMemory a = allocate_shared_memory(float16, {32, 16}, kStage);
    SharedMemory b = allocate_shared_memory(float16, {32, 32}, kStage);
    Tensor c = full({32, 32}, 0.0, float32, L2);
    line = __LINE__; dot(a, b, c, {.async = true});
  });
  expectError(k, "dot: shapes do not chain: a (shared memory) [32, 16] * b (shared memory) "
                 "[32, 32] + acc [32, 32]");
}

TEST(BuilderErrors, DotOnAnEmptySharedMemory) {
  auto k = jit("k", [] {
    Tensor a = full({32, 16}, 1.0, float16, DotOperand{0, L2});
    SharedMemory never;
    Tensor c = full({32, 32}, 0.0, float32, L2);
    line = __LINE__; dot(a, never, c);
  });
  expectError(k, "dot: b is an empty SharedMemory (never allocated)");
}

TEST(BuilderErrors, DotIntoAScalar) {
  auto k = jit("k", [] {
    SharedMemory a = allocate_shared_memory(float16, {32, 16}, kStage);
    SharedMemory b = allocate_shared_memory(float16, {16, 32}, kStage);
    line = __LINE__; dot(a, b, constant(0.0, float32));
  });
  expectError(k, "dot: acc is the scalar f32; it must be a tile");
}

// wgmma reads B from shared memory: a register tile for it has no layout,
// and the error says where B must be instead.
TEST(BuilderErrors, DotMatrixInstructionNeedsSharedB) {
  auto k = jit("k", [] {
    const Layout mma = Mma{"#hd.matrix_instr<{name = \"wgmma.m64n64k16.f16\", shape = [64, 64, "
                           "16], aType = f16, bType = f16, accType = f32, acc = {register = [[0, "
                           "1], [8, 0], [0, 8], [0, 16], [0, 32]], lane = [[0, 2], [0, 4], [1, "
                           "0], [2, 0], [4, 0]], warp = [[16, 0], [32, 0]]}}>",
                           {4, 1}};
    line = __LINE__; full({16, 64}, 1.0, float16, DotOperand{1, mma});
  });
  expectError(k, "\"wgmma.m64n64k16.f16\" reads operand B from shared memory: it has no "
                 "register layout; pass the dot a !hd.memdesc");
}

TEST(BuilderErrors, DotWaitPendingBelowZero) {
  auto k = jit("k", [] {
    SharedMemory a = allocate_shared_memory(float16, {32, 16}, kStage);
    SharedMemory b = allocate_shared_memory(float16, {16, 32}, kStage);
    Tensor d = dot(a, b, full({32, 32}, 0.0, float32, L2), {.async = true});
    line = __LINE__; dot_wait(d, -1);
  });
  expectError(k, "dot_wait: pending = -1 must be >= 0");
}

TEST(BuilderErrors, DotWaitOnAScalar) {
  auto k = jit("k", [] {
    line = __LINE__; dot_wait(constant(1.0, float32), 0);
  });
  expectError(k, "dot_wait: needs a tile, got the scalar f32");
}

TEST(BuilderErrors, ReinterpretAView) {
  auto k = jit("k", [] {
    SharedMemory ring = allocate_shared_memory(float16, {2, 32, 32}, kRing);
    line = __LINE__; ring.index(0).reinterpret(float32, {16, 16}, kStage);
  });
  expectError(k, "SharedMemory::reinterpret: 'hd.memdesc_reinterpret' op reinterprets a whole "
                 "allocation; '!hd.memdesc<32x32xf16");
}

TEST(BuilderErrors, ReinterpretAsALargerTile) {
  auto k = jit("k", [] {
    SharedMemory ring = allocate_shared_memory(float16, {2, 32, 32}, kRing);
    line = __LINE__; ring.reinterpret(float32, {64, 32}, kStage);
  });
  expectError(k, "needs 8192 bytes, more than the 4096 of '!hd.memdesc<2x32x32xf16");
}

TEST(BuilderErrors, ReinterpretWithADistributedLayout) {
  auto k = jit("k", [] {
    SharedMemory ring = allocate_shared_memory(float16, {2, 32, 32}, kRing);
    line = __LINE__; ring.reinterpret(float16, {32, 64}, L2);
  });
  expectError(k, "SharedMemory::reinterpret: needs a shared layout (Swizzled, Padded, "
                 "SharedLinear, MatrixShared), got #hd.blocked");
}

TEST(BuilderErrors, LayoutOfOtherWarps) {
  auto k = jit("k", [] {
    line = __LINE__; arange(0, 128, Blocked{{1}, {32}, {8}, {0}});
  });
  expectError(k, "spans 8 warps, but the kernel runs num_warps = 4");
}

TEST(BuilderErrors, LayoutTheDialectRejects) {
  auto k = jit("k", [] {
    line = __LINE__; arange(0, 128, Blocked{{1}, {24}, {4}, {0}});
  });
  expectError(k, "arange: invalid layout");
}

TEST(BuilderErrors, ArangeOfNonPowerOfTwo) {
  auto k = jit("k", [] {
    line = __LINE__; arange(0, 100, L1);
  });
  expectError(k, "arange: end - start = 100 is not a power of two");
}

TEST(BuilderErrors, SharedMemoryNeedsASharedLayout) {
  auto k = jit("k", [] {
    line = __LINE__; allocate_shared_memory(float32, {32, 32}, L2);
  });
  expectError(k, "allocate_shared_memory: needs a shared layout");
}

TEST(BuilderErrors, SharedStoreOfAnotherShape) {
  auto k = jit("k", [] {
    SharedMemory s = allocate_shared_memory(float32, {32, 32}, Swizzled{1, 1, 1, {1, 0}});
    line = __LINE__; s.store(full({32, 64}, 0.0, float32, L2));
  });
  expectError(k, "SharedMemory::store: the value's shape [32, 64] differs from the shared tile's [32, 32]");
}

TEST(BuilderErrors, ReduceAxisOutOfRange) {
  auto k = jit("k", [] {
    Tensor a = full({32, 32}, 0.0, float32, L2);
    line = __LINE__; sum(a, 2);
  });
  expectError(k, "reduce: axis 2 is out of range for a tile of rank 2");
}

TEST(BuilderErrors, LoopBodyChangesTheType) {
  auto k = jit("k", [] {
    Tensor init = full({128}, 0, int32, L1);
    line = __LINE__; for_range(0, 4, 1, init, [](Tensor i, Tensor acc) { return acc.to(float32); });
  });
  expectError(k, "for_range: the body returns tensor<128xf32");
}

TEST(BuilderErrors, BranchesOfDifferentTypes) {
  auto k = jit("k", [] {
    Tensor c = program_id(0) == 0;
    line = __LINE__; if_(c, [] { return constant(1, int32); }, [] { return constant(1.0, float32); });
  });
  expectError(k, "if_: the else branch returns f32 for value 0, which is i32");
}

TEST(BuilderErrors, ConditionNotABoolean) {
  auto k = jit("k", [] {
    line = __LINE__; if_(program_id(0), [] {});
  });
  expectError(k, "if_: the condition is i32; it must be an i1 scalar");
}

TEST(BuilderErrors, EmptyTensor) {
  auto k = jit("k", [] {
    Tensor never;
    line = __LINE__; (void)(never + 1);
  });
  expectError(k, "+: the operand is an empty Tensor");
}

} // namespace
} // namespace hadron::builder::test
