//===- IntelHooks.cpp - Intel GPUs' answers to the target hooks -----------===//
//
// OpenCL C builtins by mangled name (spir_func calls), which LLVM's SPIR-V
// backend maps to SPIR-V:
//
//   get_group_id / get_num_groups     -> BuiltIn WorkgroupId / NumWorkgroups
//   get_sub_group_local_id / _id      -> BuiltIn SubgroupLocalInvocationId / SubgroupId
//   barrier(LOCAL | GLOBAL)           -> OpControlBarrier Workgroup Workgroup
//                                        (SequentiallyConsistent | WorkgroupMemory |
//                                         CrossWorkgroupMemory)
//   sub_group_shuffle{,_xor,_up,_down} -> OpGroupNonUniformShuffle{,Xor,Up,Down}
//   printf (constant address space)   -> OpExtInst printf (OpenCL.std)
//
//===----------------------------------------------------------------------===//

#include "IntelHooks.h"

#include "hadron/IR/Dialect.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Block.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

#include "llvm/ADT/StringExtras.h"


using namespace mlir;

namespace hadron::intel {

namespace {

/// OpenCL's constant address space (SPIR-V UniformConstant): where printf
/// wants its format.
constexpr unsigned kConstantAddressSpace = 2;
/// CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE.
constexpr int32_t kLocalAndGlobalFence = 3;
constexpr const char *kAssertHelper = "__hd_intel_assert";

Value i32Const(OpBuilder &b, Location loc, int64_t v) {
  return LLVM::ConstantOp::create(b, loc, b.getI32Type(), b.getI32IntegerAttr(v));
}

ModuleOp moduleOf(OpBuilder &b) {
  return b.getInsertionBlock()->getParentOp()->getParentOfType<ModuleOp>();
}

/// A declaration of the OpenCL builtin `name` (spir_func); a null `result`
/// is void.
LLVM::LLVMFuncOp declareBuiltin(ModuleOp module, StringRef name, Type result,
                                ArrayRef<Type> params, bool varArg = false) {
  if (auto existing = module.lookupSymbol<LLVM::LLVMFuncOp>(name))
    return existing;
  OpBuilder b = OpBuilder::atBlockEnd(module.getBody());
  if (!result)
    result = LLVM::LLVMVoidType::get(module.getContext());
  auto func = LLVM::LLVMFuncOp::create(b, module.getLoc(), name,
                                       LLVM::LLVMFunctionType::get(result, params, varArg));
  func.setCConv(LLVM::cconv::CConv::SPIR_FUNC);
  return func;
}

/// A call with the callee's calling convention: a mismatch is undefined
/// behaviour that LLVM turns into `unreachable`.
Value callBuiltin(OpBuilder &b, Location loc, StringRef name, Type result, ValueRange args,
                  bool varArg = false) {
  SmallVector<Type> params;
  for (Value a : args)
    params.push_back(a.getType());
  ModuleOp module = moduleOf(b);
  LLVM::LLVMFuncOp func;
  if (varArg)
    func = declareBuiltin(module, name, result, {params.front()}, true);
  else
    func = declareBuiltin(module, name, result, params);
  auto call = LLVM::CallOp::create(b, loc, func, args);
  call.setCConv(LLVM::cconv::CConv::SPIR_FUNC);
  return call.getNumResults() ? call.getResult() : Value();
}

/// A size_t builtin of one dimension, truncated to i32.
Value dimensionBuiltin(OpBuilder &b, Location loc, StringRef name, int axis) {
  Value v = callBuiltin(b, loc, name, b.getI64Type(), {i32Const(b, loc, axis < 0 || axis > 2 ? 0 : axis)});
  return LLVM::TruncOp::create(b, loc, b.getI32Type(), v);
}

/// A NUL-terminated string in the constant address space.
Value constantString(OpBuilder &b, Location loc, ModuleOp module, StringRef text) {
  std::string name = "__hd_str" + llvm::utohexstr(llvm::hash_value(text) & 0xffffffff);
  auto type = LLVM::LLVMArrayType::get(b.getI8Type(), text.size() + 1);
  if (!module.lookupSymbol<LLVM::GlobalOp>(name)) {
    OpBuilder g = OpBuilder::atBlockBegin(module.getBody());
    std::string withNul = text.str();
    withNul.push_back('\0');
    LLVM::GlobalOp::create(g, loc, type, /*isConstant=*/true, LLVM::Linkage::Internal, name,
                           g.getStringAttr(withNul), /*alignment=*/1, kConstantAddressSpace);
  }
  return LLVM::AddressOfOp::create(
      b, loc, LLVM::LLVMPointerType::get(b.getContext(), kConstantAddressSpace), name);
}

} // namespace

unsigned chooseSubGroupSize(Operation *func, const ArchModel &arch) {
  // The core's verifier has checked that every layout of the module has
  // the same lanes and that the target allows them.
  unsigned lanes = 0;
  func->walk([&](Operation *op) {
    auto note = [&](Type type) {
      auto tensor = dyn_cast<RankedTensorType>(type);
      auto layout = tensor ? dyn_cast_or_null<hd::DistributedLayoutAttrInterface>(
                                 tensor.getEncoding())
                           : nullptr;
      if (layout && layout.getWarpSize() > 0)
        lanes = static_cast<unsigned>(layout.getWarpSize());
    };
    for (Type t : op->getResultTypes())
      note(t);
    for (Region &r : op->getRegions())
      for (Block &block : r)
        for (BlockArgument arg : block.getArguments())
          note(arg.getType());
    return lanes ? WalkResult::interrupt() : WalkResult::advance();
  });
  return lanes ? lanes : arch.subGroupSizes.back();
}

void IntelHooks::appendImplicitKernelArgs(MLIRContext *ctx,
                                          llvm::SmallVectorImpl<Type> &types) const {
  types.push_back(LLVM::LLVMPointerType::get(ctx, sharedAddressSpace()));
  types.push_back(LLVM::LLVMPointerType::get(ctx, globalAddressSpace()));
}

void IntelHooks::beginKernel(Block &entry, unsigned firstImplicitArg) {
  Operation *func = entry.getParentOp();
  auto module = func->getParentOfType<ModuleOp>();
  hd::TargetAttr target = hd::getTarget(module);
  unsigned numWarps = target ? target.getNumWarps() : 4;
  subGroup = chooseSubGroupSize(func, arch);
  threads = numWarps * subGroup;
  kernelSubGroups[cast<FunctionOpInterface>(func).getName().str()] = subGroup;
  if (module.walk([](hd::AssertOp) { return WalkResult::interrupt(); }).wasInterrupted())
    defineAssertHelper(module, func->getLoc());

  OpBuilder b = OpBuilder::atBlockBegin(&entry);
  Location loc = func->getLoc();
  auto sharedPtr = LLVM::LLVMPointerType::get(b.getContext(), sharedAddressSpace());
  auto globalPtr = LLVM::LLVMPointerType::get(b.getContext(), globalAddressSpace());
  shared = LLVM::GEPOp::create(b, loc, sharedPtr, b.getI8Type(),
                               entry.getArgument(firstImplicitArg), ArrayRef<LLVM::GEPArg>{0});
  assertStatus = LLVM::GEPOp::create(b, loc, globalPtr, b.getI8Type(),
                                     entry.getArgument(firstImplicitArg + 1),
                                     ArrayRef<LLVM::GEPArg>{0});
}

void IntelHooks::finishKernel(LLVM::LLVMFuncOp func) {
  MLIRContext *ctx = func.getContext();
  OpBuilder b(ctx);
  func.setCConv(LLVM::cconv::CConv::SPIR_KERNEL);
  // The runtime launches num_warps * sub-group work-items in x: the exact
  // local size (SPIR-V LocalSize) and the sub-group size the layouts were
  // written for (SPIR-V SubgroupSize, through intel_reqd_sub_group_size).
  func.setReqdWorkGroupSizeAttr(b.getDenseI32ArrayAttr({int32_t(threads), 1, 1}));
  func.setIntelReqdSubGroupSizeAttr(b.getI32IntegerAttr(subGroup));
}

Value IntelHooks::programId(OpBuilder &b, Location loc, int axis) {
  return dimensionBuiltin(b, loc, "_Z12get_group_idj", axis);
}

Value IntelHooks::numPrograms(OpBuilder &b, Location loc, int axis) {
  return dimensionBuiltin(b, loc, "_Z14get_num_groupsj", axis);
}

Value IntelHooks::laneId(OpBuilder &b, Location loc) {
  return callBuiltin(b, loc, "_Z22get_sub_group_local_idv", b.getI32Type(), {});
}

Value IntelHooks::warpId(OpBuilder &b, Location loc) {
  return callBuiltin(b, loc, "_Z16get_sub_group_idv", b.getI32Type(), {});
}

llvm::StringRef IntelHooks::atomicSyncScope(int scope) const {
  switch (scope) {
  case 0:
    return "workgroup";
  case 1:
    return "device";
  default:
    return "";
  }
}

void IntelHooks::barrier(OpBuilder &b, Location loc) {
  // Shared memory and global memory both: hd.barrier also orders the
  // global writes of a CTA (as __syncthreads does).
  callBuiltin(b, loc, "_Z7barrierj", Type(), {i32Const(b, loc, kLocalAndGlobalFence)});
}

Value IntelHooks::sharedMemoryBase(OpBuilder &, Location) { return shared; }

Value IntelHooks::shuffle(OpBuilder &b, Location loc, Value value, Value laneOrMask,
                          ShuffleKind kind) {
  Type i32 = b.getI32Type();
  Type type = value.getType();
  // The builtins take char..long, half, float, double; everything moves as
  // i32, i64, f32 or f64 here (narrower values widened, pointers as i64).
  Value moved = value;
  StringRef code;
  if (isa<LLVM::LLVMPointerType>(type)) {
    moved = LLVM::PtrToIntOp::create(b, loc, b.getI64Type(), value);
    code = "l";
  } else if (type.isF32()) {
    code = "f";
  } else if (type.isF64()) {
    code = "d";
  } else if (isa<FloatType>(type) && type.getIntOrFloatBitWidth() < 32) {
    Value bits = LLVM::BitcastOp::create(b, loc, b.getIntegerType(type.getIntOrFloatBitWidth()),
                                         value);
    moved = LLVM::ZExtOp::create(b, loc, i32, bits);
    code = "i";
  } else if (auto intType = dyn_cast<IntegerType>(type)) {
    if (intType.getWidth() < 32) {
      moved = LLVM::ZExtOp::create(b, loc, i32, value);
      code = "i";
    } else if (intType.getWidth() == 32) {
      code = "i";
    } else if (intType.getWidth() == 64) {
      code = "l";
    }
  }
  if (code.empty()) {
    emitError(loc) << "cannot shuffle a value of type " << type
                   << " across lanes on intel: only integers up to 64 bits, f16/bf16/f32/f64 "
                      "and pointers";
    return value;
  }
  Type movedType = moved.getType();
  Value lane = laneId(b, loc);
  Value result;
  switch (kind) {
  case ShuffleKind::Xor:
    result = callBuiltin(b, loc, ("_Z21sub_group_shuffle_xor" + code + "j").str(), movedType,
                         {moved, laneOrMask});
    break;
  case ShuffleKind::Idx: {
    // Wraps like the other targets: lane indices modulo the sub-group.
    Value src = LLVM::AndOp::create(b, loc, laneOrMask, i32Const(b, loc, subGroup - 1));
    result = callBuiltin(b, loc, ("_Z17sub_group_shuffle" + code + "j").str(), movedType,
                         {moved, src});
    break;
  }
  case ShuffleKind::Up: {
    // Lanes below the distance keep their own value (the builtin leaves
    // them undefined).
    Value up = callBuiltin(b, loc, ("_Z20sub_group_shuffle_up" + code + "j").str(), movedType,
                           {moved, laneOrMask});
    Value inRange = LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::uge, lane, laneOrMask);
    result = LLVM::SelectOp::create(b, loc, inRange, up, moved);
    break;
  }
  case ShuffleKind::Down: {
    Value down = callBuiltin(b, loc, ("_Z22sub_group_shuffle_down" + code + "j").str(),
                             movedType, {moved, laneOrMask});
    Value sum = LLVM::AddOp::create(b, loc, lane, laneOrMask);
    Value inRange =
        LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::ult, sum, i32Const(b, loc, subGroup));
    result = LLVM::SelectOp::create(b, loc, inRange, down, moved);
    break;
  }
  }
  if (isa<LLVM::LLVMPointerType>(type))
    return LLVM::IntToPtrOp::create(b, loc, type, result);
  if (result.getType() == type)
    return result;
  Value narrow = LLVM::TruncOp::create(b, loc, b.getIntegerType(type.getIntOrFloatBitWidth()),
                                       result);
  return isa<FloatType>(type) ? LLVM::BitcastOp::create(b, loc, type, narrow).getResult()
                              : narrow;
}

