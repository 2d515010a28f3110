// Loads and stores of 16 bytes per work-item where the axis analysis proves
// them contiguous and aligned; the tail is masked element by element (the
// masked intrinsics become one branch per element before the backend).

// RUN: rm -rf %t && mkdir -p %t
// RUN: hadron compile %examples/vector_add.mlir --target intel:lnl --emit=llvm -o %t/v.ll
// RUN: FileCheck %s --check-prefix=LLVM < %t/v.ll
// RUN: hadron compile %examples/vector_add.mlir --target intel:lnl -o %t/v.spv
// RUN: spirv-val %t/v.spv
// RUN: spirv-dis %t/v.spv | FileCheck %s --check-prefix=SPIRV

// LLVM-NOT: llvm.masked
// LLVM: load <4 x float>, ptr addrspace(1) %{{.*}}, align 16
// LLVM: store <4 x float> %{{.*}}, ptr addrspace(1) %{{.*}}, align 16
// LLVM-NOT: x ptr

// SPIRV-DAG: %[[V4:v4float]] = OpTypeVector %float 4
// SPIRV-DAG: OpLoad %[[V4]] %{{.*}} Aligned 16
// SPIRV-DAG: OpStore %{{.*}} %{{.*}} Aligned 16
