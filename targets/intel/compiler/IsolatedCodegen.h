//===- IsolatedCodegen.h - The SPIR-V backend in a child process -*- C++ -*-===//
//
// LLVM 22's SPIR-V backend keeps state between the modules one process
// compiles: after some hundreds of kernels it emits modules that reuse
// result ids (spirv-val: "Id N is defined more than once"), and a
// TargetMachine used twice crashes. It also ends the process
// (report_fatal_error) on IR it cannot select. So code generation runs in
// a forked child that starts from the parent's state before any backend
// run: every module is generated as by the first compilation of a fresh
// process, and a backend abort becomes a compile error with its message.
//
//===----------------------------------------------------------------------===//
#ifndef HADRON_TARGETS_INTEL_COMPILER_ISOLATEDCODEGEN_H
#define HADRON_TARGETS_INTEL_COMPILER_ISOLATEDCODEGEN_H

#include "hadron/Support/Result.h"

#include <functional>
#include <memory>
#include <string>

namespace llvm {
class Module;
class TargetMachine;
} // namespace llvm

namespace hadron::intel {

struct SpirvCode {
  std::string binary;   ///< the SPIR-V module
  std::string assembly; ///< the backend's textual SPIR-V
};

/// Generates `module` in a child process with TargetMachines made by
/// `makeMachine` (one per output: the backend cannot reuse one). Fails with
/// what the backend printed when it aborts, or when the child is killed or
/// runs longer than `timeoutSeconds`.
Result<SpirvCode> generateIsolated(
    const llvm::Module &module,
    const std::function<Result<std::unique_ptr<llvm::TargetMachine>>()> &makeMachine,
    unsigned timeoutSeconds = 600);

} // namespace hadron::intel

#endif // HADRON_TARGETS_INTEL_COMPILER_ISOLATEDCODEGEN_H
