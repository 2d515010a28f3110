//===- TileLoops.cpp - Tiles as loops over register chunks ----------------===//
//
// The distribute lowering gives a host thread each tile as one LLVM vector
// with a lane per element of the CTA's tile. This rewrite, run on the LLVM
// IR before it is optimised, keeps every such vector of at least `minChunks`
// chunks in a stack buffer (its home) and turns what makes it into loops
// over chunks of `lanes` lanes:
//
// - lane-wise instructions (arithmetic, compares, casts, selects, vector
//   GEPs, lane-wise intrinsics, gathers and scatters, loads and stores of
//   whole tiles) join the current *region*: consecutive instructions of one
//   block over tiles of the same size, emitted as one loop after the last of
//   them. Inside the loop a member's chunk is an SSA value; only the chunks
//   of members used outside the region are stored to their homes.
// - a shufflevector or constant-index insertelement is looked through when
//   its only user is another one; the one that is not is *composed*: for
//   each of its lanes, which lane of which leaf (a value that is no shuffle)
//   or which scalar it holds. A tile whose lanes all hold one value is
//   *uniform* (a splat chunk, no memory). Lanes that come from narrow vectors
//   or scalars (the pieces of vector memory accesses, a pack of registers)
//   are stored into the home where they belong, updating the home of an
//   operand in place when the shuffle is that operand's only user. Any other
//   tile-sized shuffle is a region member that loads each chunk from its
//   sources' homes: one vector load, one scalar load and splat, or one
//   gather, with per-chunk offsets computed when they are affine in the
//   chunk index and read from a constant table when not.
// - a shuffle or extractelement with a narrow result reads the lanes it
//   needs from the homes.
// - a phi's home is written on each incoming edge (a memcpy, or a loop for
//   a uniform value), except for the value of a loop-carried update computed
//   lane by lane from the phi in a region after which nothing reads the
//   phi before it is redefined: that region writes the phi's home in place.
// - constant tiles that are no splat become constant tables; anything else
//   that makes or uses a tile (an unknown intrinsic, a call) gets it spilled
//   to or reloaded from its home, whole.
// - where the distribute lowering walks a tile's registers in a loop, it
//   spills the tile to a stack buffer and reloads the result from another;
//   such buffers become homes instead of copies where that is safe (see
//   planForwarding), and a tile of booleans widened to bytes for a spill is
//   its home already.
//
// Walk: blocks in reverse post-order, instructions in order, at most one
// open region; a region closes at the end of its block, before an
// instruction that reads one of its members otherwise than lane by lane,
// before a write to memory when it reads memory, and around a store of a
// tile. Homes are shared only by a phi and its in-place update, by an
// in-place insertion and the operand it replaces, and by a tile and the
// input's stack buffers forwarded to it; every other home is written once,
// by the code that makes its value.
//
//===----------------------------------------------------------------------===//

#include "TileLoops.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/PostOrderIterator.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Analysis/VectorUtils.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Operator.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/Local.h"

#include <functional>
#include <optional>
#include <map>
#include <optional>
#include <unordered_map>
#include <vector>

using namespace llvm;

namespace hadron::host {
namespace {

/// Where one lane of a vector comes from: nothing (poison), a scalar, or a
/// lane of a leaf vector.
struct LaneSource {
  Value *value = nullptr;
  unsigned lane = 0;
  bool poison() const { return !value; }
  bool scalar() const { return value && !value->getType()->isVectorTy(); }
  bool operator==(const LaneSource &o) const { return value == o.value && lane == o.lane; }
};
using Lanes = std::vector<LaneSource>;

/// What a tile is once its definition has been rewritten.
struct Tile {
  enum Kind { Poison, Uniform, Memory } kind = Poison;
  Value *scalar = nullptr; // Uniform: every lane's value (made on demand)
  Value *chunk = nullptr;  // Uniform: a chunk of `scalar`
  Value *base = nullptr;   // Memory: the home (an alloca) or a constant table
  bool table = false;      // Memory: a constant global
  // Memory, a table of integers that is the same chunk plus a multiple of a
  // step (an arange): chunk c is `first` + c * `step`, computed in a loop
  // instead of read from the table, which would cost as much cache traffic
  // as the data of a copy.
  Constant *first = nullptr;
  uint64_t step = 0;
  PHINode *phi = nullptr;  // Memory: the phi this home belongs to
  bool borrowed = false;   // Memory: a stack buffer of the input (see forwarding)
};

/// How a tile-sized shuffle inside a loop reads each chunk.
struct ShufflePlan {
  enum Class { Contiguous, Splat, Gather } kind = Gather;
  SmallVector<Value *, 4> bases; // one per source, storage elements
  SmallVector<unsigned, 4> sourceLanes;
  // Contiguous/Splat: per chunk, the source and its first (or only) lane.
  std::vector<int32_t> chunkSource, chunkStart;
  // Gather: per lane.
  std::vector<int32_t> laneSource, laneIndex;
};

class TileLoops {
public:
  TileLoops(Function &f, unsigned lanes, unsigned minChunks)
      : f(f), ctx(f.getContext()), dl(f.getDataLayout()), lanes(lanes), minChunks(minChunks) {}

  void run() {
    // The lowering leaves dead per-register code (a tile unpacked for a
    // hook that kept it as it was); none of it gets a loop or a load.
    for (BasicBlock &block : f)
      for (Instruction &inst : llvm::make_early_inc_range(llvm::reverse(block)))
        if (isInstructionTriviallyDead(&inst))
          inst.eraseFromParent();
    planForwarding();
    std::vector<std::vector<Instruction *>> blocks;
    for (BasicBlock *block : ReversePostOrderTraversal<Function *>(&f)) {
      blocks.emplace_back();
      for (Instruction &inst : *block)
        blocks.back().push_back(&inst);
    }
    for (auto &block : blocks) {
      for (Instruction *inst : block)
        visit(*inst);
      closeRegion();
    }
    copyIntoPhis();
    for (Instruction *inst : dead)
      if (!inst->getType()->isVoidTy())
        inst->replaceAllUsesWith(PoisonValue::get(inst->getType()));
    for (Instruction *inst : dead)
      inst->eraseFromParent();
    markLifetimes();
  }

private:
  enum class Role { LaneWise, Shuffle, Load, Store };
  struct Member {
    Instruction *inst;
    Role role;
    ShufflePlan plan;
  };
  struct Region {
    unsigned size = 0;
    bool readsMemory = false;
    std::vector<Member> members;
    DenseSet<Value *> set;
  };

  //===--------------------------------------------------------------------===//
  // Types and memory
  //===--------------------------------------------------------------------===//

  bool isTile(Type *type) const {
    auto *vec = dyn_cast<FixedVectorType>(type);
    if (!vec)
      return false;
    Type *elem = vec->getElementType();
    if (!elem->isIntegerTy() && !elem->isFloatingPointTy() && !elem->isPointerTy())
      return false;
    unsigned n = vec->getNumElements();
    return n % lanes == 0 && n / lanes >= minChunks;
  }
  static unsigned lanesOf(Type *type) { return cast<FixedVectorType>(type)->getNumElements(); }
  static Type *elementOf(Type *type) { return cast<VectorType>(type)->getElementType(); }
  /// i1 lanes are kept as bytes, so that every lane has an address.
  Type *storageOf(Type *elem) const {
    return elem->isIntegerTy(1) ? Type::getInt8Ty(ctx) : elem;
  }
  FixedVectorType *chunkType(Type *tile) const {
    return FixedVectorType::get(elementOf(tile), lanes);
  }
  uint64_t elemBytes(Type *elem) const { return dl.getTypeStoreSize(storageOf(elem)); }
  Align elemAlign(Type *elem) const { return dl.getABITypeAlign(storageOf(elem)); }
  Align chunkAlign(Type *elem) const {
    return Align(std::min<uint64_t>(64, PowerOf2Ceil(lanes * elemBytes(elem))));
  }
  /// Memory access in whole bytes per element (i1 tiles stay in registers
  /// when they are loaded or stored as packed bits).
  bool byteSized(Type *elem) const {
    return dl.getTypeSizeInBits(elem) == dl.getTypeStoreSize(elem) * 8;
  }

