//===- HostHooks.cpp - The host CPU's answers to the target hooks ---------===//

#include "HostHooks.h"
#include "HostKernelABI.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Block.h"
#include "mlir/IR/BuiltinOps.h"

using namespace mlir;

namespace hadron::host {

void HostHooks::appendImplicitKernelArgs(MLIRContext *ctx,
                                         SmallVectorImpl<Type> &types) const {
  auto ptr = LLVM::LLVMPointerType::get(ctx);
  types.push_back(ptr); // const int32_t grid[6]
  types.push_back(ptr); // void *shared
}

void HostHooks::beginKernel(Block &entry, unsigned firstImplicitArg) {
  Location loc = entry.getParentOp()->getLoc();
  defineAssertHelper(entry.getParentOp()->getParentOfType<ModuleOp>(), loc);
  OpBuilder b = OpBuilder::atBlockBegin(&entry);
  auto ptr = LLVM::LLVMPointerType::get(b.getContext());
  grid = LLVM::GEPOp::create(b, loc, ptr, b.getI8Type(), entry.getArgument(firstImplicitArg),
                             ArrayRef<LLVM::GEPArg>{0});
  shared = LLVM::GEPOp::create(b, loc, ptr, b.getI8Type(),
                               entry.getArgument(firstImplicitArg + 1),
                               ArrayRef<LLVM::GEPArg>{0});
}

Value HostHooks::gridInfo(OpBuilder &b, Location loc, int index) {
  auto ptr = LLVM::LLVMPointerType::get(b.getContext());
  Value slot = LLVM::GEPOp::create(b, loc, ptr, b.getI32Type(), grid,
                                   ArrayRef<LLVM::GEPArg>{index});
  return LLVM::LoadOp::create(b, loc, b.getI32Type(), slot, /*alignment=*/4);
}

Value HostHooks::programId(OpBuilder &b, Location loc, int axis) {
  return gridInfo(b, loc, axis);
}
Value HostHooks::numPrograms(OpBuilder &b, Location loc, int axis) {
  return gridInfo(b, loc, 3 + axis);
}
Value HostHooks::laneId(OpBuilder &b, Location loc) {
  return LLVM::ConstantOp::create(b, loc, b.getI32Type(), b.getI32IntegerAttr(0));
}
Value HostHooks::warpId(OpBuilder &b, Location loc) { return laneId(b, loc); }
Value HostHooks::sharedMemoryBase(OpBuilder &, Location) { return shared; }
Value HostHooks::shuffle(OpBuilder &, Location, Value value, Value, ShuffleKind) {
  // A warp of one lane: every shuffle reads the caller's own value.
  return value;
}

namespace {
LLVM::LLVMFuncOp declareFunction(ModuleOp module, StringRef name,
                                 LLVM::LLVMFunctionType type) {
  if (auto existing = module.lookupSymbol<LLVM::LLVMFuncOp>(name))
    return existing;
  OpBuilder b = OpBuilder::atBlockEnd(module.getBody());
  return LLVM::LLVMFuncOp::create(b, module.getLoc(), name, type);
}

Value globalString(OpBuilder &b, Location loc, ModuleOp module, StringRef text) {
  std::string name = "__hd_str" + std::to_string(llvm::hash_value(text) & 0xffffffff);
  auto type = LLVM::LLVMArrayType::get(b.getI8Type(), text.size() + 1);
  if (!module.lookupSymbol<LLVM::GlobalOp>(name)) {
    OpBuilder g = OpBuilder::atBlockBegin(module.getBody());
    std::string withNul = text.str();
    withNul.push_back('\0');
    LLVM::GlobalOp::create(g, loc, type, /*isConstant=*/true, LLVM::Linkage::Internal, name,
                           g.getStringAttr(withNul));
  }
  return LLVM::AddressOfOp::create(b, loc, LLVM::LLVMPointerType::get(b.getContext()), name);
}
} // namespace

/// `__hd_assert(i1 ok, ptr message)`: when !ok, calls the runtime's handler
/// through the exported `__hd_host_assert_handler` pointer (HostKernelABI.h),
/// which ends the CTA and fails the launch with the message; without a
/// handler it prints and aborts, as a device assert stops the context.
/// Defined before lowering because a conversion pattern must not split
/// blocks behind the rewriter's back.
void HostHooks::defineAssertHelper(ModuleOp module, Location loc) {
  if (module.lookupSymbol<LLVM::LLVMFuncOp>(kAssertHelper))
    return;
  MLIRContext *ctx = module.getContext();
  auto ptr = LLVM::LLVMPointerType::get(ctx);
  auto voidType = LLVM::LLVMVoidType::get(ctx);
  auto i32 = IntegerType::get(ctx, 32);
  auto puts = declareFunction(module, "puts", LLVM::LLVMFunctionType::get(i32, {ptr}));
  auto abort = declareFunction(module, "abort", LLVM::LLVMFunctionType::get(voidType, {}));
  OpBuilder b = OpBuilder::atBlockEnd(module.getBody());
  auto handlerType = LLVM::LLVMFunctionType::get(voidType, {ptr});
  LLVM::GlobalOp::create(b, loc, ptr, /*isConstant=*/false, LLVM::Linkage::External,
                         HD_HOST_ASSERT_HANDLER_SYMBOL, LLVM::ZeroAttr::get(ctx), /*alignment=*/8);
  auto func = LLVM::LLVMFuncOp::create(
      b, loc, kAssertHelper,
      LLVM::LLVMFunctionType::get(voidType, {IntegerType::get(ctx, 1), ptr}),
      LLVM::Linkage::Internal);
  Block *entry = func.addEntryBlock(b);
  Block *fail = b.createBlock(&func.getBody());
  Block *handled = b.createBlock(&func.getBody());
  Block *unhandled = b.createBlock(&func.getBody());
  Block *done = b.createBlock(&func.getBody());
  b.setInsertionPointToEnd(entry);
  LLVM::CondBrOp::create(b, loc, entry->getArgument(0), done, fail);
  b.setInsertionPointToEnd(fail);
  Value slot = LLVM::AddressOfOp::create(b, loc, ptr, HD_HOST_ASSERT_HANDLER_SYMBOL);
  Value handler = LLVM::LoadOp::create(b, loc, ptr, slot, 8);
  Value none = LLVM::ZeroOp::create(b, loc, ptr);
  Value set = LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::ne, handler, none);
  LLVM::CondBrOp::create(b, loc, set, handled, unhandled);
  b.setInsertionPointToEnd(handled);
  SmallVector<Value> callee{handler, entry->getArgument(1)};
  LLVM::CallOp::create(b, loc, handlerType, callee);
  LLVM::UnreachableOp::create(b, loc);
  b.setInsertionPointToEnd(unhandled);
  LLVM::CallOp::create(b, loc, puts, ValueRange{entry->getArgument(1)});
  LLVM::CallOp::create(b, loc, abort, ValueRange{});
  LLVM::UnreachableOp::create(b, loc);
  b.setInsertionPointToEnd(done);
  LLVM::ReturnOp::create(b, loc, ValueRange{});
}

