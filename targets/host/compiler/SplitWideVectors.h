//===- SplitWideVectors.h - Tiles as register-sized chunks -----*- C++ -*-===//
#ifndef HADRON_TARGETS_HOST_SPLITWIDEVECTORS_H
#define HADRON_TARGETS_HOST_SPLITWIDEVECTORS_H

namespace llvm {
class Module;
} // namespace llvm

namespace hadron::host {

/// Rewrites every vector of more than `lanes` lanes (a tile that one host
/// thread holds whole; the large ones lowerTilesAsLoops has turned into
/// loops, so these are the smaller ones and whole reloads it left for
/// users it does not know) into chunks of `lanes` lanes, so that LLVM's
/// back end never sees the wide type. Elementwise ops, casts,
/// selects, compares, vector GEPs, lane-wise intrinsics, loads, stores and
/// phis run once per chunk; a shufflevector becomes, per result chunk, a
/// chain of two-input shuffles over the source chunks it reads; constant-index
/// insert/extractelement touch one chunk. Anything else that uses a wide
/// value gets it reassembled, so the rewrite never changes what the code
/// computes. Why: the x86 back end legalises a <4096 x float> shuffle in time
/// that grows faster than its size (a 64x64 transpose took 10 s of CPU, a
/// 512-lane i8 add 2 s on generic x86-64); on chunks it is linear.
void splitWideVectors(llvm::Module &module, unsigned lanes);

} // namespace hadron::host

#endif
