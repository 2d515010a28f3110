//===- AxisInfo.h - Contiguity and divisibility of tile values --*- C++ -*-===//
//
// What the lowering needs to vectorise global accesses: for an integer or
// pointer value, per dimension,
//  - contiguity: runs of this many consecutive elements along the dimension
//    differ by exactly 1 (pointers: by one element), runs start at multiples
//    of the run length;
//  - divisibility: the largest power of two dividing the first element of
//    every run (pointers: in bytes);
//  - constancy: runs of this many consecutive elements are equal.
// The analysis is a forward walk over each function; unknown values get the
// safe answer (1, 1, 1). Kernel arguments carry divisibility through the
// `hd.divisibility` argument attribute.
//
//===----------------------------------------------------------------------===//
#ifndef HADRON_ANALYSIS_AXISINFO_H
#define HADRON_ANALYSIS_AXISINFO_H

#include "mlir/IR/Operation.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"

namespace hadron {

struct AxisInfo {
  llvm::SmallVector<int64_t> contiguity;
  llvm::SmallVector<int64_t> divisibility;
  llvm::SmallVector<int64_t> constancy;

  /// The safe answer for a value of `rank` (0 for scalars: one entry).
  static AxisInfo unknown(unsigned rank);
};

class AxisInfoAnalysis {
public:
  /// Analyses every value defined under `root`.
  explicit AxisInfoAnalysis(mlir::Operation *root);
  /// The facts about `value`; unknown() when it was not analysed.
  AxisInfo get(mlir::Value value) const;

  /// The argument attribute giving a kernel argument's divisibility.
  static constexpr const char *kDivisibilityAttr = "hd.divisibility";

private:
  void visit(mlir::Operation *op);
  llvm::DenseMap<mlir::Value, AxisInfo> infos;
};

} // namespace hadron

#endif // HADRON_ANALYSIS_AXISINFO_H
