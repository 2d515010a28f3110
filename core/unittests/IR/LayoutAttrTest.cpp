//===- LayoutAttrTest.cpp - hd layout attributes as linear layouts --------===//
//
// Parses layout attributes from text, as a user writes them, and checks their
// linear layouts against bases worked out by hand.
//
//===----------------------------------------------------------------------===//

#include "hadron/IR/Dialect.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/IR/MLIRContext.h"

#include <gtest/gtest.h>

namespace hadron::hd {
namespace {

using Bases = std::vector<LinearLayout::Basis>;

class LayoutAttrTest : public ::testing::Test {
protected:
  LayoutAttrTest() { context.loadDialect<HadronDialect>(); }

  /// The attribute `text` parses to; fails the test when it does not.
  template <typename AttrT> AttrT parse(const std::string &text) {
    auto attr = llvm::dyn_cast_or_null<AttrT>(mlir::parseAttribute(text, &context));
    EXPECT_TRUE(attr) << "does not parse as the expected attribute: " << text;
    return attr;
  }

  /// The linear layout of `layout` for `shape`; fails the test on an error.
  LinearLayout layoutOf(LayoutAttrInterface layout, llvm::ArrayRef<int64_t> shape) {
    Result<LinearLayout> result = layout.toLinearLayout(shape);
    EXPECT_TRUE(result.ok()) << result.error();
    return result.ok() ? *result : LinearLayout();
  }

