//===- TileInfo.h - A tile's layout as one target runs it -------*- C++ -*-===//
//
// The distribute lowering turns a tensor with a distributed layout into, per
// thread, one value per register of its linear layout. Register r of the
// thread (lane l, warp w) holds the element at
//
//   coords = L(register = r) XOR L(lane = l, warp = w)
//
// so the coordinates of a register are a compile-time constant (regCoords)
// XORed with a per-thread part spanned by the lane and warp bases. TileInfo
// holds those facts for one tensor type; TileInfoCache computes them once
// per type. Where a target runs a CTA as one thread, lanes and warps are
// folded into registers first (replicas dropped, registers along the
// layout's fastest dim first), so the per-thread part is zero.
//
//===----------------------------------------------------------------------===//
#ifndef HADRON_ANALYSIS_TILEINFO_H
#define HADRON_ANALYSIS_TILEINFO_H

#include "hadron/Layout/LinearLayout.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/DenseMap.h"

#include <memory>
#include <string>
#include <vector>

namespace hadron {

/// The linear layout of a tensor type as the target runs it, and the
/// constant coordinates of each register.
struct TileInfo {
  LinearLayout layout;
  /// Registers per thread.
  int64_t numRegs = 0;
  /// Coordinates of register r in lane 0 of warp 0, one per dim.
  std::vector<std::vector<int32_t>> regCoords;
  /// Lane and warp bases (per dim), the per-thread part of the coordinates.
  std::vector<LinearLayout::Basis> laneBases, warpBases;
};

/// TileInfo per tensor type, computed on first use. Not thread-safe: one
/// cache serves one lowering.
class TileInfoCache {
public:
  /// `foldThreads`: the target runs a CTA as one thread (TargetHooks::
  /// foldsThreadsIntoRegisters).
  explicit TileInfoCache(bool foldThreads) : fold(foldThreads) {}
  bool foldsThreads() const { return fold; }

  /// The facts for `type`; null (with `error` set when given) when the type
  /// has no usable layout. The pointer lives as long as the cache.
  const TileInfo *get(mlir::RankedTensorType type, std::string *error = nullptr);

private:
  bool fold;
  llvm::DenseMap<mlir::Type, std::unique_ptr<TileInfo>> cache;
};

} // namespace hadron

#endif // HADRON_ANALYSIS_TILEINFO_H
