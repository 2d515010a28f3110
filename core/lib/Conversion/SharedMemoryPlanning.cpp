//===- SharedMemoryPlanning.cpp - Allocation and barrier insertion --------===//
//
// Allocation: every buffer (a local_alloc, or the scratch space of an op
// whose lowering exchanges data between threads) gets a live interval in a
// pre-order numbering of the kernel's ops. A buffer used inside a nested
// region lives until the end of the op that holds that region in the
// buffer's own block, so a loop keeps alive what its body uses. Buffers are
// placed largest first at the lowest 16-byte aligned offset that no placed
// buffer with an overlapping interval occupies.
//
// Barriers: a forward walk keeps the shared-memory accesses made since the
// last barrier (byte ranges, read or write). An access that conflicts with
// one of them (read after write, write after read or write, ranges
// overlapping) gets an hd.barrier before it. Loops are walked twice, the
// second time with what the end of the body leaves pending, so that the
// accesses of one iteration are ordered against those of the next. The
// regions of an hd.warp_specialize are planned each on its own (they order
// what they share with mbarriers); their barriers are their warps'.
//
//===----------------------------------------------------------------------===//

#include "hadron/Analysis/ScratchSize.h"
#include "hadron/Conversion/Passes.h"
#include "hadron/IR/Dialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>

using namespace mlir;
using namespace hadron::hd;
using hadron::kSharedBufferAlignment;
using hadron::kSharedOffsetAttr;
using hadron::scratchBytes;
using hadron::TileInfoCache;

