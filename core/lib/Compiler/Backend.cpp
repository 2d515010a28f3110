//===- Backend.cpp - LLVM back-end steps that targets share ---------------===//

#include "hadron/Compiler/Backend.h"
#include "hadron/Compiler/ToolRun.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/IRReader/IRReader.h"
#include "llvm/Linker/Linker.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/TargetParser/SubtargetFeature.h"
#include "llvm/Transforms/IPO/Internalize.h"
#include "llvm/Transforms/Utils/Cloning.h"

#include <functional>
#include <mutex>
#include <optional>
#include <set>

namespace hadron {

namespace {

/// Calls `initialize` unless this process already did; the native backend's
/// initialisers for nullptr.
void initializeOnce(void (*initialize)()) {
  static std::mutex mutex;
  static std::set<void (*)()> done;
  std::lock_guard<std::mutex> lock(mutex);
  if (!done.insert(initialize).second)
    return;
  if (initialize) {
    initialize();
    return;
  }
  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
}

llvm::CodeGenOptLevel codeGenLevel(unsigned optLevel) {
  switch (optLevel) {
  case 0: return llvm::CodeGenOptLevel::None;
  case 1: return llvm::CodeGenOptLevel::Less;
  case 2: return llvm::CodeGenOptLevel::Default;
  default: return llvm::CodeGenOptLevel::Aggressive;
  }
}

} // namespace

Result<std::unique_ptr<llvm::TargetMachine>> createTargetMachine(const MachineSpec &spec,
                                                                 unsigned optLevel) {
  const bool native = spec.triple.empty();
  initializeOnce(native ? nullptr : spec.initializeBackend);
  llvm::Triple triple(native ? llvm::sys::getProcessTriple() : spec.triple);
  std::string backend = spec.backendName.empty() ? triple.getArchName().str() : spec.backendName;
  std::string targetError;
  const llvm::Target *target = llvm::TargetRegistry::lookupTarget(triple, targetError);
  if (!target)
    return Error("this LLVM has no " + backend + " backend: " + targetError);
  llvm::SubtargetFeatures features(spec.features);
  std::string cpu = spec.cpu;
  if (native && cpu.empty()) {
    cpu = llvm::sys::getHostCPUName().str();
    for (auto &f : llvm::sys::getHostCPUFeatures())
      features.AddFeature(f.first(), f.second);
  } else if (!cpu.empty()) {
    std::unique_ptr<const llvm::MCSubtargetInfo> info(
        target->createMCSubtargetInfo(triple, "", ""));
    if (!info || !info->isCPUStringValid(cpu))
      return Error("LLVM's " + backend + " backend knows no CPU named '" + cpu + "'");
  }
  std::optional<llvm::Reloc::Model> reloc;
  if (spec.positionIndependent)
    reloc = llvm::Reloc::PIC_;
  std::unique_ptr<llvm::TargetMachine> machine(
      target->createTargetMachine(triple, cpu, features.getString(), llvm::TargetOptions(), reloc,
                                  std::nullopt, codeGenLevel(optLevel)));
  if (!machine)
    return Error("the " + backend + " backend made no target machine for " + triple.str() +
                 (cpu.empty() ? "" : " and CPU " + cpu));
  return machine;
}

void optimizeModule(llvm::Module &module, llvm::TargetMachine &machine, unsigned optLevel,
                    const std::function<void(llvm::PassBuilder &)> &extend) {
  llvm::LoopAnalysisManager lam;
  llvm::FunctionAnalysisManager fam;
  llvm::CGSCCAnalysisManager cgam;
  llvm::ModuleAnalysisManager mam;
  llvm::PassBuilder pb(&machine);
  if (extend)
    extend(pb);
  pb.registerModuleAnalyses(mam);
  pb.registerCGSCCAnalyses(cgam);
  pb.registerFunctionAnalyses(fam);
  pb.registerLoopAnalyses(lam);
  pb.crossRegisterProxies(lam, fam, cgam, mam);
  llvm::OptimizationLevel level = optLevel == 0   ? llvm::OptimizationLevel::O0
                                  : optLevel == 1 ? llvm::OptimizationLevel::O1
                                  : optLevel == 2 ? llvm::OptimizationLevel::O2
                                                  : llvm::OptimizationLevel::O3;
  llvm::ModulePassManager mpm = level == llvm::OptimizationLevel::O0
                                    ? pb.buildO0DefaultPipeline(level)
                                    : pb.buildPerModuleDefaultPipeline(level);
  mpm.run(module, mam);
}

std::string printModule(const llvm::Module &module) {
  std::string text;
  llvm::raw_string_ostream os(text);
  module.print(os, nullptr);
  return text;
}

Result<std::string> emitCode(const llvm::Module &module, llvm::TargetMachine &machine,
                             EmitKind kind) {
  llvm::SmallString<0> buffer;
  llvm::raw_svector_ostream os(buffer);
  llvm::legacy::PassManager codegen;
  llvm::CodeGenFileType type = kind == EmitKind::Assembly ? llvm::CodeGenFileType::AssemblyFile
                                                          : llvm::CodeGenFileType::ObjectFile;
  if (machine.addPassesToEmitFile(codegen, os, nullptr, type))
    return Error("the LLVM backend cannot emit " +
                 std::string(kind == EmitKind::Assembly ? "assembly" : "an object") + " for " +
                 machine.getTargetTriple().str());
  // Code generation changes the module it runs on; the caller's stays as it was.
  std::unique_ptr<llvm::Module> clone = llvm::CloneModule(module);
  codegen.run(*clone);
  return std::string(buffer.begin(), buffer.end());
}

Status linkBitcode(llvm::Module &module, llvm::StringRef path, BitcodeLink mode) {
  llvm::SMDiagnostic diag;
  std::unique_ptr<llvm::Module> library = llvm::parseIRFile(path, diag, module.getContext());
  if (!library)
    return Error("cannot read " + path.str() + ": " + diag.getMessage().str());
  library->setTargetTriple(module.getTargetTriple());
  library->setDataLayout(module.getDataLayout());
  std::function<void(llvm::Module &, const llvm::StringSet<> &)> internalize;
  if (mode == BitcodeLink::OnlyNeededInternalized)
    internalize = [](llvm::Module &linked, const llvm::StringSet<> &fromLibrary) {
      llvm::internalizeModule(linked, [&fromLibrary](const llvm::GlobalValue &gv) {
        return !gv.hasName() || !fromLibrary.count(gv.getName());
      });
    };
  if (llvm::Linker::linkModules(module, std::move(library), llvm::Linker::LinkOnlyNeeded,
                                internalize))
    return Error("linking " + path.str() + " into the kernel failed");
  return {};
}

Result<std::string> linkSharedObject(llvm::StringRef lldPath,
                                     llvm::ArrayRef<llvm::StringRef> objects,
                                     llvm::ArrayRef<llvm::StringRef> extraArgs) {
  ToolRun run("hadron-link");
  Result<std::string> library = run.output("so");
  if (!library)
    return library;
  std::vector<std::string> args{"-shared", "-o", *library};
  for (llvm::StringRef object : objects) {
    Result<std::string> path = run.input(object, "o");
    if (!path)
      return path;
    args.push_back(*path);
  }
  for (llvm::StringRef arg : extraArgs)
    args.push_back(arg.str());
  if (Status linked = run.execute(lldPath, args); !linked)
    return Error(linked.error());
  return run.read(*library);
}

} // namespace hadron
