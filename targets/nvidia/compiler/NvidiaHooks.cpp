//===- NvidiaHooks.cpp - NVIDIA GPUs' answers to the target hooks ---------===//

#include "NvidiaHooks.h"

#include "../NvidiaKernelABI.h"
#include "../model/NvidiaModel.h"

#include "hadron/IR/Dialect.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Block.h"
#include "mlir/IR/BuiltinOps.h"

using namespace mlir;

namespace hadron::nvidia {

namespace {

Value i32Const(OpBuilder &b, Location loc, int64_t v) {
  return LLVM::ConstantOp::create(b, loc, b.getI32Type(), b.getI32IntegerAttr(v));
}

Value readSpecialRegister(OpBuilder &b, Location loc, llvm::StringRef name) {
  return LLVM::CallIntrinsicOp::create(b, loc, b.getI32Type(),
                                       b.getStringAttr("llvm.nvvm.read.ptx.sreg." + name.str()),
                                       ValueRange{})
      .getResult(0);
}

const char *axisName(int axis) { return axis == 0 ? "x" : axis == 1 ? "y" : "z"; }

ModuleOp enclosingModule(OpBuilder &b) {
  return b.getInsertionBlock()->getParentOp()->getParentOfType<ModuleOp>();
}

LLVM::LLVMFuncOp declareFunction(ModuleOp module, StringRef name, LLVM::LLVMFunctionType type) {
  if (auto existing = module.lookupSymbol<LLVM::LLVMFuncOp>(name))
    return existing;
  OpBuilder b = OpBuilder::atBlockEnd(module.getBody());
  return LLVM::LLVMFuncOp::create(b, module.getLoc(), name, type);
}

/// A generic pointer to a NUL-terminated copy of `text`, kept in global
/// memory (address space 1) as CUDA keeps string literals.
Value globalString(OpBuilder &b, Location loc, ModuleOp module, StringRef text) {
  std::string name = "__hd_str" + std::to_string(llvm::hash_value(text) & 0xffffffff);
  auto type = LLVM::LLVMArrayType::get(b.getI8Type(), text.size() + 1);
  if (!module.lookupSymbol<LLVM::GlobalOp>(name)) {
    OpBuilder g = OpBuilder::atBlockBegin(module.getBody());
    std::string withNul = text.str();
    withNul.push_back('\0');
    LLVM::GlobalOp::create(g, loc, type, /*isConstant=*/true, LLVM::Linkage::Internal, name,
                           g.getStringAttr(withNul), /*alignment=*/1, /*addrSpace=*/1);
  }
  MLIRContext *ctx = b.getContext();
  Value global =
      LLVM::AddressOfOp::create(b, loc, LLVM::LLVMPointerType::get(ctx, 1), name);
  return LLVM::AddrSpaceCastOp::create(b, loc, LLVM::LLVMPointerType::get(ctx), global);
}

} // namespace

void NvidiaHooks::beginKernel(Block &entry, unsigned) {
  // A dot that reads shared memory through the matrix unit (wgmma) needs
  // the copies before it fenced into the async proxy (asyncWait).
  entry.getParentOp()->walk([&](hd::DotOp dot) {
    if (isa<hd::MemDescType>(dot.getA().getType()) || isa<hd::MemDescType>(dot.getB().getType()))
      sharedMatrixReads = true;
  });
  MLIRContext *ctx = entry.getParentOp()->getContext();
  Location loc = entry.getParentOp()->getLoc();
  auto module = entry.getParentOp()->getParentOfType<ModuleOp>();

  // The dynamic shared-memory array, declared once per module: every kernel
  // sees its own allocation under this name (`extern __shared__`).
  if (!module.lookupSymbol<LLVM::GlobalOp>(HD_NVIDIA_SHARED_SYMBOL)) {
    OpBuilder g = OpBuilder::atBlockBegin(module.getBody());
    LLVM::GlobalOp::create(g, loc, LLVM::LLVMArrayType::get(IntegerType::get(ctx, 8), 0),
                           /*isConstant=*/false, LLVM::Linkage::External,
                           HD_NVIDIA_SHARED_SYMBOL, Attribute(), /*alignment=*/1024,
                           /*addrSpace=*/3);
  }
  defineAssertHelper(entry);

  OpBuilder b = OpBuilder::atBlockBegin(&entry);
  Value tid = readSpecialRegister(b, loc, "tid.x");
  Value lane = LLVM::AndOp::create(b, loc, tid, i32Const(b, loc, HD_NVIDIA_WARP_SIZE - 1));
  Value warp = LLVM::LShrOp::create(b, loc, tid, i32Const(b, loc, 5));
  kernelThreadIds[cast<SymbolOpInterface>(entry.getParentOp()).getName()] = {lane, warp};
}

std::pair<Value, Value> NvidiaHooks::threadIds(OpBuilder &b) const {
  Operation *fn = b.getInsertionBlock()->getParentOp();
  while (fn && !isa<SymbolOpInterface>(fn))
    fn = fn->getParentOp();
  auto it = fn ? kernelThreadIds.find(cast<SymbolOpInterface>(fn).getName())
               : kernelThreadIds.end();
  assert(it != kernelThreadIds.end() && "thread ids asked for outside a begun kernel");
  return it->second;
}

void NvidiaHooks::finishKernel(LLVM::LLVMFuncOp kernel) {
  MLIRContext *ctx = kernel.getContext();
  kernel.setCConv(LLVM::CConv::PTX_Kernel);
  kernel.setLinkage(LLVM::Linkage::External);
  kernel->setAttr("nvvm.kernel", UnitAttr::get(ctx));
  // The runtime launches exactly num_warps * 32 threads: telling ptxas so
  // (.reqntid; it excludes .maxntid) bounds its register allocation.
  unsigned numWarps = 4;
  if (auto target = hd::getTarget(kernel->getParentOfType<ModuleOp>()))
    numWarps = target.getNumWarps();
  if (auto warps = kernel->getAttrOfType<IntegerAttr>(hd::HadronDialect::getKernelWarpsAttrName()))
    numWarps = warps.getInt();
  kernel->setAttr("nvvm.reqntid", DenseI32ArrayAttr::get(
                                      ctx, {static_cast<int32_t>(numWarps * HD_NVIDIA_WARP_SIZE)}));
  // Clusters (hd.cluster_dims): .reqnctapercluster, so a plain launch
  // groups CTAs and the runtime can read the shape off the function.
  if (auto dims = kernel->getParentOfType<ModuleOp>()->getAttrOfType<DenseI32ArrayAttr>(
          "hd.cluster_dims"))
    if (llvm::any_of(dims.asArrayRef(), [](int32_t d) { return d > 1; }))
      kernel->setAttr("nvvm.cluster_dim", dims);
  // A tensor map is a 128-byte, 64-byte aligned kernel parameter that the
  // copy engine reads where it stands (CUDA's __grid_constant__).
  if (hasTensorCopyEngine())
    for (unsigned i = 0; i < kernel.getNumArguments(); ++i)
      if (kernel.getArgAttr(i, "hd.tensor_desc")) {
        kernel.setArgAttr(i, "llvm.byval",
                          TypeAttr::get(LLVM::LLVMArrayType::get(IntegerType::get(ctx, 8), 128)));
        kernel.setArgAttr(i, "llvm.align", IntegerAttr::get(IntegerType::get(ctx, 64), 64));
        kernel.setArgAttr(i, "nvvm.grid_constant", UnitAttr::get(ctx));
      }
}

Value NvidiaHooks::programId(OpBuilder &b, Location loc, int axis) {
  return readSpecialRegister(b, loc, std::string("ctaid.") + axisName(axis));
}

Value NvidiaHooks::numPrograms(OpBuilder &b, Location loc, int axis) {
  return readSpecialRegister(b, loc, std::string("nctaid.") + axisName(axis));
}

llvm::StringRef NvidiaHooks::atomicSyncScope(int scope) const {
  // NVPTX's names for the CTA and GPU scopes; "" is the system scope.
  // NVPTX (LLVM 22) emits every atomicrmw as a relaxed `atom` whatever its
  // ordering, so the ordering comes from fences (atomicOrderingByFences):
  // fence.acq_rel.{cta,gpu,sys}, which it does emit.
  switch (scope) {
  case 0: return "block";
  case 1: return "device";
  default: return "";
  }
}

void NvidiaHooks::barrier(OpBuilder &b, Location loc) {
  // bar.sync 0 (what nvvm.barrier0 is): all threads of the CTA, and it
  // orders their shared-memory accesses.
  LLVM::CallIntrinsicOp::create(b, loc, b.getStringAttr("llvm.nvvm.barrier.cta.sync.aligned.all"),
                                ValueRange{i32Const(b, loc, 0)});
}

void NvidiaHooks::warpGroupBarrier(OpBuilder &b, Location loc, unsigned id, unsigned numWarps) {
  // bar.sync id, threads: the warps of one hd.warp_specialize region.
  LLVM::CallIntrinsicOp::create(
      b, loc, b.getStringAttr("llvm.nvvm.barrier.cta.sync.aligned.count"),
      ValueRange{i32Const(b, loc, id), i32Const(b, loc, numWarps * HD_NVIDIA_WARP_SIZE)});
}

void NvidiaHooks::warpBarrier(OpBuilder &b, Location loc) {
  LLVM::CallIntrinsicOp::create(b, loc, b.getStringAttr("llvm.nvvm.bar.warp.sync"),
                                ValueRange{i32Const(b, loc, -1)});
}

// setmaxnreg (sm_90a): a warpgroup's registers a thread, from a pool of
// 64 Ki per SM; 24 to 256 in steps of 8.
namespace {
constexpr unsigned kRegisterFile = 65536, kWarpgroup = 4;

/// What ptxas gives each thread of a CTA of `warps` warps (the launch count).
unsigned fairShare(unsigned warps) {
  return std::min(255u, kRegisterFile / (warps * HD_NVIDIA_WARP_SIZE)) & ~7u;
}
} // namespace

std::string NvidiaHooks::checkRegisterBudgets(ArrayRef<unsigned> firsts, ArrayRef<unsigned> counts,
                                              MutableArrayRef<int32_t> regs,
                                              unsigned totalWarps) const {
  if (!(arch.archSpecific && arch.computeCapability >= 90))
    return std::string("setting registers per warpgroup (setmaxnreg) is sm_90a's, not ") +
           arch.arch + "'s";
  if (regs[0] == 0) {
    // The default region takes what the others leave: the most a thread,
    // in steps of 8 and at most 256, that still fits the register file.
    int64_t left = kRegisterFile;
    for (size_t i = 1; i < regs.size(); ++i)
      left -= int64_t(counts[i]) * HD_NVIDIA_WARP_SIZE * regs[i];
    int64_t share = left > 0 ? std::min<int64_t>(256, left / (int64_t(counts[0]) * HD_NVIDIA_WARP_SIZE)) & ~int64_t(7) : 0;
    if (share < 24)
      return "the other regions leave " + std::to_string(std::max<int64_t>(left, 0)) +
             " registers, fewer than 24 a thread for the default region's " +
             std::to_string(counts[0]) + " warps";
    regs[0] = int32_t(share);
  }
  uint64_t used = 0;
  for (size_t i = 0; i < regs.size(); ++i) {
    if (firsts[i] % kWarpgroup || counts[i] % kWarpgroup)
      return "region " + std::to_string(i) + " runs warps [" + std::to_string(firsts[i]) + ", " +
             std::to_string(firsts[i] + counts[i]) +
             "); registers are set per warpgroup (4 warps from a multiple of 4)";
    if (regs[i] < 24 || regs[i] > 256 || regs[i] % 8)
      return "region " + std::to_string(i) + " asks for " + std::to_string(regs[i]) +
             " registers a thread; a warpgroup gets 24 to 256, a multiple of 8";
    used += uint64_t(counts[i]) * HD_NVIDIA_WARP_SIZE * unsigned(regs[i]);
  }
  if (used > kRegisterFile)
    return "the budgets add up to " + std::to_string(used) + " registers, the SM has " +
           std::to_string(kRegisterFile);
  (void)totalWarps;
  return "";
}

void NvidiaHooks::setRegisterBudget(OpBuilder &b, Location loc, unsigned regs,
                                    unsigned totalWarps) {
  // A region above the launch share grows into what the others gave back;
  // ptxas honours setmaxnreg only where the kernel's register count is
  // fixed, which one CTA per SM (.minnctapersm 1, with .reqntid) does.
  std::string op = regs > fairShare(totalWarps) ? "inc" : "dec";
  inlinePtx(b, loc, "setmaxnreg." + op + ".sync.aligned.u32 " + std::to_string(regs) + ";", "",
            {});
  Operation *parent = b.getInsertionBlock()->getParentOp();
  auto func = isa<LLVM::LLVMFuncOp>(parent) ? cast<LLVM::LLVMFuncOp>(parent)
                                            : parent->getParentOfType<LLVM::LLVMFuncOp>();
  if (func)
    func->setAttr("nvvm.minctasm", b.getI32IntegerAttr(1));
}

Value NvidiaHooks::sharedMemoryBase(OpBuilder &b, Location loc) {
  return LLVM::AddressOfOp::create(b, loc, LLVM::LLVMPointerType::get(b.getContext(), 3),
                                   HD_NVIDIA_SHARED_SYMBOL);
}

unsigned NvidiaHooks::maxVectorBytes() const { return arch.maxVectorBytes; }

TargetHooks::SharedMemoryBanks NvidiaHooks::sharedMemoryBanks() const {
  return {arch.sharedBanks, arch.sharedBankBytes};
}

unsigned NvidiaHooks::maxSharedVectorBytes() const { return arch.maxSharedVectorBytes; }

/// shfl.sync of one i32 or f32 across the full warp.
Value NvidiaHooks::shuffle32(OpBuilder &b, Location loc, Value value, Value laneOrMask,
                             ShuffleKind kind) {
  // The `c` operand packs the segment mask (bits 8..12, 0: one 32-lane
  // segment) and the clamp: the highest source lane for bfly/idx/down, the
  // lowest (0) for up, as CUDA's __shfl_*_sync pass it.
  const char *mode = "bfly";
  int clamp = HD_NVIDIA_WARP_SIZE - 1;
  switch (kind) {
  case ShuffleKind::Xor: mode = "bfly"; break;
  case ShuffleKind::Idx: mode = "idx"; break;
  case ShuffleKind::Down: mode = "down"; break;
  case ShuffleKind::Up:
    mode = "up";
    clamp = 0;
    break;
  }
  bool isFloat = value.getType().isF32();
  std::string name = std::string("llvm.nvvm.shfl.sync.") + mode + (isFloat ? ".f32" : ".i32");
  Value operands[] = {i32Const(b, loc, -1), value, laneOrMask, i32Const(b, loc, clamp)};
  return LLVM::CallIntrinsicOp::create(b, loc, value.getType(), b.getStringAttr(name), operands)
      .getResult(0);
}

Value NvidiaHooks::shuffle(OpBuilder &b, Location loc, Value value, Value laneOrMask,
                           ShuffleKind kind) {
  Type type = value.getType();
  if (type.isF32() || type.isInteger(32))
    return shuffle32(b, loc, value, laneOrMask, kind);
  MLIRContext *ctx = b.getContext();
  Type i32 = b.getI32Type();
  // Anything else moves as its bits: a pointer as its address, a float or a
  // vector as an integer of its width, widened to whole 32-bit words.
  Value bits = value;
  unsigned width;
  if (isa<LLVM::LLVMPointerType>(type)) {
    bits = LLVM::PtrToIntOp::create(b, loc, b.getI64Type(), value);
    width = 64;
  } else if (auto intType = dyn_cast<IntegerType>(type)) {
    width = intType.getWidth();
  } else {
    width = static_cast<unsigned>(LLVM::getPrimitiveTypeSizeInBits(type));
    bits = LLVM::BitcastOp::create(b, loc, IntegerType::get(ctx, width), value);
  }
  unsigned words = (width + 31) / 32;
  Type wide = IntegerType::get(ctx, words * 32);
  if (words * 32 != width)
    bits = LLVM::ZExtOp::create(b, loc, wide, bits);
  Value moved;
  if (words == 1) {
    moved = shuffle32(b, loc, bits, laneOrMask, kind);
  } else {
    auto vecType = VectorType::get({static_cast<int64_t>(words)}, i32);
    Value vec = LLVM::BitcastOp::create(b, loc, vecType, bits);
    Value out = LLVM::UndefOp::create(b, loc, vecType);
    for (unsigned w = 0; w < words; ++w) {
      Value index = i32Const(b, loc, w);
      Value word = LLVM::ExtractElementOp::create(b, loc, vec, index);
      out = LLVM::InsertElementOp::create(b, loc, out,
                                          shuffle32(b, loc, word, laneOrMask, kind), index);
    }
    moved = LLVM::BitcastOp::create(b, loc, wide, out);
  }
  if (words * 32 != width)
    moved = LLVM::TruncOp::create(b, loc, IntegerType::get(ctx, width), moved);
  if (isa<LLVM::LLVMPointerType>(type))
    return LLVM::IntToPtrOp::create(b, loc, type, moved);
  if (!isa<IntegerType>(type))
    return LLVM::BitcastOp::create(b, loc, type, moved);
  return moved;
}

void NvidiaHooks::print(OpBuilder &b, Location loc, StringRef format, ValueRange args) {
  ModuleOp module = enclosingModule(b);
  MLIRContext *ctx = b.getContext();
  auto ptr = LLVM::LLVMPointerType::get(ctx);
  auto vprintf = declareFunction(module, "vprintf",
                                 LLVM::LLVMFunctionType::get(b.getI32Type(), {ptr, ptr}));
  Value buffer = LLVM::ZeroOp::create(b, loc, ptr);
  if (!args.empty()) {
    // vprintf reads its arguments from a buffer laid out like a struct of
    // them: each at its natural alignment, as CUDA C++ builds it. The
    // buffer is an alloca in the entry block, so a print in a loop does not
    // grow the stack.
    SmallVector<Type> fields;
    for (Value v : args)
      fields.push_back(v.getType());
    auto structType = LLVM::LLVMStructType::getLiteral(ctx, fields);
    {
      OpBuilder::InsertionGuard guard(b);
      Block &entry = b.getInsertionBlock()->getParent()->front();
      b.setInsertionPointToStart(&entry);
      buffer = LLVM::AllocaOp::create(b, loc, ptr, structType, i32Const(b, loc, 1),
                                      /*alignment=*/8);
    }
    for (auto [i, v] : llvm::enumerate(args)) {
      Value slot = LLVM::GEPOp::create(b, loc, ptr, structType, buffer,
                                       ArrayRef<LLVM::GEPArg>{0, static_cast<int32_t>(i)});
      LLVM::StoreOp::create(b, loc, v, slot);
    }
  }
  Value operands[] = {globalString(b, loc, module, format), buffer};
  LLVM::CallOp::create(b, loc, vprintf, operands);
}

/// `__hd_assert(i1 ok, ptr message)`: where !ok, calls CUDA's __assertfail
/// (which prints the message with the failing block and thread and stops
/// the kernel: the launch then fails with CUDA_ERROR_ASSERT), then traps.
/// Defined before lowering because a conversion pattern must not split
/// blocks behind the rewriter's back.
void NvidiaHooks::defineAssertHelper(Block &entry) {
  auto module = entry.getParentOp()->getParentOfType<ModuleOp>();
  if (module.lookupSymbol<LLVM::LLVMFuncOp>(kAssertHelper))
    return;
  MLIRContext *ctx = module.getContext();
  Location loc = module.getLoc();
  auto ptr = LLVM::LLVMPointerType::get(ctx);
  auto voidType = LLVM::LLVMVoidType::get(ctx);
  auto i32 = IntegerType::get(ctx, 32);
  auto i64 = IntegerType::get(ctx, 64);
  auto assertfail = declareFunction(
      module, "__assertfail", LLVM::LLVMFunctionType::get(voidType, {ptr, ptr, i32, ptr, i64}));
  OpBuilder b = OpBuilder::atBlockEnd(module.getBody());
  auto func = LLVM::LLVMFuncOp::create(
      b, loc, kAssertHelper,
      LLVM::LLVMFunctionType::get(voidType, {IntegerType::get(ctx, 1), ptr}),
      LLVM::Linkage::Internal);
  Block *body = func.addEntryBlock(b);
  Block *failed = b.createBlock(&func.getBody());
  Block *done = b.createBlock(&func.getBody());
  b.setInsertionPointToEnd(body);
  LLVM::CondBrOp::create(b, loc, body->getArgument(0), done, failed);
  b.setInsertionPointToEnd(failed);
  // The message already names the file and line; file and function stay
  // empty rather than repeating them.
  Value empty = globalString(b, loc, module, "");
  Value operands[] = {body->getArgument(1), empty,
                      LLVM::ConstantOp::create(b, loc, i32, b.getI32IntegerAttr(0)), empty,
                      LLVM::ConstantOp::create(b, loc, i64, b.getI64IntegerAttr(1))};
  LLVM::CallOp::create(b, loc, assertfail, operands);
  LLVM::Trap::create(b, loc);
  LLVM::UnreachableOp::create(b, loc);
  b.setInsertionPointToEnd(done);
  LLVM::ReturnOp::create(b, loc, ValueRange{});
}

void NvidiaHooks::assertTrue(OpBuilder &b, Location loc, Value condition, StringRef message) {
  ModuleOp module = enclosingModule(b);
  auto check = module.lookupSymbol<LLVM::LLVMFuncOp>(kAssertHelper);
  LLVM::CallOp::create(b, loc, check,
                       ValueRange{condition, globalString(b, loc, module, message)});
}

/// PTX with side effects (it touches memory the compiler does not see).
void inlinePtx(OpBuilder &b, Location loc, StringRef text, StringRef constraints,
               ValueRange operands) {
  LLVM::InlineAsmOp::create(b, loc, TypeRange{}, operands, text, constraints,
                            /*has_side_effects=*/true, /*is_align_stack=*/false,
                            LLVM::tailcallkind::TailCallKind::None,
                            LLVM::AsmDialectAttr::get(b.getContext(), LLVM::AsmDialect::AD_ATT),
                            ArrayAttr());
}


// past src-size, which is 0 where the copy is masked off.
unsigned NvidiaHooks::asyncCopyBytes() const { return 16; }

void NvidiaHooks::asyncCopy(OpBuilder &b, Location loc, Value shared, Value global,
                            unsigned bytes, Value valid) {
  Value dst = LLVM::PtrToIntOp::create(b, loc, b.getI64Type(), shared);
  Value src = LLVM::PtrToIntOp::create(b, loc, b.getI64Type(), global);
  Value size = i32Const(b, loc, bytes);
  if (valid)
    size = LLVM::SelectOp::create(b, loc, valid, size, i32Const(b, loc, 0));
  // .cg (L2 only) takes 16 bytes; smaller copies go through L1 (.ca).
  std::string text = std::string(bytes == 16 ? "cp.async.cg" : "cp.async.ca") +
                     ".shared.global [$0], [$1], " + std::to_string(bytes) + ", $2;";
  inlinePtx(b, loc, text, "l,l,r", {dst, src, size});
}

// ldmatrix (sm_75+): four 8x8 b16 matrices per warp.
SmallVector<Value> NvidiaHooks::loadMatrices(OpBuilder &b, Location loc, Value row,
                                             bool transpose) {
  Value addr = LLVM::PtrToIntOp::create(b, loc, b.getI64Type(), row);
  Type i32 = b.getI32Type();
  auto resultType = LLVM::LLVMStructType::getLiteral(b.getContext(), {i32, i32, i32, i32});
  std::string text = std::string("ldmatrix.sync.aligned.m8n8.x4") + (transpose ? ".trans" : "") +
                     ".shared.b16 {$0, $1, $2, $3}, [$4];";
  auto asmOp = LLVM::InlineAsmOp::create(
      b, loc, resultType, ValueRange{addr}, text, "=r,=r,=r,=r,l", /*has_side_effects=*/true,
      /*is_align_stack=*/false, LLVM::tailcallkind::TailCallKind::None,
      LLVM::AsmDialectAttr::get(b.getContext(), LLVM::AsmDialect::AD_ATT), ArrayAttr());
  SmallVector<Value> words;
  for (int64_t i = 0; i < 4; ++i)
    words.push_back(LLVM::ExtractValueOp::create(b, loc, asmOp.getResult(0), i));
  return words;
}

void NvidiaHooks::asyncCommitGroup(OpBuilder &b, Location loc) {
  inlinePtx(b, loc, "cp.async.commit_group;", "", {});
}

void NvidiaHooks::asyncWait(OpBuilder &b, Location loc, unsigned pending) {
  // Where the module's dots read shared memory through the matrix unit
  // (wgmma, sm_90a: the async proxy), each thread fences the copies it
  // waited for before the barrier that publishes them.
  std::string text = "cp.async.wait_group " + std::to_string(pending) + ";";
  if (sharedMatrixReads)
    text += "\nfence.proxy.async.shared::cta;";
  inlinePtx(b, loc, text, "", {});
}

namespace {

/// The operands of an mma.sync as its PTX names them: 32-bit registers, each
/// holding 32 / width consecutive elements of the fragment (.f16x2, .bf16x2,
/// four s8), or one f32 / s32.
SmallVector<Value> packWords(OpBuilder &b, Location loc, ValueRange elems) {
  SmallVector<Value> words;
  Type elem = elems.front().getType();
  unsigned width = elem.getIntOrFloatBitWidth();
  if (width == 32) {
    for (Value v : elems)
      words.push_back(isa<FloatType>(elem) ? LLVM::BitcastOp::create(b, loc, b.getI32Type(), v)
                                           : v);
    return words;
  }
  unsigned perWord = 32 / width;
  auto vecType = VectorType::get({int64_t(perWord)}, elem);
  for (size_t i = 0; i < elems.size(); i += perWord) {
    Value vec = LLVM::PoisonOp::create(b, loc, vecType);
    for (unsigned j = 0; j < perWord; ++j)
      vec = LLVM::InsertElementOp::create(b, loc, vec, elems[i + j], i32Const(b, loc, j));
    words.push_back(LLVM::BitcastOp::create(b, loc, b.getI32Type(), vec));
  }
  return words;
}

} // namespace

Result<NamedMatrixInstr> NvidiaHooks::usableMatrixInstr(StringRef name) const {
  Result<NamedMatrixInstr> named = parseMatrixInstrName(std::string_view(name.data(), name.size()));
  if (!named)
    return named;
  const MatrixInstr *instr = named->instr;
  bool available = false;
  for (const MatrixInstr *m : matrixInstructions(arch))
    available |= m == instr;
  if (!available)
    return Error("matrix instruction \"" + name.str() + "\" needs " +
                 (instr->needsArchSpecific ? "the arch-specific sm_" : "sm_") +
                 std::to_string(instr->minComputeCapability) +
                 (instr->needsArchSpecific ? "a" : "") + "; the kernel is compiled for " +
                 arch.arch);
  return named;
}

Result<SmallVector<Value>> NvidiaHooks::matrixMultiplyAccumulate(OpBuilder &b, Location loc,
                                                                 StringRef name, ValueRange a,
                                                                 ValueRange bOperand,
                                                                 ValueRange c) {
  Result<NamedMatrixInstr> named = usableMatrixInstr(name);
  if (!named)
    return Error(named.error());
  const MatrixInstr *instr = named->instr;
  if (instr->family != MatrixFamily::MmaSync)
    return Error("matrix instruction \"" + name.str() +
                 "\" is issued by a warpgroup from shared memory; hd.dot on registers "
                 "takes warp-level instructions (mma.*)");
  if (a.empty() || bOperand.empty() || c.empty())
    return Error("matrix instruction \"" + name.str() + "\" got an empty fragment");
  SmallVector<Value> aWords = packWords(b, loc, a), bWords = packWords(b, loc, bOperand);
  Type accType = c.front().getType();
  bool floatAcc = isa<FloatType>(accType);
  // "{$0..}, {A}, {B}, {C}": the accumulator inputs are tied to the outputs.
  std::string text = std::string(instr->ptx) + " {";
  std::string constraints;
  unsigned next = 0;
  auto list = [&](size_t count, const char *constraint) {
    for (size_t i = 0; i < count; ++i) {
      text += (i ? ", $" : "$") + std::to_string(next++);
      constraints += (constraints.empty() ? "" : ",") + std::string(constraint);
    }
  };
  list(c.size(), floatAcc ? "=f" : "=r");
  text += "}, {";
  list(aWords.size(), "r");
  text += "}, {";
  list(bWords.size(), "r");
  text += "}, {";
  for (size_t i = 0; i < c.size(); ++i) {
    text += (i ? ", $" : "$") + std::to_string(next++);
    constraints += "," + std::to_string(i);
  }
  text += "};";
  SmallVector<Value> operands(aWords);
  operands.append(bWords);
  operands.append(c.begin(), c.end());
  SmallVector<Type> fields(c.size(), accType);
  auto resultType = LLVM::LLVMStructType::getLiteral(b.getContext(), fields);
  auto asmOp = LLVM::InlineAsmOp::create(
      b, loc, resultType, operands, text, constraints, /*has_side_effects=*/false,
      /*is_align_stack=*/false, LLVM::tailcallkind::TailCallKind::None,
      LLVM::AsmDialectAttr::get(b.getContext(), LLVM::AsmDialect::AD_ATT), ArrayAttr());
  SmallVector<Value> d;
  for (size_t i = 0; i < c.size(); ++i)
    d.push_back(LLVM::ExtractValueOp::create(b, loc, asmOp.getResult(0), i));
  return d;
}

/// The f32 approximations Triton's NVIDIA back end emits: ex2.approx,
/// lg2.approx, rsqrt.approx and div.full (full range, unlike div.approx).
/// exp and exp2 are ex2.approx.ftz, the special-function unit's instruction
/// alone, as Triton's exp2 (libdevice's with ftz reflection) and CUDA's
/// fast math have it: without .ftz ptxas wraps each one in a compare and
/// two predicated multiplies to reach subnormal results, which triples the
/// instructions a softmax issues per exponential; results below 2^-126 are
/// +0 instead. The others keep subnormals. exp and log go through base 2:
/// exp(x) = 2^(x log2 e), log(x) = log2(x) ln 2. docs/ir.md ("Fast math")
/// gives their error bounds.
Value NvidiaHooks::approximateMath(OpBuilder &b, Location loc, ApproxFunction fn,
                                   ValueRange operands) {
  Type f32 = b.getF32Type();
  auto call = [&](StringRef intrinsic, ValueRange args) -> Value {
    return LLVM::CallIntrinsicOp::create(b, loc, f32, b.getStringAttr(intrinsic), args)
        .getResult(0);
  };
  auto scale = [&](Value v, double factor) -> Value {
    Value c = LLVM::ConstantOp::create(b, loc, f32, b.getF32FloatAttr(factor));
    return LLVM::FMulOp::create(b, loc, v, c);
  };
  auto compute = [&](ValueRange args) -> Value {
    switch (fn) {
    case ApproxFunction::Exp:
      return call("llvm.nvvm.ex2.approx.ftz.f32", scale(args[0], llvm::numbers::log2e));
    case ApproxFunction::Exp2:
      return call("llvm.nvvm.ex2.approx.ftz.f32", args[0]);
    case ApproxFunction::Log:
      return scale(call("llvm.nvvm.lg2.approx.f", args[0]), llvm::numbers::ln2);
    case ApproxFunction::Rsqrt:
      return call("llvm.nvvm.rsqrt.approx.f", args[0]);
    case ApproxFunction::Div:
      return call("llvm.nvvm.div.full", args);
    }
    llvm_unreachable("every approximate function is handled");
  };
  auto vectorType = dyn_cast<VectorType>(operands[0].getType());
  if (!vectorType)
    return compute(operands);
  // The instructions take scalars: one per register.
  Value result = LLVM::PoisonOp::create(b, loc, vectorType);
  for (int64_t i = 0; i < vectorType.getNumElements(); ++i) {
    Value index = i32Const(b, loc, i);
    SmallVector<Value, 2> lanes;
    for (Value v : operands)
      lanes.push_back(LLVM::ExtractElementOp::create(b, loc, v, index));
    result = LLVM::InsertElementOp::create(b, loc, result, compute(lanes), index);
  }
  return result;
}

} // namespace hadron::nvidia

