//===- Dialect.cpp - The hd dialect ---------------------------------------===//

#include "hadron/IR/Dialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Interfaces/FoldInterfaces.h"

using namespace mlir;
using namespace hadron::hd;

#include "hadron/IR/HadronDialect.cpp.inc"
#include "hadron/IR/HadronEnums.cpp.inc"

namespace {
/// Prints layouts as aliases (#blocked, #slice1, ...) so that IR stays
/// readable when a layout appears on every value.
struct HadronOpAsmInterface : OpAsmDialectInterface {
  using OpAsmDialectInterface::OpAsmDialectInterface;
  AliasResult getAlias(Attribute attr, raw_ostream &os) const override {
    if (isa<BlockedLayoutAttr>(attr))
      os << "blocked";
    else if (isa<SliceLayoutAttr>(attr))
      os << "slice";
    else if (isa<LinearLayoutAttr>(attr))
      os << "linear";
    else if (isa<DotOperandLayoutAttr>(attr))
      os << "dot_op";
    else if (isa<MmaLayoutAttr>(attr))
      os << "mma";
    else if (isa<MatrixInstrAttr>(attr))
      os << "matrix_instr";
    else if (isa<SwizzledSharedLayoutAttr>(attr))
      os << "swizzled";
    else if (isa<PaddedSharedLayoutAttr>(attr))
      os << "padded";
    else if (isa<SharedLinearLayoutAttr>(attr))
      os << "shared_linear";
    else if (isa<MatrixSharedLayoutAttr>(attr))
      os << "matrix_shared";
    else if (isa<TargetAttr>(attr))
      os << "target";
    else
      return AliasResult::NoAlias;
    return AliasResult::FinalAlias;
  }
};

/// Constants the folder makes inside a region of hd.warp_specialize stay in
/// that region: hoisted above it, a tile would be spread over the warps of
/// the code around the op, not the region's.
struct HadronFoldInterface : DialectFoldInterface {
  using DialectFoldInterface::DialectFoldInterface;
  bool shouldMaterializeInto(Region *region) const final {
    return isa<WarpSpecializeOp>(region->getParentOp());
  }
};
} // namespace

void HadronDialect::initialize() {
  registerAttributes();
  registerTypes();
  addInterfaces<HadronOpAsmInterface, HadronFoldInterface>();
  addOperations<
#define GET_OP_LIST
#include "hadron/IR/HadronOps.cpp.inc"
      >();
}

Operation *HadronDialect::materializeConstant(OpBuilder &builder, Attribute value,
                                              Type type, Location loc) {
  return arith::ConstantOp::materialize(builder, value, type, loc);
}

Type hadron::hd::getI1TypeLike(Type type) {
  auto i1 = IntegerType::get(type.getContext(), 1);
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    return tensor.clone(i1);
  return i1;
}

bool hadron::hd::isBarrierMemDesc(Type type) {
  auto desc = dyn_cast<MemDescType>(type);
  if (!desc || !desc.getElementType().isInteger(64))
    return false;
  int64_t n = 1;
  for (int64_t d : desc.getShape())
    n *= d;
  return n == 1;
}

int64_t hadron::hd::allocationBytes(MemDescType type) {
  int64_t encRank = type.getEncoding().getRank();
  ArrayRef<int64_t> alloc = type.getAllocShape();
  int64_t elems = type.getEncoding().getAllocatedElements(alloc.take_back(encRank));
  for (int64_t d = 0; d + encRank < int64_t(alloc.size()); ++d)
    elems *= alloc[d];
  return elems * std::max<int64_t>(1, type.getElementType().getIntOrFloatBitWidth() / 8);
}

