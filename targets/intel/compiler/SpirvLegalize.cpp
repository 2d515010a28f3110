//===- SpirvLegalize.cpp - LLVM IR the SPIR-V backend can take ------------===//

#include "SpirvLegalize.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/PostOrderIterator.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Transforms/Scalar/DCE.h"
#include "llvm/Transforms/Scalar/EarlyCSE.h"
#include "llvm/Transforms/Scalar/Scalarizer.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Analysis/Utils/Local.h"

#include <vector>

using namespace llvm;

namespace hadron::intel {
namespace {

bool isMaskedAccess(Intrinsic::ID id) {
  return id == Intrinsic::masked_load || id == Intrinsic::masked_store ||
         id == Intrinsic::masked_gather || id == Intrinsic::masked_scatter;
}

bool isBoolVectorBitcast(const Instruction &inst) {
  auto *cast = dyn_cast<BitCastInst>(&inst);
  if (!cast)
    return false;
  auto isBoolVector = [](Type *t) {
    auto *v = dyn_cast<VectorType>(t);
    return v && v->getElementType()->isIntegerTy(1);
  };
  return isBoolVector(cast->getSrcTy()) != isBoolVector(cast->getDestTy());
}

bool isPointerVector(Type *t) {
  auto *v = dyn_cast<VectorType>(t);
  return v && v->getElementType()->isPointerTy();
}

bool touchesPointerVectors(const Instruction &inst) {
  if (isPointerVector(inst.getType()))
    return true;
  return llvm::any_of(inst.operands(), [](const Use &u) { return isPointerVector(u->getType()); });
}

/// SPIR-V has no vectors of pointers (OpTypeVector takes scalars), and the
/// backend emits invalid modules or crashes on them; tensors of pointers
/// are such vectors after distribute. Every vector of pointers becomes a
/// vector of pointer-sized integers: GEPs become integer arithmetic, and a
/// pointer leaves the vector by inttoptr of its element.
class PointerVectorRewriter {
public:
  explicit PointerVectorRewriter(Function &f) : f(f), dl(f.getParent()->getDataLayout()) {}

  void run() {
    std::vector<Instruction *> work;
    ReversePostOrderTraversal<Function *> rpo(&f);
    for (BasicBlock *block : rpo)
      for (Instruction &inst : *block)
        if (touchesPointerVectors(inst))
          work.push_back(&inst);
    if (work.empty())
      return;
    // Phis first, so that a loop's back edge finds its value.
    for (Instruction *inst : work)
      if (auto *phi = dyn_cast<PHINode>(inst); phi && isPointerVector(phi->getType())) {
        IRBuilder<> b(phi);
        map[phi] = b.CreatePHI(intType(phi->getType()), phi->getNumIncomingValues());
      }
    for (Instruction *inst : work)
      rewrite(inst);
    for (Instruction *inst : work)
      if (auto *phi = dyn_cast<PHINode>(inst); phi && isPointerVector(phi->getType())) {
        auto *newPhi = cast<PHINode>(map[phi]);
        for (unsigned i = 0; i < phi->getNumIncomingValues(); ++i)
          newPhi->addIncoming(ints(phi->getIncomingValue(i)), phi->getIncomingBlock(i));
      }
    for (auto it = work.rbegin(); it != work.rend(); ++it)
      if (isPointerVector((*it)->getType()) && !llvm::is_contained(keep, *it)) {
        (*it)->replaceAllUsesWith(PoisonValue::get((*it)->getType()));
        (*it)->eraseFromParent();
      }
  }

private:
  Type *intType(Type *ptrVector) { return dl.getIntPtrType(ptrVector); }

  /// The integer vector standing for the pointer vector `v`.
  Value *ints(Value *v) {
    if (auto it = map.find(v); it != map.end())
      return it->second;
    if (auto *c = dyn_cast<Constant>(v)) {
      Value *r = isa<PoisonValue>(c) || isa<UndefValue>(c)
                     ? static_cast<Value *>(PoisonValue::get(intType(c->getType())))
                     : ConstantExpr::getPtrToInt(c, intType(c->getType()));
      map[v] = r;
      return r;
    }
    // An argument or a value this rewrite does not produce (a call's
    // result): converted where it is defined.
    Instruction *at = isa<Argument>(v) ? &*f.getEntryBlock().getFirstInsertionPt()
                                       : cast<Instruction>(v)->getNextNode();
    IRBuilder<> b(at);
    Value *r = b.CreatePtrToInt(v, intType(v->getType()));
    map[v] = r;
    return r;
  }

