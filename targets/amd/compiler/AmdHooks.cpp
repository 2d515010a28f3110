//===- AmdHooks.cpp - AMD GPUs' answers to the target hooks ---------------===//
//
// The hooks emit the amdgcn intrinsics as llvm.call_intrinsic: distribute's
// conversion accepts only LLVM dialect ops. RocdlDialect.cpp raises them to
// ROCDL ops after distribute (raiseToRocdl), with the ROCDL headers kept to
// that one file.
//
//===----------------------------------------------------------------------===//

#include "AmdHooks.h"

#include "hadron/Conversion/Passes.h"
#include "hadron/IR/Dialect.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Block.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>

using namespace mlir;

namespace hadron::amd {

namespace {

/// Address spaces of the AMDGPU backend besides global (1) and LDS (3).
constexpr unsigned kConstantAddressSpace = 4;

Value i32Const(OpBuilder &b, Location loc, int64_t v) {
  return LLVM::ConstantOp::create(b, loc, b.getI32Type(), b.getI32IntegerAttr(v));
}

/// An amdgcn intrinsic returning `result` (null: nothing).
Value intrinsic(OpBuilder &b, Location loc, Type result, StringRef name, ValueRange args = {}) {
  auto call = result ? LLVM::CallIntrinsicOp::create(b, loc, result, b.getStringAttr(name), args)
                     : LLVM::CallIntrinsicOp::create(b, loc, b.getStringAttr(name), args);
  return result ? call.getResult(0) : Value();
}

LLVM::LLVMFuncOp declareFunction(ModuleOp module, StringRef name, LLVM::LLVMFunctionType type) {
  if (auto existing = module.lookupSymbol<LLVM::LLVMFuncOp>(name))
    return existing;
  OpBuilder b = OpBuilder::atBlockEnd(module.getBody());
  return LLVM::LLVMFuncOp::create(b, module.getLoc(), name, type);
}

/// A NUL-terminated string in the constant address space, as a generic
/// pointer (what printf takes).
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
  MLIRContext *ctx = b.getContext();
  Value global = LLVM::AddressOfOp::create(
      b, loc, LLVM::LLVMPointerType::get(ctx, kConstantAddressSpace), name);
  return LLVM::AddrSpaceCastOp::create(b, loc, LLVM::LLVMPointerType::get(ctx), global);
}

LLVM::LLVMFuncOp declarePrintf(ModuleOp module) {
  MLIRContext *ctx = module.getContext();
  return declareFunction(module, AmdHooks::kPrintfName,
                         LLVM::LLVMFunctionType::get(IntegerType::get(ctx, 32),
                                                     {LLVM::LLVMPointerType::get(ctx)},
                                                     /*isVarArg=*/true));
}

constexpr const char *kAssertHelper = "__hd_amd_assert";

} // namespace

void AmdHooks::beginKernel(Block &entry, unsigned) {
  auto func = cast<FunctionOpInterface>(entry.getParentOp());
  auto module = func->getParentOfType<ModuleOp>();
  hd::TargetAttr target = hd::getTarget(module);
  unsigned numWarps = target ? target.getNumWarps() : 4;
  threads = numWarps * arch.waveSize;
  // Only modules that assert get the helper: it prints, and printf needs
  // the device libraries.
  if (module.walk([](hd::AssertOp) { return WalkResult::interrupt(); }).wasInterrupted())
    defineAssertHelper(module, func.getLoc());

  ldsSymbol.clear();
  auto bytes = func->getAttrOfType<IntegerAttr>(kSharedBytesAttr);
  if (!bytes || bytes.getInt() <= 0)
    return;
  ldsSymbol = ("__hd_lds_" + func.getName()).str();
  OpBuilder b = OpBuilder::atBlockBegin(module.getBody());
  // No initializer: LDS cannot be initialised, and the translation gives an
  // internal global without one `undef`, which is what the backend expects.
  LLVM::GlobalOp::create(b, func.getLoc(),
                         LLVM::LLVMArrayType::get(b.getI8Type(), bytes.getInt()),
                         /*isConstant=*/false, LLVM::Linkage::Internal, ldsSymbol, Attribute(),
                         /*alignment=*/16, sharedAddressSpace());
}

