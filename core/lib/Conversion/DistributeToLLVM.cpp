//===- DistributeToLLVM.cpp - Tile ops to per-thread LLVM dialect ---------===//
//
// A tensor with a distributed layout becomes, in each thread, an LLVM vector
// of the elements that thread holds: one lane of the vector per register of
// its linear layout, so that elementwise ops stay one op each. Register r of the thread (lane l, warp w) holds the element at
//
//   coords = L(register = r) XOR L(lane = l, warp = w)
//
// so a register's coordinates are a compile-time constant XORed with a
// per-thread value. Ops that only rearrange elements (broadcast, expand_dims,
// permute, reshape, join, split, convert_layout) are lowered to register
// moves when the thread part of both layouts agrees (always the case when the
// target folds lanes and warps into registers). Reductions combine within a
// thread, then across lanes with shuffles.
//
//===----------------------------------------------------------------------===//

#include "LoweringInternals.h"

#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/ControlFlowToLLVM/ControlFlowToLLVM.h"
#include "mlir/Conversion/FuncToLLVM/ConvertFuncToLLVM.h"
#include "mlir/Conversion/LLVMCommon/TypeConverter.h"
#include "mlir/Conversion/MathToLLVM/MathToLLVM.h"
#include "mlir/Conversion/LLVMCommon/ConversionTarget.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Transforms/DialectConversion.h"

#include <map>

using namespace hadron::lowering;
using hadron::TileInfoCache;

hadron::TargetHooks::~TargetHooks() = default;

mlir::Type hadron::TargetHooks::tensorDescType(mlir::MLIRContext *ctx, unsigned rank) {
  // The base is an integer: some backends mishandle pointers inside
  // aggregate kernel arguments.
  auto i64 = mlir::IntegerType::get(ctx, 64);
  auto i64s = mlir::LLVM::LLVMArrayType::get(i64, rank);
  return mlir::LLVM::LLVMStructType::getLiteral(ctx, {i64, i64s, i64s});
}