  AllocaInst *newHome(Type *elem, unsigned n) {
    IRBuilder<> b(&f.getEntryBlock(), f.getEntryBlock().begin());
    AllocaInst *home = b.CreateAlloca(ArrayType::get(storageOf(elem), n), nullptr, "tile");
    home->setAlignment(std::max(home->getAlign(), chunkAlign(elem)));
    homes.push_back(home);
    return home;
  }

  Value *toStorage(IRBuilder<> &b, Value *v) {
    Type *type = v->getType();
    if (!type->getScalarType()->isIntegerTy(1))
      return v;
    return b.CreateZExt(v, type->getWithNewType(Type::getInt8Ty(ctx)));
  }
  Value *fromStorage(IRBuilder<> &b, Value *v, Type *elem) {
    if (!elem->isIntegerTy(1))
      return v;
    return b.CreateICmpNE(v, Constant::getNullValue(v->getType()));
  }
  Value *elementAddress(IRBuilder<> &b, Value *base, Type *elem, Value *index) {
    return b.CreateInBoundsGEP(storageOf(elem), base, index);
  }
  /// `count` lanes (a scalar when 1) at element `index` of a home.
  Value *loadLanes(IRBuilder<> &b, Value *base, Type *elem, Value *index, unsigned count,
                   Align align) {
    Type *storage = storageOf(elem);
    Type *type = count == 1 ? storage : FixedVectorType::get(storage, count);
    Value *v = b.CreateAlignedLoad(type, elementAddress(b, base, elem, index), align);
    return fromStorage(b, v, elem);
  }
  void storeLanes(IRBuilder<> &b, Value *v, Value *base, Value *index, Align align) {
    Type *elem = v->getType()->getScalarType();
    b.CreateAlignedStore(toStorage(b, v), elementAddress(b, base, elem, index), align);
  }
  Align alignAt(Type *elem, uint64_t index) const {
    return commonAlignment(chunkAlign(elem), index * elemBytes(elem));
  }
  void copyHome(IRBuilder<> &b, Value *to, Value *from, Type *elem, unsigned n) {
    b.CreateMemCpy(to, chunkAlign(elem), from, chunkAlign(elem), uint64_t(n) * elemBytes(elem));
  }

  /// A constant global with the lanes of `c`, or null when a lane is not a
  /// plain constant.
  GlobalVariable *table(Constant *c) {
    Type *elem = elementOf(c->getType());
    Type *storage = storageOf(elem);
    std::vector<Constant *> values;
    for (unsigned i = 0, n = lanesOf(c->getType()); i < n; ++i) {
      Constant *lane = c->getAggregateElement(i);
      if (!lane)
        return nullptr;
      if (isa<UndefValue>(lane))
        lane = Constant::getNullValue(storage);
      else if (elem->isIntegerTy(1))
        lane = ConstantInt::get(storage, cast<ConstantInt>(lane)->getZExtValue());
      values.push_back(lane);
    }
    return newTable(ConstantArray::get(ArrayType::get(storage, values.size()), values),
                    chunkAlign(elem));
  }
  /// Fills `t.first` and `t.step` where every chunk of the integer tile `c`
  /// is its first chunk plus the same step per chunk.
  void affineChunks(Constant *c, Tile &t) {
    auto *elem = dyn_cast<IntegerType>(elementOf(c->getType()));
    unsigned n = lanesOf(c->getType());
    if (!elem || elem->getBitWidth() == 1 || n % lanes != 0 || n < 2 * lanes)
      return;
    auto laneValue = [&](unsigned i) -> std::optional<APInt> {
      auto *lane = dyn_cast_or_null<ConstantInt>(c->getAggregateElement(i));
      return lane ? std::optional<APInt>(lane->getValue()) : std::nullopt;
    };
    std::optional<APInt> a = laneValue(0), b = laneValue(lanes);
    if (!a || !b)
      return;
    APInt step = *b - *a;
    for (unsigned i = 0; i < n; ++i) {
      std::optional<APInt> lane = laneValue(i), base = laneValue(i % lanes);
      if (!lane || !base || *lane != *base + step * (i / lanes))
        return;
    }
    SmallVector<Constant *> chunk;
    for (unsigned j = 0; j < lanes; ++j)
      chunk.push_back(c->getAggregateElement(j));
    t.first = ConstantVector::get(chunk);
    t.step = step.getZExtValue();
  }

  GlobalVariable *newTable(Constant *init, Align align) {
    auto *global = new GlobalVariable(*f.getParent(), init->getType(), /*isConstant=*/true,
                                      GlobalValue::PrivateLinkage, init, "hd.tile.table");
    global->setUnnamedAddr(GlobalValue::UnnamedAddr::Global);
    global->setAlignment(align);
    return global;
  }
  GlobalVariable *i32Table(ArrayRef<int32_t> values) {
    return newTable(ConstantDataArray::get(ctx, values),
                    Align(std::min<uint64_t>(64, PowerOf2Ceil(lanes * 4))));
  }
  GlobalVariable *i8Table(ArrayRef<int32_t> values) {
    std::vector<uint8_t> bytes(values.begin(), values.end());
    return newTable(ConstantDataArray::get(ctx, bytes), Align(1));
  }

  //===--------------------------------------------------------------------===//
  // Tiles
  //===--------------------------------------------------------------------===//

  Tile &constantTile(Constant *c) {
    auto it = tiles.find(c);
    if (it != tiles.end())
      return it->second;
    Tile t;
    if (isa<UndefValue>(c)) {
      t.kind = Tile::Poison;
    } else if (Constant *splat = c->getSplatValue()) {
      t.kind = Tile::Uniform;
      t.scalar = splat;
      t.chunk = ConstantVector::getSplat(ElementCount::getFixed(lanes), splat);
    } else if (GlobalVariable *global = table(c)) {
      t.kind = Tile::Memory;
      t.base = global;
      t.table = true;
      affineChunks(c, t);
    } else {
      t.kind = Tile::Memory;
      t.base = newHome(elementOf(c->getType()), lanesOf(c->getType()));
      IRBuilder<> b(f.getEntryBlock().getTerminator());
      storeLanes(b, c, t.base, b.getInt64(0), chunkAlign(elementOf(c->getType())));
    }
    return tiles[c] = t;
  }

  /// The tile `v` (rewritten before, a constant, or spilled where it is made
  /// when nothing here made it).
  Tile &tileOf(Value *v) {
    if (auto *c = dyn_cast<Constant>(v))
      return constantTile(c);
    auto it = tiles.find(v);
    if (it != tiles.end())
      return it->second;
    Tile t;
    t.kind = Tile::Memory;
    t.base = newHome(elementOf(v->getType()), lanesOf(v->getType()));
    IRBuilder<> b(ctx);
    if (auto *inst = dyn_cast<Instruction>(v))
      b.SetInsertPoint(isa<PHINode>(inst) ? inst->getParent()->getFirstInsertionPt()
                                          : std::next(inst->getIterator()));
    else
      b.SetInsertPoint(f.getEntryBlock().getTerminator());
    storeLanes(b, v, t.base, b.getInt64(0), chunkAlign(elementOf(v->getType())));
    return tiles[v] = t;
  }

  /// Every lane's value of the uniform tile `v`.
  Value *uniformScalar(Value *v) {
    Tile &t = tileOf(v);
    if (!t.scalar) {
      if (auto *c = dyn_cast<Constant>(t.chunk)) {
        t.scalar = c->getAggregateElement(0u);
      } else {
        IRBuilder<> b(cast<Instruction>(t.chunk)->getNextNode());
        t.scalar = b.CreateExtractElement(t.chunk, uint64_t(0));
      }
    }
    return t.scalar;
  }

  void setUniform(Value *v, Value *scalar, Instruction *at) {
    Tile t;
    t.kind = Tile::Uniform;
    t.scalar = scalar;
    if (auto *c = dyn_cast<Constant>(scalar)) {
      t.chunk = ConstantVector::getSplat(ElementCount::getFixed(lanes), c);
    } else {
      IRBuilder<> b(at);
      t.chunk = b.CreateVectorSplat(lanes, scalar);
    }
    tiles[v] = t;
  }
  void setMemory(Value *v, Value *base) {
    Tile t;
    t.kind = Tile::Memory;
    t.base = base;
    tiles[v] = t;
  }