void AmdHooks::finishKernel(LLVM::LLVMFuncOp func) {
  MLIRContext *ctx = func.getContext();
  OpBuilder b(ctx);
  func.setCConvAttr(LLVM::CConvAttr::get(ctx, LLVM::cconv::CConv::AMDGPU_KERNEL));
  // The runtime always launches num_warps * waveSize work-items in x: tell
  // the backend exactly (without it ROCDL kernels get "1,256"), and that
  // every workgroup is full (the grid is a whole number of workgroups).
  std::string size = std::to_string(threads);
  func.setPassthroughAttr(b.getArrayAttr({
      b.getStrArrayAttr({"amdgpu-flat-work-group-size", size + "," + size}),
      b.getStrArrayAttr({"uniform-work-group-size", "true"}),
  }));
  func.setReqdWorkGroupSizeAttr(b.getDenseI32ArrayAttr({int32_t(threads), 1, 1}));
  func.setTargetCpuAttr(b.getStringAttr(arch.arch));
  llvm::StringRef waveFeature = arch.waveSize == 32 ? "+wavefrontsize32" : "+wavefrontsize64";
  func.setTargetFeaturesAttr(
      LLVM::TargetFeaturesAttr::get(ctx, llvm::ArrayRef<llvm::StringRef>{waveFeature}));
}

Value AmdHooks::threadIdX(OpBuilder &b, Location loc) {
  return intrinsic(b, loc, b.getI32Type(), "llvm.amdgcn.workitem.id.x");
}

Value AmdHooks::programId(OpBuilder &b, Location loc, int axis) {
  static const char *const names[] = {"llvm.amdgcn.workgroup.id.x", "llvm.amdgcn.workgroup.id.y",
                                      "llvm.amdgcn.workgroup.id.z"};
  return intrinsic(b, loc, b.getI32Type(), names[axis < 0 || axis > 2 ? 0 : axis]);
}

Value AmdHooks::numPrograms(OpBuilder &b, Location loc, int axis) {
  // Code object v5: the hidden arguments start with hidden_block_count_x,
  // _y, _z (uint32 each), the grid size in workgroups.
  MLIRContext *ctx = b.getContext();
  auto constPtr = LLVM::LLVMPointerType::get(ctx, kConstantAddressSpace);
  Value implicit = intrinsic(b, loc, constPtr, "llvm.amdgcn.implicitarg.ptr");
  Value slot = LLVM::GEPOp::create(b, loc, constPtr, b.getI32Type(), implicit,
                                   ArrayRef<LLVM::GEPArg>{axis});
  return LLVM::LoadOp::create(b, loc, b.getI32Type(), slot, /*alignment=*/4,
                              /*isVolatile=*/false, /*isNonTemporal=*/false,
                              /*isInvariant=*/true);
}

Value AmdHooks::laneId(OpBuilder &b, Location loc) {
  // mbcnt counts the set bits of the mask below this lane: with an all-ones
  // mask, the lane index. Wave64 needs the high half too.
  Type i32 = b.getI32Type();
  Value ones = i32Const(b, loc, -1);
  Value lo = intrinsic(b, loc, i32, "llvm.amdgcn.mbcnt.lo", {ones, i32Const(b, loc, 0)});
  if (arch.waveSize == 32)
    return lo;
  return intrinsic(b, loc, i32, "llvm.amdgcn.mbcnt.hi", {ones, lo});
}

Value AmdHooks::warpId(OpBuilder &b, Location loc) {
  Value wave = LLVM::LShrOp::create(b, loc, threadIdX(b, loc),
                                    i32Const(b, loc, llvm::Log2_32(arch.waveSize)));
  // Uniform across the wave: readfirstlane puts it in a scalar register.
  return intrinsic(b, loc, b.getI32Type(), "llvm.amdgcn.readfirstlane", {wave});
}

llvm::StringRef AmdHooks::atomicSyncScope(int scope) const {
  switch (scope) {
  case 0:
    return "workgroup";
  case 1:
    return "agent";
  default:
    return "";
  }
}

