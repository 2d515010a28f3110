//===- Ops.cpp - Operations of the hd dialect -----------------------------===//
//
// Verifiers name the offending operand and the rule it broke; folders and
// canonicalisations are the obviously-right ones (no-op conversions, splats
// through shape ops).
//
//===----------------------------------------------------------------------===//

#include "hadron/IR/Dialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace hadron::hd;

namespace {

Attribute getEncoding(Type type) {
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    return tensor.getEncoding();
  return {};
}

bool isPermutation(ArrayRef<int32_t> order, size_t rank) {
  if (order.size() != rank)
    return false;
  SmallVector<bool> seen(rank, false);
  for (int32_t d : order) {
    if (d < 0 || static_cast<size_t>(d) >= rank || seen[d])
      return false;
    seen[d] = true;
  }
  return true;
}

/// A splat constant of `type` holding the value of the splat `attr`, or null.
Attribute reshapeSplat(Attribute attr, Type type) {
  auto splat = dyn_cast_or_null<SplatElementsAttr>(attr);
  auto shaped = dyn_cast<ShapedType>(type);
  if (!splat || !shaped)
    return {};
  return SplatElementsAttr::get(shaped, splat.getSplatValue<Attribute>());
}

/// Address spaces a global access may use.
LogicalResult verifyGlobalAccess(Operation *op, Type ptrLike) {
  Type element = ptrLike;
  if (auto tensor = dyn_cast<RankedTensorType>(ptrLike))
    element = tensor.getElementType();
  auto ptr = cast<PointerType>(element);
  if (ptr.getAddressSpace() == AddressSpace::shared)
    return op->emitOpError() << "accesses global memory but the pointer " << ptr
                             << " is in shared memory; use local_load/local_store";
  return success();
}

/// A tile whose dimensions are checked against a memory descriptor.
LogicalResult verifyTileMatchesMemDesc(Operation *op, RankedTensorType tensor,
                                       MemDescType memdesc, StringRef tensorName) {
  if (tensor.getShape() != memdesc.getShape())
    return op->emitOpError() << tensorName << " shape [" << tensor.getShape()
                             << "] differs from the shared tile's [" << memdesc.getShape()
                             << "]";
  if (tensor.getElementType() != memdesc.getElementType())
    return op->emitOpError() << tensorName << " element type " << tensor.getElementType()
                             << " differs from the shared tile's "
                             << memdesc.getElementType();
  return success();
}

} // namespace

//===----------------------------------------------------------------------===//
// ArangeOp
//===----------------------------------------------------------------------===//

LogicalResult ArangeOp::verify() {
  RankedTensorType type = getType();
  if (type.getRank() != 1)
    return emitOpError() << "produces a 1-D tensor, not rank " << type.getRank();
  int64_t start = getStart(), end = getEnd();
  if (end <= start)
    return emitOpError() << "end " << end << " must be greater than start " << start;
  if (end - start != type.getDimSize(0))
    return emitOpError() << "range [" << start << ", " << end << ") has " << end - start
                         << " elements but the result has " << type.getDimSize(0);
  return success();
}

//===----------------------------------------------------------------------===//
// SplatOp
//===----------------------------------------------------------------------===//

OpFoldResult SplatOp::fold(FoldAdaptor adaptor) {
  Attribute value = adaptor.getSrc();
  if (!value || !isa<IntegerAttr, FloatAttr>(value))
    return {};
  return SplatElementsAttr::get(getType(), value);
}

//===----------------------------------------------------------------------===//
// BroadcastOp
//===----------------------------------------------------------------------===//

LogicalResult BroadcastOp::verify() {
  auto srcType = getSrc().getType();
  auto resultType = getType();
  if (srcType.getEncoding() != resultType.getEncoding())
    return emitOpError() << "keeps the layout: operand has " << srcType.getEncoding()
                         << ", result " << resultType.getEncoding();
  if (srcType.getRank() != resultType.getRank())
    return emitOpError() << "keeps the rank: operand has rank " << srcType.getRank()
                         << ", result " << resultType.getRank()
                         << " (use expand_dims first)";
  for (int64_t i = 0; i < srcType.getRank(); ++i) {
    int64_t s = srcType.getDimSize(i), r = resultType.getDimSize(i);
    if (s != r && s != 1)
      return emitOpError() << "cannot broadcast dimension " << i << " from " << s
                           << " to " << r << "; only dimensions of size 1 broadcast";
  }
  return success();
}

OpFoldResult BroadcastOp::fold(FoldAdaptor adaptor) {
  if (getSrc().getType() == getType())
    return getSrc();
  return reshapeSplat(adaptor.getSrc(), getType());
}

