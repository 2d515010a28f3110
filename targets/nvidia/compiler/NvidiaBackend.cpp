//===- NvidiaBackend.cpp - LLVM IR to PTX and cubin -----------------------===//

#include "NvidiaBackend.h"

#include "hadron/Compiler/Backend.h"
#include "hadron/Compiler/ToolRun.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Intrinsics.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"

#include <cstdlib>
#include <map>

extern "C" void LLVMInitializeNVPTXTargetInfo();
extern "C" void LLVMInitializeNVPTXTarget();
extern "C" void LLVMInitializeNVPTXTargetMC();
extern "C" void LLVMInitializeNVPTXAsmPrinter();

namespace hadron::nvidia {

namespace {

constexpr const char *kLibdeviceInToolkit = "nvvm/libdevice/libdevice.10.bc";

bool isFile(const std::string &path) { return llvm::sys::fs::is_regular_file(path); }

std::string join(const std::string &dir, const char *rel) {
  llvm::SmallString<256> p(dir);
  llvm::sys::path::append(p, rel);
  return std::string(p);
}

} // namespace

CudaToolkit CudaToolkit::find() {
  CudaToolkit t;
  auto tryRoot = [&](const std::string &root, const std::string &label) {
    t.searched.push_back(label);
    if (t.ptxas.empty() && isFile(join(root, "bin/ptxas")))
      t.ptxas = join(root, "bin/ptxas");
    if (t.libdevice.empty() && isFile(join(root, kLibdeviceInToolkit)))
      t.libdevice = join(root, kLibdeviceInToolkit);
  };
  if (const char *home = std::getenv("CUDA_HOME"); home && *home) {
    // An explicit CUDA_HOME is the toolkit; nothing else is consulted.
    tryRoot(home, std::string("CUDA_HOME=") + home);
    return t;
  }
  tryRoot("/usr/local/cuda", "/usr/local/cuda");
  if (t.ptxas.empty() || t.libdevice.empty()) {
    if (auto onPath = llvm::sys::findProgramByName("ptxas")) {
      // <root>/bin/ptxas: the toolkit is the directory above bin/.
      std::string root(llvm::sys::path::parent_path(llvm::sys::path::parent_path(*onPath)));
      tryRoot(root, "PATH (" + *onPath + ")");
    } else {
      t.searched.push_back("PATH (no ptxas)");
    }
  }
  return t;
}

std::string CudaToolkit::describeSearch() const {
  std::string text;
  for (const std::string &s : searched)
    text += (text.empty() ? "" : ", ") + s;
  return text;
}

void initializeNvptxBackend() {
  LLVMInitializeNVPTXTargetInfo();
  LLVMInitializeNVPTXTarget();
  LLVMInitializeNVPTXTargetMC();
  LLVMInitializeNVPTXAsmPrinter();
}

namespace {

/// Math intrinsics NVPTX cannot select (it would abort code generation) and
/// the libdevice function computing each: "__nv_" + name, + "f" for f32.
struct LibdeviceMath {
  llvm::Intrinsic::ID id;
  const char *name;
  bool selectableForF32; ///< NVPTX has its own instruction for f32 and below
};

const LibdeviceMath kLibdeviceMath[] = {
    {llvm::Intrinsic::exp, "exp", false},     {llvm::Intrinsic::exp2, "exp2", true},
    {llvm::Intrinsic::exp10, "exp10", false}, {llvm::Intrinsic::log, "log", false},
    {llvm::Intrinsic::log2, "log2", false},   {llvm::Intrinsic::log10, "log10", false},
    {llvm::Intrinsic::sin, "sin", false},     {llvm::Intrinsic::cos, "cos", false},
    {llvm::Intrinsic::tan, "tan", false},     {llvm::Intrinsic::asin, "asin", false},
    {llvm::Intrinsic::acos, "acos", false},   {llvm::Intrinsic::atan, "atan", false},
    {llvm::Intrinsic::atan2, "atan2", false}, {llvm::Intrinsic::sinh, "sinh", false},
    {llvm::Intrinsic::cosh, "cosh", false},   {llvm::Intrinsic::tanh, "tanh", false},
    {llvm::Intrinsic::pow, "pow", false},     {llvm::Intrinsic::powi, "powi", false},
};

const LibdeviceMath *libdeviceFor(llvm::Intrinsic::ID id) {
  for (const LibdeviceMath &m : kLibdeviceMath)
    if (m.id == id)
      return &m;
  return nullptr;
}

/// Whether `call` (to a math intrinsic of the table) needs libdevice.
bool needsLibdevice(const LibdeviceMath &m, llvm::Type *type) {
  return !(m.selectableForF32 && !type->getScalarType()->isDoubleTy());
}

} // namespace

std::map<std::string, std::string> useLibdeviceForMath(llvm::Module &module) {
  std::map<std::string, std::string> used;
  std::vector<llvm::CallInst *> calls;
  for (llvm::Function &f : module)
    if (const LibdeviceMath *m = f.isIntrinsic() ? libdeviceFor(f.getIntrinsicID()) : nullptr)
      for (llvm::User *u : f.users())
        if (auto *call = llvm::dyn_cast<llvm::CallInst>(u))
          if (call->getCalledFunction() == &f && needsLibdevice(*m, call->getType()))
            calls.push_back(call);
  llvm::LLVMContext &ctx = module.getContext();
  for (llvm::CallInst *call : calls) {
    const LibdeviceMath &m = *libdeviceFor(call->getCalledFunction()->getIntrinsicID());
    llvm::Type *type = call->getType();
    llvm::Type *elem = type->getScalarType();
    llvm::Type *compute = elem->isDoubleTy() ? llvm::Type::getDoubleTy(ctx)
                                             : llvm::Type::getFloatTy(ctx);
    std::string name = std::string("__nv_") + m.name + (elem->isDoubleTy() ? "" : "f");
    bool intExponent = m.id == llvm::Intrinsic::powi;
    unsigned floatArgs = intExponent ? 1 : call->arg_size();
    llvm::SmallVector<llvm::Type *> params(floatArgs, compute);
    if (intExponent)
      params.push_back(llvm::Type::getInt32Ty(ctx));
    llvm::FunctionCallee fn =
        module.getOrInsertFunction(name, llvm::FunctionType::get(compute, params, false));
    used.emplace(name, std::string(call->getCalledFunction()->getName()));

    llvm::IRBuilder<> b(call);
    auto *vecType = llvm::dyn_cast<llvm::FixedVectorType>(type);
    unsigned lanes = vecType ? vecType->getNumElements() : 1;
    llvm::Value *result = vecType ? llvm::PoisonValue::get(type) : nullptr;
    for (unsigned lane = 0; lane < lanes; ++lane) {
      llvm::SmallVector<llvm::Value *> args;
      for (unsigned i = 0; i < call->arg_size(); ++i) {
        llvm::Value *a = call->getArgOperand(i);
        if (a->getType()->isVectorTy())
          a = b.CreateExtractElement(a, lane);
        if (i < floatArgs && a->getType() != compute)
          a = b.CreateFPExt(a, compute);
        else if (i >= floatArgs)
          a = b.CreateSExtOrTrunc(a, llvm::Type::getInt32Ty(ctx));
        args.push_back(a);
      }
      llvm::Value *v = b.CreateCall(fn, args);
      if (elem != compute)
        v = b.CreateFPTrunc(v, elem);
      result = vecType ? b.CreateInsertElement(result, v, lane) : v;
    }
    call->replaceAllUsesWith(result);
    call->eraseFromParent();
  }
  for (const llvm::Function &f : module)
    if (f.isDeclaration() && f.getName().starts_with("__nv_"))
      used.emplace(f.getName().str(), f.getName().str());
  return used;
}

void splitMaskedAccesses(llvm::Module &module) {
  std::vector<llvm::IntrinsicInst *> accesses;
  for (llvm::Function &f : module)
    if (f.getIntrinsicID() == llvm::Intrinsic::masked_load ||
        f.getIntrinsicID() == llvm::Intrinsic::masked_store)
      for (llvm::User *u : f.users())
        if (auto *call = llvm::dyn_cast<llvm::IntrinsicInst>(u))
          accesses.push_back(call);
  for (llvm::IntrinsicInst *call : accesses) {
    bool isLoad = call->getIntrinsicID() == llvm::Intrinsic::masked_load;
    llvm::Value *ptr = call->getArgOperand(isLoad ? 0 : 1);
    llvm::Value *mask = call->getArgOperand(isLoad ? 1 : 2);
    llvm::Align align = call->getParamAlign(isLoad ? 0 : 1).valueOrOne();
    if (llvm::isa<llvm::Constant>(mask))
      continue; // all-true and all-false fold without help
    llvm::IRBuilder<> b(call);
    llvm::Value *all = b.CreateAndReduce(mask);
    llvm::Instruction *whole = nullptr, *partial = nullptr;
    llvm::SplitBlockAndInsertIfThenElse(all, call->getIterator(), &whole, &partial);
    b.SetInsertPoint(whole);
    llvm::Instruction *plain =
        isLoad ? static_cast<llvm::Instruction *>(b.CreateAlignedLoad(call->getType(), ptr, align))
               : b.CreateAlignedStore(call->getArgOperand(0), ptr, align);
    plain->copyMetadata(*call);
    llvm::BasicBlock *merge = call->getParent();
    call->moveBefore(partial->getIterator());
    if (isLoad) {
      b.SetInsertPoint(merge, merge->getFirstInsertionPt());
      llvm::PHINode *phi = b.CreatePHI(call->getType(), 2);
      call->replaceAllUsesWith(phi);
      phi->addIncoming(plain, whole->getParent());
      phi->addIncoming(call, partial->getParent());
    }
  }
}

Status linkLibdevice(llvm::Module &module, const CudaToolkit &toolkit,
                     const std::map<std::string, std::string> &calls) {
  if (calls.empty())
    return {};
  if (toolkit.libdevice.empty()) {
    const auto &[fn, from] = *calls.begin();
    return Error("the kernel needs libdevice for " + fn +
                 (fn == from ? std::string() : " (from " + from + ")") + " but " +
                 kLibdeviceInToolkit + " was not found; looked in: " + toolkit.describeSearch() +
                 ". Install the CUDA toolkit or set CUDA_HOME");
  }
  // Only what the kernels call, made internal so the optimiser inlines it
  // and drops the rest.
  return linkBitcode(module, toolkit.libdevice, BitcodeLink::OnlyNeededInternalized);
}

std::string unresolvedExtern(const llvm::Module &module) {
  for (const llvm::Function &f : module) {
    if (!f.isDeclaration() || f.use_empty())
      continue;
    if (f.isIntrinsic()) {
      const LibdeviceMath *m = libdeviceFor(f.getIntrinsicID());
      if (m && needsLibdevice(*m, f.getReturnType()))
        return "the intrinsic " + f.getName().str() + ", which NVPTX cannot select";
      continue;
    }
    // The two system calls of the PTX ISA that the driver resolves.
    if (f.getName() == "vprintf" || f.getName() == "__assertfail")
      continue;
    return "the function " + f.getName().str();
  }
  for (const llvm::GlobalVariable &g : module.globals())
    if (g.isDeclaration() && !g.use_empty() && g.getAddressSpace() != 3)
      return "the global " + g.getName().str();
  return "";
}

Result<std::string> runPtxas(const CudaToolkit &toolkit, const std::string &arch,
                             const std::string &ptx, unsigned optLevel) {
  ToolRun run("hadron-nvidia");
  Result<std::string> in = run.input(ptx, "ptx");
  if (!in)
    return in;
  Result<std::string> out = run.output("cubin");
  if (!out)
    return out;
  std::string archFlag = "-arch=" + arch;
  if (Status ran =
          run.execute(toolkit.ptxas, {archFlag, "-O" + std::to_string(optLevel), "-o", *out, *in},
                      /*timeoutSeconds=*/600, toolkit.ptxas + " " + archFlag);
      !ran)
    return Error(ran.error());
  return run.read(*out, /*nonEmpty=*/true);
}

} // namespace hadron::nvidia
