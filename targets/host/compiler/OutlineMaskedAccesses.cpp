//===- OutlineMaskedAccesses.cpp - Masked accesses the CPU lacks ----------===//

#include "OutlineMaskedAccesses.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Analysis/TargetTransformInfo.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/Target/TargetMachine.h"

#include <utility>

using namespace llvm;

namespace hadron::host {
namespace {

/// Whether the CPU does `call` (a masked memory intrinsic) in instructions.
bool isNative(IntrinsicInst &call, const TargetTransformInfo &tti) {
  auto align = [&](unsigned arg) { return call.getParamAlign(arg).valueOrOne(); };
  auto space = [&](Value *ptr) { return ptr->getType()->getPointerAddressSpace(); };
  switch (call.getIntrinsicID()) {
  case Intrinsic::masked_load:
    return tti.isLegalMaskedLoad(call.getType(), align(0), space(call.getArgOperand(0)));
  case Intrinsic::masked_store:
    return tti.isLegalMaskedStore(call.getArgOperand(0)->getType(), align(1),
                                  space(call.getArgOperand(1)));
  case Intrinsic::masked_gather:
    return tti.isLegalMaskedGather(call.getType(), align(0));
  case Intrinsic::masked_scatter:
    return tti.isLegalMaskedScatter(call.getArgOperand(0)->getType(), align(1));
  default:
    return true;
  }
}

/// `type` with floating-point elements replaced by integers of their width.
Type *asBits(Type *type) {
  auto *vec = dyn_cast<VectorType>(type);
  if (!vec || !vec->getElementType()->isFloatingPointTy())
    return type;
  return VectorType::getInteger(vec);
}

} // namespace

void outlineMaskedAccesses(Module &module, TargetMachine &machine) {
  // One helper per intrinsic and call-site attributes (the alignment is one).
  DenseMap<std::pair<Function *, AttributeList>, Function *> helpers;
  SmallVector<Function *> kernels;
  for (Function &f : module)
    if (!f.isDeclaration())
      kernels.push_back(&f);
  for (Function *f : kernels) {
    TargetTransformInfo tti = machine.getTargetTransformInfo(*f);
    SmallVector<IntrinsicInst *> calls;
    for (Instruction &inst : instructions(*f))
      if (auto *call = dyn_cast<IntrinsicInst>(&inst))
        if (!isNative(*call, tti))
          calls.push_back(call);
    for (IntrinsicInst *call : calls) {
      // The helper moves bits: floating-point data crosses the call as
      // integers of the same width (bf16 and f16 vectors have no settled
      // passing convention, and x86 mangled bf16 arguments in one).
      SmallVector<Type *> argTypes;
      for (Value *arg : call->args())
        argTypes.push_back(asBits(arg->getType()));
      Type *resultType = asBits(call->getType());
      Function *&helper = helpers[{call->getCalledFunction(), call->getAttributes()}];
      if (!helper) {
        helper = Function::Create(FunctionType::get(resultType, argTypes, false),
                                  GlobalValue::InternalLinkage,
                                  "__hd_" + call->getCalledFunction()->getName(), module);
        helper->addFnAttr(Attribute::NoInline);
        helper->addFnAttr(Attribute::NoUnwind);
        helper->addFnAttr(Attribute::WillReturn);
        IRBuilder<> b(BasicBlock::Create(module.getContext(), "", helper));
        SmallVector<Value *> args(llvm::make_pointer_range(helper->args()));
        Function *intrinsic = Intrinsic::getOrInsertDeclaration(
            &module, call->getIntrinsicID(), resultType, argTypes);
        CallInst *inner = b.CreateCall(intrinsic, args);
        inner->setAttributes(call->getAttributes());
        if (resultType->isVoidTy())
          b.CreateRetVoid();
        else
          b.CreateRet(inner);
      }
      IRBuilder<> b(call);
      SmallVector<Value *> args;
      for (auto [arg, type] : llvm::zip(call->args(), argTypes))
        args.push_back(b.CreateBitCast(arg, type));
      CallInst *outlined = b.CreateCall(helper, args);
      if (!call->getType()->isVoidTy())
        call->replaceAllUsesWith(b.CreateBitCast(outlined, call->getType()));
      call->eraseFromParent();
    }
  }
}

} // namespace hadron::host
