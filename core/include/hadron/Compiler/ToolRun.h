//===- ToolRun.h - One run of an external tool on temporary files -*- C++ -*-===//
//
// Some back halves end in a program outside the process: a linker turns an
// object into a shared library, an assembler turns a target's assembly into
// its binary, a validator checks a module. A ToolRun writes the inputs to
// temporary files,
// names temporary outputs, runs the program with stdout and stderr captured,
// and removes every file again when it goes out of scope. A failure names
// the program, its exit code and what it printed.
//
//   ToolRun run("hadron-as");
//   Result<std::string> in = run.input(assembly, "s");
//   Result<std::string> out = run.output("bin");
//   if (Status ok = run.execute(assembler, {"-o", *out, *in}); !ok) ...
//   Result<std::string> binary = run.read(*out);
//
//===----------------------------------------------------------------------===//
#ifndef HADRON_COMPILER_TOOLRUN_H
#define HADRON_COMPILER_TOOLRUN_H

#include "hadron/Support/Result.h"
#include "hadron/Support/Status.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace hadron {

class ToolRun {
public:
  /// `prefix` starts the temporary files' names ("hadron-link").
  explicit ToolRun(llvm::StringRef prefix);
  ~ToolRun();
  ToolRun(const ToolRun &) = delete;
  ToolRun &operator=(const ToolRun &) = delete;

  /// The path of a new temporary file holding `contents`, named `*.suffix`.
  Result<std::string> input(llvm::StringRef contents, llvm::StringRef suffix);
  /// The path of a new, empty temporary file for the tool to write.
  Result<std::string> output(llvm::StringRef suffix);

  /// Runs `program` with `args` (argv[0] is added) and waits at most
  /// `timeoutSeconds` (0: no limit). Fails unless it exits with 0, with
  /// "<title> failed (exit N): <what it printed>", where `title` defaults
  /// to the program.
  Status execute(llvm::StringRef program, llvm::ArrayRef<std::string> args,
                 unsigned timeoutSeconds = 0, llvm::StringRef title = {});

  /// The bytes of `path`; an empty file is an error where `nonEmpty`.
  Result<std::string> read(llvm::StringRef path, bool nonEmpty = false) const;

private:
  std::string prefix;
  std::vector<std::string> files;
};

} // namespace hadron

#endif // HADRON_COMPILER_TOOLRUN_H
