//===- HostCompiler.cpp - The host target's compiler part -----------------===//
//
// A TargetCompiler (hadron/Compiler/TargetCompiler.h): the shared front half
// with HostHooks gives LLVM IR; the host's steps keep the tiles (vectors of
// a lane per element of the CTA's tile) of 16 register chunks and more in
// memory and loop over their chunks (TileLoops.h), cut the smaller ones into
// chunks (SplitWideVectors.h), then O3 for the arch's CPU optimises it, with
// the chunk loops of a tile fused where the run time shows that the ranges
// they load and store are apart (FuseChunkLoops.h); the base emits an
// object, which package links with the conversion helpers (HostBuiltins.h)
// by ld.lld -shared into the ELF the host runtime part dlopens. Exported through `hadron_compiler_entry`.
//
// The archs and a CTA's limits are the model's (model/HostModel.h). The
// binary records its arch in `__hd_host_arch` (HostKernelABI.h) and the
// runtime part refuses a level this CPU lacks.
//
//===----------------------------------------------------------------------===//

#include "FuseChunkLoops.h"
#include "HostBuiltins.h"
#include "HostHooks.h"
#include "HostKernelABI.h"
#include "HostModel.h"
#include "OutlineMaskedAccesses.h"
#include "SplitWideVectors.h"
#include "TileLoops.h"
#include "hadron/Compiler/Backend.h"
#include "hadron/Compiler/TargetCompiler.h"
#include "hadron/IR/Dialect.h"
#include "hadron/plugin/plugin.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Intrinsics.h"
#include "llvm/IR/Module.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/TargetParser/Host.h"

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

using namespace mlir;

