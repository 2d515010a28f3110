//===- Dialect.h - The hd dialect -------------------------------*- C++ -*-===//
//
// Everything a user of the dialect needs: the dialect, its enums, layout
// interfaces, attributes, types and operations.
//
//===----------------------------------------------------------------------===//
#ifndef HADRON_IR_DIALECT_H
#define HADRON_IR_DIALECT_H

#include "hadron/Layout/LinearLayout.h"
#include "hadron/Support/Result.h"

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/TensorEncoding.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/Hashing.h"

namespace hadron {
/// Lets a LinearLayout be an attribute parameter (uniqued by value).
llvm::hash_code hash_value(const LinearLayout &layout);
} // namespace hadron

namespace hadron::hd {

/// Side-effect resources: global and shared memory are disjoint.
struct GlobalMemory : mlir::SideEffects::Resource::Base<GlobalMemory> {
  llvm::StringRef getName() final { return "<GlobalMemory>"; }
};
struct SharedMemory : mlir::SideEffects::Resource::Base<SharedMemory> {
  llvm::StringRef getName() final { return "<SharedMemory>"; }
};

/// i1, or a tensor of i1 with the shape and layout of `type` when it is a
/// tensor (the type of a mask for `type`).
mlir::Type getI1TypeLike(mlir::Type type);
/// The pointee of a pointer, or the tensor of pointees of a tensor of
/// pointers, keeping shape and layout. Any other type is returned unchanged
/// so that the type constraints report it.
mlir::Type getPointeeTypeLike(mlir::Type type);
/// A memdesc of exactly one i64: a barrier's storage.
bool isBarrierMemDesc(mlir::Type type);

} // namespace hadron::hd

#include "hadron/IR/HadronDialect.h.inc"
#include "hadron/IR/HadronEnums.h.inc"
#include "hadron/IR/HadronAttrInterfaces.h.inc"

#define GET_ATTRDEF_CLASSES
#include "hadron/IR/HadronAttrs.h.inc"

#define GET_TYPEDEF_CLASSES
#include "hadron/IR/HadronTypes.h.inc"

#define GET_OP_CLASSES
#include "hadron/IR/HadronOps.h.inc"

namespace hadron::hd {
/// Whether a tile of shared layout `a` and one of `b` (both `shape`) place
/// their elements alike; `b` may have leading stacked dims (a ring's
/// stage) that `a` lacks.
bool sameTilePlacement(SharedLayoutAttrInterface a, SharedLayoutAttrInterface b,
                       llvm::ArrayRef<int64_t> shape);
} // namespace hadron::hd

namespace hadron::hd {

/// The linear layout of a tensor type whose encoding is a hd layout.
Result<LinearLayout> toLinearLayout(mlir::RankedTensorType type);
/// The linear layout of a shared-memory descriptor (its allocation shape).
Result<LinearLayout> toLinearLayout(MemDescType type);
/// Bytes of the allocation a memdesc type describes: every buffer of its
/// stacked leading dims, padding included (sub-byte elements take a byte).
int64_t allocationBytes(MemDescType type);
/// A `#hd.linear` attribute equivalent to `layout` (register/lane/warp/block
/// ins). Fails when the ins are not those four.
Result<LinearLayoutAttr> toLinearLayoutAttr(mlir::MLIRContext *ctx,
                                            const LinearLayout &layout);
/// The module's target attribute, or null when there is none.
TargetAttr getTarget(mlir::Operation *op);

/// The hd.warp_specialize whose region holds `block` (at any depth) and
/// that region's index (0: default, i + 1: partition i); a null op outside.
std::pair<WarpSpecializeOp, unsigned> enclosingWarpRegion(mlir::Block *block);
/// Warps that run the code of `block`: its hd.warp_specialize region's, or
/// `numWarps` (the module's) outside one.
unsigned warpsRunning(mlir::Block *block, unsigned numWarps);

} // namespace hadron::hd

#endif // HADRON_IR_DIALECT_H