bool hadron::hd::sameTilePlacement(SharedLayoutAttrInterface a, SharedLayoutAttrInterface b,
                                   llvm::ArrayRef<int64_t> shape) {
  if (a == b)
    return true;
  auto ma = dyn_cast<MatrixSharedLayoutAttr>(a), mb = dyn_cast<MatrixSharedLayoutAttr>(b);
  if (ma && mb)
    return ma.getSwizzle() == mb.getSwizzle() && ma.getElementBits() == mb.getElementBits() &&
           ma.getTransposed() == mb.getTransposed();
  if (ma || mb)
    return false;
  // `b` stacks tiles along leading dims: its order must end with them
  // (slowest) and otherwise be `a`'s, shifted by their number.
  auto sameOrder = [&](ArrayRef<unsigned> oa, ArrayRef<unsigned> ob) {
    size_t lead = ob.size() - oa.size();
    if (ob.size() < oa.size())
      return false;
    for (size_t i = 0; i < ob.size(); ++i)
      if (i < oa.size() ? ob[i] != oa[i] + lead : ob[i] >= lead)
        return false;
    return true;
  };
  if (a.getRank() != b.getRank()) {
    auto sa = dyn_cast<SwizzledSharedLayoutAttr>(a), sb = dyn_cast<SwizzledSharedLayoutAttr>(b);
    if (sa && sb)
      return sa.getVec() == sb.getVec() && sa.getPerPhase() == sb.getPerPhase() &&
             sa.getMaxPhase() == sb.getMaxPhase() && sameOrder(sa.getOrder(), sb.getOrder());
    auto pa = dyn_cast<PaddedSharedLayoutAttr>(a), pb = dyn_cast<PaddedSharedLayoutAttr>(b);
    if (pa && pb)
      return pa.getIntervals() == pb.getIntervals() && pa.getPaddings() == pb.getPaddings() &&
             sameOrder(pa.getOrder(), pb.getOrder());
    return false;
  }
  if (a.getRank() != int64_t(shape.size()))
    return false;
  Result<LinearLayout> la = a.toLinearLayout(shape), lb = b.toLinearLayout(shape);
  return la && lb && *la == *lb;
}

Type hadron::hd::getPointeeTypeLike(Type type) {
  if (auto tensor = dyn_cast<RankedTensorType>(type)) {
    if (auto ptr = dyn_cast<PointerType>(tensor.getElementType()))
      return tensor.clone(ptr.getPointeeType());
    return type;
  }
  if (auto ptr = dyn_cast<PointerType>(type))
    return ptr.getPointeeType();
  return type;
}

std::pair<WarpSpecializeOp, unsigned> hadron::hd::enclosingWarpRegion(Block *block) {
  for (Region *region = block ? block->getParent() : nullptr; region;
       region = region->getParentRegion()) {
    if (auto ws = dyn_cast_or_null<WarpSpecializeOp>(region->getParentOp()))
      return {ws, region->getRegionNumber()};
  }
  return {WarpSpecializeOp(), 0};
}

unsigned hadron::hd::warpsRunning(Block *block, unsigned numWarps) {
  auto [ws, index] = enclosingWarpRegion(block);
  return ws ? ws.regionWarps(index, numWarps).second : numWarps;
}

//===----------------------------------------------------------------------===//
// Target verification
//===----------------------------------------------------------------------===//