namespace {
/// broadcast(splat x) -> splat x
struct BroadcastOfSplat : OpRewritePattern<BroadcastOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(BroadcastOp op, PatternRewriter &rewriter) const override {
    auto splat = op.getSrc().getDefiningOp<SplatOp>();
    if (!splat)
      return failure();
    rewriter.replaceOpWithNewOp<SplatOp>(op, op.getType(), splat.getSrc());
    return success();
  }
};
/// broadcast(broadcast x) -> broadcast x
struct BroadcastOfBroadcast : OpRewritePattern<BroadcastOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(BroadcastOp op, PatternRewriter &rewriter) const override {
    auto inner = op.getSrc().getDefiningOp<BroadcastOp>();
    if (!inner)
      return failure();
    rewriter.replaceOpWithNewOp<BroadcastOp>(op, op.getType(), inner.getSrc());
    return success();
  }
};
} // namespace

void BroadcastOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                              MLIRContext *context) {
  results.add<BroadcastOfSplat, BroadcastOfBroadcast>(context);
}

//===----------------------------------------------------------------------===//
// ExpandDimsOp
//===----------------------------------------------------------------------===//

LogicalResult ExpandDimsOp::inferReturnTypes(MLIRContext *context,
                                             std::optional<Location> location,
                                             ValueRange operands, DictionaryAttr attributes,
                                             OpaqueProperties properties, RegionRange regions,
                                             SmallVectorImpl<Type> &inferredReturnTypes) {
  Adaptor adaptor(operands, attributes, properties, regions);
  auto srcType = dyn_cast<RankedTensorType>(adaptor.getSrc().getType());
  if (!srcType)
    return emitOptionalError(location, "hd.expand_dims operand must be a ranked tensor");
  int64_t axis = adaptor.getAxis();
  if (axis < 0 || axis > srcType.getRank())
    return emitOptionalError(location, "hd.expand_dims axis ", axis,
                             " is out of range for a tensor of rank ", srcType.getRank());
  SmallVector<int64_t> shape(srcType.getShape());
  shape.insert(shape.begin() + axis, 1);
  Attribute encoding = srcType.getEncoding();
  if (encoding) {
    if (auto slice = dyn_cast<SliceLayoutAttr>(encoding)) {
      if (slice.getDim() != axis)
        return emitOptionalError(location, "hd.expand_dims along axis ", axis,
                                 " needs an operand layout sliced along dim ", axis,
                                 ", got ", encoding);
      encoding = slice.getParent();
    } else if (auto layout = dyn_cast<DistributedLayoutAttrInterface>(encoding);
               !layout || !layout.isPlaceholder()) {
      return emitOptionalError(location, "hd.expand_dims along axis ", axis,
                               " needs an operand layout #hd.slice<{dim = ", axis,
                               ", ...}>, got ", encoding);
    }
  }
  inferredReturnTypes.push_back(
      RankedTensorType::get(shape, srcType.getElementType(), encoding));
  return success();
}

namespace {
/// expand_dims(splat x) -> splat x
struct ExpandDimsOfSplat : OpRewritePattern<ExpandDimsOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ExpandDimsOp op, PatternRewriter &rewriter) const override {
    auto splat = op.getSrc().getDefiningOp<SplatOp>();
    if (!splat)
      return failure();
    rewriter.replaceOpWithNewOp<SplatOp>(op, op.getType(), splat.getSrc());
    return success();
  }
};
} // namespace

void ExpandDimsOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                               MLIRContext *context) {
  results.add<ExpandDimsOfSplat>(context);
}

//===----------------------------------------------------------------------===//
// ReshapeOp, PermuteOp, JoinOp, SplitOp
//===----------------------------------------------------------------------===//

LogicalResult ReshapeOp::verify() {
  int64_t srcElements = getSrc().getType().getNumElements();
  int64_t resultElements = getType().getNumElements();
  if (srcElements != resultElements)
    return emitOpError() << "operand has " << srcElements << " elements, result "
                         << resultElements;
  return success();
}

OpFoldResult ReshapeOp::fold(FoldAdaptor adaptor) {
  if (getSrc().getType() == getType())
    return getSrc();
  return reshapeSplat(adaptor.getSrc(), getType());
}

LogicalResult PermuteOp::verify() {
  auto srcType = getSrc().getType();
  ArrayRef<int32_t> order = getOrder();
  if (!isPermutation(order, srcType.getRank()))
    return emitOpError() << "order [" << order << "] is not a permutation of [0, "
                         << srcType.getRank() << ")";
  if (getType().getRank() != srcType.getRank())
    return emitOpError() << "keeps the rank: operand has rank " << srcType.getRank()
                         << ", result " << getType().getRank();
  for (size_t i = 0; i < order.size(); ++i)
    if (getType().getDimSize(i) != srcType.getDimSize(order[i]))
      return emitOpError() << "result dimension " << i << " is "
                           << getType().getDimSize(i) << " but operand dimension "
                           << order[i] << " is " << srcType.getDimSize(order[i]);
  return success();
}

