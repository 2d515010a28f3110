//===- Passes.h - The core passes before distribute -------------*- C++ -*-===//
//
// What runs between verification and the distribute lowering, in order:
//
//   resolveLayouts        #hd.auto / #hd.coalesced -> concrete blocked layouts
//   allocateSharedMemory  an offset for every local_alloc and scratch buffer
//   insertBarriers        hd.barrier wherever shared-memory accesses race
//
// Each is a function on a module (the compile pipeline calls them) and an
// MLIR pass of the same name for hadron-opt and lit tests.
//
//===----------------------------------------------------------------------===//
#ifndef HADRON_CONVERSION_PASSES_H
#define HADRON_CONVERSION_PASSES_H

#include "mlir/Support/LogicalResult.h"

#include <cstdint>

namespace mlir {
class ModuleOp;
} // namespace mlir

namespace hadron {

struct ResolveLayoutsOptions {
  /// Widest vector access of one thread, in bytes.
  unsigned maxVectorBytes = 16;
};

/// Replaces every #hd.auto and #hd.coalesced layout (and slices/dot operands
/// of them) by a blocked layout for the module's #hd.target warp size and
/// hd.num_warps. Values of one shape get one layout per kind, so that
/// elementwise ops keep matching types. A coalesced layout gives each thread
/// a vector of maxVectorBytes along the dim its pointers are contiguous in,
/// narrowed to what AxisInfo proves about contiguity, alignment and mask
/// constancy of the loads and stores that use it.
mlir::LogicalResult resolveLayouts(mlir::ModuleOp module, const ResolveLayoutsOptions &options);

/// Rewrites math ops that have no LLVM counterpart into arith/math ops
/// every target lowers (ExpandMath.cpp): math.erf on f32/f16/bf16.
mlir::LogicalResult expandMath(mlir::ModuleOp module);

/// Where a reshape, join, split or permute would move elements between lanes or
/// warps, splits it into the op in a layout that keeps every element in its
/// thread and an hd.convert_layout that does the move (ShapeMoves.cpp).
/// Runs before allocateSharedMemory, which plans the conversions' scratch.
/// A no-op when `foldThreads` (the target runs each CTA as one thread).
mlir::LogicalResult legalizeShapeMoves(mlir::ModuleOp module, bool foldThreads);

/// Gives every local_alloc, and every op that needs scratch space when
/// lowered (convert_layout between threads, reduce across warps, scan across
/// threads), an offset `hd.shared_offset` into the CTA's shared memory;
/// buffers whose lifetimes do not overlap share memory. Each kernel gets
/// `hd.shared_bytes`, the total. Fails, naming the sizes of the largest
/// buffers, when a kernel needs more than the #hd.target allows.
/// `foldThreads`: the target runs each CTA as one thread (no scratch needed).
mlir::LogicalResult allocateSharedMemory(mlir::ModuleOp module, bool foldThreads);
/// The byte alignment allocateSharedMemory gives every buffer (tiles that
/// matrix units read get more), so the widest shared access core emits.
inline constexpr int64_t kSharedBufferAlignment = 16;

/// Inserts hd.barrier before every shared-memory access that may race with
/// an access of another thread since the last barrier (read after write,
/// write after read or write), loops and branches included. Runs after
/// allocateSharedMemory, whose offsets tell which buffers overlap.
mlir::LogicalResult insertBarriers(mlir::ModuleOp module);

/// The attribute naming a kernel's planned shared-memory bytes.
inline constexpr const char *kSharedBytesAttr = "hd.shared_bytes";
/// The attribute allocateSharedMemory puts on each local_alloc and each op
/// with scratch space: the buffer's byte offset in the CTA's shared memory.
inline constexpr const char *kSharedOffsetAttr = "hd.shared_offset";

/// Registers hd-resolve-layouts, hd-allocate-shared-memory and
/// hd-insert-barriers with the MLIR pass registry.
void registerHadronPasses();

} // namespace hadron

#endif // HADRON_CONVERSION_PASSES_H
