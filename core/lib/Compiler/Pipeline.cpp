//===- Pipeline.cpp - The target-independent half of a compilation --------===//

#include "hadron/Compiler/Pipeline.h"
#include "hadron/Conversion/Passes.h"
#include "hadron/Conversion/TargetHooks.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "mlir/Transforms/Passes.h"

#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <cstddef>
#include <cstdio>
#include <functional>
#include <new>
#include <optional>

using namespace mlir;

namespace hadron {

namespace {

/// Collects the context's diagnostics as `file:line:col: error: message`
/// lines, and remembers whether any was an error.
class DiagnosticCapture {
public:
  explicit DiagnosticCapture(MLIRContext &ctx)
      : os(text), handler(&ctx, [this](Diagnostic &diag) {
          record(diag);
          return success();
        }) {}

  const std::string &str() const { return text; }
  bool sawError() const { return errors; }

private:
  void printLocation(Location loc) {
    if (auto flc = dyn_cast<FileLineColLoc>(loc))
      os << flc.getFilename().getValue() << ":" << flc.getLine() << ":" << flc.getColumn();
    else
      os << loc;
  }

  void record(Diagnostic &diag) {
    bool isError = diag.getSeverity() == DiagnosticSeverity::Error;
    errors |= isError;
    printLocation(diag.getLocation());
    os << ": " << (isError ? "error: " : "note: ") << diag.str() << "\n";
    for (Diagnostic &note : diag.getNotes()) {
      printLocation(note.getLocation());
      os << ": note: " << note.str() << "\n";
    }
  }