namespace {

//===----------------------------------------------------------------------===//
// Driver
//===----------------------------------------------------------------------===//

/// Reports, before converting, every value whose layout cannot be lowered,
/// so that the user sees the reason instead of "failed to legalize".
LogicalResult checkLayouts(ModuleOp module, TileInfoCache &tiles) {
  WalkResult walk = module.walk([&](Operation *op) {
    for (Value v : op->getResults()) {
      auto tensor = dyn_cast<RankedTensorType>(v.getType());
      if (!tensor)
        continue;
      if (!isa_and_nonnull<LayoutAttrInterface>(tensor.getEncoding())) {
        op->emitOpError() << "produces " << tensor
                          << " without a hd layout; every tile needs one to be lowered";
        return WalkResult::interrupt();
      }
      std::string error;
      if (!tiles.get(tensor, &error)) {
        op->emitOpError() << "cannot be lowered: " << error;
        return WalkResult::interrupt();
      }
    }
    return WalkResult::advance();
  });
  return failure(walk.wasInterrupted());
}

/// Rejects hd.warp_specialize where the target cannot run it, and returns
/// the warps each kernel launches with (above the module's num_warps).
FailureOr<llvm::StringMap<unsigned>> checkWarpSpecialization(ModuleOp module,
                                                             hadron::TargetHooks &hooks) {
  llvm::StringMap<unsigned> warps;
  TargetAttr target = getTarget(module);
  unsigned numWarps = target ? target.getNumWarps() : 4;
  WalkResult walk = module.walk([&](WarpSpecializeOp ws) {
    StringRef name = target ? target.getName() : StringRef("this target");
    if (hooks.foldsThreadsIntoRegisters()) {
      ws.emitOpError() << "needs its regions to run at the same time on different warps; "
                       << name << " runs a CTA as one thread";
      return WalkResult::interrupt();
    }
    if (ws->getNumRegions() > hooks.warpGroupBarrierCount()) {
      ws.emitOpError() << "needs a barrier for each of its " << ws->getNumRegions()
                       << " regions; " << name << " has "
                       << hooks.warpGroupBarrierCount() << " barriers for groups of warps";
      return WalkResult::interrupt();
    }
    if (std::optional<ArrayRef<int32_t>> regs = ws.getRegs()) {
      SmallVector<unsigned> firsts, counts;
      for (unsigned i = 0; i < ws->getNumRegions(); ++i) {
        auto [first, count] = ws.regionWarps(i, numWarps);
        firsts.push_back(first);
        counts.push_back(count);
      }
      SmallVector<int32_t> budgets(regs->begin(), regs->end());
      std::string why =
          hooks.checkRegisterBudgets(firsts, counts, budgets, ws.totalWarps(numWarps));
      if (!why.empty()) {
        ws.emitOpError() << "asks for registers per region (regs [" << *regs << "]); " << name
                         << ": " << why;
        return WalkResult::interrupt();
      }
      // A default region's 0 is now the target's figure.
      ws.setRegs(ArrayRef<int32_t>(budgets));
    }
    if (auto func = ws->getParentOfType<func::FuncOp>()) {
      unsigned &w = warps[func.getSymName()];
      w = std::max({w, numWarps, ws.totalWarps(numWarps)});
    }
    return WalkResult::advance();
  });
  if (walk.wasInterrupted())
    return failure();
  return warps;
}

/// Rejects clusters (hd.cluster_dims) larger than the target's, and
/// multicast masks or arrival ranks known to name programs past the
/// cluster (on hardware a copy or arrival for a CTA that does not exist).
LogicalResult checkClusters(ModuleOp module, hadron::TargetHooks &hooks) {
  auto dims = module->getAttrOfType<DenseI32ArrayAttr>("hd.cluster_dims");
  int64_t programs = 1;
  if (dims)
    for (int32_t d : dims.asArrayRef())
      programs *= d;
  auto known = [](Value v) -> std::optional<int64_t> {
    llvm::APInt c;
    if (v && matchPattern(v, m_ConstantInt(&c)))
      return c.getSExtValue();
    return std::nullopt;
  };
  WalkResult walk = module.walk([&](Operation *op) {
    if (auto copy = dyn_cast<AsyncTensorCopyOp>(op)) {
      std::optional<int64_t> mask = known(copy.getMulticast());
      if (mask && (*mask < 0 || (programs < 32 && (*mask >> programs) != 0))) {
        copy.emitOpError() << "multicast mask " << *mask << " names programs past the cluster's "
                           << programs << " (hd.cluster_dims)";
        return WalkResult::interrupt();
      }
    }
    if (auto arrive = dyn_cast<MBarrierArriveOp>(op)) {
      std::optional<int64_t> rank = known(arrive.getRank());
      if (rank && (*rank < 0 || *rank >= programs)) {
        arrive.emitOpError() << "arrives on program " << *rank << " of a cluster of " << programs
                             << " (hd.cluster_dims)";
        return WalkResult::interrupt();
      }
    }
    return WalkResult::advance();
  });
  if (walk.wasInterrupted())
    return failure();
  if (programs <= int64_t(hooks.maxClusterPrograms()))
    return success();
  TargetAttr target = getTarget(module);
  StringRef name = target ? target.getName() : StringRef("this target");
  InFlightDiagnostic diag = module.emitError()
                            << "`hd.cluster_dims` = [" << dims.asArrayRef() << "] groups "
                            << programs << " programs into a cluster; " << name;
  if (hooks.maxClusterPrograms() <= 1)
    diag << " has no clusters (its programs cannot reach each other's shared memory)";
  else
    diag << " runs clusters of at most " << hooks.maxClusterPrograms() << " programs";
  return failure();
}

/// Marks an hd.warp_specialize whose regions' blocks have per-thread types;
/// the op itself stays until the end of the conversion.
constexpr llvm::StringLiteral kRegionsConverted = "hd.regions_converted";

struct WarpSpecializeRegions : public OpConversionPattern<WarpSpecializeOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(WarpSpecializeOp op, OpAdaptor,
                                ConversionPatternRewriter &rewriter) const override {
    for (Region &region : op->getRegions())
      if (failed(rewriter.convertRegionTypes(&region, *getTypeConverter())))
        return failure();
    rewriter.modifyOpInPlace(op, [&] { op->setAttr(kRegionsConverted, rewriter.getUnitAttr()); });
    return success();
  }
};

