//===- AxisInfo.cpp - Contiguity and divisibility of tile values ----------===//

#include "hadron/Analysis/AxisInfo.h"
#include "hadron/IR/Dialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/Support/MathExtras.h"

#include <numeric>

using namespace mlir;
using namespace hadron;
using namespace hadron::hd;

namespace {
constexpr int64_t kMaxDivisibility = int64_t(1) << 30;

unsigned rankOf(Type type) {
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    return tensor.getRank();
  return 0;
}

SmallVector<int64_t> shapeOf(Type type) {
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    return SmallVector<int64_t>(tensor.getShape());
  return {1};
}

int64_t divisibilityOfConstant(int64_t v) {
  if (v == 0)
    return kMaxDivisibility;
  return std::min<int64_t>(kMaxDivisibility, int64_t(1) << llvm::countr_zero(uint64_t(v)));
}

int64_t gcd(int64_t a, int64_t b) { return std::gcd(a, b); }

/// Bytes of one pointee of a pointer-like type, or 1.
int64_t pointeeBytes(Type type) {
  Type element = type;
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    element = tensor.getElementType();
  if (auto ptr = dyn_cast<PointerType>(element)) {
    Type pointee = ptr.getPointeeType();
    if (pointee.isIntOrFloat())
      return std::max<int64_t>(1, pointee.getIntOrFloatBitWidth() / 8);
    return 8;
  }
  return 1;
}
} // namespace

AxisInfo AxisInfo::unknown(unsigned rank) {
  unsigned n = std::max(1u, rank);
  AxisInfo info;
  info.contiguity.assign(n, 1);
  info.divisibility.assign(n, 1);
  info.constancy.assign(n, 1);
  return info;
}

AxisInfoAnalysis::AxisInfoAnalysis(Operation *root) {
  llvm::SmallVector<Value> inductionVars;
  root->walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (auto func = dyn_cast<func::FuncOp>(op)) {
      for (BlockArgument arg : func.getArguments()) {
        AxisInfo info = AxisInfo::unknown(rankOf(arg.getType()));
        if (auto div = func.getArgAttrOfType<IntegerAttr>(arg.getArgNumber(),
                                                          kDivisibilityAttr))
          info.divisibility.assign(info.divisibility.size(),
                                   std::max<int64_t>(1, div.getInt()));
        infos[arg] = info;
      }
      return;
    }
    // A loop's induction variable is lb + i * step: divisible by both.
    if (auto loop = dyn_cast<scf::ForOp>(op)) {
      AxisInfo iv = AxisInfo::unknown(0);
      iv.divisibility[0] = gcd(get(loop.getLowerBound()).divisibility[0],
                               get(loop.getStep()).divisibility[0]);
      infos[loop.getInductionVar()] = iv;
      inductionVars.push_back(loop.getInductionVar());
    }
    visit(op);
  });
  // What depends on them is computed; the loops themselves may be lowered
  // (scf to cf) while the analysis is in use, and a block argument created
  // then must not find a stale entry.
  for (Value iv : inductionVars)
    infos.erase(iv);
}

AxisInfo AxisInfoAnalysis::get(Value value) const {
  auto it = infos.find(value);
  if (it != infos.end())
    return it->second;
  return AxisInfo::unknown(rankOf(value.getType()));
}

