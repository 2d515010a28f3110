// Every folder and canonicalisation of the hd ops, and the look-alikes that
// must stay.
// RUN: hadron-opt %s -canonicalize -split-input-file | FileCheck %s

#b1 = #hd.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b4 = #hd.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>

// CHECK-LABEL: func.func @convert_same_type
// CHECK-SAME: (%[[X:.*]]: tensor
// CHECK-NOT: hd.convert_layout
// CHECK: return %[[X]]
func.func @convert_same_type(%x: tensor<128xf32, #b1>) -> tensor<128xf32, #b1> {
  %0 = hd.convert_layout %x : tensor<128xf32, #b1> -> tensor<128xf32, #b1>
  return %0 : tensor<128xf32, #b1>
}

// convert(convert(x)) converts x once.
// CHECK-LABEL: func.func @convert_of_convert
// CHECK-SAME: (%[[X:.*]]: tensor
// CHECK-NEXT: %[[C:.*]] = hd.convert_layout %[[X]] : tensor<128xf32, #blocked{{[0-9]*}}> -> tensor<128xf32, #blocked{{[0-9]*}}>
// CHECK-NEXT: return %[[C]]
func.func @convert_of_convert(%x: tensor<128xf32, #b1>) -> tensor<128xf32, #b4> {
  %0 = hd.convert_layout %x : tensor<128xf32, #b1> -> tensor<128xf32, #hd.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>>
  %1 = hd.convert_layout %0 : tensor<128xf32, #hd.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>> -> tensor<128xf32, #b4>
  return %1 : tensor<128xf32, #b4>
}

// A round trip folds away entirely.
// CHECK-LABEL: func.func @convert_round_trip
// CHECK-SAME: (%[[X:.*]]: tensor
// CHECK-NEXT: return %[[X]]
func.func @convert_round_trip(%x: tensor<128xf32, #b1>) -> tensor<128xf32, #b1> {
  %0 = hd.convert_layout %x : tensor<128xf32, #b1> -> tensor<128xf32, #b4>
  %1 = hd.convert_layout %0 : tensor<128xf32, #b4> -> tensor<128xf32, #b1>
  return %1 : tensor<128xf32, #b1>
}

// CHECK-LABEL: func.func @convert_of_splat
// CHECK-SAME: (%[[S:.*]]: f32)
// CHECK-NEXT: %[[R:.*]] = hd.splat %[[S]] : tensor<128xf32, #blocked{{[0-9]*}}>
// CHECK-NEXT: return %[[R]]
func.func @convert_of_splat(%s: f32) -> tensor<128xf32, #b4> {
  %0 = hd.splat %s : tensor<128xf32, #b1>
  %1 = hd.convert_layout %0 : tensor<128xf32, #b1> -> tensor<128xf32, #b4>
  return %1 : tensor<128xf32, #b4>
}

// CHECK-LABEL: func.func @convert_of_arange
// CHECK-NEXT: %[[R:.*]] = hd.arange 0 to 128 : tensor<128xi32, #[[B4:blocked[0-9]*]]>
// CHECK-NEXT: return %[[R]] : tensor<128xi32, #[[B4]]>
func.func @convert_of_arange() -> tensor<128xi32, #b4> {
  %0 = hd.arange 0 to 128 : tensor<128xi32, #b1>
  %1 = hd.convert_layout %0 : tensor<128xi32, #b1> -> tensor<128xi32, #b4>
  return %1 : tensor<128xi32, #b4>
}

// CHECK-LABEL: func.func @convert_of_constant
// CHECK-NEXT: %[[C:.*]] = arith.constant dense<2.500000e+00> : tensor<128xf32, #[[B4:blocked[0-9]*]]>
// CHECK-NEXT: return %[[C]] : tensor<128xf32, #[[B4]]>
func.func @convert_of_constant() -> tensor<128xf32, #b4> {
  %c = arith.constant dense<2.5> : tensor<128xf32, #b1>
  %1 = hd.convert_layout %c : tensor<128xf32, #b1> -> tensor<128xf32, #b4>
  return %1 : tensor<128xf32, #b4>
}