  /// `v` as one whole vector again, for a user this rewrite does not know.
  Value *whole(IRBuilder<> &b, Value *v) {
    Tile &t = tileOf(v);
    Type *type = v->getType();
    switch (t.kind) {
    case Tile::Poison:
      return PoisonValue::get(type);
    case Tile::Uniform:
      return b.CreateVectorSplat(lanesOf(type), uniformScalar(v));
    case Tile::Memory:
      break;
    }
    return loadLanes(b, t.base, elementOf(type), b.getInt64(0), lanesOf(type),
                     chunkAlign(elementOf(type)));
  }

  //===--------------------------------------------------------------------===//
  // Shuffles: lanes looked through to their leaves
  //===--------------------------------------------------------------------===//

  static bool isShuffleLike(Value *v) {
    if (isa<ShuffleVectorInst>(v))
      return true;
    auto *insert = dyn_cast<InsertElementInst>(v);
    return insert && isa<ConstantInt>(insert->getOperand(2));
  }

  /// A shuffle-like instruction whose lanes this rewrite follows: it makes
  /// or reads a tile, or reads one it looked through.
  bool followed(Instruction &inst) const {
    if (isTile(inst.getType()))
      return true;
    for (Value *op : inst.operands())
      if (isTile(op->getType()) || looked.contains(op))
        return true;
    return false;
  }

  /// Looked through by its only user, another shuffle-like instruction.
  static bool lookThrough(Instruction &inst) {
    if (!inst.hasOneUse())
      return false;
    auto *user = dyn_cast<Instruction>(inst.user_back());
    if (!user || !isShuffleLike(user))
      return false;
    return !isa<InsertElementInst>(user) || user->getOperand(0) == &inst;
  }

  Lanes sourcesOf(Value *v) {
    unsigned n = lanesOf(v->getType());
    if (auto *inst = dyn_cast<Instruction>(v); inst && looked.contains(inst))
      return compose(*inst);
    Lanes out(n);
    if (auto *c = dyn_cast<Constant>(v)) {
      if (isa<UndefValue>(c))
        return out;
      if (Constant *splat = c->getSplatValue()) {
        for (LaneSource &s : out)
          s = {splat, 0};
        return out;
      }
      if (!isTile(c->getType())) {
        for (unsigned i = 0; i < n; ++i) {
          Constant *lane = c->getAggregateElement(i);
          if (lane && !isa<UndefValue>(lane))
            out[i] = {lane, 0};
        }
        return out;
      }
    }
    for (unsigned i = 0; i < n; ++i)
      out[i] = {v, i};
    return out;
  }

  Lanes compose(Instruction &inst) {
    if (auto *shuffle = dyn_cast<ShuffleVectorInst>(&inst)) {
      unsigned n0 = lanesOf(shuffle->getOperand(0)->getType());
      ArrayRef<int> mask = shuffle->getShuffleMask();
      bool uses[2] = {false, false};
      for (int m : mask)
        if (m >= 0)
          uses[unsigned(m) >= n0] = true;
      Lanes a, b;
      if (uses[0])
        a = sourcesOf(shuffle->getOperand(0));
      if (uses[1])
        b = sourcesOf(shuffle->getOperand(1));
      Lanes out(mask.size());
      for (auto [i, m] : llvm::enumerate(mask))
        if (m >= 0)
          out[i] = unsigned(m) < n0 ? a[m] : b[m - n0];
      return out;
    }
    // A chain of insertelements (a pack of scalars, thousands long) is
    // walked down, not recursed into.
    SmallVector<InsertElementInst *> chain{cast<InsertElementInst>(&inst)};
    while (true) {
      auto *below = dyn_cast<InsertElementInst>(chain.back()->getOperand(0));
      if (!below || !looked.contains(below) || !isShuffleLike(below))
        break;
      chain.push_back(below);
    }
    Lanes out = sourcesOf(chain.back()->getOperand(0));
    for (InsertElementInst *insert : llvm::reverse(chain)) {
      uint64_t index = cast<ConstantInt>(insert->getOperand(2))->getZExtValue();
      if (index >= out.size())
        return Lanes(out.size());
      Value *scalar = insert->getOperand(1);
      out[index] = isa<UndefValue>(scalar) ? LaneSource{} : LaneSource{scalar, 0};
    }
    return out;
  }

  /// A lane of a tile leaf as what the tile became: poison, the uniform
  /// value, or still a lane of a home.
  LaneSource resolved(LaneSource s) {
    if (s.poison() || s.scalar() || !isTile(s.value->getType()))
      return s;
    Tile &t = tileOf(s.value);
    if (t.kind == Tile::Poison)
      return {};
    if (t.kind == Tile::Uniform)
      return {uniformScalar(s.value), 0};
    return s;
  }
  bool inMemory(const LaneSource &s) const {
    return !s.poison() && !s.scalar() && isTile(s.value->getType());
  }

  /// The value every lane of `l` holds, or null.
  Value *uniformOf(const Lanes &l, Instruction &at) {
    const LaneSource *first = nullptr;
    for (const LaneSource &s : l) {
      if (s.poison())
        continue;
      if (!first)
        first = &s;
      else if (!(s == *first))
        return nullptr;
    }
    if (!first || first->scalar())
      return first ? first->value : nullptr;
    IRBuilder<> b(&at);
    if (inMemory(*first)) {
      Type *elem = elementOf(first->value->getType());
      return loadLanes(b, tileOf(first->value).base, elem, b.getInt64(first->lane), 1,
                       elemAlign(elem));
    }
    return b.CreateExtractElement(first->value, uint64_t(first->lane));
  }

  void visitShuffleLike(Instruction &inst) {
    if (lookThrough(inst)) {
      looked.insert(&inst);
      dead.insert(&inst);
      return;
    }
    Lanes l = compose(inst);
    if (llvm::any_of(l, [&](const LaneSource &s) { return region.set.contains(s.value); }))
      closeRegion();
    for (LaneSource &s : l)
      s = resolved(s);
    dead.insert(&inst);
    if (!isTile(inst.getType())) {
      IRBuilder<> b(&inst);
      inst.replaceAllUsesWith(narrow(b, l, cast<FixedVectorType>(inst.getType())));
      return;
    }
    if (llvm::all_of(l, [](const LaneSource &s) { return s.poison(); })) {
      tiles[&inst] = Tile();
      return;
    }
    if (Value *scalar = uniformOf(l, inst)) {
      setUniform(&inst, scalar, &inst);
      return;
    }
    if (place(inst, l))
      return;
    Member m{&inst, Role::Shuffle, plan(inst, l)};
    addMember(std::move(m), lanesOf(inst.getType()));
  }

  /// A narrow vector from its lanes.
  Value *narrow(IRBuilder<> &b, const Lanes &l, FixedVectorType *type) {
    Type *elem = type->getElementType();
    // One leaf, lane i from lane start + i: a load from its home or one shuffle.
    Value *leaf = nullptr;
    int64_t start = 0;
    bool one = true, contiguous = true;
    for (auto [i, s] : llvm::enumerate(l)) {
      if (s.poison())
        continue;
      if (s.scalar() || (leaf && s.value != leaf)) {
        one = false;
        break;
      }
      if (!leaf) {
        leaf = s.value;
        start = int64_t(s.lane) - int64_t(i);
      }
      contiguous &= int64_t(s.lane) == start + int64_t(i);
    }
    if (one && !leaf)
      return PoisonValue::get(type);
    if (one && !isTile(leaf->getType())) {
      SmallVector<int> mask;
      for (const LaneSource &s : l)
        mask.push_back(s.poison() ? PoisonMaskElem : int(s.lane));
      return b.CreateShuffleVector(leaf, mask);
    }
    if (one && contiguous && l.size() > 1 && start >= 0 &&
        start + l.size() <= lanesOf(leaf->getType()))
      return loadLanes(b, tileOf(leaf).base, elem, b.getInt64(start), l.size(), elemAlign(elem));
    Value *result = PoisonValue::get(type);
    for (auto [i, s] : llvm::enumerate(l)) {
      if (s.poison())
        continue;
      Value *lane;
      if (s.scalar())
        lane = s.value;
      else if (inMemory(s))
        lane = loadLanes(b, tileOf(s.value).base, elem, b.getInt64(s.lane), 1, elemAlign(elem));
      else
        lane = b.CreateExtractElement(s.value, uint64_t(s.lane));
      result = b.CreateInsertElement(result, lane, uint64_t(i));
    }
    return result;
  }

