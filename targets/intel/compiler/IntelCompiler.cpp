//===- IntelCompiler.cpp - The Intel target's compiler part ---------------===//
//
// The shared front half (hadron/Compiler/Pipeline.h, with IntelHooks) gives
// LLVM IR with spir_kernel functions calling OpenCL builtins; the back half
//
//   LLVM's O0-O3 pipeline (the SPIR-V target's cost model)
//   -> legalizeForSpirv (what the backend would abort on)
//   -> LLVM's SPIR-V backend, spirv64v1.4-unknown-unknown, in a forked
//      child (IsolatedCodegen.h says why)
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
#include "hadron/Compiler/Backend.h"
#include "hadron/Compiler/Pipeline.h"
#include "hadron/IR/Dialect.h"
#include "hadron/plugin/plugin.h"

#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Target/TargetOptions.h"
#include "llvm/TargetParser/Triple.h"

#include <map>
#include <mutex>
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

Result<std::unique_ptr<llvm::TargetMachine>> createTargetMachine(unsigned optLevel) {
  static std::once_flag initOnce;
  std::call_once(initOnce, [] {
    LLVMInitializeSPIRVTargetInfo();
    LLVMInitializeSPIRVTarget();
    LLVMInitializeSPIRVTargetMC();
    LLVMInitializeSPIRVAsmPrinter();
    enableSpirvExtensions();
  });
  llvm::Triple triple(kTriple);
  std::string error;
  const llvm::Target *target = llvm::TargetRegistry::lookupTarget(triple, error);
  if (!target)
    return Error("this LLVM has no SPIR-V backend: " + error);
  llvm::CodeGenOptLevel level = optLevel == 0   ? llvm::CodeGenOptLevel::None
                                : optLevel == 1 ? llvm::CodeGenOptLevel::Less
                                : optLevel == 2 ? llvm::CodeGenOptLevel::Default
                                                : llvm::CodeGenOptLevel::Aggressive;
  std::unique_ptr<llvm::TargetMachine> machine(target->createTargetMachine(
      triple, "", "", llvm::TargetOptions(), std::nullopt, std::nullopt, level));
  if (!machine)
    return Error("the SPIR-V backend made no target machine for " + std::string(kTriple));
  return machine;
}