namespace {

/// "threadsPerWarp [8, 8] multiplies to 64": how a layout came to its warp
/// size, for messages.
std::string describeWarpSize(DistributedLayoutAttrInterface layout) {
  std::string s;
  llvm::raw_string_ostream os(s);
  if (auto blocked = dyn_cast<BlockedLayoutAttr>(layout)) {
    os << "threadsPerWarp [";
    llvm::interleaveComma(blocked.getThreadsPerWarp(), os);
    os << "] multiplies to " << blocked.getWarpSize();
  } else if (auto slice = dyn_cast<SliceLayoutAttr>(layout)) {
    return describeWarpSize(slice.getParent());
  } else if (auto dot = dyn_cast<DotOperandLayoutAttr>(layout)) {
    return describeWarpSize(dot.getParent());
  } else {
    os << "layout " << layout << " has " << layout.getWarpSize() << " lanes per warp";
  }
  return s;
}

std::string describeNumWarps(DistributedLayoutAttrInterface layout) {
  std::string s;
  llvm::raw_string_ostream os(s);
  if (auto blocked = dyn_cast<BlockedLayoutAttr>(layout)) {
    os << "warpsPerCTA [";
    llvm::interleaveComma(blocked.getWarpsPerCTA(), os);
    os << "] multiplies to " << blocked.getNumWarps();
  } else if (auto slice = dyn_cast<SliceLayoutAttr>(layout)) {
    return describeNumWarps(slice.getParent());
  } else if (auto dot = dyn_cast<DotOperandLayoutAttr>(layout)) {
    return describeNumWarps(dot.getParent());
  } else {
    os << "layout " << layout << " has " << layout.getNumWarps() << " warps";
  }
  return s;
}

/// Checks every layout and allocation in the module against the target.
class TargetChecker {
public:
  explicit TargetChecker(TargetAttr target) : target(target) {}

  LogicalResult check(Operation *op) {
    for (auto [i, result] : llvm::enumerate(op->getResults()))
      if (failed(checkType(op, result.getType(), "result #" + std::to_string(i))))
        return failure();
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (BlockArgument arg : block.getArguments())
          if (failed(checkType(op, arg.getType(),
                               "block argument #" + std::to_string(arg.getArgNumber()))))
            return failure();
    if (auto alloc = dyn_cast<LocalAllocOp>(op))
      return checkAllocation(alloc);
    return success();
  }

private:
  LogicalResult checkType(Operation *op, Type type, const std::string &what) {
    auto tensor = dyn_cast<RankedTensorType>(type);
    if (!tensor)
      return success();
    auto layout = dyn_cast_or_null<DistributedLayoutAttrInterface>(tensor.getEncoding());
    if (!layout || layout.isPlaceholder())
      return success();
    int64_t warpSize = layout.getWarpSize();
    if (!target.allowsWarpSize(warpSize))
      return op->emitOpError() << what << ": " << describeWarpSize(layout)
                               << ", target " << target.getName() << " allows "
                               << target.describeWarpSizes();
    if (moduleWarpSize && *moduleWarpSize != warpSize)
      return op->emitOpError() << what << ": " << describeWarpSize(layout)
                               << ", but another layout of this module has warps of "
                               << *moduleWarpSize
                               << " lanes; a module uses one warp size";
    moduleWarpSize = warpSize;
    unsigned warps = warpsRunning(op->getBlock(), target.getNumWarps());
    if (layout.getNumWarps() != warps) {
      if (warps != target.getNumWarps())
        return op->emitOpError() << what << ": " << describeNumWarps(layout)
                                 << ", but its hd.warp_specialize region runs " << warps
                                 << " warps";
      return op->emitOpError() << what << ": " << describeNumWarps(layout)
                               << ", target " << target.getName()
                               << " runs num_warps = " << target.getNumWarps();
    }
    if (static_cast<uint64_t>(warpSize) * layout.getNumWarps() >
        target.getMaxThreadsPerCTA())
      return op->emitOpError() << what << ": " << layout.getNumWarps()
                               << " warps of " << warpSize << " lanes exceed the "
                               << target.getMaxThreadsPerCTA()
                               << " threads per CTA target " << target.getName()
                               << " allows";
    return success();
  }

  LogicalResult checkAllocation(LocalAllocOp alloc) {
    MemDescType type = alloc.getType();
    uint64_t bytes = static_cast<uint64_t>(allocationBytes(type));
    if (bytes > target.getSharedMemoryBytes())
      return alloc.emitOpError() << "of " << type << " needs " << bytes
                                 << " bytes of shared memory; target "
                                 << target.getName() << " allows "
                                 << target.getSharedMemoryBytes() << " per CTA";
    return success();
  }

  TargetAttr target;
  std::optional<int64_t> moduleWarpSize;
};

} // namespace

