//===- TemplateCompiler.cpp - The template target's compiler part ---------===//
//
// hd IR -> the shared front half (hadron/Compiler/Pipeline.h) with
// TemplateHooks -> LLVM IR -> O3 for this CPU -> object -> ld.lld -shared
// -> the ELF that the runtime part loads. A real target keeps the front half
// and replaces the back half: its own TargetMachine (NVPTX, AMDGPU, SPIR-V,
// ...), the device libraries it links, and its own packaging of the binary.
//
//===----------------------------------------------------------------------===//

#include "TemplateHooks.h"

#include "hadron/Compiler/Backend.h"
#include "hadron/Compiler/Pipeline.h"
#include "hadron/IR/Dialect.h"
#include "hadron/plugin/plugin.h"

#include "llvm/IR/Module.h"
#include "llvm/Target/TargetMachine.h"

#include <string>

namespace {

/// The model the kernel is verified against. A real target fills it from
/// its architecture's data: warp sizes, threads and shared memory per CTA.
hadron::hd::TargetAttr templateTarget(mlir::MLIRContext *ctx, unsigned numWarps) {
  static const unsigned warpSizes[] = {1, 2, 4, 8, 16, 32, 64};
  return hadron::hd::TargetAttr::get(ctx, "template", "native", warpSizes, numWarps,
                                     /*maxThreadsPerCTA=*/1024,
                                     /*sharedMemoryBytes=*/64 * 1024);
}

hd_status compile(const char *ir, uint64_t irSize, const hd_compile_options *options,
                  hd_compiled_module **out, hd_error *err) {
  if (!ir || !out)
    return hadron::reportError(err, HD_ERROR_INVALID_ARGUMENT,
                               "template compile: ir and out must not be null");
  auto fail = [&](const std::string &what) {
    return hadron::reportError(err, HD_ERROR_COMPILE, "template compile: " + what);
  };

  // Front half, shared by every target.
  hadron::PipelineOptions opts = hadron::PipelineOptions::from(options);
  template_target::TemplateHooks hooks;
  hadron::PipelineTarget target{"template", templateTarget, hooks, /*warpSize=*/1};
  auto lowered = hadron::lowerToLLVM(llvm::StringRef(ir, irSize), target, opts);
  if (!lowered)
    return hadron::reportError(err, HD_ERROR_COMPILE, lowered.error());
  llvm::Module &module = *lowered.value().llvmModule;

  // Back half: this target's code generation.
  auto machine = hadron::createNativeTargetMachine(opts.optLevel);
  if (!machine)
    return fail(machine.error());
  auto code = hadron::generateCode(module, **machine, opts);
  if (!code)
    return fail(code.error());
  auto binary = hadron::linkSharedObject(TEMPLATE_LLD_PATH, {code->object});
  if (!binary)
    return fail(binary.error());
  *out = hadron::makeCompiledModule(*binary, code->assembly, code->llvmIR, lowered->kernels);
  return *out ? HD_OK
              : hadron::reportError(err, HD_ERROR_OUT_OF_MEMORY, "template compile: out of memory");
}

const hd_compiler_table kCompilerTable = {
    sizeof(hd_compiler_table), HADRON_PLUGIN_ABI_MAJOR, HADRON_PLUGIN_ABI_MINOR, compile,
    hadron::releaseCompiledModule,
    // A target with matrix units lists them here, one #hd.matrix_instr text
    // each (plugin.h, matrix_instructions); this one runs dots as FMAs.
    nullptr,
};

} // namespace

extern "C" HADRON_PLUGIN_EXPORT const hd_compiler_table *hadron_compiler_entry(void) {
  return &kCompilerTable;
}
