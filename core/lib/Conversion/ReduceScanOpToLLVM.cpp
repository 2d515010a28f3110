//===- ReduceScanOpToLLVM.cpp - reduce and scan ===//

#include "LoweringInternals.h"

#include "hadron/Layout/LayoutFactories.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/Support/MathExtras.h"

namespace hadron::lowering {
namespace {

//===----------------------------------------------------------------------===//
// Reductions, scans and dot
//===----------------------------------------------------------------------===//

/// Whether the combine region is a pure elementwise function of its block
/// arguments (arith/math ops on scalars), so it can run on vectors.
bool combineIsElementwise(Region &combine) {
  Block &block = combine.front();
  for (Operation &op : block.without_terminator()) {
    if (!op.hasTrait<OpTrait::Elementwise>() || op.getNumOperands() == 0 ||
        op.getNumRegions() != 0)
      return false;
    for (Value v : op.getOperands())
      if (v.getParentBlock() != &block)
        return false;
    for (Type t : op.getResultTypes())
      if (!t.isIntOrFloat())
        return false;
  }
  for (Value v : block.getTerminator()->getOperands())
    if (v.getParentBlock() != &block)
      return false;
  return true;
}

/// The combine region applied lane by lane to vectors of `width` elements.
SmallVector<Value> vectorCombine(ConversionPatternRewriter &rewriter, Region &combine,
                                 ValueRange accs, ValueRange values, int64_t width) {
  Block &block = combine.front();
  IRMapping mapping;
  mapCombineArguments(combine, accs, values, mapping);
  for (Operation &op : block.without_terminator()) {
    OperationState state(op.getLoc(), op.getName());
    for (Value v : op.getOperands())
      state.addOperands(mapping.lookup(v));
    state.addAttributes(op.getAttrs());
    for (Type t : op.getResultTypes())
      state.addTypes(VectorType::get({width}, t));
    Operation *vectorOp = rewriter.create(state);
    mapping.map(op.getResults(), vectorOp->getResults());
  }
  SmallVector<Value> results;
  for (Value v : block.getTerminator()->getOperands())
    results.push_back(mapping.lookup(v));
  return results;
}

/// The within-thread part of a reduce as a tree of vector ops: with k
/// registers per output along the axis, the first k/2 of every output combine
/// with the last k/2 in one vector op (left operand the lower registers, so a
/// combine need not be commutative), then k/4, ... Where one thread holds a
/// whole CTA's tile (1024 registers and more) this is log2(k) vector ops
/// instead of a chain of k-1 scalar ones. Fills `groups`/`order`/`firstReg`
/// as the register-by-register path does; false (nothing emitted) where it
/// does not apply: scalars, a combine that is not elementwise, groups of
/// other than the same power-of-two size >= 4.
bool reduceRegistersAsVectorTree(ConversionPatternRewriter &rewriter, Location loc, ReduceOp op,
                                 ValueRange packed, const TileInfo &src,
                                 std::map<std::vector<int32_t>, SmallVector<Value>> &groups,
                                 std::vector<std::vector<int32_t>> &order,
                                 std::vector<int64_t> &firstReg) {
  for (Value v : packed) {
    auto type = dyn_cast<VectorType>(v.getType());
    if (!type || type.getRank() != 1 || type.getNumElements() != src.numRegs)
      return false;
  }
  if (!combineIsElementwise(op.getCombine()))
    return false;
  unsigned axis = op.getAxis();
  std::map<std::vector<int32_t>, size_t> index;
  std::vector<std::vector<int64_t>> members;
  std::vector<std::vector<int32_t>> keys;
  for (int64_t r = 0; r < src.numRegs; ++r) {
    std::vector<int32_t> key = src.regCoords[r];
    key.erase(key.begin() + axis);
    auto [it, fresh] = index.emplace(key, members.size());
    if (fresh) {
      members.emplace_back();
      keys.push_back(key);
    }
    members[it->second].push_back(r);
  }
  const size_t k = members.front().size();
  if (k < 4 || !llvm::isPowerOf2_64(k) ||
      llvm::any_of(members, [&](const auto &m) { return m.size() != k; }))
    return false;

  // The first register of each group, as the register-by-register path
  // records it (its coordinates locate the group's output).
  for (auto &m : members)
    firstReg.push_back(m.front());
  SmallVector<Value> current(packed.begin(), packed.end());
  for (size_t width = k; width > 1; width /= 2) {
    const size_t half = width / 2;
    SmallVector<int32_t> lower, upper;
    for (auto &m : members) {
      for (size_t j = 0; j < half; ++j) {
        lower.push_back(static_cast<int32_t>(m[j]));
        upper.push_back(static_cast<int32_t>(m[j + half]));
      }
    }
    SmallVector<Value> a, b;
    for (Value v : current) {
      a.push_back(LLVM::ShuffleVectorOp::create(rewriter, loc, v, v, lower));
      b.push_back(LLVM::ShuffleVectorOp::create(rewriter, loc, v, v, upper));
    }
    current = vectorCombine(rewriter, op.getCombine(), a, b,
                            static_cast<int64_t>(lower.size()));
    for (auto [g, m] : llvm::enumerate(members)) {
      m.resize(half);
      for (size_t j = 0; j < half; ++j)
        m[j] = static_cast<int64_t>(g * half + j);
    }
  }
  for (auto [g, key] : llvm::enumerate(keys)) {
    SmallVector<Value> values;
    for (Value v : current)
      values.push_back(LLVM::ExtractElementOp::create(rewriter, loc, v,
                                                      i32Const(rewriter, loc, g)));
    groups.emplace(key, values);
    order.push_back(key);
  }
  return true;
}

struct ReduceLowering : TilePattern<ReduceOp> {
  using TilePattern::TilePattern;
  LogicalResult matchAndRewrite(ReduceOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    const TileInfo *src = tile(op.getSrcs().front().getType());
    if (!src)
      return failure();
    unsigned axis = op.getAxis();
    size_t n = op.getSrcs().size();
    // Within a thread: registers that differ only along `axis` combine.
    std::map<std::vector<int32_t>, SmallVector<Value>> groups;
    std::vector<std::vector<int32_t>> order;
    std::vector<int64_t> firstReg; // a register of each group, in `order`
    SmallVector<SmallVector<Value>> inputs;
    if (!reduceRegistersAsVectorTree(rewriter, loc, op, adaptor.getSrcs(), *src, groups, order,
                                     firstReg)) {
      for (Value v : adaptor.getSrcs())
        inputs.push_back(unpack(rewriter, loc, v));
    }
    for (int64_t r = 0; !inputs.empty() && r < src->numRegs; ++r) {
      std::vector<int32_t> key = src->regCoords[r];
      key.erase(key.begin() + axis);
      auto it = groups.find(key);
      SmallVector<Value> values;
      for (size_t i = 0; i < n; ++i)
        values.push_back(inputs[i][r]);
      if (it == groups.end()) {
        groups.emplace(key, values);
        order.push_back(key);
        firstReg.push_back(r);
      } else {
        it->second = inlineCombine(rewriter, op.getCombine(), it->second, values);
      }
    }
    // Across lanes: a butterfly over each lane bit that moves along `axis`.
    for (auto [bit, basis] : llvm::enumerate(src->laneBases)) {
      if (basis[axis] == 0)
        continue;
      for (auto &key : order) {
        SmallVector<Value> &acc = groups[key];
        SmallVector<Value> other;
        for (Value v : acc)
          other.push_back(lowering.hooks.shuffle(rewriter, loc, v,
                                                 i32Const(rewriter, loc, 1 << bit),
                                                 TargetHooks::ShuffleKind::Xor));
        acc = inlineCombine(rewriter, op.getCombine(), acc, other);
      }
    }
    // Across warps: each warp's partials go through the scratch buffer.
    if (scratchBytes(op, lowering.tiles) != 0)
      return reduceAcrossWarps(op, rewriter, *src, groups, order, firstReg);
    SmallVector<Value> results;
    if (op.getResults().front().getType().isIntOrIndexOrFloat()) {
      results = groups[order.front()];
    } else {
      for (size_t i = 0; i < n; ++i) {
        Type resultType = op.getResult(i).getType();
        const TileInfo *dst = tile(resultType);
        Type packed = getTypeConverter()->convertType(resultType);
        if (!dst || !packed)
          return failure();
        SmallVector<Value> values;
        for (int64_t r = 0; r < dst->numRegs; ++r) {
          auto it = groups.find(dst->regCoords[r]);
          if (it == groups.end())
            return op->emitOpError("result layout does not match the reduced operand");
          values.push_back(it->second[i]);
        }
        results.push_back(pack(rewriter, loc, packed, values));
      }
    }
    rewriter.replaceOp(op, results);
    return success();
  }

