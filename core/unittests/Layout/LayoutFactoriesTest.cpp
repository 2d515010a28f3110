//===- LayoutFactoriesTest.cpp - GPU layouts as linear layouts ------------===//

#include "hadron/Layout/LayoutFactories.h"

#include <gtest/gtest.h>

#include <set>

namespace hadron {
namespace {

using Bases = std::vector<LinearLayout::Basis>;
using Point = LinearLayout::Point;

template <typename T> T ok(Result<T> result) {
  EXPECT_TRUE(result.ok()) << result.error();
  return result.ok() ? std::move(result).value() : T();
}

/// The distributed layout with these bases over a tensor of `shape`.
LinearLayout distributed(Bases registers, Bases lanes, Bases warps,
                         const std::vector<int32_t> &shape) {
  std::vector<LinearLayout::OutDim> outs;
  for (size_t d = 0; d < shape.size(); ++d)
    outs.push_back({"dim" + std::to_string(d), shape[d]});
  return ok(LinearLayout::create({{"register", std::move(registers)},
                                  {"lane", std::move(lanes)},
                                  {"warp", std::move(warps)},
                                  {"block", {}}},
                                 outs, /*requireSurjective=*/false));
}

// Error paths are checked by message: each names the argument and value.
#define EXPECT_ERROR(expr, substring)                                          \
  do {                                                                         \
    Result<LinearLayout> result_ = (expr);                                     \
    ASSERT_FALSE(result_.ok()) << "expected an error with: " << (substring);   \
    EXPECT_NE(result_.error().find(substring), std::string::npos)              \
        << result_.error();                                                    \
  } while (false)

//===----------------------------------------------------------------------===//
// Blocked
//===----------------------------------------------------------------------===//

TEST(BlockedLayoutTest, HeaderWorkedExample) {
  LinearLayout layout = ok(blockedLayout({8}, {2}, {4}, {1}, {0}));
  EXPECT_EQ(layout, distributed({{1}}, {{2}, {4}}, {}, {8}));
  EXPECT_EQ(ok(layout.apply(
                {{"register", 1}, {"lane", 3}, {"warp", 0}, {"block", 0}})),
            (Point{{"dim0", 7}}));
}

TEST(BlockedLayoutTest, OneDimExactTile) {
  // 4 registers * 32 lanes * 2 warps = 256: no repetition.
  EXPECT_EQ(
      ok(blockedLayout({256}, {4}, {32}, {2}, {0})),
      distributed({{1}, {2}}, {{4}, {8}, {16}, {32}, {64}}, {{128}}, {256}));
}

TEST(BlockedLayoutTest, OneDimRepeatsInRegisters) {
  // The tile covers 128 elements; the second copy is register bit 2.
  EXPECT_EQ(
      ok(blockedLayout({256}, {4}, {32}, {1}, {0})),
      distributed({{1}, {2}, {128}}, {{4}, {8}, {16}, {32}, {64}}, {}, {256}));
}

TEST(BlockedLayoutTest, TwoDimRowMajorOrder) {
  EXPECT_EQ(ok(blockedLayout({8, 8}, {2, 2}, {2, 2}, {2, 2}, {1, 0})),
            distributed({{0, 1}, {1, 0}}, {{0, 2}, {2, 0}}, {{0, 4}, {4, 0}},
                        {8, 8}));
}

TEST(BlockedLayoutTest, TwoDimColumnMajorOrder) {
  EXPECT_EQ(ok(blockedLayout({8, 8}, {2, 2}, {2, 2}, {2, 2}, {0, 1})),
            distributed({{1, 0}, {0, 1}}, {{2, 0}, {0, 2}}, {{4, 0}, {0, 4}},
                        {8, 8}));
}

TEST(BlockedLayoutTest, LanesAndWarpsInOrder) {
  LinearLayout rowMajor =
      ok(blockedLayout({4, 8}, {1, 2}, {2, 4}, {2, 1}, {1, 0}));
  EXPECT_EQ(rowMajor,
            distributed({{0, 1}}, {{0, 2}, {0, 4}, {1, 0}}, {{2, 0}}, {4, 8}));
  LinearLayout colMajor =
      ok(blockedLayout({4, 8}, {1, 2}, {2, 4}, {2, 1}, {0, 1}));
  EXPECT_EQ(colMajor,
            distributed({{0, 1}}, {{1, 0}, {0, 2}, {0, 4}}, {{2, 0}}, {4, 8}));
}

TEST(BlockedLayoutTest, SmallShapeBroadcastsLanesAndWarps) {
  // Lanes cover 4 x 8 and warps 1 x 16, the tensor only 2 x 4.
  EXPECT_EQ(ok(blockedLayout({2, 4}, {1, 1}, {4, 8}, {1, 2}, {1, 0})),
            distributed({}, {{0, 1}, {0, 2}, {0, 0}, {1, 0}, {0, 0}}, {{0, 0}},
                        {2, 4}));
}

TEST(BlockedLayoutTest, SmallShapeDropsRegisters) {
  // Four registers per thread but two elements: a thread keeps two registers
  // and the other lane replicates.
  EXPECT_EQ(ok(blockedLayout({2}, {4}, {2}, {1}, {0})),
            distributed({{1}}, {{0}}, {}, {2}));
}

TEST(BlockedLayoutTest, LargeShapeRepeatsFastDimFirst) {
  // The tile is 4 x 4 on an 8 x 8 tensor: repetition registers go after the
  // sizePerThread one, dim1 (fastest) first.
  EXPECT_EQ(ok(blockedLayout({8, 8}, {2, 1}, {2, 4}, {1, 1}, {1, 0})),
            distributed({{1, 0}, {0, 4}, {4, 0}}, {{0, 1}, {0, 2}, {2, 0}}, {},
                        {8, 8}));
}

TEST(BlockedLayoutTest, VectorWidth) {
  EXPECT_EQ(
      ok(blockedLayout({128}, {4}, {32}, {1}, {0})).getNumConsecutiveInOut(),
      4);
  EXPECT_EQ(
      ok(blockedLayout({128}, {1}, {32}, {4}, {0})).getNumConsecutiveInOut(),
      1);
  // The fastest dim must be the first out dim for the count to mean a vector.
  LinearLayout rowMajor =
      ok(blockedLayout({16, 16}, {1, 4}, {8, 4}, {2, 1}, {1, 0}));
  EXPECT_EQ(rowMajor.getNumConsecutiveInOut(), 1);
  EXPECT_EQ(
      ok(rowMajor.transposeOuts({"dim1", "dim0"})).getNumConsecutiveInOut(), 4);
}

TEST(BlockedLayoutTest, InvertAndComposeBetweenBlockedLayouts) {
  // 4 registers x 4 lanes to 2 registers x 8 lanes over 16 elements.
  LinearLayout from = ok(blockedLayout({16}, {4}, {4}, {1}, {0}));
  LinearLayout to = ok(blockedLayout({16}, {2}, {8}, {1}, {0}));
  LinearLayout conversion = ok(from.invertAndCompose(to));
  std::vector<LinearLayout::OutDim> toIns = {
      {"register", 2}, {"lane", 8}, {"warp", 1}, {"block", 1}};
  EXPECT_EQ(conversion,
            ok(LinearLayout::create({{"register", {{1, 0, 0, 0}, {0, 1, 0, 0}}},
                                     {"lane", {{0, 2, 0, 0}, {0, 4, 0, 0}}},
                                     {"warp", {}},
                                     {"block", {}}},
                                    toIns, /*requireSurjective=*/false)));

  // A transpose between 2-D layouts, checked point by point.
  LinearLayout rows = ok(blockedLayout({8, 8}, {1, 4}, {8, 2}, {1, 1}, {1, 0}));
  LinearLayout cols = ok(blockedLayout({8, 8}, {4, 1}, {2, 8}, {1, 1}, {0, 1}));
  LinearLayout transpose = ok(rows.invertAndCompose(cols));
  for (int32_t r = 0; r < 4; ++r)
    for (int32_t l = 0; l < 16; ++l) {
      Point x = {{"register", r}, {"lane", l}, {"warp", 0}, {"block", 0}};
      EXPECT_EQ(ok(cols.apply(ok(transpose.apply(x)))), ok(rows.apply(x)))
          << "register " << r << " lane " << l;
    }
}

TEST(BlockedLayoutTest, RejectsBadArguments) {
  EXPECT_ERROR(blockedLayout({}, {}, {}, {}, {}), "shape is empty");
  EXPECT_ERROR(blockedLayout({6, 8}, {1, 1}, {4, 8}, {1, 1}, {1, 0}),
               "shape[0] = 6 is not a power of two");
  EXPECT_ERROR(blockedLayout({8, 8}, {1, 3}, {4, 8}, {1, 1}, {1, 0}),
               "sizePerThread[1] = 3 is not a power of two");
  EXPECT_ERROR(blockedLayout({8, 8}, {1, 1}, {4, -8}, {1, 1}, {1, 0}),
               "threadsPerWarp[1] = -8 is not a power of two");
  EXPECT_ERROR(blockedLayout({8, 8}, {1, 1}, {4, 8}, {0, 1}, {1, 0}),
               "warpsPerCTA[0] = 0 is not a power of two");
  EXPECT_ERROR(blockedLayout({8, 8}, {1, 1}, {32}, {1, 1}, {1, 0}),
               "threadsPerWarp has 1 entries but shape has 2");
  EXPECT_ERROR(blockedLayout({8, 8}, {1, 1}, {4, 8}, {1, 1}, {0}),
               "order has 1 entries but shape has 2");
  EXPECT_ERROR(blockedLayout({8, 8}, {1, 1}, {4, 8}, {1, 1}, {0, 0}),
               "order = [0, 0] is not a permutation of 0..1");
  EXPECT_ERROR(blockedLayout({8, 8}, {1, 1}, {4, 8}, {1, 1}, {1, 2}),
               "order = [1, 2] is not a permutation of 0..1");
}

//===----------------------------------------------------------------------===//
// Slice
//===----------------------------------------------------------------------===//

// Parent: registers {0,1}; lanes {0,2} {0,4} {1,0}; warps {2,0} on 4 x 8.
LinearLayout sliceParent() {
  return ok(blockedLayout({4, 8}, {1, 2}, {2, 4}, {2, 1}, {1, 0}));
}

TEST(SliceLayoutTest, AlongDim0KeepsColumns) {
  // dim1 becomes dim0; the lane and warp that walked rows now replicate.
  EXPECT_EQ(ok(sliceLayout(sliceParent(), 0)),
            distributed({{1}}, {{2}, {4}, {0}}, {{0}}, {8}));
}

TEST(SliceLayoutTest, AlongDim1ReducesRegisters) {
  // The one register walked dim1, so it is reduced away.
  EXPECT_EQ(ok(sliceLayout(sliceParent(), 1)),
            distributed({}, {{0}, {0}, {1}}, {{2}}, {4}));
}

TEST(SliceLayoutTest, ParentOfFullOrUnitShapeAgree) {
  for (int dim = 0; dim < 2; ++dim) {
    SCOPED_TRACE("dim " + std::to_string(dim));
    std::vector<int32_t> unitShape = {16, 32};
    unitShape[dim] = 1;
    LinearLayout full =
        ok(blockedLayout({16, 32}, {2, 4}, {4, 8}, {2, 2}, {1, 0}));
    LinearLayout unit =
        ok(blockedLayout(unitShape, {2, 4}, {4, 8}, {2, 2}, {1, 0}));
    EXPECT_EQ(ok(sliceLayout(full, dim)), ok(sliceLayout(unit, dim)));
  }
}

TEST(SliceLayoutTest, ThreeDimsRenumbersOuts) {
  LinearLayout parent =
      ok(blockedLayout({2, 4, 8}, {1, 1, 2}, {2, 2, 4}, {1, 1, 1}, {2, 1, 0}));
  // Registers {0,0,1} and the repetition {0,2,0}; lanes {0,0,2} {0,0,4}
  // {0,1,0} {1,0,0}. Slicing dim1 reduces the repetition register away.
  LinearLayout sliced = ok(sliceLayout(parent, 1));
  EXPECT_EQ(sliced.getOutDimNames(),
            (std::vector<std::string>{"dim0", "dim1"}));
  EXPECT_EQ(sliced.getOutDimSize("dim0"), 2);
  EXPECT_EQ(sliced.getOutDimSize("dim1"), 8);
  EXPECT_EQ(sliced, distributed({{0, 1}}, {{0, 2}, {0, 4}, {0, 0}, {1, 0}}, {},
                                {2, 8}));
}

TEST(SliceLayoutTest, RejectsBadArguments) {
  EXPECT_ERROR(sliceLayout(sliceParent(), 2),
               "sliceLayout: dim = 2 is outside [0, 2)");
  EXPECT_ERROR(sliceLayout(sliceParent(), -1), "dim = -1 is outside");
  EXPECT_ERROR(sliceLayout(LinearLayout::identity1D(4, "register", "x"), 0),
               "parent's out dim #0 is 'x', expected 'dim0'");
}

//===----------------------------------------------------------------------===//
// Swizzled shared
//===----------------------------------------------------------------------===//

TEST(SwizzledSharedLayoutTest, Bases8x8) {
  // f(row) = (row % 4) * 2 % 8: f(1) = 2, f(2) = 4, f(4) = 0.
  LinearLayout layout = ok(swizzledSharedLayout({8, 8}, 2, 1, 4, {1, 0}));
  EXPECT_EQ(layout,
            ok(LinearLayout::create(
                {{"offset", {{0, 1}, {0, 2}, {0, 4}, {1, 2}, {2, 4}, {4, 0}}}},
                {{"dim0", 8}, {"dim1", 8}}, true)));
  EXPECT_TRUE(layout.isInvertible());
}

TEST(SwizzledSharedLayoutTest, UnswizzledIsRowMajor) {
  LinearLayout layout = ok(swizzledSharedLayout({4, 8}, 1, 1, 1, {1, 0}));
  for (int32_t offset = 0; offset < 32; ++offset)
    EXPECT_EQ(ok(layout.apply({{"offset", offset}})),
              (Point{{"dim0", offset / 8}, {"dim1", offset % 8}}));
  LinearLayout colMajor = ok(swizzledSharedLayout({4, 8}, 1, 1, 1, {0, 1}));
  for (int32_t offset = 0; offset < 32; ++offset)
    EXPECT_EQ(ok(colMajor.apply({{"offset", offset}})),
              (Point{{"dim0", offset % 4}, {"dim1", offset / 4}}));
}

// Every element against the definition: the element at offset
// row * cols + c is (row, c ^ f(row)).
// The element stored at each byte of a #hd.matrix_shared tile, computed the
// way the hardware addresses it: the unswizzled byte offset of (row r,
// contiguous c) is (c / E) * R * S + r * S + (c % E) * bytes, with E = S /
// bytes elements per run, and the swizzle XORs byte bits 4.. with bits 7..
TEST(MatrixSharedLayoutTest, MatchesTheByteSwizzle) {
  for (int32_t swizzle : {32, 64, 128})
    for (int32_t bits : {8, 16, 32})
      for (bool transposed : {false, true})
        for (auto [rows, runs] : {std::pair{8, 1}, std::pair{16, 2}, std::pair{64, 4}}) {
          const int32_t bytes = bits / 8, run = swizzle / bytes, cols = run * runs;
          SCOPED_TRACE("swizzle " + std::to_string(swizzle) + " bits " + std::to_string(bits) +
                       (transposed ? " transposed " : " ") + std::to_string(rows) + " rows x " +
                       std::to_string(cols));
          std::vector<int32_t> shape = transposed ? std::vector<int32_t>{cols, rows}
                                                  : std::vector<int32_t>{rows, cols};
          LinearLayout layout = ok(matrixSharedLayout(shape, swizzle, bits, transposed));
          const int32_t mask = swizzle / 16 - 1;
          for (int32_t r = 0; r < rows; ++r)
            for (int32_t c = 0; c < cols; ++c) {
              int32_t byte = (c / run) * rows * swizzle + r * swizzle + (c % run) * bytes;
              int32_t stored = byte ^ (((byte >> 7) & mask) << 4);
              Point got = ok(layout.apply({{"offset", stored / bytes}}));
              int32_t rowDim = transposed ? 1 : 0;
              ASSERT_EQ(got[rowDim].second, r) << "row " << r << " col " << c;
              ASSERT_EQ(got[1 - rowDim].second, c) << "row " << r << " col " << c;
            }
          EXPECT_TRUE(layout.isInvertible());
        }
  // Leading dims stack whole tiles.
  LinearLayout stacked = ok(matrixSharedLayout({4, 8, 64}, 128, 16, false));
  Point tile2 = ok(stacked.apply({{"offset", 2 * 8 * 64}}));
  EXPECT_EQ(tile2, (Point{{"dim0", 2}, {"dim1", 0}, {"dim2", 0}}));
  EXPECT_FALSE(matrixSharedLayout({8, 32}, 128, 16, false).ok()); // half a run
  EXPECT_FALSE(matrixSharedLayout({4, 64}, 128, 16, false).ok());  // half an atom
  EXPECT_FALSE(matrixSharedLayout({8, 64}, 16, 16, false).ok());
}

TEST(SwizzledSharedLayoutTest, MatchesDirectFormula) {
  for (auto [rows, cols] :
       {std::pair{8, 8}, std::pair{16, 32}, std::pair{32, 16}})
    for (int32_t vec : {1, 2, 4, 8})
      for (int32_t perPhase : {1, 2, 4})
        for (int32_t maxPhase : {1, 2, 4, 8})
          for (bool rowMajor : {true, false}) {
            SCOPED_TRACE(std::to_string(rows) + "x" + std::to_string(cols) +
                         " vec " + std::to_string(vec) + " perPhase " +
                         std::to_string(perPhase) + " maxPhase " +
                         std::to_string(maxPhase) +
                         (rowMajor ? " order [1, 0]" : " order [0, 1]"));
            int rowDim = rowMajor ? 0 : 1;
            std::vector<int32_t> shape(2);
            shape[rowDim] = rows;
            shape[1 - rowDim] = cols;
            LinearLayout layout = ok(swizzledSharedLayout(
                shape, vec, perPhase, maxPhase, {1 - rowDim, rowDim}));
            for (int32_t offset = 0; offset < rows * cols; ++offset) {
              int32_t row = offset / cols;
              int32_t col =
                  (offset % cols) ^ ((row / perPhase) % maxPhase * vec % cols);
              Point expected(2);
              expected[rowDim] = {"dim" + std::to_string(rowDim), row};
              expected[1 - rowDim] = {"dim" + std::to_string(1 - rowDim), col};
              ASSERT_EQ(ok(layout.apply({{"offset", offset}})), expected)
                  << "offset " << offset;
            }
          }
}

TEST(SwizzledSharedLayoutTest, HigherDimsAreIdentity) {
  LinearLayout layout = ok(swizzledSharedLayout({2, 4, 4}, 1, 1, 4, {2, 1, 0}));
  // Columns dim2, rows dim1 with f(1) = 1, f(2) = 2, then dim0.
  EXPECT_EQ(
      layout,
      ok(LinearLayout::create(
          {{"offset", {{0, 0, 1}, {0, 0, 2}, {0, 1, 1}, {0, 2, 2}, {1, 0, 0}}}},
          {{"dim0", 2}, {"dim1", 4}, {"dim2", 4}}, true)));
  EXPECT_EQ(ok(swizzledSharedLayout({16}, 4, 2, 8, {0})),
            LinearLayout::identity1D(16, "offset", "dim0"));
}

TEST(SwizzledSharedLayoutTest, RejectsBadArguments) {
  EXPECT_ERROR(swizzledSharedLayout({8, 8}, 3, 1, 1, {1, 0}),
               "vec = 3 is not a power of two");
  EXPECT_ERROR(swizzledSharedLayout({8, 8}, 1, 0, 1, {1, 0}),
               "perPhase = 0 is not a power of two");
  EXPECT_ERROR(swizzledSharedLayout({8, 8}, 1, 1, 6, {1, 0}),
               "maxPhase = 6 is not a power of two");
  EXPECT_ERROR(swizzledSharedLayout({8, 12}, 1, 1, 1, {1, 0}),
               "shape[1] = 12 is not a power of two");
  EXPECT_ERROR(swizzledSharedLayout({8, 8}, 1, 1, 1, {1, 1}),
               "order = [1, 1] is not a permutation of 0..1");
  EXPECT_ERROR(swizzledSharedLayout({}, 1, 1, 1, {}), "shape is empty");
}

//===----------------------------------------------------------------------===//
// Dot operands
//===----------------------------------------------------------------------===//

// C is 8 x 16 with sizePerThread [1, 2], threadsPerWarp [4, 8], warpsPerCTA
// [2, 1], order [1, 0]; K = 4.
const std::vector<int32_t> kSpt = {1, 2}, kTpw = {4, 8}, kWpc = {2, 1},
                           kOrder = {1, 0};

TEST(DotOperandLayoutTest, OperandAHoldsWholeRowsOfK) {
  LinearLayout a = ok(dotOperandLayout(0, {8, 4}, kSpt, kTpw, kWpc, kOrder));
  // K (dim1) is fastest, so its registers come first; the 8 lanes along N
  // replicate.
  EXPECT_EQ(a, distributed({{0, 1}, {0, 2}},
                           {{0, 0}, {0, 0}, {0, 0}, {1, 0}, {2, 0}}, {{4, 0}},
                           {8, 4}));
}

TEST(DotOperandLayoutTest, OperandBHoldsWholeColumnsOfK) {
  LinearLayout b = ok(dotOperandLayout(1, {4, 16}, kSpt, kTpw, kWpc, kOrder));
  // Lanes and warps along M replicate.
  EXPECT_EQ(b, distributed({{0, 1}, {1, 0}, {2, 0}},
                           {{0, 2}, {0, 4}, {0, 8}, {0, 0}, {0, 0}}, {{0, 0}},
                           {4, 16}));
}

/// For every thread, the set of values of out dim `keep` it holds.
std::vector<std::set<int32_t>> heldPerThread(const LinearLayout &layout,
                                             int keep) {
  std::vector<std::set<int32_t>> held;
  for (int32_t w = 0; w < layout.getInDimSize("warp"); ++w)
    for (int32_t l = 0; l < layout.getInDimSize("lane"); ++l) {
      std::set<int32_t> values;
      for (int32_t r = 0; r < layout.getInDimSize("register"); ++r)
        values.insert(ok(layout.apply(
            {{"register", r}, {"lane", l}, {"warp", w}, {"block", 0}}))[keep]
                          .second);
      held.push_back(values);
    }
  return held;
}

// Each thread holds exactly the rows of A (columns of B) that its elements
// of C need, and all of K for each.
TEST(DotOperandLayoutTest, ThreadsHoldWhatTheirOutputsNeed) {
  LinearLayout c = ok(blockedLayout({8, 16}, kSpt, kTpw, kWpc, kOrder));
  LinearLayout a = ok(dotOperandLayout(0, {8, 4}, kSpt, kTpw, kWpc, kOrder));
  LinearLayout b = ok(dotOperandLayout(1, {4, 16}, kSpt, kTpw, kWpc, kOrder));
  EXPECT_EQ(heldPerThread(a, 0), heldPerThread(c, 0));
  EXPECT_EQ(heldPerThread(b, 1), heldPerThread(c, 1));
  for (const auto &ks : heldPerThread(a, 1))
    EXPECT_EQ(ks, (std::set<int32_t>{0, 1, 2, 3}));
  for (const auto &ks : heldPerThread(b, 0))
    EXPECT_EQ(ks, (std::set<int32_t>{0, 1, 2, 3}));
  // Slicing K away leaves the parent's layout with the other dim sliced.
  EXPECT_EQ(ok(sliceLayout(a, 1)), ok(sliceLayout(c, 1)));
  EXPECT_EQ(ok(sliceLayout(b, 0)), ok(sliceLayout(c, 0)));
}

TEST(DotOperandLayoutTest, BatchedOperands) {
  LinearLayout a = ok(dotOperandLayout(0, {2, 8, 4}, {1, 1, 2}, {1, 4, 8},
                                       {2, 2, 1}, {2, 1, 0}));
  // Registers: K (dim2) first; batch spread over warps.
  EXPECT_EQ(a,
            distributed({{0, 0, 1}, {0, 0, 2}},
                        {{0, 0, 0}, {0, 0, 0}, {0, 0, 0}, {0, 1, 0}, {0, 2, 0}},
                        {{0, 4, 0}, {1, 0, 0}}, {2, 8, 4}));
}

TEST(DotOperandLayoutTest, RejectsBadArguments) {
  EXPECT_ERROR(dotOperandLayout(2, {8, 4}, kSpt, kTpw, kWpc, kOrder),
               "opIdx = 2 is neither 0 (operand A) nor 1 (operand B)");
  EXPECT_ERROR(dotOperandLayout(0, {8}, {1}, {32}, {1}, {0}),
               "shape has rank 1; a dot operand has rank 2, or 3");
  EXPECT_ERROR(dotOperandLayout(0, {8, 3}, kSpt, kTpw, kWpc, kOrder),
               "shape[1] = 3 is not a power of two");
  EXPECT_ERROR(dotOperandLayout(1, {4, 16}, {1, 5}, kTpw, kWpc, kOrder),
               "sizePerThread[1] = 5 is not a power of two");
  EXPECT_ERROR(dotOperandLayout(1, {4, 16}, kSpt, kTpw, {2}, kOrder),
               "warpsPerCTA has 1 entries but shape has 2");
}

//===----------------------------------------------------------------------===//
// Matrix-instruction operands
//===----------------------------------------------------------------------===//

// A 16x8x16 instruction with 16-bit operands (groupID g = lane >> 2,
// t = lane % 4): A (g + 8*((i>>1)&1), 2t + (i&1) + 8*(i>=4)), B (2t + (i&1) +
// 8*(i>=2), g), C (g + 8*(i>=2), 2t + (i&1)).
LinearLayout fragment(Bases registers, int32_t rows, int32_t cols, Bases lanes) {
  return ok(LinearLayout::create({{"register", std::move(registers)}, {"lane", std::move(lanes)}},
                                 {{"dim0", rows}, {"dim1", cols}}, /*requireSurjective=*/true));
}
const Bases kRowLanes = {{0, 2}, {0, 4}, {1, 0}, {2, 0}, {4, 0}};
LinearLayout fragA() { return fragment({{0, 1}, {8, 0}, {0, 8}}, 16, 16, kRowLanes); }
LinearLayout fragB() {
  return fragment({{1, 0}, {8, 0}}, 16, 8, {{2, 0}, {4, 0}, {0, 1}, {0, 2}, {0, 4}});
}
LinearLayout fragC() { return fragment({{0, 1}, {8, 0}}, 16, 8, kRowLanes); }

Point at(int32_t reg, int32_t lane, int32_t warp, const LinearLayout &layout) {
  return ok(layout.apply({{"register", reg}, {"lane", lane}, {"warp", warp}, {"block", 0}}));
}

TEST(MatrixOperandLayoutTest, AccumulatorTilesWarpsThenRepeatsAlongN) {
  // 2x2 warps cover 32x16; [64, 32] repeats that twice along N, then M.
  LinearLayout c = ok(matrixOperandLayout(MatrixOperand::Accumulator, {64, 32}, fragC(), {2, 2}));
  EXPECT_EQ(c, distributed({{0, 1}, {8, 0}, {0, 16}, {32, 0}}, kRowLanes, {{16, 0}, {0, 8}},
                           {64, 32}));
  // Register 3 of lane 9 (g = 2, t = 1) in warp 3: the fragment's (10, 3)
  // moved by warp (16, 8).
  EXPECT_EQ(at(3, 9, 3, c), (Point{{"dim0", 26}, {"dim1", 11}}));
}

TEST(MatrixOperandLayoutTest, OperandsReplicateOverTheOtherWarps) {
  LinearLayout a = ok(matrixOperandLayout(MatrixOperand::A, {32, 32}, fragA(), {2, 2}));
  // M-warp steps 16 rows, the N-warp holds the same A; the K repetition
  // comes before any M one.
  EXPECT_EQ(a, distributed({{0, 1}, {8, 0}, {0, 8}, {0, 16}}, kRowLanes, {{16, 0}, {0, 0}},
                           {32, 32}));
  LinearLayout b = ok(matrixOperandLayout(MatrixOperand::B, {32, 32}, fragB(), {2, 2}));
  EXPECT_EQ(b, distributed({{1, 0}, {8, 0}, {16, 0}, {0, 16}},
                           {{2, 0}, {4, 0}, {0, 1}, {0, 2}, {0, 4}}, {{0, 0}, {0, 8}}, {32, 32}));
}

TEST(MatrixOperandLayoutTest, EveryThreadHoldsTheOperandsOfItsAccumulator) {
  // For each accumulator element a thread holds, it also holds its row of A
  // and column of B at every K of each instruction step: the registers the
  // lowering gathers by coordinate exist.
  LinearLayout c = ok(matrixOperandLayout(MatrixOperand::Accumulator, {64, 64}, fragC(), {2, 4}));
  LinearLayout a = ok(matrixOperandLayout(MatrixOperand::A, {64, 32}, fragA(), {2, 4}));
  LinearLayout b = ok(matrixOperandLayout(MatrixOperand::B, {32, 64}, fragB(), {2, 4}));
  auto held = [](const LinearLayout &l, int32_t lane, int32_t warp) {
    std::set<std::pair<int32_t, int32_t>> out;
    for (int32_t r = 0; r < l.getInDimSize("register"); ++r) {
      Point p = at(r, lane, warp, l);
      out.insert({p[0].second, p[1].second});
    }
    return out;
  };
  for (int32_t warp = 0; warp < 8; ++warp)
    for (int32_t lane = 0; lane < 32; ++lane) {
      auto cs = held(c, lane, warp), as = held(a, lane, warp), bs = held(b, lane, warp);
      // Instruction tile (16x8) origins this thread accumulates into.
      std::set<std::pair<int32_t, int32_t>> tiles;
      for (auto [row, col] : cs)
        tiles.insert({row & ~15, col & ~7});
      for (auto [r0, c0] : tiles)
        for (int32_t k0 = 0; k0 < 32; k0 += 16) {
          // Every register of the thread's A fragment at (r0, k0) and of
          // its B fragment at (k0, c0).
          for (int32_t reg = 0; reg < 8; ++reg) {
            Point f = ok(fragA().apply({{"register", reg}, {"lane", lane}}));
            EXPECT_TRUE(as.count({r0 + f[0].second, k0 + f[1].second}))
                << "A: warp " << warp << " lane " << lane << " tile " << r0 << "," << c0;
          }
          for (int32_t reg = 0; reg < 4; ++reg) {
            Point f = ok(fragB().apply({{"register", reg}, {"lane", lane}}));
            EXPECT_TRUE(bs.count({k0 + f[0].second, c0 + f[1].second}))
                << "B: warp " << warp << " lane " << lane << " tile " << r0 << "," << c0;
          }
        }
    }
}

TEST(MatrixOperandLayoutTest, ShapesBelowOneTileReplicate) {
  // expand_dims of a row slice: [16, 1] keeps the rows, lanes along the
  // columns replicate, the column register drops out.
  LinearLayout c = ok(matrixOperandLayout(MatrixOperand::Accumulator, {16, 1}, fragC(), {1, 2}));
  EXPECT_EQ(c, distributed({{8, 0}}, {{0, 0}, {0, 0}, {1, 0}, {2, 0}, {4, 0}}, {{0, 0}}, {16, 1}));
}

TEST(MatrixOperandLayoutTest, RejectsBadArguments) {
  EXPECT_ERROR(matrixOperandLayout(MatrixOperand::A, {2, 16, 16}, fragA(), {1, 1}),
               "has rank 3");
  EXPECT_ERROR(matrixOperandLayout(MatrixOperand::A, {16, 16}, fragA(), {3, 1}),
               "warpsPerCTA[0] = 3 is not a power of two");
  EXPECT_ERROR(matrixOperandLayout(MatrixOperand::A, {16, 16}, fragA(), {1}),
               "warpsPerCTA has 1 entries");
  EXPECT_ERROR(matrixOperandLayout(MatrixOperand::A, {16, 24}, fragA(), {1, 1}),
               "shape[1] = 24 is not a power of two");
}

} // namespace
} // namespace hadron
