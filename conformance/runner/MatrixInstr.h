//===- MatrixInstr.h - A target's matrix instructions, as cases see them -*- C++ -*-===//
//
// A plugin's compiler part reports the matrix instructions of each arch as
// `#hd.matrix_instr<{...}>` attribute texts (hd_context_matrix_instructions).
// The suite makes dot.mma.<name> cases from them: it pastes the text into
// the kernel as it is, and reads from it only what the inputs and the
// reference need (shape, types, lanes), so it learns no vendor's fragments.
//
//===----------------------------------------------------------------------===//
#ifndef HADRON_CONFORMANCE_MATRIXINSTR_H
#define HADRON_CONFORMANCE_MATRIXINSTR_H

#include "hadron/runtime/Status.hpp"

#include <string>

namespace hadron::conformance {

struct MatrixInstr {
  std::string name;      ///< the attribute's `name`: "mma.m16n8k16.f16"
  std::string attribute; ///< the whole #hd.matrix_instr text
  int m = 0, n = 0, k = 0;
  /// MLIR spellings: aType/bType "f16", "bf16", "tf32", "i8"; accType "f32", "i32".
  std::string aType, bType, accType;
  /// Threads of the warp that issues it: 2^(lane bases of the accumulator).
  unsigned lanes = 0;
};

/// Reads `text`; HD_ERROR_INVALID_ARGUMENT naming the text and what it
/// lacks when it is not an #hd.matrix_instr with those fields.
runtime::Expected<MatrixInstr> parseMatrixInstr(const std::string &text);

} // namespace hadron::conformance

#endif // HADRON_CONFORMANCE_MATRIXINSTR_H
