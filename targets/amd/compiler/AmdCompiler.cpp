//===- AmdCompiler.cpp - The AMD target's compiler part -------------------===//
//
// A TargetCompiler (hadron/Compiler/TargetCompiler.h): the shared front
// half with AmdHooks gives LLVM IR; the AMD steps are
//
//   lowerModule     printf and math -> device-library calls
//   linkLibraries   ocml/ockl linked when called, nothing left unresolved
//   (base)          LLVM's AMDGPU backend in process (O0-O3) -> ELF object
//   package         ld.lld -shared --no-undefined -> HSACO (code object v5)
//
// which the AMD runtime part hands to hipModuleLoadData. Code object v5 is
// chosen over LLVM 22's default v6 because every ROCm from 5.5 on loads it
// (v6 needs ROCm 6.3), and its hidden arguments give the grid size.
// hd.dot on an #hd.mma layout becomes MFMA or WMMA (AmdHooks);
// matrix_instructions tells the runtime and the conformance suite which of
// them each arch issues.
// Exported through `hadron_compiler_entry`.
//
//===----------------------------------------------------------------------===//

#include "AmdHooks.h"
#include "AmdModel.h"
#include "DeviceLibs.h"
#include "RocdlDialect.h"
#include "hadron/Compiler/MatrixInstructionTable.h"
#include "hadron/Compiler/TargetCompiler.h"
#include "hadron/IR/Dialect.h"
#include "hadron/plugin/plugin.h"

#include "llvm/IR/Module.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Target/TargetMachine.h"

#include <optional>
#include <string>

using namespace mlir;

namespace hadron::amd {
namespace {

constexpr unsigned kCodeObjectVersion = 500;

void initializeAmdgpuBackend() {
  LLVMInitializeAMDGPUTargetInfo();
  LLVMInitializeAMDGPUTarget();
  LLVMInitializeAMDGPUTargetMC();
  LLVMInitializeAMDGPUAsmPrinter();
  // The device libraries' hostcall (printf) has inline assembly, which the
  // object streamer parses.
  LLVMInitializeAMDGPUAsmParser();
}

const char *waveFeature(const ArchModel &arch) {
  return arch.waveSize == 32 ? "+wavefrontsize32" : "+wavefrontsize64";
}

class AmdCompiler : public TargetCompiler {
public:
  AmdCompiler() : TargetCompiler("amd") {}

protected:
  std::vector<std::string> archNames() const override { return archNamesOf(archModels()); }

  Status selectArch(const std::string &name) override {
    arch = findArch(name);
    hooks.emplace(*arch);
    return {};
  }

  PipelineTarget pipelineTarget() override {
    const ArchModel *model = arch;
    auto targetAttr = [model](MLIRContext *ctx, unsigned numWarps) {
      unsigned waveSizes[] = {model->waveSize};
      return hd::TargetAttr::get(ctx, "amd", model->arch, waveSizes, numWarps,
                                 model->maxThreadsPerWorkgroup, model->ldsBytesPerWorkgroup);
    };
    return {"amd", targetAttr, *hooks, arch->waveSize, registerAmdDialects, raiseToRocdl};
  }

  Result<std::unique_ptr<llvm::TargetMachine>> createMachine(unsigned optLevel) override {
    MachineSpec spec;
    spec.triple = "amdgcn-amd-amdhsa";
    spec.cpu = arch->arch;
    spec.features = waveFeature(*arch);
    spec.positionIndependent = true;
    spec.initializeBackend = initializeAmdgpuBackend;
    spec.backendName = "AMDGPU";
    return createTargetMachine(spec, optLevel);
  }

  Status lowerModule(llvm::Module &module, llvm::TargetMachine &) override {
    module.addModuleFlag(llvm::Module::Error, "amdhsa_code_object_version", kCodeObjectVersion);
    expandPrintf(module);
    useOcmlForMath(module);
    return {};
  }

  Status linkLibraries(llvm::Module &module) override {
    auto linked = linkDeviceLibraries(module, *arch, deviceLibrarySearchPath());
    if (!linked)
      return Error(linked.error());
    // Before the backend: it aborts the process on some unresolved math.
    if (std::string unresolved = findUnresolvedCall(module); !unresolved.empty())
      return Error(unresolved);
    return {};
  }

  /// The object as an HSACO: a shared object with every symbol defined.
  Result<std::string> package(GeneratedCode &code, llvm::TargetMachine &) override {
    return linkSharedObject(HADRON_LLD_PATH, {code.object}, {"--no-undefined"});
  }

private:
  const ArchModel *arch = nullptr;
  std::optional<AmdHooks> hooks;
};

/// The #hd.matrix_instr texts of every arch: its MFMAs or WMMAs that hd.dot
/// can name (not fp8).
hd_status matrixInstructions(const char *arch, const char *const **out, hd_error *err) {
  static const MatrixInstructionTable table(
      "amd", archNamesOf(archModels()),
      [](const std::string &name) -> Result<std::vector<std::string>> {
        std::vector<std::string> texts;
        for (const MatrixInstr *instr : hadron::amd::matrixInstructions(*findArch(name))) {
          if (!issuedByDot(*instr))
            continue;
          Result<std::string> text = matrixInstrAttribute(*instr);
          if (!text)
            return Error(text.error());
          texts.push_back(*text);
        }
        return texts;
      });
  return table.lookup(arch, out, err);
}

const hd_compiler_table kTable = {
    sizeof(hd_compiler_table), HADRON_PLUGIN_ABI_MAJOR, HADRON_PLUGIN_ABI_MINOR,
    compileWith<AmdCompiler>,  releaseCompiledModule,   matrixInstructions,
};

} // namespace
} // namespace hadron::amd

extern "C" HADRON_PLUGIN_EXPORT const hd_compiler_table *hadron_compiler_entry(void) {
  return &hadron::amd::kTable;
}
