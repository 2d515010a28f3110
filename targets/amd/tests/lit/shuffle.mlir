// Cross-lane reductions go through the shuffle hook: ds_bpermute from lane
// (lane ^ mask), addressed in bytes (lane * 4). 32-bit values take one
// ds_bpermute per butterfly step, 64-bit ones (f64, i64) two.

// RUN: rm -rf %t && mkdir -p %t/dump
// RUN: hadron compile %s --target amd:gfx942 -O1 --emit=llvm --dump-dir %t/dump -o %t/k.ll
// RUN: FileCheck %s --check-prefix=ROCDL < %t/dump/1-llvm-dialect.mlir
// RUN: FileCheck %s --check-prefix=LLVM < %t/k.ll
// RUN: hadron compile %s --target amd:gfx942 --emit=asm | FileCheck %s --check-prefix=ASM

// ROCDL: %[[MASK:.*]] = "llvm.mlir.constant"() <{value = 63 : i32}> : () -> i32
// ROCDL-NEXT: %[[LANE:.*]] = "llvm.and"(%{{.*}}, %[[MASK]]) : (i32, i32) -> i32
// ROCDL-NEXT: %[[BITS:.*]] = "llvm.bitcast"(%{{.*}}) : (f32) -> i32
// ROCDL-NEXT: %[[TWO:.*]] = "llvm.mlir.constant"() <{value = 2 : i32}> : () -> i32
// ROCDL-NEXT: %[[BYTES:.*]] = "llvm.shl"(%[[LANE]], %[[TWO]]) {{.*}}: (i32, i32) -> i32
// ROCDL-NEXT: "rocdl.ds_bpermute"(%[[BYTES]], %[[BITS]]) : (i32, i32) -> i32
// The f64 goes as two 32-bit words.
// ROCDL: "llvm.bitcast"(%{{.*}}) : (f64) -> i64
// ROCDL: "llvm.bitcast"(%{{.*}}) : (i64) -> vector<2xi32>
// ROCDL: "rocdl.ds_bpermute"
// ROCDL: "rocdl.ds_bpermute"
// ROCDL: "llvm.bitcast"(%{{.*}}) : (vector<2xi32>) -> i64

// f32 sum over 64 lanes: 6 butterfly steps; f64 max: 6 steps of 2 words.
// LLVM-LABEL: define amdgpu_kernel void @sums(
// LLVM-COUNT-18: call i32 @llvm.amdgcn.ds.bpermute(
// LLVM-NOT: call i32 @llvm.amdgcn.ds.bpermute(
// LLVM: ret void

// ASM-COUNT-18: ds_bpermute_b32

#b = #hd.blocked<{sizePerThread = [1], threadsPerWarp = [64], warpsPerCTA = [1], order = [0]}>
module attributes {hd.num_warps = 1 : i32} {
  func.func @sums(%x: !hd.ptr<f32> {hd.divisibility = 16 : i32}, %y: !hd.ptr<f64> {hd.divisibility = 16 : i32}, %out: !hd.ptr<f32>, %out64: !hd.ptr<f64>) attributes {hd.kernel} {
    %i = hd.arange 0 to 64 : tensor<64xi32, #b>
    %xs = hd.splat %x : tensor<64x!hd.ptr<f32>, #b>
    %xp = hd.addptr %xs, %i : tensor<64x!hd.ptr<f32>, #b>, tensor<64xi32, #b>
    %xv = hd.load %xp : tensor<64x!hd.ptr<f32>, #b>
    %sum = hd.reduce(%xv) axis = 0 : (tensor<64xf32, #b>) -> f32 {
    ^bb0(%a: f32, %c: f32):
      %s = arith.addf %a, %c : f32
      hd.yield %s : f32
    }
    hd.store %out, %sum : !hd.ptr<f32>
    %ys = hd.splat %y : tensor<64x!hd.ptr<f64>, #b>
    %yp = hd.addptr %ys, %i : tensor<64x!hd.ptr<f64>, #b>, tensor<64xi32, #b>
    %yv = hd.load %yp : tensor<64x!hd.ptr<f64>, #b>
    %max = hd.reduce(%yv) axis = 0 : (tensor<64xf64, #b>) -> f64 {
    ^bb0(%a: f64, %c: f64):
      %m = arith.maximumf %a, %c : f64
      hd.yield %m : f64
    }
    hd.store %out64, %max : !hd.ptr<f64>
    return
  }
}
