//===- NvvmDialect.h - The NVVM dialect, kept to one translation unit -*- C++ -*-===//
//
// NVVMDialect.h costs ~20 s per file that includes it, so everything this
// target does with the dialect lives in NvvmDialect.cpp behind these two
// functions.
//
//===----------------------------------------------------------------------===//
#ifndef HADRON_TARGETS_NVIDIA_COMPILER_NVVMDIALECT_H
#define HADRON_TARGETS_NVIDIA_COMPILER_NVVMDIALECT_H

#include "mlir/Support/LogicalResult.h"

namespace mlir {
class DialectRegistry;
class ModuleOp;
} // namespace mlir

namespace hadron::nvidia {

/// Adds the NVVM dialect and its LLVM IR translation (which turns the
/// kernels' nvvm.kernel / nvvm.reqntid attributes into ptx_kernel and
/// "nvvm.reqntid").
void registerNvvm(mlir::DialectRegistry &registry);

/// Rewrites the NVVM intrinsic calls NvidiaHooks emitted (llvm.call_intrinsic
/// of llvm.nvvm.read.ptx.sreg.*, barrier.cta.sync.aligned.all, shfl.sync.*)
/// into NVVM dialect ops, giving tid.x its range [0, num_warps * 32).
mlir::LogicalResult raiseToNvvm(mlir::ModuleOp module);

} // namespace hadron::nvidia

#endif // HADRON_TARGETS_NVIDIA_COMPILER_NVVMDIALECT_H
