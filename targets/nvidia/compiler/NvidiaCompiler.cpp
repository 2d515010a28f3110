//===- NvidiaCompiler.cpp - The NVIDIA target's compiler part -------------===//
//
// A TargetCompiler (hadron/Compiler/TargetCompiler.h): the shared front half
// lowers the kernel with NvidiaHooks against the arch's #hd.target; after
// distribute the hooks' intrinsic calls become NVVM ops; the steps of
// NvidiaBackend.h bring libdevice in, and package makes a cubin with ptxas.
// The compiled module's assembly is the PTX.
// Exported through `hadron_compiler_entry`.
//
//===----------------------------------------------------------------------===//

#include "NvidiaBackend.h"
#include "NvidiaHooks.h"
#include "NvvmDialect.h"

#include "../NvidiaKernelABI.h"
#include "../model/NvidiaModel.h"

#include "hadron/Compiler/MatrixInstructionTable.h"
#include "hadron/Compiler/TargetCompiler.h"
#include "hadron/IR/Dialect.h"
#include "hadron/plugin/plugin.h"

#include "llvm/IR/Module.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"

#include <algorithm>
#include <map>
#include <optional>
#include <string>
#include <vector>

using namespace mlir;

namespace {

using hadron::nvidia::ArchModel;

class NvidiaCompiler : public hadron::TargetCompiler {
public:
  NvidiaCompiler() : TargetCompiler("nvidia") {}

protected:
  std::vector<std::string> archNames() const override {
    return hadron::archNamesOf(hadron::nvidia::archModels());
  }

  hadron::Status selectArch(const std::string &arch) override {
    model = hadron::nvidia::findArch(arch);
    hooks.emplace(*model);
    return {};
  }

  hadron::PipelineTarget pipelineTarget() override {
    const ArchModel *arch = model;
    auto targetAttr = [arch](MLIRContext *ctx, unsigned numWarps) {
      const unsigned warpSizes[] = {arch->warpSize};
      // All shared memory is dynamic (NvidiaKernelABI.h), so a CTA may use
      // up to the opt-in limit.
      return hadron::hd::TargetAttr::get(ctx, "nvidia", arch->arch, warpSizes, numWarps,
                                         arch->maxThreadsPerCTA, arch->sharedBytesPerCTAOptIn);
    };
    return {"nvidia",
            targetAttr,
            *hooks,
            HD_NVIDIA_WARP_SIZE,
            hadron::nvidia::registerNvvm,
            hadron::nvidia::raiseToNvvm};
  }

  hadron::Result<std::unique_ptr<llvm::TargetMachine>> createMachine(unsigned optLevel) override {
    // The minimum PTX ISA of the arch is what the backend emits by default
    // (sm_80: 7.0 ... sm_100a: 8.6), which keeps old drivers able to JIT it.
    hadron::MachineSpec spec;
    spec.triple = "nvptx64-nvidia-cuda";
    spec.cpu = model->arch;
    spec.initializeBackend = hadron::nvidia::initializeNvptxBackend;
    spec.backendName = "NVPTX";
    return hadron::createTargetMachine(spec, optLevel);
  }

  hadron::Status lowerModule(llvm::Module &module, llvm::TargetMachine &) override {
    // IEEE denormals, as nvcc without --ftz: libdevice's __nvvm_reflect reads it.
    module.addModuleFlag(llvm::Module::Override, "nvvm-reflect-ftz", uint32_t{0});
    libdeviceCalls = hadron::nvidia::useLibdeviceForMath(module);
    hadron::nvidia::splitMaskedAccesses(module);
    return {};
  }

  hadron::Status linkLibraries(llvm::Module &module) override {
    return hadron::nvidia::linkLibdevice(module, toolkit, libdeviceCalls);
  }

  hadron::Status checkModule(llvm::Module &module) override {
    if (std::string missing = hadron::nvidia::unresolvedExtern(module); !missing.empty())
      return hadron::Error("the kernel calls " + missing +
                           ", which nothing defines; PTX would fail to load with it");
    return {};
  }

  /// PTX only: NVPTX emits no object.
  hadron::Status emit(const llvm::Module &module, llvm::TargetMachine &machine,
                      hadron::GeneratedCode &code) override {
    hadron::Result<std::string> ptx = hadron::emitCode(module, machine, hadron::EmitKind::Assembly);
    if (!ptx)
      return hadron::Error(ptx.error());
    code.assembly = std::move(ptx).value();
    return {};
  }
  llvm::StringRef assemblySuffix() const override { return "ptx"; }

  /// The cubin from ptxas, or without ptxas the PTX itself, which the
  /// driver JIT-compiles at load.
  hadron::Result<std::string> package(hadron::GeneratedCode &code, llvm::TargetMachine &) override {
    if (toolkit.ptxas.empty())
      return code.assembly;
    hadron::Result<std::string> cubin = hadron::nvidia::runPtxas(
        toolkit, model->arch, code.assembly, std::min(options().optLevel, 3u));
    if (cubin)
      hadron::dumpStage(options(), "4-kernel.cubin", [&](llvm::raw_ostream &os) { os << *cubin; });
    return cubin;
  }

private:
  const ArchModel *model = nullptr;
  std::optional<hadron::nvidia::NvidiaHooks> hooks;
  hadron::nvidia::CudaToolkit toolkit = hadron::nvidia::CudaToolkit::find();
  std::map<std::string, std::string> libdeviceCalls;
};

/// The #hd.matrix_instr texts of every arch: its mma.sync instructions
/// (wgmma is issued from shared memory and has no such attribute).
hd_status matrixInstructions(const char *arch, const char *const **out, hd_error *err) {
  static const hadron::MatrixInstructionTable table(
      "nvidia", hadron::archNamesOf(hadron::nvidia::archModels()),
      [](const std::string &name) -> hadron::Result<std::vector<std::string>> {
        std::vector<std::string> texts;
        for (const hadron::nvidia::MatrixInstr *instr :
             hadron::nvidia::matrixInstructions(*hadron::nvidia::findArch(name))) {
          if (instr->family != hadron::nvidia::MatrixFamily::MmaSync)
            continue;
          hadron::Result<std::string> text = hadron::nvidia::matrixInstrAttribute(*instr);
          if (!text)
            return hadron::Error(text.error());
          texts.push_back(*text);
        }
        return texts;
      });
  return table.lookup(arch, out, err);
}

const hd_compiler_table kTable = {
    sizeof(hd_compiler_table),           HADRON_PLUGIN_ABI_MAJOR,       HADRON_PLUGIN_ABI_MINOR,
    hadron::compileWith<NvidiaCompiler>, hadron::releaseCompiledModule, matrixInstructions,
};

} // namespace

extern "C" HADRON_PLUGIN_EXPORT const hd_compiler_table *hadron_compiler_entry(void) {
  return &kTable;
}