  /// Builds a tile whose lanes are, apart from those it keeps of one tile
  /// (lane i from lane i), scalars and lanes of narrow vectors, by storing
  /// those into the home. False when other tiles' lanes are needed.
  bool place(Instruction &inst, const Lanes &l) {
    unsigned n = l.size();
    Value *kept = nullptr;
    for (auto [i, s] : llvm::enumerate(l))
      if (inMemory(s) && s.lane == i && lanesOf(s.value->getType()) == n) {
        kept = s.value;
        break;
      }
    // Stores: one per run of consecutive lanes of one narrow vector, one per
    // scalar lane. Worth it only where that is about one store per source
    // (the pieces of a tile, a pack of scalars), not for a broadcast.
    DenseSet<Value *> sources;
    unsigned runs = 0;
    for (auto [i, s] : llvm::enumerate(l)) {
      if (inMemory(s) && !(s.value == kept && s.lane == i))
        return false;
      if (s.poison() || s.value == kept)
        continue;
      sources.insert(s.value);
      if (s.scalar() || i == 0 || l[i - 1].value != s.value || l[i - 1].lane + 1 != s.lane)
        ++runs;
    }
    if (runs > 2 * sources.size())
      return false;
    Type *elem = elementOf(inst.getType());
    IRBuilder<> b(&inst);
    Value *base;
    if (kept && isa<Instruction>(kept) && kept->hasOneUser() && !tileOf(kept).table &&
        !tileOf(kept).phi && !tileOf(kept).borrowed) {
      base = tileOf(kept).base;
    } else {
      base = newHome(elem, n);
      if (kept)
        copyHome(b, base, tileOf(kept).base, elem, n);
    }
    for (unsigned i = 0; i < n;) {
      const LaneSource &s = l[i];
      if (s.poison() || s.value == kept) {
        ++i;
        continue;
      }
      if (s.scalar()) {
        storeLanes(b, s.value, base, b.getInt64(i), alignAt(elem, i));
        ++i;
        continue;
      }
      unsigned k = 1;
      while (i + k < n && l[i + k].value == s.value && l[i + k].lane == s.lane + k)
        ++k;
      Value *part;
      if (k == 1) {
        part = b.CreateExtractElement(s.value, uint64_t(s.lane));
      } else if (s.lane == 0 && k == lanesOf(s.value->getType())) {
        part = s.value;
      } else {
        SmallVector<int> mask;
        for (unsigned j = 0; j < k; ++j)
          mask.push_back(int(s.lane + j));
        part = b.CreateShuffleVector(s.value, mask);
      }
      storeLanes(b, part, base, b.getInt64(i), alignAt(elem, i));
      i += k;
    }
    setMemory(&inst, base);
    return true;
  }

  /// How a tile-sized shuffle's loop reads its lanes. Narrow vectors and
  /// scalars among its sources are written to stack buffers first.
  ShufflePlan plan(Instruction &inst, const Lanes &l) {
    ShufflePlan p;
    Type *elem = elementOf(inst.getType());
    IRBuilder<> b(&inst);
    DenseMap<Value *, int> sourceOf;
    std::vector<Value *> scalars;
    DenseMap<Value *, unsigned> scalarIndex;
    std::vector<std::pair<int32_t, int32_t>> where(l.size(), {-1, 0});
    for (auto [i, s] : llvm::enumerate(l)) {
      if (s.poison())
        continue;
      if (s.scalar()) {
        auto [it, fresh] = scalarIndex.try_emplace(s.value, scalars.size());
        if (fresh)
          scalars.push_back(s.value);
        where[i] = {-2, int32_t(it->second)};
        continue;
      }
      auto [it, fresh] = sourceOf.try_emplace(s.value, p.bases.size());
      if (fresh) {
        unsigned n = lanesOf(s.value->getType());
        Value *base;
        if (inMemory(s)) {
          base = tileOf(s.value).base;
        } else {
          base = newHome(elem, n);
          storeLanes(b, s.value, base, b.getInt64(0), chunkAlign(elem));
        }
        p.bases.push_back(base);
        p.sourceLanes.push_back(n);
      }
      where[i] = {it->second, int32_t(s.lane)};
    }
    if (!scalars.empty()) {
      Value *base = newHome(elem, scalars.size());
      for (auto [i, s] : llvm::enumerate(scalars))
        storeLanes(b, s, base, b.getInt64(i), elemAlign(elem));
      for (auto &[source, lane] : where)
        if (source == -2)
          source = int32_t(p.bases.size());
      p.bases.push_back(base);
      p.sourceLanes.push_back(scalars.size());
    }

    unsigned chunks = l.size() / lanes;
    bool contiguous = true, splat = true;
    p.chunkSource.assign(chunks, -1);
    p.chunkStart.assign(chunks, 0);
    std::vector<int32_t> splatLane(chunks, 0);
    for (unsigned c = 0; c < chunks; ++c) {
      int32_t source = -1, start = 0, lane = 0;
      for (unsigned i = 0; i < lanes; ++i) {
        auto [s, at] = where[c * lanes + i];
        if (s < 0)
          continue;
        if (source < 0) {
          source = s;
          start = at - int32_t(i);
          lane = at;
          continue;
        }
        if (s != source) {
          contiguous = splat = false;
          break;
        }
        contiguous &= at == start + int32_t(i);
        splat &= at == lane;
      }
      if (source >= 0 && (start < 0 || start + lanes > p.sourceLanes[source]))
        contiguous = false;
      p.chunkSource[c] = source;
      p.chunkStart[c] = start;
      splatLane[c] = lane;
    }
    // Chunks of poison read what the previous (or first) chunk reads.
    int32_t firstChunk = 0;
    while (firstChunk < int32_t(chunks) && p.chunkSource[firstChunk] < 0)
      ++firstChunk;
    for (unsigned c = 0; c < chunks; ++c)
      if (p.chunkSource[c] < 0) {
        unsigned from = c == 0 ? firstChunk : c - 1;
        p.chunkSource[c] = p.chunkSource[from];
        p.chunkStart[c] = p.chunkStart[from];
        splatLane[c] = splatLane[from];
      }
    if (contiguous) {
      p.kind = ShufflePlan::Contiguous;
    } else if (splat) {
      p.kind = ShufflePlan::Splat;
      p.chunkStart = std::move(splatLane);
    } else {
      p.kind = ShufflePlan::Gather;
      p.chunkSource.clear();
      p.chunkStart.clear();
      for (auto [s, at] : where) {
        p.laneSource.push_back(s < 0 ? 0 : s);
        p.laneIndex.push_back(s < 0 ? 0 : at);
      }
    }
    return p;
  }

  /// `values[c]` as `first + c * step`, if it is that.
  static std::optional<std::pair<int64_t, int64_t>> affine(ArrayRef<int32_t> values) {
    if (values.empty())
      return std::nullopt;
    int64_t step = values.size() > 1 ? int64_t(values[1]) - values[0] : 0;
    for (size_t c = 0; c < values.size(); ++c)
      if (values[c] != values[0] + step * int64_t(c))
        return std::nullopt;
    return std::make_pair(int64_t(values[0]), step);
  }

  /// Per-chunk value `values[c]` (i64) inside the loop.
  Value *perChunk(IRBuilder<> &b, ArrayRef<int32_t> values, Value *c) {
    if (auto line = affine(values))
      return b.CreateAdd(b.getInt64(line->first), b.CreateMul(c, b.getInt64(line->second)));
    GlobalVariable *t = i32Table(values);
    Value *v = b.CreateAlignedLoad(b.getInt32Ty(), b.CreateInBoundsGEP(b.getInt32Ty(), t, c),
                                   Align(4));
    return b.CreateSExt(v, b.getInt64Ty());
  }

