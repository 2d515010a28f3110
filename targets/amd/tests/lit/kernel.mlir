// finishKernel: the amdgpu_kernel calling convention, the exact workgroup
// size (num_warps * wave size) as amdgpu-flat-work-group-size and
// reqd_work_group_size, full workgroups, the processor and the wavefront
// size feature; pointers in the global address space.

// RUN: hadron compile %s --target amd:gfx942 --emit=llvm | FileCheck %s --check-prefixes=CHECK,W64
// RUN: sed 's/threadsPerWarp = \[64\]/threadsPerWarp = [32]/' %s > %t.mlir
// RUN: hadron compile %t.mlir --target amd:gfx1100 --emit=llvm | FileCheck %s --check-prefixes=CHECK,W32
// RUN: hadron compile %s --target amd:gfx942 -o %t.hsaco
// RUN: llvm-readobj --notes %t.hsaco | FileCheck %s --check-prefix=NOTES

// CHECK: define amdgpu_kernel void @scale(ptr addrspace(1) {{.*}}, float {{.*}}) {{.*}}#[[ATTRS:[0-9]+]] !reqd_work_group_size ![[SIZE:[0-9]+]]
// CHECK: attributes #[[ATTRS]] = {
// W64-SAME: "amdgpu-flat-work-group-size"="512,512"
// W32-SAME: "amdgpu-flat-work-group-size"="256,256"
// W64-SAME: "target-cpu"="gfx942" "target-features"="+wavefrontsize64"
// W32-SAME: "target-cpu"="gfx1100" "target-features"="+wavefrontsize32"
// CHECK-SAME: "uniform-work-group-size"="true"
// Code object v5.
// CHECK: !{i32 1, !"amdhsa_code_object_version", i32 500}
// W64: ![[SIZE]] = !{i32 512, i32 1, i32 1}
// W32: ![[SIZE]] = !{i32 256, i32 1, i32 1}

// NOTES: amdhsa.kernels:
// NOTES: .max_flat_workgroup_size: 512
// NOTES: .name: scale
// NOTES: .uniform_work_group_size: 1
// NOTES: .wavefront_size: 64
// NOTES: amdhsa.target: amdgcn-amd-amdhsa--gfx942
// NOTES: amdhsa.version:
// NOTES-NEXT: - 1
// NOTES-NEXT: - 2

#b = #hd.blocked<{sizePerThread = [4], threadsPerWarp = [64], warpsPerCTA = [8], order = [0]}>
module attributes {hd.num_warps = 8 : i32} {
  func.func @scale(%x: !hd.ptr<f32> {hd.divisibility = 16 : i32}, %s: f32) attributes {hd.kernel} {
    %i = hd.arange 0 to 2048 : tensor<2048xi32, #b>
    %ps = hd.splat %x : tensor<2048x!hd.ptr<f32>, #b>
    %p = hd.addptr %ps, %i : tensor<2048x!hd.ptr<f32>, #b>, tensor<2048xi32, #b>
    %v = hd.load %p : tensor<2048x!hd.ptr<f32>, #b>
    %ss = hd.splat %s : tensor<2048xf32, #b>
    %r = arith.mulf %v, %ss : tensor<2048xf32, #b>
    hd.store %p, %r : tensor<2048x!hd.ptr<f32>, #b>
    return
  }
}
