//===- AmdCompiler.cpp - The AMD target's compiler part -------------------===//
//
// The shared front half (hadron/Compiler/Pipeline.h, with AmdHooks) gives
// LLVM IR; the AMD back half
//
//   printf and math -> device-library calls, ocml/ockl linked when called
//   -> LLVM's AMDGPU backend in process (O0-O3) -> ELF relocatable object
//   -> ld.lld -shared --no-undefined -> HSACO (code object v5)
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
#include "hadron/Compiler/Backend.h"
#include "hadron/Compiler/Pipeline.h"
#include "hadron/IR/Dialect.h"
#include "hadron/plugin/plugin.h"

#include "llvm/IR/Module.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Target/TargetOptions.h"
#include "llvm/TargetParser/Triple.h"

#include <map>
#include <mutex>
#include <string>

using namespace mlir;

namespace hadron::amd {
namespace {

constexpr unsigned kCodeObjectVersion = 500;

Result<std::unique_ptr<llvm::TargetMachine>> createTargetMachine(const ArchModel &arch,
                                                                 unsigned optLevel) {
  static std::once_flag initOnce;
  std::call_once(initOnce, [] {
    LLVMInitializeAMDGPUTargetInfo();
    LLVMInitializeAMDGPUTarget();
    LLVMInitializeAMDGPUTargetMC();
    LLVMInitializeAMDGPUAsmPrinter();
    // The device libraries' hostcall (printf) has inline assembly, which
    // the object streamer parses.
    LLVMInitializeAMDGPUAsmParser();
  });
  llvm::Triple triple("amdgcn-amd-amdhsa");
  std::string error;
  const llvm::Target *target = llvm::TargetRegistry::lookupTarget(triple, error);
  if (!target)
    return Error("this LLVM has no AMDGPU backend: " + error);
  llvm::CodeGenOptLevel level = optLevel == 0   ? llvm::CodeGenOptLevel::None
                                : optLevel == 1 ? llvm::CodeGenOptLevel::Less
                                : optLevel == 2 ? llvm::CodeGenOptLevel::Default
                                                : llvm::CodeGenOptLevel::Aggressive;
  std::unique_ptr<llvm::TargetMachine> machine(target->createTargetMachine(
      triple, arch.arch, arch.waveSize == 32 ? "+wavefrontsize32" : "+wavefrontsize64",
      llvm::TargetOptions(), llvm::Reloc::PIC_, std::nullopt, level));
  if (!machine)
    return Error(std::string("the AMDGPU backend has no processor ") + arch.arch);
  return machine;
}

std::string knownArchs() {
  std::string out;
  for (const ArchModel &m : archModels())
    out += (out.empty() ? "" : ", ") + std::string(m.arch);
  return out;
}

hd_status compile(const char *ir, uint64_t irSize, const hd_compile_options *options,
                  hd_compiled_module **out, hd_error *err) {
  if (!ir || !out)
    return reportError(err, HD_ERROR_INVALID_ARGUMENT,
                       "amd compile: ir and out must not be null");
  auto fail = [&](const std::string &what) {
    return reportError(err, HD_ERROR_COMPILE, "amd compile: " + what);
  };
  PipelineOptions opts = PipelineOptions::from(options);
  std::string archName = opts.arch.empty() ? archModels().front().arch : opts.arch;
  const ArchModel *arch = findArch(archName);
  if (!arch)
    return reportError(err, HD_ERROR_INVALID_ARGUMENT,
                       "amd compile: unknown arch '" + archName + "'; amd compiles for " +
                           knownArchs());

  AmdHooks hooks(*arch);
  auto targetAttr = [arch](MLIRContext *ctx, unsigned numWarps) {
    unsigned waveSizes[] = {arch->waveSize};
    return hd::TargetAttr::get(ctx, "amd", arch->arch, waveSizes, numWarps,
                               arch->maxThreadsPerWorkgroup, arch->ldsBytesPerWorkgroup);
  };
  PipelineTarget target{"amd", targetAttr, hooks, arch->waveSize, registerAmdDialects,
                        raiseToRocdl};
  Result<LoweredModule> lowered = lowerToLLVM(llvm::StringRef(ir, irSize), target, opts);
  if (!lowered)
    return reportError(err, HD_ERROR_COMPILE, lowered.error());
  llvm::Module &module = *lowered.value().llvmModule;

  auto machine = createTargetMachine(*arch, opts.optLevel);
  if (!machine)
    return fail(machine.error());
  // Triple and data layout first: the device libraries link against them.
  module.setTargetTriple((*machine)->getTargetTriple());
  module.setDataLayout((*machine)->createDataLayout());
  module.addModuleFlag(llvm::Module::Error, "amdhsa_code_object_version", kCodeObjectVersion);
  expandPrintf(module);
  useOcmlForMath(module);
  auto linked = linkDeviceLibraries(module, *arch, deviceLibrarySearchPath());
  if (!linked)
    return fail(linked.error());
  // Before the backend: it aborts the process on some unresolved math.
  if (std::string unresolved = findUnresolvedCall(module); !unresolved.empty())
    return fail(unresolved);

  auto code = generateCode(module, **machine, opts);
  if (!code)
    return fail(code.error());
  auto hsaco = linkSharedObject(HADRON_LLD_PATH, {code->object}, {"--no-undefined"});
  if (!hsaco)
    return fail(hsaco.error());
  *out = makeCompiledModule(*hsaco, code->assembly, code->llvmIR, lowered->kernels);
  if (!*out)
    return reportError(err, HD_ERROR_OUT_OF_MEMORY, "amd compile: out of memory");
  return HD_OK;
}

/// The #hd.matrix_instr texts of one arch: its MFMAs or WMMAs that hd.dot
/// can name (not fp8).
struct ArchMatrixInstructions {
  std::vector<std::string> texts;
  std::vector<const char *> list; ///< NULL-terminated view of texts
  std::string error;              ///< an instruction the model cannot describe
};

hd_status matrixInstructions(const char *arch, const char *const **out, hd_error *err) {
  if (!out)
    return reportError(err, HD_ERROR_INVALID_ARGUMENT,
                       "amd matrix_instructions: out must not be null");
  const ArchModel *model = findArch(arch ? arch : archModels().front().arch);
  if (!model)
    return reportError(err, HD_ERROR_INVALID_ARGUMENT,
                       std::string("amd matrix_instructions: unknown arch '") + arch +
                           "'; amd compiles for " + knownArchs());
  // Built once for every arch, so the pointers handed out live as long as
  // the library.
  static const std::map<std::string, ArchMatrixInstructions> byArch = [] {
    std::map<std::string, ArchMatrixInstructions> all;
    for (const ArchModel &m : archModels()) {
      ArchMatrixInstructions &a = all[m.arch];
      for (const MatrixInstr *instr : hadron::amd::matrixInstructions(m)) {
        if (!issuedByDot(*instr))
          continue;
        Result<std::string> text = matrixInstrAttribute(*instr);
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
    return reportError(err, HD_ERROR_INTERNAL, "amd matrix_instructions: " + a.error);
  *out = a.list.data();
  return HD_OK;
}

const hd_compiler_table kTable = {
    sizeof(hd_compiler_table), HADRON_PLUGIN_ABI_MAJOR, HADRON_PLUGIN_ABI_MINOR, compile,
    releaseCompiledModule, matrixInstructions,
};

} // namespace
} // namespace hadron::amd

extern "C" HADRON_PLUGIN_EXPORT const hd_compiler_table *hadron_compiler_entry(void) {
  return &hadron::amd::kTable;
}
