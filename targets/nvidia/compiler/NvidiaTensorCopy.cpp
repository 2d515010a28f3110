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

#include <functional>

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

/// How a block is cut into copy-engine boxes: `count` boxes of `inner`
/// innermost elements, one after the other in shared memory, `bytes` each.
struct Boxes {
  int64_t inner = 0, count = 0, bytes = 0;
};

/// The boxes of a block, or the limit it breaks in `why`.
Boxes boxesOf(ArrayRef<int64_t> block, unsigned elemBytes, unsigned swizzleBytes,
              std::string &why) {
  const int64_t innerBytes = block.back() * elemBytes;
  int64_t boxInner = block.back();
  if (swizzleBytes) {
    if (innerBytes % swizzleBytes != 0) {
      why = "the block's innermost dim is " + std::to_string(innerBytes) +
            " bytes, not a multiple of the layout's " + std::to_string(swizzleBytes) +
            "-byte swizzle span the copy engine moves";
      return {};
    }
    boxInner = swizzleBytes / elemBytes;
  } else if (innerBytes % 16 != 0) {
    why = "the block's innermost dim is " + std::to_string(innerBytes) +
          " bytes; the copy engine moves multiples of 16";
    return {};
  }
  int64_t outer = 1;
  for (size_t d = 0; d + 1 < block.size(); ++d) {
    if (block[d] > 256) {
      why = "block dim " + std::to_string(d) + " is " + std::to_string(block[d]) +
            " elements; a copy-engine box holds at most 256 per dim";
      return {};
    }
    outer *= block[d];
  }
  if (boxInner > 256) {
    why = "the innermost box is " + std::to_string(boxInner) +
          " elements; a copy-engine box holds at most 256 per dim";
    return {};
  }
  return {boxInner, block.back() / boxInner, outer * boxInner * elemBytes};
}

/// Issues `instr(coordList)` once per box where `leader` is true. Operands:
/// $0 the box in shared memory, $1 the map, $2 the predicate, then
/// `extra` (from $3 on), then the coordinates innermost first.
std::string issueBoxes(OpBuilder &b, Location loc, Value desc, ValueRange coords,
                       ArrayRef<int64_t> block, unsigned elemBytes, unsigned swizzleBytes,
                       Value shared, Value leader, ArrayRef<Value> extra,
                       const std::function<std::string(const std::string &)> &instr) {
  std::string why;
  Boxes boxes = boxesOf(block, elemBytes, swizzleBytes, why);
  if (!why.empty())
    return why;
  const size_t rank = block.size();
  Value descAddr = asI64(b, loc, desc);
  Value pred = asI32(b, loc, leader);
  Type i8 = b.getI8Type();
  for (int64_t k = 0; k < boxes.count; ++k) {
    Value box = shared;
    if (k)
      box = LLVM::GEPOp::create(b, loc, shared.getType(), i8, shared,
                                ArrayRef<LLVM::GEPArg>{int32_t(k * boxes.bytes)});
    SmallVector<Value> operands{asI64(b, loc, box), descAddr, pred};
    std::string constraints = "l,l,r";
    for (Value v : extra) {
      // Addresses as 64-bit registers, 16-bit values (a multicast mask) as
      // 16-bit ones.
      if (v.getType().isInteger(16)) {
        operands.push_back(v);
        constraints += ",h";
      } else {
        operands.push_back(asI64(b, loc, v));
        constraints += ",l";
      }
    }
    std::string list;
    for (size_t i = 0; i < rank; ++i) {
      Value c = coords[rank - 1 - i];
      if (i == 0 && k)
        c = LLVM::AddOp::create(
            b, loc, c,
            LLVM::ConstantOp::create(b, loc, b.getI32Type(),
                                     b.getI32IntegerAttr(int32_t(k * boxes.inner))));
      operands.push_back(c);
      constraints += ",r";
      list += (i ? ", $" : "$") + std::to_string(3 + extra.size() + i);
    }
    inlinePtx(b, loc, predicated("$2", instr(list)), constraints, operands);
  }
  return "";
}

