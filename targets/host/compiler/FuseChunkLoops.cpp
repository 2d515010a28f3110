//===- FuseChunkLoops.cpp - One loop per tile where nothing overlaps ------===//
//
// A chain is a run of loops L1 .. Lk, each one block with one induction
// variable counting 0, 1, .. the same number of times, where the block after
// Li leads straight to Li+1 and computes nothing but addresses (hoisted
// above L1 here). The fused loop runs the bodies of L1 .. Lk in order, one
// iteration at a time. Against the original order it moves iteration i of
// Lq before iteration j > i of Lp (p < q), so it is exact when no such two
// accesses touch the same byte where one of them writes:
//
// - an access to a stack buffer (an alloca that does not escape) must be,
//   in every loop that touches that buffer, an affine walk with the same
//   start and the same constant stride, no wider than the stride: iteration
//   i then touches bytes no other iteration touches;
// - every other access walks a range that SCEV can bound from the loop's
//   trip count: [start, start + stride * (n - 1) + size). For each pair of
//   loops, the ranges one writes must miss the ranges the other reads or
//   writes. That is a handful of pointer compares, emitted before L1 (with
//   a check that no range wraps around the address space); where it fails
//   the original loops run. Loads from constant globals (tables) need no
//   check.
//
// Anything else in the loops that touches memory or has side effects
// (calls, atomics, gathers and scatters, volatile accesses) leaves the
// chain as it is.
//
//===----------------------------------------------------------------------===//

#include "FuseChunkLoops.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Analysis/CaptureTracking.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/PassManager.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/LoopSimplify.h"
#include "llvm/Transforms/Utils/ScalarEvolutionExpander.h"
#include "llvm/Transforms/Utils/ValueMapper.h"

#include <map>
#include <optional>
#include <tuple>
#include <vector>

using namespace llvm;

namespace hadron::host {
namespace {

/// A loop that can be a link of a chain.
struct Link {
  Loop *loop;
  BasicBlock *body; ///< header and latch
  BasicBlock *preheader;
  BasicBlock *exit;
  PHINode *iv;
  uint64_t tripCount;
};

/// One memory access in a link.
struct Access {
  unsigned link = 0;
  bool store = false;
  uint64_t bytes = 0;
  Value *object = nullptr;     ///< the underlying object
  const SCEV *start = nullptr; ///< the address at iteration 0
  int64_t stride = 0;          ///< bytes per iteration
  bool strided = false;        ///< false: the same address every iteration
};

class ChainFuser {
public:
  ChainFuser(Function &f, LoopInfo &li, ScalarEvolution &se)
      : f(f), li(li), se(se), dl(f.getDataLayout()) {}

  bool run() {
    std::vector<Link> links;
    for (Loop *top : li)
      for (Loop *loop : top->getLoopsInPreorder())
        if (std::optional<Link> link = linkOf(loop))
          links.push_back(*link);
    // Li+1 follows Li when Li's exit is Li+1's preheader.
    DenseMap<BasicBlock *, unsigned> byPreheader;
    for (unsigned i = 0; i < links.size(); ++i)
      byPreheader[links[i].preheader] = i;
    std::vector<int> next(links.size(), -1);
    std::vector<bool> followsOne(links.size(), false);
    for (unsigned i = 0; i < links.size(); ++i) {
      auto it = byPreheader.find(links[i].exit);
      if (it == byPreheader.end() || !joins(links[i], links[it->second]))
        continue;
      next[i] = static_cast<int>(it->second);
      followsOne[it->second] = true;
    }
    bool changed = false;
    for (unsigned i = 0; i < links.size(); ++i) {
      if (followsOne[i] || next[i] < 0)
        continue;
      std::vector<Link> chain;
      for (int j = static_cast<int>(i); j >= 0; j = next[j])
        chain.push_back(links[j]);
      changed |= fuse(chain);
    }
    return changed;
  }

private:
  std::optional<Link> linkOf(Loop *loop) {
    BasicBlock *body = loop->getHeader();
    if (!loop->isInnermost() || loop->getNumBlocks() != 1 || loop->getLoopLatch() != body)
      return std::nullopt;
    BasicBlock *preheader = loop->getLoopPreheader();
    BasicBlock *exit = loop->getExitBlock();
    if (!preheader || !exit || exit->getSinglePredecessor() != body || !exit->phis().empty())
      return std::nullopt;
    auto *count = dyn_cast<SCEVConstant>(se.getBackedgeTakenCount(loop));
    if (!count || count->getAPInt().getActiveBits() > 32)
      return std::nullopt;
    PHINode *iv = nullptr;
    for (PHINode &phi : body->phis()) {
      auto *rec = dyn_cast<SCEVAddRecExpr>(se.getSCEV(&phi));
      if (iv || !rec || rec->getLoop() != loop || !rec->getStart()->isZero() ||
          !rec->getStepRecurrence(se)->isOne())
        return std::nullopt;
      iv = &phi;
    }
    if (!iv)
      return std::nullopt;
    // The fused loop takes the body whole: nothing of it may be used
    // after the loop.
    for (Instruction &inst : *body)
      for (User *user : inst.users())
        if (cast<Instruction>(user)->getParent() != body)
          return std::nullopt;
    return Link{loop, body, preheader, exit, iv, count->getAPInt().getZExtValue() + 1};
  }

