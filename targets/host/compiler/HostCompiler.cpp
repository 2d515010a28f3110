//===- HostCompiler.cpp - The host target's compiler part -----------------===//
//
// hd IR -> hd passes -> distribute (HostHooks) -> LLVM IR -> O3 for the
// compiling machine's CPU -> object -> ld.lld -shared -> the ELF the host
// runtime part dlopens. Exported through `hadron_compiler_entry`.
//
//===----------------------------------------------------------------------===//

#include "HostHooks.h"
#include "hadron/IR/Dialect.h"
#include "hadron/plugin/plugin.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "mlir/Transforms/Passes.h"

#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/TargetParser/SubtargetFeature.h"
#include "llvm/Transforms/Utils/Cloning.h"

#include <cstring>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

using namespace mlir;

namespace {

void setError(hd_error *err, hd_status code, const std::string &message) {
  if (!err)
    return;
  err->code = code;
  std::snprintf(err->message, sizeof(err->message), "%s", message.c_str());
}

/// Everything a compiled module hands out, kept alive until release().
struct CompiledModule {
  hd_compiled_module view{};
  std::string binary, assembly, llvmIR;
  std::vector<std::string> names;
  std::vector<std::vector<hd_arg_kind>> argKinds;
  std::vector<hd_kernel_signature> kernels;
};

std::optional<hd_arg_kind> argKind(Type type) {
  if (isa<hadron::hd::PointerType>(type))
    return HD_ARG_PTR;
  if (type.isInteger(1))
    return HD_ARG_I1;
  if (type.isInteger(8))
    return HD_ARG_I8;
  if (type.isInteger(16))
    return HD_ARG_I16;
  if (type.isInteger(32))
    return HD_ARG_I32;
  if (type.isInteger(64))
    return HD_ARG_I64;
  if (type.isF16())
    return HD_ARG_F16;
  if (type.isBF16())
    return HD_ARG_BF16;
  if (type.isF32())
    return HD_ARG_F32;
  if (type.isF64())
    return HD_ARG_F64;
  return std::nullopt;
}

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

void dump(const char *dir, const char *name, llvm::function_ref<void(llvm::raw_ostream &)> fn) {
  if (!dir)
    return;
  std::error_code ec;
  llvm::raw_fd_ostream os(std::string(dir) + "/" + name, ec);
  if (!ec)
    fn(os);
}

hd_status compileImpl(const char *ir, uint64_t irSize, const hd_compile_options *options,
                      hd_compiled_module **out, hd_error *err) {
  if (!ir || !out) {
    setError(err, HD_ERROR_INVALID_ARGUMENT, "host compile: ir and out must not be null");
    return HD_ERROR_INVALID_ARGUMENT;
  }
  const char *dumpDir = options && options->struct_size >= offsetof(hd_compile_options, dump_dir) +
                                                               sizeof(const char *)
                            ? options->dump_dir
                            : nullptr;
  unsigned optLevel = options ? std::min(options->opt_level, 3u) : 3;

  DialectRegistry registry;
  registry.insert<hadron::hd::HadronDialect, arith::ArithDialect, cf::ControlFlowDialect,
                  func::FuncDialect, math::MathDialect, scf::SCFDialect, LLVM::LLVMDialect>();
  registerBuiltinDialectTranslation(registry);
  registerLLVMDialectTranslation(registry);
  MLIRContext ctx(registry, MLIRContext::Threading::DISABLED);
  ctx.loadAllAvailableDialects();

  std::string diagnostics;
  llvm::raw_string_ostream diagOS(diagnostics);
  auto printLoc = [&](Location loc) {
    if (auto flc = dyn_cast<FileLineColLoc>(loc))
      diagOS << flc.getFilename().getValue() << ":" << flc.getLine() << ":" << flc.getColumn();
    else
      diagOS << loc;
  };
  ScopedDiagnosticHandler handler(&ctx, [&](Diagnostic &diag) {
    printLoc(diag.getLocation());
    diagOS << ": "
           << (diag.getSeverity() == DiagnosticSeverity::Error ? "error: " : "note: ")
           << diag.str() << "\n";
    for (Diagnostic &note : diag.getNotes()) {
      printLoc(note.getLocation());
      diagOS << ": note: " << note.str() << "\n";
    }
    return success();
  });
  auto fail = [&](const std::string &what) {
    setError(err, HD_ERROR_COMPILE, what + (diagnostics.empty() ? "" : ":\n" + diagnostics));
    return HD_ERROR_COMPILE;
  };

  llvm::SourceMgr sources;
  sources.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(llvm::StringRef(ir, irSize), "<kernel>"), llvm::SMLoc());
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sources, &ctx);
  if (!module)
    return fail("host compile: the IR does not parse");

  // The host's own target attribute replaces whatever the module carried.
  unsigned numWarps = 4;
  if (auto existing = hadron::hd::getTarget(*module))
    numWarps = existing.getNumWarps();
  if (auto attr = (*module)->getAttrOfType<IntegerAttr>("hd.num_warps"))
    numWarps = attr.getInt();
  (*module)->setAttr(hadron::hd::HadronDialect::getTargetAttrName(), hostTarget(&ctx, numWarps));
  if (failed(verify(*module)))
    return fail("host compile: the kernel does not verify against target host");
  dump(dumpDir, "0-input.mlir", [&](llvm::raw_ostream &os) { module->print(os); });

  auto result = std::make_unique<CompiledModule>();
  for (auto func : module->getOps<func::FuncOp>()) {
    if (!func->hasAttr(hadron::hd::HadronDialect::getKernelAttrName()))
      continue;
    std::vector<hd_arg_kind> kinds;
    for (Type t : func.getArgumentTypes()) {
      std::optional<hd_arg_kind> kind = argKind(t);
      if (!kind) {
        func.emitOpError() << "has an argument of type " << t
                           << "; kernels take pointers, integers and floats";
        return fail("host compile: unsupported kernel signature");
      }
      kinds.push_back(*kind);
    }
    result->names.push_back(func.getSymName().str());
    result->argKinds.push_back(std::move(kinds));
  }
  if (result->names.empty())
    return fail("host compile: the module has no function marked hd.kernel");

  PassManager pm(&ctx);
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  if (failed(pm.run(*module)))
    return fail("host compile: canonicalization failed");

  hadron::host::HostHooks hooks(hostVectorBytes());
  if (failed(hadron::distributeToLLVM(*module, hooks)))
    return fail("host compile: lowering to per-thread code failed");
  dump(dumpDir, "1-llvm-dialect.mlir", [&](llvm::raw_ostream &os) { module->print(os); });

  static std::once_flag initOnce;
  std::call_once(initOnce, [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
  });
  llvm::LLVMContext llvmContext;
  std::unique_ptr<llvm::Module> llvmModule = translateModuleToLLVMIR(*module, llvmContext, "hadron");
  if (!llvmModule)
    return fail("host compile: translation to LLVM IR failed");

  llvm::Triple triple(llvm::sys::getProcessTriple());
  std::string targetError;
  const llvm::Target *target = llvm::TargetRegistry::lookupTarget(triple, targetError);
  if (!target)
    return fail("host compile: no LLVM backend for " + triple.str() + ": " + targetError);
  llvm::SubtargetFeatures features;
  for (auto &f : llvm::sys::getHostCPUFeatures())
    features.AddFeature(f.first(), f.second);
  llvm::TargetOptions targetOptions;
  std::unique_ptr<llvm::TargetMachine> machine(target->createTargetMachine(
      triple, llvm::sys::getHostCPUName(), features.getString(), targetOptions,
      llvm::Reloc::PIC_, std::nullopt,
      optLevel >= 2 ? llvm::CodeGenOptLevel::Aggressive : llvm::CodeGenOptLevel::Default));
  llvmModule->setTargetTriple(triple);
  llvmModule->setDataLayout(machine->createDataLayout());

  {
    llvm::LoopAnalysisManager lam;
    llvm::FunctionAnalysisManager fam;
    llvm::CGSCCAnalysisManager cgam;
    llvm::ModuleAnalysisManager mam;
    llvm::PassBuilder pb(machine.get());
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
    mpm.run(*llvmModule, mam);
  }
  {
    llvm::raw_string_ostream os(result->llvmIR);
    llvmModule->print(os, nullptr);
  }
  dump(dumpDir, "2-llvm.ll", [&](llvm::raw_ostream &os) { os << result->llvmIR; });

  auto emit = [&](llvm::CodeGenFileType type, std::string &outText) -> bool {
    llvm::SmallString<0> buffer;
    llvm::raw_svector_ostream os(buffer);
    llvm::legacy::PassManager codegen;
    if (machine->addPassesToEmitFile(codegen, os, nullptr, type))
      return false;
    std::unique_ptr<llvm::Module> clone = llvm::CloneModule(*llvmModule);
    codegen.run(*clone);
    outText.assign(buffer.begin(), buffer.end());
    return true;
  };
  std::string object;
  if (!emit(llvm::CodeGenFileType::AssemblyFile, result->assembly) ||
      !emit(llvm::CodeGenFileType::ObjectFile, object))
    return fail("host compile: the LLVM backend cannot emit code for " + triple.str());
  dump(dumpDir, "3-kernel.s", [&](llvm::raw_ostream &os) { os << result->assembly; });

  // Link the object into a shared library with lld from LLVM 22.
  llvm::SmallString<128> objPath, soPath;
  int objFd = -1;
  if (llvm::sys::fs::createTemporaryFile("hadron-host", "o", objFd, objPath))
    return fail("host compile: cannot create a temporary object file");
  {
    llvm::raw_fd_ostream os(objFd, /*shouldClose=*/true);
    os << object;
  }
  if (llvm::sys::fs::createTemporaryFile("hadron-host", "so", soPath)) {
    llvm::sys::fs::remove(objPath);
    return fail("host compile: cannot create a temporary library file");
  }
  std::string linkerError;
  llvm::StringRef lld = HADRON_LLD_PATH;
  int rc = llvm::sys::ExecuteAndWait(lld, {lld, "-shared", "-o", soPath.str(), objPath.str()},
                                     std::nullopt, {}, 0, 0, &linkerError);
  llvm::sys::fs::remove(objPath);
  auto so = llvm::MemoryBuffer::getFile(soPath);
  llvm::sys::fs::remove(soPath);
  if (rc != 0 || !so)
    return fail("host compile: " + std::string(HADRON_LLD_PATH) + " failed (exit " +
                std::to_string(rc) + ")" + (linkerError.empty() ? "" : ": " + linkerError));
  result->binary = (*so)->getBuffer().str();

  for (size_t i = 0; i < result->names.size(); ++i) {
    hd_kernel_signature sig{};
    sig.name = result->names[i].c_str();
    sig.num_args = result->argKinds[i].size();
    sig.args = result->argKinds[i].data();
    sig.num_warps = numWarps;
    sig.warp_size = 1;
    sig.static_shared_bytes = 0;
    result->kernels.push_back(sig);
  }
  result->view.binary = result->binary.data();
  result->view.binary_size = result->binary.size();
  result->view.num_kernels = result->kernels.size();
  result->view.kernels = result->kernels.data();
  result->view.assembly = result->assembly.c_str();
  result->view.llvm_ir = result->llvmIR.c_str();
  *out = &result.release()->view;
  return HD_OK;
}

hd_status compile(const char *ir, uint64_t irSize, const hd_compile_options *options,
                  hd_compiled_module **out, hd_error *err) {
  return compileImpl(ir, irSize, options, out, err);
}

void release(hd_compiled_module *module) {
  if (!module)
    return;
  // view is the first member: the module is the CompiledModule itself.
  delete reinterpret_cast<CompiledModule *>(module);
}

const hd_compiler_table kTable = {
    sizeof(hd_compiler_table), HADRON_PLUGIN_ABI_MAJOR, HADRON_PLUGIN_ABI_MINOR, compile, release,
};

} // namespace

extern "C" __attribute__((visibility("default"))) const hd_compiler_table *
hadron_compiler_entry(void) {
  return &kTable;
}