  /// The partials of the warps along `axis` (2^k of them per result element)
  /// are written to scratch at (result element) * 2^k + (warp's position
  /// along axis); every thread then reads and combines, in warp order, the
  /// 2^k partials of each element its result layout gives it.
  LogicalResult reduceAcrossWarps(ReduceOp op, ConversionPatternRewriter &rewriter,
                                  const TileInfo &src,
                                  std::map<std::vector<int32_t>, SmallVector<Value>> &groups,
                                  const std::vector<std::vector<int32_t>> &order,
                                  const std::vector<int64_t> &firstReg) const {
    Location loc = op.getLoc();
    unsigned axis = op.getAxis();
    size_t n = op.getSrcs().size();
    FailureOr<Value> scratch = sharedBufferOf(rewriter, op, lowering.hooks);
    if (failed(scratch))
      return failure();
    auto srcType = cast<RankedTensorType>(op.getSrcs().front().getType());
    std::vector<int64_t> resultShape(srcType.getShape().begin(), srcType.getShape().end());
    resultShape.erase(resultShape.begin() + axis);
    int64_t resultElems = 1;
    for (int64_t e : resultShape)
      resultElems *= e;
    // Warp bits along the axis, and this warp's position among them.
    Value warp = warpIdHere(lowering.hooks, rewriter, loc);
    Value position = i32Const(rewriter, loc, 0);
    int k = 0;
    for (auto [bit, basis] : llvm::enumerate(src.warpBases)) {
      if (basis[axis] == 0)
        continue;
      Value set = LLVM::AndOp::create(
          rewriter, loc, LLVM::LShrOp::create(rewriter, loc, warp, i32Const(rewriter, loc, bit)),
          i32Const(rewriter, loc, 1));
      position = LLVM::OrOp::create(
          rewriter, loc, position,
          LLVM::ShlOp::create(rewriter, loc, set, i32Const(rewriter, loc, k)));
      ++k;
    }
    int64_t partials = int64_t(1) << k;
    // Scratch regions, one per operand, 16-byte aligned.
    SmallVector<Value> regions;
    SmallVector<Type> elemTypes;
    int64_t offset = 0;
    for (size_t i = 0; i < n; ++i) {
      Type elem = getTypeConverter()->convertType(
          cast<RankedTensorType>(op.getSrcs()[i].getType()).getElementType());
      elemTypes.push_back(elem);
      regions.push_back(LLVM::GEPOp::create(rewriter, loc, (*scratch).getType(),
                                            rewriter.getI8Type(), *scratch,
                                            ValueRange{i32Const(rewriter, loc, offset)}));
      offset += llvm::alignTo(resultElems * partials *
                                  std::max(1u, elem.getIntOrFloatBitWidth() / 8),
                              16);
    }
    // Row-major index of a result element from its coordinates.
    auto linearIndex = [&](ArrayRef<Value> coords) {
      Value index = i32Const(rewriter, loc, 0);
      for (size_t d = 0; d < coords.size(); ++d) {
        index = LLVM::MulOp::create(rewriter, loc, index,
                                    i32Const(rewriter, loc, resultShape[d]));
        index = LLVM::AddOp::create(rewriter, loc, index, coords[d]);
      }
      return index;
    };
    auto slot = [&](size_t i, Value index, Value part) {
      Value at = LLVM::AddOp::create(
          rewriter, loc, LLVM::MulOp::create(rewriter, loc, index, i32Const(rewriter, loc, partials)),
          part);
      return LLVM::GEPOp::create(rewriter, loc, regions[i].getType(), elemTypes[i], regions[i],
                                 ValueRange{at});
    };
    auto storable = [&](Value v) -> Value {
      return v.getType().isInteger(1)
                 ? LLVM::ZExtOp::create(rewriter, loc, rewriter.getI8Type(), v).getResult()
                 : v;
    };
    barrierHere(lowering.hooks, rewriter, loc);
    SmallVector<Value> srcThread = threadCoords(rewriter, loc, src, lowering.hooks);
    for (auto [g, key] : llvm::enumerate(order)) {
      SmallVector<Value> coords;
      for (int64_t d = 0; d < srcType.getRank(); ++d)
        if (d != axis)
          coords.push_back(coordValue(rewriter, loc, src, srcThread, firstReg[g], d));
      Value index = linearIndex(coords);
      for (size_t i = 0; i < n; ++i) {
        Value v = storable(groups[key][i]);
        LLVM::StoreOp::create(rewriter, loc, v,
                              slot(i, index, position).getResult());
      }
    }
    barrierHere(lowering.hooks, rewriter, loc);

    auto readElement = [&](ArrayRef<Value> coords) {
      Value index = linearIndex(coords);
      SmallVector<Value> acc;
      for (int64_t j = 0; j < partials; ++j) {
        SmallVector<Value> values;
        for (size_t i = 0; i < n; ++i) {
          Type memType = elemTypes[i].isInteger(1) ? rewriter.getI8Type() : elemTypes[i];
          Value v = LLVM::LoadOp::create(rewriter, loc, memType,
                                         slot(i, index, i32Const(rewriter, loc, j)));
          if (memType != elemTypes[i])
            v = LLVM::TruncOp::create(rewriter, loc, elemTypes[i], v);
          values.push_back(v);
        }
        acc = j == 0 ? values : inlineCombine(rewriter, op.getCombine(), acc, values);
      }
      return acc;
    };
    SmallVector<Value> results;
    if (op.getResults().front().getType().isIntOrIndexOrFloat()) {
      results = readElement({});
    } else {
      const TileInfo *dst = tile(op.getResult(0).getType());
      if (!dst)
        return failure();
      SmallVector<Value> dstThread = threadCoords(rewriter, loc, *dst, lowering.hooks);
      SmallVector<SmallVector<Value>> perOperand(n);
      for (int64_t r = 0; r < dst->numRegs; ++r) {
        SmallVector<Value> coords;
        for (size_t d = 0; d < resultShape.size(); ++d)
          coords.push_back(coordValue(rewriter, loc, *dst, dstThread, r, d));
        SmallVector<Value> values = readElement(coords);
        for (size_t i = 0; i < n; ++i)
          perOperand[i].push_back(values[i]);
      }
      for (size_t i = 0; i < n; ++i)
        results.push_back(pack(rewriter, loc,
                               getTypeConverter()->convertType(op.getResult(i).getType()),
                               perOperand[i]));
    }
    rewriter.replaceOp(op, results);
    return success();
  }
};

/// scan: within each thread along its registers. When lanes or warps run
/// along the axis, the operands first move (through the scratch buffer) to a
/// layout where each thread holds whole lines along the axis, and back.
struct ScanLowering : TilePattern<ScanOp> {
  using TilePattern::TilePattern;