OpFoldResult PermuteOp::fold(FoldAdaptor adaptor) {
  ArrayRef<int32_t> order = getOrder();
  bool identity = llvm::all_of(llvm::enumerate(order),
                               [](auto it) { return it.value() == (int32_t)it.index(); });
  if (identity && getSrc().getType() == getType())
    return getSrc();
  return {};
}

LogicalResult JoinOp::verify() {
  auto srcType = getLhs().getType();
  SmallVector<int64_t> expected(srcType.getShape());
  expected.push_back(2);
  if (getType().getShape() != ArrayRef<int64_t>(expected))
    return emitOpError() << "result shape must be [" << ArrayRef<int64_t>(expected)
                         << "] (operand shape plus a minor dimension of 2), got ["
                         << getType().getShape() << "]";
  if (getType().getElementType() != srcType.getElementType())
    return emitOpError() << "result element type differs from the operands'";
  return success();
}

LogicalResult SplitOp::verify() {
  auto srcType = getSrc().getType();
  if (srcType.getRank() == 0 || srcType.getShape().back() != 2)
    return emitOpError() << "splits a minor dimension of size 2; operand shape is ["
                         << srcType.getShape() << "]";
  if (getLhs().getType() != getRhs().getType())
    return emitOpError() << "results must have one type, got " << getLhs().getType()
                         << " and " << getRhs().getType();
  if (getLhs().getType().getShape() != srcType.getShape().drop_back())
    return emitOpError() << "result shape must be [" << srcType.getShape().drop_back()
                         << "], got [" << getLhs().getType().getShape() << "]";
  if (getLhs().getType().getElementType() != srcType.getElementType())
    return emitOpError() << "result element type differs from the operand's";
  return success();
}

//===----------------------------------------------------------------------===//
// ConvertLayoutOp
//===----------------------------------------------------------------------===//

OpFoldResult ConvertLayoutOp::fold(FoldAdaptor adaptor) {
  if (getSrc().getType() == getType())
    return getSrc();
  if (auto prev = getSrc().getDefiningOp<ConvertLayoutOp>()) {
    getSrcMutable().assign(prev.getSrc());
    return getResult();
  }
  return reshapeSplat(adaptor.getSrc(), getType());
}

namespace {
/// convert_layout(splat x) -> splat x; convert_layout(arange) -> arange.
struct ConvertOfCreation : OpRewritePattern<ConvertLayoutOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ConvertLayoutOp op, PatternRewriter &rewriter) const override {
    Operation *def = op.getSrc().getDefiningOp();
    if (auto splat = dyn_cast_or_null<SplatOp>(def)) {
      rewriter.replaceOpWithNewOp<SplatOp>(op, op.getType(), splat.getSrc());
      return success();
    }
    if (auto arange = dyn_cast_or_null<ArangeOp>(def)) {
      rewriter.replaceOpWithNewOp<ArangeOp>(op, op.getType(), arange.getStartAttr(),
                                            arange.getEndAttr());
      return success();
    }
    return failure();
  }
};
} // namespace

void ConvertLayoutOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                                  MLIRContext *context) {
  results.add<ConvertOfCreation>(context);
}

//===----------------------------------------------------------------------===//
// AddPtrOp
//===----------------------------------------------------------------------===//

OpFoldResult AddPtrOp::fold(FoldAdaptor adaptor) {
  if (matchPattern(getOffset(), m_Zero()))
    return getPtr();
  return {};
}

//===----------------------------------------------------------------------===//
// Global memory
//===----------------------------------------------------------------------===//

LogicalResult LoadOp::verify() {
  if (getOther() && !getMask())
    return emitOpError() << "has `other` without a `mask`; other fills masked-off lanes";
  return verifyGlobalAccess(*this, getPtr().getType());
}

LogicalResult StoreOp::verify() { return verifyGlobalAccess(*this, getPtr().getType()); }

