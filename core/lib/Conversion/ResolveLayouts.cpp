//===- ResolveLayouts.cpp - #hd.auto and #hd.coalesced to blocked layouts -===//
//
// A placeholder is replaced by one blocked layout per (kind, rank): a blocked
// layout fits any shape (it repeats or replicates), so every value of a rank
// gets the same layout and the ops that require equal layouts (elementwise
// ops, reduce results as slices of their operand's layout, dot operands of
// the accumulator's layout) stay valid without conversions.
//
// The layout: each thread holds `vec` consecutive elements along the fastest
// dim (the last), the warp's lanes go along that dim first (as many as the
// narrowest such tensor needs), then along the next dims; warps go along the
// slowest dim first. For #hd.auto, vec is maxVectorBytes over the widest
// element among the values of that rank. For #hd.coalesced it is further
// narrowed by what AxisInfo proves of the loads, stores and async copies
// whose pointers use it: contiguity, alignment of the first element of each
// run, and the constancy of their masks (a vector access is all or nothing).
//
//===----------------------------------------------------------------------===//

#include "hadron/Analysis/AxisInfo.h"
#include "hadron/Conversion/Passes.h"
#include "hadron/IR/Dialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/MathExtras.h"

#include <map>

using namespace mlir;
using namespace hadron::hd;

namespace {

enum class Kind { Auto, Coalesced };

/// The placeholder at the root of `layout` (through slice and dot_op).
std::optional<Kind> placeholderOf(Attribute layout) {
  if (isa_and_nonnull<AutoLayoutAttr>(layout))
    return Kind::Auto;
  if (isa_and_nonnull<CoalescedLayoutAttr>(layout))
    return Kind::Coalesced;
  if (auto slice = dyn_cast_or_null<SliceLayoutAttr>(layout))
    return placeholderOf(slice.getParent());
  if (auto dot = dyn_cast_or_null<DotOperandLayoutAttr>(layout))
    return placeholderOf(dot.getParent());
  return std::nullopt;
}

/// The rank of the placeholder itself (a slice's parent has one more dim).
int64_t placeholderRank(Attribute layout, int64_t rank) {
  if (auto slice = dyn_cast<SliceLayoutAttr>(layout))
    return placeholderRank(slice.getParent(), rank + 1);
  if (auto dot = dyn_cast<DotOperandLayoutAttr>(layout))
    return placeholderRank(dot.getParent(), rank);
  return rank;
}

int64_t elementBytes(Type type) {
  if (auto ptr = dyn_cast<PointerType>(type))
    type = ptr.getPointeeType();
  if (!type.isIntOrFloat())
    return 8;
  return std::max<int64_t>(1, type.getIntOrFloatBitWidth() / 8);
}

struct Demand {
  int64_t vec = 0;          // elements per thread along the fast dim
  int64_t minFast = 0;      // narrowest fast-dim extent among the values
  std::vector<int64_t> minExtents;
};

class Resolver {
public:
  Resolver(ModuleOp module, const hadron::ResolveLayoutsOptions &options)
      : module(module), options(options) {
    TargetAttr target = getTarget(module);
    warpSize = target && !target.getWarpSizes().empty() ? target.getWarpSizes().back() : 32;
    // Prefer a warp size of 32 where the target allows several.
    if (target && target.allowsWarpSize(32))
      warpSize = 32;
    numWarps = target ? target.getNumWarps() : 4;
    if (auto attr = module->getAttrOfType<IntegerAttr>("hd.num_warps"))
      numWarps = attr.getInt();
  }