  Value *pickBase(IRBuilder<> &b, const ShufflePlan &p, Value *source) {
    Value *base = p.bases[0];
    for (size_t j = 1; j < p.bases.size(); ++j)
      base = b.CreateSelect(b.CreateICmpEQ(source, ConstantInt::get(source->getType(), j)),
                            p.bases[j], base);
    return base;
  }

  Value *emitShuffle(IRBuilder<> &b, const Member &m, Value *c) {
    const ShufflePlan &p = m.plan;
    Type *elem = elementOf(m.inst->getType());
    if (p.kind != ShufflePlan::Gather) {
      Value *base =
          p.bases.size() == 1 ? p.bases[0] : pickBase(b, p, perChunk(b, p.chunkSource, c));
      Value *start = perChunk(b, p.chunkStart, c);
      if (p.kind == ShufflePlan::Splat)
        return b.CreateVectorSplat(lanes, loadLanes(b, base, elem, start, 1, elemAlign(elem)));
      bool aligned = llvm::all_of(p.chunkStart, [&](int32_t s) { return s % lanes == 0; });
      return loadLanes(b, base, elem, start, lanes, aligned ? chunkAlign(elem) : elemAlign(elem));
    }
    Type *i32 = b.getInt32Ty();
    Value *first = b.CreateMul(c, b.getInt64(lanes));
    auto laneVector = [&](GlobalVariable *t, Type *type, Align align) {
      return b.CreateAlignedLoad(FixedVectorType::get(type, lanes),
                                 b.CreateInBoundsGEP(type, t, first), align);
    };
    Value *index = b.CreateSExt(laneVector(i32Table(p.laneIndex), i32, chunkAlign(i32)),
                                FixedVectorType::get(b.getInt64Ty(), lanes));
    Type *storage = storageOf(elem);
    Value *ptrs = b.CreateInBoundsGEP(storage, p.bases[0], index);
    if (p.bases.size() > 1) {
      Value *source = laneVector(i8Table(p.laneSource), b.getInt8Ty(), Align(1));
      for (size_t j = 1; j < p.bases.size(); ++j) {
        Value *is = b.CreateICmpEQ(source, ConstantInt::get(source->getType(), j));
        ptrs = b.CreateSelect(is, b.CreateInBoundsGEP(storage, p.bases[j], index), ptrs);
      }
    }
    Value *gathered = b.CreateMaskedGather(FixedVectorType::get(storage, lanes), ptrs,
                                           elemAlign(elem));
    return fromStorage(b, gathered, elem);
  }

  //===--------------------------------------------------------------------===//
  // Regions: loops over chunks
  //===--------------------------------------------------------------------===//

  static bool laneWise(Instruction &inst, unsigned n) {
    return llvm::all_of(inst.operands(), [&](Use &use) {
      auto *vec = dyn_cast<FixedVectorType>(use->getType());
      return !vec || vec->getNumElements() == n;
    });
  }

  bool isLaneWiseCall(Instruction &inst) const {
    auto *call = dyn_cast<IntrinsicInst>(&inst);
    if (!call)
      return false;
    Intrinsic::ID id = call->getIntrinsicID();
    return isTriviallyVectorizable(id) || id == Intrinsic::masked_gather ||
           id == Intrinsic::masked_scatter;
  }

  void addMember(Member m, unsigned size) {
    bool reads = m.role == Role::Load || m.inst->mayReadFromMemory();
    bool writes = m.role == Role::Store || m.inst->mayWriteToMemory();
    if (!region.members.empty() && (region.size != size || writes))
      closeRegion();
    region.size = size;
    region.readsMemory |= reads;
    region.set.insert(m.inst);
    region.members.push_back(std::move(m));
    if (writes)
      closeRegion();
  }

  Value *chunkOperand(IRBuilder<> &b, Value *v, Value *c, DenseMap<Value *, Value *> &inLoop) {
    auto it = inLoop.find(v);
    if (it != inLoop.end())
      return it->second;
    Tile &t = tileOf(v);
    Value *chunk = nullptr;
    switch (t.kind) {
    case Tile::Poison:
      chunk = PoisonValue::get(chunkType(v->getType()));
      break;
    case Tile::Uniform:
      chunk = t.chunk;
      break;
    case Tile::Memory: {
      Type *elem = elementOf(v->getType());
      if (t.first) {
        Value *offset = b.CreateMul(b.CreateTrunc(c, elem), ConstantInt::get(elem, t.step));
        chunk = b.CreateAdd(t.first, b.CreateVectorSplat(lanes, offset));
        break;
      }
      chunk = loadLanes(b, t.base, elem, b.CreateMul(c, b.getInt64(lanes)), lanes,
                        chunkAlign(elem));
      break;
    }
    }
    inLoop[v] = chunk;
    return chunk;
  }

  /// `inst` on one chunk, its tile operands resolved by `operand`.
  Value *emitLaneWise(IRBuilder<> &b, Instruction &inst,
                      function_ref<Value *(Value *)> operand) {
    if (auto *call = dyn_cast<IntrinsicInst>(&inst)) {
      SmallVector<Value *> args;
      SmallVector<Type *> argTypes;
      for (Value *arg : call->args()) {
        args.push_back(isTile(arg->getType()) ? operand(arg) : arg);
        argTypes.push_back(args.back()->getType());
      }
      Type *result = call->getType()->isVoidTy() ? call->getType() : chunkType(call->getType());
      Function *callee = Intrinsic::getOrInsertDeclaration(f.getParent(), call->getIntrinsicID(),
                                                           result, argTypes);
      CallInst *part = b.CreateCall(callee, args);
      part->setAttributes(call->getAttributes());
      if (isa<FPMathOperator>(part))
        part->copyFastMathFlags(call);
      return part;
    }
    Instruction *part = inst.clone();
    for (Use &use : part->operands())
      if (isTile(use->getType()))
        use.set(operand(use.get()));
    part->mutateType(chunkType(inst.getType()));
    return b.Insert(part);
  }

  Value *emitMember(IRBuilder<> &b, const Member &m, Value *c,
                    DenseMap<Value *, Value *> &inLoop) {
    auto operand = [&](Value *v) { return chunkOperand(b, v, c, inLoop); };
    switch (m.role) {
    case Role::LaneWise:
      return emitLaneWise(b, *m.inst, operand);
    case Role::Shuffle:
      return emitShuffle(b, m, c);
    case Role::Load: {
      auto *load = cast<LoadInst>(m.inst);
      uint64_t bytes = lanes * dl.getTypeStoreSize(elementOf(load->getType()));
      Value *at = b.CreateInBoundsGEP(b.getInt8Ty(), load->getPointerOperand(),
                                      b.CreateMul(c, b.getInt64(bytes)));
      return b.CreateAlignedLoad(chunkType(load->getType()), at,
                                 commonAlignment(load->getAlign(), bytes));
    }
    case Role::Store: {
      auto *store = cast<StoreInst>(m.inst);
      Value *value = store->getValueOperand();
      uint64_t bytes = lanes * dl.getTypeStoreSize(elementOf(value->getType()));
      Value *at = b.CreateInBoundsGEP(b.getInt8Ty(), store->getPointerOperand(),
                                      b.CreateMul(c, b.getInt64(bytes)));
      b.CreateAlignedStore(operand(value), at, commonAlignment(store->getAlign(), bytes));
      return nullptr;
    }
    }
    return nullptr;
  }

  /// Runs `body(b, chunk)` for chunk = 0 .. count-1 in a loop inserted
  /// before `before` (which moves to the block after the loop).
  void chunkLoop(Instruction *before, unsigned count,
                 function_ref<void(IRBuilder<> &, Value *)> body) {
    BasicBlock *pre = before->getParent();
    BasicBlock *post = SplitBlock(pre, before->getIterator());
    BasicBlock *loop = BasicBlock::Create(ctx, "tile.loop", &f, post);
    loops.insert(loop);
    pre->getTerminator()->setSuccessor(0, loop);
    IRBuilder<> b(loop);
    PHINode *c = b.CreatePHI(b.getInt64Ty(), 2, "chunk");
    c->addIncoming(b.getInt64(0), pre);
    body(b, c);
    Value *next = b.CreateNUWAdd(c, b.getInt64(1));
    c->addIncoming(next, b.GetInsertBlock());
    b.CreateCondBr(b.CreateICmpULT(next, b.getInt64(count)), loop, post);
  }

