//===- SplitWideVectors.cpp - Tiles as register-sized chunks --------------===//
//
// The distribute lowering gives a host thread each tile as one LLVM vector
// with a lane per element of the CTA's tile. This rewrite, run on the LLVM IR
// before it is optimised, replaces each such wide value by its chunks of
// `lanes` lanes (one vector register of 32-bit elements): what the back end
// would do during type legalisation, but without building one SelectionDAG
// node per wide shuffle whose mask every combine rescans.
//
// One walk in reverse post-order: an instruction whose operands or result
// are wide is either rewritten per chunk (and dropped at the end) or, when
// this file does not know its lane structure, left alone with its wide
// operands reassembled from their chunks. A wide value that nothing here
// defines (an argument, an unknown call) is cut into chunks where it is
// defined, the first time a rewritten user needs them.
//
//===----------------------------------------------------------------------===//

#include "SplitWideVectors.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/PostOrderIterator.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Analysis/VectorUtils.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace hadron::host {
namespace {

using Chunks = SmallVector<Value *, 0>;

class Splitter {
public:
  Splitter(Function &f, unsigned lanes) : f(f), lanes(lanes), dl(f.getDataLayout()) {}

  void run() {
    ReversePostOrderTraversal<Function *> rpo(&f);
    for (BasicBlock *block : rpo)
      for (Instruction &inst : llvm::make_early_inc_range(*block))
        if (!split(inst))
          reassembleOperands(inst);
    for (auto &[phi, parts] : phiChunks)
      for (auto [value, from] : llvm::zip(phi->incoming_values(), phi->blocks())) {
        const Chunks &in = chunksOf(value);
        for (auto [part, chunk] : llvm::zip(parts, in))
          cast<PHINode>(part)->addIncoming(chunk, from);
      }
    for (Instruction *inst : dead)
      inst->replaceAllUsesWith(PoisonValue::get(inst->getType()));
    for (Instruction *inst : dead)
      inst->eraseFromParent();
  }

private:
  /// A vector this rewrite cuts: more lanes than a chunk, a whole number of
  /// chunks (tiles have a power-of-two number of registers).
  bool isWide(Type *type) const {
    auto *vec = dyn_cast<FixedVectorType>(type);
    return vec && vec->getNumElements() > lanes && vec->getNumElements() % lanes == 0;
  }
  static unsigned lanesOf(Type *type) { return cast<FixedVectorType>(type)->getNumElements(); }
  FixedVectorType *chunkType(Type *wide) const {
    return FixedVectorType::get(cast<VectorType>(wide)->getElementType(), lanes);
  }

  /// Lanes [first, first + count) of `v`, padded with poison to `width`.
  static Value *lanesOfValue(IRBuilder<> &b, Value *v, unsigned first, unsigned count,
                             unsigned width) {
    SmallVector<int> mask(width, PoisonMaskElem);
    for (unsigned i = 0; i < count; ++i)
      mask[i] = int(first + i);
    return b.CreateShuffleVector(v, PoisonValue::get(v->getType()), mask);
  }

  /// The chunks of the wide value `v`.
  const Chunks &chunksOf(Value *v) {
    auto it = chunks.find(v);
    if (it != chunks.end())
      return it->second;
    // Not rewritten here: cut it where it is defined (constants fold).
    IRBuilder<> b(f.getContext());
    if (auto *inst = dyn_cast<Instruction>(v))
      b.SetInsertPoint(isa<PHINode>(inst) ? inst->getParent()->getFirstInsertionPt()
                                          : std::next(inst->getIterator()));
    else
      b.SetInsertPoint(f.getEntryBlock().getFirstInsertionPt());
    Chunks parts;
    for (unsigned first = 0; first < lanesOf(v->getType()); first += lanes)
      parts.push_back(lanesOfValue(b, v, first, lanes, lanes));
    return chunks[v] = std::move(parts);
  }

