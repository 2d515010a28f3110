//===- NvidiaCompiler.cpp - The NVIDIA target's compiler part -------------===//
//
// The shared front half (hadron/Compiler/Pipeline.h) lowers the kernel with
// NvidiaHooks against the arch's #hd.target; after distribute the hooks'
// intrinsic calls become NVVM ops; the back half (NvidiaBackend.h) makes
// PTX and, with ptxas, a cubin. The compiled module's assembly is the PTX.
// Exported through `hadron_compiler_entry`.
//
//===----------------------------------------------------------------------===//

#include "NvidiaBackend.h"
#include "NvidiaHooks.h"
#include "NvvmDialect.h"

#include "../NvidiaKernelABI.h"
#include "../model/NvidiaModel.h"

#include "hadron/Compiler/Pipeline.h"
#include "hadron/IR/Dialect.h"
#include "hadron/plugin/plugin.h"

#include "llvm/IR/Module.h"
#include "llvm/Target/TargetMachine.h"

#include <map>
#include <string>
#include <vector>

using namespace mlir;

namespace {

using hadron::nvidia::ArchModel;

std::string listedArchs() {
  std::string list;
  for (const ArchModel &m : hadron::nvidia::archModels())
    list += (list.empty() ? "" : ", ") + std::string(m.arch);
  return list;
}

hd_status compile(const char *ir, uint64_t irSize, const hd_compile_options *options,
                  hd_compiled_module **out, hd_error *err) {
  if (!ir || !out)
    return hadron::reportError(err, HD_ERROR_INVALID_ARGUMENT,
                               "nvidia compile: ir and out must not be null");
  auto fail = [&](const std::string &what) {
    return hadron::reportError(err, HD_ERROR_COMPILE, "nvidia compile: " + what);
  };
  hadron::PipelineOptions opts = hadron::PipelineOptions::from(options);
  if (opts.arch.empty())
    opts.arch = hadron::nvidia::archModels().front().arch;
  const ArchModel *model = hadron::nvidia::findArch(opts.arch);
  if (!model)
    return hadron::reportError(err, HD_ERROR_INVALID_ARGUMENT,
                               "nvidia compile: unknown arch '" + opts.arch +
                                   "'; the nvidia target compiles for " + listedArchs());

  hadron::nvidia::NvidiaHooks hooks(*model);
  auto targetAttr = [model](MLIRContext *ctx, unsigned numWarps) {
    const unsigned warpSizes[] = {model->warpSize};
    // All shared memory is dynamic (NvidiaKernelABI.h), so a CTA may use
    // up to the opt-in limit.
    return hadron::hd::TargetAttr::get(ctx, "nvidia", model->arch, warpSizes, numWarps,
                                       model->maxThreadsPerCTA, model->sharedBytesPerCTAOptIn);
  };
  hadron::PipelineTarget target{"nvidia", targetAttr, hooks, HD_NVIDIA_WARP_SIZE,
                                hadron::nvidia::registerNvvm, hadron::nvidia::raiseToNvvm};
  hadron::Result<hadron::LoweredModule> lowered =
      hadron::lowerToLLVM(llvm::StringRef(ir, irSize), target, opts);
  if (!lowered)
    return hadron::reportError(err, HD_ERROR_COMPILE, lowered.error());

  auto machine = hadron::nvidia::createNvptxTargetMachine(opts.arch, opts.optLevel);
  if (!machine)
    return fail(machine.error());
  hadron::nvidia::CudaToolkit toolkit = hadron::nvidia::CudaToolkit::find();
  auto code = hadron::nvidia::compileToPtx(*lowered.value().llvmModule, **machine, opts.arch,
                                            toolkit, opts);
  if (!code)
    return fail(opts.arch + ": " + code.error());
  *out = hadron::makeCompiledModule(code->binary, code->ptx, code->llvmIR, lowered->kernels);
  if (!*out)
    return hadron::reportError(err, HD_ERROR_OUT_OF_MEMORY, "nvidia compile: out of memory");
  return HD_OK;
}

/// The #hd.matrix_instr texts of one arch: its mma.sync instructions (wgmma
/// is issued from shared memory and has no such attribute).
struct ArchMatrixInstructions {
  std::vector<std::string> texts;
  std::vector<const char *> list; ///< NULL-terminated view of texts
  std::string error;              ///< an instruction the model cannot describe
};

hd_status matrixInstructions(const char *arch, const char *const **out, hd_error *err) {
  if (!out)
    return hadron::reportError(err, HD_ERROR_INVALID_ARGUMENT,
                               "nvidia matrix_instructions: out must not be null");
  const ArchModel *model = hadron::nvidia::findArch(
      arch ? arch : hadron::nvidia::archModels().front().arch);
  if (!model)
    return hadron::reportError(err, HD_ERROR_INVALID_ARGUMENT,
                               std::string("nvidia matrix_instructions: unknown arch '") + arch +
                                   "'; the nvidia target compiles for " + listedArchs());
  // Built once for every arch, so the pointers handed out live as long as
  // the library.
  static const std::map<std::string, ArchMatrixInstructions> byArch = [] {
    std::map<std::string, ArchMatrixInstructions> all;
    for (const ArchModel &m : hadron::nvidia::archModels()) {
      ArchMatrixInstructions &a = all[m.arch];
      for (const hadron::nvidia::MatrixInstr *instr : hadron::nvidia::matrixInstructions(m))
        if (instr->family == hadron::nvidia::MatrixFamily::MmaSync) {
          hadron::Result<std::string> text = hadron::nvidia::matrixInstrAttribute(*instr);
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
    return hadron::reportError(err, HD_ERROR_INTERNAL,
                               std::string("nvidia matrix_instructions: ") + a.error);
  *out = a.list.data();
  return HD_OK;
}

const hd_compiler_table kTable = {
    sizeof(hd_compiler_table), HADRON_PLUGIN_ABI_MAJOR, HADRON_PLUGIN_ABI_MINOR, compile,
    hadron::releaseCompiledModule, matrixInstructions,
};

} // namespace

extern "C" HADRON_PLUGIN_EXPORT const hd_compiler_table *hadron_compiler_entry(void) {
  return &kTable;
}
