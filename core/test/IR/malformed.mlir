// Bad input: each case must fail with a diagnostic that names its line,
// and none may crash (`not` fails on a crash).
// RUN: not hadron-opt %s -split-input-file 2>&1 | FileCheck %s

// CHECK: malformed.mlir:[[@LINE+1]]:{{[0-9]+}}: error:
garbage !!! %%%

// -----

// CHECK: malformed.mlir:[[@LINE+1]]:{{[0-9]+}}: error:
ELF

// -----

func.func @f() {
// CHECK: malformed.mlir:[[@LINE+1]]:{{[0-9]+}}: error: custom op 'hd.nonexistent' is unknown
  hd.nonexistent
  return
}

// -----

func.func @f() {
// CHECK: malformed.mlir:[[@LINE+1]]:{{[0-9]+}}: error: unregistered operation 'hd.nonexistent'
  "hd.nonexistent"() : () -> ()
  return
}

// -----

func.func @f() {
// CHECK: malformed.mlir:[[@LINE+1]]:{{[0-9]+}}: error:
  %0 = hd.program_id 0 %0
  return
}

// -----

// CHECK: malformed.mlir:[[@LINE+1]]:{{[0-9]+}}: error: unbalanced '<'
#b = #hd.blocked<

// -----

// CHECK: malformed.mlir:[[@LINE+1]]:{{[0-9]+}}: error: unbalanced '{'
#b = #hd.blocked<{sizePerThread = [1]

// -----

// CHECK: malformed.mlir:[[@LINE+1]]:{{[0-9]+}}: error:
#b = #hd.bogus<{}>

// -----

// CHECK: malformed.mlir:[[@LINE+1]]:{{[0-9]+}}: error:
func.func @f(%p: !hd.bogus<f32>)

// -----

