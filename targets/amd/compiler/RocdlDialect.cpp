//===- RocdlDialect.cpp - The ROCDL dialect, kept to one translation unit -===//
//
// The only file of the plugin that includes the ROCDL dialect.
//
//===----------------------------------------------------------------------===//

#include "RocdlDialect.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/ROCDLDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Target/LLVMIR/Dialect/ROCDL/ROCDLToLLVMIRTranslation.h"

using namespace mlir;

namespace hadron::amd {

void registerAmdDialects(DialectRegistry &registry) {
  registry.insert<ROCDL::ROCDLDialect>();
  registerROCDLDialectTranslation(registry);
}

namespace {

/// The ROCDL op for `call`, or null when it has none (the call stays).
Operation *raise(OpBuilder &b, LLVM::CallIntrinsicOp call) {
  Location loc = call.getLoc();
  StringRef name = call.getIntrin();
  ValueRange args = call.getArgs();
  Type i32 = b.getI32Type();
  if (name == "llvm.amdgcn.workitem.id.x") {
    LLVM::ConstantRangeAttr range;
    auto func = call->getParentOfType<LLVM::LLVMFuncOp>();
    if (auto size = func.getReqdWorkGroupSizeAttr(); size && !size.empty())
      range = LLVM::ConstantRangeAttr::get(b.getContext(), 32, 0, size[0]);
    return ROCDL::ThreadIdXOp::create(b, loc, i32, range);
  }
  if (name == "llvm.amdgcn.workgroup.id.x")
    return ROCDL::BlockIdXOp::create(b, loc, i32);
  if (name == "llvm.amdgcn.workgroup.id.y")
    return ROCDL::BlockIdYOp::create(b, loc, i32);
  if (name == "llvm.amdgcn.workgroup.id.z")
    return ROCDL::BlockIdZOp::create(b, loc, i32);
  if (name == "llvm.amdgcn.mbcnt.lo")
    return ROCDL::MbcntLoOp::create(b, loc, i32, args[0], args[1], ArrayAttr(), ArrayAttr());
  if (name == "llvm.amdgcn.mbcnt.hi")
    return ROCDL::MbcntHiOp::create(b, loc, i32, args[0], args[1], ArrayAttr(), ArrayAttr());
  if (name == "llvm.amdgcn.readfirstlane")
    return ROCDL::ReadfirstlaneOp::create(b, loc, args[0].getType(), args[0]);
  if (name == "llvm.amdgcn.ds.bpermute")
    return ROCDL::DsBpermuteOp::create(b, loc, i32, args[0], args[1]);
  if (name == "llvm.amdgcn.s.barrier")
    return ROCDL::SBarrierOp::create(b, loc);
  return nullptr;
}

} // namespace

LogicalResult raiseToRocdl(ModuleOp module) {
  SmallVector<LLVM::CallIntrinsicOp> calls;
  module.walk([&](LLVM::CallIntrinsicOp call) { calls.push_back(call); });
  for (LLVM::CallIntrinsicOp call : calls) {
    OpBuilder b(call);
    Operation *op = raise(b, call);
    if (!op)
      continue;
    call->replaceAllUsesWith(op->getResults());
    call->erase();
  }
  return success();
}

} // namespace hadron::amd
