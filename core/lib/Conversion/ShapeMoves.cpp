//===- ShapeMoves.cpp - reshape/join/split that move data between threads -===//
//
// The distribute lowering does reshape, join and split as register moves:
// every element must stay in its thread. Where the layouts the kernel asks
// for move elements between lanes or warps, this rewrite splits the op in
// two: the op itself into (or from) the layout that keeps every element in
// its thread, and an hd.convert_layout for the move, which the lowering
// does through shuffles or a shared-memory round trip (and which the
// shared-memory allocator then plans like any other).
//
//   reshape x : Ls -> Lr      becomes  reshape (convert_layout x : Ls -> L') : L' -> Lr
//                             with L' = Lr's bases re-indexed in x's shape
//   join a, b : Ls -> Lr      becomes  convert_layout (join a, b : Ls -> J) : J -> Lr
//                             with J = Ls plus a register bit for the new dim
//   split x : Ls -> Lr, Lr    becomes  split (convert_layout x : Ls -> S) : S -> Lr, Lr
//                             with S = Lr plus a register bit for the split dim
//   permute x : Ls -> Lr      becomes  permute (convert_layout x : Ls -> P) : P -> Lr
//                             with P = Lr's bases with the dims put back
//
// Targets that fold lanes and warps into registers (the host) never need it.
//
//===----------------------------------------------------------------------===//

#include "hadron/Conversion/Passes.h"
#include "hadron/IR/Dialect.h"
#include "hadron/Layout/LinearLayout.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"

using namespace mlir;
using namespace hadron::hd;