namespace {

using hadron::host::ArchModel;

/// The widest vector register of `arch`; for "native" this CPU's.
unsigned vectorBytes(const ArchModel &arch) {
  if (arch.vectorBytes)
    return arch.vectorBytes;
  llvm::StringMap<bool> features = llvm::sys::getHostCPUFeatures();
  return features.lookup("avx512f") ? 64 : features.lookup("avx") ? 32 : 16;
}

/// Rewrites every f32 -> bf16 truncation into integer operations that round to
/// nearest even. AVX512-BF16's vcvtneps2bf16, which LLVM would pick where the
/// CPU has it, reads subnormal inputs as zero; GPUs and the helper used
/// elsewhere do not, so a kernel's bf16 results would depend on the CPU that
/// compiled it. A handful of vector integer operations, same result everywhere.
void truncateToBf16InIntegers(llvm::Module &module) {
  std::vector<llvm::FPTruncInst *> truncs;
  for (llvm::Function &f : module)
    for (llvm::Instruction &inst : llvm::instructions(f))
      if (auto *t = llvm::dyn_cast<llvm::FPTruncInst>(&inst))
        if (t->getDestTy()->getScalarType()->isBFloatTy() &&
            t->getSrcTy()->getScalarType()->isFloatTy())
          truncs.push_back(t);
  for (llvm::FPTruncInst *t : truncs) {
    llvm::IRBuilder<> b(t);
    llvm::Type *i32 = t->getSrcTy()->getWithNewType(b.getInt32Ty());
    llvm::Type *i16 = t->getSrcTy()->getWithNewType(b.getInt16Ty());
    auto c = [&](uint32_t v) { return llvm::ConstantInt::get(i32, v); };
    llvm::Value *u = b.CreateBitCast(t->getOperand(0), i32);
    llvm::Value *hi = b.CreateLShr(u, c(16));
    llvm::Value *isNan = b.CreateICmpUGT(b.CreateAnd(u, c(0x7fffffff)), c(0x7f800000));
    llvm::Value *bias = b.CreateAdd(b.CreateAnd(hi, c(1)), c(0x7fff));
    llvm::Value *rounded = b.CreateLShr(b.CreateAdd(u, bias), c(16));
    llvm::Value *bits = b.CreateSelect(isNan, b.CreateOr(hi, c(0x40)), rounded);
    llvm::Value *r = b.CreateBitCast(b.CreateTrunc(bits, i16), t->getDestTy());
    t->replaceAllUsesWith(r);
    t->eraseFromParent();
  }
}

/// Replaces llvm.exp on f32 vectors by an inline vector expansion. LLVM's
/// x86 back end splits such a call into one expf call per element (1024
/// calls for a softmax row held by one thread), which the vector units then
/// wait on. The expansion: n = round(x log2 e), r = x - n ln2 in two parts
/// (Cody-Waite), exp(r) by Cephes' degree-6 minimax polynomial on
/// [-ln2/2, ln2/2], times 2^n built in two halves so that results that
/// underflow into subnormals round once. NaN passes through, above
/// 88.7228394 is +inf, below -103.972084 is +0. HostCompilerTest holds it
/// within 2 ulp of exp rounded from double on every 2^-12 step of
/// [-110, 95] and random encodings (worst seen: 1 ulp).
void expandVectorExp(llvm::Module &module) {
  std::vector<llvm::CallInst *> calls;
  for (llvm::Function &f : module)
    for (llvm::Instruction &inst : llvm::instructions(f))
      if (auto *call = llvm::dyn_cast<llvm::CallInst>(&inst))
        if (call->getIntrinsicID() == llvm::Intrinsic::exp && call->getType()->isVectorTy() &&
            call->getType()->getScalarType()->isFloatTy())
          calls.push_back(call);
  for (llvm::CallInst *call : calls) {
    llvm::IRBuilder<> b(call);
    b.setFastMathFlags(llvm::FastMathFlags()); // the expansion's rounding is deliberate
    llvm::Type *f32 = call->getType();
    llvm::Type *i32 = f32->getWithNewType(b.getInt32Ty());
    auto f = [&](float v) { return llvm::ConstantFP::get(f32, v); };
    auto i = [&](int32_t v) { return llvm::ConstantInt::get(i32, v, /*isSigned=*/true); };
    auto fma = [&](llvm::Value *x, llvm::Value *y, llvm::Value *z) {
      return b.CreateIntrinsic(llvm::Intrinsic::fmuladd, {f32}, {x, y, z});
    };
    llvm::Value *x = call->getArgOperand(0);
    llvm::Value *xc = b.CreateIntrinsic(llvm::Intrinsic::minnum, {f32},
                                        {b.CreateIntrinsic(llvm::Intrinsic::maxnum, {f32},
                                                           {x, f(-103.972084f)}),
                                         f(88.7228394f)});
    llvm::Value *n = b.CreateIntrinsic(llvm::Intrinsic::roundeven, {f32},
                                       {b.CreateFMul(xc, f(1.44269504088896341f))});
    llvm::Value *r = fma(n, f(-0.693359375f), xc);
    r = fma(n, f(2.12194440e-4f), r);
    llvm::Value *p = f(1.9875691500e-4f);
    for (float c : {1.3981999507e-3f, 8.3334519073e-3f, 4.1665795894e-2f, 1.6666665459e-1f,
                    5.0000001201e-1f})
      p = fma(p, r, f(c));
    llvm::Value *y = b.CreateFAdd(fma(p, b.CreateFMul(r, r), r), f(1.0f));
    llvm::Value *ni = b.CreateFPToSI(n, i32);
    llvm::Value *n1 = b.CreateAShr(ni, i(1));
    llvm::Value *n2 = b.CreateSub(ni, n1);
    auto pow2 = [&](llvm::Value *e) {
      return b.CreateBitCast(b.CreateShl(b.CreateAdd(e, i(127)), i(23)), f32);
    };
    llvm::Value *result = b.CreateFMul(b.CreateFMul(y, pow2(n1)), pow2(n2));
    result = b.CreateSelect(b.CreateFCmpOGT(x, f(88.7228394f)),
                            llvm::ConstantFP::getInfinity(f32), result);
    result = b.CreateSelect(b.CreateFCmpOLT(x, f(-103.972084f)), f(0.0f), result);
    result = b.CreateSelect(b.CreateFCmpUNO(x, x), x, result);
    call->replaceAllUsesWith(result);
    call->eraseFromParent();
  }
}

/// The smallest tile, in chunks of a vector register, that the host keeps
/// in memory and loops over (TileLoops.h). At 16 chunks (256 f32 with
/// AVX-512) O3 still unrolls the loops of a copy or add kernel completely,
/// so the fastest configs of hadron-bench keep their code; smaller tiles
/// stay in straight-line code, where they fit the vector registers.
constexpr unsigned kTileLoopChunks = 16;

/// Records the arch in the binary, for the runtime part to check.
void recordArch(llvm::Module &module, const std::string &arch) {
  llvm::Constant *text = llvm::ConstantDataArray::getString(module.getContext(), arch);
  auto *var = new llvm::GlobalVariable(module, text->getType(), /*isConstant=*/true,
                                       llvm::GlobalValue::ExternalLinkage, text,
                                       HD_HOST_ARCH_SYMBOL);
  var->setVisibility(llvm::GlobalValue::DefaultVisibility);
}

/// The target attribute the host fills from the model; num_warps comes
/// from the kernel's module.
hadron::hd::TargetAttr hostTarget(MLIRContext *ctx, unsigned numWarps, const ArchModel &arch) {
  std::string cpu = *arch.cpu ? arch.cpu : llvm::sys::getHostCPUName().str();
  return hadron::hd::TargetAttr::get(ctx, "host", cpu, hadron::host::kWarpSizes, numWarps,
                                     hadron::host::kMaxThreadsPerCta,
                                     hadron::host::kSharedBytesPerCta);
}

class HostCompiler : public hadron::TargetCompiler {
public:
  HostCompiler() : TargetCompiler("host") {}

protected:
  std::vector<std::string> archNames() const override {
    return hadron::archNamesOf(hadron::host::archModels());
  }