  /// The instructions that read `v`'s home: its users, and for a user that
  /// is looked through, the instruction that composes it.
  SmallVector<Instruction *> readersOf(Value *v) {
    SmallVector<Instruction *> readers;
    for (User *user : v->users()) {
      auto *inst = cast<Instruction>(user);
      while (looked.contains(inst))
        inst = cast<Instruction>(inst->user_back());
      readers.push_back(inst);
    }
    auto it = spillReaders.find(v);
    if (it != spillReaders.end())
      readers.append(it->second.begin(), it->second.end());
    return readers;
  }

  /// Whether `use` (reading `v`; a phi reads at the end of its incoming
  /// block) can run after `from` before `redef` (an instruction, or a phi:
  /// its block) defines `v` again.
  static bool reachable(Instruction *from, Instruction *use, Value *v, Instruction *redef) {
    SmallVector<BasicBlock *, 2> at;
    auto *phiUse = dyn_cast<PHINode>(use);
    if (phiUse) {
      for (unsigned i = 0; i < phiUse->getNumIncomingValues(); ++i)
        if (phiUse->getIncomingValue(i) == v)
          at.push_back(phiUse->getIncomingBlock(i));
    } else {
      at.push_back(use->getParent());
    }
    for (Instruction *i = from->getNextNode(); i; i = i->getNextNode()) {
      if (i == redef)
        return false;
      if (i == use && !phiUse)
        return true;
    }
    BasicBlock *start = from->getParent();
    if (phiUse && llvm::is_contained(at, start))
      return true;
    BasicBlock *stop = redef->getParent();
    SmallVector<BasicBlock *> work(succ_begin(start), succ_end(start));
    DenseSet<BasicBlock *> seen;
    while (!work.empty()) {
      BasicBlock *block = work.pop_back_val();
      if (block == stop || !seen.insert(block).second)
        continue;
      if (llvm::is_contained(at, block))
        return true;
      work.append(succ_begin(block), succ_end(block));
    }
    return false;
  }

  /// The phi whose home member `x` of `r` may write in place: x only feeds
  /// that phi, r reads the phi lane by lane, and nothing reads the phi after
  /// r before the phi's block redefines it.
  PHINode *inPlacePhi(const Region &r, Instruction *x) {
    if (!x->hasOneUse())
      return nullptr;
    auto *phi = dyn_cast<PHINode>(x->user_back());
    if (!phi || inPlace.contains(phi))
      return nullptr;
    auto it = tiles.find(phi);
    if (it == tiles.end() || it->second.phi != phi)
      return nullptr;
    Instruction *last = r.members.back().inst;
    for (Instruction *reader : readersOf(phi)) {
      if (r.set.contains(reader)) {
        auto m = llvm::find_if(r.members, [&](const Member &m) { return m.inst == reader; });
        if (m->role == Role::Shuffle || !llvm::is_contained(reader->operands(), phi))
          return nullptr;
        continue;
      }
      if (reachable(last, reader, phi, phi))
        return nullptr;
    }
    inPlace.insert(phi);
    return phi;
  }

  void closeRegion() {
    if (region.members.empty())
      return;
    Region r = std::move(region);
    region = Region();
    std::vector<std::pair<Instruction *, Value *>> stores;
    for (Member &m : r.members) {
      Instruction *inst = m.inst;
      dead.insert(inst);
      if (inst->getType()->isVoidTy())
        continue;
      if (llvm::all_of(inst->users(), [&](User *u) { return r.set.contains(u); })) {
        tiles[inst] = Tile();
        continue;
      }
      Value *base;
      if (PHINode *phi = inPlacePhi(r, inst))
        base = tiles[phi].base;
      else
        base = newHome(elementOf(inst->getType()), r.size);
      setMemory(inst, base);
      stores.push_back({inst, base});
    }
    chunkLoop(r.members.back().inst->getNextNode(), r.size / lanes,
              [&](IRBuilder<> &b, Value *c) {
                DenseMap<Value *, Value *> inLoop;
                for (Member &m : r.members)
                  if (Value *chunk = emitMember(b, m, c, inLoop))
                    inLoop[m.inst] = chunk;
                for (auto [inst, base] : stores) {
                  Type *elem = elementOf(inst->getType());
                  storeLanes(b, inLoop[inst], base, b.CreateMul(c, b.getInt64(lanes)),
                             chunkAlign(elem));
                }
              });
  }

  bool readsRegion(Instruction &inst) const {
    return llvm::any_of(inst.operands(), [&](Value *v) { return region.set.contains(v); });
  }

  //===--------------------------------------------------------------------===//
  // Stack buffers of the input
  //===--------------------------------------------------------------------===//
  //
  // Where the distribute lowering walks a tile's registers in a loop, it
  // writes the tile whole to a stack buffer before the loop (a spill) and
  // reads a result whole from one after it (a reload). A spill whose buffer
  // is only read afterwards, where the store dominates every read, reads the
  // tile's home instead; a reload's buffer becomes the result's home when
  // nothing writes the buffer again while the result is live. Decided on
  // the input's CFG, before the walk changes it.

  /// The alloca under `ptr` through zero-offset GEPs, or null.
  static AllocaInst *bufferOf(Value *ptr) {
    ptr = ptr->stripPointerCasts();
    while (auto *gep = dyn_cast<GEPOperator>(ptr)) {
      if (!gep->hasAllZeroIndices())
        return nullptr;
      ptr = gep->getPointerOperand()->stripPointerCasts();
    }
    auto *alloca = dyn_cast<AllocaInst>(ptr);
    return alloca && alloca->isStaticAlloca() ? alloca : nullptr;
  }

  /// The loads and stores through `alloca` (and GEPs of it); false when it
  /// has any other use.
  static bool accesses(AllocaInst *alloca, SmallVectorImpl<LoadInst *> &loads,
                       SmallVectorImpl<StoreInst *> &stores) {
    SmallVector<Value *> work{alloca};
    while (!work.empty()) {
      Value *ptr = work.pop_back_val();
      for (User *user : ptr->users()) {
        if (auto *load = dyn_cast<LoadInst>(user); load && load->isSimple()) {
          loads.push_back(load);
        } else if (auto *store = dyn_cast<StoreInst>(user);
                   store && store->isSimple() && store->getPointerOperand() == ptr) {
          stores.push_back(store);
        } else if (isa<GetElementPtrInst, BitCastInst>(user)) {
          work.push_back(user);
        } else {
          return false;
        }
      }
    }
    return true;
  }

  /// The instructions that read `v`, through shuffle chains (which may be
  /// looked through).
  static SmallVector<Instruction *> usersThroughShuffles(Value *v) {
    SmallVector<Instruction *> users;
    for (User *user : v->users()) {
      auto *inst = cast<Instruction>(user);
      while (isShuffleLike(inst) && inst->hasOneUse())
        inst = cast<Instruction>(inst->user_back());
      users.push_back(inst);
    }
    return users;
  }

  void planForwarding() {
    DominatorTree dt(f);
    for (Instruction &inst : instructions(f)) {
      auto *store = dyn_cast<StoreInst>(&inst);
      if (!store || !store->isSimple() || !isTile(store->getValueOperand()->getType()))
        continue;
      AllocaInst *alloca = bufferOf(store->getPointerOperand());
      Type *type = store->getValueOperand()->getType();
      SmallVector<LoadInst *> loads;
      SmallVector<StoreInst *> stores;
      if (!alloca || !accesses(alloca, loads, stores) || stores.size() != 1 ||
          dl.getTypeAllocSize(type) >
              alloca->getAllocationSize(dl).value_or(TypeSize::getFixed(0)))
        continue;
      if (!llvm::all_of(loads, [&](LoadInst *l) { return dt.dominates(store, l); }))
        continue;
      spills[store] = alloca;
      spillReaders[store->getValueOperand()].append(loads.begin(), loads.end());
    }
    for (Instruction &inst : instructions(f)) {
      auto *load = dyn_cast<LoadInst>(&inst);
      if (!load || !load->isSimple() || !isTile(load->getType()) ||
          !byteSized(elementOf(load->getType())))
        continue;
      AllocaInst *alloca = bufferOf(load->getPointerOperand());
      SmallVector<LoadInst *> loads;
      SmallVector<StoreInst *> stores;
      if (!alloca || !accesses(alloca, loads, stores) ||
          dl.getTypeAllocSize(load->getType()) !=
              alloca->getAllocationSize(dl).value_or(TypeSize::getFixed(0)) ||
          llvm::any_of(stores, [&](StoreInst *s) { return spills.contains(s); }))
        continue;
      SmallVector<Instruction *> readers = usersThroughShuffles(load);
      auto spilled = spillReaders.find(load);
      if (spilled != spillReaders.end())
        readers.append(spilled->second.begin(), spilled->second.end());
      bool clobbered = llvm::any_of(stores, [&](StoreInst *s) {
        return llvm::any_of(readers, [&](Instruction *reader) {
          return reachable(s, reader, load, load);
        });
      });
      if (!clobbered)
        reloads[load] = alloca;
    }
  }

