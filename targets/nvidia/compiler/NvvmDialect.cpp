//===- NvvmDialect.cpp - NVVM ops for the hooks' intrinsic calls ----------===//

#include "NvvmDialect.h"

#include "hadron/IR/Dialect.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Target/LLVMIR/Dialect/NVVM/NVVMToLLVMIRTranslation.h"

#include "llvm/ADT/StringSwitch.h"

using namespace mlir;

namespace hadron::nvidia {

void registerNvvm(DialectRegistry &registry) {
  registry.insert<NVVM::NVVMDialect>();
  registerNVVMDialectTranslation(registry);
}

namespace {

/// The NVVM op for a special-register read, or nullptr.
Operation *raiseSpecialRegister(OpBuilder &b, Location loc, StringRef reg, unsigned threads) {
  Type i32 = b.getI32Type();
  if (reg == "tid.x")
    return NVVM::ThreadIdXOp::create(b, loc, i32,
                                     LLVM::ConstantRangeAttr::get(b.getContext(), 32, 0, threads));
  if (reg == "ctaid.x")
    return NVVM::BlockIdXOp::create(b, loc, i32);
  if (reg == "ctaid.y")
    return NVVM::BlockIdYOp::create(b, loc, i32);
  if (reg == "ctaid.z")
    return NVVM::BlockIdZOp::create(b, loc, i32);
  if (reg == "nctaid.x")
    return NVVM::GridDimXOp::create(b, loc, i32);
  if (reg == "nctaid.y")
    return NVVM::GridDimYOp::create(b, loc, i32);
  if (reg == "nctaid.z")
    return NVVM::GridDimZOp::create(b, loc, i32);
  return nullptr;
}

/// Threads the kernel around `op` launches with: its .reqntid (set by
/// finishKernel; more than num_warps' with hd.warp_specialize), or `dflt`.
unsigned threadsOf(Operation *op, unsigned dflt) {
  auto func = op->getParentOfType<LLVM::LLVMFuncOp>();
  auto reqntid = func ? func->getAttrOfType<DenseI32ArrayAttr>("nvvm.reqntid") : nullptr;
  return reqntid && !reqntid.empty() ? unsigned(reqntid[0]) : dflt;
}

} // namespace

LogicalResult raiseToNvvm(ModuleOp module) {
  unsigned threads = 4 * 32;
  if (auto target = hd::getTarget(module))
    threads = target.getNumWarps() * 32;
  SmallVector<LLVM::CallIntrinsicOp> calls;
  module.walk([&](LLVM::CallIntrinsicOp call) { calls.push_back(call); });
  for (LLVM::CallIntrinsicOp call : calls) {
    StringRef name = call.getIntrin();
    if (!name.consume_front("llvm.nvvm."))
      continue;
    OpBuilder b(call);
    Location loc = call.getLoc();
    Operation *replacement = nullptr;
    if (name.consume_front("read.ptx.sreg.")) {
      replacement = raiseSpecialRegister(b, loc, name, threadsOf(call, threads));
    } else if (name == "barrier.cta.sync.aligned.all") {
      replacement = NVVM::Barrier0Op::create(b, loc);
    } else if (name.consume_front("shfl.sync.")) {
      auto kind = llvm::StringSwitch<std::optional<NVVM::ShflKind>>(name.drop_back(4))
                      .Case("bfly", NVVM::ShflKind::bfly)
                      .Case("idx", NVVM::ShflKind::idx)
                      .Case("up", NVVM::ShflKind::up)
                      .Case("down", NVVM::ShflKind::down)
                      .Default(std::nullopt);
      auto args = call.getArgs();
      if (kind && args.size() == 4)
        replacement = NVVM::ShflOp::create(b, loc, call.getResult(0).getType(), args[0],
                                           args[1], args[2], args[3], *kind, UnitAttr());
    }
    // Anything else stays an intrinsic call, which translates as well.
    if (!replacement)
      continue;
    call->replaceAllUsesWith(replacement->getResults());
    call->erase();
  }
  return success();
}

} // namespace hadron::nvidia