/// Replaces each hd.warp_specialize by a branch on the warp: warps
/// [first, first + n) of region i run its blocks, then all meet after it.
void inlineWarpRegions(ModuleOp module, hadron::TargetHooks &hooks) {
  SmallVector<WarpSpecializeOp> all;
  module.walk([&](WarpSpecializeOp ws) { all.push_back(ws); });
  TargetAttr target = getTarget(module);
  unsigned numWarps = target ? target.getNumWarps() : 4;
  for (WarpSpecializeOp ws : all) {
    Location loc = ws.getLoc();
    Block *before = ws->getBlock();
    Block *after = before->splitBlock(std::next(ws->getIterator()));
    SmallVector<Block *> entries;
    for (Region &region : ws->getRegions()) {
      for (Block &block : region)
        if (auto ret = dyn_cast<WarpReturnOp>(block.getTerminator())) {
          OpBuilder t(ret);
          LLVM::BrOp::create(t, loc, ValueRange{}, after);
          ret.erase();
        }
      entries.push_back(&region.front());
      after->getParent()->getBlocks().splice(after->getIterator(), region.getBlocks());
    }
    // Each region starts by taking its register budget, where it has one.
    if (std::optional<ArrayRef<int32_t>> regs = ws.getRegs())
      for (auto [i, entry] : llvm::enumerate(entries)) {
        OpBuilder r = OpBuilder::atBlockBegin(entry);
        hooks.setRegisterBudget(r, loc, unsigned((*regs)[i]), ws.totalWarps(numWarps));
      }
    OpBuilder b(ws);
    Value warp = hooks.warpId(b, loc);
    for (auto [i, entry] : llvm::enumerate(entries)) {
      auto [first, count] = ws.regionWarps(i, numWarps);
      Value inside = LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::ult, warp,
                                          i32Const(b, loc, first + count));
      Block *next = after;
      if (i + 1 < entries.size()) {
        next = new Block();
        after->getParent()->getBlocks().insert(entries[i + 1]->getIterator(), next);
      }
      LLVM::CondBrOp::create(b, loc, inside, entry, next);
      b.setInsertionPointToEnd(next);
    }
    ws.erase();
  }
}
} // namespace

