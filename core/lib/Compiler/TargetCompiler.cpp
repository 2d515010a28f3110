//===- TargetCompiler.cpp - The flow every compiler part runs -------------===//

#include "hadron/Compiler/TargetCompiler.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"

namespace hadron {

TargetCompiler::TargetCompiler(std::string name) : targetName(std::move(name)) {}

TargetCompiler::~TargetCompiler() = default;

Status TargetCompiler::checkKernels(std::vector<KernelSignature> &) { return {}; }

Status TargetCompiler::lowerModule(llvm::Module &, llvm::TargetMachine &) { return {}; }

Status TargetCompiler::linkLibraries(llvm::Module &) { return {}; }

void TargetCompiler::optimize(llvm::Module &module, llvm::TargetMachine &machine,
                              unsigned optLevel) {
  optimizeModule(module, machine, optLevel);
}

Status TargetCompiler::checkModule(llvm::Module &) { return {}; }

Status TargetCompiler::emit(const llvm::Module &module, llvm::TargetMachine &machine,
                            GeneratedCode &code) {
  Result<std::string> assembly = emitCode(module, machine, EmitKind::Assembly);
  if (!assembly)
    return Error(assembly.error());
  Result<std::string> object = emitCode(module, machine, EmitKind::Object);
  if (!object)
    return Error(object.error());
  code.assembly = std::move(assembly).value();
  code.object = std::move(object).value();
  return {};
}

Result<std::string> TargetCompiler::package(GeneratedCode &code, llvm::TargetMachine &) {
  return code.object;
}

hd_status TargetCompiler::compile(const char *ir, uint64_t irSize,
                                  const hd_compile_options *options, hd_compiled_module **out,
                                  hd_error *err) {
  const std::string prefix = targetName + " compile: ";
  if (!ir || !out)
    return reportError(err, HD_ERROR_INVALID_ARGUMENT, prefix + "ir and out must not be null");
  auto fail = [&](const std::string &what) {
    return reportError(err, HD_ERROR_COMPILE, prefix + what);
  };

  opts = PipelineOptions::from(options);
  std::vector<std::string> archs = archNames();
  if (opts.arch.empty())
    opts.arch = archs.front();
  if (!llvm::is_contained(archs, opts.arch))
    return reportError(err, HD_ERROR_INVALID_ARGUMENT,
                       prefix + "unknown arch '" + opts.arch + "'; " + targetName +
                           " compiles for " + joinNames(archs));
  if (Status selected = selectArch(opts.arch); !selected)
    return reportError(err, HD_ERROR_INVALID_ARGUMENT, prefix + selected.error());

  Result<LoweredModule> lowered = lowerToLLVM(llvm::StringRef(ir, irSize), pipelineTarget(), opts);
  if (!lowered)
    return reportError(err, HD_ERROR_COMPILE, lowered.error());
  std::vector<KernelSignature> &kernels = lowered.value().kernels;
  if (Status checked = checkKernels(kernels); !checked)
    return fail(checked.error());
  llvm::Module &module = *lowered.value().llvmModule;

  Result<std::unique_ptr<llvm::TargetMachine>> machine = createMachine(opts.optLevel);
  if (!machine)
    return fail(machine.error());
  llvm::TargetMachine &tm = *machine.value();
  // Triple and data layout first: target rewrites and libraries depend on them.
  module.setTargetTriple(tm.getTargetTriple());
  module.setDataLayout(tm.createDataLayout());
  if (Status rewritten = lowerModule(module, tm); !rewritten)
    return fail(rewritten.error());
  if (Status linked = linkLibraries(module); !linked)
    return fail(linked.error());
  dumpStage(opts, "1-llvm-lowered.ll", [&](llvm::raw_ostream &os) { module.print(os, nullptr); });
  optimize(module, tm, opts.optLevel);
  if (Status checked = checkModule(module); !checked)
    return fail(checked.error());

  GeneratedCode code;
  code.llvmIR = printModule(module);
  dumpStage(opts, "2-llvm.ll", [&](llvm::raw_ostream &os) { os << code.llvmIR; });
  if (Status emitted = emit(module, tm, code); !emitted)
    return fail(emitted.error());
  dumpStage(opts, ("3-kernel." + assemblySuffix()).str(),
            [&](llvm::raw_ostream &os) { os << code.assembly; });
  Result<std::string> binary = package(code, tm);
  if (!binary)
    return fail(binary.error());

  *out = makeCompiledModule(*binary, code.assembly, code.llvmIR, kernels);
  if (!*out)
    return reportError(err, HD_ERROR_OUT_OF_MEMORY, prefix + "out of memory");
  return HD_OK;
}

std::string joinNames(const std::vector<std::string> &names) {
  std::string text;
  for (const std::string &name : names)
    text += (text.empty() ? "" : ", ") + name;
  return text;
}

} // namespace hadron