  /// Whether `b` may follow `a` in a chain: same count, and the block
  /// between them computes nothing the fused loop would have to keep in
  /// place. (The counters may differ in width: the count fits 32 bits.)
  static bool joins(const Link &a, const Link &b) {
    if (a.tripCount != b.tripCount)
      return false;
    BasicBlock *between = a.exit;
    auto *br = dyn_cast<BranchInst>(between->getTerminator());
    if (!br || br->isConditional() || br->getSuccessor(0) != b.body)
      return false;
    for (Instruction &inst : *between)
      if (&inst != br && (inst.mayReadOrWriteMemory() || !isSafeToSpeculativelyExecute(&inst)))
        return false;
    return true;
  }

  std::optional<Access> accessOf(Instruction &inst, unsigned link) {
    Access a;
    a.link = link;
    Value *ptr = nullptr;
    Type *type = nullptr;
    if (auto *load = dyn_cast<LoadInst>(&inst)) {
      if (!load->isSimple())
        return std::nullopt;
      ptr = load->getPointerOperand();
      type = load->getType();
    } else if (auto *store = dyn_cast<StoreInst>(&inst)) {
      if (!store->isSimple())
        return std::nullopt;
      ptr = store->getPointerOperand();
      type = store->getValueOperand()->getType();
      a.store = true;
    } else if (auto *call = dyn_cast<IntrinsicInst>(&inst);
               call && call->getIntrinsicID() == Intrinsic::masked_load) {
      ptr = call->getArgOperand(0);
      type = call->getType();
    } else if (call && call->getIntrinsicID() == Intrinsic::masked_store) {
      ptr = call->getArgOperand(1);
      type = call->getArgOperand(0)->getType();
      a.store = true;
    } else {
      return std::nullopt;
    }
    TypeSize size = dl.getTypeStoreSize(type);
    if (size.isScalable())
      return std::nullopt;
    a.bytes = size.getFixedValue();
    a.object = getUnderlyingObject(ptr);
    return a;
  }

  /// Fills the access's walk for `loop`; false where SCEV cannot say.
  bool walk(Access &a, Value *ptr, Loop *loop) {
    const SCEV *s = se.getSCEV(ptr);
    if (se.isLoopInvariant(s, loop)) {
      a.start = s;
      return true;
    }
    auto *rec = dyn_cast<SCEVAddRecExpr>(s);
    if (!rec || rec->getLoop() != loop || !rec->isAffine())
      return false;
    auto *step = dyn_cast<SCEVConstant>(rec->getStepRecurrence(se));
    if (!step || step->getAPInt().getSignificantBits() > 32)
      return false;
    a.start = rec->getStart();
    a.stride = step->getAPInt().getSExtValue();
    a.strided = true;
    return true;
  }

