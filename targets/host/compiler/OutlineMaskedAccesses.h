//===- OutlineMaskedAccesses.h - Masked accesses the CPU lacks -*- C++ -*-===//
#ifndef HADRON_TARGETS_HOST_OUTLINEMASKEDACCESSES_H
#define HADRON_TARGETS_HOST_OUTLINEMASKEDACCESSES_H

namespace llvm {
class Module;
class TargetMachine;
} // namespace llvm

namespace hadron::host {

/// Moves every llvm.masked.{load,store,gather,scatter} that `machine`'s CPU
/// has no instruction for (all of them below AVX2, bytes and halves below
/// AVX-512) into a small function of its own, called where the access was.
/// LLVM expands such an access into a branch and a block per lane; in a
/// kernel that holds a whole tile those are thousands of blocks, and the
/// register allocator's liveness work grows with blocks times live values
/// (a 1024-float masked add took 9 s to compile for x86-64). Each helper is
/// expanded once. It has the C calling convention: preserve_allcc would keep
/// the caller's registers, but x86 ends such a function with vzeroupper,
/// which clears the upper halves of the very registers it promises to keep.
void outlineMaskedAccesses(llvm::Module &module, llvm::TargetMachine &machine);

} // namespace hadron::host

#endif