LogicalResult AtomicRMWOp::verify() {
  Type element = getElementTypeOrSelf(getVal().getType());
  AtomicRMWKind kind = getKind();
  bool isFloat = isa<FloatType>(element);
  bool isInt = element.isInteger();
  switch (kind) {
  case AtomicRMWKind::fadd:
  case AtomicRMWKind::fmax:
  case AtomicRMWKind::fmin:
    if (!isFloat)
      return emitOpError() << stringifyAtomicRMWKind(kind) << " needs floats, got "
                           << element;
    break;
  case AtomicRMWKind::xchg:
    if (!isFloat && !isInt)
      return emitOpError() << "xchg needs integers or floats, got " << element;
    break;
  default:
    if (!isInt)
      return emitOpError() << stringifyAtomicRMWKind(kind) << " needs integers, got "
                           << element << " (use f" << stringifyAtomicRMWKind(kind)
                           << " for floats where it exists)";
  }
  unsigned width = element.getIntOrFloatBitWidth();
  if (width != 16 && width != 32 && width != 64)
    return emitOpError() << "atomics are 16, 32 or 64 bits wide, got " << element;
  return verifyGlobalAccess(*this, getPtr().getType());
}

LogicalResult AtomicCASOp::verify() {
  Type element = getElementTypeOrSelf(getVal().getType());
  if (!element.isIntOrFloat())
    return emitOpError() << "compare-and-swap needs integers or floats, got " << element;
  unsigned width = element.getIntOrFloatBitWidth();
  if (width != 16 && width != 32 && width != 64)
    return emitOpError() << "compare-and-swap is 16, 32 or 64 bits wide, got " << element;
  return verifyGlobalAccess(*this, getPtr().getType());
}

//===----------------------------------------------------------------------===//
// ReduceOp and ScanOp
//===----------------------------------------------------------------------===//

namespace {
/// Checks operands of one shape and layout, the axis, and a combine region
/// of (accumulators..., values...) -> yield accumulators.
LogicalResult verifyCombine(Operation *op, ValueRange srcs, int64_t axis,
                            Region &combine) {
  if (srcs.empty())
    return op->emitOpError() << "needs at least one operand";
  auto first = cast<RankedTensorType>(srcs.front().getType());
  for (auto [i, src] : llvm::enumerate(srcs)) {
    auto type = cast<RankedTensorType>(src.getType());
    if (type.getShape() != first.getShape() || type.getEncoding() != first.getEncoding())
      return op->emitOpError() << "operand #" << i << " of type " << type
                               << " differs in shape or layout from operand #0 " << first;
  }
  if (axis < 0 || axis >= first.getRank())
    return op->emitOpError() << "axis " << axis << " is out of range for rank "
                             << first.getRank();
  Block &block = combine.front();
  size_t n = srcs.size();
  if (block.getNumArguments() != 2 * n)
    return op->emitOpError() << "combine region takes " << 2 * n
                             << " arguments (accumulators then values), got "
                             << block.getNumArguments();
  for (size_t i = 0; i < 2 * n; ++i) {
    Type expected = cast<RankedTensorType>(srcs[i % n].getType()).getElementType();
    if (block.getArgument(i).getType() != expected)
      return op->emitOpError() << "combine region argument #" << i << " is "
                               << block.getArgument(i).getType() << ", expected "
                               << expected;
  }
  auto yield = dyn_cast<YieldOp>(block.getTerminator());
  if (!yield)
    return op->emitOpError() << "combine region must end with hd.yield";
  if (yield.getValues().size() != n)
    return op->emitOpError() << "combine region yields " << yield.getValues().size()
                             << " values, expected " << n;
  for (size_t i = 0; i < n; ++i) {
    Type expected = cast<RankedTensorType>(srcs[i].getType()).getElementType();
    if (yield.getValues()[i].getType() != expected)
      return op->emitOpError() << "combine region yields " << yield.getValues()[i].getType()
                               << " at #" << i << ", expected " << expected;
  }
  return success();
}
} // namespace

LogicalResult ReduceOp::inferReturnTypes(MLIRContext *context,
                                         std::optional<Location> location,
                                         ValueRange operands, DictionaryAttr attributes,
                                         OpaqueProperties properties, RegionRange regions,
                                         SmallVectorImpl<Type> &inferredReturnTypes) {
  Adaptor adaptor(operands, attributes, properties, regions);
  int64_t axis = adaptor.getAxis();
  for (Value src : adaptor.getSrcs()) {
    auto type = dyn_cast<RankedTensorType>(src.getType());
    if (!type)
      return emitOptionalError(location, "hd.reduce operands must be ranked tensors");
    if (axis < 0 || axis >= type.getRank())
      return emitOptionalError(location, "hd.reduce axis ", axis,
                               " is out of range for rank ", type.getRank());
    if (type.getRank() == 1) {
      inferredReturnTypes.push_back(type.getElementType());
      continue;
    }
    SmallVector<int64_t> shape(type.getShape());
    shape.erase(shape.begin() + axis);
    Attribute encoding = type.getEncoding();
    if (auto layout = dyn_cast_or_null<DistributedLayoutAttrInterface>(encoding)) {
      if (!layout.isPlaceholder() || isa<SliceLayoutAttr, DotOperandLayoutAttr>(layout))
        encoding = SliceLayoutAttr::get(context, axis, layout);
    }
    inferredReturnTypes.push_back(
        RankedTensorType::get(shape, type.getElementType(), encoding));
  }
  return success();
}