hd_status compile(const char *ir, uint64_t irSize, const hd_compile_options *options,
                  hd_compiled_module **out, hd_error *err) {
  if (!ir || !out)
    return reportError(err, HD_ERROR_INVALID_ARGUMENT,
                       "intel compile: ir and out must not be null");
  auto fail = [&](const std::string &what) {
    return reportError(err, HD_ERROR_COMPILE, "intel compile: " + what);
  };
  PipelineOptions opts = PipelineOptions::from(options);
  std::string archName = opts.arch.empty() ? archModels().front().arch : opts.arch;
  const ArchModel *arch = findArch(archName);
  if (!arch)
    return reportError(err, HD_ERROR_INVALID_ARGUMENT,
                       "intel compile: unknown arch '" + archName + "'; intel compiles for " +
                           std::string(knownArchs()));

  IntelHooks hooks(*arch);
  auto targetAttr = [arch](MLIRContext *ctx, unsigned numWarps) {
    return hd::TargetAttr::get(ctx, "intel", arch->arch, arch->subGroupSizes, numWarps,
                               arch->maxWorkGroupSize, arch->slmBytesPerWorkGroup);
  };
  // The signatures' warp size is corrected per kernel below: each kernel's
  // layouts choose its sub-group size.
  PipelineTarget target{"intel", targetAttr, hooks, arch->subGroupSizes.back()};
  Result<LoweredModule> lowered = lowerToLLVM(llvm::StringRef(ir, irSize), target, opts);
  if (!lowered)
    return reportError(err, HD_ERROR_COMPILE, lowered.error());
  for (KernelSignature &k : lowered.value().kernels) {
    auto it = hooks.subGroupSizes().find(k.name);
    if (it != hooks.subGroupSizes().end())
      k.warpSize = it->second;
    uint64_t threads = uint64_t(k.numWarps) * k.warpSize;
    if (threads > arch->maxWorkGroupSize)
      return fail(k.name + ": " + std::to_string(k.numWarps) + " warps of " +
                  std::to_string(k.warpSize) + " work-items exceed the " +
                  std::to_string(arch->maxWorkGroupSize) + " work-items of a work-group on " +
                  arch->arch);
  }
  llvm::Module &module = *lowered.value().llvmModule;

  auto machine = createTargetMachine(opts.optLevel);
  if (!machine)
    return fail(machine.error());
  module.setTargetTriple((*machine)->getTargetTriple());
  module.setDataLayout((*machine)->createDataLayout());
  optimizeModule(module, **machine, opts.optLevel);
  legalizeForSpirv(module);
  // Checked before the backend runs, for a message that names the
  // instruction rather than the backend's abort.
  if (std::string bad = findUnsupportedForSpirv(module); !bad.empty())
    return fail("the SPIR-V backend cannot take " + bad);
  std::string verifyErrors;
  llvm::raw_string_ostream verifyStream(verifyErrors);
  if (llvm::verifyModule(module, &verifyStream))
    return fail("invalid LLVM IR before the SPIR-V backend:\n" + verifyErrors);
  std::string llvmIR = printModule(module);
  dumpStage(opts, "2-llvm.ll", [&](llvm::raw_ostream &os) { os << llvmIR; });

  unsigned optLevel = opts.optLevel;
  auto code = generateIsolated(module, [optLevel] { return createTargetMachine(optLevel); });
  if (!code)
    return fail(code.error());
  dumpStage(opts, "3-kernel.spvasm", [&](llvm::raw_ostream &os) { os << code->assembly; });
  *out = makeCompiledModule(code->binary, code->assembly, llvmIR, lowered->kernels);
  if (!*out)
    return reportError(err, HD_ERROR_OUT_OF_MEMORY, "intel compile: out of memory");
  return HD_OK;
}

/// The #hd.matrix_instr texts of one arch: its DPAS instructions (none on
/// the OpenCL CPU device).
struct ArchMatrixInstructions {
  std::vector<std::string> texts;
  std::vector<const char *> list; ///< NULL-terminated view of texts
  std::string error;              ///< an instruction the model cannot describe
};

hd_status matrixInstructions(const char *arch, const char *const **out, hd_error *err) {
  if (!out)
    return reportError(err, HD_ERROR_INVALID_ARGUMENT,
                       "intel matrix_instructions: out must not be null");
  const ArchModel *model = findArch(arch ? arch : archModels().front().arch);
  if (!model)
    return reportError(err, HD_ERROR_INVALID_ARGUMENT,
                       std::string("intel matrix_instructions: unknown arch '") + arch +
                           "'; intel compiles for " + std::string(knownArchs()));
  // Built once for every arch, so the pointers handed out live as long as
  // the library.
  static const std::map<std::string, ArchMatrixInstructions> byArch = [] {
    std::map<std::string, ArchMatrixInstructions> all;
    for (const ArchModel &m : archModels()) {
      ArchMatrixInstructions &a = all[m.arch];
      for (const DpasInstr &instr : m.dpas) {
        Result<std::string> text = matrixInstrAttribute(instr);
        if (text)
          a.texts.push_back(*text);
        else
          a.error = text.error();
      }
      for (const std::string &t : a.texts)
        a.list.push_back(t.c_str());
      a.list.push_back(nullptr);
    }
    return all;
  }();
  const ArchMatrixInstructions &a = byArch.at(model->arch);
  if (!a.error.empty())
    return reportError(err, HD_ERROR_INTERNAL, "intel matrix_instructions: " + a.error);
  *out = a.list.data();
  return HD_OK;
}

const hd_compiler_table kTable = {
    sizeof(hd_compiler_table), HADRON_PLUGIN_ABI_MAJOR, HADRON_PLUGIN_ABI_MINOR, compile,
    releaseCompiledModule, matrixInstructions,
};

} // namespace
} // namespace hadron::intel

extern "C" HADRON_PLUGIN_EXPORT const hd_compiler_table *hadron_compiler_entry(void) {
  return &hadron::intel::kTable;
}