void IntelHooks::print(OpBuilder &b, Location loc, StringRef format, ValueRange args) {
  // OpenCL C's printf: the format in the constant address space; the
  // mangled name is what the SPIR-V backend gives the format's i8 pointee.
  ModuleOp module = moduleOf(b);
  SmallVector<Value> operands{constantString(b, loc, module, format)};
  operands.append(args.begin(), args.end());
  callBuiltin(b, loc, "_Z6printfPU3AS2Kcz", b.getI32Type(), operands, /*varArg=*/true);
}

/// `__hd_intel_assert(i1 ok, ptr addrspace(2) message, ptr addrspace(1)
/// status)`: where !ok, the first failing work-item (a compare-and-swap of
/// the status flag from 0 to 1) copies the message after the flag; the
/// runtime reports it when the kernel has finished. OpenCL kernels cannot
/// stop the launch, so the kernel runs on. Defined before lowering because
/// a conversion pattern must not split blocks behind the rewriter's back.
void IntelHooks::defineAssertHelper(ModuleOp module, Location loc) {
  if (module.lookupSymbol<LLVM::LLVMFuncOp>(kAssertHelper))
    return;
  MLIRContext *ctx = module.getContext();
  auto constPtr = LLVM::LLVMPointerType::get(ctx, kConstantAddressSpace);
  auto globalPtr = LLVM::LLVMPointerType::get(ctx, globalAddressSpace());
  auto i8 = IntegerType::get(ctx, 8);
  auto i32 = IntegerType::get(ctx, 32);
  OpBuilder b = OpBuilder::atBlockEnd(module.getBody());
  auto func = LLVM::LLVMFuncOp::create(
      b, loc, kAssertHelper,
      LLVM::LLVMFunctionType::get(LLVM::LLVMVoidType::get(ctx),
                                  {IntegerType::get(ctx, 1), constPtr, globalPtr}),
      LLVM::Linkage::Internal);
  func.setCConv(LLVM::cconv::CConv::SPIR_FUNC);
  Block *entry = func.addEntryBlock(b);
  Block *fail = b.createBlock(&func.getBody());
  Block *copy = b.createBlock(&func.getBody(), {}, {i32}, {loc});
  Block *done = b.createBlock(&func.getBody());
  Value ok = entry->getArgument(0), message = entry->getArgument(1),
        status = entry->getArgument(2);

  b.setInsertionPointToEnd(entry);
  LLVM::CondBrOp::create(b, loc, ok, done, fail);

  b.setInsertionPointToEnd(fail);
  auto cas = LLVM::AtomicCmpXchgOp::create(b, loc, status, i32Const(b, loc, 0),
                                           i32Const(b, loc, 1), LLVM::AtomicOrdering::monotonic,
                                           LLVM::AtomicOrdering::monotonic);
  cas.setSyncscope("device");
  Value won = LLVM::ExtractValueOp::create(b, loc, cas, ArrayRef<int64_t>{1});
  LLVM::CondBrOp::create(b, loc, won, copy, ValueRange{i32Const(b, loc, 0)}, done, ValueRange{});

  // copy(i): status[4 + i] = message[i], up to the NUL or the buffer's end.
  b.setInsertionPointToEnd(copy);
  Value i = copy->getArgument(0);
  Value from = LLVM::GEPOp::create(b, loc, constPtr, i8, message, ArrayRef<LLVM::GEPArg>{i});
  Value c = LLVM::LoadOp::create(b, loc, i8, from);
  Value at = LLVM::AddOp::create(b, loc, i, i32Const(b, loc, 4));
  Value to = LLVM::GEPOp::create(b, loc, globalPtr, i8, status, ArrayRef<LLVM::GEPArg>{at});
  Value last = LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::eq, i,
                                    i32Const(b, loc, kAssertStatusBytes - 5));
  Value nul = LLVM::ConstantOp::create(b, loc, i8, b.getI8IntegerAttr(0));
  LLVM::StoreOp::create(b, loc, LLVM::SelectOp::create(b, loc, last, nul, c), to);
  Value isNul = LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::eq, c, nul);
  Value stop = LLVM::OrOp::create(b, loc, isNul, last);
  Value next = LLVM::AddOp::create(b, loc, i, i32Const(b, loc, 1));
  LLVM::CondBrOp::create(b, loc, stop, done, ValueRange{}, copy, ValueRange{next});

  b.setInsertionPointToEnd(done);
  LLVM::ReturnOp::create(b, loc, ValueRange{});
}