LogicalResult hadron::distributeToLLVM(ModuleOp module, TargetHooks &hooks) {
  MLIRContext *ctx = module.getContext();
  ctx->loadDialect<LLVM::LLVMDialect, cf::ControlFlowDialect>();
  TileInfoCache tiles(hooks.foldsThreadsIntoRegisters());
  if (failed(checkLayouts(module, tiles)))
    return failure();
  if (failed(checkClusters(module, hooks)))
    return failure();
  FailureOr<llvm::StringMap<unsigned>> kernelWarps = checkWarpSpecialization(module, hooks);
  if (failed(kernelWarps))
    return failure();

  // Contiguity and divisibility are read off the structured form, where a
  // loop's induction variable is known to step by its step; the ops keep
  // their results through the lowering of scf to cf below.
  AxisInfoAnalysis axis(module);

  // Structured control flow first: tiles then flow through block arguments.
  {
    RewritePatternSet patterns(ctx);
    populateSCFToControlFlowConversionPatterns(patterns);
    ConversionTarget target(*ctx);
    target.addIllegalDialect<scf::SCFDialect>();
    target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
    if (failed(applyPartialConversion(module, target, std::move(patterns))))
      return failure();
  }

  // Kernels get the target's implicit arguments.
  SmallVector<Type> implicitTypes;
  hooks.appendImplicitKernelArgs(ctx, implicitTypes);
  SmallVector<StringRef> kernels;
  for (auto func : module.getOps<func::FuncOp>()) {
    if (!func->hasAttr(HadronDialect::getKernelAttrName()))
      continue;
    if (func.isExternal())
      return func.emitOpError("is a kernel without a body");
    if (func.getNumResults() != 0)
      return func.emitOpError("is a kernel and must not return values");
    unsigned first = func.getNumArguments();
    SmallVector<Type> inputs(func.getArgumentTypes());
    inputs.append(implicitTypes.begin(), implicitTypes.end());
    Block &entry = func.getBody().front();
    for (Type t : implicitTypes)
      entry.addArgument(t, func.getLoc());
    func.setFunctionType(FunctionType::get(ctx, inputs, {}));
    // Keep the argument attribute list in step with the new arity.
    SmallVector<DictionaryAttr> argAttrs;
    for (unsigned i = 0; i < inputs.size(); ++i) {
      DictionaryAttr attrs = i < first ? func.getArgAttrDict(i) : DictionaryAttr::get(ctx);
      // Descriptors stay recognisable after lowering (finishKernel).
      if (i < first && isa<TensorDescType>(inputs[i])) {
        NamedAttrList list(attrs);
        list.set("hd.tensor_desc", UnitAttr::get(ctx));
        attrs = list.getDictionary(ctx);
      }
      argAttrs.push_back(attrs);
    }
    func.setAllArgAttrs(argAttrs);
    hooks.beginKernel(entry, first);
    kernels.push_back(func.getSymName());
  }

  Lowering lowering{hooks, tiles, axis};
  TileTypeConverter converter(ctx, hooks, tiles);

  RewritePatternSet patterns(ctx);
  // The target's own patterns first: their benefit puts them before core's
  // for the ops they match, and core's run where they decline.
  {
    RewritePatternSet own(ctx);
    hooks.populateLoweringPatterns(converter, lowering, own);
    for (std::unique_ptr<RewritePattern> &pattern : own.getNativePatterns()) {
      PatternBenefit benefit = pattern->getBenefit();
      if (!benefit.isImpossibleToMatch() && benefit.getBenefit() < kTargetPatternBenefit) {
        std::optional<OperationName> root = pattern->getRootKind();
        return module.emitError()
               << "a target pattern for " << (root ? root->getStringRef() : "any op")
               << " has benefit " << benefit.getBenefit() << "; a target's patterns need at least "
               << kTargetPatternBenefit
               << " (kTargetPatternBenefit) to be tried before core's generic ones";
      }
      patterns.add(std::move(pattern));
    }
  }
  populateCreationPatterns(converter, lowering, patterns);
  populateElementwisePatterns(converter, lowering, patterns);
  populateLayoutMovePatterns(converter, lowering, patterns);
  populateGlobalMemoryPatterns(converter, lowering, patterns);
  populateReduceScanPatterns(converter, lowering, patterns);
  populateDotPatterns(converter, lowering, patterns);
  populateDotLoopPatterns(converter, lowering, patterns);
  populateAtomicPatterns(converter, lowering, patterns);
  populateAsyncTensorPatterns(converter, lowering, patterns);
  populateDebugPatterns(converter, lowering, patterns);
  populateSharedMemoryPatterns(converter, lowering, patterns);
  patterns.add<WarpSpecializeRegions>(converter, ctx);
  populateFuncToLLVMConversionPatterns(converter, patterns);
  arith::populateArithToLLVMConversionPatterns(converter, patterns);
  populateMathToLLVMConversionPatterns(converter, patterns);
  cf::populateControlFlowToLLVMConversionPatterns(converter, patterns);
  // Ops with no LLVM counterpart, rewritten on the per-thread values the
  // tile patterns produce: floor/ceil division into plain arith. (MLIR's
  // erf polynomial pattern crashes inside this conversion: math.erf waits
  // for a math-function hook.)
  arith::populateCeilFloorDivExpandOpsPatterns(patterns);

  LLVMConversionTarget target(*ctx);
  target.addLegalOp<ModuleOp>();
  target.addIllegalDialect<HadronDialect, arith::ArithDialect, math::MathDialect,
                           func::FuncDialect, cf::ControlFlowDialect>();
  // A warp-specialised kernel keeps its regions apart until the end: the
  // lowering of the ops inside asks which warps run them.
  target.addDynamicallyLegalOp<WarpSpecializeOp>(
      [](WarpSpecializeOp op) { return op->hasAttr(kRegionsConverted); });
  target.addLegalOp<WarpReturnOp>();
  if (failed(applyFullConversion(module, target, std::move(patterns))))
    return failure();
  inlineWarpRegions(module, hooks);

  for (StringRef name : kernels)
    if (auto func = module.lookupSymbol<LLVM::LLVMFuncOp>(name)) {
      auto warps = kernelWarps->find(name);
      if (warps != kernelWarps->end())
        func->setAttr(HadronDialect::getKernelWarpsAttrName(),
                      IntegerAttr::get(IntegerType::get(ctx, 32), warps->second));
      hooks.finishKernel(func);
      func->removeAttr(HadronDialect::getKernelWarpsAttrName());
    }
  // The descriptor marks were for finishKernel; LLVM IR has no such attribute.
  module.walk([](LLVM::LLVMFuncOp func) {
    for (unsigned i = 0; i < func.getNumArguments(); ++i)
      if (func.getArgAttr(i, "hd.tensor_desc"))
        func.removeArgAttr(i, StringAttr::get(func.getContext(), "hd.tensor_desc"));
  });

  SmallVector<UnrealizedConversionCastOp> casts;
  module.walk([&](UnrealizedConversionCastOp cast) { casts.push_back(cast); });
  SmallVector<UnrealizedConversionCastOp> remaining;
  reconcileUnrealizedCasts(casts, &remaining);
  if (!remaining.empty())
    return remaining.front().emitOpError("is left after lowering: a value's type has no "
                                         "per-thread form");
  return success();
}
