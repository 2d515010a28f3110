// hd.barrier is s_barrier between workgroup-scope release and acquire
// fences (what LLVM expects for __syncthreads), and shared memory is the
// kernel's own addrspace(3) global sized by the shared-memory allocator,
// which the code object reports as its group segment.

// RUN: rm -rf %t && mkdir -p %t/dump
// RUN: hadron compile %s --target amd:gfx942 -O1 --emit=llvm --dump-dir %t/dump -o %t/k.ll
// RUN: FileCheck %s --check-prefix=ROCDL < %t/dump/1-llvm-dialect.mlir
// RUN: FileCheck %s --check-prefix=LLVM < %t/k.ll
// RUN: hadron compile %s --target amd:gfx942 -o %t/k.hsaco
// RUN: llvm-readobj --notes %t/k.hsaco | FileCheck %s --check-prefix=NOTES
// RUN: hadron compile %s --target amd:gfx942 --emit=asm | FileCheck %s --check-prefix=ASM

// ROCDL: "llvm.mlir.global"() <{addr_space = 3 : i32, alignment = 16 : i64, global_type = !llvm.array<8192 x i8>, linkage = #llvm.linkage<internal>, sym_name = "__hd_lds_stage"
// ROCDL: "llvm.fence"() <{ordering = 5 : i64, syncscope = "workgroup"}>
// ROCDL-NEXT: "rocdl.s.barrier"() : () -> ()
// ROCDL-NEXT: "llvm.fence"() <{ordering = 4 : i64, syncscope = "workgroup"}>

// LLVM: @__hd_lds_stage = internal unnamed_addr addrspace(3) global [8192 x i8] undef, align 16
// LLVM: store <4 x float> {{.*}}, ptr addrspace(3)
// LLVM: fence syncscope("workgroup") release
// LLVM-NEXT: call void @llvm.amdgcn.s.barrier()
// LLVM-NEXT: fence syncscope("workgroup") acquire
// LLVM: load <4 x float>, ptr addrspace(3)

// NOTES: .group_segment_fixed_size: 8192
// NOTES: .name: stage

// ASM: ds_write_b128
// ASM: s_barrier
// ASM: ds_read_b128

#b = #hd.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#rows = #hd.slice<{dim = 1, parent = #b}>
#cols = #hd.slice<{dim = 0, parent = #b}>
#sw = #hd.swizzled<{vec = 4, perPhase = 1, maxPhase = 8, order = [1, 0]}>
module attributes {hd.num_warps = 4 : i32} {
  func.func @stage(%in: !hd.ptr<f32> {hd.divisibility = 16 : i32}, %out: !hd.ptr<f32> {hd.divisibility = 16 : i32}) attributes {hd.kernel} {
    %r = hd.arange 0 to 32 : tensor<32xi32, #rows>
    %c = hd.arange 0 to 64 : tensor<64xi32, #cols>
    %r2 = hd.expand_dims %r axis = 1 : tensor<32xi32, #rows> -> tensor<32x1xi32, #b>
    %c2 = hd.expand_dims %c axis = 0 : tensor<64xi32, #cols> -> tensor<1x64xi32, #b>
    %c64 = arith.constant dense<64> : tensor<32x1xi32, #b>
    %ro = arith.muli %r2, %c64 : tensor<32x1xi32, #b>
    %rb = hd.broadcast %ro : tensor<32x1xi32, #b> -> tensor<32x64xi32, #b>
    %cb = hd.broadcast %c2 : tensor<1x64xi32, #b> -> tensor<32x64xi32, #b>
    %off = arith.addi %rb, %cb : tensor<32x64xi32, #b>
    %ip = hd.splat %in : tensor<32x64x!hd.ptr<f32>, #b>
    %ips = hd.addptr %ip, %off : tensor<32x64x!hd.ptr<f32>, #b>, tensor<32x64xi32, #b>
    %x = hd.load %ips : tensor<32x64x!hd.ptr<f32>, #b>
    %tile = hd.local_alloc -> !hd.memdesc<32x64xf32, #sw>
    hd.local_store %x, %tile : tensor<32x64xf32, #b> -> !hd.memdesc<32x64xf32, #sw>
    hd.barrier
    %y = hd.local_load %tile : !hd.memdesc<32x64xf32, #sw> -> tensor<32x64xf32, #b>
    %op = hd.splat %out : tensor<32x64x!hd.ptr<f32>, #b>
    %ops = hd.addptr %op, %off : tensor<32x64x!hd.ptr<f32>, #b>, tensor<32x64xi32, #b>
    hd.store %ops, %y : tensor<32x64x!hd.ptr<f32>, #b>
    return
  }
}