  std::string text;
  llvm::raw_string_ostream os;
  bool errors = false;
  ScopedDiagnosticHandler handler;
};

std::optional<hd_arg_kind> argKind(Type type) {
  if (isa<hd::TensorDescType>(type))
    return HD_ARG_TENSOR_DESC;
  if (isa<hd::PointerType>(type))
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

/// Kernels of the verified module, or nullopt after emitting a diagnostic.
std::optional<std::vector<KernelSignature>> kernelSignatures(ModuleOp module, unsigned numWarps,
                                                             uint32_t warpSize,
                                                             bool nativeDescriptors) {
  std::vector<KernelSignature> kernels;
  for (auto func : module.getOps<func::FuncOp>()) {
    if (!func->hasAttr(hd::HadronDialect::getKernelAttrName()))
      continue;
    KernelSignature sig;
    sig.name = func.getSymName().str();
    sig.numWarps = numWarps;
    // Warp-specialised regions add warps to the CTA.
    func.walk([&](hd::WarpSpecializeOp ws) {
      sig.numWarps = std::max(sig.numWarps, ws.totalWarps(numWarps));
    });
    sig.warpSize = warpSize;
    for (Type t : func.getArgumentTypes()) {
      std::optional<hd_arg_kind> kind = argKind(t);
      if (!kind) {
        func.emitOpError() << "has an argument of type " << t
                           << "; kernels take pointers, integers, floats and tensor descriptors";
        return std::nullopt;
      }
      sig.args.push_back(*kind);
    }
    for (Type t : func.getArgumentTypes()) {
      auto desc = dyn_cast<hd::TensorDescType>(t);
      if (!desc)
        continue;
      sig.descs.resize(sig.args.size());
      break;
    }
    for (auto [i, t] : llvm::enumerate(func.getArgumentTypes())) {
      auto desc = dyn_cast<hd::TensorDescType>(t);
      if (!desc)
        continue;
      hd_tensor_desc_spec &spec = sig.descs[i];
      spec.rank = desc.getShape().size();
      spec.native = nativeDescriptors ? 1 : 0;
      spec.elem_bytes = desc.getElementType().getIntOrFloatBitWidth() / 8;
      if (auto matrix = dyn_cast<hd::MatrixSharedLayoutAttr>(desc.getEncoding()))
        spec.swizzle_bytes = matrix.getSwizzle();
      for (auto [d, n] : llvm::enumerate(desc.getShape()))
        spec.block[d] = uint32_t(n);
    }
    kernels.push_back(std::move(sig));
  }
  return kernels;
}

unsigned moduleNumWarps(ModuleOp module) {
  unsigned numWarps = 4;
  if (auto existing = hd::getTarget(module))
    numWarps = existing.getNumWarps();
  if (auto attr = module->getAttrOfType<IntegerAttr>("hd.num_warps"))
    numWarps = attr.getInt();
  return numWarps;
}

/// CSE replaces an op of an hd.warp_specialize partition by an identical one
/// above the op (the regions are not isolated from above, so the scope of
/// values it knows reaches into them): the partition then reads a tile that
/// other warps hold. Clones such side-effect-free ops, with the tiles they
/// read, back into the partition's entry; anything else stays for the
/// verifier to report.
void rematerializeTilesInPartitions(ModuleOp module) {
  module.walk([](hd::WarpSpecializeOp ws) {
    for (Region &region : ws.getPartitions()) {
      IRMapping inside;
      OpBuilder b(&region.front(), region.front().begin());
      std::function<Value(Value)> local = [&](Value v) -> Value {
        if (!isa<RankedTensorType>(v.getType()) || region.isAncestor(v.getParentRegion()))
          return v;
        if (Value mapped = inside.lookupOrNull(v))
          return mapped;
        Operation *def = v.getDefiningOp();
        if (!def || def->getNumRegions() != 0 || !isMemoryEffectFree(def))
          return v;
        for (Value operand : def->getOperands())
          inside.map(operand, local(operand));
        Operation *clone = b.clone(*def, inside);
        inside.map(def->getResults(), clone->getResults());
        return inside.lookup(v);
      };
      region.walk([&](Operation *op) {
        for (OpOperand &use : op->getOpOperands())
          if (Value v = local(use.get()); v != use.get())
            use.set(v);
      });
    }
  });
}

/// Everything a compiled module points to, kept alive until release.
struct OwnedCompiledModule {
  hd_compiled_module view{}; // first member: release() casts the view back
  std::string binary, assembly, llvmIR;
  std::vector<KernelSignature> signatures;
  std::vector<hd_kernel_signature> kernels;
};

} // namespace

LoweredModule::LoweredModule() = default;
LoweredModule::LoweredModule(LoweredModule &&) = default;
LoweredModule &LoweredModule::operator=(LoweredModule &&) = default;
LoweredModule::~LoweredModule() = default;

PipelineOptions PipelineOptions::from(const hd_compile_options *options) {
  PipelineOptions result;
  if (!options)
    return result;
  auto has = [&](size_t offset, size_t size) { return options->struct_size >= offset + size; };
  if (has(offsetof(hd_compile_options, arch), sizeof(options->arch)) && options->arch)
    result.arch = options->arch;
  if (has(offsetof(hd_compile_options, opt_level), sizeof(options->opt_level)))
    result.optLevel = std::min(options->opt_level, 3u);
  if (has(offsetof(hd_compile_options, dump_dir), sizeof(options->dump_dir)) && options->dump_dir)
    result.dumpDir = options->dump_dir;
  return result;
}

void dumpStage(const PipelineOptions &options, llvm::StringRef fileName,
               llvm::function_ref<void(llvm::raw_ostream &)> print) {
  if (options.dumpDir.empty())
    return;
  std::error_code ec;
  llvm::raw_fd_ostream os(options.dumpDir + "/" + fileName.str(), ec);
  if (!ec)
    print(os);
}

Result<LoweredModule> lowerToLLVM(llvm::StringRef ir, const PipelineTarget &target,
                                  const PipelineOptions &options) {
  DialectRegistry registry;
  registry.insert<hd::HadronDialect, arith::ArithDialect, cf::ControlFlowDialect,
                  func::FuncDialect, math::MathDialect, scf::SCFDialect, LLVM::LLVMDialect>();
  registerBuiltinDialectTranslation(registry);
  registerLLVMDialectTranslation(registry);
  if (target.registerDialects)
    target.registerDialects(registry);
  MLIRContext ctx(registry, MLIRContext::Threading::DISABLED);
  ctx.loadAllAvailableDialects();

  DiagnosticCapture diagnostics(ctx);
  auto fail = [&](const std::string &what) {
    const std::string &details = diagnostics.str();
    return Error(target.name + " compile: " + what + (details.empty() ? "" : ":\n" + details));
  };

  llvm::SourceMgr sources;
  sources.AddNewSourceBuffer(llvm::MemoryBuffer::getMemBufferCopy(ir, "<kernel>"), llvm::SMLoc());
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sources, &ctx);
  if (!module)
    return fail("the IR does not parse");

  unsigned numWarps = moduleNumWarps(*module);
  (*module)->setAttr(hd::HadronDialect::getTargetAttrName(), target.targetAttr(&ctx, numWarps));
  if (failed(verify(*module)))
    return fail("the kernel does not verify against target " + target.name);
  dumpStage(options, "0-input.mlir", [&](llvm::raw_ostream &os) { module->print(os); });

  LoweredModule result;
  std::optional<std::vector<KernelSignature>> kernels =
      kernelSignatures(*module, numWarps, target.warpSize, target.hooks.hasTensorCopyEngine());
  if (!kernels)
    return fail("unsupported kernel signature");
  if (kernels->empty())
    return fail("the module has no function marked hd.kernel");
  result.kernels = std::move(*kernels);

