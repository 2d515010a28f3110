//===- MatrixInstructionTable.h - A target's matrix_instructions answer -*- C++ -*-===//
//
// hd_compiler_table::matrix_instructions hands out, per arch, a
// NULL-terminated array of #hd.matrix_instr texts that lives as long as the
// compiler part. A target builds one table from its arch list and a function
// listing one arch's texts, as a function-local static, and answers with
// `lookup`:
//
//   hd_status matrixInstructions(const char *arch, const char *const **out,
//                                hd_error *err) {
//     static const MatrixInstructionTable table("mine", archNames(), textsOf);
//     return table.lookup(arch, out, err);
//   }
//
//===----------------------------------------------------------------------===//
#ifndef HADRON_COMPILER_MATRIXINSTRUCTIONTABLE_H
#define HADRON_COMPILER_MATRIXINSTRUCTIONTABLE_H

#include "hadron/Support/Result.h"
#include "hadron/plugin/plugin.h"

#include "llvm/ADT/STLFunctionalExtras.h"

#include <map>
#include <string>
#include <vector>

namespace hadron {

class MatrixInstructionTable {
public:
  /// The texts of one arch, or an error (an instruction the model cannot
  /// describe), which lookup reports for that arch.
  using TextsOf = llvm::function_ref<Result<std::vector<std::string>>(const std::string &arch)>;

  /// Lists every arch of `archs` (the first is the default) through
  /// `textsOf`, once. `target` names the plugin in messages.
  MatrixInstructionTable(std::string target, const std::vector<std::string> &archs,
                         TextsOf textsOf);
  MatrixInstructionTable(const MatrixInstructionTable &) = delete;
  MatrixInstructionTable &operator=(const MatrixInstructionTable &) = delete;

  /// The answer for `arch` (NULL: the default): HD_ERROR_INVALID_ARGUMENT
  /// for an arch not listed or a NULL `out`, HD_ERROR_INTERNAL for an arch
  /// whose texts failed.
  hd_status lookup(const char *arch, const char *const **out, hd_error *err) const;

private:
  struct Arch {
    std::vector<std::string> texts;
    std::vector<const char *> list; ///< NULL-terminated view of texts
    std::string error;
  };
  std::string target;
  std::vector<std::string> archs;
  std::map<std::string, Arch> byArch;
};

} // namespace hadron

#endif // HADRON_COMPILER_MATRIXINSTRUCTIONTABLE_H
