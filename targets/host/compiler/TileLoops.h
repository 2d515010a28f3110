//===- TileLoops.h - Tiles as loops over register chunks -------*- C++ -*-===//
#ifndef HADRON_TARGETS_HOST_TILELOOPS_H
#define HADRON_TARGETS_HOST_TILELOOPS_H

namespace llvm {
class Module;
} // namespace llvm

namespace hadron::host {

/// Rewrites every tile of the distribute lowering's output that is at least
/// `minChunks` chunks of `lanes` lanes (a vector with a lane per element of
/// a CTA's tile, which one host thread holds whole) into memory and loops:
/// each such value lives in a stack buffer, and the instructions that make
/// it run as a loop over its chunks, consecutive lane-wise instructions
/// fused into one loop whose intermediate chunks stay in registers. A
/// shuffle (a layout move, a broadcast) reads its chunks from the buffers
/// of its operands (a vector load, a scalar splat or a gather per chunk,
/// with per-chunk tables where the pattern is not affine); lanes built from
/// narrow vectors (the pieces of vector memory accesses, a pack of
/// scalars) are stored into the buffer where they belong; a phi's buffer
/// is written at its incoming edges, and updated in place by a loop body
/// that reads it lane by lane and nothing reads afterwards.
///
/// Why: in straight-line code a tile of N elements is N/lanes instructions
/// per operation and a layout move a chain of shuffles per chunk, in basic
/// blocks of tens of thousands of instructions that the back end schedules
/// and allocates in super-linear time (seconds to minutes per kernel).
/// Here the code is proportional to the number of operations, not to the
/// tile's size. Smaller vectors are left to splitWideVectors.
void lowerTilesAsLoops(llvm::Module &module, unsigned lanes, unsigned minChunks);

} // namespace hadron::host

#endif
