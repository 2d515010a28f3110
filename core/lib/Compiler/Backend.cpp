//===- Backend.cpp - LLVM back-end steps that targets share ---------------===//

#include "hadron/Compiler/Backend.h"
#include "hadron/Compiler/Pipeline.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/TargetParser/SubtargetFeature.h"
#include "llvm/Transforms/Utils/Cloning.h"

#include <mutex>
#include <optional>

namespace hadron {

Result<std::unique_ptr<llvm::TargetMachine>> createNativeTargetMachine(unsigned optLevel,
                                                                      llvm::StringRef cpu) {
  static std::once_flag initOnce;
  std::call_once(initOnce, [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
  });
  llvm::Triple triple(llvm::sys::getProcessTriple());
  std::string targetError;
  const llvm::Target *target = llvm::TargetRegistry::lookupTarget(triple, targetError);
  if (!target)
    return Error("no LLVM backend for " + triple.str() + ": " + targetError);
  llvm::SubtargetFeatures features;
  std::string cpuName = cpu.str();
  if (cpu.empty()) {
    cpuName = llvm::sys::getHostCPUName().str();
    for (auto &f : llvm::sys::getHostCPUFeatures())
      features.AddFeature(f.first(), f.second);
  } else {
    std::unique_ptr<const llvm::MCSubtargetInfo> info(
        target->createMCSubtargetInfo(triple, "", ""));
    bool known = info && info->isCPUStringValid(cpu);
    if (!known)
      return Error("LLVM's " + triple.getArchName().str() + " backend knows no CPU named '" +
                   cpuName + "'");
  }
  llvm::TargetOptions options;
  return std::unique_ptr<llvm::TargetMachine>(target->createTargetMachine(
      triple, cpuName, features.getString(), options, llvm::Reloc::PIC_,
      std::nullopt,
      optLevel >= 2 ? llvm::CodeGenOptLevel::Aggressive : llvm::CodeGenOptLevel::Default));
}

void optimizeModule(llvm::Module &module, llvm::TargetMachine &machine, unsigned optLevel) {
  llvm::LoopAnalysisManager lam;
  llvm::FunctionAnalysisManager fam;
  llvm::CGSCCAnalysisManager cgam;
  llvm::ModuleAnalysisManager mam;
  llvm::PassBuilder pb(&machine);
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

Result<GeneratedCode> generateCode(llvm::Module &module, llvm::TargetMachine &machine,
                                   const PipelineOptions &options) {
  module.setTargetTriple(machine.getTargetTriple());
  module.setDataLayout(machine.createDataLayout());
  optimizeModule(module, machine, options.optLevel);
  GeneratedCode code;
  code.llvmIR = printModule(module);
  dumpStage(options, "2-llvm.ll", [&](llvm::raw_ostream &os) { os << code.llvmIR; });
  Result<std::string> assembly = emitCode(module, machine, EmitKind::Assembly);
  if (!assembly)
    return Error(assembly.error());
  Result<std::string> object = emitCode(module, machine, EmitKind::Object);
  if (!object)
    return Error(object.error());
  code.assembly = std::move(assembly).value();
  code.object = std::move(object).value();
  dumpStage(options, "3-kernel.s", [&](llvm::raw_ostream &os) { os << code.assembly; });
  return code;
}

namespace {

/// A temporary file removed when this goes out of scope.
struct TempFile {
  llvm::SmallString<128> path;
  ~TempFile() {
    if (!path.empty())
      llvm::sys::fs::remove(path);
  }
};

} // namespace

Result<std::string> linkSharedObject(llvm::StringRef lldPath,
                                     llvm::ArrayRef<llvm::StringRef> objects,
                                     llvm::ArrayRef<llvm::StringRef> extraArgs) {
  std::vector<TempFile> objs(objects.size());
  TempFile lib, log;
  for (size_t i = 0; i < objects.size(); ++i) {
    int objFd = -1;
    if (llvm::sys::fs::createTemporaryFile("hadron-link", "o", objFd, objs[i].path))
      return Error("cannot create a temporary object file");
    llvm::raw_fd_ostream os(objFd, /*shouldClose=*/true);
    os << objects[i];
    os.close();
    if (os.has_error()) {
      os.clear_error();
      return Error("cannot write the temporary object file " + objs[i].path.str().str());
    }
  }
  if (llvm::sys::fs::createTemporaryFile("hadron-link", "so", lib.path) ||
      llvm::sys::fs::createTemporaryFile("hadron-link", "log", log.path))
    return Error("cannot create a temporary library file");

  llvm::SmallVector<llvm::StringRef> args{lldPath, "-shared", "-o", lib.path};
  for (const TempFile &obj : objs)
    args.push_back(obj.path);
  args.append(extraArgs.begin(), extraArgs.end());
  std::optional<llvm::StringRef> redirects[] = {std::nullopt, log.path, log.path};
  std::string launchError;
  int rc = llvm::sys::ExecuteAndWait(lldPath, args, std::nullopt, redirects, 0, 0, &launchError);
  auto bytes = llvm::MemoryBuffer::getFile(lib.path);
  if (rc == 0 && bytes)
    return (*bytes)->getBuffer().str();

  std::string message = lldPath.str() + " failed (exit " + std::to_string(rc) + ")";
  if (!launchError.empty())
    message += ": " + launchError;
  if (auto printed = llvm::MemoryBuffer::getFile(log.path); printed && (*printed)->getBufferSize())
    message += ":\n" + (*printed)->getBuffer().str();
  return Error(message);
}

} // namespace hadron