  /// A scalar pointer's integer.
  Value *scalarInt(IRBuilder<> &b, Value *p) { return b.CreatePtrToInt(p, dl.getIntPtrType(p->getType())); }

  void rewrite(Instruction *inst) {
    IRBuilder<> b(inst);
    Type *type = inst->getType();
    bool producesVector = isPointerVector(type);
    if (auto *phi = dyn_cast<PHINode>(inst); phi && producesVector)
      return;
    if (auto *gep = dyn_cast<GetElementPtrInst>(inst); gep && producesVector) {
      Type *it = intType(type);
      Value *base = gep->getPointerOperand();
      Value *baseInts = isPointerVector(base->getType())
                            ? ints(base)
                            : b.CreateVectorSplat(cast<VectorType>(it)->getElementCount(),
                                                  scalarInt(b, base));
      Value *offset = emitGEPOffset(&b, dl, gep, /*NoAssumptions=*/true);
      if (!offset->getType()->isVectorTy())
        offset = b.CreateVectorSplat(cast<VectorType>(it)->getElementCount(), offset);
      offset = b.CreateSExtOrTrunc(offset, it);
      map[inst] = b.CreateAdd(baseInts, offset);
      return;
    }
    if (auto *ins = dyn_cast<InsertElementInst>(inst); ins && producesVector) {
      map[inst] = b.CreateInsertElement(ints(ins->getOperand(0)), scalarInt(b, ins->getOperand(1)),
                                        ins->getOperand(2));
      return;
    }
    if (auto *shuffle = dyn_cast<ShuffleVectorInst>(inst); shuffle && producesVector) {
      map[inst] = b.CreateShuffleVector(ints(shuffle->getOperand(0)),
                                        ints(shuffle->getOperand(1)), shuffle->getShuffleMask());
      return;
    }
    if (auto *select = dyn_cast<SelectInst>(inst); select && producesVector) {
      map[inst] = b.CreateSelect(select->getCondition(), ints(select->getTrueValue()),
                                 ints(select->getFalseValue()));
      return;
    }
    if (auto *cast = dyn_cast<IntToPtrInst>(inst); cast && producesVector) {
      map[inst] = b.CreateZExtOrTrunc(cast->getOperand(0), intType(type));
      return;
    }
    if (auto *ext = dyn_cast<ExtractElementInst>(inst)) {
      Value *i = b.CreateExtractElement(ints(ext->getVectorOperand()), ext->getIndexOperand());
      inst->replaceAllUsesWith(b.CreateIntToPtr(i, type));
      inst->eraseFromParent();
      return;
    }
    if (auto *cast = dyn_cast<PtrToIntInst>(inst)) {
      inst->replaceAllUsesWith(b.CreateZExtOrTrunc(ints(cast->getOperand(0)), type));
      inst->eraseFromParent();
      return;
    }
    if (auto *cmp = dyn_cast<ICmpInst>(inst)) {
      inst->replaceAllUsesWith(
          b.CreateICmp(cmp->getPredicate(), ints(cmp->getOperand(0)), ints(cmp->getOperand(1))));
      inst->eraseFromParent();
      return;
    }
    if (producesVector) {
      // Anything else making a pointer vector (a call, a load): its result
      // is converted where it is defined.
      ints(inst);
      keep.push_back(inst);
      return;
    }
    // A use the rewrite does not know (a store of a pointer vector, a
    // call taking one): gets the pointers back.
    for (Use &u : inst->operands())
      if (isPointerVector(u->getType()))
        u.set(b.CreateIntToPtr(ints(u.get()), u->getType()));
  }

