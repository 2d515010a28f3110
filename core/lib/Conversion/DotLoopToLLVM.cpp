//===- DotLoopToLLVM.cpp - dot as a loop over K where one thread runs a CTA ===//
//
// Where a target folds lanes and warps into registers (one thread holds the
// whole CTA's tiles), the register-by-register FMA form of hd.dot is M*N*K
// scalar operations in straight-line code: 2^19 for a 128x128x32 tile, which
// no back end compiles in reasonable time. Here the dot is a loop over k that
// updates the whole accumulator per step, as vectors:
//
//   A^T and B are written once, in row-major order, to stack buffers;
//   for k in [0, K):
//     acc[r] = fmuladd(A^T[k][row(r)], B[k][col(r)], acc[r])   for every register r
//
// where row(r), col(r) are the coordinates of accumulator register r: one
// contiguous load of a row of each buffer, one constant shuffle each to put
// the values beside the accumulator registers that need them. Per element,
// the same operations in the same order as the FMA form (k ascending), so
// the results are the same bits.
//
//===----------------------------------------------------------------------===//

#include "LoweringInternals.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace hadron::lowering {
namespace {

struct DotLoopLowering : TilePattern<DotOp> {
  DotLoopLowering(TileTypeConverter &converter, Lowering &lowering)
      : TilePattern(converter, lowering, /*benefit=*/2) {}

  /// For each register of `t`, which must be a rank-2 tile: the register
  /// holding the element at row-major position i of the (rows x cols) tile,
  /// or with `transposed` of its transpose. Empty when an element is missing.
  static SmallVector<int64_t> canonicalOrder(const TileInfo &t, int64_t rows, int64_t cols,
                                             bool transposed) {
    std::map<std::vector<int32_t>, int64_t> where;
    for (int64_t r = 0; r < t.numRegs; ++r)
      where.emplace(t.regCoords[r], r);
    SmallVector<int64_t> order;
    int64_t outer = transposed ? cols : rows, inner = transposed ? rows : cols;
    for (int32_t i = 0; i < outer; ++i)
      for (int32_t j = 0; j < inner; ++j) {
        auto it = where.find(transposed ? std::vector<int32_t>{j, i} : std::vector<int32_t>{i, j});
        if (it == where.end())
          return {};
        order.push_back(it->second);
      }
    return order;
  }

  /// Operand `idx` (lowered: `lowered`) in registers, and its tile: the
  /// tensor itself, or a shared-memory operand read into one thread's
  /// registers in the order the loop writes it to its stack buffer (A by
  /// columns, B by rows), so that the permutation below is the identity.
  LogicalResult operand(DotOp op, unsigned idx, Value lowered, ConversionPatternRewriter &rewriter,
                        Value &value, const TileInfo *&info) const {
    Value original = idx == 0 ? op.getA() : op.getB();
    auto memType = dyn_cast<MemDescType>(original.getType());
    if (!memType) {
      value = lowered;
      info = tile(original.getType());
      return success(info && isa<VectorType>(lowered.getType()));
    }
    if (memType.getRank() != 2)
      return failure();
    MLIRContext *ctx = op.getContext();
    SmallVector<unsigned> whole(memType.getShape().begin(), memType.getShape().end());
    Attribute layout = BlockedLayoutAttr::get(ctx, whole, {1, 1}, {1, 1},
                                              idx == 0 ? SmallVector<unsigned>{0, 1}
                                                       : SmallVector<unsigned>{1, 0});
    auto regType = RankedTensorType::get(memType.getShape(), memType.getElementType(), layout);
    std::string why;
    FailureOr<Value> v = loadSharedTile(rewriter, op.getLoc(), lowering, *getTypeConverter(),
                                        lowered, memType, regType, why);
    info = lowering.tiles.get(regType, &why);
    if (failed(v) || !info)
      return op->emitOpError() << "cannot read operand " << (idx == 0 ? "a" : "b")
                               << " from shared memory: " << why;
    value = *v;
    return success();
  }