  /// `v` as one wide value again, for a user this rewrite does not know.
  Value *whole(Value *v) {
    if (!rewritten.contains(v))
      return v;
    auto it = wholes.find(v);
    if (it != wholes.end())
      return it->second;
    auto *inst = cast<Instruction>(v);
    IRBuilder<> b(inst->getParent(), isa<PHINode>(inst)
                                         ? inst->getParent()->getFirstInsertionPt()
                                         : inst->getIterator());
    SmallVector<Value *> parts(chunks[v].begin(), chunks[v].end());
    while (parts.size() > 1) {
      SmallVector<Value *> joined;
      for (size_t i = 0; i < parts.size(); i += 2) {
        SmallVector<int> mask;
        for (unsigned j = 0; j < 2 * lanesOf(parts[i]->getType()); ++j)
          mask.push_back(int(j));
        joined.push_back(b.CreateShuffleVector(parts[i], parts[i + 1], mask));
      }
      parts = std::move(joined);
    }
    return wholes[v] = parts.front();
  }

  void reassembleOperands(Instruction &inst) {
    for (Use &use : inst.operands())
      if (rewritten.contains(use.get()))
        use.set(whole(use.get()));
  }

  void replaceByChunks(Instruction &inst, Chunks parts) {
    chunks[&inst] = std::move(parts);
    rewritten.insert(&inst);
    dead.push_back(&inst);
  }

  /// Every vector operand has the result's lane count `n` (a lane-wise op).
  static bool laneWise(Instruction &inst, unsigned n) {
    return llvm::all_of(inst.operands(), [&](Use &use) {
      auto *vec = dyn_cast<FixedVectorType>(use->getType());
      return !vec || vec->getNumElements() == n;
    });
  }

  bool split(Instruction &inst) {
    Type *type = inst.getType();
    if (auto *phi = dyn_cast<PHINode>(&inst)) {
      if (!isWide(type))
        return false;
      IRBuilder<> b(&inst);
      Chunks parts;
      for (unsigned i = 0; i < lanesOf(type) / lanes; ++i)
        parts.push_back(b.CreatePHI(chunkType(type), phi->getNumIncomingValues()));
      phiChunks.push_back({phi, parts});
      replaceByChunks(inst, std::move(parts));
      return true;
    }
    if (auto *shuffle = dyn_cast<ShuffleVectorInst>(&inst))
      return splitShuffle(*shuffle);
    if (auto *extract = dyn_cast<ExtractElementInst>(&inst)) {
      auto *index = dyn_cast<ConstantInt>(extract->getIndexOperand());
      if (!isWide(extract->getVectorOperandType()) || !index)
        return false;
      uint64_t i = index->getZExtValue();
      IRBuilder<> b(&inst);
      Value *chunk = chunksOf(extract->getVectorOperand())[i / lanes];
      inst.replaceAllUsesWith(b.CreateExtractElement(chunk, b.getInt32(i % lanes)));
      dead.push_back(&inst);
      return true;
    }
    if (auto *insert = dyn_cast<InsertElementInst>(&inst)) {
      auto *index = dyn_cast<ConstantInt>(insert->getOperand(2));
      if (!isWide(type) || !index)
        return false;
      uint64_t i = index->getZExtValue();
      IRBuilder<> b(&inst);
      Chunks parts = chunksOf(insert->getOperand(0));
      parts[i / lanes] =
          b.CreateInsertElement(parts[i / lanes], insert->getOperand(1), b.getInt32(i % lanes));
      replaceByChunks(inst, std::move(parts));
      return true;
    }
    if (auto *load = dyn_cast<LoadInst>(&inst))
      return isWide(type) && splitMemory(inst, type, load->getPointerOperand(), load->getAlign());
    if (auto *store = dyn_cast<StoreInst>(&inst))
      return isWide(store->getValueOperand()->getType()) &&
             splitMemory(inst, store->getValueOperand()->getType(), store->getPointerOperand(),
                         store->getAlign());
    if (auto *call = dyn_cast<IntrinsicInst>(&inst))
      return splitIntrinsic(*call);
    if (isa<BinaryOperator, UnaryOperator, CmpInst, SelectInst, CastInst, FreezeInst,
            GetElementPtrInst>(inst) &&
        isWide(type) && laneWise(inst, lanesOf(type))) {
      Chunks parts;
      for (unsigned c = 0; c < lanesOf(type) / lanes; ++c) {
        Instruction *part = inst.clone();
        for (Use &use : part->operands())
          if (isWide(use->getType()))
            use.set(chunksOf(use.get())[c]);
        part->mutateType(chunkType(type));
        part->insertBefore(inst.getIterator());
        parts.push_back(part);
      }
      replaceByChunks(inst, std::move(parts));
      return true;
    }
    return false;
  }

