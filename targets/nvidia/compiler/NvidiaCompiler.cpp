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

#include <string>

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

const hd_compiler_table kTable = {
    sizeof(hd_compiler_table), HADRON_PLUGIN_ABI_MAJOR, HADRON_PLUGIN_ABI_MINOR, compile,
    hadron::releaseCompiledModule,
};

} // namespace

extern "C" HADRON_PLUGIN_EXPORT const hd_compiler_table *hadron_compiler_entry(void) {
  return &kTable;
}
