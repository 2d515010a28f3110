//===- IntelCompiler.cpp - The Intel target's compiler part ---------------===//
//
// A TargetCompiler (hadron/Compiler/TargetCompiler.h): the shared front
// half with IntelHooks gives LLVM IR with spir_kernel functions calling
// OpenCL builtins; then
//
//   (base)        LLVM's O0-O3 pipeline (the SPIR-V target's cost model)
//   checkModule   legalizeForSpirv (what the backend would abort on)
//   emit          LLVM's SPIR-V backend, spirv64v1.4-unknown-unknown, in a
//                 forked child (IsolatedCodegen.h says why)
//   -> a SPIR-V 1.4 module (Kernel, Addresses, Physical64 OpenCL)
//
// which the Intel runtime part hands to zeModuleCreate (Level Zero) or
// clCreateProgramWithIL (OpenCL). SPIR-V 1.4 is the newest version Intel's
// CPU runtime takes, and every Level Zero GPU driver takes it.
// LLVM's backend is used rather than MLIR's SPIR-V dialect: the core's
// distribute already ends in the LLVM dialect (pointers, vectors, masked
// accesses, printf varargs), which MLIR's path would have to take back.
// hd.dot on an #hd.mma layout becomes DPAS through the OpenCL C builtins of
// cl_intel_subgroup_matrix_multiply_accumulate (IntelHooks), imported by the
// module; matrix_instructions reports each arch's DPAS instructions.
// Exported through `hadron_compiler_entry`.
//
//===----------------------------------------------------------------------===//

#include "IntelHooks.h"
#include "IntelModel.h"
#include "IsolatedCodegen.h"
#include "SpirvLegalize.h"
#include "hadron/Compiler/MatrixInstructionTable.h"
#include "hadron/Compiler/TargetCompiler.h"
#include "hadron/IR/Dialect.h"
#include "hadron/plugin/plugin.h"

#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"

#include <optional>
#include <string>

using namespace mlir;

extern "C" void LLVMInitializeSPIRVTargetInfo();
extern "C" void LLVMInitializeSPIRVTarget();
extern "C" void LLVMInitializeSPIRVTargetMC();
extern "C" void LLVMInitializeSPIRVAsmPrinter();

namespace hadron::intel {
namespace {

constexpr const char *kTriple = "spirv64v1.4-unknown-unknown";

/// The SPIR-V extensions kernels may need, which every Intel driver (GPU and
/// CPU: cl_ext_float_atomics) has: float atomic add and min/max. LLVM 22's
/// backend takes them only through its -spirv-ext option (and aborts on a
/// float atomic without them), so the option is set in this process once.
void enableSpirvExtensions() {
  auto &options = llvm::cl::getRegisteredOptions();
  auto it = options.find("spirv-ext");
  if (it == options.end())
    return;
  it->second->addOccurrence(0, "spirv-ext",
                            "+SPV_EXT_shader_atomic_float_add,+SPV_EXT_shader_atomic_float_min_max");
}

void initializeSpirvBackend() {
  LLVMInitializeSPIRVTargetInfo();
  LLVMInitializeSPIRVTarget();
  LLVMInitializeSPIRVTargetMC();
  LLVMInitializeSPIRVAsmPrinter();
  enableSpirvExtensions();
}

Result<std::unique_ptr<llvm::TargetMachine>> createSpirvMachine(unsigned optLevel) {
  MachineSpec spec;
  spec.triple = kTriple;
  spec.initializeBackend = initializeSpirvBackend;
  spec.backendName = "SPIR-V";
  return createTargetMachine(spec, optLevel);
}

class IntelCompiler : public TargetCompiler {
public:
  IntelCompiler() : TargetCompiler("intel") {}

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
      return hd::TargetAttr::get(ctx, "intel", model->arch, model->subGroupSizes, numWarps,
                                 model->maxWorkGroupSize, model->slmBytesPerWorkGroup);
    };
    // The signatures' warp size is corrected per kernel in checkKernels:
    // each kernel's layouts choose its sub-group size.
    return {"intel", targetAttr, *hooks, arch->subGroupSizes.back()};
  }

  Status checkKernels(std::vector<KernelSignature> &kernels) override {
    for (KernelSignature &k : kernels) {
      auto it = hooks->subGroupSizes().find(k.name);
      if (it != hooks->subGroupSizes().end())
        k.warpSize = it->second;
      uint64_t threads = uint64_t(k.numWarps) * k.warpSize;
      if (threads > arch->maxWorkGroupSize)
        return Error(k.name + ": " + std::to_string(k.numWarps) + " warps of " +
                     std::to_string(k.warpSize) + " work-items exceed the " +
                     std::to_string(arch->maxWorkGroupSize) + " work-items of a work-group on " +
                     arch->arch);
    }
    return {};
  }

  Result<std::unique_ptr<llvm::TargetMachine>> createMachine(unsigned optLevel) override {
    return createSpirvMachine(optLevel);
  }

  Status checkModule(llvm::Module &module) override {
    legalizeForSpirv(module);
    // Checked before the backend runs, for a message that names the
    // instruction rather than the backend's abort.
    if (std::string bad = findUnsupportedForSpirv(module); !bad.empty())
      return Error("the SPIR-V backend cannot take " + bad);
    std::string verifyErrors;
    llvm::raw_string_ostream verifyStream(verifyErrors);
    if (llvm::verifyModule(module, &verifyStream))
      return Error("invalid LLVM IR before the SPIR-V backend:\n" + verifyErrors);
    return {};
  }

  /// In a child process, with a fresh machine per output (IsolatedCodegen.h).
  Status emit(const llvm::Module &module, llvm::TargetMachine &, GeneratedCode &code) override {
    unsigned optLevel = options().optLevel;
    auto spirv = generateIsolated(module, [optLevel] { return createSpirvMachine(optLevel); });
    if (!spirv)
      return Error(spirv.error());
    code.object = std::move(spirv.value().binary);
    code.assembly = std::move(spirv.value().assembly);
    return {};
  }
  llvm::StringRef assemblySuffix() const override { return "spvasm"; }

private:
  const ArchModel *arch = nullptr;
  std::optional<IntelHooks> hooks;
};

/// The #hd.matrix_instr texts of every arch: its DPAS instructions (none on
/// the OpenCL CPU device).
hd_status matrixInstructions(const char *arch, const char *const **out, hd_error *err) {
  static const MatrixInstructionTable table(
      "intel", archNamesOf(archModels()),
      [](const std::string &name) -> Result<std::vector<std::string>> {
        std::vector<std::string> texts;
        for (const DpasInstr &instr : findArch(name)->dpas) {
          Result<std::string> text = matrixInstrAttribute(instr);
          if (!text)
            return Error(text.error());
          texts.push_back(*text);
        }
        return texts;
      });
  return table.lookup(arch, out, err);
}

const hd_compiler_table kTable = {
    sizeof(hd_compiler_table),  HADRON_PLUGIN_ABI_MAJOR, HADRON_PLUGIN_ABI_MINOR,
    compileWith<IntelCompiler>, releaseCompiledModule,   matrixInstructions,
};

} // namespace
} // namespace hadron::intel

extern "C" HADRON_PLUGIN_EXPORT const hd_compiler_table *hadron_compiler_entry(void) {
  return &hadron::intel::kTable;
}