  /// A layout of `type`'s shape with dim `axis` in registers and the lanes
  /// and warps of `like` spread over the other dims (replicating where they
  /// are too small).
  RankedTensorType lineLayout(RankedTensorType type, unsigned axis, const TileInfo &like) const {
    int rank = type.getRank();
    int64_t lanes = like.layout.getInDimSize("lane"), warps = like.layout.getInDimSize("warp");
    std::vector<int32_t> shape(type.getShape().begin(), type.getShape().end());
    std::vector<int32_t> spt(rank, 1), tpw(rank, 1), wpc(rank, 1), order;
    spt[axis] = shape[axis];
    for (int d = rank - 1; d >= 0; --d)
      if (d != int(axis))
        order.push_back(d);
    order.push_back(axis);
    int home = rank == 1 ? int(axis) : order.front();
    tpw[home] = lanes;
    wpc[home] = warps;
    Result<LinearLayout> ll = blockedLayout(shape, spt, tpw, wpc, order);
    if (!ll)
      return {};
    Result<LinearLayoutAttr> attr = toLinearLayoutAttr(type.getContext(), *ll);
    if (!attr)
      return {};
    return RankedTensorType::get(type.getShape(), type.getElementType(), *attr);
  }

  /// Scans each line of registers of `info` along `axis`.
  void scanInThread(ScanOp op, ConversionPatternRewriter &rewriter, const TileInfo &info,
                    unsigned axis, SmallVector<SmallVector<Value>> &values) const {
    size_t n = values.size();
    std::map<std::vector<int32_t>, std::vector<std::pair<int32_t, int64_t>>> lines;
    for (int64_t r = 0; r < info.numRegs; ++r) {
      std::vector<int32_t> key = info.regCoords[r];
      int32_t pos = key[axis];
      key.erase(key.begin() + axis);
      lines[key].push_back({pos, r});
    }
    for (auto &[key, regs] : lines) {
      llvm::sort(regs);
      if (op.getReverse())
        std::reverse(regs.begin(), regs.end());
      SmallVector<Value> acc;
      for (size_t i = 0; i < n; ++i)
        acc.push_back(values[i][regs.front().second]);
      for (size_t j = 1; j < regs.size(); ++j) {
        SmallVector<Value> cur;
        for (size_t i = 0; i < n; ++i)
          cur.push_back(values[i][regs[j].second]);
        acc = inlineCombine(rewriter, op.getCombine(), acc, cur);
        for (size_t i = 0; i < n; ++i)
          values[i][regs[j].second] = acc[i];
      }
    }
  }

