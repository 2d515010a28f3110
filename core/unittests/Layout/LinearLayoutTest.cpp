//===- LinearLayoutTest.cpp - The GF(2) layout algebra
//---------------------===//

#include "hadron/Layout/LinearLayout.h"

#include <gtest/gtest.h>

#include <random>

namespace hadron {
namespace {

using InDim = LinearLayout::InDim;
using OutDim = LinearLayout::OutDim;
using Point = LinearLayout::Point;

template <typename T> T unwrap(Result<T> result) {
  EXPECT_TRUE(result.ok()) << result.error();
  return result.ok() ? std::move(result).value() : T();
}

LinearLayout make(std::vector<InDim> ins, std::vector<OutDim> outs) {
  return unwrap(LinearLayout::create(std::move(ins), std::move(outs),
                                     /*requireSurjective=*/false));
}

template <typename T>
::testing::AssertionResult failsWith(const Result<T> &result,
                                     const std::string &expected) {
  if (result.ok())
    return ::testing::AssertionFailure()
           << "succeeded, expected \"" << expected << "\"";
  if (result.error().find(expected) == std::string::npos)
    return ::testing::AssertionFailure()
           << "error \"" << result.error() << "\" lacks \"" << expected << "\"";
  return ::testing::AssertionSuccess();
}

Point at(const LinearLayout &layout, const Point &in) {
  return unwrap(layout.apply(in));
}

//===----------------------------------------------------------------------===//
// Builders and queries
//===----------------------------------------------------------------------===//

TEST(LinearLayoutTest, Identity1D) {
  LinearLayout layout = LinearLayout::identity1D(8, "r", "d");
  EXPECT_EQ(layout, make({{"r", {{1}, {2}, {4}}}}, {{"d", 8}}));
  EXPECT_EQ(layout.getInDimSize("r"), 8);
  EXPECT_EQ(layout.getInDimSizeLog2("r"), 3);
  EXPECT_EQ(layout.getOutDimSize("d"), 8);
  EXPECT_TRUE(layout.isInvertible());
  EXPECT_EQ(at(layout, {{"r", 5}}), (Point{{"d", 5}}));
}

TEST(LinearLayoutTest, Identity1DOfSizeOneHasNoBases) {
  LinearLayout layout = LinearLayout::identity1D(1, "r", "d");
  EXPECT_EQ(layout, make({{"r", {}}}, {{"d", 1}}));
  EXPECT_TRUE(layout.isInvertible());
}

TEST(LinearLayoutTest, Strided1D) {
  LinearLayout layout = LinearLayout::strided1D(4, 2, "r", "d");
  EXPECT_EQ(layout, make({{"r", {{2}, {4}}}}, {{"d", 8}}));
  EXPECT_TRUE(layout.isInjective());
  EXPECT_FALSE(layout.isSurjective());
  EXPECT_EQ(at(layout, {{"r", 3}}), (Point{{"d", 6}}));
}

TEST(LinearLayoutTest, Zeros1D) {
  LinearLayout layout = LinearLayout::zeros1D(4, "r", "d");
  EXPECT_EQ(layout, make({{"r", {{0}, {0}}}}, {{"d", 1}}));
  EXPECT_TRUE(layout.isSurjective());
  EXPECT_FALSE(layout.isInjective());
  LinearLayout wide = LinearLayout::zeros1D(4, "r", "d", 8);
  EXPECT_EQ(wide.getOutDimSize("d"), 8);
  EXPECT_FALSE(wide.isSurjective());
  EXPECT_EQ(at(wide, {{"r", 3}}), (Point{{"d", 0}}));
}

TEST(LinearLayoutTest, EmptyLayoutIsTheUnitOfProduct) {
  LinearLayout empty;
  EXPECT_EQ(empty.getNumInDims(), 0);
  EXPECT_EQ(empty.getNumOutDims(), 0);
  EXPECT_EQ(empty.getTotalInDimSize(), 1);
  EXPECT_TRUE(empty.isInvertible());
  EXPECT_EQ(at(empty, {}), Point{});
  LinearLayout layout = LinearLayout::identity1D(4, "r", "d");
  EXPECT_EQ(empty * layout, layout);
  EXPECT_EQ(layout * empty, layout);
}

// The example in LinearLayout.h: sizePerThread = 2, threadsPerWarp = 4.
TEST(LinearLayoutTest, HeaderWorkedExample) {
  LinearLayout layout =
      make({{"register", {{1}}}, {"lane", {{2}, {4}}}}, {{"dim0", 8}});
  EXPECT_EQ(at(layout, {{"lane", 3}, {"register", 1}}), (Point{{"dim0", 7}}));
  EXPECT_EQ(at(layout, {{"lane", 2}, {"register", 0}}), (Point{{"dim0", 4}}));
  EXPECT_EQ(LinearLayout::identity1D(2, "register", "dim0") *
                LinearLayout::identity1D(4, "lane", "dim0"),
            layout);
}

TEST(LinearLayoutTest, QueriesOnTwoDims) {
  LinearLayout layout =
      make({{"register", {{1, 0}}}, {"lane", {{0, 1}, {2, 0}}}},
           {{"dim0", 4}, {"dim1", 2}});
  EXPECT_EQ(layout.getInDimNames(),
            (std::vector<std::string>{"register", "lane"}));
  EXPECT_EQ(layout.getOutDimNames(),
            (std::vector<std::string>{"dim0", "dim1"}));
  EXPECT_TRUE(layout.hasInDim("lane"));
  EXPECT_FALSE(layout.hasInDim("warp"));
  EXPECT_TRUE(layout.hasOutDim("dim1"));
  EXPECT_FALSE(layout.hasOutDim("dim2"));
  EXPECT_EQ(layout.getTotalInDimSize(), 8);
  EXPECT_EQ(layout.getTotalInDimSizeLog2(), 3);
  EXPECT_EQ(layout.getTotalOutDimSize(), 8);
  EXPECT_EQ(layout.getOutDimSizeLog2("dim0"), 2);
  EXPECT_EQ(layout.getBasis("lane", 1), (LinearLayout::Basis{2, 0}));
  EXPECT_EQ(layout.getBasis("lane", 0, "dim1"), 1);
  EXPECT_TRUE(layout.isInvertible());
}

//===----------------------------------------------------------------------===//
// Validation
//===----------------------------------------------------------------------===//

TEST(LinearLayoutTest, CreateRejectsMalformedLayouts) {
  auto create = [](std::vector<InDim> ins, std::vector<OutDim> outs,
                   bool surjective = false) {
    return LinearLayout::create(std::move(ins), std::move(outs), surjective);
  };
  EXPECT_TRUE(failsWith(create({{"r", {}}, {"r", {}}}, {{"d", 1}}),
                        "in dim 'r' appears twice"));
  EXPECT_TRUE(
      failsWith(create({}, {{"d", 1}, {"d", 2}}), "out dim 'd' appears twice"));
  EXPECT_TRUE(failsWith(create({{"", {}}}, {}), "in dim #0 has an empty name"));
  EXPECT_TRUE(failsWith(create({}, {{"", 1}}), "out dim #0 has an empty name"));
  EXPECT_TRUE(failsWith(create({{"r", {{1}}}}, {{"d", 2}, {"e", 2}}),
                        "basis 0 of in dim 'r' [1] has 1 entries, expected "
                        "one per out dim (2)"));
  EXPECT_TRUE(failsWith(create({{"r", {{1}, {4}}}}, {{"d", 4}}),
                        "basis 1 of in dim 'r' has entry 4 for out dim 'd', "
                        "outside [0, 4)"));
  EXPECT_TRUE(failsWith(create({{"r", {{-1}}}}, {{"d", 4}}), "has entry -1"));
  EXPECT_TRUE(failsWith(create({}, {{"d", 6}}),
                        "out dim 'd' has size 6, not a power of two"));
  EXPECT_TRUE(failsWith(create({}, {{"d", 0}}), "has size 0"));
  EXPECT_TRUE(failsWith(create({{"r", {{1}, {0}}}}, {{"d", 4}}, true),
                        "not surjective: its bases span 2^1 of the 2^2"));
  EXPECT_TRUE(failsWith(
      create({{"r", std::vector<LinearLayout::Basis>(31, {0})}}, {{"d", 1}}),
      "in dim 'r' has 31 bases, over the limit 30"));
  std::vector<OutDim> tooMany;
  for (int j = 0; j < 3; ++j)
    tooMany.push_back({"d" + std::to_string(j), 1 << 30});
  EXPECT_TRUE(failsWith(create({}, tooMany),
                        "out dims have a total size of 2^90, over the limit "
                        "2^63"));
  std::vector<InDim> tooManyIns;
  for (int d = 0; d < 3; ++d)
    tooManyIns.push_back(
        {"i" + std::to_string(d), std::vector<LinearLayout::Basis>(30, {0})});
  EXPECT_TRUE(failsWith(create(tooManyIns, {{"d", 1}}),
                        "in dims have a total size of 2^90"));
  EXPECT_TRUE(create({{"r", {{1}, {2}}}}, {{"d", 4}}, true).ok());
}

TEST(LinearLayoutTest, ApplyOnPoints) {
  LinearLayout layout =
      make({{"register", {{1, 0}}}, {"lane", {{0, 1}, {2, 0}}}},
           {{"dim0", 4}, {"dim1", 2}});
  // 1 ^ 0 ^ 2 along dim0, 0 ^ 1 ^ 0 along dim1; input order does not matter.
  EXPECT_EQ(at(layout, {{"lane", 3}, {"register", 1}}),
            (Point{{"dim0", 3}, {"dim1", 1}}));
  EXPECT_EQ(at(layout, {{"register", 0}, {"lane", 2}}),
            (Point{{"dim0", 2}, {"dim1", 0}}));
  EXPECT_EQ(layout.applyUnchecked({{"register", 1}, {"lane", 1}}),
            (Point{{"dim0", 1}, {"dim1", 1}}));
  // In dims past the end of the point are 0 (a fragment's coordinates in
  // lane 0 of warp 0 were once read past the point: made-up warp offsets).
  EXPECT_EQ(layout.applyUnchecked({{"register", 1}}), (Point{{"dim0", 1}, {"dim1", 0}}));
}

TEST(LinearLayoutTest, ApplyRejectsBadPoints) {
  LinearLayout layout =
      make({{"register", {{1}}}, {"lane", {{2}, {4}}}}, {{"dim0", 8}});
  EXPECT_TRUE(
      failsWith(layout.apply({{"register", 0}}), "in dim 'lane' is missing"));
  EXPECT_TRUE(
      failsWith(layout.apply({{"register", 0}, {"lane", 0}, {"warp", 0}}),
                "'warp' is not an in dim of the layout [register, lane]"));
  EXPECT_TRUE(
      failsWith(layout.apply({{"register", 0}, {"lane", 0}, {"lane", 1}}),
                "in dim 'lane' is given twice"));
  EXPECT_TRUE(failsWith(layout.apply({{"register", 2}, {"lane", 0}}),
                        "register = 2 is outside [0, 2)"));
  EXPECT_TRUE(failsWith(layout.apply({{"register", 0}, {"lane", -1}}),
                        "lane = -1 is outside [0, 4)"));
}

//===----------------------------------------------------------------------===//
// Product and composition
//===----------------------------------------------------------------------===//

TEST(LinearLayoutTest, ProductOfSharedDimsTiles) {
  EXPECT_EQ(LinearLayout::identity1D(4, "r", "d") *
                LinearLayout::identity1D(8, "r", "d"),
            LinearLayout::identity1D(32, "r", "d"));
  // Outer's entries in a shared out dim are scaled by inner's size (4).
  EXPECT_EQ(LinearLayout::identity1D(4, "r", "d") *
                LinearLayout::strided1D(2, 2, "l", "d"),
            make({{"r", {{1}, {2}}}, {"l", {{8}}}}, {{"d", 16}}));
}

TEST(LinearLayoutTest, ProductOfDisjointDims) {
  LinearLayout product = LinearLayout::identity1D(2, "register", "dim1") *
                         LinearLayout::identity1D(4, "lane", "dim0");
  EXPECT_EQ(product.getNumInDims(), 2);
  EXPECT_EQ(product.getNumOutDims(), 2);
  EXPECT_EQ(product, make({{"register", {{1, 0}}}, {"lane", {{0, 1}, {0, 2}}}},
                          {{"dim1", 2}, {"dim0", 4}}));
}

TEST(LinearLayoutTest, ProductOfSharedInDimWithNewOutDim) {
  LinearLayout product = LinearLayout::identity1D(2, "r", "a") *
                         LinearLayout::identity1D(4, "r", "b");
  EXPECT_EQ(product,
            make({{"r", {{1, 0}, {0, 1}, {0, 2}}}}, {{"a", 2}, {"b", 4}}));
  EXPECT_TRUE(product.isInvertible());
}

TEST(LinearLayoutTest, Compose) {
  LinearLayout swapBits = make({{"x", {{2}, {1}}}}, {{"y", 4}});
  LinearLayout layout = make({{"r", {{2}}}, {"l", {{1}}}}, {{"x", 4}});
  // r -> x = 2 -> y = 1; l -> x = 1 -> y = 2.
  EXPECT_EQ(unwrap(layout.compose(swapBits)),
            make({{"r", {{1}}}, {"l", {{2}}}}, {{"y", 4}}));
}

TEST(LinearLayoutTest, ComposeMatchesOutDimsByName) {
  LinearLayout inner = make({{"r", {{1, 0}, {0, 1}}}}, {{"a", 2}, {"b", 2}});
  LinearLayout outer = make({{"b", {{1}}}, {"a", {{2}}}}, {{"z", 4}});
  EXPECT_EQ(unwrap(inner.compose(outer)),
            make({{"r", {{2}, {1}}}}, {{"z", 4}}));
}

TEST(LinearLayoutTest, ComposeRejectsMismatchedDims) {
  LinearLayout layout = LinearLayout::identity1D(4, "r", "x");
  EXPECT_TRUE(failsWith(layout.compose(LinearLayout::identity1D(4, "y", "z")),
                        "compose: out dims [x] is not a permutation of [y]"));
  EXPECT_TRUE(
      failsWith(layout.compose(LinearLayout::identity1D(2, "x", "z")),
                "out dim 'x' has size 4 but outer's in dim has size 2"));
}

//===----------------------------------------------------------------------===//
// Inverses
//===----------------------------------------------------------------------===//

TEST(LinearLayoutTest, InvertPermutation) {
  // r bit 0 -> 2, bit 1 -> 4, bit 2 -> 1.
  LinearLayout layout = make({{"r", {{2}, {4}, {1}}}}, {{"d", 8}});
  LinearLayout inverse = unwrap(layout.invert());
  EXPECT_EQ(inverse, make({{"d", {{4}, {1}, {2}}}}, {{"r", 8}}));
  EXPECT_EQ(unwrap(layout.compose(inverse)),
            LinearLayout::identity1D(8, "r", "r"));
}

TEST(LinearLayoutTest, InvertTwoDimsSwapsRoles) {
  LinearLayout layout =
      make({{"register", {{0, 1}}}, {"lane", {{1, 0}, {2, 1}}}},
           {{"dim0", 4}, {"dim1", 2}});
  // dim0 = 1 is lane 1; dim0 = 2 is lane 2 ^ register 1; dim1 = 1 is
  // register 1.
  EXPECT_EQ(unwrap(layout.invert()),
            make({{"dim0", {{0, 1}, {1, 2}}}, {"dim1", {{1, 0}}}},
                 {{"register", 2}, {"lane", 4}}));
}

TEST(LinearLayoutTest, InvertRejectsNonBijections) {
  EXPECT_TRUE(failsWith(LinearLayout::zeros1D(2, "r", "d", 2).invert(),
                        "invert: layout is not injective"));
  EXPECT_TRUE(failsWith(LinearLayout::strided1D(2, 2, "r", "d").invert(),
                        "invert: layout is not surjective"));
}

TEST(LinearLayoutTest, PseudoinvertPicksSmallestPreimage) {
  // Surjective, not injective: register 2 is a broadcast and lane 2 = 3 is
  // reached by lane 1 ^ register 1 as well.
  LinearLayout layout =
      make({{"register", {{1}, {0}}}, {"lane", {{2}, {3}}}}, {{"d", 4}});
  LinearLayout inverse = unwrap(layout.pseudoinvert());
  // d = 2 has preimages lane 1 (in bits 0b0100) and register 1 ^ lane 2
  // (0b1001); the smaller one wins.
  EXPECT_EQ(inverse,
            make({{"d", {{1, 0}, {0, 1}}}}, {{"register", 4}, {"lane", 4}}));
  for (int32_t d = 0; d < 4; ++d) {
    Point preimage = at(inverse, {{"d", d}});
    EXPECT_EQ(at(layout, preimage), (Point{{"d", d}})) << "d = " << d;
  }
}

TEST(LinearLayoutTest, PseudoinvertRejectsNonSurjective) {
  EXPECT_TRUE(failsWith(LinearLayout::strided1D(4, 2, "r", "d").pseudoinvert(),
                        "pseudoinvert: layout is not surjective (rank 2 of 3"));
}

TEST(LinearLayoutTest, InvertAndComposeFindsWhereEachValueLives) {
  // Four registers by four lanes, to two registers by eight lanes.
  LinearLayout from =
      make({{"register", {{1}, {2}}}, {"lane", {{4}, {8}}}}, {{"dim0", 16}});
  LinearLayout to =
      make({{"register", {{1}}}, {"lane", {{2}, {4}, {8}}}}, {{"dim0", 16}});
  EXPECT_EQ(unwrap(from.invertAndCompose(to)),
            make({{"register", {{1, 0}, {0, 1}}}, {"lane", {{0, 2}, {0, 4}}}},
                 {{"register", 2}, {"lane", 8}}));
}

TEST(LinearLayoutTest, InvertAndComposePrefersLowLanesOverReplicas) {
  LinearLayout from =
      make({{"register", {{1}, {2}}}, {"lane", {{4}}}}, {{"dim0", 8}});
  // Lane bit 2 replicates: lanes 2 and 6 both hold element 4.
  LinearLayout to =
      make({{"register", {{1}}}, {"lane", {{2}, {4}, {0}}}}, {{"dim0", 8}});
  EXPECT_EQ(unwrap(from.invertAndCompose(to)),
            make({{"register", {{1, 0}, {0, 1}}}, {"lane", {{0, 2}}}},
                 {{"register", 2}, {"lane", 8}}));
}

TEST(LinearLayoutTest, InvertAndComposeRejects) {
  LinearLayout layout = LinearLayout::identity1D(4, "r", "d");
  EXPECT_TRUE(
      failsWith(layout.invertAndCompose(LinearLayout::identity1D(4, "r", "e")),
                "invertAndCompose: out dims [d] is not a permutation "
                "of [e]"));
  EXPECT_TRUE(
      failsWith(layout.invertAndCompose(LinearLayout::identity1D(2, "r", "d")),
                "out dim 'd' has size 4 but outer's has size 2"));
  EXPECT_TRUE(failsWith(
      layout.invertAndCompose(make({{"r", {{1}, {1}}}}, {{"d", 4}})),
      "basis 1 of in dim 'r' maps to [2] (outer's out order), which outer "
      "does not reach"));
}

//===----------------------------------------------------------------------===//
// Restructuring
//===----------------------------------------------------------------------===//

TEST(LinearLayoutTest, Sublayout) {
  LinearLayout layout =
      make({{"register", {{1, 0}}}, {"lane", {{0, 1}, {2, 0}}}},
           {{"dim0", 4}, {"dim1", 2}});
  EXPECT_EQ(unwrap(layout.sublayout({"lane"}, {"dim0"})),
            make({{"lane", {{0}, {2}}}}, {{"dim0", 4}}));
  // Dims keep the layout's order, not the argument's.
  EXPECT_EQ(unwrap(layout.sublayout({"lane", "register"}, {"dim1", "dim0"})),
            layout);
  EXPECT_TRUE(
      failsWith(layout.sublayout({"warp"}, {}),
                "sublayout: 'warp' is not an in dim of [register, lane]"));
  EXPECT_TRUE(failsWith(layout.sublayout({}, {"dim2"}),
                        "'dim2' is not an out dim of [dim0, dim1]"));
  EXPECT_TRUE(failsWith(layout.sublayout({"lane", "lane"}, {}),
                        "in dim 'lane' is listed twice"));
}

TEST(LinearLayoutTest, ReshapeInsFirstDimIsLeastSignificant) {
  LinearLayout layout = make({{"a", {{1}, {2}}}, {"b", {{4}}}}, {{"x", 8}});
  EXPECT_EQ(unwrap(layout.reshapeIns({{"c", 2}, {"e", 4}})),
            make({{"c", {{1}}}, {"e", {{2}, {4}}}}, {{"x", 8}}));
  EXPECT_TRUE(
      failsWith(layout.reshapeIns({{"c", 4}}),
                "the new in dims have a total size of 2^2, expected 2^3"));
  EXPECT_TRUE(failsWith(layout.reshapeIns({{"c", 16}}),
                        "exceed the total in size 2^3 at 'c'"));
  EXPECT_TRUE(failsWith(layout.reshapeIns({{"c", 8}, {"e", 3}}),
                        "in dim 'e' has size 3, not a power of two"));
  EXPECT_TRUE(failsWith(layout.reshapeIns({{"c", 4}, {"c", 2}}),
                        "in dim 'c' appears twice"));
}

TEST(LinearLayoutTest, ReshapeOutsFirstDimIsLeastSignificant) {
  LinearLayout layout = LinearLayout::identity1D(8, "r", "x");
  EXPECT_EQ(unwrap(layout.reshapeOuts({{"lo", 2}, {"hi", 4}})),
            make({{"r", {{1, 0}, {0, 1}, {0, 2}}}}, {{"lo", 2}, {"hi", 4}}));
  EXPECT_TRUE(failsWith(layout.reshapeOuts({{"lo", 2}}),
                        "total size of 2^1, expected 2^3"));
  EXPECT_TRUE(failsWith(layout.reshapeOuts({{"lo", 5}}),
                        "out dim 'lo' has size 5, not a power of two"));
}

TEST(LinearLayoutTest, TransposeInsAndOuts) {
  LinearLayout layout =
      make({{"register", {{1, 0}}}, {"lane", {{0, 1}, {2, 0}}}},
           {{"dim0", 4}, {"dim1", 2}});
  EXPECT_EQ(unwrap(layout.transposeIns({"lane", "register"})),
            make({{"lane", {{0, 1}, {2, 0}}}, {"register", {{1, 0}}}},
                 {{"dim0", 4}, {"dim1", 2}}));
  EXPECT_EQ(unwrap(layout.transposeOuts({"dim1", "dim0"})),
            make({{"register", {{0, 1}}}, {"lane", {{1, 0}, {0, 2}}}},
                 {{"dim1", 2}, {"dim0", 4}}));
  EXPECT_TRUE(failsWith(layout.transposeIns({"lane"}),
                        "transposeIns: [lane] is not a permutation of "
                        "[register, lane]"));
  EXPECT_TRUE(failsWith(layout.transposeOuts({"dim0", "dim0"}),
                        "transposeOuts: [dim0, dim0] is not a permutation"));
}

TEST(LinearLayoutTest, Flatten) {
  LinearLayout layout =
      make({{"a", {{1, 0}}}, {"b", {{0, 1}, {0, 0}}}}, {{"x", 2}, {"y", 2}});
  EXPECT_EQ(unwrap(layout.flattenIns()),
            make({{"a", {{1, 0}, {0, 1}, {0, 0}}}}, {{"x", 2}, {"y", 2}}));
  EXPECT_EQ(unwrap(layout.flattenOuts()),
            make({{"a", {{1}}}, {"b", {{2}, {0}}}}, {{"x", 4}}));
  EXPECT_EQ(unwrap(LinearLayout().flattenIns()), LinearLayout());
  LinearLayout huge = LinearLayout::identity1D(1 << 20, "a", "x") *
                      LinearLayout::identity1D(1 << 20, "b", "y");
  EXPECT_TRUE(failsWith(huge.flattenIns(),
                        "flattenIns: total in size 2^40 is over the dim size "
                        "limit 2^30"));
  EXPECT_TRUE(
      failsWith(huge.flattenOuts(), "flattenOuts: total out size 2^40"));
}

TEST(LinearLayoutTest, NumConsecutiveInOut) {
  // Four registers of consecutive elements, then lanes.
  EXPECT_EQ(make({{"register", {{1}, {2}}}, {"lane", {{4}, {8}}}}, {{"d", 16}})
                .getNumConsecutiveInOut(),
            4);
  // One register per thread: nothing to vectorize.
  EXPECT_EQ(make({{"register", {}}, {"lane", {{1}, {2}}}}, {{"d", 4}})
                .getNumConsecutiveInOut(),
            1);
  // Register 2 jumps to element 4.
  EXPECT_EQ(make({{"register", {{1}, {4}}}, {"lane", {{2}}}}, {{"d", 8}})
                .getNumConsecutiveInOut(),
            2);
  // Register 1 also moves along the second out dim.
  EXPECT_EQ(make({{"register", {{1, 1}}}}, {{"d", 2}, {"e", 2}})
                .getNumConsecutiveInOut(),
            1);
  // A lane offset of 2 breaks the alignment of a four-register run.
  EXPECT_EQ(make({{"register", {{1}, {2}}}, {"lane", {{2}}}}, {{"d", 4}})
                .getNumConsecutiveInOut(),
            2);
  EXPECT_EQ(LinearLayout().getNumConsecutiveInOut(), 1);
}

TEST(LinearLayoutTest, RemoveZeroBasesAndSublayoutIsZero) {
  LinearLayout layout =
      make({{"register", {{0, 1}, {0, 0}, {1, 0}}}, {"lane", {{0, 0}}}},
           {{"d", 2}, {"e", 2}});
  EXPECT_EQ(layout.removeZeroBasesAlongDim("register"),
            make({{"register", {{0, 1}, {1, 0}}}, {"lane", {{0, 0}}}},
                 {{"d", 2}, {"e", 2}}));
  EXPECT_EQ(layout.removeZeroBasesAlongDim("lane"),
            make({{"register", {{0, 1}, {0, 0}, {1, 0}}}, {"lane", {}}},
                 {{"d", 2}, {"e", 2}}));
  EXPECT_TRUE(layout.sublayoutIsZero({"lane"}, {"d", "e"}));
  EXPECT_FALSE(layout.sublayoutIsZero({"register"}, {"d"}));
  EXPECT_FALSE(layout.sublayoutIsZero({"register"}, {"e"}));
  EXPECT_TRUE(layout.sublayoutIsZero({"register", "lane"}, {}));
}

TEST(LinearLayoutTest, EqualityAndToString) {
  LinearLayout a =
      make({{"register", {{1, 0}}}, {"lane", {}}}, {{"d", 2}, {"e", 1}});
  EXPECT_EQ(a.toString(), "register (2): [1, 0]\nlane (1): -\n-> d (2), e (1)");
  EXPECT_EQ(LinearLayout().toString(), "-> -");
  EXPECT_NE(a, unwrap(a.transposeIns({"lane", "register"})));
  EXPECT_NE(a,
            make({{"register", {{1, 0}}}, {"lane", {}}}, {{"d", 4}, {"e", 1}}));
  EXPECT_NE(a,
            make({{"register", {{0, 0}}}, {"lane", {}}}, {{"d", 2}, {"e", 1}}));
  EXPECT_EQ(a,
            make({{"register", {{1, 0}}}, {"lane", {}}}, {{"d", 2}, {"e", 1}}));
}

//===----------------------------------------------------------------------===//
// Properties over random layouts
//===----------------------------------------------------------------------===//

class RandomLayouts {
public:
  explicit RandomLayouts(unsigned seed) : rng_(seed) {}

