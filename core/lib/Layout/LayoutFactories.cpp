//===- LayoutFactories.cpp - GPU layouts as linear layouts ----------------===//

#include "hadron/Layout/LayoutFactories.h"

#include <algorithm>
#include <optional>
#include <string>

namespace hadron {

namespace {

using Basis = LinearLayout::Basis;

bool isPowerOf2(int64_t x) { return x > 0 && (x & (x - 1)) == 0; }

int log2Exact(int64_t x) {
  int k = 0;
  while ((int64_t(1) << k) < x)
    ++k;
  return k;
}

std::string dimName(int d) { return "dim" + std::to_string(d); }

std::string formatList(const std::vector<int32_t> &values) {
  std::string s = "[";
  for (size_t i = 0; i < values.size(); ++i)
    s += (i ? ", " : "") + std::to_string(values[i]);
  return s + "]";
}

std::optional<std::string>
checkRank(const char *name, const std::vector<int32_t> &values, size_t rank) {
  if (values.size() == rank)
    return std::nullopt;
  return std::string(name) + " has " + std::to_string(values.size()) +
         " entries but shape has " + std::to_string(rank);
}

std::optional<std::string> checkPowersOf2(const char *name,
                                          const std::vector<int32_t> &values) {
  for (size_t i = 0; i < values.size(); ++i)
    if (!isPowerOf2(values[i]))
      return std::string(name) + "[" + std::to_string(i) +
             "] = " + std::to_string(values[i]) + " is not a power of two";
  return std::nullopt;
}

std::optional<std::string> checkPowerOf2(const char *name, int32_t value) {
  if (isPowerOf2(value))
    return std::nullopt;
  return std::string(name) + " = " + std::to_string(value) +
         " is not a power of two";
}

std::optional<std::string> checkShape(const std::vector<int32_t> &shape) {
  if (shape.empty())
    return std::string("shape is empty; the tensor needs rank >= 1");
  return checkPowersOf2("shape", shape);
}

std::optional<std::string> checkOrder(const std::vector<int32_t> &order,
                                      size_t rank) {
  if (auto why = checkRank("order", order, rank))
    return why;
  std::vector<int32_t> sorted = order;
  std::sort(sorted.begin(), sorted.end());
  for (size_t i = 0; i < rank; ++i)
    if (sorted[i] != int32_t(i))
      return "order = " + formatList(order) + " is not a permutation of 0.." +
             std::to_string(rank - 1);
  return std::nullopt;
}

std::optional<std::string>
checkBlockedArgs(const std::vector<int32_t> &shape,
                 const std::vector<int32_t> &sizePerThread,
                 const std::vector<int32_t> &threadsPerWarp,
                 const std::vector<int32_t> &warpsPerCTA,
                 const std::vector<int32_t> &order) {
  if (auto why = checkShape(shape))
    return why;
  size_t rank = shape.size();
  for (auto [name, values] : {std::pair{"sizePerThread", &sizePerThread},
                              std::pair{"threadsPerWarp", &threadsPerWarp},
                              std::pair{"warpsPerCTA", &warpsPerCTA}}) {
    if (auto why = checkRank(name, *values, rank))
      return why;
    if (auto why = checkPowersOf2(name, *values))
      return why;
  }
  return checkOrder(order, rank);
}

Basis along(size_t rank, int32_t d, int32_t value) {
  Basis basis(rank, 0);
  basis[d] = value;
  return basis;
}

std::vector<LinearLayout::OutDim>
tensorOutDims(const std::vector<int32_t> &shape) {
  std::vector<LinearLayout::OutDim> outs;
  for (size_t d = 0; d < shape.size(); ++d)
    outs.push_back({dimName(static_cast<int>(d)), shape[d]});
  return outs;
}

} // namespace

Result<LinearLayout> blockedLayout(const std::vector<int32_t> &shape,
                                   const std::vector<int32_t> &sizePerThread,
                                   const std::vector<int32_t> &threadsPerWarp,
                                   const std::vector<int32_t> &warpsPerCTA,
                                   const std::vector<int32_t> &order) {
  if (auto why = checkBlockedArgs(shape, sizePerThread, threadsPerWarp,
                                  warpsPerCTA, order))
    return Error(*why);
  size_t rank = shape.size();
  std::vector<Basis> registers, lanes, warps;
  // Step `value` along dim d if it stays inside the shape; past it, lanes
  // and warps replicate (zero) and registers are dropped.
  for (int32_t d : order) {
    int64_t step = 1;
    for (int i = 0; i < log2Exact(sizePerThread[d]); ++i, step *= 2)
      if (step < shape[d])
        registers.push_back(along(rank, d, int32_t(step)));
    for (int i = 0; i < log2Exact(threadsPerWarp[d]); ++i, step *= 2)
      lanes.push_back(step < shape[d] ? along(rank, d, int32_t(step))
                                      : Basis(rank, 0));
    for (int i = 0; i < log2Exact(warpsPerCTA[d]); ++i, step *= 2)
      warps.push_back(step < shape[d] ? along(rank, d, int32_t(step))
                                      : Basis(rank, 0));
  }
  for (int32_t d : order) {
    int64_t tile =
        int64_t(sizePerThread[d]) * threadsPerWarp[d] * warpsPerCTA[d];
    for (int64_t step = tile; step < shape[d]; step *= 2)
      registers.push_back(along(rank, d, int32_t(step)));
  }
  return LinearLayout::create({{"register", std::move(registers)},
                               {"lane", std::move(lanes)},
                               {"warp", std::move(warps)},
                               {"block", {}}},
                              tensorOutDims(shape),
                              /*requireSurjective=*/true);
}

Result<LinearLayout> sliceLayout(const LinearLayout &parent, int dim) {
  int rank = parent.getNumOutDims();
  for (int d = 0; d < rank; ++d)
    if (parent.getOutDims()[d].name != dimName(d))
      return Error("sliceLayout: parent's out dim #" + std::to_string(d) +
                   " is '" + parent.getOutDims()[d].name + "', expected '" +
                   dimName(d) + "'");
  if (dim < 0 || dim >= rank)
    return Error("sliceLayout: dim = " + std::to_string(dim) +
                 " is outside [0, " + std::to_string(rank) + ")");
  std::vector<std::string> kept;
  std::vector<std::pair<std::string, int32_t>> renamed;
  for (int d = 0; d < rank; ++d) {
    if (d == dim)
      continue;
    kept.push_back(dimName(d));
    renamed.emplace_back(dimName(static_cast<int>(renamed.size())),
                         parent.getOutDims()[d].size);
  }
  Result<LinearLayout> sliced = parent.sublayout(parent.getInDimNames(), kept);
  if (!sliced)
    return sliced;
  // Same sizes, new names: a reshape that only renames.
  Result<LinearLayout> result = sliced->reshapeOuts(renamed);
  if (!result || !result->hasInDim("register"))
    return result;
  return result->removeZeroBasesAlongDim("register");
}

Result<LinearLayout> swizzledSharedLayout(const std::vector<int32_t> &shape,
                                          int32_t vec, int32_t perPhase,
                                          int32_t maxPhase,
                                          const std::vector<int32_t> &order) {
  if (auto why = checkShape(shape))
    return Error(*why);
  for (auto [name, value] :
       {std::pair{"vec", vec}, std::pair{"perPhase", perPhase},
        std::pair{"maxPhase", maxPhase}})
    if (auto why = checkPowerOf2(name, value))
      return Error(*why);
  if (auto why = checkOrder(order, shape.size()))
    return Error(*why);
  size_t rank = shape.size();
  std::vector<Basis> offsets;
  for (size_t p = 0; p < rank; ++p) {
    int32_t d = order[p];
    for (int64_t step = 1; step < shape[d]; step *= 2) {
      Basis basis = along(rank, d, int32_t(step));
      if (p == 1) {
        int64_t cols = shape[order[0]];
        basis[order[0]] = int32_t((step / perPhase) % maxPhase * vec % cols);
      }
      offsets.push_back(std::move(basis));
    }
  }
  return LinearLayout::create({{"offset", std::move(offsets)}},
                              tensorOutDims(shape),
                              /*requireSurjective=*/true);
}

Result<LinearLayout> matrixSharedLayout(const std::vector<int32_t> &shape,
                                        int32_t swizzleBytes, int32_t elementBits,
                                        bool transposed) {
  if (auto why = checkShape(shape))
    return Error(*why);
  if (shape.size() < 2)
    return Error("a matrix tile in shared memory has rank 2 or more, got rank " +
                 std::to_string(shape.size()));
  if (swizzleBytes != 32 && swizzleBytes != 64 && swizzleBytes != 128)
    return Error("swizzle = " + std::to_string(swizzleBytes) + " bytes; it is 32, 64 or 128");
  if (elementBits != 8 && elementBits != 16 && elementBits != 32)
    return Error("elementBits = " + std::to_string(elementBits) + "; it is 8, 16 or 32");
  const size_t rank = shape.size();
  const int contig = int(transposed ? rank - 2 : rank - 1);
  const int other = int(transposed ? rank - 1 : rank - 2);
  const int64_t elemBytes = elementBits / 8;
  const int64_t run = swizzleBytes / elemBytes; // elements per swizzled row
  const int64_t rows = shape[other];
  if (shape[contig] % run != 0)
    return Error("the contiguous dim holds " + std::to_string(shape[contig]) +
                 " elements; a " + std::to_string(swizzleBytes) + "-byte swizzle of " +
                 std::to_string(elementBits) + "-bit elements needs a multiple of " +
                 std::to_string(run));
  if (rows % 8 != 0)
    return Error("the strided dim holds " + std::to_string(rows) +
                 " rows; a swizzled tile needs a multiple of 8");
  // Coordinates of an unswizzled element offset within the tile.
  auto coordsOf = [&](int64_t offset) {
    Basis basis(rank, 0);
    basis[contig] = int32_t(offset % run + (offset / (run * rows)) * run);
    basis[other] = int32_t((offset / run) % rows);
    return basis;
  };
  const int64_t mask = swizzleBytes / 16 - 1;
  std::vector<Basis> offsets;
  const int64_t tileElems = int64_t(shape[contig]) * rows;
  for (int64_t e = 1; e < tileElems; e *= 2) {
    // The swizzle is an involution on byte offsets: the element stored at
    // byte b is the one whose unswizzled byte offset is b ^ swz(b).
    int64_t byte = e * elemBytes;
    int64_t unswizzled = (byte ^ (((byte >> 7) & mask) << 4)) / elemBytes;
    Basis basis(rank, 0);
    for (int64_t bit = 1; bit <= unswizzled; bit *= 2)
      if (unswizzled & bit) {
        Basis part = coordsOf(bit);
        for (size_t d = 0; d < rank; ++d)
          basis[d] ^= part[d];
      }
    offsets.push_back(std::move(basis));
  }
  // Leading dims: whole tiles, innermost first.
  for (int d = int(rank) - 3; d >= 0; --d)
    for (int64_t step = 1; step < shape[d]; step *= 2)
      offsets.push_back(along(rank, d, int32_t(step)));
  return LinearLayout::create({{"offset", std::move(offsets)}}, tensorOutDims(shape),
                              /*requireSurjective=*/true);
}

Result<LinearLayout>
dotOperandLayout(int opIdx, const std::vector<int32_t> &shape,
                 const std::vector<int32_t> &sizePerThread,
                 const std::vector<int32_t> &threadsPerWarp,
                 const std::vector<int32_t> &warpsPerCTA,
                 const std::vector<int32_t> &order) {
  if (opIdx != 0 && opIdx != 1)
    return Error("opIdx = " + std::to_string(opIdx) +
                 " is neither 0 (operand A) nor 1 (operand B)");
  if (shape.size() != 2 && shape.size() != 3)
    return Error("shape has rank " + std::to_string(shape.size()) +
                 "; a dot operand has rank 2, or 3 with a batch dim");
  if (auto why = checkBlockedArgs(shape, sizePerThread, threadsPerWarp,
                                  warpsPerCTA, order))
    return Error(*why);
  size_t rank = shape.size();
  size_t kDim = opIdx == 0 ? rank - 1 : rank - 2;
  std::vector<int32_t> wholeK = sizePerThread;
  wholeK[kDim] = shape[kDim];
  return blockedLayout(shape, wholeK, threadsPerWarp, warpsPerCTA, order);
}

Result<LinearLayout> matrixOperandLayout(MatrixOperand operand,
                                         const std::vector<int32_t> &shape,
                                         const LinearLayout &fragment,
                                         const std::vector<int32_t> &warpsPerCTA) {
  if (shape.size() != 2)
    return Error("shape has rank " + std::to_string(shape.size()) +
                 "; a matrix-instruction dot has rank 2");
  if (auto why = checkShape(shape))
    return Error(*why);
  if (auto why = checkRank("warpsPerCTA", warpsPerCTA, 2))
    return Error(*why);
  if (auto why = checkPowersOf2("warpsPerCTA", warpsPerCTA))
    return Error(*why);
  if (fragment.getNumOutDims() != 2 || !fragment.hasInDim("register") ||
      !fragment.hasInDim("lane"))
    return Error("a matrix fragment must map (register, lane[, warp]) to (dim0, dim1)");
  // Warps that issue one instruction together: their bases step along M
  // and come first, out of warpsPerCTA[0].
  const int32_t groupWarps = fragment.hasInDim("warp") ? fragment.getInDimSize("warp") : 1;
  if (groupWarps > 1 && (warpsPerCTA[0] % groupWarps != 0))
    return Error("the instruction is issued by " + std::to_string(groupWarps) +
                 " warps together along M; warpsPerCTA[0] = " + std::to_string(warpsPerCTA[0]) +
                 " is not a multiple of that");
  const int32_t rows = fragment.getOutDims()[0].size;
  const int32_t cols = fragment.getOutDims()[1].size;
  // Tensor dim holding M and N (-1: the operand has none; its warps of that
  // kind replicate).
  const int mDim = operand == MatrixOperand::B ? -1 : 0;
  const int nDim = operand == MatrixOperand::A ? -1 : 1;
  std::vector<Basis> registers, lanes, warps;
  // A shape smaller than the fragment keeps the coordinates modulo the
  // shape: registers that no longer move drop out, lanes replicate.
  auto clamp = [&](Basis basis) {
    for (size_t d = 0; d < 2; ++d)
      basis[d] &= shape[d] - 1;
    return basis;
  };
  auto isZero = [](const Basis &basis) { return basis[0] == 0 && basis[1] == 0; };
  for (int i = 0; i < fragment.getInDimSizeLog2("register"); ++i)
    if (Basis basis = clamp(fragment.getBasis("register", i)); !isZero(basis))
      registers.push_back(std::move(basis));
  for (int i = 0; i < fragment.getInDimSizeLog2("lane"); ++i)
    lanes.push_back(clamp(fragment.getBasis("lane", i)));
  if (groupWarps > 1)
    for (int i = 0; i < fragment.getInDimSizeLog2("warp"); ++i) {
      Basis basis = fragment.getBasis("warp", i);
      // An operand without M (B) is the same for every warp of the group.
      warps.push_back(mDim < 0 ? Basis(2, 0) : clamp(basis));
    }
  // One CTA tile: the fragment times the warps along M and N.
  int64_t cta[2] = {rows, cols};
  auto addWarps = [&](int dim, int32_t count) {
    for (int i = 0; i < log2Exact(count); ++i) {
      if (dim < 0 || cta[dim] >= shape[dim]) {
        warps.push_back(Basis(2, 0));
        continue;
      }
      warps.push_back(along(2, dim, int32_t(cta[dim])));
      cta[dim] *= 2;
    }
  };
  addWarps(mDim, warpsPerCTA[0] / groupWarps);
  addWarps(nDim, warpsPerCTA[1]);
  // Repetitions: along the reduction dim (or N for the accumulator) first.
  const int first = operand == MatrixOperand::B ? 0 : 1;
  for (int d : {first, 1 - first})
    for (int64_t step = cta[d]; step < shape[d]; step *= 2)
      registers.push_back(along(2, d, int32_t(step)));
  return LinearLayout::create({{"register", std::move(registers)},
                               {"lane", std::move(lanes)},
                               {"warp", std::move(warps)},
                               {"block", {}}},
                              tensorOutDims(shape),
                              /*requireSurjective=*/true);
}

} // namespace hadron