  /// Where one thread holds the whole tile and its lines are long or many
  /// (walkInLoop), the scan as loops: over the lines, and along each line
  /// with the accumulators carried, in the same order as scanInThread. The
  /// k-th element in line order (lines in row-major order of the other
  /// dims, positions along the axis) is register reg(k), a linear function
  /// of k's bits; false (nothing emitted) where it is not, or for short
  /// tiles.
  bool scanInLoop(ScanOp op, ConversionPatternRewriter &rewriter, const TileInfo &info,
                  unsigned axis, ValueRange operands, SmallVector<Value> &results) const {
    auto type = cast<RankedTensorType>(op.getSrcs().front().getType());
    if (!walkInLoop(lowering.tiles, info.numRegs))
      return false;
    auto shape = type.getShape();
    int64_t length = shape[axis];
    if (info.numRegs != type.getNumElements() || length < 2)
      return false;
    std::map<std::vector<int32_t>, int64_t> regOf;
    for (int64_t r = 0; r < info.numRegs; ++r)
      regOf.emplace(info.regCoords[r], r);
    // k -> coordinates: position along the axis in the low bits, the other
    // dims above it, the last one fastest.
    auto regAt = [&](int64_t k) -> int64_t {
      std::vector<int32_t> c(shape.size());
      c[axis] = int32_t(k % length);
      int64_t rest = k / length;
      for (size_t d = shape.size(); d-- > 0;) {
        if (d == axis)
          continue;
        c[d] = int32_t(rest % shape[d]);
        rest /= shape[d];
      }
      auto it = regOf.find(c);
      return it == regOf.end() ? -1 : it->second;
    };
    std::vector<int64_t> bits = linearInRegisterBits(info.numRegs, regAt, /*xorSum=*/true);
    if (bits.empty())
      return false;
    Location loc = op.getLoc();
    SmallVector<Value> in, out;
    SmallVector<Type> elems;
    for (Value v : operands) {
      elems.push_back(cast<VectorType>(v.getType()).getElementType());
      in.push_back(spillTile(rewriter, loc, op, v));
      out.push_back(stackBuffer(rewriter, op, elems.back(), info.numRegs));
    }
    auto reg = [&](Value k) { return bitLinear(rewriter, loc, k, bits, /*xorSum=*/true); };
    auto load = [&](Value r) {
      SmallVector<Value> values;
      for (auto [buffer, elem] : llvm::zip(in, elems))
        values.push_back(loadLanes(rewriter, loc, buffer, elem, r, 0));
      return values;
    };
    auto store = [&](ValueRange values, Value r) {
      for (auto [v, buffer] : llvm::zip(values, out))
        storeLanes(rewriter, loc, v, buffer, r);
    };
    bool reverse = op.getReverse();
    emitLoop(rewriter, loc, info.numRegs / length, [&](Value line) {
      Value first = LLVM::MulOp::create(rewriter, loc, line, i32Const(rewriter, loc, length));
      Value r0 = reg(reverse ? LLVM::AddOp::create(rewriter, loc, first,
                                                   i32Const(rewriter, loc, length - 1))
                                   .getResult()
                             : first);
      SmallVector<Value> acc = load(r0);
      store(acc, r0);
      emitLoop(rewriter, loc, length - 1, acc, [&](Value j, ValueRange carried) {
        // Position j + 1 from the line's start, or from its end.
        Value pos = reverse ? LLVM::SubOp::create(rewriter, loc,
                                                  i32Const(rewriter, loc, length - 2), j)
                                  .getResult()
                            : LLVM::AddOp::create(rewriter, loc, j, i32Const(rewriter, loc, 1))
                                  .getResult();
        Value r = reg(LLVM::AddOp::create(rewriter, loc, first, pos));
        SmallVector<Value> next = inlineCombine(rewriter, op.getCombine(), carried, load(r));
        store(next, r);
        return next;
      });
    });
    for (auto [buffer, v] : llvm::zip(out, operands))
      results.push_back(reloadTile(rewriter, loc, buffer, v.getType()));
    return true;
  }

