// RUN: hadron-opt --hd-legalize-shape-moves %s | FileCheck %s
// RUN: hadron-opt --hd-legalize-shape-moves %s | hadron-opt --verify-each | FileCheck %s --check-prefix=ROUNDTRIP
// RUN: hadron-opt --hd-legalize-shape-moves=fold-threads=true %s | FileCheck %s --check-prefix=FOLD

// A join whose result layout puts the new dimension in lanes: the join is
// done in registers (a layout with the new dimension in a register bit) and
// a convert_layout moves the elements. A join that keeps each element in its
// thread is left alone, and so is everything on a target that folds threads.

// The register-only layout: the new dimension is register bit 0.
// CHECK: #linear = #hd.linear<{register = {{\[}}[0, 1], [1, 0], [2, 0]], lane = {{\[}}[4, 0], [8, 0], [16, 0], [32, 0], [64, 0]], warp = {{\[}}[128, 0], [256, 0]]
// ROUNDTRIP: func.func @split_across_lanes

#l = #hd.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#lanes = #hd.blocked<{sizePerThread = [4, 1], threadsPerWarp = [16, 2], warpsPerCTA = [4, 1], order = [1, 0]}>
#regs = #hd.blocked<{sizePerThread = [4, 2], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {hd.num_warps = 4 : i32} {
  // CHECK-LABEL: func.func @join_across_lanes
  // CHECK: %[[J:.*]] = hd.join {{.*}} -> tensor<512x2xf32, #linear>
  // CHECK: hd.convert_layout %[[J]] {{.*}} -> tensor<512x2xf32, #blocked
  // FOLD-LABEL: func.func @join_across_lanes
  // FOLD-NOT: convert_layout
  func.func @join_across_lanes(%a: tensor<512xf32, #l>, %b: tensor<512xf32, #l>) -> tensor<512x2xf32, #lanes> {
    %j = hd.join %a, %b : tensor<512xf32, #l> -> tensor<512x2xf32, #lanes>
    return %j : tensor<512x2xf32, #lanes>
  }
  // CHECK-LABEL: func.func @join_in_registers
  // CHECK-NOT: convert_layout
  // CHECK: return
  func.func @join_in_registers(%a: tensor<512xf32, #l>, %b: tensor<512xf32, #l>) -> tensor<512x2xf32, #regs> {
    %j = hd.join %a, %b : tensor<512xf32, #l> -> tensor<512x2xf32, #regs>
    return %j : tensor<512x2xf32, #regs>
  }
  // CHECK-LABEL: func.func @split_across_lanes
  // CHECK: %[[C:.*]] = hd.convert_layout %{{.*}} -> tensor<512x2xf32, #linear>
  // CHECK: hd.split %[[C]]
  func.func @split_across_lanes(%x: tensor<512x2xf32, #lanes>) -> tensor<512xf32, #l> {
    %a, %b = hd.split %x : tensor<512x2xf32, #lanes> -> tensor<512xf32, #l>, tensor<512xf32, #l>
    %s = arith.addf %a, %b : tensor<512xf32, #l>
    return %s : tensor<512xf32, #l>
  }
}