namespace {

constexpr llvm::StringLiteral kScratchBytesAttr = "hd.scratch_bytes";

bool isView(Operation *op) {
  return isa<MemDescSliceOp, MemDescIndexOp, MemDescPermuteOp, MemDescReinterpretOp>(op);
}

/// Ops that use a memdesc without letting it escape.
bool isPlainUse(Operation *op) {
  return isa<LocalLoadOp, LocalStoreOp, LocalDeallocOp, AsyncCopyOp, DotOp, AsyncTensorCopyOp,
             AsyncTensorStoreOp, MBarrierInitOp, MBarrierExpectOp, MBarrierArriveOp, MBarrierWaitOp>(op) ||
         isView(op);
}

/// Byte alignment a buffer of `type` needs: 16, or for the swizzled tiles
/// matrix units read, a whole atom of 8 rows (the swizzle is a function of
/// the address bits above the row).
int64_t alignmentOf(MemDescType type) {
  if (auto matrix = dyn_cast<MatrixSharedLayoutAttr>(type.getEncoding()))
    return std::max<int64_t>(kSharedBufferAlignment, 8 * int64_t(matrix.getSwizzle()));
  return kSharedBufferAlignment;
}

struct Buffer {
  Operation *owner;
  int64_t size;
  int64_t start, end; // inclusive op indices
  int64_t offset = -1;
  std::string what;
  int64_t alignment = kSharedBufferAlignment;
};

class Numbering {
public:
  explicit Numbering(Operation *root) {
    root->walk<WalkOrder::PreOrder>([&](Operation *op) { index[op] = next++; });
    // Post-order visits children first: their ends are known.
    root->walk<WalkOrder::PostOrder>([&](Operation *op) {
      int64_t end = index[op];
      for (Region &region : op->getRegions())
        for (Block &block : region)
          for (Operation &child : block)
            end = std::max(end, last[&child]);
      last[op] = end;
    });
  }
  int64_t at(Operation *op) const { return index.lookup(op); }
  int64_t subtreeEnd(Operation *op) const { return last.lookup(op); }

private:
  int64_t next = 0;
  llvm::DenseMap<Operation *, int64_t> index, last;
};

/// The interval end of a buffer defined in `home` and used by `user`.
int64_t useEnd(const Numbering &num, Block *home, Operation *user) {
  Operation *anc = home->findAncestorOpInBlock(*user);
  if (!anc)
    return -1; // outside the defining block: escapes
  return num.subtreeEnd(anc);
}

LogicalResult allocateFunction(func::FuncOp func, bool foldThreads, uint64_t capacity,
                               TileInfoCache &tiles) {
  Numbering num(func);
  int64_t funcEnd = num.subtreeEnd(func);
  std::vector<Buffer> buffers;
  func.walk([&](Operation *op) {
    if (auto alloc = dyn_cast<LocalAllocOp>(op)) {
      Buffer buffer{op, allocationBytes(alloc.getType()), num.at(op), num.at(op), -1, {}};
      Block *home = op->getBlock();
      SmallVector<Value> worklist{alloc.getResult()};
      while (!worklist.empty()) {
        Value v = worklist.pop_back_val();
        for (Operation *user : v.getUsers()) {
          int64_t end = isPlainUse(user) ? useEnd(num, home, user) : -1;
          buffer.end = std::max(buffer.end, end < 0 ? funcEnd : end);
          if (isView(user))
            worklist.push_back(user->getResult(0));
        }
      }
      buffer.what = "local_alloc of " + std::to_string(buffer.size) + " bytes";
      buffer.alignment = alignmentOf(alloc.getType());
      buffers.push_back(buffer);
      return;
    }
    if (int64_t bytes = scratchBytes(op, tiles)) {
      buffers.push_back({op, bytes, num.at(op), num.at(op), -1,
                         op->getName().getStringRef().str() + " scratch of " +
                             std::to_string(bytes) + " bytes"});
      op->setAttr(kScratchBytesAttr, Builder(op->getContext()).getI64IntegerAttr(bytes));
    }
  });
  (void)foldThreads;
  // The regions of an hd.warp_specialize run at the same time: what one of
  // them allocates lives as long as the whole op.
  for (Buffer &b : buffers)
    if (auto ws = b.owner->getParentOfType<WarpSpecializeOp>()) {
      b.start = std::min(b.start, num.at(ws));
      b.end = std::max(b.end, num.subtreeEnd(ws));
    }

  std::vector<Buffer *> order;
  for (Buffer &b : buffers)
    order.push_back(&b);
  std::stable_sort(order.begin(), order.end(), [](Buffer *a, Buffer *b) {
    return a->size != b->size ? a->size > b->size : a->start < b->start;
  });
  std::vector<Buffer *> placed;
  int64_t total = 0;
  for (Buffer *b : order) {
    std::vector<std::pair<int64_t, int64_t>> busy;
    for (Buffer *p : placed)
      if (p->start <= b->end && b->start <= p->end)
        busy.push_back({p->offset, p->offset + p->size});
    std::sort(busy.begin(), busy.end());
    int64_t offset = 0;
    for (auto [lo, hi] : busy) {
      if (offset + b->size <= lo)
        break;
      offset = std::max(offset, int64_t(llvm::alignTo(hi, b->alignment)));
    }
    b->offset = offset;
    placed.push_back(b);
    total = std::max(total, offset + b->size);
  }
  Builder builder(func.getContext());
  if (uint64_t(total) > capacity) {
    InFlightDiagnostic diag = func.emitOpError()
                              << "needs " << total << " bytes of shared memory, more than the "
                              << capacity << " bytes per CTA the target allows";
    for (Buffer *b : order)
      diag.attachNote(b->owner->getLoc()) << b->what;
    return failure();
  }
  for (Buffer &b : buffers)
    b.owner->setAttr(kSharedOffsetAttr, builder.getI64IntegerAttr(b.offset));
  func->setAttr(hadron::kSharedBytesAttr, builder.getI64IntegerAttr(total));
  return success();
}

//===----------------------------------------------------------------------===//
// Barriers
//===----------------------------------------------------------------------===//

struct Access {
  int64_t lo, hi; // [lo, hi) bytes
  bool write;
};

using Pending = std::vector<Access>;

bool conflicts(const Pending &pending, const Access &a) {
  for (const Access &p : pending)
    if (p.lo < a.hi && a.lo < p.hi && (p.write || a.write))
      return true;
  return false;
}

class BarrierPlanner {
public:
  explicit BarrierPlanner(int64_t total) : total(total) {}