void HostHooks::print(OpBuilder &b, Location loc, StringRef format, ValueRange args) {
  auto module = b.getInsertionBlock()->getParentOp()->getParentOfType<ModuleOp>();
  auto ptr = LLVM::LLVMPointerType::get(b.getContext());
  auto printf = declareFunction(
      module, "printf", LLVM::LLVMFunctionType::get(b.getI32Type(), {ptr}, /*isVarArg=*/true));
  SmallVector<Value> operands{globalString(b, loc, module, format)};
  operands.append(args.begin(), args.end());
  LLVM::CallOp::create(b, loc, printf, operands);
}

void HostHooks::assertTrue(OpBuilder &b, Location loc, Value condition, StringRef message) {
  auto module = b.getInsertionBlock()->getParentOp()->getParentOfType<ModuleOp>();
  auto check = module.lookupSymbol<LLVM::LLVMFuncOp>(kAssertHelper);
  LLVM::CallOp::create(b, loc, check,
                       ValueRange{condition, globalString(b, loc, module, message)});
}

void HostHooks::finishKernel(LLVM::LLVMFuncOp kernel) {
  // The kernel becomes an internal function; an exported wrapper of the
  // HostKernelABI.h signature unpacks `args` and calls it.
  MLIRContext *ctx = kernel.getContext();
  std::string name = kernel.getSymName().str();
  kernel.setSymName(name + ".impl");
  kernel.setLinkage(LLVM::Linkage::Internal);
  auto ptr = LLVM::LLVMPointerType::get(ctx);
  auto voidType = LLVM::LLVMVoidType::get(ctx);
  OpBuilder b(kernel);
  b.setInsertionPointAfter(kernel);
  auto wrapper = LLVM::LLVMFuncOp::create(b, kernel.getLoc(), name,
                                          LLVM::LLVMFunctionType::get(voidType, {ptr, ptr, ptr}));
  Block *entry = wrapper.addEntryBlock(b);
  b.setInsertionPointToStart(entry);
  Location loc = kernel.getLoc();
  ArrayRef<Type> params = kernel.getFunctionType().getParams();
  unsigned explicitArgs = params.size() - 2;
  SmallVector<Value> operands;
  for (unsigned i = 0; i < explicitArgs; ++i) {
    Value slot = LLVM::GEPOp::create(b, loc, ptr, ptr, entry->getArgument(0),
                                     ArrayRef<LLVM::GEPArg>{int32_t(i)});
    Value valuePtr = LLVM::LoadOp::create(b, loc, ptr, slot, 8);
    operands.push_back(LLVM::LoadOp::create(b, loc, params[i], valuePtr, 1));
  }
  operands.push_back(entry->getArgument(1));
  operands.push_back(entry->getArgument(2));
  LLVM::CallOp::create(b, loc, kernel, operands);
  LLVM::ReturnOp::create(b, loc, ValueRange{});
}

} // namespace hadron::host