void AxisInfoAnalysis::visit(Operation *op) {
  if (op->getNumResults() != 1)
    return;
  Value result = op->getResult(0);
  Type type = result.getType();
  unsigned rank = rankOf(type);
  SmallVector<int64_t> shape = shapeOf(type);
  AxisInfo info = AxisInfo::unknown(rank);

  if (auto arange = dyn_cast<ArangeOp>(op)) {
    info.contiguity[0] = shape[0];
    info.divisibility[0] = divisibilityOfConstant(arange.getStart());
  } else if (auto constant = dyn_cast<arith::ConstantOp>(op)) {
    std::optional<int64_t> value;
    if (auto intAttr = dyn_cast<IntegerAttr>(constant.getValue()))
      value = intAttr.getInt();
    else if (auto splat = dyn_cast<SplatElementsAttr>(constant.getValue()))
      if (splat.getElementType().isInteger())
        value = splat.getSplatValue<APInt>().getSExtValue();
    if (value) {
      info.divisibility.assign(info.divisibility.size(), divisibilityOfConstant(*value));
      info.constancy = shape;
    }
  } else if (auto splat = dyn_cast<SplatOp>(op)) {
    AxisInfo src = get(splat.getSrc());
    info.divisibility.assign(info.divisibility.size(), src.divisibility[0]);
    info.constancy = shape;
  } else if (auto mult = dyn_cast<MultipleOfOp>(op)) {
    info = get(mult.getSrc());
    for (auto [i, d] : llvm::enumerate(mult.getDivisors()))
      info.divisibility[i] = std::max<int64_t>(info.divisibility[i], d);
  } else if (isa<ConvertLayoutOp>(op)) {
    info = get(op->getOperand(0));
  } else if (auto bcast = dyn_cast<BroadcastOp>(op)) {
    AxisInfo src = get(bcast.getSrc());
    auto srcShape = bcast.getSrc().getType().getShape();
    info = src;
    for (unsigned d = 0; d < rank; ++d)
      if (srcShape[d] == 1 && shape[d] != 1)
        info.constancy[d] = shape[d];
  } else if (auto expand = dyn_cast<ExpandDimsOp>(op)) {
    AxisInfo src = get(expand.getSrc());
    unsigned axis = expand.getAxis();
    if (rankOf(expand.getSrc().getType()) == 0)
      src = AxisInfo::unknown(0);
    info.contiguity = src.contiguity;
    info.divisibility = src.divisibility;
    info.constancy = src.constancy;
    info.contiguity.insert(info.contiguity.begin() + axis, 1);
    info.divisibility.insert(info.divisibility.begin() + axis,
                             src.divisibility.empty() ? 1 : src.divisibility[0]);
    info.constancy.insert(info.constancy.begin() + axis, 1);
  } else if (isa<arith::AddIOp, AddPtrOp>(op)) {
    AxisInfo a = get(op->getOperand(0)), b = get(op->getOperand(1));
    int64_t scaleA = 1, scaleB = 1;
    if (isa<AddPtrOp>(op))
      scaleB = pointeeBytes(type); // offsets count elements, divisibility bytes
    for (unsigned d = 0; d < info.contiguity.size(); ++d) {
      info.contiguity[d] =
          std::max(std::min(a.contiguity[d], b.constancy[d]),
                   std::min(b.contiguity[d], a.constancy[d]));
      info.divisibility[d] =
          gcd(a.divisibility[d] * scaleA, std::min(kMaxDivisibility, b.divisibility[d] * scaleB));
      info.constancy[d] = std::min(a.constancy[d], b.constancy[d]);
    }
  } else if (isa<arith::MulIOp>(op)) {
    AxisInfo a = get(op->getOperand(0)), b = get(op->getOperand(1));
    for (unsigned d = 0; d < info.contiguity.size(); ++d) {
      info.divisibility[d] =
          std::min(kMaxDivisibility, a.divisibility[d] * b.divisibility[d]);
      info.constancy[d] = std::min(a.constancy[d], b.constancy[d]);
    }
  } else if (isa<arith::SubIOp>(op)) {
    // a - b runs along a where b is constant (a descending b never helps).
    AxisInfo a = get(op->getOperand(0)), b = get(op->getOperand(1));
    for (unsigned d = 0; d < info.contiguity.size(); ++d) {
      info.contiguity[d] = std::min(a.contiguity[d], b.constancy[d]);
      info.divisibility[d] = gcd(a.divisibility[d], b.divisibility[d]);
      info.constancy[d] = std::min(a.constancy[d], b.constancy[d]);
    }
  } else if (isa<arith::MinSIOp, arith::MaxSIOp, arith::MinUIOp, arith::MaxUIOp>(op)) {
    // Either operand, element by element: what both have.
    AxisInfo a = get(op->getOperand(0)), b = get(op->getOperand(1));
    for (unsigned d = 0; d < info.contiguity.size(); ++d) {
      info.divisibility[d] = gcd(a.divisibility[d], b.divisibility[d]);
      info.constancy[d] = std::min(a.constancy[d], b.constancy[d]);
    }
  } else if (isa<arith::ExtSIOp, arith::ExtUIOp, arith::IndexCastOp>(op)) {
    info = get(op->getOperand(0));
  }
  infos[result] = info;
}
