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

} // namespace
} // namespace hadron