LogicalResult ReduceOp::verifyRegions() {
  return verifyCombine(*this, getSrcs(), getAxis(), getCombine());
}

LogicalResult ScanOp::verifyRegions() {
  if (failed(verifyCombine(*this, getSrcs(), getAxis(), getCombine())))
    return failure();
  if (getNumResults() != getSrcs().size())
    return emitOpError() << "has " << getNumResults() << " results for "
                         << getSrcs().size() << " operands";
  for (auto [i, pair] : llvm::enumerate(llvm::zip(getSrcs(), getResults())))
    if (std::get<0>(pair).getType() != std::get<1>(pair).getType())
      return emitOpError() << "result #" << i << " has type " << std::get<1>(pair).getType()
                           << ", expected its operand's " << std::get<0>(pair).getType();
  return success();
}

//===----------------------------------------------------------------------===//
// Shared memory
//===----------------------------------------------------------------------===//

LogicalResult LocalAllocOp::verify() {
  MemDescType type = getType();
  if (type.getShape() != type.getAllocShape())
    return emitOpError() << "allocates a whole tile; " << type << " is a view";
  if (getSrc())
    return verifyTileMatchesMemDesc(*this, getSrc().getType(), type, "initial value");
  return success();
}

LogicalResult LocalLoadOp::verify() {
  return verifyTileMatchesMemDesc(*this, getType(), getSrc().getType(), "result");
}

LogicalResult LocalStoreOp::verify() {
  return verifyTileMatchesMemDesc(*this, getValue().getType(), getDst().getType(),
                                  "stored value");
}

LogicalResult MemDescSliceOp::verify() {
  MemDescType src = getSrc().getType(), result = getType();
  ArrayRef<int64_t> offsets = getOffsets();
  if (src.getElementType() != result.getElementType() ||
      src.getEncoding() != result.getEncoding() ||
      src.getAllocShape() != result.getAllocShape())
    return emitOpError() << "view " << result
                         << " must keep the element type, layout and allocation of "
                         << src;
  if (offsets.size() != src.getShape().size() ||
      result.getShape().size() != src.getShape().size())
    return emitOpError() << "needs one offset per dimension of " << src;
  for (size_t i = 0; i < offsets.size(); ++i) {
    if (offsets[i] < 0 || offsets[i] > src.getShape()[i] - result.getShape()[i])
      return emitOpError() << "slice of size " << result.getShape()[i] << " at offset "
                           << offsets[i] << " of dimension " << i << " is outside [0, "
                           << src.getShape()[i] << ")";
    if (offsets[i] % result.getShape()[i] != 0)
      return emitOpError() << "offset " << offsets[i] << " of dimension " << i
                           << " must be a multiple of the slice size "
                           << result.getShape()[i];
  }
  return success();
}

LogicalResult MemDescIndexOp::verify() {
  MemDescType src = getSrc().getType(), result = getType();
  if (src.getShape().size() < 2)
    return emitOpError() << "indexes the leading dimension of a tile of rank >= 2, got "
                         << src;
  if (result.getShape() != src.getShape().drop_front())
    return emitOpError() << "result shape must be [" << src.getShape().drop_front()
                         << "], got [" << result.getShape() << "]";
  if (src.getElementType() != result.getElementType() ||
      src.getEncoding() != result.getEncoding() ||
      src.getAllocShape() != result.getAllocShape())
    return emitOpError() << "view " << result
                         << " must keep the element type, layout and allocation of "
                         << src;
  return success();
}

LogicalResult MemDescReinterpretOp::verify() {
  MemDescType src = getSrc().getType(), result = getType();
  if (src.getShape() != src.getAllocShape())
    return emitOpError() << "reinterprets a whole allocation; " << src << " is a view of one";
  if (result.getShape() != result.getAllocShape())
    return emitOpError() << "result " << result << " must be a whole allocation of its own shape";
  int64_t have = allocationBytes(src), need = allocationBytes(result);
  if (need > have)
    return emitOpError() << "result " << result << " needs " << need << " bytes, more than the "
                         << have << " of " << src;
  return success();
}