  mlir::MLIRContext context;
};

/// A distributed layout with these bases over a tensor of `shape`.
LinearLayout distributed(Bases registers, Bases lanes, Bases warps,
                         const std::vector<int32_t> &shape) {
  std::vector<LinearLayout::OutDim> outs;
  for (size_t d = 0; d < shape.size(); ++d)
    outs.push_back({"dim" + std::to_string(d), shape[d]});
  Result<LinearLayout> layout = LinearLayout::create({{"register", std::move(registers)},
                                                      {"lane", std::move(lanes)},
                                                      {"warp", std::move(warps)},
                                                      {"block", {}}},
                                                     outs, /*requireSurjective=*/false);
  EXPECT_TRUE(layout.ok()) << layout.error();
  return layout.ok() ? *layout : LinearLayout();
}

//===----------------------------------------------------------------------===//
// Blocked
//===----------------------------------------------------------------------===//

TEST_F(LayoutAttrTest, Blocked1D) {
  // Thread t of warp w holds elements 8w + 2t and 8w + 2t + 1.
  auto blocked = parse<BlockedLayoutAttr>(
      "#hd.blocked<{sizePerThread = [2], threadsPerWarp = [4], warpsPerCTA = [2], order = [0]}>");
  EXPECT_EQ(layoutOf(blocked, {16}), distributed({{1}}, {{2}, {4}}, {{8}}, {16}));
  EXPECT_EQ(blocked.getRank(), 1);
  EXPECT_EQ(blocked.getWarpSize(), 4);
  EXPECT_EQ(blocked.getNumWarps(), 2);
}

TEST_F(LayoutAttrTest, Blocked2DRowMajor) {
  // order [1, 0]: columns first. Registers and lanes walk the 8 columns
  // (1, then 2 and 4), the remaining lane and the warp walk the 4 rows.
  auto blocked = parse<BlockedLayoutAttr>(
      "#hd.blocked<{sizePerThread = [1, 2], threadsPerWarp = [2, 4], warpsPerCTA = [2, 1], "
      "order = [1, 0]}>");
  EXPECT_EQ(layoutOf(blocked, {4, 8}),
            distributed({{0, 1}}, {{0, 2}, {0, 4}, {1, 0}}, {{2, 0}}, {4, 8}));
}

TEST_F(LayoutAttrTest, Blocked2DColumnMajor) {
  // Same tile, order [0, 1]: lane bit 0 now walks the rows.
  auto blocked = parse<BlockedLayoutAttr>(
      "#hd.blocked<{sizePerThread = [1, 2], threadsPerWarp = [2, 4], warpsPerCTA = [2, 1], "
      "order = [0, 1]}>");
  EXPECT_EQ(layoutOf(blocked, {4, 8}),
            distributed({{0, 1}}, {{1, 0}, {0, 2}, {0, 4}}, {{2, 0}}, {4, 8}));
}

TEST_F(LayoutAttrTest, BlockedBroadcastsOverSmallerShape) {
  // The tile is 8 elements, the tensor 4: warp 1 holds the elements of warp 0.
  auto blocked = parse<BlockedLayoutAttr>(
      "#hd.blocked<{sizePerThread = [1], threadsPerWarp = [4], warpsPerCTA = [2], order = [0]}>");
  EXPECT_EQ(layoutOf(blocked, {4}), distributed({}, {{1}, {2}}, {{0}}, {4}));
}

TEST_F(LayoutAttrTest, BlockedRepeatsOverLargerShape) {
  // The tile is 4 elements, the tensor 16: each thread holds its pair of
  // elements in four copies, 4 apart.
  auto blocked = parse<BlockedLayoutAttr>(
      "#hd.blocked<{sizePerThread = [2], threadsPerWarp = [2], warpsPerCTA = [1], order = [0]}>");
  EXPECT_EQ(layoutOf(blocked, {16}), distributed({{1}, {4}, {8}}, {{2}}, {}, {16}));
}

//===----------------------------------------------------------------------===//
// Slice
//===----------------------------------------------------------------------===//

constexpr const char *kParent2D =
    "#hd.blocked<{sizePerThread = [1, 2], threadsPerWarp = [2, 4], warpsPerCTA = [2, 1], "
    "order = [1, 0]}>";

TEST_F(LayoutAttrTest, SliceAlongDim0) {
  // Removing the rows: the lane and the warp that walked them now replicate.
  auto slice = parse<SliceLayoutAttr>(std::string("#hd.slice<{dim = 0, parent = ") +
                                      kParent2D + "}>");
  EXPECT_EQ(slice.getRank(), 1);
  EXPECT_EQ(layoutOf(slice, {8}), distributed({{1}}, {{2}, {4}, {0}}, {{0}}, {8}));
}

TEST_F(LayoutAttrTest, SliceAlongDim1) {
  // Removing the columns: the register is reduced away, the two lanes that
  // walked the columns replicate.
  auto slice = parse<SliceLayoutAttr>(std::string("#hd.slice<{dim = 1, parent = ") +
                                      kParent2D + "}>");
  EXPECT_EQ(layoutOf(slice, {4}), distributed({}, {{0}, {0}, {1}}, {{2}}, {4}));
}

//===----------------------------------------------------------------------===//
// Dot operands
//===----------------------------------------------------------------------===//

constexpr const char *kAccumulator =
    "#hd.blocked<{sizePerThread = [1, 1], threadsPerWarp = [2, 2], warpsPerCTA = [1, 1], "
    "order = [1, 0]}>";

TEST_F(LayoutAttrTest, DotOperandA) {
  // A is 2x4 (M x K): each thread holds a whole row of K in registers; lane
  // bit 0 walked N in the accumulator, so it replicates.
  auto dot = parse<DotOperandLayoutAttr>(std::string("#hd.dot_op<{opIdx = 0, parent = ") +
                                         kAccumulator + "}>");
  EXPECT_EQ(layoutOf(dot, {2, 4}),
            distributed({{0, 1}, {0, 2}}, {{0, 0}, {1, 0}}, {}, {2, 4}));
}

TEST_F(LayoutAttrTest, DotOperandB) {
  // B is 4x2 (K x N): a whole column of K per thread; lane bit 1 walked M in
  // the accumulator, so it replicates.
  auto dot = parse<DotOperandLayoutAttr>(std::string("#hd.dot_op<{opIdx = 1, parent = ") +
                                         kAccumulator + "}>");
  EXPECT_EQ(layoutOf(dot, {4, 2}),
            distributed({{1, 0}, {2, 0}}, {{0, 1}, {0, 0}}, {}, {4, 2}));
}

//===----------------------------------------------------------------------===//
// Shared layouts
//===----------------------------------------------------------------------===//

TEST_F(LayoutAttrTest, SwizzledMatchesXorFormula) {
  constexpr int64_t rows = 8, cols = 16, vec = 2, perPhase = 2, maxPhase = 4;
  auto swizzled = parse<SwizzledSharedLayoutAttr>(
      "#hd.swizzled<{vec = 2, perPhase = 2, maxPhase = 4, order = [1, 0]}>");
  LinearLayout layout = layoutOf(swizzled, {rows, cols});
  ASSERT_EQ(layout.getInDimNames(), std::vector<std::string>{"offset"});
  ASSERT_EQ(layout.getInDimSize("offset"), rows * cols);
  // Element (row, col) is stored at row * cols + (col ^ phase(row) * vec).
  for (int32_t offset = 0; offset < rows * cols; ++offset) {
    Result<LinearLayout::Point> point = layout.apply({{"offset", offset}});
    ASSERT_TRUE(point.ok()) << point.error();
    int64_t row = (*point)[0].second, col = (*point)[1].second;
    int64_t phase = (row / perPhase) % maxPhase;
    EXPECT_EQ(row * cols + (col ^ (phase * vec)), offset)
        << "offset " << offset << " holds (" << row << ", " << col << ")";
  }
  EXPECT_EQ(swizzled.getAllocatedElements({rows, cols}), rows * cols);
}

TEST_F(LayoutAttrTest, PaddedAllocatesThePadding) {
  auto padded = parse<PaddedSharedLayoutAttr>(
      "#hd.padded<{intervals = [32], paddings = [4], order = [1, 0]}>");
  // 128 elements: 4 intervals of 32, 4 padding elements after each.
  EXPECT_EQ(padded.getAllocatedElements({8, 16}), 128 + 4 * 4);
  auto twoLevels = parse<PaddedSharedLayoutAttr>(
      "#hd.padded<{intervals = [32, 64], paddings = [4, 8], order = [1, 0]}>");
  EXPECT_EQ(twoLevels.getAllocatedElements({8, 16}), 128 + 4 * 4 + 2 * 8);
  // Its linear part is plain row-major.
  LinearLayout layout = layoutOf(padded, {2, 4});
  Result<LinearLayout::Point> point = layout.apply({{"offset", 5}});
  ASSERT_TRUE(point.ok()) << point.error();
  EXPECT_EQ(*point, (LinearLayout::Point{{"dim0", 1}, {"dim1", 1}}));
}

TEST_F(LayoutAttrTest, SharedLinearIsItsBases) {
  auto shared = parse<SharedLinearLayoutAttr>(
      "#hd.shared_linear<{offset = [[0, 1], [1, 0], [2, 1]]}>");
  LinearLayout layout = layoutOf(shared, {4, 2});
  EXPECT_EQ(layout.getBasis("offset", 2), (LinearLayout::Basis{2, 1}));
  EXPECT_FALSE(shared.toLinearLayout({4, 4}).ok());
}

//===----------------------------------------------------------------------===//
// #hd.linear
//===----------------------------------------------------------------------===//

TEST_F(LayoutAttrTest, LinearRoundTrip) {
  auto linear = parse<LinearLayoutAttr>(
      "#hd.linear<{register = [[0, 1]], lane = [[0, 2], [1, 0]], warp = [[2, 0]], block = []}>");
  LinearLayout layout = layoutOf(linear, {4, 4});
  EXPECT_EQ(layout, distributed({{0, 1}}, {{0, 2}, {1, 0}}, {{2, 0}}, {4, 4}));
  EXPECT_EQ(linear.getWarpSize(), 4);
  EXPECT_EQ(linear.getNumWarps(), 2);
  Result<LinearLayoutAttr> back = toLinearLayoutAttr(&context, layout);
  ASSERT_TRUE(back.ok()) << back.error();
  EXPECT_EQ(*back, linear);
}

TEST_F(LayoutAttrTest, BlockedThroughLinearAttr) {
  // Any distributed layout can be written as #hd.linear and means the same.
  auto blocked = parse<BlockedLayoutAttr>(kParent2D);
  LinearLayout layout = layoutOf(blocked, {4, 8});
  Result<LinearLayoutAttr> linear = toLinearLayoutAttr(&context, layout);
  ASSERT_TRUE(linear.ok()) << linear.error();
  EXPECT_EQ(layoutOf(*linear, {4, 8}), layout);
}

TEST_F(LayoutAttrTest, LinearAttrNeedsDistributedInDims) {
  auto shared = parse<SwizzledSharedLayoutAttr>(
      "#hd.swizzled<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>");
  Result<LinearLayoutAttr> linear = toLinearLayoutAttr(&context, layoutOf(shared, {4, 4}));
  ASSERT_FALSE(linear.ok());
  EXPECT_NE(linear.error().find("no in dim `register`"), std::string::npos) << linear.error();
}

TEST_F(LayoutAttrTest, LinearRejectsOtherShapes) {
  auto linear = parse<LinearLayoutAttr>("#hd.linear<{register = [[1]], lane = [[2]]}>");
  Result<LinearLayout> result = linear.toLinearLayout({8});
  ASSERT_FALSE(result.ok());
  EXPECT_NE(result.error().find("covers 4 elements along dim 0"), std::string::npos)
      << result.error();
}

//===----------------------------------------------------------------------===//
// Placeholders
//===----------------------------------------------------------------------===//

TEST_F(LayoutAttrTest, PlaceholdersHaveNoLinearLayout) {
  for (const char *text :
       {"#hd.auto", "#hd.coalesced", "#hd.slice<{dim = 0, parent = #hd.auto}>",
        "#hd.dot_op<{opIdx = 0, parent = #hd.coalesced}>"}) {
    auto layout = parse<DistributedLayoutAttrInterface>(text);
    ASSERT_TRUE(layout);
    EXPECT_TRUE(layout.isPlaceholder()) << text;
    Result<LinearLayout> result = layout.toLinearLayout({4, 4});
    ASSERT_FALSE(result.ok()) << text;
    EXPECT_NE(result.error().find("is a placeholder"), std::string::npos) << result.error();
  }
  auto autoLayout = parse<AutoLayoutAttr>("#hd.auto");
  EXPECT_EQ(autoLayout.getRank(), -1);
  EXPECT_EQ(autoLayout.getWarpSize(), 0);
}

} // namespace
} // namespace hadron::hd
