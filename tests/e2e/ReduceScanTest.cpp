//===- ReduceScanTest.cpp - reduce and scan along each axis ---------------===//
//
// Sum, max and min (and an argmax whose combine takes two operands) along
// each axis of 2-D tiles and of 1-D tiles to a scalar; inclusive scans
// forwards and in reverse. Masked-off elements load the combine's identity,
// so a tail that is not a multiple of the tile must not change a result.
// Reductions whose axis spans lanes or warps move data between threads on a
// GPU; those skip until that lowering lands (E2E_REQUIRE(CrossWarpReduce)).
//
//===----------------------------------------------------------------------===//

#include "E2E.h"

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

const Layout2D kLayouts[] = {
    {{{1, 4}, {4, 8}, {4, 1}, {1, 0}}, {16, 32}},  // both axes across lanes; 0 across warps
    {{{1, 1}, {32, 1}, {1, 4}, {0, 1}}, {32, 16}}, // axis 1 across warps only
    {{{1, 8}, {32, 1}, {4, 1}, {0, 1}}, {128, 8}}, // axis 1 inside each thread
    {{{2, 2}, {2, 16}, {2, 4}, {1, 0}}, {8, 64}},  // 8 warps, both axes across threads
    {{{4, 1}, {1, 32}, {1, 1}, {1, 0}}, {4, 32}},  // one warp; axis 0 inside each thread
};

struct Combine {
  std::string name, elem, op, identity;
};

const Combine kCombines[] = {
    {"sum_i32", "i32", "arith.addi", "0"},
    {"max_i32", "i32", "arith.maxsi", "-2147483648"},
    {"min_i32", "i32", "arith.minsi", "2147483647"},
    {"sum_f32", "f32", "arith.addf", "0.0"},
    {"max_f32", "f32", "arith.maximumf", "0xFF800000"},
    {"min_f32", "f32", "arith.minimumf", "0x7F800000"},
};

/// `%r = hd.reduce(src) axis = A { combine }` with a single operand.
std::string reduce(KernelBuilder &k, const std::string &src, const std::string &srcType, int axis,
                   const std::string &resultType, const std::string &elem, const std::string &op) {
  std::string a = k.fresh(), b = k.fresh();
  std::string r = k.let("hd.reduce(" + src + ") axis = " + std::to_string(axis) + " : (" + srcType +
                        ") -> " + resultType + " {");
  k.line("^bb0(" + a + ": " + elem + ", " + b + ": " + elem + "):");
  std::string c = k.let(op + " " + a + ", " + b + " : " + elem);
  k.line("hd.yield " + c + " : " + elem);
  k.line("}");
  return r;
}

/// A rows x cols row-major matrix, one tile of the layout per program along
/// the kept axis; the reduced axis fits in one tile (masked to its length).
struct MatrixTile {
  std::string values, keptOffsets, keptMask, resultLayout;
};

