//===- FuseChunkLoops.h - One loop per tile where nothing overlaps -*- C++ -*-===//
#ifndef HADRON_TARGETS_HOST_FUSECHUNKLOOPS_H
#define HADRON_TARGETS_HOST_FUSECHUNKLOOPS_H

namespace llvm {
class PassBuilder;
} // namespace llvm

namespace hadron::host {

/// Adds, where the default pipeline starts vectorising, a pass that fuses
/// consecutive loops over the chunks of a tile (a load loop into a stack
/// buffer, a compute loop, a store loop from the buffer: what a kernel
/// whose tiles are too large for the registers becomes) into one loop that
/// takes each chunk from load to store, then the clean-ups that drop the
/// stack buffers the fused loop no longer needs.
///
/// A tile's loads all happen before its stores, since a kernel may store
/// where it loaded; fusing the loops breaks that order for chunks at
/// different iterations, so it is done only where the order cannot show:
/// stack buffers must be read at the iteration that wrote them (checked at
/// compile time), and the memory ranges that a loop writes must be apart
/// from the ranges the other loops read or write (checked at run time, once
/// per program, before the loops). Where the check fails the original
/// loops run. Why: a copy of 1024 floats per program otherwise loads 4 KiB
/// into a stack buffer before it stores any of it, a burst of loads and
/// then of stores where a plain loop alternates them, and ran at 0.7x the
/// bandwidth of that loop (docs/performance.md, "Host copy and add").
void addChunkLoopFusion(llvm::PassBuilder &pb);

} // namespace hadron::host

#endif