LogicalResult MemDescPermuteOp::verify() {
  MemDescType src = getSrc().getType(), result = getType();
  ArrayRef<int32_t> order = getOrder();
  if (!isPermutation(order, src.getShape().size()))
    return emitOpError() << "order [" << order << "] is not a permutation of [0, "
                         << src.getShape().size() << ")";
  if (result.getShape().size() != src.getShape().size())
    return emitOpError() << "keeps the rank: operand has rank " << src.getShape().size()
                         << ", result " << result.getShape().size();
  for (size_t i = 0; i < order.size(); ++i)
    if (result.getShape()[i] != src.getShape()[order[i]])
      return emitOpError() << "result dimension " << i << " is " << result.getShape()[i]
                           << " but operand dimension " << order[i] << " is "
                           << src.getShape()[order[i]];
  if (src.getElementType() != result.getElementType())
    return emitOpError() << "keeps the element type";
  return success();
}

OpFoldResult MemDescPermuteOp::fold(FoldAdaptor) {
  if (getSrc().getType() == getType() &&
      llvm::all_of(llvm::enumerate(getOrder()),
                   [](auto it) { return it.value() == (int32_t)it.index(); }))
    return getSrc();
  return {};
}

//===----------------------------------------------------------------------===//
// Async copies
//===----------------------------------------------------------------------===//

LogicalResult AsyncCopyOp::verify() {
  auto ptrType = getPtr().getType();
  auto pointee = cast<PointerType>(ptrType.getElementType());
  MemDescType dst = getDst().getType();
  if (ptrType.getShape() != dst.getShape())
    return emitOpError() << "copies [" << ptrType.getShape() << "] elements into a ["
                         << dst.getShape() << "] tile";
  if (pointee.getPointeeType() != dst.getElementType())
    return emitOpError() << "copies " << pointee.getPointeeType() << " into a tile of "
                         << dst.getElementType();
  if (getOther() && !getMask())
    return emitOpError() << "has `other` without a `mask`";
  return verifyGlobalAccess(*this, ptrType);
}

LogicalResult AsyncTensorCopyOp::verify() {
  TensorDescType desc = getDesc().getType();
  MemDescType dst = getDst().getType();
  if (getCoords().size() != desc.getShape().size())
    return emitOpError() << "gives " << getCoords().size() << " coordinates for a descriptor of "
                         << desc.getShape().size() << " dims";
  if (dst.getShape() != desc.getShape())
    return emitOpError() << "copies blocks of [" << desc.getShape() << "] into a ["
                         << dst.getShape() << "] tile";
  if (dst.getElementType() != desc.getElementType())
    return emitOpError() << "copies " << desc.getElementType() << " into a tile of "
                         << dst.getElementType();
  if (!sameTilePlacement(desc.getEncoding(), dst.getEncoding(), dst.getShape()))
    return emitOpError() << "copies blocks laid out as " << desc.getEncoding()
                         << " into a tile laid out as " << dst.getEncoding();
  return success();
}

LogicalResult AsyncTensorStoreOp::verify() {
  TensorDescType desc = getDesc().getType();
  MemDescType src = getSrc().getType();
  if (getCoords().size() != desc.getShape().size())
    return emitOpError() << "gives " << getCoords().size() << " coordinates for a descriptor of "
                         << desc.getShape().size() << " dims";
  if (src.getShape() != desc.getShape())
    return emitOpError() << "stores a [" << src.getShape() << "] tile into blocks of ["
                         << desc.getShape() << "]";
  if (src.getElementType() != desc.getElementType())
    return emitOpError() << "stores a tile of " << src.getElementType() << " into a descriptor of "
                         << desc.getElementType();
  if (!sameTilePlacement(desc.getEncoding(), src.getEncoding(), src.getShape()))
    return emitOpError() << "stores a tile laid out as " << src.getEncoding()
                         << " into blocks laid out as " << desc.getEncoding();
  return success();
}

LogicalResult ClusterBarrierOp::verify() {
  if ((*this)->getParentOfType<WarpSpecializeOp>())
    return emitOpError() << "needs every thread of the program; inside hd.warp_specialize only "
                            "a region's warps run it";
  return success();
}

LogicalResult AsyncWaitOp::verify() {
  if (getPending() < 0)
    return emitOpError() << "pending = " << getPending() << " must be >= 0";
  return success();
}

//===----------------------------------------------------------------------===//
// DotOp
//===----------------------------------------------------------------------===//

namespace {
bool isSupportedDotTypes(Type a, Type acc) {
  if (a.isF16())
    return acc.isF16() || acc.isF32();
  if (a.isBF16())
    return acc.isF32() || acc.isBF16();
  if (a.isF32())
    return acc.isF32();
  if (a.isF64())
    return acc.isF64();
  if (a.isInteger(8))
    return acc.isInteger(32);
  return false;
}
} // namespace

void DotOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>> &effects) {
  for (OpOperand &operand : getOperation()->getOpOperands())
    if (operand.getOperandNumber() < 2 && isa<MemDescType>(operand.get().getType()))
      effects.emplace_back(MemoryEffects::Read::get(), &operand, SharedMemory::get());
}

LogicalResult DotOp::verify() {
  auto cType = getAcc().getType();
  auto shapeOf = [](Value v) { return cast<ShapedType>(v.getType()).getShape(); };
  auto elemOf = [](Value v) { return cast<ShapedType>(v.getType()).getElementType(); };
  ArrayRef<int64_t> aShape = shapeOf(getA()), bShape = shapeOf(getB());
  int64_t rank = cType.getRank();
  if (rank != 2 && rank != 3)
    return emitOpError() << "needs rank 2 (or 3 with a batch dimension), got " << rank;
  if (int64_t(aShape.size()) != rank || int64_t(bShape.size()) != rank)
    return emitOpError() << "operands and accumulator must have one rank";
  int64_t m = cType.getDimSize(rank - 2), n = cType.getDimSize(rank - 1);
  int64_t k = aShape[rank - 1];
  if (aShape[rank - 2] != m || bShape[rank - 2] != k || bShape[rank - 1] != n ||
      (rank == 3 && (aShape[0] != cType.getDimSize(0) || bShape[0] != cType.getDimSize(0))))
    return emitOpError() << "shapes do not compose: a [" << aShape << "] * b [" << bShape
                         << "] -> acc [" << cType.getShape() << "]";
  Type aElem = elemOf(getA()), bElem = elemOf(getB());
  if (aElem != bElem)
    return emitOpError() << "operands must share an element type, got " << aElem << " and "
                         << bElem;
  if (!isSupportedDotTypes(aElem, cType.getElementType()))
    return emitOpError() << "does not multiply " << aElem << " into " << cType.getElementType()
                         << " (f16->f16/f32, bf16->bf16/f32, f32->f32, f64->f64, i8->i32)";
  if (getInputPrecision() == InputPrecision::tf32 && !aElem.isF32())
    return emitOpError() << "tf32 input precision applies to f32 operands only";
  bool shared[2] = {isa<MemDescType>(getA().getType()), isa<MemDescType>(getB().getType())};
  if ((shared[0] || shared[1]) && rank != 2)
    return emitOpError() << "takes shared-memory operands in a rank 2 dot only";

  auto accLayout = dyn_cast_or_null<DistributedLayoutAttrInterface>(cType.getEncoding());
  if (!accLayout || accLayout.isPlaceholder())
    return success();
  if (auto mma = dyn_cast<MmaLayoutAttr>(accLayout)) {
    MatrixInstrAttr instr = mma.getInstr();
    Type elem = aElem;
    // f32 operands feed a tf32 instruction only when the dot asks for tf32.
    bool readsAsTf32 = isa<FloatTF32Type>(instr.getAType()) && elem.isF32() &&
                       getInputPrecision() == InputPrecision::tf32;
    bool operandsMatch = readsAsTf32 ? isa<FloatTF32Type>(instr.getBType())
                                     : instr.getAType() == elem && instr.getBType() == elem;
    if (m % instr.getM() || n % instr.getN() || k % instr.getK())
      return emitOpError() << "computes [" << m << ", " << n << "] with k = " << k
                           << ", not a multiple of its matrix instruction \""
                           << instr.getName() << "\" (" << instr.getM() << "x" << instr.getN()
                           << "x" << instr.getK() << ")";
    if (!operandsMatch || instr.getAccType() != cType.getElementType())
      return emitOpError() << "multiplies " << elem << " into " << cType.getElementType()
                             << " but its matrix instruction \"" << instr.getName()
                             << "\" takes " << instr.getAType() << " x " << instr.getBType()
                             << " -> " << instr.getAccType();
    for (unsigned idx = 0; idx < 2; ++idx)
      if (instr.readsFromShared(idx) && !shared[idx])
        return emitOpError() << "operand " << (idx == 0 ? "a" : "b")
                             << " must be a shared-memory tile (!hd.memdesc): the matrix "
                                "instruction \""
                             << instr.getName() << "\" reads it from shared memory";
  }
  Value operands[] = {getA(), getB()};
  for (unsigned idx = 0; idx < 2; ++idx) {
    auto type = dyn_cast<RankedTensorType>(operands[idx].getType());
    if (!type)
      continue;
    auto opLayout = dyn_cast_or_null<DotOperandLayoutAttr>(type.getEncoding());
    const char *name = idx == 0 ? "a" : "b";
    if (!opLayout || opLayout.getOpIdx() != idx || opLayout.getParent() != accLayout)
      return emitOpError() << "operand " << name << " has layout " << type.getEncoding()
                           << "; expected #hd.dot_op<{opIdx = " << idx
                           << ", parent = " << accLayout << ", ...}>";
  }
  return success();
}