/// The swizzle span (0: unswizzled row-major) of `tile`, a block of
/// `descType`, as the copy engine reads or writes it, or an error on `op`.
FailureOr<unsigned> engineSwizzle(Operation *op, hd::TensorDescType descType,
                                  hd::MemDescType tile) {
  if (auto matrix = dyn_cast<hd::MatrixSharedLayoutAttr>(descType.getEncoding())) {
    if (matrix.getTransposed())
      return op->emitOpError()
             << "copies a transposed " << descType.getEncoding()
             << ": the copy engine moves the descriptor's innermost dim contiguously; use the "
                "untransposed layout and view it with hd.memdesc_permute";
    return matrix.getSwizzle();
  }
  std::string why;
  auto addr = lowering::sharedAddressing(tile, why);
  if (failed(addr))
    return op->emitOpError() << why;
  // Unswizzled row-major: offset bit i is coordinate bit i, innermost first.
  int64_t expect = 1;
  ArrayRef<int64_t> block = descType.getShape();
  for (int d = int(block.size()) - 1; d >= 0; --d)
    for (int64_t off : addr->lin[d]) {
      if (off != expect)
        return op->emitOpError() << "copies " << descType.getEncoding()
                                 << " tiles: the copy engine moves #hd.matrix_shared tiles or "
                                    "unswizzled row-major ones";
      expect *= 2;
    }
  return 0u;
}

/// The tile's first element, where the engine reads or writes it.
Value tileStart(OpBuilder &b, Location loc, const lowering::MemDesc &desc, Type elem) {
  return LLVM::GEPOp::create(b, loc, desc.base.getType(), elem, desc.base,
                             ValueRange{desc.origin});
}

/// hd.async_tensor_copy on the copy engine, in place of core's generic copy
/// (a loop of one thread): one cp.async.bulk.tensor per box, completing on
/// the barrier.
struct TensorCopyLowering : lowering::TilePattern<hd::AsyncTensorCopyOp> {
  using TilePattern::TilePattern;
  LogicalResult matchAndRewrite(hd::AsyncTensorCopyOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    hd::TensorDescType descType = op.getDesc().getType();
    hd::MemDescType dstType = op.getDst().getType();
    FailureOr<unsigned> swizzle = engineSwizzle(op, descType, dstType);
    if (failed(swizzle))
      return failure();
    Type elem = getTypeConverter()->convertType(dstType.getElementType());
    const unsigned elemBytes = dstType.getElementType().getIntOrFloatBitWidth() / 8;
    lowering::MemDesc dst = lowering::unpackMemDesc(rewriter, loc, adaptor.getDst());
    Value barrier = lowering::barrierAddress(rewriter, loc, adaptor.getBarrier());
    Value leader = lowering::leaderOf(rewriter, loc, lowering.hooks, adaptor.getPred());
    const std::string dims = std::to_string(descType.getShape().size());
    SmallVector<Value> extra{barrier};
    // With a multicast mask the box lands (and completes its bytes) at the
    // same offsets in every CTA of the mask.
    std::string multicast;
    if (Value mask = adaptor.getMulticast()) {
      extra.push_back(LLVM::TruncOp::create(rewriter, loc, rewriter.getI16Type(), mask));
      multicast = ".multicast::cluster";
    }
    std::string err = issueBoxes(
        rewriter, loc, adaptor.getDesc(), adaptor.getCoords(), descType.getShape(), elemBytes,
        *swizzle, tileStart(rewriter, loc, dst, elem), leader, extra,
        [&](const std::string &list) {
          return "cp.async.bulk.tensor." + dims +
                 "d.shared::cluster.global.mbarrier::complete_tx::bytes" + multicast +
                 " [$0], [$1, {" + list + "}], [$3]" + (multicast.empty() ? "" : ", $4") + ";";
        });
    if (!err.empty())
      return op->emitOpError() << err;
    rewriter.eraseOp(op);
    return success();
  }
};