  void noteType(Type type) {
    auto tensor = dyn_cast<RankedTensorType>(type);
    if (!tensor)
      return;
    std::optional<Kind> kind = placeholderOf(tensor.getEncoding());
    if (!kind)
      return;
    int64_t rank = placeholderRank(tensor.getEncoding(), tensor.getRank());
    Demand &d = demands[{*kind, rank}];
    int64_t vec = std::max<int64_t>(1, options.maxVectorBytes / elementBytes(tensor.getElementType()));
    d.vec = d.vec == 0 ? vec : std::min(d.vec, vec);
    // Only full-rank values tell the extents of the placeholder's dims.
    if (tensor.getRank() == rank && !isa<DotOperandLayoutAttr>(tensor.getEncoding())) {
      if (d.minExtents.empty())
        d.minExtents.assign(tensor.getShape().begin(), tensor.getShape().end());
      for (int64_t i = 0; i < rank; ++i)
        d.minExtents[i] = std::min(d.minExtents[i], tensor.getShape()[i]);
    }
  }

  /// A coalesced access through `ptr` (with `mask`) narrows the vector.
  void noteAccess(hadron::AxisInfoAnalysis &axis, Value ptr, Value mask) {
    auto tensor = dyn_cast<RankedTensorType>(ptr.getType());
    if (!tensor || !isa_and_nonnull<CoalescedLayoutAttr>(tensor.getEncoding()))
      return;
    int64_t rank = tensor.getRank();
    Demand &d = demands[{Kind::Coalesced, rank}];
    hadron::AxisInfo info = axis.get(ptr);
    int64_t fast = rank - 1;
    int64_t bytes = elementBytes(tensor.getElementType());
    int64_t vec = std::max<int64_t>(1, options.maxVectorBytes / bytes);
    vec = std::min<int64_t>(vec, info.contiguity[fast]);
    int64_t alignElems =
        std::max<int64_t>(1, (int64_t(1) << llvm::countr_zero(uint64_t(info.divisibility[fast]))) /
                                 bytes);
    vec = std::min(vec, alignElems);
    if (mask)
      vec = std::min<int64_t>(vec, axis.get(mask).constancy[fast]);
    vec = int64_t(1) << llvm::Log2_64(std::max<int64_t>(1, vec));
    d.vec = d.vec == 0 ? vec : std::min(d.vec, vec);
  }

  BlockedLayoutAttr layoutFor(Kind kind, int64_t rank) {
    auto key = std::make_pair(kind, rank);
    auto it = resolved.find(key);
    if (it != resolved.end())
      return it->second;
    Demand d = demands[key];
    std::vector<int64_t> extents = d.minExtents;
    if (extents.empty())
      extents.assign(rank, 1 << 20);
    int64_t fast = rank - 1;
    int64_t vec = std::max<int64_t>(1, std::min<int64_t>(d.vec ? d.vec : 1, extents[fast]));
    SmallVector<unsigned> spt(rank, 1), tpw(rank, 1), wpc(rank, 1), order;
    spt[fast] = vec;
    for (int64_t i = rank - 1; i >= 0; --i)
      order.push_back(i);
    // Lanes: fastest dim first, each dim up to what its extent needs.
    int64_t lanes = warpSize;
    for (int64_t i = rank - 1; i >= 0 && lanes > 1; --i) {
      int64_t need = std::max<int64_t>(1, extents[i] / (i == fast ? vec : 1));
      int64_t take = std::min<int64_t>(lanes, int64_t(1) << llvm::Log2_64(need));
      tpw[i] = take;
      lanes /= take;
    }
    tpw[fast] *= lanes; // the rest replicate along the fast dim
    // Warps: slowest dim first.
    int64_t warps = numWarps;
    for (int64_t i = 0; i < rank && warps > 1; ++i) {
      int64_t covered = tpw[i] * spt[i];
      int64_t need = std::max<int64_t>(1, extents[i] / covered);
      int64_t take = std::min<int64_t>(warps, int64_t(1) << llvm::Log2_64(need));
      wpc[i] = take;
      warps /= take;
    }
    wpc[0] *= warps;
    auto attr = BlockedLayoutAttr::get(module.getContext(), spt, tpw, wpc, order);
    resolved[key] = attr;
    return attr;
  }

