//===- ScratchLayoutTest.cpp - How a layout change picks its scratch layout ===//
//
// chooseScratchLayout: a convert_layout through shared memory writes and
// reads a scratch buffer laid out to spread both phases over the target's
// banks (TargetHooks::sharedMemoryBanks). A transpose whose reader takes
// whole rows would hit one bank with every lane unswizzled: with banks the
// choice must be swizzled and cost fewer conflicts; without banks (a CPU)
// it stays unswizzled; a change whose phases are conflict-free as they are
// keeps the unswizzled layout.
//
// (The search used to stop after its first, unswizzled candidate, so no
// target's scratch was ever swizzled: BanksSwizzleATranspose failed.)
//
//===----------------------------------------------------------------------===//

#include "../../lib/Conversion/LoweringInternals.h"

#include "hadron/Analysis/TileInfo.h"
#include "hadron/IR/Dialect.h"
#include "hadron/Layout/LayoutFactories.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/AsmParser/AsmParser.h"
#include "mlir/Parser/Parser.h"

#include <gtest/gtest.h>

using namespace mlir;
using namespace hadron;

namespace {

class ScratchLayoutTest : public ::testing::Test {
protected:
  ScratchLayoutTest() { ctx.loadDialect<hd::HadronDialect>(); }

  const TileInfo &tile(const char *layout) {
    std::string text = std::string("tensor<32x32xf32, ") + layout + ">";
    auto type = cast<RankedTensorType>(parseType(text, &ctx));
    std::string error;
    const TileInfo *info = tiles.get(type, &error);
    EXPECT_NE(info, nullptr) << error;
    return *info;
  }

  LinearLayout unswizzled(std::vector<int32_t> order) {
    return std::move(swizzledSharedLayout({32, 32}, 1, 1, 1, order)).value();
  }

  MLIRContext ctx;
  TileInfoCache tiles{/*foldThreads=*/false};
};

// Lane l holds column l (the writer) or row l (the reader, 4-element
// vectors along the row).
constexpr const char *kColumns =
    "#hd.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 1], "
    "order = [1, 0]}>";
constexpr const char *kRows =
    "#hd.blocked<{sizePerThread = [1, 4], threadsPerWarp = [32, 1], warpsPerCTA = [1, 1], "
    "order = [1, 0]}>";

TEST_F(ScratchLayoutTest, BanksSwizzleATranspose) {
  const TileInfo &src = tile(kColumns), &dst = tile(kRows);
  LinearLayout banked =
      lowering::chooseScratchLayout({32, 32}, src, dst, 4, {32, 4}, /*maxVectorBytes=*/16);
  EXPECT_FALSE(banked == unswizzled({1, 0})) << "32 banks of 4 bytes: " << banked.toString();
  LinearLayout sixteen =
      lowering::chooseScratchLayout({32, 32}, src, dst, 4, {16, 4}, /*maxVectorBytes=*/16);
  EXPECT_FALSE(sixteen == unswizzled({1, 0})) << "16 banks of 4 bytes: " << sixteen.toString();
  LinearLayout none =
      lowering::chooseScratchLayout({32, 32}, src, dst, 4, {0, 4}, /*maxVectorBytes=*/16);
  EXPECT_TRUE(none == unswizzled({1, 0})) << "no banks: " << none.toString();
}

TEST_F(ScratchLayoutTest, AConflictFreeChangeStaysUnswizzled) {
  // Lanes take 4-element pieces of 4 whole rows: each access of the warp
  // is 4 lines of banks, each bank 4 words, as few cycles as 512 bytes
  // take; no swizzle does better, so none is chosen.
  const TileInfo &pieces = tile(
      "#hd.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [1, 1], "
      "order = [1, 0]}>");
  LinearLayout chosen = lowering::chooseScratchLayout({32, 32}, pieces, pieces, 4, {32, 4},
                                                      /*maxVectorBytes=*/16);
  EXPECT_TRUE(chosen == unswizzled({1, 0})) << chosen.toString();
}

} // namespace