  //===--------------------------------------------------------------------===//
  // Lifetimes
  //===--------------------------------------------------------------------===//
  //
  // Every home is its own alloca, so without lifetimes a kernel's frame holds
  // all its tiles at once (megabytes for attention). A home used only within
  // one input block (now a chain of pieces and the chunk loops between them)
  // gets llvm.lifetime.start before its first use and .end after its last,
  // so that the back end's stack colouring lets homes share bytes. Homes of
  // phis, or used in several blocks, keep the whole frame.

  /// For each block of a chain (an input block split around chunk loops),
  /// the chain and its position in it.
  DenseMap<BasicBlock *, std::pair<unsigned, unsigned>> chains() {
    DenseMap<BasicBlock *, std::pair<unsigned, unsigned>> at;
    unsigned chain = 0;
    for (BasicBlock &block : f) {
      if (loops.contains(&block) || at.contains(&block))
        continue;
      // Not the piece after a loop: that one is reached from its loop.
      bool afterLoop = llvm::any_of(predecessors(&block),
                                    [&](BasicBlock *p) { return loops.contains(p); });
      if (afterLoop)
        continue;
      unsigned index = 0;
      for (BasicBlock *piece = &block; piece;) {
        at[piece] = {chain, index++};
        auto *br = dyn_cast<BranchInst>(piece->getTerminator());
        BasicBlock *loop = br && br->isUnconditional() ? br->getSuccessor(0) : nullptr;
        if (!loop || !loops.contains(loop))
          break;
        at[loop] = {chain, index++};
        auto *back = cast<BranchInst>(loop->getTerminator());
        piece = back->getSuccessor(back->getSuccessor(0) == loop ? 1 : 0);
      }
      ++chain;
    }
    return at;
  }

  void markLifetimes() {
    DenseMap<BasicBlock *, std::pair<unsigned, unsigned>> at = chains();
    // Positions: (piece, instruction) within a chain; a loop counts whole.
    DenseMap<BasicBlock *, DenseMap<Instruction *, unsigned>> order;
    auto position = [&](Instruction *inst) {
      BasicBlock *block = inst->getParent();
      auto &numbers = order[block];
      if (numbers.empty()) {
        unsigned n = 0;
        for (Instruction &i : *block)
          numbers[&i] = n++;
      }
      return std::make_pair(at.lookup(block).second, loops.contains(block) ? 0 : numbers[inst]);
    };
    for (AllocaInst *home : homes) {
      if (pinned.contains(home))
        continue;
      SmallVector<Instruction *> uses;
      SmallVector<Value *> work{home};
      bool ok = true;
      while (!work.empty() && ok) {
        for (User *user : work.pop_back_val()->users()) {
          auto *inst = cast<Instruction>(user);
          if (isa<GetElementPtrInst, BitCastInst>(inst))
            work.push_back(inst);
          else if (isa<LoadInst, StoreInst, MemTransferInst>(inst))
            uses.push_back(inst);
          else
            ok = false;
        }
      }
      if (!ok || uses.empty())
        continue;
      auto chain = at.find(uses.front()->getParent());
      if (chain == at.end() || llvm::any_of(uses, [&](Instruction *u) {
            auto c = at.find(u->getParent());
            return c == at.end() || c->second.first != chain->second.first;
          }))
        continue;
      Instruction *first = uses.front(), *last = uses.front();
      for (Instruction *u : uses) {
        if (position(u) < position(first))
          first = u;
        if (position(u) > position(last))
          last = u;
      }
      // Before a loop: at the end of the piece before it; after one: at the
      // start of the piece after it.
      Instruction *startAt = first;
      if (BasicBlock *loop = first->getParent(); loops.contains(loop))
        for (BasicBlock *pred : predecessors(loop))
          if (pred != loop)
            startAt = pred->getTerminator();
      Instruction *endAt = last->getNextNode();
      if (loops.contains(last->getParent())) {
        auto *back = cast<BranchInst>(last->getParent()->getTerminator());
        BasicBlock *exit = back->getSuccessor(back->getSuccessor(0) == last->getParent() ? 1 : 0);
        endAt = &*exit->getFirstInsertionPt();
      }
      IRBuilder<>(startAt).CreateLifetimeStart(home);
      IRBuilder<>(endAt).CreateLifetimeEnd(home);
    }
  }

  //===--------------------------------------------------------------------===//
  // The walk
  //===--------------------------------------------------------------------===//

  void visit(Instruction &inst) {
    if (auto *phi = dyn_cast<PHINode>(&inst)) {
      if (!isTile(phi->getType()))
        return;
      Tile t;
      t.kind = Tile::Memory;
      t.base = newHome(elementOf(phi->getType()), lanesOf(phi->getType()));
      t.phi = phi;
      tiles[phi] = t;
      pinned.insert(t.base);
      phis.push_back(phi);
      dead.insert(phi);
      return;
    }
    if (isShuffleLike(&inst) && followed(inst)) {
      visitShuffleLike(inst);
      return;
    }
    bool tileResult = isTile(inst.getType());
    bool tileOperand =
        llvm::any_of(inst.operands(), [&](Value *v) { return isTile(v->getType()); });
    if (!tileResult && !tileOperand) {
      if (region.readsMemory && inst.mayWriteToMemory())
        closeRegion();
      return;
    }
    if (auto *extract = dyn_cast<ExtractElementInst>(&inst)) {
      visitExtract(*extract);
      return;
    }
    if (auto *insert = dyn_cast<InsertElementInst>(&inst)) {
      visitDynamicInsert(*insert);
      return;
    }
    if (tileResult && laneWise(inst, lanesOf(inst.getType())) &&
        (isa<BinaryOperator, UnaryOperator, CmpInst, SelectInst, CastInst, FreezeInst,
             GetElementPtrInst>(inst) ||
         isLaneWiseCall(inst))) {
      visitLaneWise(inst);
      return;
    }
    if (auto *call = dyn_cast<IntrinsicInst>(&inst);
        call && call->getIntrinsicID() == Intrinsic::masked_scatter) {
      Value *value = call->getArgOperand(0);
      if (isTile(value->getType()) && laneWise(inst, lanesOf(value->getType()))) {
        addMember({&inst, Role::LaneWise, {}}, lanesOf(value->getType()));
        return;
      }
    }
    if (auto *load = dyn_cast<LoadInst>(&inst); load && reloads.contains(load)) {
      AllocaInst *buffer = reloads.lookup(load);
      buffer->setAlignment(std::max(buffer->getAlign(), chunkAlign(elementOf(load->getType()))));
      Tile t;
      t.kind = Tile::Memory;
      t.base = buffer;
      t.borrowed = true;
      tiles[load] = t;
      dead.insert(load);
      return;
    }
    if (auto *store = dyn_cast<StoreInst>(&inst); store && spills.contains(store)) {
      Value *value = store->getValueOperand();
      if (region.set.contains(value))
        closeRegion();
      Tile &t = tileOf(value);
      if (t.kind == Tile::Memory) {
        spills.lookup(store)->replaceAllUsesWith(t.base);
        dead.insert(store);
        return;
      }
    }
    if (auto *load = dyn_cast<LoadInst>(&inst);
        load && tileResult && load->isSimple() && byteSized(elementOf(load->getType()))) {
      addMember({&inst, Role::Load, {}}, lanesOf(load->getType()));
      return;
    }
    if (auto *store = dyn_cast<StoreInst>(&inst)) {
      Type *type = store->getValueOperand()->getType();
      if (isTile(type) && store->isSimple() && byteSized(elementOf(type)) &&
          !isTile(store->getPointerOperand()->getType())) {
        if (region.set.contains(store->getValueOperand()))
          closeRegion();
        addMember({&inst, Role::Store, {}}, lanesOf(type));
        return;
      }
    }
    fallback(inst);
  }

