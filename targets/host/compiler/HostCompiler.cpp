//===- HostCompiler.cpp - The host target's compiler part -----------------===//
//
// The shared front half (hadron/Compiler/Pipeline.h, with HostHooks) gives
// LLVM IR; the host's back half optimises it at O3 for the compiling
// machine's CPU, emits an object and links it with ld.lld -shared into the
// ELF the host runtime part dlopens. Exported through `hadron_compiler_entry`.
//
//===----------------------------------------------------------------------===//

#include "HostHooks.h"
#include "hadron/Compiler/Backend.h"
#include "hadron/Compiler/Pipeline.h"
#include "hadron/IR/Dialect.h"
#include "hadron/plugin/plugin.h"

#include "llvm/IR/Module.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/TargetParser/Host.h"

#include <string>

using namespace mlir;

namespace {

unsigned hostVectorBytes() {
  llvm::StringMap<bool> features = llvm::sys::getHostCPUFeatures();
  if (features.lookup("avx512f"))
    return 64;
  if (features.lookup("avx"))
    return 32;
  return 16;
}

/// The target attribute the host fills: any warp size up to 64 runs (lanes
/// are folded into registers), num_warps comes from the kernel's module.
hadron::hd::TargetAttr hostTarget(MLIRContext *ctx, unsigned numWarps) {
  static const unsigned warpSizes[] = {1, 2, 4, 8, 16, 32, 64};
  return hadron::hd::TargetAttr::get(ctx, "host", llvm::sys::getHostCPUName(), warpSizes,
                                     numWarps, /*maxThreadsPerCTA=*/65536,
                                     /*sharedMemoryBytes=*/1 << 20);
}

hd_status compile(const char *ir, uint64_t irSize, const hd_compile_options *options,
                  hd_compiled_module **out, hd_error *err) {
  if (!ir || !out)
    return hadron::reportError(err, HD_ERROR_INVALID_ARGUMENT,
                               "host compile: ir and out must not be null");
  auto fail = [&](const std::string &what) {
    return hadron::reportError(err, HD_ERROR_COMPILE, "host compile: " + what);
  };
  hadron::PipelineOptions opts = hadron::PipelineOptions::from(options);
  hadron::host::HostHooks hooks(hostVectorBytes());
  hadron::PipelineTarget target{"host", hostTarget, hooks, /*warpSize=*/1};
  hadron::Result<hadron::LoweredModule> lowered =
      hadron::lowerToLLVM(llvm::StringRef(ir, irSize), target, opts);
  if (!lowered)
    return hadron::reportError(err, HD_ERROR_COMPILE, lowered.error());
  llvm::Module &module = *lowered.value().llvmModule;

  auto machine = hadron::createNativeTargetMachine(opts.optLevel);
  if (!machine)
    return fail(machine.error());
  auto code = hadron::generateCode(module, **machine, opts);
  if (!code)
    return fail(code.error());
  auto binary = hadron::linkSharedObject(HADRON_LLD_PATH, code->object);
  if (!binary)
    return fail(binary.error());
  *out = hadron::makeCompiledModule(*binary, code->assembly, code->llvmIR, lowered->kernels);
  if (!*out)
    return hadron::reportError(err, HD_ERROR_OUT_OF_MEMORY, "host compile: out of memory");
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
