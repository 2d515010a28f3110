//===- ShapeTest.cpp - expand_dims, broadcast, reshape, permute, join, split, convert_layout -===//
//
// Each kernel computes the addresses it stores to in the layout it stores
// from, so an element that a shape op or a layout conversion puts in the
// wrong place lands at the wrong address and fails the comparison. The
// kernels and the cases' layouts are the kernel library's
// (tests/kernels/Shape.h, written with the C++ builder).
//
//===----------------------------------------------------------------------===//

#include "E2E.h"
#include "kernels/Shape.h"

namespace hadron::e2e {
namespace {

using runtime::arg::i32;

/// The library's kernel of `use` for this session's lane count.
int addKernel(Program &p, const kernels::KernelUse &use) {
  return p.addBuilt(use.key(session().lanes), use.kernel);
}

struct Layout2D {
  Blocked layout;
  std::vector<int> shape;
  std::string name() const {
    return layout.name() + "_" + std::to_string(shape[0]) + "x" + std::to_string(shape[1]);
  }
};

std::vector<Layout2D> layouts2d() {
  std::vector<Layout2D> l;
  for (const auto &[layout, shape] : kernels::e2eShapeCases().layouts2d)
    l.push_back({layout, shape});
  return l;
}

//===----------------------------------------------------------------------===//
// expand_dims + broadcast
//===----------------------------------------------------------------------===//

class OuterSum : public ::testing::TestWithParam<Layout2D> {};

// out[i][j] = a[i] * 4096 + b[j]: a row vector and a column vector (the two
// slices of the layout) expanded and broadcast to the tile, over a grid with
// tails in both dimensions.
TEST_P(OuterSum, ExpandDimsAndBroadcast) {
  E2E_BEGIN();
  const Layout2D &c = GetParam();
  const int m = c.shape[0], n = c.shape[1];
  Program p;
  int kid = addKernel(p, kernels::e2eshape::outerSum(c.layout, m, n));
  E2E_READY(p);
  const int rowsN = tailSize(rng, m, 3 * m), colsN = tailSize(rng, n, 3 * n);
  std::vector<int32_t> ha = randomVector<int32_t>(rng, rowsN, -1000, 1000);
  std::vector<int32_t> hb = randomVector<int32_t>(rng, colsN, -1000, 1000);
  auto ba = p.input(ha), bbuf = p.input(hb);
  auto bo = p.output<int32_t>(rowsN * colsN + 16);
  E2E_LAUNCH(p, kid, {ceilDiv(rowsN, m), ceilDiv(colsN, n), 1},
             {ba.arg(), bbuf.arg(), bo.arg(), i32(rowsN), i32(colsN)}, {io(bo)});
  std::vector<int32_t> want(rowsN * colsN);
  for (int i = 0; i < rowsN; ++i)
    for (int j = 0; j < colsN; ++j)
      want[i * colsN + j] = ha[i] * 4096 + hb[j];
  expectExact(bo.host(), want, "outer sum");
  expectPoisoned(bo.host(), want.size(), bo.size(), "past the matrix");
}

INSTANTIATE_TEST_SUITE_P(Layouts, OuterSum, ::testing::ValuesIn(layouts2d()),
                         ::testing::PrintToStringParamName());

//===----------------------------------------------------------------------===//
// reshape
//===----------------------------------------------------------------------===//

struct ReshapeCase {
  Blocked flat;          ///< 1-D
  Layout2D shaped;       ///< 2-D, shape[0] * shape[1] elements
  std::string name() const { return "from_" + flat.name() + "_to_" + shaped.name(); }
};

class Reshape : public ::testing::TestWithParam<ReshapeCase> {};

// A 1-D tile reshaped to 2-D keeps row-major order: element (r, c) of the
// 2-D tile is element r * N + c of the 1-D one. The kernel reshapes there
// and back, storing both: out2[r * N + c] from the 2-D tile's own offsets,
// out1[i] from the 1-D tile that came back.
TEST_P(Reshape, RowMajorBothWays) {
  E2E_BEGIN();
  const ReshapeCase &c = GetParam();
  const int m = c.shaped.shape[0], n = c.shaped.shape[1], total = m * n;
  Program p;
  int kid = addKernel(p, kernels::e2eshape::reshape(c.flat, c.shaped.layout, m, n));
  E2E_READY(p);
  const uint32_t programs = 3;
  std::vector<float> hx = randomVector<float>(rng, programs * total, -5, 5);
  auto bi = p.input(hx);
  auto b2 = p.output<float>(programs * total), b1 = p.output<float>(programs * total);
  E2E_LAUNCH(p, kid, {programs, 1, 1}, {bi.arg(), b2.arg(), b1.arg()}, {io(b2), io(b1)});
  expectExact(b2.host(), hx, "1-D reshaped to 2-D");
  expectExact(b1.host(), hx, "and back to 1-D");
}

std::vector<ReshapeCase> reshapeCases() {
  std::vector<ReshapeCase> c;
  const std::vector<Layout2D> shaped = layouts2d();
  for (size_t i = 0; i < shaped.size(); ++i)
    c.push_back({kernels::e2eShapeCases().reshapeFlat[i], shaped[i]});
  return c;
}

INSTANTIATE_TEST_SUITE_P(Layouts, Reshape, ::testing::ValuesIn(reshapeCases()),
                         ::testing::PrintToStringParamName());

//===----------------------------------------------------------------------===//
// permute
//===----------------------------------------------------------------------===//

struct PermuteCase {
  Blocked layout;
  std::vector<int> shape, perm;
  std::string name() const {
    std::string s = layout.name() + "_";
    for (int d : shape)
      s += std::to_string(d) + "x";
    s.back() = '_';
    s += "perm";
    for (int d : perm)
      s += std::to_string(d);
    return s;
  }
};

class Permute : public ::testing::TestWithParam<PermuteCase> {};

// out[permuted index] = in[index]: the permuted tile is stored from offsets
// computed in its own (permuted) layout, with the strides of the input's
// dimensions, so element (i0, i1, ...) of the result lands at the input's
// offset of the source element it must hold.
TEST_P(Permute, ElementsFollowTheirCoordinates) {
  E2E_BEGIN();
  const PermuteCase &c = GetParam();
  int total = 1;
  for (int d : c.shape)
    total *= d;
  Program p;
  int kid = addKernel(p, kernels::e2eshape::permute(c.layout, c.shape, c.perm));
  E2E_READY(p);
  std::vector<int32_t> hx = randomVector<int32_t>(rng, total, INT32_MIN, INT32_MAX);
  auto bi = p.input(hx);
  auto bo = p.output<int32_t>(total);
  E2E_LAUNCH(p, kid, {1, 1, 1}, {bi.arg(), bo.arg()}, {io(bo)});
  // Stored at the source element's own offset: the output equals the input.
  expectExact(bo.host(), hx, "permuted tile stored at its source coordinates");
}

std::vector<PermuteCase> permuteCases() {
  std::vector<PermuteCase> c;
  for (const auto &[layout, shape, perm] : kernels::e2eShapeCases().permutes)
    c.push_back({layout, shape, perm});
  return c;
}

INSTANTIATE_TEST_SUITE_P(Layouts, Permute, ::testing::ValuesIn(permuteCases()),
                         ::testing::PrintToStringParamName());

//===----------------------------------------------------------------------===//
// join / split
//===----------------------------------------------------------------------===//

struct Layout1D {
  Blocked layout;
  int block;
  std::string name() const { return layout.name() + "_b" + std::to_string(block); }
};

std::vector<Layout1D> layouts1d() {
  std::vector<Layout1D> l;
  for (const auto &[layout, block] : kernels::e2eShapeCases().layouts1d)
    l.push_back({layout, block});
  return l;
}

class JoinSplit : public ::testing::TestWithParam<Layout1D> {};

// join: out[2i] = a[i], out[2i + 1] = b[i] (the pair dimension is the minor
// one of a row-major N x 2 tile). split: lo[i] = x[2i], hi[i] = x[2i + 1].
// Both with a tail.
TEST_P(JoinSplit, InterleaveAndDeinterleave) {
  E2E_BEGIN();
  const Layout1D &c = GetParam();
  const int n = c.block;
  Program p;
  int kj = addKernel(p, kernels::e2eshape::join(c.layout, n));
  int ks = addKernel(p, kernels::e2eshape::split(c.layout, n));
  E2E_READY(p);
  const int count = tailSize(rng, n, 4 * n);
  const uint32_t grid = ceilDiv(count, n);
  std::vector<float> ha = randomVector<float>(rng, count, -1, 1);
  std::vector<float> hb = randomVector<float>(rng, count, -1, 1);
  std::vector<float> hx = randomVector<float>(rng, 2 * count, -1, 1);
  auto ba = p.input(ha), bb = p.input(hb), bx = p.input(hx);
  auto joined = p.output<float>(2 * count + 8);
  auto lo = p.output<float>(count + 8), hi = p.output<float>(count + 8);
  E2E_LAUNCH(p, kj, {grid, 1, 1}, {ba.arg(), bb.arg(), joined.arg(), i32(count)}, {io(joined)});
  E2E_LAUNCH(p, ks, {grid, 1, 1}, {bx.arg(), lo.arg(), hi.arg(), i32(count)}, {io(lo), io(hi)});
  std::vector<float> wantJoined(2 * count), wantLo(count), wantHi(count);
  for (int i = 0; i < count; ++i) {
    wantJoined[2 * i] = ha[i];
    wantJoined[2 * i + 1] = hb[i];
    wantLo[i] = hx[2 * i];
    wantHi[i] = hx[2 * i + 1];
  }
  expectExact(joined.host(), wantJoined, "join");
  expectPoisoned(joined.host(), 2 * count, joined.size(), "join past n");
  expectExact(lo.host(), wantLo, "split, first half");
  expectExact(hi.host(), wantHi, "split, second half");
  expectPoisoned(lo.host(), count, lo.size(), "split past n");
}

INSTANTIATE_TEST_SUITE_P(Layouts, JoinSplit, ::testing::ValuesIn(layouts1d()),
                         ::testing::PrintToStringParamName());

//===----------------------------------------------------------------------===//
// convert_layout
//===----------------------------------------------------------------------===//

/// A case of the kernel library's list (kernels::e2eShapeCases()).
struct ConvertCase {
  kernels::ConvertUse use;
  std::string name() const {
    return use.from.name() + "_to_" + use.to.name() + "_" + std::to_string(use.shape[0]) + "x" +
           std::to_string(use.shape[1]) + "_" + use.elem;
  }
};

std::vector<ConvertCase> convertCases() {
  std::vector<ConvertCase> c;
  for (const kernels::ConvertUse &u : kernels::e2eShapeCases().converts)
    c.push_back({u});
  return c;
}

class ConvertLayout : public ::testing::TestWithParam<ConvertCase> {};

// A tile (with tails in both dimensions) loaded in one layout, converted,
// and stored from offsets computed in the other. For f16 and pointer tiles
// too: the pointer case converts the tensor of addresses and loads through
// it after the conversion.
TEST_P(ConvertLayout, ElementsKeepTheirCoordinates) {
  E2E_BEGIN();
  const kernels::ConvertUse &c = GetParam().use;
  if (c.crossThread)
    E2E_REQUIRE(CrossLaneConvert);
  const int m = c.shape[0], n = c.shape[1];
  const std::string e = c.elem == "ptr" ? "i32" : c.elem;
  Program p;
  int kid = p.addBuilt(c.key(S.lanes), "convert");
  E2E_READY(p);
  const int rowsN = tailSize(rng, m, 2 * m + 3), colsN = tailSize(rng, n, 2 * n + 3);
  const uint32_t gx = ceilDiv(rowsN, m), gy = ceilDiv(colsN, n);
  auto run = [&](auto sample) {
    using T = decltype(sample);
    std::vector<T> hx = randomVector<T>(rng, rowsN * colsN, -30000, 30000);
    auto bi = p.input(hx);
    auto bo = p.output<T>(rowsN * colsN + 8);
    E2E_LAUNCH(p, kid, {gx, gy, 1}, {bi.arg(), bo.arg(), i32(rowsN), i32(colsN)}, {io(bo)});
    expectExact(bo.host(), hx, "converted tile");
    expectPoisoned(bo.host(), hx.size(), bo.size(), "past the matrix");
  };
  if (e == "f16")
    run(Half());
  else if (e == "f32")
    run(float());
  else
    run(int32_t());
}

INSTANTIATE_TEST_SUITE_P(Pairs, ConvertLayout, ::testing::ValuesIn(convertCases()),
                         ::testing::PrintToStringParamName());

struct Convert1DCase {
  kernels::Convert1DUse use;
  std::string name() const {
    return use.from.name() + "_to_" + use.to.name() + "_" + std::to_string(use.len);
  }
};

std::vector<Convert1DCase> convert1dCases() {
  std::vector<Convert1DCase> c;
  for (const kernels::Convert1DUse &u : kernels::e2eShapeCases().converts1d)
    c.push_back({u});
  return c;
}

class ConvertLayout1D : public ::testing::TestWithParam<Convert1DCase> {};

// 1-D conversions, with linear layouts (a 1-D tile's offsets need no
// slice): out[i] = in[i] for i < n.
TEST_P(ConvertLayout1D, ElementsKeepTheirIndex) {
  E2E_BEGIN();
  const kernels::Convert1DUse &c = GetParam().use;
  if (c.crossThread)
    E2E_REQUIRE(CrossLaneConvert);
  Program p;
  int kid = p.addBuilt(c.key(S.lanes), "convert1d");
  E2E_READY(p);
  const int count = tailSize(rng, c.len, 3 * c.len);
  std::vector<float> hx = randomVector<float>(rng, count, -1, 1);
  auto bi = p.input(hx);
  auto bo = p.output<float>(count + 8);
  E2E_LAUNCH(p, kid, {ceilDiv(count, c.len), 1, 1}, {bi.arg(), bo.arg(), i32(count)}, {io(bo)});
  expectExact(bo.host(), hx, "converted");
  expectPoisoned(bo.host(), count, bo.size(), "past n");
}

INSTANTIATE_TEST_SUITE_P(Pairs, ConvertLayout1D, ::testing::ValuesIn(convert1dCases()),
                         ::testing::PrintToStringParamName());

// Slices: a column vector (slice of one layout) converted to a 1-D blocked
// layout and to the slice of another 2-D layout, where lanes replicate it
// differently.
TEST(ConvertLayoutSlices, SliceToBlockedAndToAnotherSlice) {
  E2E_BEGIN();
  E2E_REQUIRE(CrossLaneConvert);
  const int len = 64;
  Program p;
  int kid = addKernel(p, kernels::e2eshape::slices());
  E2E_READY(p);
  const int count = tailSize(rng, len, len);
  std::vector<float> hx = randomVector<float>(rng, count, -1, 1);
  auto bi = p.input(hx);
  auto b1 = p.output<float>(len), b2 = p.output<float>(len);
  E2E_LAUNCH(p, kid, {1, 1, 1}, {bi.arg(), b1.arg(), b2.arg(), i32(count)}, {io(b1), io(b2)});
  expectExact(b1.host(), hx, "slice to blocked");
  expectPoisoned(b1.host(), count, len, "slice to blocked past n");
  expectExact(b2.host(), hx, "slice to another slice");
  expectPoisoned(b2.host(), count, len, "slice to slice past n");
}

} // namespace
} // namespace hadron::e2e
