//===- Backend.h - LLVM back-end steps that targets share -------*- C++ -*-===//
//
// After lowerToLLVM (Pipeline.h) a target has an llvm::Module. These are the
// LLVM steps TargetCompiler (TargetCompiler.h) and the targets' own steps
// take from there, independent of the machine: make a TargetMachine, link
// a bitcode library, run LLVM's default optimisation pipeline, emit assembly
// or an object, and link objects into a shared library with ld.lld.
//
//===----------------------------------------------------------------------===//
#ifndef HADRON_COMPILER_BACKEND_H
#define HADRON_COMPILER_BACKEND_H

#include "hadron/Support/Result.h"
#include "hadron/Support/Status.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <functional>
#include <memory>
#include <string>

namespace llvm {
class Module;
class PassBuilder;
class TargetMachine;
} // namespace llvm

namespace hadron {

/// What createTargetMachine builds a machine for.
struct MachineSpec {
  /// The target triple; empty for this process's own (the host CPU).
  std::string triple;
  /// The CPU (LLVM's processor name for the triple, e.g. "x86-64-v3"). For
  /// the host triple, empty is the CPU this process runs on, with all its
  /// features; elsewhere empty is the backend's generic CPU.
  std::string cpu;
  /// Subtarget features ("+wavefrontsize64"), added to the CPU's.
  std::string features;
  /// Position-independent code (for what ld.lld links into a shared object).
  bool positionIndependent = false;
  /// Registers the backend with LLVM (its LLVMInitialize*Target* calls);
  /// called once per process. Unused for the host triple, whose native
  /// backend is initialised here.
  void (*initializeBackend)() = nullptr;
  /// Names the backend in messages: "this LLVM has no <backendName> backend".
  std::string backendName;
};

/// The one TargetMachine factory of the compiler parts: a machine for
/// `spec`, with LLVM's codegen level for `optLevel` (0..3: None, Less,
/// Default, Aggressive, as clang maps -O). A backend this LLVM lacks or a
/// CPU it does not know is an error that says so.
Result<std::unique_ptr<llvm::TargetMachine>> createTargetMachine(const MachineSpec &spec,
                                                                 unsigned optLevel);

/// Runs LLVM's per-module default pipeline at `optLevel` (0..3) for
/// `machine`, which supplies the cost model (vector widths) to the passes.
/// `extend`, when set, adds a target's passes at the pipeline's extension
/// points (PassBuilder's register*EPCallback) before it is built.
void optimizeModule(llvm::Module &module, llvm::TargetMachine &machine, unsigned optLevel,
                    const std::function<void(llvm::PassBuilder &)> &extend = nullptr);

/// The module's LLVM IR as text.
std::string printModule(const llvm::Module &module);

/// Code-generates a copy of `module` (left untouched) with `machine`, as
/// assembly text or as an object file.
enum class EmitKind { Assembly, Object };
Result<std::string> emitCode(const llvm::Module &module, llvm::TargetMachine &machine,
                             EmitKind kind);

/// What code generation made of a module.
struct GeneratedCode {
  std::string llvmIR;   ///< after optimisation
  std::string assembly; ///< the textual form of the machine code, where the target has one
  std::string object;   ///< empty where the backend emits only assembly
};

/// How linkBitcode treats what it links in.
enum class BitcodeLink {
  OnlyNeeded,            ///< the definitions the module uses, linkage kept
  OnlyNeededInternalized ///< those, made internal so the optimiser inlines and drops them
};

/// The one bitcode linker: links the LLVM bitcode (or IR text) file at
/// `path` into `module`, after giving it the module's triple and data
/// layout, which must be set. An error names the file and what failed.
Status linkBitcode(llvm::Module &module, llvm::StringRef path, BitcodeLink mode);

/// Links `objects` (object files' bytes) into a shared library with the
/// linker at `lldPath`, passing `-shared` and `extraArgs`, through a
/// ToolRun (ToolRun.h). Returns the library's bytes; an error names the
/// linker, its exit code and what it printed.
Result<std::string> linkSharedObject(llvm::StringRef lldPath,
                                     llvm::ArrayRef<llvm::StringRef> objects,
                                     llvm::ArrayRef<llvm::StringRef> extraArgs = {});

} // namespace hadron

#endif // HADRON_COMPILER_BACKEND_H
