// Shared memory is the kernel's __local argument (SPIR-V Workgroup storage
// class, LLVM address space 3), whose size the runtime sets to the planned
// bytes plus the launch's dynamic ones; the transpose stores and loads
// through it around a barrier. Global memory is CrossWorkgroup (1); the
// assert status buffer is the last argument.

// RUN: rm -rf %t && mkdir -p %t
// RUN: hadron compile %examples/transpose.mlir --target intel:bmg --emit=llvm -o %t/t.ll
// RUN: FileCheck %s --check-prefix=LLVM < %t/t.ll
// RUN: hadron compile %examples/transpose.mlir --target intel:bmg -o %t/t.spv
// RUN: spirv-val %t/t.spv
// RUN: spirv-dis %t/t.spv | FileCheck %s --check-prefix=SPIRV

// LLVM: define spir_kernel void @transpose(ptr addrspace(1) {{[^,]*}}, ptr addrspace(1) {{[^,]*}}, i32 {{[^,]*}}, i32 {{[^,]*}}, ptr addrspace(3) {{[^,]*}}, ptr addrspace(1) {{[^,]*}})
// LLVM-DAG: store {{.*}}, ptr addrspace(3)
// LLVM-DAG: load {{.*}}, ptr addrspace(3)
// LLVM-DAG: call spir_func void @_Z7barrierj(i32 3)

// SPIRV-DAG: OpTypeFunction %void %[[CW:_ptr_CrossWorkgroup_float]] %[[CW]] %uint %uint %_ptr_Workgroup_{{[a-z0-9]+}} %_ptr_CrossWorkgroup_{{[a-z0-9]+}}{{$}}
// SPIRV-DAG: OpControlBarrier %uint_2 %uint_2 %uint_784