  void visitLaneWise(Instruction &inst) {
    // Bytes of a tile of booleans are its home already (i1 lanes are kept
    // as bytes): the distribute lowering widens masks so before spilling them.
    if (auto *zext = dyn_cast<ZExtInst>(&inst);
        zext && zext->getSrcTy()->getScalarType()->isIntegerTy(1) &&
        zext->getDestTy()->getScalarType()->isIntegerTy(8) &&
        !region.set.contains(zext->getOperand(0))) {
      Tile src = tileOf(zext->getOperand(0));
      if (src.kind == Tile::Memory && !src.phi && !src.borrowed) {
        setMemory(&inst, src.base);
        tiles[&inst].borrowed = true;
        dead.insert(&inst);
        return;
      }
    }
    bool uniform = true;
    for (Value *v : inst.operands())
      if (isTile(v->getType()) && (region.set.contains(v) || tileOf(v).kind == Tile::Memory))
        uniform = false;
    if (!uniform || inst.mayReadOrWriteMemory()) {
      addMember({&inst, Role::LaneWise, {}}, lanesOf(inst.getType()));
      return;
    }
    IRBuilder<> b(&inst);
    Value *chunk = emitLaneWise(b, inst, [&](Value *v) -> Value * {
      Tile &t = tileOf(v);
      return t.kind == Tile::Uniform ? t.chunk : PoisonValue::get(chunkType(v->getType()));
    });
    Tile t;
    t.kind = Tile::Uniform;
    t.chunk = chunk;
    tiles[&inst] = t;
    dead.insert(&inst);
  }

  void visitExtract(ExtractElementInst &inst) {
    Value *vec = inst.getVectorOperand();
    if (!isTile(vec->getType())) {
      fallback(inst);
      return;
    }
    if (region.set.contains(vec))
      closeRegion();
    Tile &t = tileOf(vec);
    IRBuilder<> b(&inst);
    Value *v;
    if (t.kind == Tile::Poison) {
      v = PoisonValue::get(inst.getType());
    } else if (t.kind == Tile::Uniform) {
      v = uniformScalar(vec);
    } else {
      Type *elem = elementOf(vec->getType());
      Value *index = b.CreateZExtOrTrunc(inst.getIndexOperand(), b.getInt64Ty());
      v = loadLanes(b, t.base, elem, index, 1, elemAlign(elem));
    }
    inst.replaceAllUsesWith(v);
    dead.insert(&inst);
  }

  /// An insertelement at a run-time index: into the operand's home when it
  /// is the operand's only user, else into a copy.
  void visitDynamicInsert(InsertElementInst &inst) {
    Value *vec = inst.getOperand(0);
    if (!isTile(inst.getType())) {
      fallback(inst);
      return;
    }
    if (region.set.contains(vec))
      closeRegion();
    Type *elem = elementOf(inst.getType());
    unsigned n = lanesOf(inst.getType());
    IRBuilder<> b(&inst);
    Tile src = tileOf(vec);
    Value *base;
    if (src.kind == Tile::Memory && !src.table && !src.phi && !src.borrowed &&
        isa<Instruction>(vec) && vec->hasOneUser()) {
      base = src.base;
    } else {
      base = newHome(elem, n);
      if (src.kind == Tile::Memory) {
        copyHome(b, base, src.base, elem, n);
      } else if (src.kind == Tile::Uniform) {
        Value *chunk = src.chunk;
        chunkLoop(&inst, n / lanes, [&](IRBuilder<> &lb, Value *c) {
          storeLanes(lb, chunk, base, lb.CreateMul(c, lb.getInt64(lanes)), chunkAlign(elem));
        });
        b.SetInsertPoint(&inst);
      }
    }
    Value *index = b.CreateZExtOrTrunc(inst.getOperand(2), b.getInt64Ty());
    storeLanes(b, inst.getOperand(1), base, index, elemAlign(elem));
    setMemory(&inst, base);
    dead.insert(&inst);
  }

  /// An instruction this rewrite does not know: its tile operands reloaded
  /// whole before it, its tile result spilled after it.
  void fallback(Instruction &inst) {
    if (readsRegion(inst) || (region.readsMemory && inst.mayWriteToMemory()))
      closeRegion();
    IRBuilder<> b(&inst);
    for (Use &use : inst.operands())
      if (isTile(use->getType()) && !isa<Constant>(use.get()))
        use.set(whole(b, use.get()));
    if (isTile(inst.getType()))
      tileOf(&inst);
  }

  /// Writes each tile phi's home on its incoming edges.
  void copyIntoPhis() {
    std::map<std::pair<BasicBlock *, BasicBlock *>, std::vector<std::pair<PHINode *, Value *>>>
        edges;
    for (PHINode *phi : phis)
      for (unsigned i = 0; i < phi->getNumIncomingValues(); ++i)
        edges[{phi->getIncomingBlock(i), phi->getParent()}].push_back(
            {phi, phi->getIncomingValue(i)});
    for (auto &[edge, copies] : edges) {
      auto [from, to] = edge;
      std::vector<std::pair<PHINode *, Tile>> work;
      for (auto [phi, value] : copies) {
        Tile src = tileOf(value);
        if (src.kind == Tile::Poison || (src.kind == Tile::Memory && src.base == tiles[phi].base))
          continue;
        work.push_back({phi, src});
      }
      if (work.empty())
        continue;
      BasicBlock *at = from;
      if (from->getTerminator()->getNumSuccessors() > 1)
        at = SplitEdge(from, to);
      Instruction *end = at->getTerminator();
      IRBuilder<> b(end);
      // A source that is another phi's home on this edge is copied first.
      for (auto &[phi, src] : work)
        if (src.kind == Tile::Memory &&
            llvm::any_of(work, [&](auto &w) { return tiles[w.first].base == src.base; })) {
          Type *elem = elementOf(phi->getType());
          unsigned n = lanesOf(phi->getType());
          Value *tmp = newHome(elem, n);
          copyHome(b, tmp, src.base, elem, n);
          src.base = tmp;
        }
      for (auto &[phi, src] : work) {
        Type *elem = elementOf(phi->getType());
        unsigned n = lanesOf(phi->getType());
        Value *dst = tiles[phi].base;
        if (src.kind == Tile::Memory) {
          b.SetInsertPoint(end);
          copyHome(b, dst, src.base, elem, n);
          continue;
        }
        Value *chunk = src.chunk;
        chunkLoop(end, n / lanes, [&](IRBuilder<> &lb, Value *c) {
          storeLanes(lb, chunk, dst, lb.CreateMul(c, lb.getInt64(lanes)), chunkAlign(elem));
        });
      }
    }
  }

  Function &f;
  LLVMContext &ctx;
  const DataLayout &dl;
  unsigned lanes, minChunks;
  std::unordered_map<Value *, Tile> tiles;
  DenseSet<Value *> looked;
  DenseSet<PHINode *> inPlace;
  DenseMap<StoreInst *, AllocaInst *> spills;
  DenseMap<LoadInst *, AllocaInst *> reloads;
  DenseMap<Value *, SmallVector<Instruction *>> spillReaders;
  std::vector<AllocaInst *> homes;
  DenseSet<Value *> pinned;
  DenseSet<BasicBlock *> loops;
  Region region;
  std::vector<PHINode *> phis;
  SetVector<Instruction *> dead;
};

} // namespace

void lowerTilesAsLoops(Module &module, unsigned lanes, unsigned minChunks) {
  for (Function &f : module)
    if (!f.isDeclaration())
      TileLoops(f, lanes, minChunks).run();
}

} // namespace hadron::host
