//===- Backend.h - LLVM back-end steps that targets share -------*- C++ -*-===//
//
// After lowerToLLVM (Pipeline.h) a target has an llvm::Module. These are the
// steps most back halves take from there, independent of the machine: run
// LLVM's default optimisation pipeline, emit assembly or an object through a
// TargetMachine (the target's own, or one for the CPU compiling, which is
// what targets that run on that CPU use), and link an object into a shared
// library with an ld.lld executable.
//
//===----------------------------------------------------------------------===//
#ifndef HADRON_COMPILER_BACKEND_H
#define HADRON_COMPILER_BACKEND_H

#include "hadron/Support/Result.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <memory>
#include <string>

namespace llvm {
class Module;
class TargetMachine;
} // namespace llvm

namespace hadron {

struct PipelineOptions;

/// A TargetMachine for this process's architecture, emitting
/// position-independent code; codegen at `optLevel` (0..3). With `cpu`
/// empty, for the CPU this process runs on with all its features; otherwise
/// for the CPU LLVM knows by that name (a generic level such as a baseline
/// ISA, for binaries that must run on other machines), with its default
/// features. An unknown name is an error that says so.
Result<std::unique_ptr<llvm::TargetMachine>> createNativeTargetMachine(unsigned optLevel,
                                                                      llvm::StringRef cpu = {});

/// Runs LLVM's per-module default pipeline at `optLevel` (0..3) for
/// `machine`, which supplies the cost model (vector widths) to the passes.
void optimizeModule(llvm::Module &module, llvm::TargetMachine &machine, unsigned optLevel);

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
  std::string object;
};

/// The usual sequence: sets the module's triple and data layout from
/// `machine`, optimises at options.optLevel, then emits assembly and an
/// object. Writes 2-llvm.ll and 3-kernel.s into options.dumpDir when set.
Result<GeneratedCode> generateCode(llvm::Module &module, llvm::TargetMachine &machine,
                                   const PipelineOptions &options);

/// Links `objects` (object files' bytes) into a shared library with the
/// linker at `lldPath`, passing `-shared` and `extraArgs`, through temporary
/// files that are removed again. Returns the library's bytes; an error names
/// the linker, its exit code and what it printed.
Result<std::string> linkSharedObject(llvm::StringRef lldPath,
                                     llvm::ArrayRef<llvm::StringRef> objects,
                                     llvm::ArrayRef<llvm::StringRef> extraArgs = {});

} // namespace hadron

#endif // HADRON_COMPILER_BACKEND_H