void AmdHooks::barrier(OpBuilder &b, Location loc) {
  // What LLVM expects for __syncthreads(): release the workgroup's LDS and
  // global writes, wait for every wave, acquire the others' writes.
  LLVM::FenceOp::create(b, loc, LLVM::AtomicOrdering::release, "workgroup");
  intrinsic(b, loc, Type(), "llvm.amdgcn.s.barrier");
  LLVM::FenceOp::create(b, loc, LLVM::AtomicOrdering::acquire, "workgroup");
}

Value AmdHooks::sharedMemoryBase(OpBuilder &b, Location loc) {
  auto ldsPtr = LLVM::LLVMPointerType::get(b.getContext(), sharedAddressSpace());
  if (ldsSymbol.empty()) {
    emitError(loc) << "uses shared memory, but the kernel has no planned LDS ("
                   << kSharedBytesAttr << " is missing or 0): run the shared-memory allocator";
    return LLVM::ZeroOp::create(b, loc, ldsPtr);
  }
  return LLVM::AddressOfOp::create(b, loc, ldsPtr, ldsSymbol);
}

Value AmdHooks::permute32(OpBuilder &b, Location loc, Value value, Value srcLane) {
  // ds_bpermute addresses lanes in bytes: lane * 4.
  Value address = LLVM::ShlOp::create(b, loc, srcLane, i32Const(b, loc, 2));
  return intrinsic(b, loc, b.getI32Type(), "llvm.amdgcn.ds.bpermute", {address, value});
}

Value AmdHooks::shuffle(OpBuilder &b, Location loc, Value value, Value laneOrMask,
                        ShuffleKind kind) {
  Type i32 = b.getI32Type();
  Value lane = laneId(b, loc);
  Value src;
  switch (kind) {
  case ShuffleKind::Xor:
    src = LLVM::XOrOp::create(b, loc, lane, laneOrMask);
    break;
  case ShuffleKind::Idx:
    src = laneOrMask;
    break;
  case ShuffleKind::Up: {
    // Lanes below the distance keep their own value.
    Value inRange = LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::uge, lane, laneOrMask);
    src = LLVM::SelectOp::create(b, loc, inRange, LLVM::SubOp::create(b, loc, lane, laneOrMask),
                                 lane);
    break;
  }
  case ShuffleKind::Down: {
    // Lanes whose source is past the wave keep their own value.
    Value sum = LLVM::AddOp::create(b, loc, lane, laneOrMask);
    Value inRange = LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::ult, sum,
                                         i32Const(b, loc, arch.waveSize));
    src = LLVM::SelectOp::create(b, loc, inRange, sum, lane);
    break;
  }
  }
  src = LLVM::AndOp::create(b, loc, src, i32Const(b, loc, arch.waveSize - 1));

  // ds_bpermute moves 32 bits: narrower values are widened, wider ones
  // (64-bit integers, doubles, pointers) go as several 32-bit words.
  Type type = value.getType();
  Value bits = value;
  if (auto ptr = dyn_cast<LLVM::LLVMPointerType>(type))
    bits = LLVM::PtrToIntOp::create(b, loc, b.getI64Type(), value);
  else if (isa<FloatType>(type))
    bits = LLVM::BitcastOp::create(b, loc, b.getIntegerType(type.getIntOrFloatBitWidth()), value);
  auto intType = dyn_cast<IntegerType>(bits.getType());
  if (!intType) {
    emitError(loc) << "cannot shuffle a value of type " << type
                   << " across lanes on amd: only integers, floats and pointers";
    return value;
  }
  unsigned width = intType.getWidth();
  Value moved;
  if (width <= 32) {
    Value wide = width == 32 ? bits : LLVM::ZExtOp::create(b, loc, i32, bits).getResult();
    moved = permute32(b, loc, wide, src);
    if (width < 32)
      moved = LLVM::TruncOp::create(b, loc, intType, moved);
  } else if (width % 32 == 0) {
    auto words = VectorType::get({int64_t(width / 32)}, i32);
    Value vec = LLVM::BitcastOp::create(b, loc, words, bits);
    for (unsigned i = 0; i < width / 32; ++i) {
      Value index = i32Const(b, loc, i);
      Value word = LLVM::ExtractElementOp::create(b, loc, vec, index);
      vec = LLVM::InsertElementOp::create(b, loc, vec, permute32(b, loc, word, src), index);
    }
    moved = LLVM::BitcastOp::create(b, loc, intType, vec);
  } else {
    emitError(loc) << "cannot shuffle a " << width << "-bit value across lanes on amd";
    return value;
  }
  if (isa<LLVM::LLVMPointerType>(type))
    return LLVM::IntToPtrOp::create(b, loc, type, moved);
  if (isa<FloatType>(type))
    return LLVM::BitcastOp::create(b, loc, type, moved);
  return moved;
}

