//===- SpirvLegalize.h - LLVM IR the SPIR-V backend can take ----*- C++ -*-===//
//
// LLVM 22's SPIR-V backend aborts the process (report_fatal_error) on some
// IR that other backends take: llvm.masked.load/store/gather/scatter, and
// bitcasts between <N x i1> and iN and reductions of i1 vectors (which
// LLVM's own scalarizer of masked accesses and InstCombine create), and it emits invalid SPIR-V (or
// crashes) for vectors of pointers, which tensors of pointers become, and
// for vectors wider than 16 elements (a thread's registers of a tensor).
// legalizeForSpirv rewrites them into what it handles, after optimisation
// and right before code generation.
//
//===----------------------------------------------------------------------===//
#ifndef HADRON_TARGETS_INTEL_COMPILER_SPIRVLEGALIZE_H
#define HADRON_TARGETS_INTEL_COMPILER_SPIRVLEGALIZE_H

#include <string>

namespace llvm {
class Module;
} // namespace llvm

namespace hadron::intel {

/// Expands llvm.maximum/minimum into fmax/fmin with IEEE 754-2019 NaN and
/// signed-zero rules, masked memory intrinsics into one conditional access
/// per element, scalarizes vector operations (loads and stores keep their
/// vectors), turns remaining vectors of pointers into vectors of integers,
/// and i1-vector reductions and <-> integer bitcasts into element
/// operations.
void legalizeForSpirv(llvm::Module &module);

/// A description of the first construct in `module` that the SPIR-V
/// backend is known to abort on, or "" when there is none.
std::string findUnsupportedForSpirv(const llvm::Module &module);

} // namespace hadron::intel

#endif // HADRON_TARGETS_INTEL_COMPILER_SPIRVLEGALIZE_H
