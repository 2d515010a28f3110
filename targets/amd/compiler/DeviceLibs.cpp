//===- DeviceLibs.cpp - Math, printf and the ROCm device libraries --------===//

#include "DeviceLibs.h"

#include "AmdHooks.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Intrinsics.h"
#include "llvm/IR/Module.h"
#include "llvm/Linker/Linker.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Transforms/Utils/AMDGPUEmitPrintf.h"

#include <cstdlib>

namespace hadron::amd {

void expandPrintf(llvm::Module &module) {
  llvm::Function *placeholder = module.getFunction(AmdHooks::kPrintfName);
  if (!placeholder)
    return;
  for (llvm::User *user : llvm::make_early_inc_range(placeholder->users())) {
    auto *call = llvm::dyn_cast<llvm::CallInst>(user);
    if (!call)
      continue;
    llvm::IRBuilder<> builder(call);
    llvm::SmallVector<llvm::Value *> args(call->args());
    llvm::Value *result = llvm::emitAMDGPUPrintfCall(builder, args, /*isBuffered=*/false);
    call->replaceAllUsesWith(result);
    call->eraseFromParent();
  }
  if (placeholder->use_empty())
    placeholder->eraseFromParent();
}

namespace {

/// The ocml function for a math intrinsic, and whether only its f64 form
/// needs it (the backend expands f16/f32 exp and log accurately itself).
struct OcmlMath {
  llvm::Intrinsic::ID id;
  const char *name;
  bool onlyF64;
};

constexpr OcmlMath kOcmlMath[] = {
    {llvm::Intrinsic::sin, "sin", false},     {llvm::Intrinsic::cos, "cos", false},
    {llvm::Intrinsic::tan, "tan", false},     {llvm::Intrinsic::asin, "asin", false},
    {llvm::Intrinsic::acos, "acos", false},   {llvm::Intrinsic::atan, "atan", false},
    {llvm::Intrinsic::atan2, "atan2", false}, {llvm::Intrinsic::sinh, "sinh", false},
    {llvm::Intrinsic::cosh, "cosh", false},   {llvm::Intrinsic::tanh, "tanh", false},
    {llvm::Intrinsic::pow, "pow", false},     {llvm::Intrinsic::exp, "exp", true},
    {llvm::Intrinsic::exp2, "exp2", true},    {llvm::Intrinsic::exp10, "exp10", true},
    {llvm::Intrinsic::log, "log", true},      {llvm::Intrinsic::log2, "log2", true},
    {llvm::Intrinsic::log10, "log10", true},
};

const OcmlMath *ocmlFor(llvm::Intrinsic::ID id) {
  for (const OcmlMath &m : kOcmlMath)
    if (m.id == id)
      return &m;
  return nullptr;
}

/// One scalar call of `math` on `args` of scalar type `type`; bf16 goes
/// through f32, which ocml has no bf16 form of.
llvm::Value *scalarOcmlCall(llvm::IRBuilder<> &b, llvm::Module &module, const OcmlMath &math,
                            llvm::Type *type, llvm::ArrayRef<llvm::Value *> args) {
  if (type->isBFloatTy()) {
    llvm::SmallVector<llvm::Value *> wide;
    for (llvm::Value *a : args)
      wide.push_back(b.CreateFPExt(a, b.getFloatTy()));
    return b.CreateFPTrunc(scalarOcmlCall(b, module, math, b.getFloatTy(), wide), type);
  }
  const char *suffix = type->isHalfTy() ? "f16" : type->isFloatTy() ? "f32" : "f64";
  std::string name = std::string("__ocml_") + math.name + "_" + suffix;
  llvm::SmallVector<llvm::Type *> params(args.size(), type);
  llvm::FunctionCallee callee =
      module.getOrInsertFunction(name, llvm::FunctionType::get(type, params, false));
  return b.CreateCall(callee, args);
}

} // namespace

void useOcmlForMath(llvm::Module &module) {
  for (llvm::Function &f : llvm::make_early_inc_range(module)) {
    const OcmlMath *math = f.isIntrinsic() ? ocmlFor(f.getIntrinsicID()) : nullptr;
    if (!math)
      continue;
    llvm::Type *elem = f.getReturnType()->getScalarType();
    bool supported = elem->isHalfTy() || elem->isBFloatTy() || elem->isFloatTy() ||
                     elem->isDoubleTy();
    if (!supported || (math->onlyF64 && !elem->isDoubleTy()))
      continue;
    for (llvm::User *user : llvm::make_early_inc_range(f.users())) {
      auto *call = llvm::dyn_cast<llvm::CallInst>(user);
      if (!call)
        continue;
      llvm::IRBuilder<> b(call);
      llvm::Value *result;
      if (auto *vec = llvm::dyn_cast<llvm::FixedVectorType>(call->getType())) {
        result = llvm::PoisonValue::get(vec);
        for (unsigned i = 0; i < vec->getNumElements(); ++i) {
          llvm::SmallVector<llvm::Value *> args;
          for (llvm::Value *a : call->args())
            args.push_back(b.CreateExtractElement(a, i));
          result = b.CreateInsertElement(result, scalarOcmlCall(b, module, *math, elem, args), i);
        }
      } else {
        llvm::SmallVector<llvm::Value *> args(call->args());
        result = scalarOcmlCall(b, module, *math, elem, args);
      }
      call->replaceAllUsesWith(result);
      call->eraseFromParent();
    }
  }
}

std::vector<std::string> deviceLibrarySearchPath() {
  if (const char *dir = std::getenv("HADRON_AMD_DEVICE_LIBS"); dir && *dir)
    return {dir};
  return {"/usr/lib/x86_64-linux-gnu/amdgcn/bitcode", "/opt/rocm/amdgcn/bitcode",
          "/opt/rocm/lib/llvm/amdgcn/bitcode"};
}

namespace {

/// The first called function of `module` whose name starts with `prefix`
/// and has no body, or nullptr.
const llvm::Function *firstCallInto(const llvm::Module &module, llvm::StringRef prefix) {
  for (const llvm::Function &f : module)
    if (f.isDeclaration() && f.getName().starts_with(prefix) && !f.use_empty())
      return &f;
  return nullptr;
}

std::string joined(const std::vector<std::string> &dirs) {
  std::string out;
  for (const std::string &d : dirs)
    out += (out.empty() ? "" : ", ") + d;
  return out;
}

Result<std::string> findLibrary(const std::string &file, const std::string &neededBy,
                                const std::vector<std::string> &searchPath) {
  for (const std::string &dir : searchPath) {
    std::string path = dir + "/" + file;
    if (llvm::sys::fs::exists(path))
      return path;
  }
  return Error("the kernel calls " + neededBy + ", which is in the ROCm device library " + file +
               "; no " + file + " in " + joined(searchPath) +
               " (install rocm-device-libs, or set HADRON_AMD_DEVICE_LIBS to the directory "
               "that holds it)");
}

Result<bool> linkFile(llvm::Module &module, const std::string &path) {
  auto buffer = llvm::MemoryBuffer::getFile(path);
  if (!buffer)
    return Error("cannot read " + path + ": " + buffer.getError().message());
  llvm::Expected<std::unique_ptr<llvm::Module>> library =
      llvm::parseBitcodeFile((*buffer)->getMemBufferRef(), module.getContext());
  if (!library)
    return Error(path + " is not LLVM bitcode: " + llvm::toString(library.takeError()));
  (*library)->setTargetTriple(module.getTargetTriple());
  (*library)->setDataLayout(module.getDataLayout());
  if (llvm::Linker::linkModules(module, std::move(*library), llvm::Linker::LinkOnlyNeeded))
    return Error("linking " + path + " into the kernel failed");
  return true;
}

/// The device libraries' build-time controls, which clang normally links
/// from oclc_*.bc files: IEEE behaviour everywhere (no flushing, no
/// finite-only or unsafe math, correctly rounded f32 sqrt), the arch's ISA
/// version and wavefront size, and code object v5's ABI.
Result<bool> defineControls(llvm::Module &module, const ArchModel &arch) {
  llvm::LLVMContext &ctx = module.getContext();
  struct Control {
    const char *name;
    llvm::Type *type;
    uint64_t value;
  };
  llvm::Type *i8 = llvm::Type::getInt8Ty(ctx), *i32 = llvm::Type::getInt32Ty(ctx);
  const Control controls[] = {
      {"__oclc_ISA_version", i32, arch.isaVersion},
      {"__oclc_ABI_version", i32, 500},
      {"__oclc_wavefrontsize64", i8, arch.waveSize == 64},
      {"__oclc_daz_opt", i8, 0},
      {"__oclc_finite_only_opt", i8, 0},
      {"__oclc_unsafe_math_opt", i8, 0},
      {"__oclc_correctly_rounded_sqrt32", i8, 1},
  };
  for (const Control &c : controls) {
    llvm::GlobalVariable *global = module.getGlobalVariable(c.name, /*AllowInternal=*/true);
    if (!global)
      continue;
    if (global->getValueType() != c.type)
      return Error(std::string("the device libraries declare ") + c.name +
                   " with an unexpected type");
    global->setInitializer(llvm::ConstantInt::get(c.type, c.value));
    global->setConstant(true);
    global->setLinkage(llvm::GlobalValue::InternalLinkage);
  }
  return true;
}

} // namespace

Result<std::vector<std::string>> linkDeviceLibraries(llvm::Module &module, const ArchModel &arch,
                                                     const std::vector<std::string> &searchPath) {
  std::vector<std::string> linked;
  // ocml first: what it pulls in may call ockl.
  for (auto [prefix, file] : {std::pair{"__ocml_", "ocml.bc"}, std::pair{"__ockl_", "ockl.bc"}}) {
    const llvm::Function *needed = firstCallInto(module, prefix);
    if (!needed)
      continue;
    Result<std::string> path = findLibrary(file, needed->getName().str(), searchPath);
    if (!path)
      return Error(path.error());
    if (Result<bool> ok = linkFile(module, *path); !ok)
      return Error(ok.error());
    linked.push_back(*path);
  }
  if (linked.empty())
    return linked;
  if (Result<bool> ok = defineControls(module, arch); !ok)
    return Error(ok.error());
  // Everything but the kernels is private to the code object, and library
  // functions get the kernel's processor and features so that they inline.
  for (llvm::Function &f : module) {
    if (f.isDeclaration())
      continue;
    if (f.getCallingConv() != llvm::CallingConv::AMDGPU_KERNEL)
      f.setLinkage(llvm::GlobalValue::InternalLinkage);
    if (!f.hasFnAttribute("target-cpu")) {
      f.addFnAttr("target-cpu", arch.arch);
      f.addFnAttr("target-features", arch.waveSize == 32 ? "+wavefrontsize32" : "+wavefrontsize64");
    }
  }
  for (llvm::GlobalVariable &g : module.globals())
    if (!g.isDeclaration())
      g.setLinkage(llvm::GlobalValue::InternalLinkage);
  return linked;
}

std::string findUnresolvedCall(const llvm::Module &module) {
  for (const llvm::Function &f : module)
    if (f.isDeclaration() && !f.isIntrinsic() && !f.use_empty())
      return "the kernel calls " + f.getName().str() +
             ", which neither the AMDGPU backend nor the ROCm device libraries define";
  for (const llvm::GlobalVariable &g : module.globals())
    if (g.isDeclaration() && !g.use_empty())
      return "the kernel uses the global " + g.getName().str() + ", which nothing defines";
  return "";
}

} // namespace hadron::amd
