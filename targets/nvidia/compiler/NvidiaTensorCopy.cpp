//===- NvidiaTensorCopy.cpp - TMA and mbarriers (sm_90+) ------------------===//
//
// hd.async_tensor_copy is cp.async.bulk.tensor (the tensor memory accelerator)
// reading a CUtensorMap kernel parameter that the runtime part encodes
// (NvidiaTensorMap.cpp), lowered by this target's own pattern in place of
// core's generic copy; barriers are mbarrier objects in shared memory.
// The copy engine moves at most the swizzle span (swizzle bytes) of the
// innermost dim per box: a wider block is several boxes, one after the
// other in shared memory, as #hd.matrix_shared lays the tile out. The
// runtime encodes the map with the same box (plugin.h, hd_tensor_desc_spec).
//
//===----------------------------------------------------------------------===//

#include "NvidiaHooks.h"

#include "../model/NvidiaModel.h"

#include "hadron/Conversion/LoweringUtils.h"
#include "hadron/Conversion/SharedAddressing.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

using namespace mlir;

namespace hadron::nvidia {

namespace {

Value asI64(OpBuilder &b, Location loc, Value ptr) {
  return LLVM::PtrToIntOp::create(b, loc, b.getI64Type(), ptr);
}

Value asI32(OpBuilder &b, Location loc, Value flag) {
  return LLVM::ZExtOp::create(b, loc, b.getI32Type(), flag);
}

/// `instr` issued where the i32 operand `$pred` is non-zero.
std::string predicated(const std::string &predOperand, const std::string &instr) {
  return "{\n\t.reg .pred p;\n\tsetp.ne.b32 p, " + predOperand + ", 0;\n\t@p " + instr +
         "\n\t}";
}

/// Copies the block of `block` elements (`elemBytes` each, laid out in
/// shared memory as a matrix_shared tile of `swizzleBytes`, 0 for
/// unswizzled row-major) at `coords` (i32, outermost first) of the
/// CUtensorMap `desc` to `shared` (the tile's first element), completing on
/// `barrier`, issued where `leader` is true. Returns "" on success, or a
/// message naming the limit where the copy engine cannot copy such a block.
std::string copyBlock(OpBuilder &b, Location loc, Value desc, ValueRange coords,
                      ArrayRef<int64_t> block, unsigned elemBytes, unsigned swizzleBytes,
                      Value shared, Value barrier, Value leader) {
  const size_t rank = block.size();
  const int64_t innerBytes = block.back() * elemBytes;
  int64_t boxInner = block.back();
  if (swizzleBytes) {
    if (innerBytes % swizzleBytes != 0)
      return "the block's innermost dim is " + std::to_string(innerBytes) +
             " bytes, not a multiple of the layout's " + std::to_string(swizzleBytes) +
             "-byte swizzle span the copy engine writes";
    boxInner = swizzleBytes / elemBytes;
  } else if (innerBytes % 16 != 0) {
    return "the block's innermost dim is " + std::to_string(innerBytes) +
           " bytes; the copy engine moves multiples of 16";
  }
  int64_t outer = 1;
  for (size_t d = 0; d + 1 < rank; ++d) {
    if (block[d] > 256)
      return "block dim " + std::to_string(d) + " is " + std::to_string(block[d]) +
             " elements; a copy-engine box holds at most 256 per dim";
    outer *= block[d];
  }
  if (boxInner > 256)
    return "the innermost box is " + std::to_string(boxInner) +
           " elements; a copy-engine box holds at most 256 per dim";
  const int64_t boxes = block.back() / boxInner;
  const int64_t boxBytes = outer * boxInner * elemBytes;

  Value descAddr = asI64(b, loc, desc);
  Value bar = asI64(b, loc, barrier);
  Value pred = asI32(b, loc, leader);
  Type i8 = b.getI8Type();
  for (int64_t k = 0; k < boxes; ++k) {
    Value dst = shared;
    if (k)
      dst = LLVM::GEPOp::create(b, loc, shared.getType(), i8, shared,
                                ArrayRef<LLVM::GEPArg>{int32_t(k * boxBytes)});
    // Operands: $0 dst, $1 map, $2 barrier, $3 predicate, then the
    // coordinates innermost first.
    SmallVector<Value> operands{asI64(b, loc, dst), descAddr, bar, pred};
    std::string constraints = "l,l,l,r";
    std::string list;
    for (size_t i = 0; i < rank; ++i) {
      Value c = coords[rank - 1 - i];
      if (i == 0 && k)
        c = LLVM::AddOp::create(
            b, loc, c,
            LLVM::ConstantOp::create(b, loc, b.getI32Type(),
                                     b.getI32IntegerAttr(int32_t(k * boxInner))));
      operands.push_back(c);
      constraints += ",r";
      list += (i ? ", $" : "$") + std::to_string(4 + i);
    }
    std::string instr = "cp.async.bulk.tensor." + std::to_string(rank) +
                        "d.shared::cluster.global.mbarrier::complete_tx::bytes [$0], [$1, {" +
                        list + "}], [$2];";
    inlinePtx(b, loc, predicated("$3", instr), constraints, operands);
  }
  return "";
}

/// hd.async_tensor_copy on the copy engine, in place of core's generic copy
/// (a loop of one thread, for targets without an engine): checks that the
/// destination is a layout the engine writes, then copyBlock.
struct TensorCopyLowering : lowering::TilePattern<hd::AsyncTensorCopyOp> {
  using TilePattern::TilePattern;
  LogicalResult matchAndRewrite(hd::AsyncTensorCopyOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    hd::TensorDescType descType = op.getDesc().getType();
    hd::MemDescType dstType = op.getDst().getType();
    Type elem = getTypeConverter()->convertType(dstType.getElementType());
    const unsigned elemBytes = dstType.getElementType().getIntOrFloatBitWidth() / 8;
    lowering::MemDesc dst = lowering::unpackMemDesc(rewriter, loc, adaptor.getDst());
    Value barrier = lowering::barrierAddress(rewriter, loc, adaptor.getBarrier());
    Value leader = lowering::leaderOf(rewriter, loc, lowering.hooks, adaptor.getPred());
    SmallVector<int64_t> block(descType.getShape());

    unsigned swizzle = 0;
    if (auto matrix = dyn_cast<hd::MatrixSharedLayoutAttr>(descType.getEncoding())) {
      if (matrix.getTransposed())
        return op->emitOpError()
               << "copies into a transposed " << descType.getEncoding()
               << ": a copy engine writes the descriptor's innermost dim contiguously; copy "
                  "into the untransposed layout and view it with hd.memdesc_permute";
      swizzle = matrix.getSwizzle();
    } else {
      std::string why;
      auto addr = lowering::sharedAddressing(dstType, why);
      if (failed(addr))
        return op->emitOpError() << why;
      // Unswizzled row-major: offset bit i is coordinate bit i, innermost first.
      int64_t expect = 1;
      for (int d = int(block.size()) - 1; d >= 0; --d)
        for (int64_t off : addr->lin[d]) {
          if (off != expect)
            return op->emitOpError()
                   << "copies into " << descType.getEncoding()
                   << ": the copy engine writes #hd.matrix_shared tiles or unswizzled "
                      "row-major ones";
          expect *= 2;
        }
    }
    Value tile = LLVM::GEPOp::create(rewriter, loc, dst.base.getType(), elem, dst.base,
                                     ValueRange{dst.origin});
    std::string err = copyBlock(rewriter, loc, adaptor.getDesc(), adaptor.getCoords(), block,
                                elemBytes, swizzle, tile, barrier, leader);
    if (!err.empty())
      return op->emitOpError() << err;
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

// TMA and the expect-tx mbarrier forms arrived with sm_90.
bool NvidiaHooks::hasTensorCopyEngine() const { return arch.computeCapability >= 90; }

Type NvidiaHooks::tensorDescType(MLIRContext *ctx, unsigned rank) {
  if (!hasTensorCopyEngine())
    return TargetHooks::tensorDescType(ctx, rank);
  // The generic address of the __grid_constant__ parameter.
  return LLVM::LLVMPointerType::get(ctx);
}

void NvidiaHooks::mbarrierInit(OpBuilder &b, Location loc, Value barrier, unsigned count,
                               Value leader) {
  inlinePtx(b, loc,
          predicated("$1", "mbarrier.init.shared::cta.b64 [$0], " + std::to_string(count) + ";"),
          "l,r", {asI64(b, loc, barrier), asI32(b, loc, leader)});
}

void NvidiaHooks::mbarrierArrive(OpBuilder &b, Location loc, Value barrier, unsigned count,
                                 int64_t expectBytes, Value leader) {
  std::string instr =
      expectBytes >= 0
          ? "mbarrier.arrive.expect_tx.shared::cta.b64 _, [$0], " + std::to_string(expectBytes) +
                ";"
          : "mbarrier.arrive.shared::cta.b64 _, [$0], " + std::to_string(count) + ";";
  inlinePtx(b, loc, predicated("$1", instr), "l,r", {asI64(b, loc, barrier), asI32(b, loc, leader)});
}

void NvidiaHooks::mbarrierWait(OpBuilder &b, Location loc, Value barrier, Value phase) {
  // try_wait suspends the thread for a while before it reports; retry until
  // the phase completed. Labels are local to the braces.
  inlinePtx(b, loc,
          "{\n\t.reg .pred done;\n\tWAIT:\n\t"
          "mbarrier.try_wait.parity.shared::cta.b64 done, [$0], $1;\n\t"
          "@!done bra.uni WAIT;\n\t}",
          "l,r", {asI64(b, loc, barrier), phase});
}

void NvidiaHooks::populateLoweringPatterns(lowering::TileTypeConverter &converter,
                                           lowering::Lowering &lowering,
                                           RewritePatternSet &patterns) {
  if (hasTensorCopyEngine())
    patterns.add<TensorCopyLowering>(converter, lowering, lowering::kTargetPatternBenefit);
}

void NvidiaHooks::fenceAsyncShared(OpBuilder &b, Location loc) {
  if (hasTensorCopyEngine())
    inlinePtx(b, loc, "fence.proxy.async.shared::cta;", "", {});
}

} // namespace hadron::nvidia
