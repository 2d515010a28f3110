//===- TemplateCompiler.cpp - The template target's compiler part ---------===//
//
// A TargetCompiler (hadron/Compiler/TargetCompiler.h): the base runs the
// flow, hd IR -> the shared front half with TemplateHooks -> LLVM IR -> O3
// for this CPU -> object; this target adds its arch, its #hd.target, its
// TargetMachine and the packaging (ld.lld -shared -> the ELF that the runtime
// part loads). A real target also overrides the steps that differ: its
// backend's machine (NVPTX, AMDGPU, SPIR-V, ...), lowerModule and
// linkLibraries for its device libraries, package for its binary format.
//
//===----------------------------------------------------------------------===//

#include "TemplateHooks.h"

#include "hadron/Compiler/TargetCompiler.h"
#include "hadron/IR/Dialect.h"
#include "hadron/plugin/plugin.h"

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

class TemplateCompiler : public hadron::TargetCompiler {
public:
  TemplateCompiler() : TargetCompiler("template") {}

protected:
  std::vector<std::string> archNames() const override { return {"native"}; }
  hadron::Status selectArch(const std::string &) override { return {}; }
  hadron::PipelineTarget pipelineTarget() override {
    return {"template", templateTarget, hooks, /*warpSize=*/1};
  }
  hadron::Result<std::unique_ptr<llvm::TargetMachine>> createMachine(unsigned optLevel) override {
    hadron::MachineSpec spec; // this CPU
    spec.positionIndependent = true;
    return hadron::createTargetMachine(spec, optLevel);
  }
  hadron::Result<std::string> package(hadron::GeneratedCode &code, llvm::TargetMachine &) override {
    return hadron::linkSharedObject(TEMPLATE_LLD_PATH, {code.object});
  }

private:
  template_target::TemplateHooks hooks;
};

const hd_compiler_table kCompilerTable = {
    sizeof(hd_compiler_table),
    HADRON_PLUGIN_ABI_MAJOR,
    HADRON_PLUGIN_ABI_MINOR,
    hadron::compileWith<TemplateCompiler>,
    hadron::releaseCompiledModule,
    // A target with matrix units lists them here, one #hd.matrix_instr text
    // each (plugin.h, matrix_instructions); this one runs dots as FMAs.
    nullptr,
};

} // namespace

extern "C" HADRON_PLUGIN_EXPORT const hd_compiler_table *hadron_compiler_entry(void) {
  return &kCompilerTable;
}