  LogicalResult matchAndRewrite(DotOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    if (!lowering.tiles.foldsThreads() || op.getType().getRank() != 2)
      return failure();
    const TileInfo *c = tile(op.getAcc().getType());
    auto packed = dyn_cast_or_null<VectorType>(getTypeConverter()->convertType(op.getType()));
    if (!c || !packed)
      return failure();
    Value aValue, bValue;
    const TileInfo *a = nullptr, *b = nullptr;
    if (failed(operand(op, 0, adaptor.getA(), rewriter, aValue, a)) ||
        failed(operand(op, 1, adaptor.getB(), rewriter, bValue, b)))
      return failure();
    auto aPacked = cast<VectorType>(aValue.getType());
    auto bPacked = cast<VectorType>(bValue.getType());
    int64_t m = cast<ShapedType>(op.getA().getType()).getShape()[0],
            k = cast<ShapedType>(op.getA().getType()).getShape()[1];
    int64_t n = cast<ShapedType>(op.getB().getType()).getShape()[1];
    SmallVector<int64_t> aOrder = canonicalOrder(*a, m, k, /*transposed=*/true);
    SmallVector<int64_t> bOrder = canonicalOrder(*b, k, n, /*transposed=*/false);
    if (aOrder.empty() || bOrder.empty())
      return op->emitOpError("operand layouts do not give each thread the rows and "
                             "columns its accumulator elements need");
    SmallVector<int64_t> rows, cols;
    for (const std::vector<int32_t> &coord : c->regCoords) {
      rows.push_back(coord[0]);
      cols.push_back(coord[1]);
    }

    Location loc = op.getLoc();
    MLIRContext *ctx = rewriter.getContext();
    auto ptr = LLVM::LLVMPointerType::get(ctx);
    Type aElem = aPacked.getElementType(), bElem = bPacked.getElementType();
    Type accElem = packed.getElementType();
    auto bytesOf = [](Type t) { return std::max(1u, t.getIntOrFloatBitWidth() / 8); };

    // The buffers live in the kernel's entry block, so that a dot inside a
    // loop reuses them instead of growing the stack.
    Value aBuffer, bBuffer;
    {
      OpBuilder::InsertionGuard guard(rewriter);
      auto func = op->getParentOfType<FunctionOpInterface>();
      rewriter.setInsertionPointToStart(&func.getFunctionBody().front());
      aBuffer = LLVM::AllocaOp::create(rewriter, loc, ptr, aElem,
                                       i32Const(rewriter, loc, m * k), bytesOf(aElem));
      bBuffer = LLVM::AllocaOp::create(rewriter, loc, ptr, bElem,
                                       i32Const(rewriter, loc, k * n), bytesOf(bElem));
    }
    auto permute = [&](Value v, ArrayRef<int64_t> order) {
      return shuffle(rewriter, loc, v, v, order);
    };
    LLVM::StoreOp::create(rewriter, loc, permute(aValue, aOrder), aBuffer, bytesOf(aElem));
    LLVM::StoreOp::create(rewriter, loc, permute(bValue, bOrder), bBuffer, bytesOf(bElem));

    // before -> header(k, acc) -> body -> header ... -> after (the dot's uses).
    Block *before = rewriter.getInsertionBlock();
    Block *after = rewriter.splitBlock(before, rewriter.getInsertionPoint());
    auto i32 = rewriter.getI32Type();
    Block *header = rewriter.createBlock(after, {i32, packed}, {loc, loc});
    Block *body = rewriter.createBlock(after);
    rewriter.setInsertionPointToEnd(before);
    LLVM::BrOp::create(rewriter, loc, ValueRange{i32Const(rewriter, loc, 0), adaptor.getAcc()},
                       header);

    rewriter.setInsertionPointToEnd(header);
    Value step = header->getArgument(0), acc = header->getArgument(1);
    Value more = LLVM::ICmpOp::create(rewriter, loc, LLVM::ICmpPredicate::slt, step,
                                      i32Const(rewriter, loc, k));
    LLVM::CondBrOp::create(rewriter, loc, more, body, after);

    rewriter.setInsertionPointToEnd(body);
    auto row = [&](Value buffer, Type elem, int64_t width) -> Value {
      Value first = LLVM::MulOp::create(rewriter, loc, step, i32Const(rewriter, loc, width));
      Value at = LLVM::GEPOp::create(rewriter, loc, ptr, elem, buffer, ValueRange{first});
      return LLVM::LoadOp::create(rewriter, loc, VectorType::get({width}, elem), at,
                                  bytesOf(elem));
    };
    Value x = permute(row(aBuffer, aElem, m), rows);
    Value y = permute(row(bBuffer, bElem, n), cols);
    // Operands widen to the accumulator's type, as in the FMA form.
    auto widen = [&](Value v) -> Value {
      if (cast<VectorType>(v.getType()).getElementType() == accElem)
        return v;
      if (isa<FloatType>(accElem))
        return LLVM::FPExtOp::create(rewriter, loc, packed, v);
      return LLVM::SExtOp::create(rewriter, loc, packed, v);
    };
    x = widen(x);
    y = widen(y);
    Value next;
    if (isa<FloatType>(accElem))
      next = LLVM::FMulAddOp::create(rewriter, loc, x, y, acc);
    else
      next = LLVM::AddOp::create(rewriter, loc, acc, LLVM::MulOp::create(rewriter, loc, x, y));
    Value stepNext = LLVM::AddOp::create(rewriter, loc, step, i32Const(rewriter, loc, 1));
    LLVM::BrOp::create(rewriter, loc, ValueRange{stepNext, next}, header);

    rewriter.setInsertionPointToStart(after);
    rewriter.replaceOp(op, acc);
    return success();
  }
};

} // namespace

void populateDotLoopPatterns(TileTypeConverter &converter, Lowering &lowering,
                             RewritePatternSet &patterns) {
  patterns.add<DotLoopLowering>(converter, lowering);
}

} // namespace hadron::lowering