void AmdHooks::print(OpBuilder &b, Location loc, StringRef format, ValueRange args) {
  // A call to a placeholder; AmdCompiler.cpp expands it into the device
  // libraries' hostcall printf (__ockl_printf_*), which the HIP runtime
  // services, once the module is LLVM IR.
  auto module = b.getInsertionBlock()->getParentOp()->getParentOfType<ModuleOp>();
  SmallVector<Value> operands{constantString(b, loc, module, format)};
  operands.append(args.begin(), args.end());
  LLVM::CallOp::create(b, loc, declarePrintf(module), operands);
}

/// `__hd_amd_assert(i1 ok, ptr message)`: prints the message and traps
/// (the HIP runtime reports the kernel as aborted) when !ok. Defined before
/// lowering because a conversion pattern must not split blocks behind the
/// rewriter's back.
void AmdHooks::defineAssertHelper(ModuleOp module, Location loc) {
  if (module.lookupSymbol<LLVM::LLVMFuncOp>(kAssertHelper))
    return;
  MLIRContext *ctx = module.getContext();
  auto ptr = LLVM::LLVMPointerType::get(ctx);
  auto voidType = LLVM::LLVMVoidType::get(ctx);
  auto printf = declarePrintf(module);
  OpBuilder b = OpBuilder::atBlockEnd(module.getBody());
  auto func = LLVM::LLVMFuncOp::create(
      b, loc, kAssertHelper,
      LLVM::LLVMFunctionType::get(voidType, {IntegerType::get(ctx, 1), ptr}),
      LLVM::Linkage::Internal);
  Block *entry = func.addEntryBlock(b);
  Block *fail = b.createBlock(&func.getBody());
  Block *done = b.createBlock(&func.getBody());
  b.setInsertionPointToEnd(entry);
  LLVM::CondBrOp::create(b, loc, entry->getArgument(0), done, fail);
  b.setInsertionPointToEnd(fail);
  LLVM::CallOp::create(b, loc, printf,
                       ValueRange{constantString(b, loc, module, "%s\n"), entry->getArgument(1)});
  LLVM::Trap::create(b, loc);
  LLVM::UnreachableOp::create(b, loc);
  b.setInsertionPointToEnd(done);
  LLVM::ReturnOp::create(b, loc, ValueRange{});
}

void AmdHooks::assertTrue(OpBuilder &b, Location loc, Value condition, StringRef message) {
  auto module = b.getInsertionBlock()->getParentOp()->getParentOfType<ModuleOp>();
  auto check = module.lookupSymbol<LLVM::LLVMFuncOp>(kAssertHelper);
  LLVM::CallOp::create(b, loc, check,
                       ValueRange{condition, constantString(b, loc, module, message)});
}