/// hd.async_tensor_store: every thread fences its shared writes for the
/// async proxy, the CTA (region) meets, and the leader issues the boxes as
/// one bulk group.
struct TensorStoreLowering : lowering::TilePattern<hd::AsyncTensorStoreOp> {
  using TilePattern::TilePattern;
  LogicalResult matchAndRewrite(hd::AsyncTensorStoreOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    hd::TensorDescType descType = op.getDesc().getType();
    hd::MemDescType srcType = op.getSrc().getType();
    FailureOr<unsigned> swizzle = engineSwizzle(op, descType, srcType);
    if (failed(swizzle))
      return failure();
    Type elem = getTypeConverter()->convertType(srcType.getElementType());
    const unsigned elemBytes = srcType.getElementType().getIntOrFloatBitWidth() / 8;
    lowering.hooks.fenceAsyncShared(rewriter, loc);
    lowering::barrierHere(lowering.hooks, rewriter, loc);
    lowering::MemDesc src = lowering::unpackMemDesc(rewriter, loc, adaptor.getSrc());
    Value leader = lowering::leaderOf(rewriter, loc, lowering.hooks, Value());
    const std::string dims = std::to_string(descType.getShape().size());
    std::string err = issueBoxes(rewriter, loc, adaptor.getDesc(), adaptor.getCoords(),
                                 descType.getShape(), elemBytes, *swizzle,
                                 tileStart(rewriter, loc, src, elem), leader, {},
                                 [&](const std::string &list) {
                                   return "cp.async.bulk.tensor." + dims +
                                          "d.global.shared::cta.bulk_group [$1, {" + list +
                                          "}], [$0];";
                                 });
    if (!err.empty())
      return op->emitOpError() << err;
    inlinePtx(rewriter, loc, predicated("$0", "cp.async.bulk.commit_group;"), "r",
              {asI32(rewriter, loc, leader)});
    rewriter.eraseOp(op);
    return success();
  }
};

/// hd.async_tensor_store_wait: the leader waits for its bulk groups (their
/// reads; with none left pending, their writes too), then the CTA meets.
struct TensorStoreWaitLowering : lowering::TilePattern<hd::AsyncTensorStoreWaitOp> {
  using TilePattern::TilePattern;
  LogicalResult matchAndRewrite(hd::AsyncTensorStoreWaitOp op, OpAdaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    unsigned pending = op.getPending();
    std::string wait = pending ? "cp.async.bulk.wait_group.read " + std::to_string(pending) + ";"
                               : std::string("cp.async.bulk.wait_group 0;");
    Value leader = lowering::leaderOf(rewriter, loc, lowering.hooks, Value());
    inlinePtx(rewriter, loc, predicated("$0", wait), "r", {asI32(rewriter, loc, leader)});
    lowering::barrierHere(lowering.hooks, rewriter, loc);
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
                                 int64_t expectBytes, Value leader, Value rank) {
  if (rank) {
    // The same offset in CTA `rank` of the cluster (mapa), with the
    // arrival's default semantics (release at CTA scope), as CUTLASS's
    // ClusterBarrier and Triton's remote arrive_barrier: the arrival only
    // says that this CTA's reads of a stage have retired (wgmma.wait_group),
    // and those reads are ordered before the peer's refill by the barrier
    // itself. With .release.cluster here the clustered GEMM ran at 360
    // TFLOP/s against 770 without clusters (H100, 8192^3).
    inlinePtx(b, loc,
              "{\n\t.reg .pred p;\n\t.reg .b64 remote;\n\tsetp.ne.b32 p, $1, 0;\n\t"
              "mapa.shared::cluster.u64 remote, $0, $2;\n\t"
              "@p mbarrier.arrive.shared::cluster.b64 _, [remote], " +
                  std::to_string(count) + ";\n\t}",
              "l,r,r", {asI64(b, loc, barrier), asI32(b, loc, leader), rank});
    return;
  }
  std::string instr =
      expectBytes >= 0
          ? "mbarrier.arrive.expect_tx.shared::cta.b64 _, [$0], " + std::to_string(expectBytes) +
                ";"
          : "mbarrier.arrive.shared::cta.b64 _, [$0], " + std::to_string(count) + ";";
  inlinePtx(b, loc, predicated("$1", instr), "l,r", {asI64(b, loc, barrier), asI32(b, loc, leader)});
}

unsigned NvidiaHooks::maxClusterPrograms() const { return hasTensorCopyEngine() ? 8 : 1; }

void NvidiaHooks::clusterBarrier(OpBuilder &b, Location loc) {
  // Barrier inits are published to the cluster by their own fence; the
  // arrive releases and the wait acquires the CTAs' shared memory.
  inlinePtx(b, loc,
            "fence.mbarrier_init.release.cluster;\n\t"
            "barrier.cluster.arrive.release.aligned;\n\t"
            "barrier.cluster.wait.acquire.aligned;",
            "", {});
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
    patterns.add<TensorCopyLowering, TensorStoreLowering, TensorStoreWaitLowering>(
        converter, lowering, lowering::kTargetPatternBenefit);
}

void NvidiaHooks::fenceAsyncShared(OpBuilder &b, Location loc) {
  if (hasTensorCopyEngine())
    inlinePtx(b, loc, "fence.proxy.async.shared::cta;", "", {});
}

} // namespace hadron::nvidia
