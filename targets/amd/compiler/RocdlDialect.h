//===- RocdlDialect.h - The ROCDL dialect, kept to one translation unit -*- C++ -*-===//
//
// ROCDLDialect.h costs ~20 s per file that includes it, so everything this
// target does with the dialect lives in RocdlDialect.cpp behind these two
// functions.
//
//===----------------------------------------------------------------------===//
#ifndef HADRON_TARGETS_AMD_COMPILER_ROCDLDIALECT_H
#define HADRON_TARGETS_AMD_COMPILER_ROCDLDIALECT_H

#include "mlir/Support/LogicalResult.h"

namespace mlir {
class DialectRegistry;
class ModuleOp;
} // namespace mlir

namespace hadron::amd {

/// Adds the ROCDL dialect and its translation to LLVM IR to `registry`.
void registerAmdDialects(mlir::DialectRegistry &registry);

/// Rewrites the amdgcn intrinsic calls AmdHooks emitted (llvm.call_intrinsic
/// of workitem/workgroup ids, mbcnt, readfirstlane, ds.bpermute, s.barrier)
/// into ROCDL dialect ops, giving workitem.id.x its range [0, workgroup
/// size) from the kernel's reqd_work_group_size.
mlir::LogicalResult raiseToRocdl(mlir::ModuleOp module);

} // namespace hadron::amd

#endif // HADRON_TARGETS_AMD_COMPILER_ROCDLDIALECT_H