// CHECK: malformed.mlir:[[@LINE+1]]:{{[0-9]+}}: error:
func.func @f(%p: !hd.ptr<f32

// -----

// CHECK: malformed.mlir:[[@LINE+1]]:{{[0-9]+}}: error: unknown address space `local`
func.func @f(%p: !hd.ptr<f32, local>)

// -----

// CHECK: malformed.mlir:[[@LINE+1]]:{{[0-9]+}}: error: #hd.blocked `sizePerThread` must hold non-negative 32-bit integers, got -1
#b = #hd.blocked<{sizePerThread = [-1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>

// -----

// CHECK: malformed.mlir:[[@LINE+1]]:{{[0-9]+}}: error: #hd.slice `dim` must be a non-negative 32-bit integer
#s = #hd.slice<{dim = -1, parent = #hd.auto}>

// -----

// CHECK: malformed.mlir:[[@LINE+1]]:{{[0-9]+}}: error: #hd.linear `register` basis entries must be non-negative int32, got -4
#l = #hd.linear<{register = [[-4]]}>

// -----

// CHECK: malformed.mlir:[[@LINE+1]]:{{[0-9]+}}: error: #hd.target `numWarps` must be a non-negative 32-bit integer
#t = #hd.target<{name = "t", arch = "a", warpSizes = [32], numWarps = -4, maxThreadsPerCTA = 1024, sharedMemoryBytes = 0}>

// -----

// CHECK: malformed.mlir:[[@LINE+1]]:{{[0-9]+}}: error: #hd.blocked `sizePerThread` must hold non-negative 32-bit integers, got 1099511627776
#b = #hd.blocked<{sizePerThread = [1099511627776], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>

// -----

// CHECK: malformed.mlir:[[@LINE+1]]:{{[0-9]+}}: error: #hd.blocked tile along dim 0 is 2^90 elements
#b = #hd.blocked<{sizePerThread = [1073741824], threadsPerWarp = [1073741824], warpsPerCTA = [1073741824], order = [0]}>

// -----

// CHECK: malformed.mlir:[[@LINE+1]]:{{[0-9]+}}: error: #hd.slice `dim` must be a non-negative 32-bit integer, got 1099511627776
#s = #hd.slice<{dim = 1099511627776, parent = #hd.auto}>

// -----

// CHECK: malformed.mlir:[[@LINE+1]]:{{[0-9]+}}: error: #hd.linear `register` basis entries must be non-negative int32, got 1099511627776
#l = #hd.linear<{register = [[1099511627776]]}>

// -----

// CHECK: malformed.mlir:[[@LINE+1]]:{{[0-9]+}}: error: #hd.linear basis 0 of in dim 'register' has entry 1073741824 for out dim 'dim0', outside [0, 1073741824)
#l = #hd.linear<{register = [[1073741824]]}>

// -----

// CHECK: malformed.mlir:[[@LINE+1]]:{{[0-9]+}}: error: #hd.target `numWarps` must be a non-negative 32-bit integer, got 1099511627776
#t = #hd.target<{name = "t", arch = "a", warpSizes = [32], numWarps = 1099511627776, maxThreadsPerCTA = 1024, sharedMemoryBytes = 0}>

// -----

// CHECK: malformed.mlir:[[@LINE+1]]:{{[0-9]+}}: error:
#t = #hd.target<{name = "t", arch = "a", warpSizes = [32], numWarps = 4, maxThreadsPerCTA = 1024, sharedMemoryBytes = 18446744073709551616}>

// -----

#b = #hd.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK: malformed.mlir:[[@LINE+1]]:{{[0-9]+}}: error: tensor dimension 0 is 1099511627776; a layout dim holds at most 2^30 elements
func.func @f(%t: tensor<1099511627776xf32, #b>)

// -----

#sw = #hd.swizzled<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
// CHECK: malformed.mlir:[[@LINE+1]]:{{[0-9]+}}: error: !hd.memdesc allocation dimension 1099511627776 is over the 2^30 elements a layout dim holds
func.func @f(%m: !hd.memdesc<1099511627776xf32, #sw>)

// -----

#b = #hd.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
func.func @f() {
// CHECK: malformed.mlir:[[@LINE+1]]:{{[0-9]+}}: error: integer constant out of range
  %0 = hd.program_id 99999999999999999999
  return
}

// -----

#l = #hd.linear<{register = [[1]], lane = [[2]]}>
// CHECK: malformed.mlir:[[@LINE+1]]:{{[0-9]+}}: error: layout #hd.linear<{{.*}}> cannot hold a tensor of shape [8]: #hd.linear covers 4 elements along dim 0, the tensor has 8
func.func @f(%t: tensor<8xf32, #l>)

// -----

// CHECK: malformed.mlir:[[@LINE+1]]:{{[0-9]+}}: error: #hd.linear basis of `lane` has 1 entries; the layout has rank 2
#l = #hd.linear<{register = [[1, 0]], lane = [[2]]}>

// -----

// CHECK: malformed.mlir:[[@LINE+1]]:{{[0-9]+}}: error: #hd.shared_linear layout is not surjective
#s = #hd.shared_linear<{offset = [[1], [4]]}>

// -----

#b = #hd.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK: malformed.mlir:[[@LINE+1]]:{{[0-9]+}}: error: tensor dimension 0 is 100; tiles with a layout need power-of-two dimensions
func.func @f(%t: tensor<100xf32, #b>)

// -----

#b = #hd.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
func.func @f() {
// CHECK: malformed.mlir:[[@LINE+1]]:{{[0-9]+}}: error: tensor dimension 0 is 100
  %0 = hd.arange 0 to 100 : tensor<100xi32, #b>
  return
}

// -----

#sw = #hd.swizzled<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
// CHECK: malformed.mlir:[[@LINE+1]]:{{[0-9]+}}: error: !hd.memdesc allocation dimensions must be powers of two, got 3
func.func @f(%m: !hd.memdesc<3xf32, #sw>)

// -----

#b = #hd.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK: malformed.mlir:[[@LINE+1]]:{{[0-9]+}}: error: tensor dimension 0 is
func.func @f(%t: tensor<?xf32, #b>)

// -----

#b = #hd.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK: malformed.mlir:[[@LINE+1]]:{{[0-9]+}}: error: tensor dimension 0 is 0
func.func @f(%t: tensor<0xf32, #b>)

// -----

#b = #hd.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK: malformed.mlir:[[@LINE+1]]:{{[0-9]+}}: error: layout #hd.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}> has rank 1 but the tensor has rank 2
func.func @f(%t: tensor<4x4xf32, #b>)

// -----

#b = #hd.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK: malformed.mlir:[[@LINE+1]]:{{[0-9]+}}: error: layout {{.*}} has rank 1 but the tensor has rank 0
func.func @f(%t: tensor<f32, #b>)

// -----

#sw = #hd.swizzled<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
// CHECK: malformed.mlir:[[@LINE+1]]:{{[0-9]+}}: error: shared layout #hd.swizzled<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}> has rank 2 but the tile has rank 1
func.func @f(%m: !hd.memdesc<16xf32, #sw>)

// -----

#sw = #hd.swizzled<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
// CHECK: malformed.mlir:[[@LINE+1]]:{{[0-9]+}}: error:
func.func @f(%m: !hd.memdesc<4xf32, #sw, alloc = >)

// -----

func.func @f(%p: !hd.ptr<f32>) {
// CHECK: malformed.mlir:[[@LINE+1]]:{{[0-9]+}}: error:
  %0 = hd.load %p {cache = #hd.cache<bogus>} : !hd.ptr<f32>
  return
}

// -----

func.func @f(%t: tensor<4xf32>) {
  %0 = hd.reduce(%t) axis = 0 : (tensor<4xf32>) -> f32 {
  ^bb0(%a: f32, %b: f32):
// CHECK: malformed.mlir:[[@LINE+1]]:{{[0-9]+}}: error: block with no terminator
    %r = arith.addf %a, %b : f32
  }
  return
}

// -----

func.func @f(%t: tensor<4xf32>) {
// CHECK: malformed.mlir:[[@LINE+1]]:{{[0-9]+}}: error: 'hd.reduce' op expects a non-empty block
  %0 = hd.reduce(%t) axis = 0 : (tensor<4xf32>) -> f32 {
  }
  return
}

// -----

// CHECK: malformed.mlir:[[@LINE+1]]:{{[0-9]+}}: error:
func.func @f(
