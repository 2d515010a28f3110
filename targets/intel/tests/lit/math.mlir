// Math becomes OpenCL.std extended instructions; maximumf/minimumf keep
// their NaN and signed-zero rules around fmax/fmin.

// RUN: rm -rf %t && mkdir -p %t
// RUN: hadron compile %s --target intel:cpu -o %t/m.spv
// RUN: spirv-val %t/m.spv
// RUN: spirv-dis %t/m.spv | FileCheck %s

// CHECK-DAG: %[[STD:[0-9]+]] = OpExtInstImport "OpenCL.std"
// CHECK-DAG: OpExtInst %float %[[STD]] exp
// CHECK-DAG: OpExtInst %float %[[STD]] sqrt
// CHECK-DAG: OpExtInst %float %[[STD]] log
// CHECK-DAG: OpExtInst %float %[[STD]] sin
// CHECK-DAG: OpExtInst %float %[[STD]] fmax
// CHECK-DAG: OpExtInst %float %[[STD]] fmin
// CHECK-DAG: OpUnordered %bool

#b = #hd.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
module attributes {hd.num_warps = 1 : i32} {
  func.func @m(%x: !hd.ptr<f32>, %out: !hd.ptr<f32>) attributes {hd.kernel} {
    %r = hd.arange 0 to 32 : tensor<32xi32, #b>
    %xp = hd.splat %x : tensor<32x!hd.ptr<f32>, #b>
    %p = hd.addptr %xp, %r : tensor<32x!hd.ptr<f32>, #b>, tensor<32xi32, #b>
    %v = hd.load %p : tensor<32x!hd.ptr<f32>, #b>
    %e = math.exp %v : tensor<32xf32, #b>
    %s = math.sqrt %e : tensor<32xf32, #b>
    %l = math.log %s : tensor<32xf32, #b>
    %n = math.sin %l : tensor<32xf32, #b>
    %mx = arith.maximumf %n, %v : tensor<32xf32, #b>
    %mn = arith.minimumf %mx, %e : tensor<32xf32, #b>
    %op = hd.splat %out : tensor<32x!hd.ptr<f32>, #b>
    %q = hd.addptr %op, %r : tensor<32x!hd.ptr<f32>, #b>, tensor<32xi32, #b>
    hd.store %q, %mn : tensor<32x!hd.ptr<f32>, #b>
    return
  }
}