  int uniform(int lo, int hi) {
    return std::uniform_int_distribution<int>(lo, hi)(rng_);
  }

  /// One to three out dims of up to 16 elements each.
  std::vector<OutDim> outs() {
    std::vector<OutDim> outs;
    int count = uniform(1, 3);
    for (int j = 0; j < count; ++j)
      outs.push_back({"o" + std::to_string(j), 1 << uniform(0, 4)});
    return outs;
  }

  /// In dims with `bits` bits between them (each dim gets a random share)
  /// and random bases.
  LinearLayout layout(const std::vector<OutDim> &outs, int bits) {
    std::vector<int> share(uniform(1, 3), 0);
    for (int b = 0; b < bits; ++b)
      ++share[uniform(0, static_cast<int>(share.size()) - 1)];
    std::vector<InDim> ins;
    for (size_t d = 0; d < share.size(); ++d) {
      std::vector<LinearLayout::Basis> bases;
      for (int i = 0; i < share[d]; ++i) {
        LinearLayout::Basis basis;
        for (const auto &out : outs)
          basis.push_back(uniform(0, out.size - 1));
        bases.push_back(basis);
      }
      ins.push_back({"i" + std::to_string(d), bases});
    }
    return make(ins, outs);
  }

  LinearLayout any() { return layout(outs(), uniform(0, 8)); }