  /// A wide load or store: one access per chunk at its byte offset.
  bool splitMemory(Instruction &inst, Type *wide, Value *ptr, Align align) {
    Type *element = cast<VectorType>(wide)->getElementType();
    uint64_t bytes = dl.getTypeStoreSize(element);
    if (dl.getTypeSizeInBits(element) != bytes * 8 ||
        dl.getTypeAllocSize(wide) != bytes * lanesOf(wide))
      return false;
    auto *load = dyn_cast<LoadInst>(&inst);
    auto *store = dyn_cast<StoreInst>(&inst);
    if ((load && !load->isSimple()) || (store && !store->isSimple()))
      return false;
    IRBuilder<> b(&inst);
    Chunks parts;
    for (unsigned c = 0; c < lanesOf(wide) / lanes; ++c) {
      uint64_t offset = uint64_t(c) * lanes * bytes;
      Value *at = b.CreateConstInBoundsGEP1_64(b.getInt8Ty(), ptr, offset);
      Align chunkAlign = commonAlignment(align, offset);
      if (load)
        parts.push_back(b.CreateAlignedLoad(chunkType(wide), at, chunkAlign));
      else
        b.CreateAlignedStore(chunksOf(store->getValueOperand())[c], at, chunkAlign);
    }
    if (load)
      replaceByChunks(inst, std::move(parts));
    else
      dead.push_back(&inst);
    return true;
  }

  /// An intrinsic that applies lane by lane (llvm.fmuladd, llvm.smax, ...,
  /// masked gathers and scatters, whose pointers are a vector too): once per
  /// chunk; scalar operands stay as they are.
  bool splitIntrinsic(IntrinsicInst &call) {
    Intrinsic::ID id = call.getIntrinsicID();
    if (!isTriviallyVectorizable(id) && id != Intrinsic::masked_gather &&
        id != Intrinsic::masked_scatter)
      return false;
    // The vector whose lanes the call runs over: the result's, else an operand's.
    Type *type = call.getType();
    Type *wide = type->isVoidTy() ? nullptr : type;
    for (Value *arg : call.args())
      if (!wide && isa<FixedVectorType>(arg->getType()))
        wide = arg->getType();
    if (!wide || !isWide(wide) || !laneWise(call, lanesOf(wide)) ||
        (!type->isVoidTy() && !isa<FixedVectorType>(type)))
      return false;
    IRBuilder<> b(&call);
    Chunks parts;
    for (unsigned c = 0; c < lanesOf(wide) / lanes; ++c) {
      SmallVector<Value *> args;
      SmallVector<Type *> argTypes;
      for (Value *arg : call.args()) {
        args.push_back(isWide(arg->getType()) ? chunksOf(arg)[c] : arg);
        argTypes.push_back(args.back()->getType());
      }
      Type *result = type->isVoidTy() ? type : chunkType(type);
      Function *callee =
          Intrinsic::getOrInsertDeclaration(f.getParent(), id, result, argTypes);
      CallInst *part = b.CreateCall(callee, args);
      part->setAttributes(call.getAttributes());
      if (isa<FPMathOperator>(part))
        part->copyFastMathFlags(&call);
      parts.push_back(part);
    }
    if (type->isVoidTy())
      dead.push_back(&call);
    else
      replaceByChunks(call, std::move(parts));
    return true;
  }