  static Value *pointerOf(Instruction &inst) {
    if (auto *load = dyn_cast<LoadInst>(&inst))
      return load->getPointerOperand();
    if (auto *store = dyn_cast<StoreInst>(&inst))
      return store->getPointerOperand();
    auto *call = cast<IntrinsicInst>(&inst);
    return call->getArgOperand(call->getIntrinsicID() == Intrinsic::masked_load ? 0 : 1);
  }

  /// Whether `object` is known to be one object, which a stack buffer that
  /// does not escape is not part of unless it is that buffer: another
  /// buffer, a global, an argument, a pointer loaded from memory.
  static bool distinctObject(Value *object) {
    return isa<AllocaInst, GlobalValue, Argument, LoadInst>(object);
  }

  /// Whether two accesses of one stack buffer touch, at each iteration,
  /// bytes that no other iteration touches.
  bool sameIteration(const Access &a, const Access &b) {
    if (!a.strided || !b.strided || a.stride != b.stride || a.stride == 0)
      return false;
    uint64_t stride = a.stride < 0 ? -static_cast<uint64_t>(a.stride) : a.stride;
    return a.bytes <= stride && b.bytes <= stride && se.getMinusSCEV(a.start, b.start)->isZero();
  }

  /// The bytes `a` touches over the whole loop: [lo, hi).
  std::pair<const SCEV *, const SCEV *> range(const Access &a, uint64_t tripCount) {
    Type *i64 = Type::getInt64Ty(f.getContext());
    const SCEV *last = se.getAddExpr(
        a.start, se.getConstant(i64, static_cast<uint64_t>(a.stride) * (tripCount - 1)));
    const SCEV *lo = a.stride < 0 ? last : a.start;
    const SCEV *top = a.stride < 0 ? a.start : last;
    return {lo, se.getAddExpr(top, se.getConstant(i64, a.bytes))};
  }