  /// Retries random layouts of the right size until one is `wanted`;
  /// roughly one in four square bit matrices is invertible.
  LinearLayout until(bool (LinearLayout::*wanted)() const, int extraBits) {
    std::vector<OutDim> o = outs();
    int bits = 0;
    for (const auto &out : o)
      bits += __builtin_ctz(out.size);
    for (;;) {
      LinearLayout candidate = layout(o, bits + extraBits);
      if ((candidate.*wanted)())
        return candidate;
    }
  }

  Point point(const LinearLayout &layout) {
    Point p;
    for (const auto &in : layout.getInDims())
      p.emplace_back(in.name, uniform(0, (1 << in.bases.size()) - 1));
    return p;
  }

private:
  std::mt19937 rng_;
};

LinearLayout identityOnIns(const LinearLayout &layout) {
  LinearLayout identity;
  for (const auto &in : layout.getInDims())
    identity = identity *
               LinearLayout::identity1D(1 << in.bases.size(), in.name, in.name);
  return identity;
}

LinearLayout identityOnOuts(const LinearLayout &layout) {
  LinearLayout identity;
  for (const auto &out : layout.getOutDims())
    identity =
        identity * LinearLayout::identity1D(out.size, out.name, out.name);
  return identity;
}

Point xorPoints(const Point &a, const Point &b) {
  Point sum = a;
  for (size_t d = 0; d < a.size(); ++d)
    sum[d].second ^= b[d].second;
  return sum;
}

constexpr unsigned kSeeds = 200;

TEST(LinearLayoutPropertyTest, ComposeWithInverseIsIdentity) {
  for (unsigned seed = 0; seed < kSeeds; ++seed) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    RandomLayouts random(seed);
    LinearLayout layout = random.until(&LinearLayout::isInvertible, 0);
    SCOPED_TRACE(layout.toString());
    LinearLayout inverse = unwrap(layout.invert());
    EXPECT_EQ(unwrap(layout.compose(inverse)), identityOnIns(layout));
    EXPECT_EQ(unwrap(inverse.compose(layout)), identityOnOuts(layout));
  }
}

TEST(LinearLayoutPropertyTest, PseudoinverseIsARightInverse) {
  for (unsigned seed = 0; seed < kSeeds; ++seed) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    RandomLayouts random(seed);
    LinearLayout layout =
        random.until(&LinearLayout::isSurjective, random.uniform(0, 3));
    SCOPED_TRACE(layout.toString());
    LinearLayout inverse = unwrap(layout.pseudoinvert());
    EXPECT_EQ(unwrap(inverse.compose(layout)), identityOnOuts(layout));
  }
}