MatrixTile loadForReduction(KernelBuilder &k, const Layout2D &c, const std::string &l, int axis,
                            const std::string &in, const std::string &elem,
                            const std::string &identity, const std::string &rows,
                            const std::string &cols) {
  const int m = c.shape[0], n = c.shape[1];
  std::string start = k.let("arith.muli " + k.let("hd.program_id 0") + ", " +
                            k.constI32(axis == 1 ? m : n) + " : i32");
  std::string zero = k.constI32(0);
  auto t = axis == 1 ? k.tile2d(c.shape, l, start, zero, cols, rows, cols)
                     : k.tile2d(c.shape, l, zero, start, cols, rows, cols);
  std::string full = tensor(c.shape, elem, l);
  std::string other = k.let("arith.constant dense<" + identity + "> : " + full);
  MatrixTile r;
  r.values = k.let("hd.load " + k.pointers(in, elem, t.offsets, c.shape, l) + " mask " + t.mask +
                   " other " + other + " : " + tensor(c.shape, "!hd.ptr<" + elem + ">", l));
  // The result is indexed by the kept dimension, in the slice along `axis`.
  r.resultLayout = axis == 1 ? l + "_r" : l + "_c";
  auto kept = k.tile1d(axis == 1 ? m : n, r.resultLayout, start, axis == 1 ? rows : cols);
  r.keptOffsets = kept.offsets;
  r.keptMask = kept.mask;
  return r;
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
  KernelBuilder k("reduce", c.layout.numWarps());
  std::string l = k.layout("l", c.layout.str(S.lanes));
  std::string in = k.arg("!hd.ptr<" + comb.elem + ">"), out = k.arg("!hd.ptr<" + comb.elem + ">");
  std::string rows = k.arg("i32"), cols = k.arg("i32");
  MatrixTile t = loadForReduction(k, c, l, axis, in, comb.elem, comb.identity, rows, cols);
  std::string rt = tensor({keptTile}, comb.elem, t.resultLayout);
  std::string r = reduce(k, t.values, tensor(c.shape, comb.elem, l), axis, rt, comb.elem, comb.op);
  k.line("hd.store " + k.pointers(out, comb.elem, t.keptOffsets, {keptTile}, t.resultLayout) + ", " +
         r + " mask " + t.keptMask + " : " +
         tensor({keptTile}, "!hd.ptr<" + comb.elem + ">", t.resultLayout));
  Program p;
  int kid = p.add(k);
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
    ::testing::Combine(::testing::ValuesIn(kCombines), ::testing::ValuesIn(kLayouts),
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
  KernelBuilder k("argmax", c.layout.numWarps());
  std::string l = k.layout("l", c.layout.str(S.lanes));
  std::string in = k.arg("!hd.ptr<f32>"), outV = k.arg("!hd.ptr<f32>"), outI = k.arg("!hd.ptr<i32>");
  std::string rows = k.arg("i32"), cols = k.arg("i32");
  MatrixTile t = loadForReduction(k, c, l, axis, in, "f32", "0xFF800000", rows, cols);
  // The index along the reduced axis, broadcast over the tile.
  const std::string sliced = axis == 1 ? l + "_c" : l + "_r";
  const int len = c.shape[axis];
  std::string idx = k.let("hd.arange 0 to " + std::to_string(len) + " : " +
                          tensor({len}, "i32", sliced));
  std::vector<int> one = axis == 1 ? std::vector<int>{1, n} : std::vector<int>{m, 1};
  std::string idx2 = k.let("hd.expand_dims " + idx + " axis = " + std::to_string(1 - axis) + " : " +
                           tensor({len}, "i32", sliced) + " -> " + tensor(one, "i32", l));
  std::string idxFull = k.let("hd.broadcast " + idx2 + " : " + tensor(one, "i32", l) + " -> " +
                              tensor(c.shape, "i32", l));
  std::string vt = tensor({keptTile}, "f32", t.resultLayout);
  std::string it = tensor({keptTile}, "i32", t.resultLayout);
  std::string av = k.fresh(), ai = k.fresh(), bv = k.fresh(), bi = k.fresh();
  auto res = k.letMany(2, "hd.reduce(" + t.values + ", " + idxFull + ") axis = " +
                              std::to_string(axis) + " : (" + tensor(c.shape, "f32", l) + ", " +
                              tensor(c.shape, "i32", l) + ") -> (" + vt + ", " + it + ") {");
  k.line("^bb0(" + av + ": f32, " + ai + ": i32, " + bv + ": f32, " + bi + ": i32):");
  std::string gt = k.let("arith.cmpf ogt, " + bv + ", " + av + " : f32");
  std::string eq = k.let("arith.cmpf oeq, " + bv + ", " + av + " : f32");
  std::string lower = k.let("arith.cmpi slt, " + bi + ", " + ai + " : i32");
  std::string tie = k.let("arith.andi " + eq + ", " + lower + " : i1");
  std::string take = k.let("arith.ori " + gt + ", " + tie + " : i1");
  std::string v = k.let("arith.select " + take + ", " + bv + ", " + av + " : f32");
  std::string i = k.let("arith.select " + take + ", " + bi + ", " + ai + " : i32");
  k.line("hd.yield " + v + ", " + i + " : f32, i32");
  k.line("}");
  k.line("hd.store " + k.pointers(outV, "f32", t.keptOffsets, {keptTile}, t.resultLayout) + ", " +
         res[0] + " mask " + t.keptMask + " : " +
         tensor({keptTile}, "!hd.ptr<f32>", t.resultLayout));
  k.line("hd.store " + k.pointers(outI, "i32", t.keptOffsets, {keptTile}, t.resultLayout) + ", " +
         res[1] + " mask " + t.keptMask + " : " +
         tensor({keptTile}, "!hd.ptr<i32>", t.resultLayout));
  Program p;
  int kid = p.add(k);
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
    ::testing::Combine(::testing::Values(kLayouts[0], kLayouts[2], kLayouts[3]),
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
  KernelBuilder k("reduce1d", c.layout.numWarps());
  std::string l = k.layout("l", c.layout.str(S.lanes));
  std::string in = k.arg("!hd.ptr<i32>"), sums = k.arg("!hd.ptr<i32>"), maxs = k.arg("!hd.ptr<i32>");
  std::string n = k.arg("i32");
  std::string pid = k.let("hd.program_id 0");
  std::string start = k.let("arith.muli " + pid + ", " + k.constI32(c.block) + " : i32");
  auto t = k.tile1d(c.block, l, start, n);
  std::string tt = tensor({c.block}, "i32", l);
  std::string zero = k.let("arith.constant dense<0> : " + tt);
  std::string x = k.let("hd.load " + k.pointers(in, "i32", t.offsets, {c.block}, l) + " mask " +
                        t.mask + " other " + zero + " : " + tensor({c.block}, "!hd.ptr<i32>", l));
  std::string s = reduce(k, x, tt, 0, "i32", "i32", "arith.addi");
  // The max over a masked tile: masked-off elements take INT_MIN first.
  std::string lowest = k.let("arith.constant dense<-2147483648> : " + tt);
  std::string xm = k.let("arith.select " + t.mask + ", " + x + ", " + lowest + " : " +
                         tensor({c.block}, "i1", l) + ", " + tt);
  std::string mx = reduce(k, xm, tt, 0, "i32", "i32", "arith.maxsi");
  k.line("hd.store " + k.let("hd.addptr " + sums + ", " + pid + " : !hd.ptr<i32>, i32") + ", " + s +
         " : !hd.ptr<i32>");
  k.line("hd.store " + k.let("hd.addptr " + maxs + ", " + pid + " : !hd.ptr<i32>, i32") + ", " + mx +
         " : !hd.ptr<i32>");
  Program p;
  int kid = p.add(k);
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

const Layout1D kLayouts1D[] = {
    {{{4}, {32}, {4}, {0}}, 512},
    {{{1}, {32}, {8}, {0}}, 1024},
    {{{2}, {32}, {1}, {0}}, 64},
};

INSTANTIATE_TEST_SUITE_P(Layouts, ReduceToScalar, ::testing::ValuesIn(kLayouts1D),
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
  KernelBuilder k("scan", c.layout.numWarps());
  std::string l = k.layout("l", c.layout.str(S.lanes));
  std::string in = k.arg("!hd.ptr<i32>"), out = k.arg("!hd.ptr<i32>");
  std::string rows = k.arg("i32"), cols = k.arg("i32");
  std::string start = k.let("arith.muli " + k.let("hd.program_id 0") + ", " +
                            k.constI32(axis == 1 ? m : n) + " : i32");
  std::string zero = k.constI32(0);
  auto t = axis == 1 ? k.tile2d(c.shape, l, start, zero, cols, rows, cols)
                     : k.tile2d(c.shape, l, zero, start, cols, rows, cols);
  std::string tt = tensor(c.shape, "i32", l), pt = tensor(c.shape, "!hd.ptr<i32>", l);
  std::string x = k.let("hd.load " + k.pointers(in, "i32", t.offsets, c.shape, l) + " mask " + t.mask +
                        " other " + k.let("arith.constant dense<0> : " + tt) + " : " + pt);
  std::string a = k.fresh(), b = k.fresh();
  std::string s = k.let("hd.scan(" + x + ") axis = " + std::to_string(axis) + " reverse = " +
                        (reverse ? "true" : "false") + " : (" + tt + ") -> " + tt + " {");
  k.line("^bb0(" + a + ": i32, " + b + ": i32):");
  k.line("hd.yield " + k.let("arith.addi " + a + ", " + b + " : i32") + " : i32");
  k.line("}");
  k.line("hd.store " + k.pointers(out, "i32", t.offsets, c.shape, l) + ", " + s + " mask " + t.mask +
         " : " + pt);
  Program p;
  int kid = p.add(k);
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
    ::testing::Combine(::testing::Values(kLayouts[0], kLayouts[2], kLayouts[3], kLayouts[4]),
                       ::testing::Values(0, 1), ::testing::Bool()),
    [](const auto &info) {
      return std::get<0>(info.param).name() + "_axis" + std::to_string(std::get<1>(info.param)) +
             (std::get<2>(info.param) ? "_reverse" : "_forward");
    });

} // namespace
} // namespace hadron::e2e