  bool fuse(std::vector<Link> &chain) {
    std::vector<Access> accesses;
    for (unsigned i = 0; i < chain.size(); ++i)
      for (Instruction &inst : *chain[i].body) {
        if (!inst.mayReadOrWriteMemory()) {
          if (inst.mayHaveSideEffects())
            return false;
          continue;
        }
        std::optional<Access> a = accessOf(inst, i);
        if (!a || !walk(*a, pointerOf(inst), chain[i].loop))
          return false;
        if (auto *global = dyn_cast<GlobalVariable>(a->object);
            global && global->isConstant() && !a->store)
          continue;
        accesses.push_back(*a);
      }

    // Stack buffers: decided here. Everything else: pairs of ranges for
    // the run-time check.
    std::vector<std::pair<const Access *, const Access *>> apart;
    for (const Access &a : accesses)
      for (const Access &b : accesses) {
        if (a.link >= b.link || (!a.store && !b.store))
          continue;
        bool stackA = isa<AllocaInst>(a.object), stackB = isa<AllocaInst>(b.object);
        if (stackA && PointerMayBeCaptured(a.object, /*ReturnCaptures=*/true))
          return false;
        if (stackB && PointerMayBeCaptured(b.object, /*ReturnCaptures=*/true))
          return false;
        if (stackA || stackB) {
          // A buffer that does not escape is no other object's memory.
          if (a.object == b.object ? !sameIteration(a, b)
                                   : !distinctObject(a.object) || !distinctObject(b.object))
            return false;
          continue;
        }
        apart.push_back({&a, &b});
      }

    // What lies between the loops moves above the first.
    Instruction *at = chain.front().preheader->getTerminator();
    for (unsigned i = 0; i + 1 < chain.size(); ++i)
      for (Instruction &inst : llvm::make_early_inc_range(*chain[i].exit))
        if (!inst.isTerminator())
          inst.moveBefore(at->getIterator());

    SCEVExpander expander(se, "chunk.check");
    uint64_t trips = chain.front().tripCount;
    std::vector<std::tuple<const SCEV *, const SCEV *, const Access *>> ranges;
    auto rangeOf = [&](const Access *a) {
      for (auto &[lo, hi, of] : ranges)
        if (of == a)
          return std::make_pair(lo, hi);
      auto r = range(*a, trips);
      ranges.push_back({r.first, r.second, a});
      return r;
    };
    for (auto [a, b] : apart)
      for (const SCEV *s :
           {rangeOf(a).first, rangeOf(a).second, rangeOf(b).first, rangeOf(b).second})
        if (!s->getType()->isPointerTy() || !expander.isSafeToExpandAt(s, at))
          return false;

    Value *ok = nullptr;
    if (!apart.empty()) {
      IRBuilder<> b(at);
      auto expand = [&](const SCEV *s) {
        return expander.expandCodeFor(s, PointerType::get(f.getContext(), 0), at);
      };
      auto both = [&](Value *x, Value *y) { return x ? b.CreateAnd(x, y) : y; };
      std::map<const Access *, std::pair<Value *, Value *>> bounds;
      for (auto &[lo, hi, a] : ranges) {
        Value *l = expand(lo), *h = expand(hi);
        bounds[a] = {l, h};
        // lo < hi: the walk does not wrap around the address space.
        ok = both(ok, b.CreateICmpULT(l, h));
      }
      for (auto [x, y] : apart) {
        auto [xl, xh] = bounds[x];
        auto [yl, yh] = bounds[y];
        ok = both(ok, b.CreateOr(b.CreateICmpULE(xh, yl), b.CreateICmpULE(yh, xl)));
      }
    }

    // The fused loop: L1's block, then the bodies of L2 .. Lk.
    Link &first = chain.front();
    ValueToValueMapTy map;
    BasicBlock *fused = CloneBasicBlock(first.body, map, ".fused", &f);
    map[first.body] = fused;
    Instruction *term = fused->getTerminator();
    IRBuilder<> counters(fused, fused->getFirstInsertionPt());
    for (unsigned i = 1; i < chain.size(); ++i) {
      // L1's counter, at Li's width (it counts below 2^32).
      map[chain[i].iv] = counters.CreateZExtOrTrunc(map[first.iv], chain[i].iv->getType());
      for (Instruction &inst : *chain[i].body) {
        if (isa<PHINode>(inst) || inst.isTerminator())
          continue;
        Instruction *copy = inst.clone();
        if (!copy->getType()->isVoidTy())
          copy->setName(inst.getName() + ".fused");
        copy->insertBefore(term->getIterator());
        map[&inst] = copy;
      }
    }
    for (Instruction &inst : *fused)
      RemapInstruction(&inst, map, RF_NoModuleLevelChanges | RF_IgnoreMissingLocals);
    term->setMetadata(LLVMContext::MD_loop, nullptr); // L1's stays L1's
    for (unsigned s = 0; s < term->getNumSuccessors(); ++s)
      if (term->getSuccessor(s) == first.exit)
        term->setSuccessor(s, chain.back().exit);

    forwardStackChunks(fused, chain);
    unmaskFullChunks(fused);

    // Where nothing needs checking the original loops become unreachable,
    // for the clean-ups to drop.
    Instruction *enter = first.preheader->getTerminator();
    IRBuilder<> b(enter);
    b.CreateCondBr(ok ? ok : b.getTrue(), fused, first.body);
    enter->eraseFromParent();
    return true;
  }