// A conversion of anything else stays.
// CHECK-LABEL: func.func @convert_kept
// CHECK: hd.convert_layout
// CHECK: hd.convert_layout
func.func @convert_kept(%x: tensor<128xf32, #b1>, %i: tensor<128xi32, #b1>) -> (tensor<128xf32, #b4>, tensor<128xi32, #b4>) {
  %0 = hd.convert_layout %x : tensor<128xf32, #b1> -> tensor<128xf32, #b4>
  %a = hd.arange 0 to 128 : tensor<128xi32, #b1>
  %s = arith.addi %a, %i : tensor<128xi32, #b1>
  %1 = hd.convert_layout %s : tensor<128xi32, #b1> -> tensor<128xi32, #b4>
  return %0, %1 : tensor<128xf32, #b4>, tensor<128xi32, #b4>
}

// -----

#b2 = #hd.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>

// CHECK-LABEL: func.func @broadcast_same_type
// CHECK-SAME: (%[[X:.*]]: tensor
// CHECK-NEXT: return %[[X]]
func.func @broadcast_same_type(%x: tensor<32x32xf32, #b2>) -> tensor<32x32xf32, #b2> {
  %0 = hd.broadcast %x : tensor<32x32xf32, #b2> -> tensor<32x32xf32, #b2>
  return %0 : tensor<32x32xf32, #b2>
}

// CHECK-LABEL: func.func @broadcast_of_splat
// CHECK-SAME: (%[[S:.*]]: f32)
// CHECK-NEXT: %[[R:.*]] = hd.splat %[[S]] : tensor<32x32xf32, #blocked{{[0-9]*}}>
// CHECK-NEXT: return %[[R]]
func.func @broadcast_of_splat(%s: f32) -> tensor<32x32xf32, #b2> {
  %0 = hd.splat %s : tensor<32x1xf32, #b2>
  %1 = hd.broadcast %0 : tensor<32x1xf32, #b2> -> tensor<32x32xf32, #b2>
  return %1 : tensor<32x32xf32, #b2>
}

// CHECK-LABEL: func.func @broadcast_of_broadcast
// CHECK-SAME: (%[[X:.*]]: tensor<1x1xf32
// CHECK-NEXT: %[[R:.*]] = hd.broadcast %[[X]] : tensor<1x1xf32, #blocked{{[0-9]*}}> -> tensor<32x32xf32, #blocked{{[0-9]*}}>
// CHECK-NEXT: return %[[R]]
func.func @broadcast_of_broadcast(%x: tensor<1x1xf32, #b2>) -> tensor<32x32xf32, #b2> {
  %0 = hd.broadcast %x : tensor<1x1xf32, #b2> -> tensor<1x32xf32, #b2>
  %1 = hd.broadcast %0 : tensor<1x32xf32, #b2> -> tensor<32x32xf32, #b2>
  return %1 : tensor<32x32xf32, #b2>
}

// CHECK-LABEL: func.func @broadcast_of_constant
// CHECK-NEXT: %[[C:.*]] = arith.constant dense<7> : tensor<32x32xi32, #blocked{{[0-9]*}}>
// CHECK-NEXT: return %[[C]]
func.func @broadcast_of_constant() -> tensor<32x32xi32, #b2> {
  %c = arith.constant dense<7> : tensor<1x32xi32, #b2>
  %0 = hd.broadcast %c : tensor<1x32xi32, #b2> -> tensor<32x32xi32, #b2>
  return %0 : tensor<32x32xi32, #b2>
}

// CHECK-LABEL: func.func @broadcast_kept
// CHECK: hd.broadcast
func.func @broadcast_kept(%x: tensor<32x1xf32, #b2>) -> tensor<32x32xf32, #b2> {
  %0 = hd.broadcast %x : tensor<32x1xf32, #b2> -> tensor<32x32xf32, #b2>
  return %0 : tensor<32x32xf32, #b2>
}

// A constant that is not a splat stays broadcast.
// CHECK-LABEL: func.func @broadcast_of_dense_kept
// CHECK: arith.constant dense<[
// CHECK: hd.broadcast
func.func @broadcast_of_dense_kept() -> tensor<2x32xi32> {
  %c = arith.constant dense<[[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31]]> : tensor<1x32xi32>
  %0 = hd.broadcast %c : tensor<1x32xi32> -> tensor<2x32xi32>
  return %0 : tensor<2x32xi32>
}

// -----