LogicalResult DotWaitOp::verify() {
  if (getPending() < 0)
    return emitOpError() << "pending = " << getPending() << " must be >= 0";
  return success();
}

//===----------------------------------------------------------------------===//
// Hints
//===----------------------------------------------------------------------===//

LogicalResult MultipleOfOp::verify() {
  ArrayRef<int32_t> divisors = getDivisors();
  int64_t rank = 0;
  if (auto tensor = dyn_cast<RankedTensorType>(getSrc().getType()))
    rank = tensor.getRank();
  size_t expected = std::max<int64_t>(rank, 1);
  if (divisors.size() != expected)
    return emitOpError() << "needs " << expected << " divisor(s), one per dimension, got "
                         << divisors.size();
  for (int32_t d : divisors)
    if (d < 1)
      return emitOpError() << "divisor " << d << " must be positive";
  Type element = getElementTypeOrSelf(getSrc().getType());
  if (!element.isInteger() && !isa<PointerType>(element))
    return emitOpError() << "applies to integers or pointers, not " << element;
  return success();
}

#define GET_OP_CLASSES
#include "hadron/IR/HadronOps.cpp.inc"

//===----------------------------------------------------------------------===//
// Warp specialisation
//===----------------------------------------------------------------------===//

std::pair<unsigned, unsigned> WarpSpecializeOp::regionWarps(unsigned index, unsigned numWarps) {
  if (index == 0)
    return {0, numWarps};
  unsigned first = numWarps;
  ArrayRef<int32_t> warps = getPartitionNumWarps();
  for (unsigned i = 0; i + 1 < index; ++i)
    first += warps[i];
  return {first, unsigned(warps[index - 1])};
}

unsigned WarpSpecializeOp::totalWarps(unsigned numWarps) {
  unsigned total = numWarps;
  for (int32_t w : getPartitionNumWarps())
    total += w;
  return total;
}

LogicalResult WarpSpecializeOp::verifyRegions() {
  ArrayRef<int32_t> warps = getPartitionNumWarps();
  if (warps.size() != getPartitions().size())
    return emitOpError() << "has " << getPartitions().size() << " partitions but "
                         << warps.size() << " warp counts";
  if (warps.empty())
    return emitOpError("needs at least one partition besides the default region");
  for (auto [i, w] : llvm::enumerate(warps))
    if (w < 1 || !llvm::isPowerOf2_32(w))
      return emitOpError() << "partition " << i << " has " << w
                           << " warps; a partition runs a power of two of warps";
  if (std::optional<ArrayRef<int32_t>> regs = getRegs()) {
    if (regs->size() != (*this)->getNumRegions())
      return emitOpError() << "gives " << regs->size() << " register budgets for "
                           << (*this)->getNumRegions()
                           << " regions (the default region's first)";
    // The default region's 0: what the others leave, as the target says.
    for (auto [i, r] : llvm::enumerate(*regs))
      if (r < (i == 0 ? 0 : 1))
        return emitOpError() << "gives region " << i << " a budget of " << r
                             << " registers a thread"
                             << (i == 0 ? "" : " (only the default region's may be 0)");
  }
  for (Region &region : (*this)->getRegions()) {
    if (region.empty())
      return emitOpError("has an empty region");
    bool nested = false;
    region.walk([&](WarpSpecializeOp) { nested = true; });
    if (nested)
      return emitOpError("contains another hd.warp_specialize; they do not nest");
  }
  // A partition runs on other warps than the code above it: tiles defined
  // above are spread over warps it does not have.
  for (auto [i, region] : llvm::enumerate(getPartitions())) {
    Operation *bad = nullptr;
    Value badValue;
    region.walk([&](Operation *op) {
      for (Value v : op->getOperands()) {
        Region *home = v.getParentRegion();
        // A splat constant is the same value in every thread (and the
        // canonicalizer hoists constants out of regions).
        SplatElementsAttr splat;
        if (isa<RankedTensorType>(v.getType()) && !region.isAncestor(home) &&
            !matchPattern(v, m_Constant(&splat))) {
          bad = op;
          badValue = v;
          return WalkResult::interrupt();
        }
      }
      return WalkResult::advance();
    });
    if (bad)
      return bad->emitOpError() << "in partition " << i
                                << " of hd.warp_specialize reads a tile defined above it ("
                                << badValue.getType()
                                << "); a partition's warps hold no part of it";
  }
  return success();
}