  /// The byte range of the allocation a memdesc value views, or everything.
  std::pair<int64_t, int64_t> rangeOf(Value desc) {
    while (Operation *def = desc.getDefiningOp()) {
      if (isView(def)) {
        desc = def->getOperand(0);
        continue;
      }
      if (auto alloc = dyn_cast<LocalAllocOp>(def))
        if (auto offset = alloc->getAttrOfType<IntegerAttr>(kSharedOffsetAttr))
          return {offset.getInt(), offset.getInt() + allocationBytes(alloc.getType())};
      break;
    }
    return {0, total};
  }

  /// The accesses `op` makes; `internalBarrier` when its lowering starts
  /// with a barrier of its own.
  void accessesOf(Operation *op, SmallVectorImpl<Access> &out, bool &internalBarrier) {
    internalBarrier = false;
    if (auto alloc = dyn_cast<LocalAllocOp>(op)) {
      if (alloc.getSrc()) {
        auto [lo, hi] = rangeOf(alloc.getResult());
        out.push_back({lo, hi, true});
      }
    } else if (auto store = dyn_cast<LocalStoreOp>(op)) {
      auto [lo, hi] = rangeOf(store.getDst());
      out.push_back({lo, hi, true});
    } else if (auto load = dyn_cast<LocalLoadOp>(op)) {
      auto [lo, hi] = rangeOf(load.getSrc());
      out.push_back({lo, hi, false});
    } else if (auto copy = dyn_cast<AsyncCopyOp>(op)) {
      auto [lo, hi] = rangeOf(copy.getDst());
      out.push_back({lo, hi, true});
    } else if (auto store = dyn_cast<AsyncTensorStoreOp>(op)) {
      // Its lowering starts with a barrier (the copy reads what the CTA
      // wrote); the tile is read until an hd.async_tensor_store_wait.
      internalBarrier = true;
      auto [lo, hi] = rangeOf(store.getSrc());
      out.push_back({lo, hi, false});
    } else if (auto dot = dyn_cast<DotOp>(op)) {
      for (Value operand : {dot.getA(), dot.getB()})
        if (isa<MemDescType>(operand.getType())) {
          auto [lo, hi] = rangeOf(operand);
          out.push_back({lo, hi, false});
        }
    } else if (auto offset = op->getAttrOfType<IntegerAttr>(kSharedOffsetAttr)) {
      // Scratch users: barrier, write, barrier, read (see their lowering).
      // What is left pending afterwards are the reads.
      internalBarrier = true;
      out.push_back({offset.getInt(), offset.getInt() + scratchSize(op), false});
    }
  }

  int64_t scratchSize(Operation *op) {
    if (auto bytes = op->getAttrOfType<IntegerAttr>(kScratchBytesAttr))
      return bytes.getInt();
    return total - op->getAttrOfType<IntegerAttr>(kSharedOffsetAttr).getInt();
  }

