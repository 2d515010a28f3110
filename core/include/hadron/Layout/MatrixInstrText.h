//===- MatrixInstrText.h - The #hd.matrix_instr text of a model entry -*- C++ -*-===//
//
// A target's model describes each matrix instruction (name, M x N x K,
// operand types, fragment layouts); kernels and the conformance suite name
// it with an #hd.matrix_instr attribute. This spells that attribute from the
// model's data, one way for every target, without MLIR: the model libraries
// link only the layout algebra.
//
//   #hd.matrix_instr<{name = "mma.m16n8k16.f16", shape = [16, 8, 16],
//                     aType = f16, bType = f16, accType = f32,
//                     a = {register = [[0, 1], ...], lane = [...]}, ...}>
//
//===----------------------------------------------------------------------===//
#ifndef HADRON_LAYOUT_MATRIXINSTRTEXT_H
#define HADRON_LAYOUT_MATRIXINSTRTEXT_H

#include "hadron/Layout/LinearLayout.h"
#include "hadron/Support/Result.h"

#include <string>
#include <utility>
#include <vector>

namespace hadron {

/// The fields of one #hd.matrix_instr attribute.
struct MatrixInstrText {
  std::string name;
  unsigned shape[3]; ///< M, N, K
  /// The element types of A, B and the accumulator, as MLIR spells them
  /// (f16, bf16, tf32, i8, i32, ...).
  std::string types[3];
  /// The fragments the attribute lists, in order, by key ("a", "b", "acc"):
  /// each a 2-D layout over register and lane (and warp, printed when it
  /// has bases).
  std::vector<std::pair<std::string, LinearLayout>> fragments;
};

/// The attribute's text.
std::string matrixInstrAttributeText(const MatrixInstrText &instr);

/// The attribute's text with the fragments `fragmentOf(operand)` of
/// `operands` (key and the model's operand), in order; fails with the
/// first fragment that fails.
template <typename Operand, typename FragmentOf>
Result<std::string>
matrixInstrAttributeText(MatrixInstrText instr,
                         const std::vector<std::pair<const char *, Operand>> &operands,
                         FragmentOf fragmentOf) {
  for (const auto &[key, operand] : operands) {
    Result<LinearLayout> fragment = fragmentOf(operand);
    if (!fragment)
      return Error(fragment.error());
    instr.fragments.emplace_back(key, *fragment);
  }
  return matrixInstrAttributeText(instr);
}

} // namespace hadron

#endif // HADRON_LAYOUT_MATRIXINSTRTEXT_H