  Attribute resolveLayout(Attribute layout, int64_t rank) {
    if (auto slice = dyn_cast<SliceLayoutAttr>(layout))
      return SliceLayoutAttr::get(layout.getContext(), slice.getDim(),
                                  cast<DistributedLayoutAttrInterface>(
                                      resolveLayout(slice.getParent(), rank + 1)));
    if (auto dot = dyn_cast<DotOperandLayoutAttr>(layout))
      return DotOperandLayoutAttr::get(layout.getContext(), dot.getOpIdx(),
                                       cast<DistributedLayoutAttrInterface>(
                                           resolveLayout(dot.getParent(), rank)),
                                       dot.getKWidth());
    if (isa<AutoLayoutAttr>(layout))
      return layoutFor(Kind::Auto, rank);
    if (isa<CoalescedLayoutAttr>(layout))
      return layoutFor(Kind::Coalesced, rank);
    return layout;
  }

  Type resolve(Type type) {
    auto tensor = dyn_cast<RankedTensorType>(type);
    if (!tensor || !placeholderOf(tensor.getEncoding()))
      return type;
    return RankedTensorType::get(tensor.getShape(), tensor.getElementType(),
                                 resolveLayout(tensor.getEncoding(), tensor.getRank()));
  }

  LogicalResult run() {
    hadron::AxisInfoAnalysis axis(module);
    module.walk([&](Operation *op) {
      for (Value v : op->getResults())
        noteType(v.getType());
      for (Region &region : op->getRegions())
        for (Block &block : region)
          for (BlockArgument arg : block.getArguments())
            noteType(arg.getType());
      if (auto load = dyn_cast<LoadOp>(op))
        noteAccess(axis, load.getPtr(), load.getMask());
      else if (auto store = dyn_cast<StoreOp>(op))
        noteAccess(axis, store.getPtr(), store.getMask());
      else if (auto copy = dyn_cast<AsyncCopyOp>(op))
        noteAccess(axis, copy.getPtr(), copy.getMask());
    });
    WalkResult walk = module.walk([&](Operation *op) {
      for (Value v : op->getResults())
        v.setType(resolve(v.getType()));
      for (Region &region : op->getRegions())
        for (Block &block : region)
          for (BlockArgument arg : block.getArguments())
            arg.setType(resolve(arg.getType()));
      if (auto constant = dyn_cast<arith::ConstantOp>(op)) {
        auto dense = dyn_cast<DenseElementsAttr>(constant.getValue());
        if (dense && dense.getType() != constant.getType()) {
          auto type = cast<ShapedType>(constant.getType());
          DenseElementsAttr value =
              dense.isSplat()
                  ? DenseElementsAttr::get(type, dense.getSplatValue<Attribute>())
                  : DenseElementsAttr::get(type, llvm::to_vector(dense.getValues<Attribute>()));
          constant.setValueAttr(value);
        }
      }
      if (auto func = dyn_cast<func::FuncOp>(op)) {
        SmallVector<Type> inputs, results;
        for (Type t : func.getArgumentTypes())
          inputs.push_back(resolve(t));
        for (Type t : func.getResultTypes())
          results.push_back(resolve(t));
        func.setFunctionType(FunctionType::get(op->getContext(), inputs, results));
      }
      return WalkResult::advance();
    });
    (void)walk;
    return success();
  }

private:
  ModuleOp module;
  hadron::ResolveLayoutsOptions options;
  int64_t warpSize = 32, numWarps = 4;
  std::map<std::pair<Kind, int64_t>, Demand> demands;
  std::map<std::pair<Kind, int64_t>, BlockedLayoutAttr> resolved;
};

} // namespace

namespace hadron {

LogicalResult resolveLayouts(ModuleOp module, const ResolveLayoutsOptions &options) {
  return Resolver(module, options).run();
}

} // namespace hadron