namespace hadron {
namespace {

using Basis = LinearLayout::Basis;

FailureOr<LinearLayout> layoutOf(Operation *op, RankedTensorType type) {
  auto layout = dyn_cast_or_null<DistributedLayoutAttrInterface>(type.getEncoding());
  if (!layout) {
    op->emitOpError() << "has a tile without a distributed layout: " << type;
    return failure();
  }
  Result<LinearLayout> ll = layout.toLinearLayout(type.getShape());
  if (!ll) {
    op->emitOpError() << "cannot be lowered: " << ll.error();
    return failure();
  }
  return *ll;
}

std::vector<Basis> bases(const LinearLayout &ll, const char *in) {
  std::vector<Basis> out;
  if (!ll.hasInDim(in))
    return out;
  for (int i = 0; i < ll.getInDimSizeLog2(in); ++i)
    out.push_back(ll.getBasis(in, i));
  return out;
}

/// `ll` with every basis of every in dim replaced by `map(basis)`, over out
/// dims of `shape`.
FailureOr<LinearLayout> mapBases(Operation *op, const LinearLayout &ll, ArrayRef<int64_t> shape,
                                 function_ref<Basis(const Basis &)> map,
                                 const std::vector<Basis> &extraRegisters = {}) {
  std::vector<LinearLayout::InDim> ins;
  for (const std::string &name : ll.getInDimNames()) {
    LinearLayout::InDim in{name, {}};
    if (name == "register")
      in.bases = extraRegisters;
    for (const Basis &b : bases(ll, name.c_str()))
      in.bases.push_back(map(b));
    ins.push_back(std::move(in));
  }
  std::vector<LinearLayout::OutDim> outs;
  for (size_t d = 0; d < shape.size(); ++d)
    outs.push_back({"dim" + std::to_string(d), static_cast<int32_t>(shape[d])});
  Result<LinearLayout> result = LinearLayout::create(std::move(ins), std::move(outs),
                                                     /*requireSurjective=*/false);
  if (!result) {
    op->emitOpError() << "cannot be lowered: " << result.error();
    return failure();
  }
  return *result;
}

/// Whether `a` and `b` put every element in the same lane and warp.
bool sameThreads(const LinearLayout &a, const LinearLayout &b) {
  return bases(a, "lane") == bases(b, "lane") && bases(a, "warp") == bases(b, "warp");
}

RankedTensorType withLayout(RankedTensorType type, const LinearLayout &ll) {
  return RankedTensorType::get(type.getShape(), type.getElementType(),
                               LinearLayoutAttr::get(type.getContext(), ll));
}

/// Row-major re-indexing of a coordinate from `from`'s shape into `to`'s
/// (linear over GF(2) for power-of-two shapes: the index bits are
/// concatenated in the same order).
Basis reindex(const Basis &c, ArrayRef<int64_t> from, ArrayRef<int64_t> to) {
  int64_t linear = 0;
  for (size_t d = 0; d < from.size(); ++d)
    linear = linear * from[d] + c[d];
  Basis s(to.size());
  for (size_t d = to.size(); d-- > 0;) {
    s[d] = static_cast<int32_t>(linear % to[d]);
    linear /= to[d];
  }
  return s;
}

/// Where the operand's layout `src` and the layout the op needs it in,
/// `wanted`, put elements in different threads: an hd.convert_layout to
/// `wanted` in front of the op.
LogicalResult convertSourceUnlessInThreads(Operation *op, OpOperand &operand,
                                           const LinearLayout &src, const LinearLayout &wanted) {
  if (sameThreads(src, wanted))
    return success();
  OpBuilder b(op);
  auto type = cast<RankedTensorType>(operand.get().getType());
  Value moved = ConvertLayoutOp::create(b, op->getLoc(), withLayout(type, wanted), operand.get());
  operand.set(moved);
  return success();
}

LogicalResult rewriteReshape(ReshapeOp op) {
  RankedTensorType srcType = op.getSrc().getType(), dstType = op.getType();
  FailureOr<LinearLayout> src = layoutOf(op, srcType), dst = layoutOf(op, dstType);
  if (failed(src) || failed(dst))
    return failure();
  ArrayRef<int64_t> from = dstType.getShape(), to = srcType.getShape();
  FailureOr<LinearLayout> wanted =
      mapBases(op, *dst, to, [&](const Basis &b) { return reindex(b, from, to); });
  if (failed(wanted))
    return failure();
  return convertSourceUnlessInThreads(op, op.getSrcMutable(), *src, *wanted);
}

/// `ll` (over a tile of rank r) as a layout over `shape` (rank r + 1) whose
/// new minor dim of size 2 is register bit 0: what join produces and split
/// takes with every element staying in its thread.
FailureOr<LinearLayout> withMinorRegisterDim(Operation *op, const LinearLayout &ll,
                                             ArrayRef<int64_t> shape) {
  Basis minor(shape.size(), 0);
  minor.back() = 1;
  return mapBases(
      op, ll, shape,
      [](const Basis &b) {
        Basis e = b;
        e.push_back(0);
        return e;
      },
      {minor});
}

LogicalResult rewritePermute(PermuteOp op) {
  RankedTensorType srcType = op.getSrc().getType(), dstType = op.getType();
  FailureOr<LinearLayout> src = layoutOf(op, srcType), dst = layoutOf(op, dstType);
  if (failed(src) || failed(dst))
    return failure();
  ArrayRef<int32_t> order = op.getOrder();
  // Result dim i is operand dim order[i].
  FailureOr<LinearLayout> wanted = mapBases(op, *dst, srcType.getShape(), [&](const Basis &b) {
    Basis s(b.size());
    for (size_t i = 0; i < order.size(); ++i)
      s[order[i]] = b[i];
    return s;
  });
  if (failed(wanted))
    return failure();
  return convertSourceUnlessInThreads(op, op.getSrcMutable(), *src, *wanted);
}

LogicalResult rewriteJoin(JoinOp op) {
  RankedTensorType srcType = op.getLhs().getType(), dstType = op.getType();
  FailureOr<LinearLayout> src = layoutOf(op, srcType), dst = layoutOf(op, dstType);
  if (failed(src) || failed(dst))
    return failure();
  FailureOr<LinearLayout> joined = withMinorRegisterDim(op, *src, dstType.getShape());
  if (failed(joined))
    return failure();
  if (sameThreads(*joined, *dst))
    return success();
  OpBuilder b(op);
  b.setInsertionPointAfter(op);
  RankedTensorType joinedType = withLayout(dstType, *joined);
  auto convert = ConvertLayoutOp::create(b, op.getLoc(), dstType, op.getResult());
  op.getResult().replaceAllUsesExcept(convert.getResult(), convert);
  op.getResult().setType(joinedType);
  return success();
}

LogicalResult rewriteSplit(SplitOp op) {
  RankedTensorType srcType = op.getSrc().getType(), dstType = op.getLhs().getType();
  FailureOr<LinearLayout> src = layoutOf(op, srcType), dst = layoutOf(op, dstType);
  if (failed(src) || failed(dst))
    return failure();
  FailureOr<LinearLayout> wanted = withMinorRegisterDim(op, *dst, srcType.getShape());
  if (failed(wanted))
    return failure();
  return convertSourceUnlessInThreads(op, op.getSrcMutable(), *src, *wanted);
}

} // namespace

LogicalResult legalizeShapeMoves(ModuleOp module, bool foldThreads) {
  if (foldThreads)
    return success();
  SmallVector<Operation *> ops;
  module.walk([&](Operation *op) {
    if (isa<ReshapeOp, JoinOp, SplitOp, PermuteOp>(op))
      ops.push_back(op);
  });
  for (Operation *op : ops) {
    LogicalResult result = success();
    if (auto reshape = dyn_cast<ReshapeOp>(op))
      result = rewriteReshape(reshape);
    else if (auto join = dyn_cast<JoinOp>(op))
      result = rewriteJoin(join);
    else if (auto split = dyn_cast<SplitOp>(op))
      result = rewriteSplit(split);
    else if (auto permute = dyn_cast<PermuteOp>(op))
      result = rewritePermute(permute);
    if (failed(result))
      return failure();
  }
  return success();
}

} // namespace hadron
