//===- TileInfo.cpp - A tile's layout as one target runs it ---------------===//

#include "hadron/Analysis/TileInfo.h"

#include "hadron/IR/Dialect.h"

#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <cassert>

using namespace mlir;

namespace hadron {

namespace {

/// Lanes, warps and blocks become registers: for a target where one thread
/// runs the whole CTA. Zero bases (replicas) are dropped: the only thread
/// holds each element once.
LinearLayout foldThreads(const LinearLayout &layout) {
  std::vector<LinearLayout::InDim> ins;
  LinearLayout::InDim reg{"register", {}};
  for (const char *name : {"register", "lane", "warp", "block"}) {
    if (!layout.hasInDim(name))
      continue;
    for (int i = 0; i < layout.getInDimSizeLog2(name); ++i) {
      const LinearLayout::Basis &basis = layout.getBasis(name, i);
      bool zero = llvm::all_of(basis, [](int32_t v) { return v == 0; });
      if (std::string(name) == "register" || !zero)
        reg.bases.push_back(basis);
    }
  }
  // Registers that step along the dimension register 0 steps along (the
  // layout's fastest) come first, in increasing stride: what were lanes and
  // warps then extend the thread's contiguous run, so one vector access
  // serves a whole row segment of the CTA instead of sizePerThread elements.
  if (!reg.bases.empty()) {
    const LinearLayout::Basis &first = reg.bases.front();
    int fast = -1;
    for (size_t d = 0; d < first.size(); ++d)
      if (first[d] != 0)
        fast = fast < 0 ? int(d) : -2;
    if (fast >= 0) {
      auto along = [&](const LinearLayout::Basis &b) {
        for (size_t d = 0; d < b.size(); ++d)
          if ((int(d) == fast) != (b[d] != 0))
            return false;
        return llvm::isPowerOf2_32(uint32_t(b[fast]));
      };
      std::stable_sort(reg.bases.begin(), reg.bases.end(),
                       [&](const LinearLayout::Basis &a, const LinearLayout::Basis &b) {
                         bool fa = along(a), fb = along(b);
                         if (fa != fb)
                           return fa;
                         return fa && a[fast] < b[fast];
                       });
    }
  }
  ins.push_back(std::move(reg));
  for (const char *name : {"lane", "warp", "block"})
    ins.push_back({name, {}});
  Result<LinearLayout> folded =
      LinearLayout::create(std::move(ins), layout.getOutDims(), /*requireSurjective=*/false);
  assert(folded.ok() && "folding bases of a valid layout keeps it valid");
  return std::move(folded).value();
}

} // namespace

const TileInfo *TileInfoCache::get(RankedTensorType type, std::string *error) {
  auto it = cache.find(type);
  if (it != cache.end())
    return it->second.get();
  Result<LinearLayout> layout = hd::toLinearLayout(type);
  if (!layout) {
    if (error)
      *error = layout.error();
    return nullptr;
  }
  auto info = std::make_unique<TileInfo>();
  info->layout = fold ? foldThreads(*layout) : *layout;
  const LinearLayout &ll = info->layout;
  info->numRegs = ll.getInDimSize("register");
  info->regCoords.reserve(info->numRegs);
  for (int64_t r = 0; r < info->numRegs; ++r) {
    LinearLayout::Point point = ll.applyUnchecked(
        {{"register", int32_t(r)}, {"lane", 0}, {"warp", 0}, {"block", 0}});
    std::vector<int32_t> coords;
    for (auto &[name, value] : point)
      coords.push_back(value);
    info->regCoords.push_back(std::move(coords));
  }
  for (int i = 0; i < ll.getInDimSizeLog2("lane"); ++i)
    info->laneBases.push_back(ll.getBasis("lane", i));
  for (int i = 0; i < ll.getInDimSizeLog2("warp"); ++i)
    info->warpBases.push_back(ll.getBasis("warp", i));
  const TileInfo *raw = info.get();
  cache[type] = std::move(info);
  return raw;
}

} // namespace hadron
