//===- Pipeline.h - The target-independent half of a compilation -*- C++ -*-===//
//
// Every target's compiler part runs the same front half,
//
//   IR text -> parse -> the target's #hd.target -> verify -> kernel signatures
//           -> canonicalize + CSE -> distribute (the target's hooks) -> llvm::Module
//
// and then a back half of its own. This header is the front half plus the
// glue to the plugin ABI: the hd_compiled_module handed to the runtime and
// errors written into an hd_error. A compiler part does not call it
// directly: it derives from TargetCompiler (TargetCompiler.h), whose flow
// runs lowerToLLVM with the target's PipelineTarget and then the back half's
// steps (Backend.h has the LLVM ones).
//
//===----------------------------------------------------------------------===//
#ifndef HADRON_COMPILER_PIPELINE_H
#define HADRON_COMPILER_PIPELINE_H

#include "hadron/IR/Dialect.h"
#include "hadron/Support/Result.h"
#include "hadron/plugin/plugin.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace llvm {
class LLVMContext;
class Module;
class raw_ostream;
} // namespace llvm

namespace mlir {
class DialectRegistry;
class MLIRContext;
class ModuleOp;
} // namespace mlir

namespace hadron {

class TargetHooks;

/// One kernel's launch contract, as the runtime checks it.
struct KernelSignature {
  std::string name;
  std::vector<hd_arg_kind> args;
  uint32_t numWarps = 0;
  uint32_t warpSize = 0;
  uint64_t staticSharedBytes = 0;
  /// Empty, or one per argument when one of them is a tensor descriptor.
  std::vector<hd_tensor_desc_spec> descs;
};

/// What the front half needs from a target besides its hooks.
struct PipelineTarget {
  /// Names the target in messages: "<name> compile: the IR does not parse".
  std::string name;
  /// Builds the #hd.target the kernel is verified and lowered against. It
  /// replaces whatever target the module carried; `numWarps` is the module's
  /// `hd.num_warps`, else its previous target's, else 4.
  std::function<hd::TargetAttr(mlir::MLIRContext *ctx, unsigned numWarps)> targetAttr;
  /// The hooks distribute lowers with.
  TargetHooks &hooks;
  /// The warp size kernels are launched with: 1 where the hooks fold
  /// threads into registers.
  uint32_t warpSize;
  /// Optional: adds the target's own dialects (and their LLVM IR
  /// translations) to the context's registry.
  std::function<void(mlir::DialectRegistry &)> registerDialects = nullptr;
  /// Optional: runs on the LLVM-dialect module between distribute and
  /// translation (target passes, vendor fast paths). Fails with diagnostics.
  std::function<mlir::LogicalResult(mlir::ModuleOp)> afterDistribute = nullptr;
};

/// The options every target honours, read from hd_compile_options.
struct PipelineOptions {
  std::string arch;    ///< empty: the target's default
  unsigned optLevel = 3; ///< 0..3
  std::string dumpDir; ///< when set, each stage is written there

  /// Reads the fields that lie inside options->struct_size; NULL gives the
  /// defaults.
  static PipelineOptions from(const hd_compile_options *options);
};

/// The front half's result. The LLVM context outlives the module it holds.
struct LoweredModule {
  std::unique_ptr<llvm::LLVMContext> llvmContext;
  std::unique_ptr<llvm::Module> llvmModule;
  std::vector<KernelSignature> kernels;

  LoweredModule();
  LoweredModule(LoweredModule &&);
  LoweredModule &operator=(LoweredModule &&);
  ~LoweredModule();
};

/// Parses `ir` (named `<kernel>` in diagnostics), sets the target, verifies,
/// collects the signature of every function marked hd.kernel, canonicalises,
/// distributes with the target's hooks and translates to LLVM IR. Writes
/// 0-input.mlir and 1-llvm-dialect.mlir into options.dumpDir when set.
/// An error names the failed step, then lists the diagnostics, one
/// `file:line:col: error: message` per line.
Result<LoweredModule> lowerToLLVM(llvm::StringRef ir, const PipelineTarget &target,
                                  const PipelineOptions &options);

/// Writes what `print` prints to `<options.dumpDir>/<fileName>`; does
/// nothing when dumpDir is empty. Best effort: a failure to write is ignored.
void dumpStage(const PipelineOptions &options, llvm::StringRef fileName,
               llvm::function_ref<void(llvm::raw_ostream &)> print);

/// An hd_compiled_module that owns copies of everything it points to. Hand
/// it to the runtime from `compile` and free it with releaseCompiledModule
/// from the compiler table's `release`. Returns NULL when out of memory.
hd_compiled_module *makeCompiledModule(llvm::StringRef binary, llvm::StringRef assembly,
                                       llvm::StringRef llvmIR,
                                       llvm::ArrayRef<KernelSignature> kernels);
/// Frees a module from makeCompiledModule; NULL is ignored.
void releaseCompiledModule(hd_compiled_module *module);

/// Writes `code` and `message` (truncated to fit) into `err`, which may be
/// NULL, and returns `code`.
hd_status reportError(hd_error *err, hd_status code, llvm::StringRef message);

} // namespace hadron

#endif // HADRON_COMPILER_PIPELINE_H