  Function &f;
  const DataLayout &dl;
  DenseMap<Value *, Value *> map;
  std::vector<Instruction *> keep;
};

/// A masked access as a branch: where every lane of the mask is set (the
/// common case: all but a tile's tail), the access as one vector (so that
/// 16-byte accesses stay one instruction); otherwise one conditional access
/// per element. Loads and gathers collect their elements through phis,
/// starting from the pass-through value.
void expandMaskedAccess(IntrinsicInst *call) {
  Intrinsic::ID id = call->getIntrinsicID();
  bool isLoad = id == Intrinsic::masked_load || id == Intrinsic::masked_gather;
  bool isVectorOfPointers = id == Intrinsic::masked_gather || id == Intrinsic::masked_scatter;
  Value *data = isLoad ? nullptr : call->getArgOperand(0);
  Value *ptr = call->getArgOperand(isLoad ? 0 : 1);
  Value *mask = call->getArgOperand(isLoad ? 1 : 2);
  Value *passThrough = isLoad ? call->getArgOperand(2) : nullptr;
  auto *vecType = cast<FixedVectorType>(isLoad ? call->getType() : data->getType());
  Type *elemType = vecType->getElementType();
  MaybeAlign paramAlign = call->getParamAlign(isLoad ? 0 : 1);
  const DataLayout &dl = call->getModule()->getDataLayout();
  Align vectorAlign = paramAlign.valueOrOne();
  Align elemAlign = isVectorOfPointers
                        ? vectorAlign
                        : commonAlignment(vectorAlign, dl.getTypeStoreSize(elemType));

  Instruction *join = call;
  Value *whole = nullptr;
  BasicBlock *wholeBlock = nullptr, *partBlock = nullptr;
  Instruction *partTerm = call;
  if (!isVectorOfPointers) {
    // if (all lanes) { vector access } else { per element }
    IRBuilder<> b(call);
    // Not llvm.vector.reduce.and: the backend expands it into a bitcast of
    // the i1 vector, which it then cannot select.
    Value *all = b.CreateExtractElement(mask, b.getInt32(0));
    for (unsigned i = 1; i < vecType->getNumElements(); ++i)
      all = b.CreateAnd(all, b.CreateExtractElement(mask, b.getInt32(i)));
    Instruction *thenTerm = nullptr, *elseTerm = nullptr;
    SplitBlockAndInsertIfThenElse(all, call->getIterator(), &thenTerm, &elseTerm);
    b.SetInsertPoint(thenTerm);
    if (isLoad)
      whole = b.CreateAlignedLoad(vecType, ptr, vectorAlign);
    else
      b.CreateAlignedStore(data, ptr, vectorAlign);
    wholeBlock = thenTerm->getParent();
    partTerm = elseTerm;
  }
  Value *result = passThrough;
  for (unsigned i = 0, n = vecType->getNumElements(); i < n; ++i) {
    IRBuilder<> b(partTerm);
    Value *bit = b.CreateExtractElement(mask, b.getInt32(i));
    BasicBlock *before = partTerm->getParent();
    Instruction *thenTerm = SplitBlockAndInsertIfThen(bit, partTerm->getIterator(), false);
    BasicBlock *thenBlock = thenTerm->getParent();
    b.SetInsertPoint(thenTerm);
    Value *address = isVectorOfPointers ? b.CreateExtractElement(ptr, b.getInt32(i))
                                        : b.CreateConstInBoundsGEP1_32(elemType, ptr, i);
    if (isLoad) {
      Value *elem = b.CreateAlignedLoad(elemType, address, elemAlign);
      Value *inserted = b.CreateInsertElement(result, elem, b.getInt32(i));
      b.SetInsertPoint(partTerm);
      PHINode *phi = b.CreatePHI(vecType, 2);
      phi->addIncoming(inserted, thenBlock);
      phi->addIncoming(result, before);
      result = phi;
    } else {
      b.CreateAlignedStore(b.CreateExtractElement(data, b.getInt32(i)), address, elemAlign);
    }
  }
  partBlock = partTerm->getParent();
  if (isLoad && whole) {
    IRBuilder<> b(join);
    PHINode *phi = b.CreatePHI(vecType, 2);
    phi->addIncoming(whole, wholeBlock);
    phi->addIncoming(result, partBlock);
    result = phi;
  }
  if (isLoad)
    call->replaceAllUsesWith(result);
  call->eraseFromParent();
}

/// <N x i1> -> iN: bit i is element i; iN -> <N x i1> the reverse.
void expandBoolVectorBitcast(BitCastInst *bitcast) {
  IRBuilder<> b(bitcast);
  Value *src = bitcast->getOperand(0);
  Value *out;
  if (auto *vec = dyn_cast<FixedVectorType>(src->getType())) {
    Type *intType = bitcast->getDestTy();
    out = ConstantInt::get(intType, 0);
    for (unsigned i = 0; i < vec->getNumElements(); ++i) {
      Value *bit = b.CreateZExt(b.CreateExtractElement(src, b.getInt32(i)), intType);
      out = b.CreateOr(out, b.CreateShl(bit, i));
    }
  } else {
    auto *boolVec = cast<FixedVectorType>(bitcast->getDestTy());
    out = PoisonValue::get(boolVec);
    for (unsigned i = 0; i < boolVec->getNumElements(); ++i) {
      Value *bit = b.CreateTrunc(b.CreateLShr(src, i), b.getInt1Ty());
      out = b.CreateInsertElement(out, bit, b.getInt32(i));
    }
  }
  bitcast->replaceAllUsesWith(out);
  bitcast->eraseFromParent();
}

} // namespace

/// llvm.maximum/minimum propagate NaN and order -0 below +0; the backend
/// maps them to OpenCL's fmax/fmin, which do neither. NaN operands are
/// selected first, and equal operands (+0 and -0 are equal) combine their
/// bits: AND for the maximum (+0 wins), OR for the minimum (-0 wins).
void expandIeeeMinMax(IntrinsicInst *call) {
  bool isMax = call->getIntrinsicID() == Intrinsic::maximum;
  IRBuilder<> b(call);
  Value *x = call->getArgOperand(0), *y = call->getArgOperand(1);
  Type *type = call->getType();
  Value *r = b.CreateBinaryIntrinsic(isMax ? Intrinsic::maxnum : Intrinsic::minnum, x, y);
  Type *bits = type->getWithNewType(b.getIntNTy(type->getScalarSizeInBits()));
  Value *xi = b.CreateBitCast(x, bits), *yi = b.CreateBitCast(y, bits);
  Value *combined = b.CreateBitCast(isMax ? b.CreateAnd(xi, yi) : b.CreateOr(xi, yi), type);
  r = b.CreateSelect(b.CreateFCmpOEQ(x, y), combined, r);
  r = b.CreateSelect(b.CreateFCmpUNO(y, y), y, r);
  r = b.CreateSelect(b.CreateFCmpUNO(x, x), x, r);
  call->replaceAllUsesWith(r);
  call->eraseFromParent();
}

bool isSingleElementVector(Type *t) {
  auto *v = dyn_cast<FixedVectorType>(t);
  return v && v->getNumElements() == 1;
}

/// SPIR-V vectors have 2 to 16 components. Loads and stores of <1 x T>,
/// which the scalarizer keeps as they are, become accesses of T (the
/// insert/extract around them fold away after scalarization).
void scalarizeSingleElementAccesses(Function &f) {
  std::vector<Instruction *> accesses;
  for (BasicBlock &block : f)
    for (Instruction &inst : block)
      if ((isa<LoadInst>(inst) && isSingleElementVector(inst.getType())) ||
          (isa<StoreInst>(inst) &&
           isSingleElementVector(cast<StoreInst>(inst).getValueOperand()->getType())))
        accesses.push_back(&inst);
  for (Instruction *inst : accesses) {
    IRBuilder<> b(inst);
    if (auto *load = dyn_cast<LoadInst>(inst)) {
      Type *elem = cast<FixedVectorType>(load->getType())->getElementType();
      LoadInst *scalar = b.CreateAlignedLoad(elem, load->getPointerOperand(), load->getAlign(),
                                             load->isVolatile());
      load->replaceAllUsesWith(
          b.CreateInsertElement(PoisonValue::get(load->getType()), scalar, b.getInt32(0)));
    } else {
      auto *store = cast<StoreInst>(inst);
      b.CreateAlignedStore(b.CreateExtractElement(store->getValueOperand(), b.getInt32(0)),
                           store->getPointerOperand(), store->getAlign(), store->isVolatile());
    }
    inst->eraseFromParent();
  }
}

bool isBoolVectorReduction(const IntrinsicInst &call) {
  Intrinsic::ID id = call.getIntrinsicID();
  if (id != Intrinsic::vector_reduce_and && id != Intrinsic::vector_reduce_or &&
      id != Intrinsic::vector_reduce_xor)
    return false;
  auto *v = dyn_cast<FixedVectorType>(call.getArgOperand(0)->getType());
  return v && v->getElementType()->isIntegerTy(1);
}

/// and/or/xor over an i1 vector as a chain of scalar operations (the
/// backend would bitcast the vector to an integer, which it cannot select).
void expandBoolVectorReduction(IntrinsicInst *call) {
  IRBuilder<> b(call);
  Value *v = call->getArgOperand(0);
  unsigned n = cast<FixedVectorType>(v->getType())->getNumElements();
  Value *r = b.CreateExtractElement(v, b.getInt32(0));
  for (unsigned i = 1; i < n; ++i) {
    Value *e = b.CreateExtractElement(v, b.getInt32(i));
    switch (call->getIntrinsicID()) {
    case Intrinsic::vector_reduce_and: r = b.CreateAnd(r, e); break;
    case Intrinsic::vector_reduce_or: r = b.CreateOr(r, e); break;
    default: r = b.CreateXor(r, e); break;
    }
  }
  call->replaceAllUsesWith(r);
  call->eraseFromParent();
}

void scalarizeVectorOps(Module &module) {
  LoopAnalysisManager lam;
  FunctionAnalysisManager fam;
  CGSCCAnalysisManager cgam;
  ModuleAnalysisManager mam;
  PassBuilder pb;
  pb.registerModuleAnalyses(mam);
  pb.registerCGSCCAnalyses(cgam);
  pb.registerFunctionAnalyses(fam);
  pb.registerLoopAnalyses(lam);
  pb.crossRegisterProxies(lam, fam, cgam, mam);
  FunctionPassManager fpm;
  // Loads and stores keep their vectors: they are at most 16 bytes (the
  // hooks' maxVectorBytes), which SPIR-V has.
  ScalarizerPassOptions options;
  options.ScalarizeLoadStore = false;
  fpm.addPass(ScalarizerPass(options));
  fpm.addPass(EarlyCSEPass());
  fpm.addPass(DCEPass());
  ModulePassManager mpm;
  mpm.addPass(createModuleToFunctionPassAdaptor(std::move(fpm)));
  mpm.run(module, mam);
}

void legalizeForSpirv(Module &module) {
  std::vector<IntrinsicInst *> masked, minMax, reductions;
  for (Function &f : module)
    for (BasicBlock &block : f)
      for (Instruction &inst : block) {
        if (auto *call = dyn_cast<IntrinsicInst>(&inst)) {
          if (isMaskedAccess(call->getIntrinsicID()))
            masked.push_back(call);
          else if (call->getIntrinsicID() == Intrinsic::maximum ||
                   call->getIntrinsicID() == Intrinsic::minimum)
            minMax.push_back(call);
          else if (isBoolVectorReduction(*call))
            reductions.push_back(call);
        }
      }
  for (IntrinsicInst *call : reductions)
    expandBoolVectorReduction(call);
  for (IntrinsicInst *call : minMax)
    expandIeeeMinMax(call);
  for (IntrinsicInst *call : masked)
    expandMaskedAccess(call);
  for (Function &f : module)
    scalarizeSingleElementAccesses(f);
  scalarizeVectorOps(module);
  for (Function &f : module)
    if (!f.isDeclaration())
      PointerVectorRewriter(f).run();
  std::vector<BitCastInst *> casts;
  for (Function &f : module)
    for (BasicBlock &block : f)
      for (Instruction &inst : block)
        if (isBoolVectorBitcast(inst))
          casts.push_back(cast<BitCastInst>(&inst));
  for (BitCastInst *bitcast : casts)
    expandBoolVectorBitcast(bitcast);
}

std::string findUnsupportedForSpirv(const Module &module) {
  for (const Function &f : module)
    for (const BasicBlock &block : f)
      for (const Instruction &inst : block) {
        std::string what;
        if (auto *call = dyn_cast<IntrinsicInst>(&inst); call && isMaskedAccess(call->getIntrinsicID()))
          what = "a masked memory intrinsic";
        else if (isBoolVectorBitcast(inst))
          what = "a bitcast between an i1 vector and an integer";
        else if (isPointerVector(inst.getType()))
          what = "a vector of pointers";
        else if (auto *call = dyn_cast<IntrinsicInst>(&inst); call && isBoolVectorReduction(*call))
          what = "a reduction of an i1 vector";
        if (what.empty())
          continue;
        std::string text;
        raw_string_ostream os(text);
        inst.print(os);
        return what + " in " + f.getName().str() + ":" + text;
      }
  return "";
}

} // namespace hadron::intel