  hadron::Status selectArch(const std::string &name) override {
    arch = hadron::host::findArch(name);
    vectorWidth = vectorBytes(*arch);
    hooks.emplace(vectorWidth);
    return {};
  }

  hadron::PipelineTarget pipelineTarget() override {
    return {
        "host",
        [this](MLIRContext *ctx, unsigned numWarps) { return hostTarget(ctx, numWarps, *arch); },
        *hooks, /*warpSize=*/1};
  }

  hadron::Result<std::unique_ptr<llvm::TargetMachine>> createMachine(unsigned optLevel) override {
    hadron::MachineSpec spec; // this process's triple; cpu empty: this machine's
    spec.cpu = arch->cpu;
    spec.positionIndependent = true;
    return hadron::createTargetMachine(spec, optLevel);
  }

  hadron::Status lowerModule(llvm::Module &module, llvm::TargetMachine &machine) override {
    unsigned lanes = std::max(4u, vectorWidth / 4);
    hadron::host::lowerTilesAsLoops(module, lanes, kTileLoopChunks);
    hadron::host::splitWideVectors(module, lanes);
    hadron::host::outlineMaskedAccesses(module, machine);
    truncateToBf16InIntegers(module);
    expandVectorExp(module);
    recordArch(module, arch->arch);
    return {};
  }

  void optimize(llvm::Module &module, llvm::TargetMachine &machine, unsigned optLevel) override {
    hadron::optimizeModule(module, machine, optLevel, hadron::host::addChunkLoopFusion);
  }

  /// The object linked with the conversion helpers into the ELF the runtime
  /// part dlopens.
  hadron::Result<std::string> package(hadron::GeneratedCode &code,
                                      llvm::TargetMachine &machine) override {
    auto builtins = hadron::host::builtinsObject(machine);
    if (!builtins)
      return builtins;
    return hadron::linkSharedObject(HADRON_LLD_PATH, {code.object, *builtins});
  }

private:
  const ArchModel *arch = nullptr;
  unsigned vectorWidth = 0;
  std::optional<hadron::host::HostHooks> hooks;
};

const hd_compiler_table kTable = {
    sizeof(hd_compiler_table),
    HADRON_PLUGIN_ABI_MAJOR,
    HADRON_PLUGIN_ABI_MINOR,
    hadron::compileWith<HostCompiler>,
    hadron::releaseCompiledModule,
    // No matrix instructions: a CTA runs as one thread here, and hd.dot on any
    // #hd.mma layout (another target's instruction) becomes FMAs.
    nullptr,
};

} // namespace

extern "C" HADRON_PLUGIN_EXPORT const hd_compiler_table *hadron_compiler_entry(void) {
  return &kTable;
}
