//===- ReduceScanTest.cpp - reduce and scan along each axis ---------------===//
//
// Sum, max and min (and an argmax whose combine takes two operands) along
// each axis of 2-D tiles and of 1-D tiles to a scalar; inclusive scans
// forwards and in reverse. Masked-off elements load the combine's identity,
// so a tail that is not a multiple of the tile must not change a result.
// Reductions whose axis spans lanes or warps move data between threads on a
// GPU; those skip until that lowering lands (E2E_REQUIRE(CrossWarpReduce)).
// The kernels are the kernel library's (tests/kernels/ReduceScan.h, written
// with the C++ builder and built at build time for every warp size).
//
//===----------------------------------------------------------------------===//

#include "E2E.h"
#include "kernels/ReduceScan.h"

#include <limits>

namespace hadron::e2e {
namespace {

using runtime::arg::i32;

struct Layout2D {
  Blocked layout;
  std::vector<int> shape;
  std::string name() const {
    return layout.name() + "_" + std::to_string(shape[0]) + "x" + std::to_string(shape[1]);
  }
  /// Does the reduction along `axis` combine values of different threads?
  bool crossThread(int axis) const { return layout.tpw[axis] * layout.wpc[axis] > 1; }
};

/// The library's layouts for these tests.
const std::vector<Layout2D> &layouts() {
  static const std::vector<Layout2D> l = [] {
    std::vector<Layout2D> v;
    for (const kernels::E2EReduceLayout &x : kernels::e2eReduceLayouts())
      v.push_back({x.layout, {x.m, x.n}});
    return v;
  }();
  return l;
}
kernels::E2EReduceLayout libraryLayout(const Layout2D &c) {
  return {c.layout, c.shape[0], c.shape[1]};
}

struct Combine {
  std::string name, elem;
};

std::vector<Combine> combines() {
  std::vector<Combine> c;
  for (const std::string &name : kernels::e2eCombines())
    c.push_back({name, name.substr(name.size() - 3)});
  return c;
}

/// The library's kernel of `use` for this session's lane count.
int addKernel(Program &p, const kernels::KernelUse &use) {
  return p.addBuilt(use.key(session().lanes), use.kernel);
}

template <typename T> std::vector<T> matrix(std::mt19937_64 &rng, int count, bool integral) {
  if constexpr (std::is_same_v<T, float>)
    if (!integral)
      return randomVector<float>(rng, count, -1, 1);
  std::vector<T> v(count);
  std::uniform_int_distribution<int> d(-1000, 1000);
  for (T &x : v)
    x = static_cast<T>(d(rng));
  return v;
}

class Reduce : public ::testing::TestWithParam<std::tuple<Combine, Layout2D, int>> {};

// out[kept] = combine over the reduced axis of the matrix, for rows x cols
// not multiples of the tile. f32 sums of integral values are exact in any
// order; a second pass with fractional values checks them within a bound.
TEST_P(Reduce, AlongAxis) {
  E2E_BEGIN();
  const auto &[comb, c, axis] = GetParam();
  if (c.crossThread(axis))
    E2E_REQUIRE(CrossWarpReduce);
  const int m = c.shape[0], n = c.shape[1];
  const int keptTile = axis == 1 ? m : n;
  Program p;
  int kid = addKernel(p, kernels::e2ereduce::reduce(comb.name, libraryLayout(c), axis));
  E2E_READY(p);

  // The reduced extent fits the tile; the kept one spans several programs.
  const int rowsN = axis == 1 ? tailSize(rng, m, 4 * m) : tailSize(rng, m, m);
  const int colsN = axis == 0 ? tailSize(rng, n, 4 * n) : tailSize(rng, n, n);
  const int keptN = axis == 1 ? rowsN : colsN;
  auto run = [&](auto sample, bool integral) {
    using T = decltype(sample);
    std::vector<T> hx = matrix<T>(rng, rowsN * colsN, integral);
    auto bi = p.input(hx);
    auto bo = p.output<T>(keptN + 8);
    E2E_LAUNCH(p, kid, {ceilDiv(keptN, keptTile), 1, 1}, {bi.arg(), bo.arg(), i32(rowsN), i32(colsN)},
               {io(bo)});
    std::vector<T> want(keptN);
    std::vector<double> magnitude(keptN, 0);
    for (int o = 0; o < keptN; ++o) {
      const int len = axis == 1 ? colsN : rowsN;
      double acc = comb.name.rfind("sum", 0) == 0 ? 0 : comb.name.rfind("max", 0) == 0 ? -INFINITY : INFINITY;
      int64_t iacc = comb.name.rfind("sum", 0) == 0 ? 0
                     : comb.name.rfind("max", 0) == 0 ? INT32_MIN : INT32_MAX;
      for (int j = 0; j < len; ++j) {
        T v = axis == 1 ? hx[o * colsN + j] : hx[j * colsN + o];
        magnitude[o] += std::fabs(double(v));
        if (comb.name.rfind("sum", 0) == 0)
          acc += v, iacc += static_cast<int64_t>(v);
        else if (comb.name.rfind("max", 0) == 0)
          acc = std::max<double>(acc, v), iacc = std::max<int64_t>(iacc, int64_t(v));
        else
          acc = std::min<double>(acc, v), iacc = std::min<int64_t>(iacc, int64_t(v));
      }
      if constexpr (std::is_same_v<T, float>)
        want[o] = static_cast<float>(acc);
      else
        want[o] = static_cast<T>(static_cast<int32_t>(iacc));
    }
    if constexpr (std::is_same_v<T, float>) {
      if (!integral) {
        // Any order of summation: within n * eps * sum|x| of the exact sum.
        expectAll(
            keptN,
            [&](size_t o) -> std::optional<std::string> {
              double bound = (axis == 1 ? colsN : rowsN) * 1.2e-7 * magnitude[o] + 1e-30;
              if (std::fabs(double(bo.host()[o]) - double(want[o])) <= bound)
                return std::nullopt;
              return "got " + show(bo.host()[o]) + ", want " + show(want[o]) + " within " +
                     show(bound);
            },
            comb.name + " of fractional values");
        return;
      }
    }
    expectExact(bo.host(), want, comb.name);
    expectPoisoned(bo.host(), keptN, bo.size(), "past the kept extent");
  };
  if (comb.elem == "f32") {
    run(float(), true);
    if (comb.name == "sum_f32")
      run(float(), false);
  } else {
    run(int32_t(), true);
  }
}

INSTANTIATE_TEST_SUITE_P(
    Combines, Reduce,
    ::testing::Combine(::testing::ValuesIn(combines()), ::testing::ValuesIn(layouts()),
                       ::testing::Values(0, 1)),
    [](const auto &info) {
      return std::get<0>(info.param).name + "_" + std::get<1>(info.param).name() + "_axis" +
             std::to_string(std::get<2>(info.param));
    });

class ArgMax : public ::testing::TestWithParam<std::tuple<Layout2D, int>> {};

// A two-operand reduce: (value, index) pairs combined to the largest value,
// the smallest index among equal ones. Values repeat often, so ties matter.
TEST_P(ArgMax, TwoOperandCombineWithTies) {
  E2E_BEGIN();
  const auto &[c, axis] = GetParam();
  if (c.crossThread(axis))
    E2E_REQUIRE(CrossWarpReduce);
  const int m = c.shape[0], n = c.shape[1], keptTile = axis == 1 ? m : n;
  Program p;
  int kid = addKernel(p, kernels::e2ereduce::argmax(libraryLayout(c), axis));
  E2E_READY(p);
  const int rowsN = axis == 1 ? tailSize(rng, m, 3 * m) : tailSize(rng, m, m);
  const int colsN = axis == 0 ? tailSize(rng, n, 3 * n) : tailSize(rng, n, n);
  const int keptN = axis == 1 ? rowsN : colsN, redN = axis == 1 ? colsN : rowsN;
  std::vector<float> hx(rowsN * colsN);
  std::uniform_int_distribution<int> d(-6, 6);
  for (float &x : hx)
    x = static_cast<float>(d(rng));
  auto bi_ = p.input(hx);
  auto bv_ = p.output<float>(keptN);
  auto bidx = p.output<int32_t>(keptN);
  E2E_LAUNCH(p, kid, {ceilDiv(keptN, keptTile), 1, 1},
             {bi_.arg(), bv_.arg(), bidx.arg(), i32(rowsN), i32(colsN)}, {io(bv_), io(bidx)});
  std::vector<float> wantV(keptN);
  std::vector<int32_t> wantI(keptN);
  for (int o = 0; o < keptN; ++o) {
    float best = -INFINITY;
    int at = 0;
    for (int j = 0; j < redN; ++j) {
      float x = axis == 1 ? hx[o * colsN + j] : hx[j * colsN + o];
      if (x > best)
        best = x, at = j;
    }
    wantV[o] = best;
    wantI[o] = at;
  }
  expectExact(bv_.host(), wantV, "max values");
  expectExact(bidx.host(), wantI, "first index of the max");
}

INSTANTIATE_TEST_SUITE_P(
    Layouts, ArgMax,
    ::testing::Combine(::testing::Values(layouts()[0], layouts()[2], layouts()[3]),
                       ::testing::Values(0, 1)),
    [](const auto &info) {
      return std::get<0>(info.param).name() + "_axis" + std::to_string(std::get<1>(info.param));
    });

struct Layout1D {
  Blocked layout;
  int block;
  std::string name() const { return layout.name() + "_b" + std::to_string(block); }
};

class ReduceToScalar : public ::testing::TestWithParam<Layout1D> {};

// A 1-D tile reduces to a scalar: each program stores the sum and the max of
// its slice of the input (the last one shorter), as scalars.
TEST_P(ReduceToScalar, SumAndMaxPerProgram) {
  E2E_BEGIN();
  const Layout1D &c = GetParam();
  if (c.layout.tpw[0] * c.layout.wpc[0] > 1)
    E2E_REQUIRE(CrossWarpReduce);
  Program p;
  int kid = addKernel(p, kernels::e2ereduce::reduce1d(c.layout, c.block));
  E2E_READY(p);
  const int count = tailSize(rng, c.block, 5 * c.block);
  const uint32_t grid = ceilDiv(count, c.block);
  std::vector<int32_t> hx = randomVector<int32_t>(rng, count, -100000, 100000);
  auto bi = p.input(hx);
  auto bs = p.output<int32_t>(grid + 4), bm = p.output<int32_t>(grid + 4);
  E2E_LAUNCH(p, kid, {grid, 1, 1}, {bi.arg(), bs.arg(), bm.arg(), i32(count)}, {io(bs), io(bm)});
  std::vector<int32_t> wantS(grid, 0), wantM(grid, INT32_MIN);
  for (int i = 0; i < count; ++i) {
    wantS[i / c.block] += hx[i];
    wantM[i / c.block] = std::max(wantM[i / c.block], hx[i]);
  }
  expectExact(bs.host(), wantS, "sums");
  expectExact(bm.host(), wantM, "maxima");
  expectPoisoned(bs.host(), grid, bs.size(), "past the programs");
}

std::vector<Layout1D> layouts1d() {
  std::vector<Layout1D> l;
  for (const auto &[layout, block] : kernels::e2eReduce1dLayouts())
    l.push_back({layout, block});
  return l;
}

INSTANTIATE_TEST_SUITE_P(Layouts, ReduceToScalar, ::testing::ValuesIn(layouts1d()),
                         ::testing::PrintToStringParamName());

//===----------------------------------------------------------------------===//
// scan
//===----------------------------------------------------------------------===//

class Scan : public ::testing::TestWithParam<std::tuple<Layout2D, int, bool>> {};

// Inclusive prefix sums along an axis, forwards or from the end, of a
// matrix whose scanned extent fits one tile (masked with zeros).
TEST_P(Scan, InclusivePrefixSum) {
  E2E_BEGIN();
  const auto &[c, axis, reverse] = GetParam();
  if (c.crossThread(axis))
    E2E_REQUIRE(CrossWarpReduce);
  const int m = c.shape[0], n = c.shape[1];
  Program p;
  int kid = addKernel(p, kernels::e2ereduce::scan(libraryLayout(c), axis, reverse));
  E2E_READY(p);
  const int rowsN = axis == 1 ? tailSize(rng, m, 3 * m) : tailSize(rng, m, m);
  const int colsN = axis == 0 ? tailSize(rng, n, 3 * n) : tailSize(rng, n, n);
  std::vector<int32_t> hx = randomVector<int32_t>(rng, rowsN * colsN, -1000, 1000);
  auto bi = p.input(hx);
  auto bo = p.output<int32_t>(rowsN * colsN + 8);
  E2E_LAUNCH(p, kid, {ceilDiv(axis == 1 ? rowsN : colsN, axis == 1 ? m : n), 1, 1},
             {bi.arg(), bo.arg(), i32(rowsN), i32(colsN)}, {io(bo)});
  std::vector<int32_t> want(rowsN * colsN);
  const int lines = axis == 1 ? rowsN : colsN, len = axis == 1 ? colsN : rowsN;
  for (int o = 0; o < lines; ++o) {
    int32_t acc = 0;
    for (int jj = 0; jj < len; ++jj) {
      int j = reverse ? len - 1 - jj : jj;
      int at = axis == 1 ? o * colsN + j : j * colsN + o;
      acc += hx[at];
      want[at] = acc;
    }
  }
  expectExact(bo.host(), want, reverse ? "reverse prefix sums" : "prefix sums");
  expectPoisoned(bo.host(), want.size(), bo.size(), "past the matrix");
}

INSTANTIATE_TEST_SUITE_P(
    Layouts, Scan,
    ::testing::Combine(::testing::Values(layouts()[0], layouts()[2], layouts()[3], layouts()[4]),
                       ::testing::Values(0, 1), ::testing::Bool()),
    [](const auto &info) {
      return std::get<0>(info.param).name() + "_axis" + std::to_string(std::get<1>(info.param)) +
             (std::get<2>(info.param) ? "_reverse" : "_forward");
    });

} // namespace
} // namespace hadron::e2e
