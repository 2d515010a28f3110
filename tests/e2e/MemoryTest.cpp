//===- MemoryTest.cpp - Program ids, creation ops and global memory -------===//
//
// program_id / num_programs on 1-, 2- and 3-D grids; arange and splat;
// addptr (contiguous, gathered, scattered, chained, scalar); load/store with
// masks, `other` and tails in 1-D and 2-D tiles; every cache and eviction
// hint. The kernels are the kernel library's (tests/kernels/Memory.h,
// written with the C++ builder and built at build time for every warp size).
//
//===----------------------------------------------------------------------===//

#include "E2E.h"
#include "kernels/Memory.h"

namespace hadron::e2e {
namespace {

using runtime::arg::i32;

/// The library's kernel of `use` for this session's lane count.
int addKernel(Program &p, const kernels::KernelUse &use) {
  return p.addBuilt(use.key(session().lanes), use.kernel);
}

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
  Program p;
  int kid = addKernel(p, kernels::e2ememory::ids(c.numWarps));
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

std::vector<Layout1D> layouts1d() {
  std::vector<Layout1D> l;
  for (const auto &[layout, block] : kernels::e2eMemoryLayouts())
    l.push_back({layout, block});
  return l;
}

/// dst[i] = src[i] for i < n, fill for n <= i < nOut; nothing past nOut.
/// `hints`: the cache hints of the load and the store
/// (kernels::e2eCacheHints()), "" for none.
template <typename T>
void maskedCopy(const Layout1D &c, const std::string &hints, std::mt19937_64 &rng) {
  Program p;
  int kid = addKernel(p, kernels::e2ememory::maskedCopy(c.layout, c.block, elemOf<T>(), hints));
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
  maskedCopy<float>(GetParam(), "", rng);
}
TEST_P(MaskedCopy, I64) {
  E2E_BEGIN();
  maskedCopy<int64_t>(GetParam(), "", rng);
}
TEST_P(MaskedCopy, F16) {
  E2E_BEGIN();
  maskedCopy<Half>(GetParam(), "", rng);
}
TEST_P(MaskedCopy, I8) {
  E2E_BEGIN();
  maskedCopy<int8_t>(GetParam(), "", rng);
}
TEST_P(MaskedCopy, F64) {
  E2E_BEGIN();
  maskedCopy<double>(GetParam(), "", rng);
}

INSTANTIATE_TEST_SUITE_P(Layouts, MaskedCopy, ::testing::ValuesIn(layouts1d()),
                         [](const auto &info) { return info.param.name(); });

class CacheHints : public ::testing::TestWithParam<std::string> {};

// Hints change how memory is reached, never what is read or written.
TEST_P(CacheHints, CopyIsUnchanged) {
  E2E_BEGIN();
  maskedCopy<float>(layouts1d()[1], GetParam(), rng);
}

INSTANTIATE_TEST_SUITE_P(Hints, CacheHints, ::testing::ValuesIn(kernels::e2eCacheHints()),
                         [](const auto &info) { return info.param; });

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

std::vector<Layout2D> layouts2d() {
  std::vector<Layout2D> l;
  for (const auto &[layout, tile] : kernels::e2eCopy2dLayouts())
    l.push_back({layout, tile});
  return l;
}

class Copy2D : public ::testing::TestWithParam<Layout2D> {};

// out[r][c] = in[r][c] * 2 + r for r < rows, c < cols, both row-major with
// their own leading dimensions; the padding columns of `out` stay poisoned.
TEST_P(Copy2D, MaskedTilesWithTails) {
  E2E_BEGIN();
  const Layout2D &c = GetParam();
  Program p;
  int kid = addKernel(p, kernels::e2ememory::copy2d(c.layout, c.shape));
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

INSTANTIATE_TEST_SUITE_P(Layouts, Copy2D, ::testing::ValuesIn(layouts2d()),
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
  Program p;
  int kid = addKernel(p, kernels::e2ememory::gather(c.layout, c.block));
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
  Program p;
  int kid = addKernel(p, kernels::e2ememory::copy64(c.layout, c.block));
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

INSTANTIATE_TEST_SUITE_P(Layouts, AddPtr, ::testing::ValuesIn(layouts1d()),
                         [](const auto &info) { return info.param.name(); });

//===----------------------------------------------------------------------===//
// Scalar loads and stores, and splat of loaded scalars
//===----------------------------------------------------------------------===//

// Each program loads one scalar (a masked scalar load with `other` too) and
// broadcasts it into its tile: out[pid * 64 + i] = a[pid] + (pid < k ? b[pid]
// : -1).
TEST(ScalarMemory, ScalarLoadsSplatIntoTiles) {
  E2E_BEGIN();
  Program p;
  int kid = addKernel(p, kernels::e2ememory::scalars());
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
