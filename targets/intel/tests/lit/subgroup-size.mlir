// The kernel's sub-group size is the lanes of its layouts (among the
// arch's), emitted as intel_reqd_sub_group_size (SPIR-V SubgroupSize) with
// the work-group size num_warps x lanes (LocalSize).

// RUN: rm -rf %t && mkdir -p %t
// RUN: hadron compile %examples/vector_add.mlir --target intel:pvc -o %t/sg32.spv
// RUN: spirv-val %t/sg32.spv
// RUN: spirv-dis %t/sg32.spv | FileCheck %s --check-prefix=SG32
// RUN: sed 's/threadsPerWarp = \[32\]/threadsPerWarp = [16]/' %examples/vector_add.mlir > %t/sg16.mlir
// RUN: hadron compile %t/sg16.mlir --target intel:pvc -o %t/sg16.spv
// RUN: spirv-val %t/sg16.spv
// RUN: spirv-dis %t/sg16.spv | FileCheck %s --check-prefix=SG16
// RUN: sed 's/threadsPerWarp = \[32\]/threadsPerWarp = [8]/' %examples/vector_add.mlir > %t/sg8.mlir
// RUN: hadron compile %t/sg8.mlir --target intel:acm -o %t/sg8.spv
// RUN: spirv-val %t/sg8.spv
// RUN: spirv-dis %t/sg8.spv | FileCheck %s --check-prefix=SG8
// RUN: not hadron compile %t/sg8.mlir --target intel:pvc -o %t/bad.spv 2>&1 | FileCheck %s --check-prefix=NO8

// SG32: OpCapability SubgroupDispatch
// SG32-DAG: OpExecutionMode %[[K:.*]] LocalSize 128 1 1
// SG32-DAG: OpExecutionMode %[[K]] SubgroupSize 32
// SG16-DAG: OpExecutionMode %[[K:.*]] LocalSize 64 1 1
// SG16-DAG: OpExecutionMode %[[K]] SubgroupSize 16
// SG8-DAG: OpExecutionMode %[[K:.*]] LocalSize 32 1 1
// SG8-DAG: OpExecutionMode %[[K]] SubgroupSize 8
// NO8: threadsPerWarp [8] multiplies to 8, target intel allows 16 or 32