  /// A shuffle reading or making a wide vector: each result chunk is built
  /// from the source chunks its mask reads, two at a time.
  bool splitShuffle(ShuffleVectorInst &shuffle) {
    Type *srcType = shuffle.getOperand(0)->getType();
    unsigned srcLanes = lanesOf(srcType), resultLanes = lanesOf(shuffle.getType());
    bool wideSrc = isWide(srcType), wideResult = isWide(shuffle.getType());
    if ((!wideSrc && !wideResult) || (!wideSrc && srcLanes > lanes) ||
        (!wideResult && resultLanes > lanes))
      return false;
    IRBuilder<> b(&shuffle);
    // Source chunks, both operands in a row; a narrow source is one chunk,
    // padded to `lanes`.
    SmallVector<Value *> sources;
    for (Value *operand : {shuffle.getOperand(0), shuffle.getOperand(1)}) {
      if (wideSrc) {
        const Chunks &parts = chunksOf(operand);
        sources.append(parts.begin(), parts.end());
      } else {
        sources.push_back(srcLanes == lanes ? operand
                                            : lanesOfValue(b, operand, 0, srcLanes, lanes));
      }
    }
    unsigned perOperand = wideSrc ? srcLanes / lanes : 1;
    ArrayRef<int> mask = shuffle.getShuffleMask();
    Chunks parts;
    for (unsigned first = 0; first < resultLanes; first += lanes) {
      unsigned width = std::min(lanes, resultLanes);
      // (source chunk, lane in it) of each result lane; -1 for poison.
      SmallVector<std::pair<int, int>> from(lanes, {-1, 0});
      SmallVector<int> order;
      for (unsigned i = 0; i < width; ++i) {
        int m = mask[first + i];
        if (m < 0)
          continue;
        unsigned operand = unsigned(m) / srcLanes, lane = unsigned(m) % srcLanes;
        int chunk = int(operand * perOperand + lane / lanes);
        from[i] = {chunk, int(lane % lanes)};
        if (!llvm::is_contained(order, chunk))
          order.push_back(chunk);
      }
      Type *chunk = FixedVectorType::get(cast<VectorType>(srcType)->getElementType(), lanes);
      Value *acc = PoisonValue::get(chunk);
      for (size_t j = 0; j < order.size(); j += (j == 0 ? 2 : 1)) {
        // The first step reads two new chunks, each later one adds one.
        Value *left = j == 0 ? sources[order[0]] : acc;
        Value *right = j == 0 ? (order.size() > 1 ? sources[order[1]] : PoisonValue::get(chunk))
                              : sources[order[j]];
        SmallVector<int> step(lanes, PoisonMaskElem);
        for (unsigned i = 0; i < lanes; ++i) {
          auto [c, lane] = from[i];
          if (c < 0)
            continue;
          if (j == 0 && c == order[0])
            step[i] = lane;
          else if (c == (j == 0 ? (order.size() > 1 ? order[1] : -2) : order[j]))
            step[i] = int(lanes) + lane;
          else if (j != 0 && llvm::is_contained(ArrayRef<int>(order).take_front(j), c))
            step[i] = int(i);
        }
        acc = b.CreateShuffleVector(left, right, step);
      }
      if (width < lanes)
        acc = lanesOfValue(b, acc, 0, width, width);
      parts.push_back(acc);
    }
    if (wideResult) {
      replaceByChunks(shuffle, std::move(parts));
    } else {
      shuffle.replaceAllUsesWith(parts.front());
      dead.push_back(&shuffle);
    }
    return true;
  }

  Function &f;
  unsigned lanes;
  const DataLayout &dl;
  DenseMap<Value *, Chunks> chunks;
  DenseMap<Value *, Value *> wholes;
  DenseSet<Value *> rewritten;
  SmallVector<std::pair<PHINode *, Chunks>> phiChunks;
  SmallVector<Instruction *> dead;
};

} // namespace

void splitWideVectors(Module &module, unsigned lanes) {
  for (Function &f : module)
    if (!f.isDeclaration())
      Splitter(f, lanes).run();
}

} // namespace hadron::host