void IntelHooks::assertTrue(OpBuilder &b, Location loc, Value condition, StringRef message) {
  ModuleOp module = moduleOf(b);
  auto check = module.lookupSymbol<LLVM::LLVMFuncOp>(kAssertHelper);
  auto call = LLVM::CallOp::create(
      b, loc, check,
      ValueRange{condition, constantString(b, loc, module, message), assertStatus});
  call.setCConv(LLVM::cconv::CConv::SPIR_FUNC);
}

namespace {

/// `elems` as one vector of `count` components of `component` (a bitcast
/// when the element type differs): the builtin's operand.
Value packComponents(OpBuilder &b, Location loc, ValueRange elems, Type component,
                     int64_t count) {
  Type elem = elems.front().getType();
  auto vecType = VectorType::get({int64_t(elems.size())}, elem);
  Value vec = LLVM::PoisonOp::create(b, loc, vecType);
  for (auto [i, v] : llvm::enumerate(elems))
    vec = LLVM::InsertElementOp::create(b, loc, vec, v, i32Const(b, loc, int64_t(i)));
  auto type = VectorType::get({count}, component);
  return type == vecType ? vec : LLVM::BitcastOp::create(b, loc, type, vec).getResult();
}

} // namespace

Result<SmallVector<Value>> IntelHooks::matrixMultiplyAccumulate(OpBuilder &b, Location loc,
                                                                StringRef name, ValueRange a,
                                                                ValueRange bOperand, ValueRange c) {
  const DpasInstr *instr = findDpas(name);
  if (!instr)
    return Error("the target has no matrix instruction \"" + name.str() +
                 "\": the Intel model declares no DPAS of that name");
  bool available = false;
  std::string has;
  for (const DpasInstr &d : arch.dpas) {
    available |= name == d.name;
    has += (has.empty() ? "" : ", ") + std::string(d.name);
  }
  if (!available)
    return Error("matrix instruction \"" + name.str() + "\" " +
                 (has.empty() ? "is DPAS, which " + std::string(arch.arch) +
                                    " has not (no matrix unit)"
                              : "is not one of " + std::string(arch.arch) +
                                    "'s DPAS instructions (" + has + ")"));
  if (subGroup != instr->subGroupSize)
    return Error("matrix instruction \"" + name.str() + "\" runs on sub-groups of " +
                 std::to_string(instr->subGroupSize) + "; the kernel's are " +
                 std::to_string(subGroup));
  const bool tf32 = std::string(instr->aType) == "tf32";
  const unsigned aBitsPerRow = 256 / instr->subGroupSize;
  if (a.empty() ||
      a.size() * a.front().getType().getIntOrFloatBitWidth() != instr->m * aBitsPerRow ||
      bOperand.size() != instr->k || c.size() != instr->m)
    return Error("matrix instruction \"" + name.str() + "\" got " + std::to_string(a.size()) +
                 ", " + std::to_string(bOperand.size()) + " and " + std::to_string(c.size()) +
                 " registers of A, B and the accumulator");
  // A: a short or an int per row (a lane's 16 or 32 bits of the row's 32
  // bytes), or for tf32 on 16 lanes a float per two rows; B: 8 32-bit
  // components packed along K.
  Type aComponent = tf32 ? Type(b.getF32Type()) : Type(b.getIntegerType(aBitsPerRow));
  int64_t aCount = tf32 ? int64_t(a.size()) : int64_t(instr->m);
  Value av = packComponents(b, loc, a, aComponent, aCount);
  Type bComponent = tf32 ? Type(b.getF32Type()) : Type(b.getI32Type());
  Value bv = packComponents(b, loc, bOperand, bComponent, 8);
  Type accElem = c.front().getType();
  Value cv = packComponents(b, loc, c, accElem, int64_t(c.size()));
  Value d = callBuiltin(b, loc, instr->builtin, cv.getType(), {av, bv, cv});
  SmallVector<Value> out;
  for (size_t i = 0; i < c.size(); ++i)
    out.push_back(LLVM::ExtractElementOp::create(b, loc, d, i32Const(b, loc, int64_t(i))));
  return out;
}

} // namespace hadron::intel
