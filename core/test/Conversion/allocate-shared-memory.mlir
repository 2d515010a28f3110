// RUN: hadron-opt --hd-allocate-shared-memory %s | FileCheck %s
// RUN: not hadron-opt --hd-allocate-shared-memory %S/Inputs/shared-over-capacity.mlir 2>&1 | FileCheck %s --check-prefix=CAP

// Buffers whose lifetimes do not overlap share memory; one live across the
// others keeps its own; buffers are placed largest first, offsets are
// 16-byte aligned and the kernel records the peak. A convert_layout that moves elements between threads gets
// scratch space like a buffer.

#b = #hd.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#c = #hd.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#s = #hd.swizzled<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
module attributes {hd.num_warps = 4 : i32} {
  // CHECK-LABEL: func.func @reuse
  // CHECK-SAME: hd.shared_bytes = 6144
  func.func @reuse(%x: tensor<512xf32, #b>) -> tensor<512xf32, #c> attributes {hd.kernel} {
    // CHECK: hd.local_alloc {{.*}}hd.shared_offset = 4096
    %long = hd.local_alloc %x : tensor<512xf32, #b> -> !hd.memdesc<512xf32, #s>
    // CHECK: hd.local_alloc {hd.shared_offset = 0 : i64} -> !hd.memdesc<1024xf32
    %a = hd.local_alloc -> !hd.memdesc<1024xf32, #s>
    %va = hd.local_load %a : !hd.memdesc<1024xf32, #s> -> tensor<1024xf32, #b>
    hd.local_dealloc %a : !hd.memdesc<1024xf32, #s>
    // CHECK: hd.local_alloc {hd.shared_offset = 0 : i64} -> !hd.memdesc<512xf32
    %c = hd.local_alloc -> !hd.memdesc<512xf32, #s>
    hd.local_store %x, %c : tensor<512xf32, #b> -> !hd.memdesc<512xf32, #s>
    %vc = hd.local_load %c : !hd.memdesc<512xf32, #s> -> tensor<512xf32, #b>
    hd.local_dealloc %c : !hd.memdesc<512xf32, #s>
    %vl = hd.local_load %long : !hd.memdesc<512xf32, #s> -> tensor<512xf32, #b>
    hd.local_dealloc %long : !hd.memdesc<512xf32, #s>
    %sum = arith.addf %vc, %vl : tensor<512xf32, #b>
    // CHECK: hd.convert_layout {{.*}}hd.scratch_bytes = 2048 : i64, hd.shared_offset = 0
    %moved = hd.convert_layout %sum : tensor<512xf32, #b> -> tensor<512xf32, #c>
    return %moved : tensor<512xf32, #c>
  }
}

// Over the target's capacity: the error names the total and the limit.
// CAP: error: 'func.func' op needs 65536 bytes of shared memory, more than the 49152 bytes per CTA the target allows
// CAP: note: local_alloc of 32768 bytes
// CAP: note: local_alloc of 32768 bytes