TEST(LinearLayoutPropertyTest, InvertAndComposeRecoversLocations) {
  for (unsigned seed = 0; seed < kSeeds; ++seed) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    RandomLayouts random(seed);
    LinearLayout outer =
        random.until(&LinearLayout::isSurjective, random.uniform(0, 3));
    LinearLayout layout =
        random.layout(outer.getOutDims(), random.uniform(0, 8));
    SCOPED_TRACE(layout.toString() + "\nouter:\n" + outer.toString());
    LinearLayout location = unwrap(layout.invertAndCompose(outer));
    EXPECT_EQ(unwrap(location.compose(outer)), layout);
    for (int trial = 0; trial < 8; ++trial) {
      Point x = random.point(layout);
      EXPECT_EQ(at(outer, at(location, x)), at(layout, x));
    }
  }
}

TEST(LinearLayoutPropertyTest, ProductSizesAddUp) {
  for (unsigned seed = 0; seed < kSeeds; ++seed) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    RandomLayouts random(seed);
    LinearLayout inner = random.any();
    LinearLayout outer = random.any();
    LinearLayout product = inner * outer;
    EXPECT_EQ(product.getTotalInDimSizeLog2(),
              inner.getTotalInDimSizeLog2() + outer.getTotalInDimSizeLog2());
    EXPECT_EQ(product.getTotalOutDimSizeLog2(),
              inner.getTotalOutDimSizeLog2() + outer.getTotalOutDimSizeLog2());
    for (const auto &in : inner.getInDims())
      EXPECT_EQ(product.getInDimSize(in.name),
                inner.getInDimSize(in.name) * (outer.hasInDim(in.name)
                                                   ? outer.getInDimSize(in.name)
                                                   : 1));
    // Inner's bases come first and keep their entries; outer's follow,
    // scaled by inner's size in shared out dims.
    for (const auto &out : product.getOutDims()) {
      bool inInner = inner.hasOutDim(out.name),
           inOuter = outer.hasOutDim(out.name);
      int32_t scale = inInner ? inner.getOutDimSize(out.name) : 1;
      for (const auto &in : product.getInDims()) {
        int innerBits =
            inner.hasInDim(in.name) ? inner.getInDimSizeLog2(in.name) : 0;
        for (int i = 0; i < static_cast<int>(in.bases.size()); ++i) {
          int32_t expected = 0;
          if (i < innerBits && inInner)
            expected = inner.getBasis(in.name, i, out.name);
          if (i >= innerBits && inOuter)
            expected = outer.getBasis(in.name, i - innerBits, out.name) * scale;
          EXPECT_EQ(product.getBasis(in.name, i, out.name), expected)
              << in.name << " basis " << i << ", " << out.name;
        }
      }
    }
  }
}

TEST(LinearLayoutPropertyTest, ApplyIsLinear) {
  for (unsigned seed = 0; seed < kSeeds; ++seed) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    RandomLayouts random(seed);
    LinearLayout layout = random.any();
    for (int trial = 0; trial < 8; ++trial) {
      Point a = random.point(layout), b = random.point(layout);
      EXPECT_EQ(at(layout, xorPoints(a, b)),
                xorPoints(at(layout, a), at(layout, b)));
    }
  }
}

TEST(LinearLayoutPropertyTest, FlattenThenReshapeRoundTrips) {
  for (unsigned seed = 0; seed < kSeeds; ++seed) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    RandomLayouts random(seed);
    LinearLayout layout = random.any();
    std::vector<std::pair<std::string, int32_t>> ins, outs;
    for (const auto &in : layout.getInDims())
      ins.emplace_back(in.name, 1 << in.bases.size());
    for (const auto &out : layout.getOutDims())
      outs.emplace_back(out.name, out.size);
    EXPECT_EQ(unwrap(unwrap(layout.flattenIns()).reshapeIns(ins)), layout);
    EXPECT_EQ(unwrap(unwrap(layout.flattenOuts()).reshapeOuts(outs)), layout);
  }
}

} // namespace
} // namespace hadron