  /// In the fused loop a stack buffer's chunk is read in the iteration
  /// that wrote it: the read takes the written value, and the writes go
  /// where nothing reads the buffer any more (neither the fused loop nor
  /// any code outside the original loops).
  void forwardStackChunks(BasicBlock *fused, const std::vector<Link> &chain) {
    struct Written {
      const SCEV *at;
      Value *value;
    };
    DenseMap<Value *, SmallVector<Written, 2>> written;
    DenseMap<Value *, SmallVector<Instruction *, 2>> stores;
    DenseSet<Value *> read;
    for (Instruction &inst : llvm::make_early_inc_range(*fused)) {
      if (!inst.mayReadOrWriteMemory())
        continue;
      Value *ptr = pointerOf(inst);
      auto *buffer = dyn_cast<AllocaInst>(getUnderlyingObject(ptr));
      if (!buffer || PointerMayBeCaptured(buffer, /*ReturnCaptures=*/true))
        continue;
      const SCEV *at = se.getSCEV(ptr);
      auto &chunks = written[buffer];
      if (auto *store = dyn_cast<StoreInst>(&inst)) {
        chunks.assign(1, {at, store->getValueOperand()});
        stores[buffer].push_back(store);
        continue;
      }
      auto *load = dyn_cast<LoadInst>(&inst);
      auto it = load ? llvm::find_if(chunks,
                                     [&](const Written &w) {
                                       return w.at == at && w.value->getType() == load->getType();
                                     })
                     : chunks.end();
      if (it != chunks.end()) {
        load->replaceAllUsesWith(it->value);
        load->eraseFromParent();
        continue;
      }
      // A read not forwarded, or a masked store (not tracked): the
      // buffer keeps its stores.
      if (inst.mayWriteToMemory())
        chunks.clear();
      read.insert(buffer);
    }
    DenseSet<BasicBlock *> loops{fused};
    for (const Link &link : chain)
      loops.insert(link.body);
    for (auto &[buffer, list] : stores)
      if (!read.contains(buffer) && !readElsewhere(buffer, loops))
        for (Instruction *store : list)
          store->eraseFromParent();
  }

  /// Where each mask of the fused loop's masked accesses is computed from
  /// the counter and values from before the loop: each iteration tests its
  /// masks, and where every lane is on it runs a copy of the body with
  /// plain loads and stores. Why: on the CPUs measured, a stream of masked
  /// 64-byte loads and stores copies at 0.6x the bandwidth of plain ones,
  /// even with every lane on (docs/performance.md, "Host copy and add"),
  /// and all but a program's last chunks of a tail have every lane on.
  void unmaskFullChunks(BasicBlock *fused) {
    auto isMasked = [](Instruction &inst) {
      auto *call = dyn_cast<IntrinsicInst>(&inst);
      return call && (call->getIntrinsicID() == Intrinsic::masked_load ||
                      call->getIntrinsicID() == Intrinsic::masked_store);
    };
    auto maskOf = [](Instruction &inst) {
      auto *call = cast<IntrinsicInst>(&inst);
      return call->getArgOperand(call->getIntrinsicID() == Intrinsic::masked_load ? 1 : 2);
    };
    // The masks, and the instructions of this block they are made of: pure
    // arithmetic on the counter and on constant tables.
    SetVector<Value *> masks;
    DenseSet<Instruction *> slice;
    SmallVector<Instruction *> work;
    for (Instruction &inst : *fused)
      if (isMasked(inst) && !isa<Constant>(maskOf(inst))) {
        masks.insert(maskOf(inst));
        if (auto *m = dyn_cast<Instruction>(maskOf(inst)); m && m->getParent() == fused)
          work.push_back(m);
      }
    if (masks.empty())
      return;
    while (!work.empty()) {
      Instruction *inst = work.pop_back_val();
      if (!slice.insert(inst).second || isa<PHINode>(inst))
        continue;
      auto *load = dyn_cast<LoadInst>(inst);
      auto *table = load ? dyn_cast<GlobalVariable>(getUnderlyingObject(load->getPointerOperand()))
                         : nullptr;
      if (inst->mayHaveSideEffects() ||
          (inst->mayReadFromMemory() && !(table && table->isConstant() && load->isSimple())))
        return;
      for (Value *op : inst->operands())
        if (auto *def = dyn_cast<Instruction>(op); def && def->getParent() == fused)
          work.push_back(def);
    }

    // The masks first (in their order), then the test, then the body.
    Instruction *rest = nullptr;
    SmallVector<Instruction *> early;
    for (Instruction &inst : *fused) {
      if (isa<PHINode>(inst))
        continue;
      if (slice.contains(&inst))
        early.push_back(&inst);
      else if (!rest)
        rest = &inst;
    }
    for (Instruction *inst : early)
      if (!inst->comesBefore(rest))
        inst->moveBefore(rest->getIterator());
    IRBuilder<> b(rest);
    Value *full = nullptr;
    for (Value *mask : masks) {
      Value *on = b.CreateAndReduce(mask);
      full = full ? b.CreateAnd(full, on) : on;
    }

    // fused: the counter, the masks, the test -> body | full body -> latch.
    BasicBlock *body = SplitBlock(fused, rest);
    BasicBlock *latch = SplitBlock(body, body->getTerminator());
    ValueToValueMapTy map;
    BasicBlock *fullBody = CloneBasicBlock(body, map, ".full", &f);
    for (Instruction &inst : *fullBody)
      RemapInstruction(&inst, map, RF_NoModuleLevelChanges | RF_IgnoreMissingLocals);
    for (Instruction &inst : llvm::make_early_inc_range(*fullBody)) {
      if (!isMasked(inst) || isa<Constant>(maskOf(inst)))
        continue;
      auto *call = cast<IntrinsicInst>(&inst);
      IRBuilder<> at(call);
      if (call->getIntrinsicID() == Intrinsic::masked_load) {
        LoadInst *plain = at.CreateAlignedLoad(call->getType(), call->getArgOperand(0),
                                               call->getParamAlign(0).valueOrOne());
        plain->takeName(call);
        call->replaceAllUsesWith(plain);
      } else {
        at.CreateAlignedStore(call->getArgOperand(0), call->getArgOperand(1),
                              call->getParamAlign(1).valueOrOne());
      }
      call->eraseFromParent();
    }
    Instruction *test = fused->getTerminator();
    BranchInst::Create(fullBody, body, full, test->getIterator());
    test->eraseFromParent();
    // What the body computes for the latch (the next count, the exit test)
    // comes from whichever copy ran.
    for (Instruction &inst : *body) {
      SmallVector<Use *> outside;
      for (Use &use : inst.uses()) {
        BasicBlock *user = cast<Instruction>(use.getUser())->getParent();
        if (user != body && user != fullBody)
          outside.push_back(&use);
      }
      if (outside.empty())
        continue;
      PHINode *phi = PHINode::Create(inst.getType(), 2, inst.getName() + ".merged",
                                     latch->begin());
      phi->addIncoming(&inst, body);
      phi->addIncoming(map[&inst], fullBody);
      for (Use *use : outside)
        use->set(phi);
    }
  }

