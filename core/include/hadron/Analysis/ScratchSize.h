//===- ScratchSize.h - Shared memory an op's lowering borrows ---*- C++ -*-===//
//
// Some ops move elements between threads through a scratch buffer in shared
// memory when they are lowered: a convert_layout whose layouts split the
// tile differently between threads, a reduce across warps, a scan across
// threads, a scalar atomic whose old value every thread reads. The
// shared-memory allocator reserves the bytes this returns and the lowering
// uses them, so both read the size from here.
//
//===----------------------------------------------------------------------===//
#ifndef HADRON_ANALYSIS_SCRATCHSIZE_H
#define HADRON_ANALYSIS_SCRATCHSIZE_H

#include "hadron/Analysis/TileInfo.h"

#include "mlir/IR/Operation.h"

namespace hadron {

/// Bytes of scratch shared memory `op` needs when lowered with the layouts
/// of `tiles` (0 for none; always 0 where a CTA runs as one thread).
int64_t scratchBytes(mlir::Operation *op, TileInfoCache &tiles);

} // namespace hadron

#endif // HADRON_ANALYSIS_SCRATCHSIZE_H