LogicalResult HadronDialect::verifyOperationAttribute(Operation *op,
                                                      NamedAttribute attribute) {
  StringRef name = attribute.getName().getValue();
  if (name == getTargetAttrName()) {
    auto target = dyn_cast<TargetAttr>(attribute.getValue());
    if (!target)
      return op->emitError() << "`" << name << "` must be a #hd.target, got "
                             << attribute.getValue();
    if (!isa<ModuleOp>(op))
      return op->emitError() << "`" << name << "` belongs on a builtin.module";
    TargetChecker checker(target);
    WalkResult walk = op->walk([&](Operation *nested) {
      return failed(checker.check(nested)) ? WalkResult::interrupt()
                                           : WalkResult::advance();
    });
    return failure(walk.wasInterrupted());
  }
  if (name == "hd.num_warps") {
    auto value = dyn_cast<IntegerAttr>(attribute.getValue());
    if (!isa<ModuleOp>(op) || !value || value.getInt() < 1 ||
        (value.getInt() & (value.getInt() - 1)) != 0)
      return op->emitError() << "`hd.num_warps` is a power-of-two integer on a builtin.module";
    auto target = op->getAttrOfType<TargetAttr>(getTargetAttrName());
    if (target && target.getNumWarps() != value.getInt())
      return op->emitError() << "`hd.num_warps` = " << value.getInt()
                             << " disagrees with the target's numWarps = "
                             << target.getNumWarps();
    return success();
  }
  if (name == "hd.cluster_dims") {
    auto dims = dyn_cast<DenseI32ArrayAttr>(attribute.getValue());
    if (!isa<ModuleOp>(op) || !dims || dims.size() != 3 ||
        llvm::any_of(dims.asArrayRef(), [](int32_t d) { return d < 1; }))
      return op->emitError()
             << "`hd.cluster_dims` is array<i32: X, Y, Z> (each at least 1) on a builtin.module";
    return success();
  }
  if (name == getKernelAttrName()) {
    if (!isa<func::FuncOp>(op))
      return op->emitError() << "`" << name << "` marks a func.func, not "
                             << op->getName();
    if (!isa<UnitAttr>(attribute.getValue()))
      return op->emitError() << "`" << name << "` is a unit attribute";
    return success();
  }
  // Written by the shared-memory allocator: byte offsets and sizes.
  if (name == "hd.shared_offset" || name == "hd.scratch_bytes" || name == "hd.shared_bytes") {
    auto value = dyn_cast<IntegerAttr>(attribute.getValue());
    if (!value || value.getInt() < 0)
      return op->emitError() << "`" << name << "` is a non-negative integer (bytes)";
    if (name == "hd.shared_bytes" && !isa<func::FuncOp>(op))
      return op->emitError() << "`" << name << "` belongs on a kernel's func.func";
    return success();
  }
  // A share of an exp's or exp2's registers computed by a polynomial on
  // the FMA units (docs/ir.md, "Fast math"): an approximation, so only
  // where afn allows one.
  if (name == "hd.polynomial_share") {
    auto value = dyn_cast<FloatAttr>(attribute.getValue());
    if (!value || !(value.getValueAsDouble() >= 0.0 && value.getValueAsDouble() <= 1.0))
      return op->emitError() << "`" << name << "` is a float in [0, 1], got "
                             << attribute.getValue();
    auto flags = dyn_cast<arith::ArithFastMathInterface>(op);
    if (!isa<math::ExpOp, math::Exp2Op>(op) || !flags || !flags.getFastMathFlagsAttr() ||
        !arith::bitEnumContainsAll(flags.getFastMathFlagsAttr().getValue(),
                                   arith::FastMathFlags::afn) ||
        !getElementTypeOrSelf(op->getResult(0).getType()).isF32())
      return op->emitError() << "`" << name
                             << "` belongs on an f32 math.exp or math.exp2 with fastmath<afn>";
    return success();
  }
  return op->emitError() << "unknown hd attribute `" << name << "`";
}