#b2 = #hd.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#row = #hd.slice<{dim = 1, parent = #b2}>

// CHECK-LABEL: func.func @expand_dims_of_splat
// CHECK-SAME: (%[[S:.*]]: f32)
// CHECK-NEXT: %[[R:.*]] = hd.splat %[[S]] : tensor<32x1xf32, #blocked{{[0-9]*}}>
// CHECK-NEXT: return %[[R]]
func.func @expand_dims_of_splat(%s: f32) -> tensor<32x1xf32, #b2> {
  %0 = hd.splat %s : tensor<32xf32, #row>
  %1 = hd.expand_dims %0 axis = 1 : tensor<32xf32, #row> -> tensor<32x1xf32, #b2>
  return %1 : tensor<32x1xf32, #b2>
}

// CHECK-LABEL: func.func @expand_dims_kept
// CHECK: hd.expand_dims
func.func @expand_dims_kept(%x: tensor<32xf32, #row>) -> tensor<32x1xf32, #b2> {
  %0 = hd.expand_dims %x axis = 1 : tensor<32xf32, #row> -> tensor<32x1xf32, #b2>
  return %0 : tensor<32x1xf32, #b2>
}

// -----

#b1 = #hd.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b2 = #hd.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>

// CHECK-LABEL: func.func @reshape_same_type
// CHECK-SAME: (%[[X:.*]]: tensor
// CHECK-NEXT: return %[[X]]
func.func @reshape_same_type(%x: tensor<32x32xf32, #b2>) -> tensor<32x32xf32, #b2> {
  %0 = hd.reshape %x : tensor<32x32xf32, #b2> -> tensor<32x32xf32, #b2>
  return %0 : tensor<32x32xf32, #b2>
}

// CHECK-LABEL: func.func @reshape_of_constant
// CHECK-NEXT: %[[C:.*]] = arith.constant dense<1.000000e+00> : tensor<1024xf32, #blocked{{[0-9]*}}>
// CHECK-NEXT: return %[[C]]
func.func @reshape_of_constant() -> tensor<1024xf32, #b1> {
  %c = arith.constant dense<1.0> : tensor<32x32xf32, #b2>
  %0 = hd.reshape %c : tensor<32x32xf32, #b2> -> tensor<1024xf32, #b1>
  return %0 : tensor<1024xf32, #b1>
}

// CHECK-LABEL: func.func @reshape_kept
// CHECK: hd.reshape
func.func @reshape_kept(%x: tensor<32x32xf32, #b2>) -> tensor<1024xf32, #b1> {
  %0 = hd.reshape %x : tensor<32x32xf32, #b2> -> tensor<1024xf32, #b1>
  return %0 : tensor<1024xf32, #b1>
}

// CHECK-LABEL: func.func @permute_identity
// CHECK-SAME: (%[[X:.*]]: tensor
// CHECK-NEXT: return %[[X]]
func.func @permute_identity(%x: tensor<32x16xf32, #b2>) -> tensor<32x16xf32, #b2> {
  %0 = hd.permute %x, [0, 1] : tensor<32x16xf32, #b2> -> tensor<32x16xf32, #b2>
  return %0 : tensor<32x16xf32, #b2>
}

// A transpose of a square tile has the operand's type but is no no-op.
// CHECK-LABEL: func.func @permute_kept
// CHECK: hd.permute %{{.*}}, [1, 0]
func.func @permute_kept(%x: tensor<32x32xf32, #b2>) -> tensor<32x32xf32, #b2> {
  %0 = hd.permute %x, [1, 0] : tensor<32x32xf32, #b2> -> tensor<32x32xf32, #b2>
  return %0 : tensor<32x32xf32, #b2>
}

// The identity order into another layout is a layout change: it stays.
// CHECK-LABEL: func.func @permute_identity_other_layout
// CHECK: hd.permute %{{.*}}, [0, 1]
func.func @permute_identity_other_layout(%x: tensor<32x32xf32, #b2>) -> tensor<32x32xf32, #hd.blocked<{sizePerThread = [4, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>> {
  %0 = hd.permute %x, [0, 1] : tensor<32x32xf32, #b2> -> tensor<32x32xf32, #hd.blocked<{sizePerThread = [4, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>>
  return %0 : tensor<32x32xf32, #hd.blocked<{sizePerThread = [4, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>>
}