namespace hadron::nvidia {

// wgmma (sm_90a): a warpgroup multiplies A and B read from shared memory
// through 64-bit matrix descriptors (PTX ISA, "Matrix Descriptor Format"):
// bits 0..13 the start address >> 4, 16..29 the leading byte offset >> 4,
// 32..45 the stride byte offset >> 4, 62..63 the swizzle mode. The layout
// fields come from the operand's byte offsets (matrixDescriptorLayout).
Result<SmallVector<Value>>
NvidiaHooks::matrixMultiplyAccumulateShared(OpBuilder &b, Location loc, StringRef name,
                                            const SharedMatrixOperand &a,
                                            const SharedMatrixOperand &bOperand, ValueRange c) {
  Result<NamedMatrixInstr> named = usableMatrixInstr(name);
  if (!named)
    return Error(named.error());
  const MatrixInstr *instr = named->instr;
  if (instr->family != MatrixFamily::Wgmma)
    return Error("matrix instruction \"" + name.str() +
                 "\" is issued by one warp from registers; a dot reading shared memory takes "
                 "warpgroup instructions (wgmma.*)");
  unsigned n = named->n;
  if (c.size() != size_t(n) / 2)
    return Error("matrix instruction \"" + name.str() + "\" has " + std::to_string(n / 2) +
                 " accumulator registers per thread, got " + std::to_string(c.size()));
  Value descs[2];
  bool mnMajor[2] = {false, false};
  const SharedMatrixOperand *ops[2] = {&a, &bOperand};
  // A from registers: the warp's A fragment (the mma.sync one), packed in
  // 32-bit words.
  const bool aRegs = a.inRegisters();
  SmallVector<Value> aWords;
  if (aRegs) {
    aWords = packWords(b, loc, a.registers);
    unsigned elemBits = a.registers.front().getType().getIntOrFloatBitWidth();
    size_t want = size_t(instr->m) * instr->k * elemBits / 32 / 128;
    if (aWords.size() != want)
      return Error("matrix instruction \"" + name.str() + "\" takes A in " +
                   std::to_string(want) + " 32-bit registers per thread, got " +
                   std::to_string(aWords.size()));
    if (bOperand.inRegisters() || !bOperand.address)
      return Error("matrix instruction \"" + name.str() + "\" reads B from shared memory");
  }
  for (int i = aRegs ? 1 : 0; i < 2; ++i) {
    Result<MatrixDescriptorLayout> layout =
        matrixDescriptorLayout(ops[i]->byteOffsets, i == 0, ops[i]->elementBits);
    if (!layout)
      return Error("\"" + name.str() + "\": " + layout.error());
    mnMajor[i] = layout->mnMajor;
    // The start address: the shared-window address (18 bits), in 16 bytes.
    Value addr = LLVM::PtrToIntOp::create(b, loc, b.getI32Type(), ops[i]->address);
    addr = LLVM::AndOp::create(b, loc, addr, i32Const(b, loc, 0x3FFFF));
    addr = LLVM::LShrOp::create(b, loc, addr, i32Const(b, loc, 4));
    Value wide = LLVM::ZExtOp::create(b, loc, b.getI64Type(), addr);
    Value fields = LLVM::ConstantOp::create(b, loc, b.getI64Type(),
                                            b.getI64IntegerAttr(int64_t(layout->fields())));
    descs[i] = LLVM::OrOp::create(b, loc, wide, fields);
  }
  std::string ptx = instr->ptx;
  size_t at = ptx.find("nN");
  if (at != std::string::npos)
    ptx.replace(at, 2, "n" + std::to_string(n));
  Type accType = c.front().getType();
  bool floatAcc = isa<FloatType>(accType);
  // "{$0..}, descA, descB, p, ...": the accumulator inputs are tied to the
  // outputs; scale-d = 1 (accumulate). The transpose immediates exist for
  // 16-bit inputs only; s8 takes no scale immediates either.
  // Operands: the accumulator outputs, then A (a descriptor or its words),
  // B's descriptor, the accumulator inputs and the scale-d predicate.
  const size_t aCount = aRegs ? aWords.size() : 1;
  const size_t pred = 2 * c.size() + aCount + 1;
  std::string text = "{\n.reg .pred p;\nsetp.ne.b32 p, $" + std::to_string(pred) + ", 0;\n" +
                     ptx + " {";
  std::string constraints;
  for (size_t i = 0; i < c.size(); ++i) {
    text += (i ? ", $" : "$") + std::to_string(i);
    constraints += (i ? "," : "") + std::string(floatAcc ? "=f" : "=r");
  }
  text += "}, ";
  if (aRegs) {
    text += "{";
    for (size_t i = 0; i < aCount; ++i)
      text += (i ? ", $" : "$") + std::to_string(c.size() + i);
    text += "}";
  } else {
    text += "$" + std::to_string(c.size());
  }
  text += ", $" + std::to_string(c.size() + aCount) + ", p";
  std::string type = instr->aType;
  // The transpose immediates exist for 16-bit inputs only, and A from
  // registers has none.
  if (type == "f16" || type == "bf16")
    text += aRegs ? std::string(", 1, 1, ") + (mnMajor[1] ? "1" : "0")
                  : std::string(", 1, 1, ") + (mnMajor[0] ? "1" : "0") + ", " +
                        (mnMajor[1] ? "1" : "0");
  else if (type == "tf32")
    text += ", 1, 1";
  text += ";\n}";
  constraints += aRegs ? std::string() : std::string(",l");
  for (size_t i = 0; aRegs && i < aCount; ++i)
    constraints += ",r";
  constraints += ",l";
  for (size_t i = 0; i < c.size(); ++i)
    constraints += "," + std::to_string(i);
  constraints += ",r";
  SmallVector<Value> operands;
  if (aRegs)
    operands.append(aWords.begin(), aWords.end());
  else
    operands.push_back(descs[0]);
  operands.push_back(descs[1]);
  operands.append(c.begin(), c.end());
  operands.push_back(i32Const(b, loc, 1));
  SmallVector<Type> fieldsTypes(c.size(), accType);
  auto resultType = LLVM::LLVMStructType::getLiteral(b.getContext(), fieldsTypes);
  // Side effects keep it between the fence and the commit/wait around it.
  auto asmOp = LLVM::InlineAsmOp::create(
      b, loc, resultType, operands, text, constraints, /*has_side_effects=*/true,
      /*is_align_stack=*/false, LLVM::tailcallkind::TailCallKind::None,
      LLVM::AsmDialectAttr::get(b.getContext(), LLVM::AsmDialect::AD_ATT), ArrayAttr());
  SmallVector<Value> d;
  for (size_t i = 0; i < c.size(); ++i)
    d.push_back(LLVM::ExtractValueOp::create(b, loc, asmOp.getResult(0), i));
  return d;
}

// Shared memory written through the generic proxy (st.shared, cp.async) is
// made visible to the async proxy the matrix unit reads through, then the
// warpgroup's register writes are ordered before its wgmma.
void NvidiaHooks::beginSharedMatrixGroup(OpBuilder &b, Location loc) {
  inlinePtx(b, loc, "fence.proxy.async.shared::cta;\nwgmma.fence.sync.aligned;", "", {});
}

namespace {
/// `text` with `values` passed through as tied operands: what reads them
/// afterwards is ordered after the instruction.
SmallVector<Value> throughAsm(OpBuilder &b, Location loc, StringRef text, ValueRange values) {
  if (values.empty()) {
    inlinePtx(b, loc, text, "", {});
    return {};
  }
  std::string constraints;
  SmallVector<Type> types;
  for (size_t i = 0; i < values.size(); ++i) {
    Type t = values[i].getType();
    unsigned width = t.getIntOrFloatBitWidth();
    const char *c = width == 64 ? (isa<FloatType>(t) ? "=d" : "=l")
                    : width == 16 ? "=h"
                    : isa<FloatType>(t) ? "=f"
                                        : "=r";
    constraints += (i ? "," : "") + std::string(c);
    types.push_back(t);
  }
  for (size_t i = 0; i < values.size(); ++i)
    constraints += "," + std::to_string(i);
  auto resultType = LLVM::LLVMStructType::getLiteral(b.getContext(), types);
  auto asmOp = LLVM::InlineAsmOp::create(
      b, loc, resultType, values, text, constraints, /*has_side_effects=*/true,
      /*is_align_stack=*/false, LLVM::tailcallkind::TailCallKind::None,
      LLVM::AsmDialectAttr::get(b.getContext(), LLVM::AsmDialect::AD_ATT), ArrayAttr());
  SmallVector<Value> out;
  for (size_t i = 0; i < values.size(); ++i)
    out.push_back(LLVM::ExtractValueOp::create(b, loc, asmOp.getResult(0), i));
  return out;
}
} // namespace

// One group for the dot's wgmma ops; a synchronous dot waits for it at
// once. The accumulator registers pass through, so that nothing reads them
// before the wait.
SmallVector<Value> NvidiaHooks::endSharedMatrixGroup(OpBuilder &b, Location loc, ValueRange acc,
                                                     bool wait) {
  return throughAsm(b, loc,
                    wait ? "wgmma.commit_group.sync.aligned;\nwgmma.wait_group.sync.aligned 0;"
                         : "wgmma.commit_group.sync.aligned;",
                    acc);
}

SmallVector<Value> NvidiaHooks::waitSharedMatrixGroups(OpBuilder &b, Location loc,
                                                       unsigned pending, ValueRange values) {
  // Without wgmma every dot completed when it ended (FMA or mma.sync).
  bool hasGroups = false;
  for (const MatrixInstr *m : matrixInstructions(arch))
    hasGroups |= m->family == MatrixFamily::Wgmma;
  if (!hasGroups)
    return SmallVector<Value>(values.begin(), values.end());
  return throughAsm(b, loc, "wgmma.wait_group.sync.aligned " + std::to_string(pending) + ";",
                    values);
}

} // namespace hadron::nvidia
