//===- TemplateHooks.cpp - The template target's answers to the hooks -----===//

#include "TemplateHooks.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Block.h"
#include "mlir/IR/BuiltinOps.h"

#include <string>

using namespace mlir;

namespace template_target {

namespace {

LLVM::LLVMFuncOp declareFunction(ModuleOp module, StringRef name, LLVM::LLVMFunctionType type) {
  if (auto existing = module.lookupSymbol<LLVM::LLVMFuncOp>(name))
    return existing;
  OpBuilder b = OpBuilder::atBlockEnd(module.getBody());
  return LLVM::LLVMFuncOp::create(b, module.getLoc(), name, type);
}

/// The address of a NUL-terminated constant holding `text`.
Value globalString(OpBuilder &b, Location loc, ModuleOp module, StringRef text) {
  std::string name = "__template_str" + std::to_string(llvm::hash_value(text) & 0xffffffff);
  if (!module.lookupSymbol<LLVM::GlobalOp>(name)) {
    OpBuilder g = OpBuilder::atBlockBegin(module.getBody());
    auto type = LLVM::LLVMArrayType::get(g.getI8Type(), text.size() + 1);
    LLVM::GlobalOp::create(g, loc, type, /*isConstant=*/true, LLVM::Linkage::Internal, name,
                           g.getStringAttr(text.str() + '\0'));
  }
  return LLVM::AddressOfOp::create(b, loc, LLVM::LLVMPointerType::get(b.getContext()), name);
}

ModuleOp moduleOf(OpBuilder &b) {
  return b.getInsertionBlock()->getParentOp()->getParentOfType<ModuleOp>();
}

} // namespace

void TemplateHooks::appendImplicitKernelArgs(MLIRContext *ctx,
                                             SmallVectorImpl<Type> &types) const {
  auto ptr = LLVM::LLVMPointerType::get(ctx);
  types.push_back(ptr); // const int32_t grid[6]
  types.push_back(ptr); // void *shared
}

void TemplateHooks::beginKernel(Block &entry, unsigned firstImplicitArg) {
  OpBuilder b = OpBuilder::atBlockBegin(&entry);
  Location loc = entry.getParentOp()->getLoc();
  auto ptr = LLVM::LLVMPointerType::get(b.getContext());
  auto alias = [&](unsigned i) {
    return LLVM::GEPOp::create(b, loc, ptr, b.getI8Type(), entry.getArgument(firstImplicitArg + i),
                               ArrayRef<LLVM::GEPArg>{0});
  };
  grid = alias(0);
  shared = alias(1);
}

Value TemplateHooks::programId(OpBuilder &b, Location loc, int axis) {
  auto ptr = LLVM::LLVMPointerType::get(b.getContext());
  Value slot = LLVM::GEPOp::create(b, loc, ptr, b.getI32Type(), grid,
                                   ArrayRef<LLVM::GEPArg>{axis});
  return LLVM::LoadOp::create(b, loc, b.getI32Type(), slot, /*alignment=*/4);
}

Value TemplateHooks::numPrograms(OpBuilder &b, Location loc, int axis) {
  return programId(b, loc, 3 + axis); // grid = {pid[3], nprog[3]}
}

Value TemplateHooks::laneId(OpBuilder &b, Location loc) {
  return LLVM::ConstantOp::create(b, loc, b.getI32Type(), b.getI32IntegerAttr(0));
}

Value TemplateHooks::warpId(OpBuilder &b, Location loc) { return laneId(b, loc); }

void TemplateHooks::print(OpBuilder &b, Location loc, StringRef format, ValueRange args) {
  ModuleOp module = moduleOf(b);
  auto ptr = LLVM::LLVMPointerType::get(b.getContext());
  auto printf = declareFunction(
      module, "printf", LLVM::LLVMFunctionType::get(b.getI32Type(), {ptr}, /*isVarArg=*/true));
  SmallVector<Value> operands{globalString(b, loc, module, format)};
  operands.append(args.begin(), args.end());
  LLVM::CallOp::create(b, loc, printf, operands);
}

void TemplateHooks::assertTrue(OpBuilder &b, Location loc, Value condition, StringRef message) {
  // if (!condition) { puts(message); abort(); }
  Block *current = b.getInsertionBlock();
  Block *rest = current->splitBlock(b.getInsertionPoint());
  Block *fail = b.createBlock(rest);
  b.setInsertionPointToEnd(current);
  LLVM::CondBrOp::create(b, loc, condition, rest, fail);
  b.setInsertionPointToStart(fail);
  ModuleOp module = moduleOf(b);
  MLIRContext *ctx = b.getContext();
  auto ptr = LLVM::LLVMPointerType::get(ctx);
  auto puts = declareFunction(module, "puts", LLVM::LLVMFunctionType::get(b.getI32Type(), {ptr}));
  auto abort =
      declareFunction(module, "abort", LLVM::LLVMFunctionType::get(LLVM::LLVMVoidType::get(ctx), {}));
  LLVM::CallOp::create(b, loc, puts, ValueRange{globalString(b, loc, module, message)});
  LLVM::CallOp::create(b, loc, abort, ValueRange{});
  LLVM::UnreachableOp::create(b, loc);
  b.setInsertionPointToStart(rest);
}

void TemplateHooks::finishKernel(LLVM::LLVMFuncOp kernel) {
  // The lowered kernel takes its arguments one by one; TemplateKernelABI.h
  // wants `void K(void **args, const int32_t *grid, void *shared)`. So the
  // kernel becomes K.impl (internal) and an exported K unpacks `args`.
  MLIRContext *ctx = kernel.getContext();
  std::string name = kernel.getSymName().str();
  kernel.setSymName(name + ".impl");
  kernel.setLinkage(LLVM::Linkage::Internal);
  auto ptr = LLVM::LLVMPointerType::get(ctx);
  OpBuilder b(kernel);
  b.setInsertionPointAfter(kernel);
  Location loc = kernel.getLoc();
  auto wrapper = LLVM::LLVMFuncOp::create(
      b, loc, name, LLVM::LLVMFunctionType::get(LLVM::LLVMVoidType::get(ctx), {ptr, ptr, ptr}));
  Block *entry = wrapper.addEntryBlock(b);
  b.setInsertionPointToStart(entry);
  ArrayRef<Type> params = kernel.getFunctionType().getParams();
  SmallVector<Value> operands;
  for (unsigned i = 0, e = params.size() - 2; i < e; ++i) {
    Value slot = LLVM::GEPOp::create(b, loc, ptr, ptr, entry->getArgument(0),
                                     ArrayRef<LLVM::GEPArg>{int32_t(i)});
    Value valuePtr = LLVM::LoadOp::create(b, loc, ptr, slot, /*alignment=*/8);
    operands.push_back(LLVM::LoadOp::create(b, loc, params[i], valuePtr, /*alignment=*/1));
  }
  operands.push_back(entry->getArgument(1));
  operands.push_back(entry->getArgument(2));
  LLVM::CallOp::create(b, loc, kernel, operands);
  LLVM::ReturnOp::create(b, loc, ValueRange{});
}

} // namespace template_target