  PassManager pm(&ctx);
  // Verified below, once CSE's merges across hd.warp_specialize are undone.
  pm.enableVerifier(false);
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  if (failed(pm.run(*module)))
    return fail("canonicalization failed");
  rematerializeTilesInPartitions(*module);
  if (failed(verify(*module)))
    return fail("canonicalization failed");

  if (failed(expandMath(*module)))
    return fail("expanding math ops failed");
  ResolveLayoutsOptions resolve;
  resolve.maxVectorBytes = target.hooks.maxVectorBytes();
  if (failed(resolveLayouts(*module, resolve)) || failed(verify(*module)))
    return fail("resolving #hd.auto/#hd.coalesced layouts failed");
  if (failed(legalizeShapeMoves(*module, target.hooks.foldsThreadsIntoRegisters())) ||
      failed(verify(*module)))
    return fail("splitting reshape/join/split that move elements between threads failed");
  if (failed(allocateSharedMemory(*module, target.hooks.foldsThreadsIntoRegisters())))
    return fail("shared-memory allocation failed");
  if (failed(insertBarriers(*module)))
    return fail("barrier insertion failed");
  for (KernelSignature &k : result.kernels)
    if (auto func = module->lookupSymbol<func::FuncOp>(k.name))
      if (auto bytes = func->getAttrOfType<IntegerAttr>(kSharedBytesAttr))
        k.staticSharedBytes = bytes.getInt();
  dumpStage(options, "0-planned.mlir", [&](llvm::raw_ostream &os) { module->print(os); });

  // A hook that cannot lower something reports it as an error diagnostic.
  if (failed(distributeToLLVM(*module, target.hooks)) || diagnostics.sawError())
    return fail("lowering to per-thread code failed");
  if (target.afterDistribute && failed(target.afterDistribute(*module)))
    return fail("the " + target.name + " passes after distribute failed");
  dumpStage(options, "1-llvm-dialect.mlir", [&](llvm::raw_ostream &os) { module->print(os); });

  // Argument hints (hd.divisibility, ...) have served the analyses; the
  // translation warns about each one it does not know, and a warning prints
  // its whole function (megabytes for a kernel with large tiles).
  module->walk([](LLVM::LLVMFuncOp func) {
    auto fn = cast<FunctionOpInterface>(func.getOperation());
    for (unsigned i = 0, e = fn.getNumArguments(); i < e; ++i) {
      SmallVector<NamedAttribute> attrs(fn.getArgAttrs(i));
      for (NamedAttribute attr : attrs)
        if (attr.getName().getValue().starts_with("hd."))
          fn.removeArgAttr(i, attr.getName());
    }
  });
  result.llvmContext = std::make_unique<llvm::LLVMContext>();
  result.llvmModule = translateModuleToLLVMIR(*module, *result.llvmContext, "hadron");
  if (!result.llvmModule)
    return fail("translation to LLVM IR failed");
  return result;
}

hd_compiled_module *makeCompiledModule(llvm::StringRef binary, llvm::StringRef assembly,
                                       llvm::StringRef llvmIR,
                                       llvm::ArrayRef<KernelSignature> kernels) {
  auto *owned = new (std::nothrow) OwnedCompiledModule;
  if (!owned)
    return nullptr;
  owned->binary = binary.str();
  owned->assembly = assembly.str();
  owned->llvmIR = llvmIR.str();
  owned->signatures.assign(kernels.begin(), kernels.end());
  for (const KernelSignature &k : owned->signatures) {
    hd_kernel_signature sig{};
    sig.name = k.name.c_str();
    sig.num_args = static_cast<uint32_t>(k.args.size());
    sig.args = k.args.data();
    sig.num_warps = k.numWarps;
    sig.warp_size = k.warpSize;
    sig.static_shared_bytes = k.staticSharedBytes;
    sig.descs = k.descs.empty() ? nullptr : k.descs.data();
    owned->kernels.push_back(sig);
  }
  hd_compiled_module &view = owned->view;
  view.binary = owned->binary.data();
  view.binary_size = owned->binary.size();
  view.num_kernels = static_cast<uint32_t>(owned->kernels.size());
  view.kernels = owned->kernels.data();
  view.assembly = owned->assembly.c_str();
  view.llvm_ir = owned->llvmIR.c_str();
  return &view;
}

void releaseCompiledModule(hd_compiled_module *module) {
  delete reinterpret_cast<OwnedCompiledModule *>(module);
}

hd_status reportError(hd_error *err, hd_status code, llvm::StringRef message) {
  if (err) {
    err->code = code;
    std::snprintf(err->message, sizeof(err->message), "%.*s", static_cast<int>(message.size()),
                  message.data());
  }
  return code;
}

} // namespace hadron