namespace {

/// A's or B's registers of one lane as the intrinsic takes them: one value
/// as it is (f32, f64); i8 packed into i32/i64 words (into <4 x i32> for
/// WMMA); bf16 as i16 lanes where the intrinsic predates LLVM's bfloat (the
/// _1k MFMAs, WMMA); otherwise a vector of the elements.
Value packOperand(OpBuilder &b, Location loc, const MatrixInstr &instr, ValueRange elems) {
  if (elems.size() == 1)
    return elems.front();
  Type elem = elems.front().getType();
  auto vecType = VectorType::get({int64_t(elems.size())}, elem);
  Value vec = LLVM::PoisonOp::create(b, loc, vecType);
  for (auto [i, v] : llvm::enumerate(elems))
    vec = LLVM::InsertElementOp::create(b, loc, vec, v, i32Const(b, loc, int64_t(i)));
  unsigned bits = elems.size() * elem.getIntOrFloatBitWidth();
  if (elem.isInteger(8)) {
    Type word = bits <= 64 ? Type(b.getIntegerType(bits))
                           : Type(VectorType::get({int64_t(bits / 32)}, b.getI32Type()));
    return LLVM::BitcastOp::create(b, loc, word, vec);
  }
  bool bf16AsI16 =
      instr.family == MatrixFamily::Wmma || StringRef(instr.intrinsic).ends_with(".1k");
  if (elem.isBF16() && bf16AsI16)
    return LLVM::BitcastOp::create(
        b, loc, VectorType::get({int64_t(elems.size())}, b.getI16Type()), vec);
  return vec;
}

std::string archsWith(const MatrixInstr &instr) {
  std::string out;
  for (const ArchModel &m : archModels())
    for (const MatrixInstr *i : matrixInstructions(m))
      if (i == &instr)
        out += (out.empty() ? "" : ", ") + std::string(m.arch);
  return out;
}

} // namespace

Result<SmallVector<Value>> AmdHooks::matrixMultiplyAccumulate(OpBuilder &b, Location loc,
                                                              StringRef name, ValueRange a,
                                                              ValueRange bOperand, ValueRange c) {
  const MatrixInstr *instr = findMatrixInstr(name);
  if (!instr)
    return Error("the target has no matrix instruction \"" + name.str() +
                 "\": the AMD model declares none of that name");
  std::vector<const MatrixInstr *> available = matrixInstructions(arch);
  if (std::find(available.begin(), available.end(), instr) == available.end())
    return Error("matrix instruction \"" + name.str() + "\" (" + instr->isa + ") is " +
                 archsWith(*instr) + "'s; the kernel is compiled for " + arch.arch);
  if (!issuedByDot(*instr))
    return Error("matrix instruction \"" + name.str() + "\" takes " + instr->aType +
                 " operands, which hd.dot has not");
  const size_t accRegs = instr->m * instr->n / arch.waveSize;
  if (a.size() != instr->kPerLane || bOperand.size() != instr->kPerLane || c.size() != accRegs)
    return Error("matrix instruction \"" + name.str() + "\" takes " +
                 std::to_string(instr->kPerLane) + " registers of A and of B and " +
                 std::to_string(accRegs) + " of the accumulator per lane, got " +
                 std::to_string(a.size()) + ", " + std::to_string(bOperand.size()) + " and " +
                 std::to_string(c.size()));
  Value av = packOperand(b, loc, *instr, a), bv = packOperand(b, loc, *instr, bOperand);
  auto accType = VectorType::get({int64_t(c.size())}, c.front().getType());
  Value acc = LLVM::PoisonOp::create(b, loc, accType);
  for (auto [i, v] : llvm::enumerate(c))
    acc = LLVM::InsertElementOp::create(b, loc, acc, v, i32Const(b, loc, int64_t(i)));
  SmallVector<Value> args;
  if (instr->family == MatrixFamily::Mfma) {
    // cbsz, abid, blgp = 0: no broadcast between blocks or lane groups.
    args = {av, bv, acc, i32Const(b, loc, 0), i32Const(b, loc, 0), i32Const(b, loc, 0)};
  } else if (std::string(instr->aType) == "i8") {
    // iu8: A and B signed, no clamping of the i32 result.
    auto flag = [&](bool v) {
      return LLVM::ConstantOp::create(b, loc, b.getI1Type(), b.getBoolAttr(v)).getResult();
    };
    args = {flag(true), av, flag(true), bv, acc, flag(false)};
  } else {
    args = {av, bv, acc};
  }
  Value d = intrinsic(b, loc, accType, instr->intrinsic, args);
  SmallVector<Value> out;
  for (size_t i = 0; i < c.size(); ++i)
    out.push_back(LLVM::ExtractElementOp::create(b, loc, d, i32Const(b, loc, int64_t(i))));
  return out;
}

} // namespace hadron::amd