  /// Whether anything outside `blocks` may read `buffer`.
  static bool readElsewhere(Value *buffer, const DenseSet<BasicBlock *> &blocks) {
    SmallVector<Value *> work{buffer};
    while (!work.empty()) {
      Value *v = work.pop_back_val();
      for (User *user : v->users()) {
        auto *inst = cast<Instruction>(user);
        if (isa<GetElementPtrInst>(inst)) {
          work.push_back(inst);
          continue;
        }
        if (inst->isLifetimeStartOrEnd() || blocks.contains(inst->getParent()) ||
            (isa<StoreInst>(inst) && cast<StoreInst>(inst)->getPointerOperand() == v))
          continue;
        return true;
      }
    }
    return false;
  }

  Function &f;
  LoopInfo &li;
  ScalarEvolution &se;
  const DataLayout &dl;
};

struct FuseChunkLoopsPass : PassInfoMixin<FuseChunkLoopsPass> {
  PreservedAnalyses run(Function &f, FunctionAnalysisManager &am) {
    ChainFuser fuser(f, am.getResult<LoopAnalysis>(f), am.getResult<ScalarEvolutionAnalysis>(f));
    return fuser.run() ? PreservedAnalyses::none() : PreservedAnalyses::all();
  }
};

} // namespace

void addChunkLoopFusion(PassBuilder &pb) {
  pb.registerPipelineEarlySimplificationEPCallback(
      [](ModulePassManager &mpm, OptimizationLevel, ThinOrFullLTOPhase) {
        FunctionPassManager fpm;
        // Preheaders and dedicated exits: the blocks a chain links through.
        fpm.addPass(LoopSimplifyPass());
        fpm.addPass(FuseChunkLoopsPass());
        mpm.addPass(createModuleToFunctionPassAdaptor(std::move(fpm)));
      });
}

} // namespace hadron::host
