//===- KernelSources.h - The benchmark kernels, written with the builder --===//
//
// Linked into hadron-bench-kernels only (it links MLIR); hadron-bench gets
// the IR these build from the table that program writes (KernelIR.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef HADRON_BENCH_KERNELSOURCES_H
#define HADRON_BENCH_KERNELSOURCES_H

#include "Kernels.h"

#include "hadron/Builder/Builder.h"

namespace hadron::bench {

/// The kernel `op` specialised for `c`: a 1-D blocked layout of c.spt
/// elements per thread, 32 threads per warp and c.warps warps.
Result<builder::Module> buildKernel(Op op, const Config &c);

} // namespace hadron::bench

#endif // HADRON_BENCH_KERNELSOURCES_H