  LogicalResult matchAndRewrite(ScanOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = cast<RankedTensorType>(op.getSrcs().front().getType());
    const TileInfo *info = tile(type);
    if (!info)
      return failure();
    unsigned axis = op.getAxis();
    size_t n = op.getSrcs().size();
    SmallVector<Value> operands(adaptor.getSrcs().begin(), adaptor.getSrcs().end());
    const TileInfo *work = info;
    Value scratch;
    RankedTensorType lineType;
    if (scratchBytes(op, lowering.tiles) != 0) {
      FailureOr<Value> buffer = sharedBufferOf(rewriter, op, lowering.hooks);
      if (failed(buffer))
        return failure();
      scratch = *buffer;
      lineType = lineLayout(type, axis, *info);
      work = lineType ? tile(lineType) : nullptr;
      if (!work)
        return op->emitOpError("cannot build a layout holding whole lines along the axis");
      for (size_t i = 0; i < n; ++i) {
        auto srcType = cast<RankedTensorType>(op.getSrcs()[i].getType());
        auto lt = RankedTensorType::get(srcType.getShape(), srcType.getElementType(),
                                        lineType.getEncoding());
        Type elem = getTypeConverter()->convertType(srcType.getElementType());
        operands[i] = convertThroughScratch(rewriter, loc, operands[i], srcType.getShape(), elem,
                                            *info, *work, getTypeConverter()->convertType(lt),
                                            scratch, lowering.hooks,
                                            info->layout.getInDimSize("lane"));
      }
    }
    if (!scratch && lowering.tiles.foldsThreads()) {
      SmallVector<Value> results;
      if (scanInLoop(op, rewriter, *info, axis, operands, results)) {
        rewriter.replaceOp(op, results);
        return success();
      }
    }
    SmallVector<SmallVector<Value>> values;
    for (Value v : operands)
      values.push_back(unpack(rewriter, loc, v));
    scanInThread(op, rewriter, *work, axis, values);
    SmallVector<Value> results;
    for (size_t i = 0; i < n; ++i) {
      Type resultType = getTypeConverter()->convertType(op.getResult(i).getType());
      if (!scratch) {
        results.push_back(pack(rewriter, loc, resultType, values[i]));
        continue;
      }
      auto srcType = cast<RankedTensorType>(op.getSrcs()[i].getType());
      auto lt = RankedTensorType::get(srcType.getShape(), srcType.getElementType(),
                                      lineType.getEncoding());
      Value packed = pack(rewriter, loc, getTypeConverter()->convertType(lt), values[i]);
      Type elem = getTypeConverter()->convertType(srcType.getElementType());
      results.push_back(convertThroughScratch(rewriter, loc, packed, srcType.getShape(), elem,
                                              *work, *info, resultType, scratch, lowering.hooks,
                                              info->layout.getInDimSize("lane")));
    }
    rewriter.replaceOp(op, results);
    return success();
  }
};

} // namespace

void populateReduceScanPatterns(TileTypeConverter &converter, Lowering &lowering, RewritePatternSet &patterns) {
  patterns.add<ReduceLowering, ScanLowering>(converter, lowering);
}

} // namespace hadron::lowering
