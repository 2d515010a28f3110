// Program ids and counts are OpenCL's get_group_id / get_num_groups (size_t,
// truncated to i32), which the SPIR-V backend reads from the WorkgroupId and
// NumWorkgroups builtins; kernels are spir_kernel with their two implicit
// arguments (shared memory, assert status) after their own.

// RUN: rm -rf %t && mkdir -p %t
// RUN: hadron compile %s --target intel:pvc -O1 --emit=llvm -o %t/ids.ll
// RUN: FileCheck %s --check-prefix=LLVM < %t/ids.ll
// RUN: hadron compile %s --target intel:pvc -O1 -o %t/ids.spv
// RUN: spirv-val %t/ids.spv
// RUN: spirv-dis %t/ids.spv | FileCheck %s --check-prefix=SPIRV

// LLVM: define spir_kernel void @ids(ptr addrspace(1) {{.*}}, ptr addrspace(3) {{.*}}, ptr addrspace(1) {{.*}}) {{.*}}!reqd_work_group_size ![[WG:[0-9]+]] !intel_reqd_sub_group_size ![[SG:[0-9]+]]
// LLVM-DAG: call spir_func i64 @_Z12get_group_idj(i32 0)
// LLVM-DAG: call spir_func i64 @_Z12get_group_idj(i32 1)
// LLVM-DAG: call spir_func i64 @_Z12get_group_idj(i32 2)
// LLVM-DAG: call spir_func i64 @_Z14get_num_groupsj(i32 0)
// LLVM-DAG: call spir_func i64 @_Z14get_num_groupsj(i32 1)
// LLVM-DAG: call spir_func i64 @_Z14get_num_groupsj(i32 2)
// LLVM-DAG: ![[WG]] = !{i32 64, i32 1, i32 1}
// LLVM-DAG: ![[SG]] = !{i32 32}

// SPIRV: OpCapability Kernel
// SPIRV: OpMemoryModel Physical64 OpenCL
// SPIRV: OpEntryPoint Kernel %[[K:[a-z_0-9]+]] "ids"
// SPIRV-DAG: OpExecutionMode %[[K]] LocalSize 64 1 1
// SPIRV-DAG: OpExecutionMode %[[K]] SubgroupSize 32
// SPIRV-DAG: OpDecorate %{{.*}} BuiltIn WorkgroupId
// SPIRV-DAG: OpDecorate %{{.*}} BuiltIn NumWorkgroups

#b = #hd.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [2], order = [0]}>
module attributes {hd.num_warps = 2 : i32} {
  func.func @ids(%out: !hd.ptr<i32>) attributes {hd.kernel} {
    %x = hd.program_id 0
    %y = hd.program_id 1
    %z = hd.program_id 2
    %nx = hd.num_programs 0
    %ny = hd.num_programs 1
    %nz = hd.num_programs 2
    %a = arith.muli %z, %ny : i32
    %b = arith.addi %a, %y : i32
    %c = arith.muli %b, %nx : i32
    %d = arith.addi %c, %x : i32
    %e = arith.muli %d, %nz : i32
    %r = hd.arange 0 to 64 : tensor<64xi32, #b>
    %s = hd.splat %e : tensor<64xi32, #b>
    %v = arith.addi %s, %r : tensor<64xi32, #b>
    %op = hd.splat %out : tensor<64x!hd.ptr<i32>, #b>
    %p = hd.addptr %op, %v : tensor<64x!hd.ptr<i32>, #b>, tensor<64xi32, #b>
    hd.store %p, %v : tensor<64x!hd.ptr<i32>, #b>
    return
  }
}