// -----

#sw = #hd.swizzled<{vec = 4, perPhase = 1, maxPhase = 8, order = [1, 0]}>

// CHECK-LABEL: func.func @memdesc_permute_identity
// CHECK-SAME: (%[[M:.*]]: !hd.memdesc
// CHECK-NEXT: return %[[M]]
func.func @memdesc_permute_identity(%m: !hd.memdesc<32x16xf32, #sw>) -> !hd.memdesc<32x16xf32, #sw> {
  %0 = hd.memdesc_permute %m, [0, 1] : !hd.memdesc<32x16xf32, #sw> -> !hd.memdesc<32x16xf32, #sw>
  return %0 : !hd.memdesc<32x16xf32, #sw>
}

// CHECK-LABEL: func.func @memdesc_permute_kept
// CHECK: hd.memdesc_permute %{{.*}}, [1, 0]
func.func @memdesc_permute_kept(%m: !hd.memdesc<32x32xf32, #sw>) -> !hd.memdesc<32x32xf32, #sw> {
  %0 = hd.memdesc_permute %m, [1, 0] : !hd.memdesc<32x32xf32, #sw> -> !hd.memdesc<32x32xf32, #sw>
  return %0 : !hd.memdesc<32x32xf32, #sw>
}

// -----

#b1 = #hd.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>

// CHECK-LABEL: func.func @addptr_zero
// CHECK-SAME: (%[[P:.*]]: !hd.ptr<f32>, %[[T:.*]]: tensor
// CHECK-NOT: hd.addptr
// CHECK: return %[[P]], %[[T]]
func.func @addptr_zero(%p: !hd.ptr<f32>, %t: tensor<128x!hd.ptr<f32>, #b1>) -> (!hd.ptr<f32>, tensor<128x!hd.ptr<f32>, #b1>) {
  %c0 = arith.constant 0 : i32
  %0 = hd.addptr %p, %c0 : !hd.ptr<f32>, i32
  %z = arith.constant dense<0> : tensor<128xi64, #b1>
  %1 = hd.addptr %t, %z : tensor<128x!hd.ptr<f32>, #b1>, tensor<128xi64, #b1>
  return %0, %1 : !hd.ptr<f32>, tensor<128x!hd.ptr<f32>, #b1>
}

// CHECK-LABEL: func.func @addptr_kept
// CHECK: hd.addptr
// CHECK: hd.addptr
func.func @addptr_kept(%p: !hd.ptr<f32>, %o: i32) -> (!hd.ptr<f32>, !hd.ptr<f32>) {
  %c1 = arith.constant 1 : i32
  %0 = hd.addptr %p, %c1 : !hd.ptr<f32>, i32
  %1 = hd.addptr %p, %o : !hd.ptr<f32>, i32
  return %0, %1 : !hd.ptr<f32>, !hd.ptr<f32>
}

// -----

#b1 = #hd.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>

// CHECK-LABEL: func.func @splat_of_constant
// CHECK-DAG: arith.constant dense<3> : tensor<128xi32, #blocked{{[0-9]*}}>
// CHECK-DAG: arith.constant dense<-1.500000e+00> : tensor<128xf16, #blocked{{[0-9]*}}>
// CHECK-NOT: hd.splat
// CHECK: return
func.func @splat_of_constant() -> (tensor<128xi32, #b1>, tensor<128xf16, #b1>) {
  %c3 = arith.constant 3 : i32
  %0 = hd.splat %c3 : tensor<128xi32, #b1>
  %h = arith.constant -1.5 : f16
  %1 = hd.splat %h : tensor<128xf16, #b1>
  return %0, %1 : tensor<128xi32, #b1>, tensor<128xf16, #b1>
}

// CHECK-LABEL: func.func @splat_kept
// CHECK: hd.splat
// CHECK: hd.splat
func.func @splat_kept(%s: i32, %p: !hd.ptr<f32>) -> (tensor<128xi32, #b1>, tensor<128x!hd.ptr<f32>, #b1>) {
  %0 = hd.splat %s : tensor<128xi32, #b1>
  %1 = hd.splat %p : tensor<128x!hd.ptr<f32>, #b1>
  return %0, %1 : tensor<128xi32, #b1>, tensor<128x!hd.ptr<f32>, #b1>
}
