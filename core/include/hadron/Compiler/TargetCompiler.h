//===- TargetCompiler.h - The flow every compiler part runs -----*- C++ -*-===//
//
// A target's compiler part is a TargetCompiler: the base owns the flow of a
// compilation and the target overrides the named steps that differ.
//
//   compile(ir, options)
//     selectArch          the arch options name (empty: archNames().front())
//     pipelineTarget      -> lowerToLLVM (Pipeline.h): parse, #hd.target,
//                            verify, signatures, core passes, distribute
//                            with the target's hooks, LLVM IR
//     checkKernels        the signatures against the arch
//     createMachine       the TargetMachine (Backend.h: createTargetMachine);
//                         the module takes its triple and data layout
//     lowerModule         target rewrites of the LLVM IR (math, printf, ...)
//     linkLibraries       device libraries (Backend.h: linkBitcode)
//     optimize            LLVM's O0-O3 pipeline for the machine
//     checkModule         what the backend would refuse, as an error
//                         -> 2-llvm.ll
//     emit                assembly and object      -> 3-kernel.<assemblySuffix>
//     package             the binary the runtime part loads (default: the
//                         object; ld.lld, ptxas ... through ToolRun.h)
//   -> hd_compiled_module (binary, assembly, LLVM IR, signatures)
//
// One object serves one compilation, so steps keep what they learn (the
// arch's model, hooks, the libraries a kernel needs) in members. A failing
// step returns an Error; compile writes "<name> compile: <message>" into the
// hd_error (the front half's messages already name the target). The
// compiler table's entry is `compileWith<MyCompiler>`.
//
//===----------------------------------------------------------------------===//
#ifndef HADRON_COMPILER_TARGETCOMPILER_H
#define HADRON_COMPILER_TARGETCOMPILER_H

#include "hadron/Compiler/Backend.h"
#include "hadron/Compiler/Pipeline.h"
#include "hadron/Support/Result.h"
#include "hadron/Support/Status.h"
#include "hadron/plugin/plugin.h"

#include "llvm/ADT/StringRef.h"

#include <memory>
#include <string>
#include <vector>

namespace llvm {
class Module;
class TargetMachine;
} // namespace llvm

namespace hadron {

class TargetCompiler {
public:
  /// `name` is the plugin's, as messages start with it.
  explicit TargetCompiler(std::string name);
  virtual ~TargetCompiler();

  /// The whole flow, with the contract of hd_compiler_table::compile.
  hd_status compile(const char *ir, uint64_t irSize, const hd_compile_options *options,
                    hd_compiled_module **out, hd_error *err);

  const std::string &name() const { return targetName; }

protected:
  /// The archs the target compiles for; the first is the default.
  virtual std::vector<std::string> archNames() const = 0;
  /// Sets up the compilation for `arch`, one of archNames().
  virtual Status selectArch(const std::string &arch) = 0;
  /// What lowerToLLVM needs: #hd.target, hooks, warp size, dialects, passes.
  virtual PipelineTarget pipelineTarget() = 0;
  /// Checks, or corrects, the kernels' signatures.
  virtual Status checkKernels(std::vector<KernelSignature> &kernels);
  /// The TargetMachine for the arch, at `optLevel`.
  virtual Result<std::unique_ptr<llvm::TargetMachine>> createMachine(unsigned optLevel) = 0;
  /// The target's rewrites of the LLVM IR before libraries are linked.
  virtual Status lowerModule(llvm::Module &module, llvm::TargetMachine &machine);
  /// Links the device libraries the module calls into.
  virtual Status linkLibraries(llvm::Module &module);
  /// Optimises the module (default: optimizeModule at `optLevel`).
  virtual void optimize(llvm::Module &module, llvm::TargetMachine &machine, unsigned optLevel);
  /// What the backend cannot take, as an error before it runs.
  virtual Status checkModule(llvm::Module &module);
  /// Fills `code.assembly` and `code.object` (default: both through
  /// emitCode with `machine`).
  virtual Status emit(const llvm::Module &module, llvm::TargetMachine &machine,
                      GeneratedCode &code);
  /// The dump's file suffix for the assembly: 3-kernel.<suffix>.
  virtual llvm::StringRef assemblySuffix() const { return "s"; }
  /// The binary the runtime part loads (default: the object).
  virtual Result<std::string> package(GeneratedCode &code, llvm::TargetMachine &machine);

  /// The options of the running compilation (arch resolved).
  const PipelineOptions &options() const { return opts; }

private:
  std::string targetName;
  PipelineOptions opts;
};

/// `hd_compiler_table::compile` for a TargetCompiler: one `Compiler` per call.
template <typename Compiler>
hd_status compileWith(const char *ir, uint64_t irSize, const hd_compile_options *options,
                      hd_compiled_module **out, hd_error *err) {
  Compiler compiler;
  return compiler.compile(ir, irSize, options, out, err);
}

/// The `arch` name of each model, in order: a target's archNames() from its
/// model table.
template <typename Models> std::vector<std::string> archNamesOf(const Models &models) {
  std::vector<std::string> names;
  for (const auto &model : models)
    names.push_back(model.arch);
  return names;
}

/// "a, b, c": an arch list for messages.
std::string joinNames(const std::vector<std::string> &names);

} // namespace hadron

#endif // HADRON_COMPILER_TARGETCOMPILER_H
