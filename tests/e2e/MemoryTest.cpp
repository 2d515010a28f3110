//===- MemoryTest.cpp - Program ids, creation ops and global memory -------===//
//
// program_id / num_programs on 1-, 2- and 3-D grids; arange and splat;
// addptr (contiguous, gathered, scattered, chained, scalar); load/store with
// masks, `other` and tails in 1-D and 2-D tiles; every cache and eviction
// hint.
//
//===----------------------------------------------------------------------===//

#include "E2E.h"

namespace hadron::e2e {
namespace {

using runtime::arg::i32;

//===----------------------------------------------------------------------===//
// Program ids
//===----------------------------------------------------------------------===//

struct GridCase {
  std::array<uint32_t, 3> grid;
  int numWarps;
  std::string name() const {
    return "grid" + std::to_string(grid[0]) + "x" + std::to_string(grid[1]) + "x" +
           std::to_string(grid[2]) + "_nw" + std::to_string(numWarps);
  }
};

class ProgramIds : public ::testing::TestWithParam<GridCase> {};

// Each program writes its ids and the grid's extents as scalars, and a tile
// of lin * 1000 + i in a 1-D layout of num_warps warps (128 elements: fewer
// than the CTA tile at 8 warps, so lanes replicate and store the same
// values).
TEST_P(ProgramIds, EveryProgramSeesItsIdsAndTheGrid) {
  E2E_BEGIN();
  const GridCase &c = GetParam();
  constexpr int kTile = 128, kScalars = 8;
  KernelBuilder k("ids", c.numWarps);
  std::string l = k.layout("l", Blocked{{1}, {32}, {c.numWarps}, {0}}.str(S.lanes));
  std::string ids = k.arg("!hd.ptr<i32>"), tile = k.arg("!hd.ptr<i32>");
  std::string pid[3], num[3];
  for (int a = 0; a < 3; ++a) {
    pid[a] = k.let("hd.program_id " + std::to_string(a));
    num[a] = k.let("hd.num_programs " + std::to_string(a));
  }
  // lin = pid0 + num0 * (pid1 + num1 * pid2)
  std::string t = k.let("arith.muli " + num[1] + ", " + pid[2] + " : i32");
  t = k.let("arith.addi " + pid[1] + ", " + t + " : i32");
  t = k.let("arith.muli " + num[0] + ", " + t + " : i32");
  std::string lin = k.let("arith.addi " + pid[0] + ", " + t + " : i32");
  std::string base = k.let("arith.muli " + lin + ", " + k.constI32(kScalars) + " : i32");
  const std::string values[6] = {pid[0], pid[1], pid[2], num[0], num[1], num[2]};
  for (int i = 0; i < 6; ++i) {
    std::string off = k.let("arith.addi " + base + ", " + k.constI32(i) + " : i32");
    std::string p = k.let("hd.addptr " + ids + ", " + off + " : !hd.ptr<i32>, i32");
    k.line("hd.store " + p + ", " + values[i] + " : !hd.ptr<i32>");
  }
  std::string tt = tensor({kTile}, "i32", l);
  std::string start = k.let("arith.muli " + lin + ", " + k.constI32(kTile) + " : i32");
  auto r = k.tile1d(kTile, l, start, "");
  std::string thousand = k.let("arith.muli " + lin + ", " + k.constI32(1000) + " : i32");
  std::string range = k.let("hd.arange 0 to " + std::to_string(kTile) + " : " + tt);
  std::string v = k.let("arith.addi " + k.splat(thousand, tt) + ", " + range + " : " + tt);
  std::string ptrs = k.pointers(tile, "i32", r.offsets, {kTile}, l);
  k.line("hd.store " + ptrs + ", " + v + " : " + tensor({kTile}, "!hd.ptr<i32>", l));

  Program p;
  int kid = p.add(k);
  E2E_READY(p);
  const uint32_t programs = c.grid[0] * c.grid[1] * c.grid[2];
  auto outIds = p.output<int32_t>(programs * kScalars);
  auto outTile = p.output<int32_t>(programs * kTile + 16);
  E2E_LAUNCH(p, kid, c.grid, {outIds.arg(), outTile.arg()}, {io(outIds), io(outTile)});

  std::vector<int32_t> wantIds(programs * kScalars, poisonValue<int32_t>()),
      wantTile(programs * kTile);
  for (uint32_t z = 0; z < c.grid[2]; ++z)
    for (uint32_t y = 0; y < c.grid[1]; ++y)
      for (uint32_t x = 0; x < c.grid[0]; ++x) {
        uint32_t l = x + c.grid[0] * (y + c.grid[1] * z);
        int32_t row[6] = {int32_t(x), int32_t(y), int32_t(z), int32_t(c.grid[0]),
                          int32_t(c.grid[1]), int32_t(c.grid[2])};
        std::copy(row, row + 6, wantIds.begin() + l * kScalars);
        for (int i = 0; i < kTile; ++i)
          wantTile[l * kTile + i] = int32_t(l) * 1000 + i;
      }
  expectExact(outIds.host(), wantIds, "ids and extents");
  expectExact(outTile.host(), wantTile, "per-program tiles");
  expectPoisoned(outTile.host(), programs * kTile, outTile.size(), "tile tail");
}

INSTANTIATE_TEST_SUITE_P(Grids, ProgramIds,
                         ::testing::Values(GridCase{{1, 1, 1}, 1}, GridCase{{7, 1, 1}, 4},
                                           GridCase{{3, 5, 1}, 4}, GridCase{{2, 3, 4}, 8},
                                           GridCase{{1, 1, 5}, 1}, GridCase{{4, 1, 3}, 8},
                                           GridCase{{1, 6, 1}, 1}),
                         [](const auto &info) { return info.param.name(); });

//===----------------------------------------------------------------------===//
// 1-D masked copies with `other` and a tail
//===----------------------------------------------------------------------===//

struct Layout1D {
  Blocked layout;
  int block; ///< Elements per program.
  std::string name() const { return layout.name() + "_b" + std::to_string(block); }
};

const Layout1D kLayouts1D[] = {
    {{{1}, {32}, {1}, {0}}, 256},  // one warp, the tile repeats 8 times
    {{{4}, {32}, {4}, {0}}, 1024}, // 16-byte vectors per thread
    {{{2}, {32}, {8}, {0}}, 512},  // exactly one CTA tile
    {{{8}, {32}, {2}, {0}}, 1024}, // wide registers
    {{{1}, {32}, {8}, {0}}, 128},  // smaller than the CTA tile: replicated
};

template <typename T> struct ElemName;
template <> struct ElemName<float> { static constexpr const char *ir = "f32"; };
template <> struct ElemName<double> { static constexpr const char *ir = "f64"; };
template <> struct ElemName<int32_t> { static constexpr const char *ir = "i32"; };
template <> struct ElemName<int64_t> { static constexpr const char *ir = "i64"; };
template <> struct ElemName<int8_t> { static constexpr const char *ir = "i8"; };
template <> struct ElemName<int16_t> { static constexpr const char *ir = "i16"; };
template <> struct ElemName<Half> { static constexpr const char *ir = "f16"; };

/// dst[i] = src[i] for i < n, fill for n <= i < nOut; nothing past nOut.
/// `loadAttrs` / `storeAttrs` are the ops' attribute dictionaries.
template <typename T>
void maskedCopy(const Layout1D &c, const std::string &loadAttrs, const std::string &storeAttrs,
                std::mt19937_64 &rng) {
  Session &S = session();
  const std::string e = ElemName<T>::ir;
  KernelBuilder k("masked_copy", c.layout.numWarps());
  std::string l = k.layout("l", c.layout.str(S.lanes));
  std::string src = k.arg("!hd.ptr<" + e + ">", "{hd.divisibility = 16 : i32}");
  std::string dst = k.arg("!hd.ptr<" + e + ">", "{hd.divisibility = 16 : i32}");
  std::string n = k.arg("i32"), nOut = k.arg("i32"), fill = k.arg(e);
  std::string start =
      k.let("arith.muli " + k.let("hd.program_id 0") + ", " + k.constI32(c.block) + " : i32");
  auto in = k.tile1d(c.block, l, start, n);
  std::string outMask = k.let("arith.cmpi slt, " + in.offsets + ", " +
                              k.splat(nOut, tensor({c.block}, "i32", l)) + " : " +
                              tensor({c.block}, "i32", l));
  std::string other = k.splat(fill, tensor({c.block}, e, l));
  std::string pt = tensor({c.block}, "!hd.ptr<" + e + ">", l);
  std::string sp = k.pointers(src, e, in.offsets, {c.block}, l);
  std::string x = k.let("hd.load " + sp + " mask " + in.mask + " other " + other + " " +
                        loadAttrs + " : " + pt);
  std::string dp = k.pointers(dst, e, in.offsets, {c.block}, l);
  k.line("hd.store " + dp + ", " + x + " mask " + outMask + " " + storeAttrs + " : " + pt);

  Program p;
  int kid = p.add(k);
  E2E_READY(p);
  const int count = tailSize(rng, c.block, 5 * c.block);
  const int countOut = count + std::uniform_int_distribution<int>(0, c.block + 7)(rng);
  const uint32_t grid = ceilDiv(countOut, c.block);
  std::vector<T> input = randomVector<T>(rng, count, -1000, 1000);
  T fillValue = randomVector<T>(rng, 1, -1000, 1000)[0];
  auto bin = p.input(input);
  auto bout = p.output<T>(grid * c.block + 32);
  E2E_LAUNCH(p, kid, {grid, 1, 1}, {bin.arg(), bout.arg(), i32(count), i32(countOut), scalarArg(fillValue)},
             {io(bout)});
  std::vector<T> want(countOut, fillValue);
  std::copy(input.begin(), input.end(), want.begin());
  SCOPED_TRACE("n = " + std::to_string(count) + ", n_out = " + std::to_string(countOut));
  expectExact(bout.host(), want, "copied and filled elements");
  expectPoisoned(bout.host(), countOut, bout.size(), "past n_out");
}

class MaskedCopy : public ::testing::TestWithParam<Layout1D> {};

TEST_P(MaskedCopy, F32) {
  E2E_BEGIN();
  maskedCopy<float>(GetParam(), "", "", rng);
}
TEST_P(MaskedCopy, I64) {
  E2E_BEGIN();
  maskedCopy<int64_t>(GetParam(), "", "", rng);
}
TEST_P(MaskedCopy, F16) {
  E2E_BEGIN();
  maskedCopy<Half>(GetParam(), "", "", rng);
}
TEST_P(MaskedCopy, I8) {
  E2E_BEGIN();
  maskedCopy<int8_t>(GetParam(), "", "", rng);
}
TEST_P(MaskedCopy, F64) {
  E2E_BEGIN();
  maskedCopy<double>(GetParam(), "", "", rng);
}

INSTANTIATE_TEST_SUITE_P(Layouts, MaskedCopy, ::testing::ValuesIn(kLayouts1D),
                         [](const auto &info) { return info.param.name(); });

struct HintCase {
  std::string label, load, store;
  std::string name() const { return label; }
};

class CacheHints : public ::testing::TestWithParam<HintCase> {};

// Hints change how memory is reached, never what is read or written.
TEST_P(CacheHints, CopyIsUnchanged) {
  E2E_BEGIN();
  const HintCase &h = GetParam();
  auto dict = [](const std::string &s) { return s.empty() ? std::string() : "{" + s + "}"; };
  maskedCopy<float>(kLayouts1D[1], dict(h.load), dict(h.store), rng);
}

INSTANTIATE_TEST_SUITE_P(
    Hints, CacheHints,
    ::testing::Values(
        HintCase{"cache_all__write_back", "cache = #hd.cache<cache_all>",
                 "cache = #hd.cache<write_back>"},
        HintCase{"cache_global__write_through", "cache = #hd.cache<cache_global>",
                 "cache = #hd.cache<write_through>"},
        HintCase{"streaming_evict_first__both",
                 "cache = #hd.cache<streaming>, evict = #hd.evict<evict_first>",
                 "cache = #hd.cache<streaming>, evict = #hd.evict<evict_first>"},
        HintCase{"no_cache__evict_last", "cache = #hd.cache<no_cache>",
                 "evict = #hd.evict<evict_last>"},
        HintCase{"evict_last__cache_global", "evict = #hd.evict<evict_last>",
                 "cache = #hd.cache<cache_global>"},
        HintCase{"volatile_load", "isVolatile", ""}),
    [](const auto &info) { return info.param.name(); });

//===----------------------------------------------------------------------===//
// 2-D tiles with row and column masks
//===----------------------------------------------------------------------===//

struct Layout2D {
  Blocked layout;
  std::vector<int> shape; ///< The tile each program handles.
  std::string name() const {
    return layout.name() + "_" + std::to_string(shape[0]) + "x" + std::to_string(shape[1]);
  }
};

const Layout2D kLayouts2D[] = {
    {{{1, 4}, {4, 8}, {4, 1}, {1, 0}}, {16, 64}},  // rows of 16-byte vectors
    {{{4, 1}, {8, 4}, {1, 4}, {0, 1}}, {32, 16}},  // column-major threads
    {{{2, 2}, {2, 16}, {2, 4}, {1, 0}}, {8, 128}}, // 8 warps, 2x4
    {{{1, 1}, {32, 1}, {1, 1}, {0, 1}}, {64, 8}},  // one warp down the rows
    {{{1, 4}, {1, 32}, {8, 1}, {1, 0}}, {8, 128}}, // a warp per row
    {{{2, 1}, {4, 8}, {1, 1}, {0, 1}}, {16, 16}},  // tile smaller than a warp's reach
};

class Copy2D : public ::testing::TestWithParam<Layout2D> {};

// out[r][c] = in[r][c] * 2 + r for r < rows, c < cols, both row-major with
// their own leading dimensions; the padding columns of `out` stay poisoned.
TEST_P(Copy2D, MaskedTilesWithTails) {
  E2E_BEGIN();
  const Layout2D &c = GetParam();
  KernelBuilder k("copy2d", c.layout.numWarps());
  std::string l = k.layout("l", c.layout.str(S.lanes));
  std::string in = k.arg("!hd.ptr<i32>"), out = k.arg("!hd.ptr<i32>");
  std::string rows = k.arg("i32"), cols = k.arg("i32"), ldIn = k.arg("i32"), ldOut = k.arg("i32");
  std::string r0 = k.let("arith.muli " + k.let("hd.program_id 0") + ", " +
                         k.constI32(c.shape[0]) + " : i32");
  std::string c0 = k.let("arith.muli " + k.let("hd.program_id 1") + ", " +
                         k.constI32(c.shape[1]) + " : i32");
  auto ti = k.tile2d(c.shape, l, r0, c0, ldIn, rows, cols);
  auto to = k.tile2d(c.shape, l, r0, c0, ldOut, rows, cols);
  std::string tt = tensor(c.shape, "i32", l), pt = tensor(c.shape, "!hd.ptr<i32>", l);
  std::string x = k.let("hd.load " + k.pointers(in, "i32", ti.offsets, c.shape, l) + " mask " +
                        ti.mask + " : " + pt);
  // The row index again, from the offsets: (offset - col) / ld is r.
  std::string rowsIdx = k.let("arith.divsi " + ti.offsets + ", " + k.splat(ldIn, tt) + " : " + tt);
  std::string y = k.let("arith.addi " + k.let("arith.addi " + x + ", " + x + " : " + tt) + ", " +
                        rowsIdx + " : " + tt);
  k.line("hd.store " + k.pointers(out, "i32", to.offsets, c.shape, l) + ", " + y + " mask " +
         to.mask + " : " + pt);

  Program p;
  int kid = p.add(k);
  E2E_READY(p);
  const int m = tailSize(rng, c.shape[0], 3 * c.shape[0]);
  const int n = tailSize(rng, c.shape[1], 3 * c.shape[1]);
  const int ldi = n + std::uniform_int_distribution<int>(0, 5)(rng), ldo = n + 3;
  std::vector<int32_t> xs = randomVector<int32_t>(rng, m * ldi, -100000, 100000);
  auto bin = p.input(xs);
  auto bout = p.output<int32_t>(m * ldo);
  E2E_LAUNCH(p, kid, {ceilDiv(m, c.shape[0]), ceilDiv(n, c.shape[1]), 1},
             {bin.arg(), bout.arg(), i32(m), i32(n), i32(ldi), i32(ldo)}, {io(bout)});
  std::vector<int32_t> want(m * ldo, poisonValue<int32_t>());
  for (int r = 0; r < m; ++r)
    for (int j = 0; j < n; ++j)
      want[r * ldo + j] = xs[r * ldi + j] * 2 + r;
  SCOPED_TRACE(std::to_string(m) + "x" + std::to_string(n));
  expectExact(bout.host(), want, "out (padding columns must stay poisoned)");
}

INSTANTIATE_TEST_SUITE_P(Layouts, Copy2D, ::testing::ValuesIn(kLayouts2D),
                         [](const auto &info) { return info.param.name(); });

//===----------------------------------------------------------------------===//
// addptr
//===----------------------------------------------------------------------===//

class AddPtr : public ::testing::TestWithParam<Layout1D> {};

// A gather through computed offsets, pointers advanced twice (once by a
// negative amount), a scatter to reversed positions and a scalar pointer
// advanced before the splat: out[n - 1 - i] = in[(i * 7 + 3) % n] for i < n.
TEST_P(AddPtr, GatherScatterAndChains) {
  E2E_BEGIN();
  const Layout1D &c = GetParam();
  KernelBuilder k("gather", c.layout.numWarps());
  std::string l = k.layout("l", c.layout.str(S.lanes));
  std::string in = k.arg("!hd.ptr<f32>"), out = k.arg("!hd.ptr<f32>"), n = k.arg("i32");
  std::string tt = tensor({c.block}, "i32", l), pt = tensor({c.block}, "!hd.ptr<f32>", l);
  std::string start =
      k.let("arith.muli " + k.let("hd.program_id 0") + ", " + k.constI32(c.block) + " : i32");
  auto t = k.tile1d(c.block, l, start, n);
  std::string src = k.let("arith.remsi " +
                          k.let("arith.addi " +
                                k.let("arith.muli " + t.offsets + ", " +
                                      k.let("arith.constant dense<7> : " + tt) + " : " + tt) +
                                ", " + k.let("arith.constant dense<3> : " + tt) + " : " + tt) +
                          ", " + k.splat(n, tt) + " : " + tt);
  // in + 5 + (src - 5), as two addptrs.
  std::string five = k.let("arith.constant dense<5> : " + tt);
  std::string p1 = k.let("hd.addptr " + k.splat(in, pt) + ", " + five + " : " + pt + ", " + tt);
  std::string p2 = k.let("hd.addptr " + p1 + ", " +
                         k.let("arith.subi " + src + ", " + five + " : " + tt) + " : " + pt +
                         ", " + tt);
  std::string x = k.let("hd.load " + p2 + " mask " + t.mask + " : " + pt);
  // out + (n - 1) as a scalar, then minus i per element.
  std::string last = k.let("arith.subi " + n + ", " + k.constI32(1) + " : i32");
  std::string outLast = k.let("hd.addptr " + out + ", " + last + " : !hd.ptr<f32>, i32");
  std::string neg = k.let("arith.subi " + k.let("arith.constant dense<0> : " + tt) + ", " +
                          t.offsets + " : " + tt);
  std::string dst = k.let("hd.addptr " + k.splat(outLast, pt) + ", " + neg + " : " + pt + ", " + tt);
  k.line("hd.store " + dst + ", " + x + " mask " + t.mask + " : " + pt);

  Program p;
  int kid = p.add(k);
  E2E_READY(p);
  const int count = tailSize(rng, c.block, 4 * c.block);
  std::vector<float> xs = randomVector<float>(rng, count, -1, 1);
  auto bin = p.input(xs);
  auto bout = p.output<float>(count + 8);
  E2E_LAUNCH(p, kid, {ceilDiv(count, c.block), 1, 1}, {bin.arg(), bout.arg(), i32(count)},
             {io(bout)});
  std::vector<float> want(count);
  for (int i = 0; i < count; ++i)
    want[count - 1 - i] = xs[(int64_t(i) * 7 + 3) % count];
  expectExact(bout.host(), want, "gathered and scattered");
  expectPoisoned(bout.host(), count, bout.size(), "past n");
}

// Offsets in i64: a 64-bit index reaches the same elements.
TEST_P(AddPtr, SixtyFourBitOffsets) {
  E2E_BEGIN();
  const Layout1D &c = GetParam();
  KernelBuilder k("copy64", c.layout.numWarps());
  std::string l = k.layout("l", c.layout.str(S.lanes));
  std::string in = k.arg("!hd.ptr<i32>"), out = k.arg("!hd.ptr<i32>"), n = k.arg("i64");
  std::string t32 = tensor({c.block}, "i32", l), t64 = tensor({c.block}, "i64", l);
  std::string pt = tensor({c.block}, "!hd.ptr<i32>", l);
  std::string pid = k.let("arith.extsi " + k.let("hd.program_id 0") + " : i32 to i64");
  std::string start = k.let("arith.muli " + pid + ", " +
                            k.let("arith.constant " + std::to_string(c.block) + " : i64") +
                            " : i64");
  std::string range = k.let("arith.extsi " + k.let("hd.arange 0 to " + std::to_string(c.block) +
                                                   " : " + t32) +
                            " : " + t32 + " to " + t64);
  std::string offs = k.let("arith.addi " + k.splat(start, t64) + ", " + range + " : " + t64);
  std::string mask = k.let("arith.cmpi slt, " + offs + ", " + k.splat(n, t64) + " : " + t64);
  std::string ip = k.let("hd.addptr " + k.splat(in, pt) + ", " + offs + " : " + pt + ", " + t64);
  std::string op = k.let("hd.addptr " + k.splat(out, pt) + ", " + offs + " : " + pt + ", " + t64);
  std::string x = k.let("hd.load " + ip + " mask " + mask + " : " + pt);
  k.line("hd.store " + op + ", " + x + " mask " + mask + " : " + pt);

  Program p;
  int kid = p.add(k);
  E2E_READY(p);
  const int count = tailSize(rng, c.block, 3 * c.block);
  std::vector<int32_t> xs = randomVector<int32_t>(rng, count, INT32_MIN, INT32_MAX);
  auto bin = p.input(xs);
  auto bout = p.output<int32_t>(count + 8);
  E2E_LAUNCH(p, kid, {ceilDiv(count, c.block), 1, 1},
             {bin.arg(), bout.arg(), runtime::arg::i64(count)}, {io(bout)});
  expectExact(bout.host(), xs, "copied");
  expectPoisoned(bout.host(), count, bout.size(), "past n");
}

INSTANTIATE_TEST_SUITE_P(Layouts, AddPtr, ::testing::ValuesIn(kLayouts1D),
                         [](const auto &info) { return info.param.name(); });

//===----------------------------------------------------------------------===//
// Scalar loads and stores, and splat of loaded scalars
//===----------------------------------------------------------------------===//

// Each program loads one scalar (a masked scalar load with `other` too) and
// broadcasts it into its tile: out[pid * 64 + i] = a[pid] + (pid < k ? b[pid]
// : -1).
TEST(ScalarMemory, ScalarLoadsSplatIntoTiles) {
  E2E_BEGIN();
  KernelBuilder k("scalars", 4);
  std::string l = k.layout("l", Blocked{{2}, {32}, {4}, {0}}.str(S.lanes));
  std::string a = k.arg("!hd.ptr<f32>"), b = k.arg("!hd.ptr<f32>"), out = k.arg("!hd.ptr<f32>");
  std::string lim = k.arg("i32");
  std::string pid = k.let("hd.program_id 0");
  std::string av = k.let("hd.load " + k.let("hd.addptr " + a + ", " + pid + " : !hd.ptr<f32>, i32") +
                         " : !hd.ptr<f32>");
  std::string inRange = k.let("arith.cmpi slt, " + pid + ", " + lim + " : i32");
  std::string minus1 = k.let("arith.constant -1.0 : f32");
  std::string bv = k.let("hd.load " + k.let("hd.addptr " + b + ", " + pid + " : !hd.ptr<f32>, i32") +
                         " mask " + inRange + " other " + minus1 + " : !hd.ptr<f32>");
  std::string s = k.let("arith.addf " + av + ", " + bv + " : f32");
  std::string tf = tensor({64}, "f32", l);
  std::string start = k.let("arith.muli " + pid + ", " + k.constI32(64) + " : i32");
  auto t = k.tile1d(64, l, start, "");
  k.line("hd.store " + k.pointers(out, "f32", t.offsets, {64}, l) + ", " + k.splat(s, tf) + " : " +
         tensor({64}, "!hd.ptr<f32>", l));

  Program p;
  int kid = p.add(k);
  E2E_READY(p);
  const int programs = 9, limit = 5;
  std::vector<float> ha = randomVector<float>(rng, programs, -10, 10);
  std::vector<float> hb = randomVector<float>(rng, limit, -10, 10);
  auto ba = p.input(ha), bb = p.input(hb);
  auto bout = p.output<float>(programs * 64);
  E2E_LAUNCH(p, kid, {programs, 1, 1}, {ba.arg(), bb.arg(), bout.arg(), i32(limit)}, {io(bout)});
  std::vector<float> want(programs * 64);
  for (int q = 0; q < programs; ++q)
    for (int i = 0; i < 64; ++i)
      want[q * 64 + i] = ha[q] + (q < limit ? hb[q] : -1.0f);
  expectExact(bout.host(), want, "tiles");
}

} // namespace
} // namespace hadron::e2e
