//===- MatrixInstructionTable.cpp - A target's matrix_instructions answer -===//

#include "hadron/Compiler/MatrixInstructionTable.h"
#include "hadron/Compiler/Pipeline.h"
#include "hadron/Compiler/TargetCompiler.h"

namespace hadron {

MatrixInstructionTable::MatrixInstructionTable(std::string target,
                                               const std::vector<std::string> &archs,
                                               TextsOf textsOf)
    : target(std::move(target)), archs(archs) {
  for (const std::string &name : archs) {
    Arch &arch = byArch[name];
    Result<std::vector<std::string>> texts = textsOf(name);
    if (texts)
      arch.texts = std::move(texts).value();
    else
      arch.error = texts.error();
    for (const std::string &text : arch.texts)
      arch.list.push_back(text.c_str());
    arch.list.push_back(nullptr);
  }
}

hd_status MatrixInstructionTable::lookup(const char *arch, const char *const **out,
                                         hd_error *err) const {
  const std::string prefix = target + " matrix_instructions: ";
  if (!out)
    return reportError(err, HD_ERROR_INVALID_ARGUMENT, prefix + "out must not be null");
  std::string name = arch ? arch : archs.front();
  auto it = byArch.find(name);
  if (it == byArch.end())
    return reportError(err, HD_ERROR_INVALID_ARGUMENT,
                       prefix + "unknown arch '" + name + "'; " + target + " compiles for " +
                           joinNames(archs));
  if (!it->second.error.empty())
    return reportError(err, HD_ERROR_INTERNAL, prefix + it->second.error);
  *out = it->second.list.data();
  return HD_OK;
}

} // namespace hadron
