//===- AddedOpsTest.cpp - Unsigned integer ops, conversions and atomics,
//                        maxnum/minnum, floor/ceil/tanh, unordered,
//                        join/split, rounding divisions, popcount,
//                        trunc/round/erf/pow/atan2/copysign ----------------===//
//
// The ops the conformance suite and tests/e2e needed when they moved off IR
// text. Each
// kernel computes several of them on loaded tiles and stores each result to
// its own output; the printed IR must hold the op, and the host run must
// match a C++ reference on random inputs (NaNs mixed in for the float ones).
//
//===----------------------------------------------------------------------===//

#include "BuilderTest.h"

#include <cmath>

namespace hadron::builder::test {
namespace {

using runtime::arg::i32;

constexpr int kBlock = 256;
const Layout k1D = Blocked{{2}, {32}, {4}, {0}};

/// in0, in1, then `outputs` outputs, then n: one program of kBlock.
struct Frame {
  Tensor a, b, n, offsets, mask;
  std::vector<Tensor> outs;
};
Frame frame(const DType &in, const DType &out, int outputs) {
  Frame f;
  Tensor pa = arg(pointer_type(in)), pb = arg(pointer_type(in));
  for (int i = 0; i < outputs; ++i)
    f.outs.push_back(arg(pointer_type(out)));
  f.n = arg(int32);
  f.offsets = arange(0, kBlock, k1D);
  f.mask = f.offsets < f.n;
  f.a = load(pa + f.offsets, f.mask, 1);
  f.b = load(pb + f.offsets, f.mask, 1);
  return f;
}

/// Runs a frame kernel on one program: a and b in, the outputs, n.
template <typename In, typename Out>
::testing::AssertionResult runFrame(const Module &mod, std::vector<In> &a, std::vector<In> &b,
                                    int n, std::vector<std::vector<Out>> &outs) {
  std::vector<Arg> args = {input(a), input(b)};
  for (auto &o : outs)
    args.push_back(output(o));
  args.push_back(i32(n));
  return run(mod, {1, 1, 1}, args);
}

auto unsignedOps = jit("unsigned_ops", [] {
  Frame f = frame(int32, int32, 9);
  const Tensor results[] = {udiv(f.a, f.b),          urem(f.a, f.b),
                            ushr(f.a, f.b & 31),     umax(f.a, f.b),
                            umin(f.a, f.b),          ult(f.a, f.b).to(int32),
                            ule(f.a, f.b).to(int32), ugt(f.a, f.b).to(int32),
                            uge(f.a, f.b).to(int32)};
  for (size_t i = 0; i < f.outs.size(); ++i)
    store(f.outs[i] + f.offsets, results[i], f.mask);
});

TEST(BuilderOps, UnsignedIntegers) {
  auto mod = unsignedOps.specialize({.numWarps = 4});
  EXPECT_TRUE(containsInOrder(irOf(mod), {"arith.divui", "arith.remui", "arith.shrui",
                                          "arith.maxui", "arith.minui", "arith.cmpi ult",
                                          "arith.cmpi ule", "arith.cmpi ugt", "arith.cmpi uge"}));
  ASSERT_TRUE(mod);
  const int n = kBlock - 1 - int(rng()() % 40);
  std::vector<int32_t> a = randomI32(n, INT32_MIN, INT32_MAX), b = randomI32(n, INT32_MIN, INT32_MAX);
  // Small divisors too, never zero; equal pairs for the <= and >= edges.
  for (int i = 0; i < n; ++i) {
    if (i % 3 == 0)
      b[i] = 1 + int32_t(rng()() % 50);
    if (i % 7 == 0)
      b[i] = a[i];
    if (b[i] == 0)
      b[i] = 3;
  }
  std::vector<std::vector<int32_t>> outs(9, poisoned<int32_t>(kBlock));
  ASSERT_TRUE(runFrame(*mod, a, b, n, outs));
  for (int i = 0; i < n; ++i) {
    uint32_t x = uint32_t(a[i]), y = uint32_t(b[i]);
    const uint32_t want[] = {x / y, x % y, x >> (y & 31), std::max(x, y), std::min(x, y),
                             x < y, x <= y, x > y, x >= y};
    for (int k = 0; k < 9; ++k)
      ASSERT_EQ(uint32_t(outs[k][i]), want[k]) << "output " << k << ", element " << i << ": "
                                               << x << ", " << y;
  }
  for (auto &o : outs)
    EXPECT_EQ(uint32_t(o[n]), 0xAAAAAAAAu) << "written past n";
}

auto floatOps = jit("float_ops", [] {
  Frame f = frame(float32, float32, 6);
  const Tensor results[] = {maxnum(f.a, f.b), minnum(f.a, f.b),
                            floor(f.a),       ceil(f.a),
                            tanh(f.a),        unordered(f.a, f.b).to(int32).to(float32)};
  for (size_t i = 0; i < f.outs.size(); ++i)
    store(f.outs[i] + f.offsets, results[i], f.mask);
});

TEST(BuilderOps, Floats) {
  auto mod = floatOps.specialize({.numWarps = 4});
  EXPECT_TRUE(containsInOrder(irOf(mod), {"arith.maxnumf", "arith.minnumf", "math.floor",
                                          "math.ceil", "math.tanh", "arith.cmpf uno"}));
  ASSERT_TRUE(mod);
  const int n = kBlock - 1 - int(rng()() % 40);
  std::vector<float> a = randomF32(n, -8, 8), b = randomF32(n, -8, 8);
  for (int i = 0; i < n; i += 5)
    (i % 2 ? a : b)[i] = NAN;
  std::vector<std::vector<float>> outs(6, poisoned<float>(kBlock));
  ASSERT_TRUE(runFrame(*mod, a, b, n, outs));
  std::vector<std::vector<float>> want(6, poisoned<float>(kBlock));
  for (int i = 0; i < n; ++i) {
    want[0][i] = std::fmax(a[i], b[i]);
    want[1][i] = std::fmin(a[i], b[i]);
    want[2][i] = std::floor(a[i]);
    want[3][i] = std::ceil(a[i]);
    want[4][i] = std::tanh(a[i]);
    want[5][i] = std::isnan(a[i]) || std::isnan(b[i]) ? 1.0f : 0.0f;
  }
  for (int k = 0; k < 6; ++k)
    EXPECT_TRUE(close(outs[k], want[k], k == 4 ? 1e-6 : 0, k == 4 ? 1e-6 : 0)) << "output " << k;
}

auto unsignedConversions = jit("unsigned_conversions", [] {
  Tensor in = arg(pointer_type(int32)), wide = arg(pointer_type(int64));
  Tensor asFloat = arg(pointer_type(float32)), back = arg(pointer_type(int32));
  Tensor i = arange(0, kBlock, k1D);
  Tensor x = load(in + i);
  store(wide + i, to_unsigned(x.to(int16), int64));
  Tensor f = to_unsigned(x, float32);
  store(asFloat + i, f);
  store(back + i, to_unsigned(f, int32));
});

TEST(BuilderOps, UnsignedConversions) {
  auto mod = unsignedConversions.specialize({.numWarps = 4});
  EXPECT_TRUE(containsInOrder(irOf(mod), {"arith.trunci", "arith.extui", "arith.uitofp",
                                          "arith.fptoui"}));
  ASSERT_TRUE(mod);
  std::vector<int32_t> in = randomI32(kBlock, INT32_MIN, INT32_MAX), back = poisoned<int32_t>(kBlock);
  std::vector<int64_t> wide = poisoned<int64_t>(kBlock);
  std::vector<float> asFloat = poisoned<float>(kBlock);
  ASSERT_TRUE(run(*mod, {1, 1, 1}, {input(in), output(wide), output(asFloat), output(back)}));
  for (int k = 0; k < kBlock; ++k) {
    const uint32_t u = uint32_t(in[k]);
    const float f = float(u);
    ASSERT_EQ(wide[k], int64_t(uint16_t(u))) << k;
    ASSERT_EQ(asFloat[k], f) << k;
    // f rounds up to 2^32 for the largest u; fptoui is only defined below it.
    if (f < 4294967296.0f)
      ASSERT_EQ(uint32_t(back[k]), uint32_t(f)) << k;
  }
}

// Every element folds into one of two bins with unsigned max and min.
auto unsignedAtomics = jit("unsigned_atomics", [] {
  Tensor x = arg(pointer_type(int32)), bins = arg(pointer_type(int32));
  Tensor i = arange(0, kBlock, k1D);
  Tensor v = load(x + i);
  atomic_umax(bins + 0 * i, v);
  atomic_umin(bins + (0 * i + 1), v);
});

TEST(BuilderOps, UnsignedAtomics) {
  auto mod = unsignedAtomics.specialize({.numWarps = 4});
  EXPECT_TRUE(containsInOrder(irOf(mod), {"hd.atomic_rmw umax", "hd.atomic_rmw umin"}));
  ASSERT_TRUE(mod);
  std::vector<int32_t> x = randomI32(kBlock, INT32_MIN, INT32_MAX);
  const uint32_t init0 = uint32_t(rng()()), init1 = uint32_t(rng()());
  std::vector<int32_t> bins = {int32_t(init0), int32_t(init1)};
  ASSERT_TRUE(run(*mod, {1, 1, 1}, {input(x), output(bins)}));
  uint32_t hi = init0, lo = init1;
  for (int32_t v : x) {
    hi = std::max(hi, uint32_t(v));
    lo = std::min(lo, uint32_t(v));
  }
  EXPECT_EQ(uint32_t(bins[0]), hi);
  EXPECT_EQ(uint32_t(bins[1]), lo);
}

// out[2i] = a[i], out[2i + 1] = b[i] through join; then split of that
// tile gives a and b back to lo and hi.
auto joinSplit = jit("join_split", [] {
  const Layout pair = Blocked{{2, 2}, {32, 1}, {4, 1}, {1, 0}};
  const Layout flat = Blocked{{4}, {32}, {4}, {0}};
  Tensor a = arg(pointer_type(float32)), b = arg(pointer_type(float32));
  Tensor out = arg(pointer_type(float32)), lo = arg(pointer_type(float32));
  Tensor hi = arg(pointer_type(float32));
  Tensor i = arange(0, kBlock, k1D);
  Tensor joined = join(load(a + i), load(b + i), pair);
  store(out + arange(0, 2 * kBlock, flat), reshape(joined, {2 * kBlock}, flat));
  auto [x, y] = split(joined, k1D);
  store(lo + i, x);
  store(hi + i, y);
});

TEST(BuilderOps, JoinAndSplit) {
  auto mod = joinSplit.specialize({.numWarps = 4});
  EXPECT_TRUE(containsInOrder(irOf(mod), {"hd.join", "tensor<256x2xf32", "hd.reshape",
                                          "hd.split"}));
  ASSERT_TRUE(mod);
  std::vector<float> a = randomF32(kBlock), b = randomF32(kBlock);
  std::vector<float> out = poisoned<float>(2 * kBlock), lo = poisoned<float>(kBlock),
                     hi = poisoned<float>(kBlock);
  ASSERT_TRUE(run(*mod, {1, 1, 1}, {input(a), input(b), output(out), output(lo), output(hi)}));
  std::vector<float> want(2 * kBlock);
  for (int i = 0; i < kBlock; ++i) {
    want[2 * i] = a[i];
    want[2 * i + 1] = b[i];
  }
  EXPECT_TRUE(close(out, want, 0, 0));
  EXPECT_TRUE(close(lo, a, 0, 0));
  EXPECT_TRUE(close(hi, b, 0, 0));
}

// The ops tests/e2e's Elementwise test needed when it moved off IR text.
auto roundingDivisionAndBits = jit("rounding_division_and_bits", [] {
  Frame f = frame(int32, int32, 3);
  const Tensor results[] = {floordiv(f.a, f.b), ceildiv(f.a, f.b), popcount(f.a)};
  for (size_t i = 0; i < f.outs.size(); ++i)
    store(f.outs[i] + f.offsets, results[i], f.mask);
});

TEST(BuilderOps, RoundingDivisionAndPopcount) {
  auto mod = roundingDivisionAndBits.specialize({.numWarps = 4});
  EXPECT_TRUE(containsInOrder(irOf(mod), {"arith.floordivsi", "arith.ceildivsi", "math.ctpop"}));
  ASSERT_TRUE(mod);
  const int n = kBlock - 1 - int(rng()() % 40);
  std::vector<int32_t> a = randomI32(n, -100000, 100000), b = randomI32(n, -50, 50);
  for (int32_t &d : b)
    d = d == 0 ? 7 : d;
  std::vector<std::vector<int32_t>> outs(3, poisoned<int32_t>(kBlock));
  ASSERT_TRUE(runFrame(*mod, a, b, n, outs));
  for (int i = 0; i < n; ++i) {
    const int32_t q = a[i] / b[i];
    const bool inexact = a[i] % b[i] != 0, negative = (a[i] < 0) != (b[i] < 0);
    const int32_t want[] = {inexact && negative ? q - 1 : q, inexact && !negative ? q + 1 : q,
                            __builtin_popcount(uint32_t(a[i]))};
    for (int k = 0; k < 3; ++k)
      ASSERT_EQ(outs[k][i], want[k]) << "output " << k << ", " << a[i] << ", " << b[i];
  }
  for (auto &o : outs)
    EXPECT_EQ(uint32_t(o[n]), 0xAAAAAAAAu) << "written past n";
}

auto moreFloatOps = jit("more_float_ops", [] {
  Frame f = frame(float32, float32, 6);
  const Tensor results[] = {trunc(f.a),           round(f.a),       erf(f.a),
                            pow(abs(f.a), f.b),   atan2(f.a, f.b),  copysign(f.a, f.b)};
  for (size_t i = 0; i < f.outs.size(); ++i)
    store(f.outs[i] + f.offsets, results[i], f.mask);
});

TEST(BuilderOps, MoreFloats) {
  auto mod = moreFloatOps.specialize({.numWarps = 4});
  EXPECT_TRUE(containsInOrder(irOf(mod), {"math.trunc", "math.round", "math.erf", "math.powf",
                                          "math.atan2", "math.copysign"}));
  ASSERT_TRUE(mod);
  const int n = kBlock - 1 - int(rng()() % 40);
  std::vector<float> a = randomF32(n, -4, 4), b = randomF32(n, -3, 3);
  a[0] = 2.5f; // round: halves go away from zero
  a[1] = -2.5f;
  std::vector<std::vector<float>> outs(6, poisoned<float>(kBlock));
  ASSERT_TRUE(runFrame(*mod, a, b, n, outs));
  std::vector<std::vector<float>> want(6, poisoned<float>(kBlock));
  for (int i = 0; i < n; ++i) {
    want[0][i] = std::trunc(a[i]);
    want[1][i] = std::round(a[i]);
    want[2][i] = std::erf(a[i]);
    want[3][i] = std::pow(std::fabs(a[i]), b[i]);
    want[4][i] = std::atan2(a[i], b[i]);
    want[5][i] = std::copysign(a[i], b[i]);
  }
  for (int k = 0; k < 6; ++k) {
    const bool exact = k == 0 || k == 1 || k == 5;
    EXPECT_TRUE(close(outs[k], want[k], exact ? 0 : 1e-6, exact ? 0 : 1e-5)) << "output " << k;
  }
}

TEST(BuilderOps, SplitNeedsAMinorDimensionOfTwo) {
  auto bad = jit("split_bad", [] {
    Tensor x = full({16, 4}, 1.0, float32, Blocked{{1, 4}, {8, 4}, {4, 1}, {1, 0}});
    split(x, Blocked{{1}, {32}, {4}, {0}});
  });
  EXPECT_NE(errorOf(bad.specialize({.numWarps = 4})).find("split takes one of size 2"),
            std::string::npos);
}

} // namespace
} // namespace hadron::builder::test