  Pending walkBlock(Block &block, Pending pending) {
    for (Operation &op : block) {
      if (isa<BarrierOp, ClusterBarrierOp, AsyncTensorStoreWaitOp>(op)) {
        // (A wait for tensor stores ends with a CTA barrier.)
        pending.clear();
        continue;
      }
      if (auto loop = dyn_cast<scf::ForOp>(op)) {
        Pending once = walkBlock(*loop.getBody(), pending);
        Pending merged = pending;
        merged.insert(merged.end(), once.begin(), once.end());
        Pending out = walkBlock(*loop.getBody(), merged);
        pending.insert(pending.end(), out.begin(), out.end());
        continue;
      }
      if (auto loop = dyn_cast<scf::WhileOp>(op)) {
        Pending a = walkBlock(loop.getBefore().front(), pending);
        Pending b = walkBlock(loop.getAfter().front(), a);
        Pending merged = pending;
        merged.insert(merged.end(), b.begin(), b.end());
        Pending a2 = walkBlock(loop.getBefore().front(), merged);
        Pending b2 = walkBlock(loop.getAfter().front(), a2);
        pending.insert(pending.end(), a2.begin(), a2.end());
        pending.insert(pending.end(), b2.begin(), b2.end());
        continue;
      }
      if (isa<WarpSpecializeOp>(op)) {
        // The regions run at once on different warps and order what they
        // share with mbarriers: each is planned on its own, its barriers
        // its own warps'. What the CTA did before is settled first.
        if (!pending.empty())
          needsBarrier.insert(&op);
        Pending all;
        for (Region &region : op.getRegions())
          for (Block &inner : region) {
            Pending out = walkBlock(inner, {});
            all.insert(all.end(), out.begin(), out.end());
          }
        pending = std::move(all);
        continue;
      }
      if (op.getNumRegions() > 0 && !op.hasAttr(kSharedOffsetAttr)) {
        Pending all = pending;
        for (Region &region : op.getRegions())
          for (Block &inner : region) {
            Pending out = walkBlock(inner, pending);
            all.insert(all.end(), out.begin(), out.end());
          }
        pending = std::move(all);
        continue;
      }
      if (auto copy = dyn_cast<AsyncTensorCopyOp>(op)) {
        // Its writes are ordered for readers by the barrier it completes
        // (they wait on it), not by CTA barriers; it must not overwrite
        // what the CTA may still be reading.
        auto [lo, hi] = rangeOf(copy.getDst());
        if (conflicts(pending, {lo, hi, true})) {
          needsBarrier.insert(&op);
          pending.clear();
        }
        continue;
      }
      SmallVector<Access> accesses;
      bool internal = false;
      accessesOf(&op, accesses, internal);
      if (internal) {
        pending.clear();
      } else {
        bool hazard = llvm::any_of(accesses, [&](const Access &a) { return conflicts(pending, a); });
        if (hazard) {
          needsBarrier.insert(&op);
          pending.clear();
        }
      }
      pending.insert(pending.end(), accesses.begin(), accesses.end());
      // Keep the list short: identical entries add nothing.
      std::sort(pending.begin(), pending.end(), [](const Access &x, const Access &y) {
        return std::tie(x.lo, x.hi, x.write) < std::tie(y.lo, y.hi, y.write);
      });
      pending.erase(std::unique(pending.begin(), pending.end(),
                                [](const Access &x, const Access &y) {
                                  return x.lo == y.lo && x.hi == y.hi && x.write == y.write;
                                }),
                    pending.end());
    }
    return pending;
  }

  llvm::SetVector<Operation *> needsBarrier;

private:
  int64_t total;
};

} // namespace

namespace hadron {

LogicalResult allocateSharedMemory(ModuleOp module, bool foldThreads) {
  TargetAttr target = hd::getTarget(module);
  uint64_t capacity = target ? target.getSharedMemoryBytes() : UINT64_MAX;
  TileInfoCache tiles(foldThreads);
  for (auto func : module.getOps<func::FuncOp>())
    if (!func.isExternal() && failed(allocateFunction(func, foldThreads, capacity, tiles)))
      return failure();
  return success();
}

LogicalResult insertBarriers(ModuleOp module) {
  for (auto func : module.getOps<func::FuncOp>()) {
    if (func.isExternal())
      continue;
    auto total = func->getAttrOfType<IntegerAttr>(kSharedBytesAttr);
    BarrierPlanner planner(total ? total.getInt() : INT64_MAX / 2);
    planner.walkBlock(func.getBody().front(), {});
    for (Operation *op : planner.needsBarrier) {
      OpBuilder b(op);
      BarrierOp::create(b, op->getLoc());
    }
  }
  return success();
}

} // namespace hadron
