// Every error of the hd ops' verifiers, and some of the ODS type constraints.
// RUN: hadron-opt %s -split-input-file -verify-diagnostics -allow-unregistered-dialect

// ODS: grid axes are 0, 1 and 2.
func.func @f() {
  // expected-error @+1 {{attribute 'axis' failed to satisfy constraint}}
  %0 = hd.program_id 3
  return
}

// -----

// ODS: a mask holds i1.
#b1 = #hd.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
func.func @f(%p: tensor<128x!hd.ptr<f32>, #b1>, %m: tensor<128xi32, #b1>) {
  // expected-error @+1 {{operand #1 must be 1-bit signless integer or ranked tensor of 1-bit signless integer values}}
  %0 = "hd.load"(%p, %m) {operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<128x!hd.ptr<f32>, #b1>, tensor<128xi32, #b1>) -> tensor<128xf32, #b1>
  return
}

// -----

// ODS: the mask has the shape of the pointers.
#b1 = #hd.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
func.func @f(%p: tensor<128x!hd.ptr<f32>, #b1>, %v: tensor<128xf32, #b1>, %m: tensor<64xi1, #b1>) {
  // expected-error @+1 {{failed to verify that mask has the shape of the pointers, with i1 elements}}
  "hd.store"(%p, %v, %m) : (tensor<128x!hd.ptr<f32>, #b1>, tensor<128xf32, #b1>, tensor<64xi1, #b1>) -> ()
  return
}

// -----

// ODS: the stored value has the pointee type.
#b1 = #hd.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
func.func @f(%p: tensor<128x!hd.ptr<f32>, #b1>, %v: tensor<128xf16, #b1>) {
  // expected-error @+1 {{failed to verify that value type matches the pointee type of the pointers}}
  "hd.store"(%p, %v) : (tensor<128x!hd.ptr<f32>, #b1>, tensor<128xf16, #b1>) -> ()
  return
}

// -----

// ODS: cmp, val and the result share a type.
func.func @f(%p: !hd.ptr<i32>, %v: i32, %w: i64) {
  // expected-error @+1 {{failed to verify that all of {result, cmp, val} have same type}}
  %0 = "hd.atomic_cas"(%p, %v, %w) : (!hd.ptr<i32>, i32, i64) -> i32
  return
}

// -----

// ODS: a splat keeps the element type.
#b1 = #hd.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
func.func @f(%s: f32) {
  // expected-error @+1 {{failed to verify that result element type matches the scalar}}
  %0 = "hd.splat"(%s) : (f32) -> tensor<128xi32, #b1>
  return
}

// -----

// ODS: pointer offsets are integers.
func.func @f(%p: !hd.ptr<f32>, %o: f32) {
  // expected-error @+1 {{operand #1 must be integer or ranked tensor of integer values}}
  %0 = "hd.addptr"(%p, %o) : (!hd.ptr<f32>, f32) -> !hd.ptr<f32>
  return
}

// -----

// ODS: local_alloc returns a memory descriptor.
#b1 = #hd.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
func.func @f(%t: tensor<128xf32, #b1>) {
  // expected-error @+1 {{result #0 must be}}
  %0 = "hd.local_alloc"(%t) : (tensor<128xf32, #b1>) -> tensor<128xf32, #b1>
  return
}

// -----

func.func @f() {
  // expected-error @+1 {{produces a 1-D tensor, not rank 2}}
  %0 = hd.arange 0 to 16 : tensor<4x4xi32>
  return
}

// -----

func.func @f() {
  // expected-error @+1 {{end 4 must be greater than start 4}}
  %0 = hd.arange 4 to 4 : tensor<1xi32>
  return
}

// -----

#b1 = #hd.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
func.func @f() {
  // expected-error @+1 {{range [0, 64) has 64 elements but the result has 128}}
  %0 = hd.arange 0 to 64 : tensor<128xi32, #b1>
  return
}

// -----

#b2 = #hd.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#b2c = #hd.blocked<{sizePerThread = [4, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
func.func @f(%t: tensor<32x1xf32, #b2>) {
  // expected-error @+1 {{keeps the layout: operand has}}
  %0 = hd.broadcast %t : tensor<32x1xf32, #b2> -> tensor<32x32xf32, #b2c>
  return
}

// -----

func.func @f(%t: tensor<32xf32>) {
  // expected-error @+1 {{keeps the rank: operand has rank 1, result 2 (use expand_dims first)}}
  %0 = hd.broadcast %t : tensor<32xf32> -> tensor<32x32xf32>
  return
}

// -----

#b2 = #hd.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
func.func @f(%t: tensor<32x2xf32, #b2>) {
  // expected-error @+1 {{cannot broadcast dimension 1 from 2 to 32; only dimensions of size 1 broadcast}}
  %0 = hd.broadcast %t : tensor<32x2xf32, #b2> -> tensor<32x32xf32, #b2>
  return
}

// -----

#b2 = #hd.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
func.func @f(%t: tensor<32xf32, #hd.slice<{dim = 1, parent = #b2}>>) {
  // expected-error @+2 {{hd.expand_dims axis 3 is out of range for a tensor of rank 1}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = hd.expand_dims %t axis = 3 : tensor<32xf32, #hd.slice<{dim = 1, parent = #b2}>> -> tensor<32x1xf32, #b2>
  return
}

// -----

#b2 = #hd.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
func.func @f(%t: tensor<32xf32, #hd.slice<{dim = 1, parent = #b2}>>) {
  // expected-error @+2 {{hd.expand_dims along axis 0 needs an operand layout sliced along dim 0, got #hd.slice<{dim = 1}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = hd.expand_dims %t axis = 0 : tensor<32xf32, #hd.slice<{dim = 1, parent = #b2}>> -> tensor<1x32xf32, #b2>
  return
}

// -----

#b1 = #hd.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
func.func @f(%t: tensor<128xf32, #b1>) {
  // expected-error @+2 {{hd.expand_dims along axis 0 needs an operand layout #hd.slice<{dim = 0, ...}>, got #hd.blocked}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = hd.expand_dims %t axis = 0 : tensor<128xf32, #b1> -> tensor<1x128xf32>
  return
}

// -----

// A tensor encoding that is no hd layout (this used to crash).
func.func @f(%t: tensor<4xf32, 1 : i32>) {
  // expected-error @+2 {{hd.expand_dims along axis 0 needs an operand layout #hd.slice<{dim = 0, ...}>, got 1 : i32}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = hd.expand_dims %t axis = 0 : tensor<4xf32, 1 : i32> -> tensor<1x4xf32, 1 : i32>
  return
}

// -----

// The result type is the inferred one.
#b2 = #hd.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
func.func @f(%t: tensor<32xf32, #hd.slice<{dim = 1, parent = #b2}>>) {
  // expected-error @+2 {{inferred type(s) 'tensor<32x1xf32, #hd.blocked}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = hd.expand_dims %t axis = 1 : tensor<32xf32, #hd.slice<{dim = 1, parent = #b2}>> -> tensor<1x32xf32, #b2>
  return
}

// -----

func.func @f(%t: tensor<32x32xf32>) {
  // expected-error @+1 {{operand has 1024 elements, result 512}}
  %0 = hd.reshape %t : tensor<32x32xf32> -> tensor<512xf32>
  return
}

// -----

func.func @f(%t: tensor<32x16xf32>) {
  // expected-error @+1 {{order [1, 1] is not a permutation of [0, 2)}}
  %0 = hd.permute %t, [1, 1] : tensor<32x16xf32> -> tensor<16x32xf32>
  return
}

// -----

func.func @f(%t: tensor<32x16xf32>) {
  // expected-error @+1 {{result dimension 0 is 32 but operand dimension 1 is 16}}
  %0 = hd.permute %t, [1, 0] : tensor<32x16xf32> -> tensor<32x16xf32>
  return
}

// -----

// A result of another rank (this used to read past the result shape).
func.func @f(%t: tensor<32x16xf32>) {
  // expected-error @+1 {{keeps the rank: operand has rank 2, result 1}}
  %0 = hd.permute %t, [1, 0] : tensor<32x16xf32> -> tensor<16xf32>
  return
}

// -----

func.func @f(%t: tensor<32xf32>) {
  // expected-error @+1 {{result shape must be [32, 2] (operand shape plus a minor dimension of 2), got [2, 32]}}
  %0 = hd.join %t, %t : tensor<32xf32> -> tensor<2x32xf32>
  return
}

// -----

func.func @f(%t: tensor<32xf32>) {
  // expected-error @+1 {{result element type differs from the operands'}}
  %0 = "hd.join"(%t, %t) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32x2xf16>
  return
}

// -----

func.func @f(%t: tensor<32x4xf32>) {
  // expected-error @+1 {{splits a minor dimension of size 2; operand shape is [32, 4]}}
  %0:2 = hd.split %t : tensor<32x4xf32> -> tensor<32xf32>, tensor<32xf32>
  return
}

// -----

func.func @f(%t: tensor<32x2xf32>) {
  // expected-error @+1 {{results must have one type, got 'tensor<32xf32>' and 'tensor<32xf16>'}}
  %0:2 = hd.split %t : tensor<32x2xf32> -> tensor<32xf32>, tensor<32xf16>
  return
}

// -----

func.func @f(%t: tensor<32x2xf32>) {
  // expected-error @+1 {{result shape must be [32], got [16]}}
  %0:2 = hd.split %t : tensor<32x2xf32> -> tensor<16xf32>, tensor<16xf32>
  return
}

// -----

func.func @f(%t: tensor<32x2xf32>) {
  // expected-error @+1 {{result element type differs from the operand's}}
  %0:2 = hd.split %t : tensor<32x2xf32> -> tensor<32xf16>, tensor<32xf16>
  return
}

// -----

#b1 = #hd.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
func.func @f(%p: tensor<128x!hd.ptr<f32, shared>, #b1>) {
  // expected-error @+1 {{accesses global memory but the pointer '!hd.ptr<f32, shared>' is in shared memory; use local_load/local_store}}
  %0 = hd.load %p : tensor<128x!hd.ptr<f32, shared>, #b1>
  return
}

// -----

func.func @f(%p: !hd.ptr<f32, shared>, %v: f32) {
  // expected-error @+1 {{accesses global memory but the pointer}}
  hd.store %p, %v : !hd.ptr<f32, shared>
  return
}

// -----

// other without mask. With i1 elements the ODS mask check, which then looks at
// `other`, passes and the verifier's own check is reached.
func.func @f(%p: !hd.ptr<i1>, %o: i1) {
  // expected-error @+1 {{has `other` without a `mask`; other fills masked-off lanes}}
  %0 = "hd.load"(%p, %o) {operandSegmentSizes = array<i32: 1, 0, 1>} : (!hd.ptr<i1>, i1) -> i1
  return
}

// -----

func.func @f(%p: !hd.ptr<i32>, %v: i32) {
  // expected-error @+1 {{fadd needs floats, got 'i32'}}
  %0 = hd.atomic_rmw fadd, %p, %v : !hd.ptr<i32> -> i32
  return
}

// -----

func.func @f(%p: !hd.ptr<f32>, %v: f32) {
  // expected-error @+1 {{max needs integers, got 'f32' (use fmax for floats where it exists)}}
  %0 = hd.atomic_rmw max, %p, %v : !hd.ptr<f32> -> f32
  return
}

// -----

func.func @f(%p: !hd.ptr<!hd.ptr<f32>>, %v: !hd.ptr<f32>) {
  // expected-error @+1 {{xchg needs integers or floats, got '!hd.ptr<f32>'}}
  %0 = hd.atomic_rmw xchg, %p, %v : !hd.ptr<!hd.ptr<f32>> -> !hd.ptr<f32>
  return
}

// -----

func.func @f(%p: !hd.ptr<i8>, %v: i8) {
  // expected-error @+1 {{atomics are 16, 32 or 64 bits wide, got 'i8'}}
  %0 = hd.atomic_rmw add, %p, %v : !hd.ptr<i8> -> i8
  return
}

// -----

func.func @f(%p: !hd.ptr<i32, shared>, %v: i32) {
  // expected-error @+1 {{accesses global memory but the pointer}}
  %0 = hd.atomic_rmw add, %p, %v : !hd.ptr<i32, shared> -> i32
  return
}

// -----

func.func @f(%p: !hd.ptr<i1>, %v: i1) {
  // expected-error @+1 {{compare-and-swap is 16, 32 or 64 bits wide, got 'i1'}}
  %0 = hd.atomic_cas %p, %v, %v : !hd.ptr<i1> -> i1
  return
}

// -----

// Pointers are not compared-and-swapped (this used to crash).
func.func @f(%p: !hd.ptr<!hd.ptr<f32>>, %v: !hd.ptr<f32>) {
  // expected-error @+1 {{compare-and-swap needs integers or floats, got '!hd.ptr<f32>'}}
  %0 = hd.atomic_cas %p, %v, %v : !hd.ptr<!hd.ptr<f32>> -> !hd.ptr<f32>
  return
}

// -----

func.func @f(%p: !hd.ptr<i32, shared>, %v: i32) {
  // expected-error @+1 {{accesses global memory but the pointer}}
  %0 = hd.atomic_cas %p, %v, %v : !hd.ptr<i32, shared> -> i32
  return
}

// -----

func.func @f() {
  // expected-error @+1 {{needs at least one operand}}
  hd.reduce() axis = 0 : () -> () {
  ^bb0:
    hd.yield
  }
  return
}

// -----

func.func @f(%t: tensor<32x32xf32>, %u: tensor<32x16xf32>) {
  // expected-error @+1 {{operand #1 of type 'tensor<32x16xf32>' differs in shape or layout from operand #0}}
  %0:2 = hd.scan(%t, %u) axis = 0 reverse = false : (tensor<32x32xf32>, tensor<32x16xf32>) -> (tensor<32x32xf32>, tensor<32x16xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32, %d: f32):
    hd.yield %a, %b : f32, f32
  }
  return
}

// -----

func.func @f(%t: tensor<32x32xf32>) {
  // expected-error @+2 {{hd.reduce axis 2 is out of range for rank 2}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = hd.reduce(%t) axis = 2 : (tensor<32x32xf32>) -> tensor<32xf32> {
  ^bb0(%a: f32, %b: f32):
    hd.yield %a : f32
  }
  return
}

// -----

func.func @f(%t: tensor<32x32xf32>) {
  // expected-error @+1 {{is out of range for rank 2}}
  %0 = hd.scan(%t) axis = -1 reverse = false : (tensor<32x32xf32>) -> tensor<32x32xf32> {
  ^bb0(%a: f32, %b: f32):
    hd.yield %a : f32
  }
  return
}

// -----

func.func @f(%t: tensor<32x32xf32>) {
  // expected-error @+1 {{combine region takes 2 arguments (accumulators then values), got 1}}
  %0 = hd.reduce(%t) axis = 0 : (tensor<32x32xf32>) -> tensor<32xf32> {
  ^bb0(%a: f32):
    hd.yield %a : f32
  }
  return
}

// -----

func.func @f(%t: tensor<32x32xf32>) {
  // expected-error @+1 {{combine region argument #1 is 'f16', expected 'f32'}}
  %0 = hd.reduce(%t) axis = 0 : (tensor<32x32xf32>) -> tensor<32xf32> {
  ^bb0(%a: f32, %b: f16):
    hd.yield %a : f32
  }
  return
}

// -----

func.func @f(%t: tensor<32x32xf32>) {
  // expected-error @+1 {{combine region yields 2 values, expected 1}}
  %0 = hd.reduce(%t) axis = 0 : (tensor<32x32xf32>) -> tensor<32xf32> {
  ^bb0(%a: f32, %b: f32):
    hd.yield %a, %b : f32, f32
  }
  return
}

// -----

func.func @f(%t: tensor<32x32xf32>) {
  // expected-error @+1 {{combine region yields 'i32' at #0, expected 'f32'}}
  %0 = hd.reduce(%t) axis = 0 : (tensor<32x32xf32>) -> tensor<32xf32> {
  ^bb0(%a: f32, %b: f32):
    %c = arith.constant 0 : i32
    hd.yield %c : i32
  }
  return
}

// -----

// A terminator other than hd.yield (an unregistered op may be one).
func.func @f(%t: tensor<32x32xf32>) {
  // expected-error @+1 {{combine region must end with hd.yield}}
  %0 = hd.reduce(%t) axis = 0 : (tensor<32x32xf32>) -> tensor<32xf32> {
  ^bb0(%a: f32, %b: f32):
    "test.terminator"() : () -> ()
  }
  return
}

// -----

func.func @f(%t: tensor<32x32xf32>) {
  // expected-error @+2 {{inferred type(s) 'tensor<32xf32>' are incompatible with return type(s) of operation 'tensor<16xf32>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = hd.reduce(%t) axis = 0 : (tensor<32x32xf32>) -> tensor<16xf32> {
  ^bb0(%a: f32, %b: f32):
    hd.yield %a : f32
  }
  return
}

// -----

func.func @f(%t: tensor<32x32xf32>) {
  // expected-error @+1 {{has 2 results for 1 operands}}
  %0:2 = hd.scan(%t) axis = 0 reverse = true : (tensor<32x32xf32>) -> (tensor<32x32xf32>, tensor<32x32xf32>) {
  ^bb0(%a: f32, %b: f32):
    hd.yield %a : f32
  }
  return
}

// -----

func.func @f(%t: tensor<32x32xf32>) {
  // expected-error @+1 {{result #0 has type 'tensor<32x32xf16>', expected its operand's 'tensor<32x32xf32>'}}
  %0 = hd.scan(%t) axis = 0 reverse = true : (tensor<32x32xf32>) -> tensor<32x32xf16> {
  ^bb0(%a: f32, %b: f32):
    hd.yield %a : f32
  }
  return
}

// -----

#sw = #hd.swizzled<{vec = 4, perPhase = 1, maxPhase = 8, order = [1, 0]}>
func.func @f() {
  // expected-error @+1 {{allocates a whole tile; '!hd.memdesc<16x32xf32, #hd.swizzled}}
  %0 = hd.local_alloc -> !hd.memdesc<16x32xf32, #sw, alloc = 32x32>
  return
}

// -----

#b2 = #hd.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#sw = #hd.swizzled<{vec = 4, perPhase = 1, maxPhase = 8, order = [1, 0]}>
func.func @f(%t: tensor<32x16xf32, #b2>) {
  // expected-error @+1 {{initial value shape [32, 16] differs from the shared tile's [32, 32]}}
  %0 = hd.local_alloc %t : tensor<32x16xf32, #b2> -> !hd.memdesc<32x32xf32, #sw>
  return
}

// -----

#b2 = #hd.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#sw = #hd.swizzled<{vec = 4, perPhase = 1, maxPhase = 8, order = [1, 0]}>
func.func @f(%t: tensor<32x32xf16, #b2>) {
  // expected-error @+1 {{initial value element type 'f16' differs from the shared tile's 'f32'}}
  %0 = hd.local_alloc %t : tensor<32x32xf16, #b2> -> !hd.memdesc<32x32xf32, #sw>
  return
}

// -----

#b2 = #hd.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#sw = #hd.swizzled<{vec = 4, perPhase = 1, maxPhase = 8, order = [1, 0]}>
func.func @f(%m: !hd.memdesc<32x32xf32, #sw>) {
  // expected-error @+1 {{result shape [32, 16] differs from the shared tile's [32, 32]}}
  %0 = hd.local_load %m : !hd.memdesc<32x32xf32, #sw> -> tensor<32x16xf32, #b2>
  return
}

// -----

#b2 = #hd.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#sw = #hd.swizzled<{vec = 4, perPhase = 1, maxPhase = 8, order = [1, 0]}>
func.func @f(%m: !hd.memdesc<32x32xf32, #sw>, %t: tensor<32x32xi32, #b2>) {
  // expected-error @+1 {{stored value element type 'i32' differs from the shared tile's 'f32'}}
  hd.local_store %t, %m : tensor<32x32xi32, #b2> -> !hd.memdesc<32x32xf32, #sw>
  return
}

// -----

#sw = #hd.swizzled<{vec = 4, perPhase = 1, maxPhase = 8, order = [1, 0]}>
func.func @f(%m: !hd.memdesc<32x32xf32, #sw>) {
  // expected-error @+1 {{must keep the element type, layout and allocation of}}
  %0 = hd.memdesc_slice %m [0, 0] : !hd.memdesc<32x32xf32, #sw> -> !hd.memdesc<16x32xf16, #sw, alloc = 32x32>
  return
}

// -----

#sw = #hd.swizzled<{vec = 4, perPhase = 1, maxPhase = 8, order = [1, 0]}>
func.func @f(%m: !hd.memdesc<32x32xf32, #sw>) {
  // expected-error @+1 {{needs one offset per dimension of}}
  %0 = hd.memdesc_slice %m [0] : !hd.memdesc<32x32xf32, #sw> -> !hd.memdesc<16x32xf32, #sw, alloc = 32x32>
  return
}

// -----

#sw = #hd.swizzled<{vec = 4, perPhase = 1, maxPhase = 8, order = [1, 0]}>
func.func @f(%m: !hd.memdesc<32x32xf32, #sw>) {
  // expected-error @+1 {{slice of size 16 at offset 32 of dimension 0 is outside [0, 32)}}
  %0 = hd.memdesc_slice %m [32, 0] : !hd.memdesc<32x32xf32, #sw> -> !hd.memdesc<16x32xf32, #sw, alloc = 32x32>
  return
}

// -----

// An offset whose end overflows int64 (this used to be accepted).
#sw = #hd.swizzled<{vec = 4, perPhase = 1, maxPhase = 8, order = [1, 0]}>
func.func @f(%m: !hd.memdesc<32x32xf32, #sw>) {
  // expected-error @+1 {{of dimension 0 is outside [0, 32)}}
  %0 = hd.memdesc_slice %m [9223372036854775806, 0] : !hd.memdesc<32x32xf32, #sw> -> !hd.memdesc<16x32xf32, #sw, alloc = 32x32>
  return
}

// -----

#sw = #hd.swizzled<{vec = 4, perPhase = 1, maxPhase = 8, order = [1, 0]}>
func.func @f(%m: !hd.memdesc<32x32xf32, #sw>) {
  // expected-error @+1 {{offset 8 of dimension 0 must be a multiple of the slice size 16}}
  %0 = hd.memdesc_slice %m [8, 0] : !hd.memdesc<32x32xf32, #sw> -> !hd.memdesc<16x32xf32, #sw, alloc = 32x32>
  return
}

// -----

#sw1 = #hd.swizzled<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
func.func @f(%m: !hd.memdesc<32xf32, #sw1>, %i: i32) {
  // expected-error @+1 {{indexes the leading dimension of a tile of rank >= 2}}
  %0 = hd.memdesc_index %m[%i] : !hd.memdesc<32xf32, #sw1> -> !hd.memdesc<32xf32, #sw1>
  return
}

// -----

#sw3 = #hd.swizzled<{vec = 4, perPhase = 1, maxPhase = 8, order = [2, 1, 0]}>
func.func @f(%m: !hd.memdesc<2x32x32xf32, #sw3>, %i: i32) {
  // expected-error @+1 {{result shape must be [32, 32], got [16, 32]}}
  %0 = hd.memdesc_index %m[%i] : !hd.memdesc<2x32x32xf32, #sw3> -> !hd.memdesc<16x32xf32, #sw3, alloc = 2x32x32>
  return
}

// -----

#sw3 = #hd.swizzled<{vec = 4, perPhase = 1, maxPhase = 8, order = [2, 1, 0]}>
func.func @f(%m: !hd.memdesc<2x32x32xf32, #sw3>, %i: i32) {
  // expected-error @+1 {{must keep the element type, layout and allocation of}}
  %0 = hd.memdesc_index %m[%i] : !hd.memdesc<2x32x32xf32, #sw3> -> !hd.memdesc<32x32xf32, #sw3, alloc = 4x32x32>
  return
}

// -----

#sw = #hd.swizzled<{vec = 4, perPhase = 1, maxPhase = 8, order = [1, 0]}>
func.func @f(%m: !hd.memdesc<32x16xf32, #sw>) {
  // expected-error @+1 {{order [0, 0] is not a permutation of [0, 2)}}
  %0 = hd.memdesc_permute %m, [0, 0] : !hd.memdesc<32x16xf32, #sw> -> !hd.memdesc<32x16xf32, #sw>
  return
}

// -----

#sw = #hd.swizzled<{vec = 4, perPhase = 1, maxPhase = 8, order = [1, 0]}>
func.func @f(%m: !hd.memdesc<32x16xf32, #sw>) {
  // expected-error @+1 {{result dimension 0 is 32 but operand dimension 1 is 16}}
  %0 = hd.memdesc_permute %m, [1, 0] : !hd.memdesc<32x16xf32, #sw> -> !hd.memdesc<32x16xf32, #sw>
  return
}

// -----

// A result of another rank (this used to read past the result shape).
#sw = #hd.swizzled<{vec = 4, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#sw1 = #hd.swizzled<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
func.func @f(%m: !hd.memdesc<32x16xf32, #sw>) {
  // expected-error @+1 {{keeps the rank: operand has rank 2, result 1}}
  %0 = hd.memdesc_permute %m, [1, 0] : !hd.memdesc<32x16xf32, #sw> -> !hd.memdesc<16xf32, #sw1>
  return
}

// -----

#sw = #hd.swizzled<{vec = 4, perPhase = 1, maxPhase = 8, order = [1, 0]}>
func.func @f(%m: !hd.memdesc<32x16xf32, #sw>) {
  // expected-error @+1 {{keeps the element type}}
  %0 = hd.memdesc_permute %m, [1, 0] : !hd.memdesc<32x16xf32, #sw> -> !hd.memdesc<16x32xf16, #sw>
  return
}

// -----

#b2 = #hd.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#sw = #hd.swizzled<{vec = 4, perPhase = 1, maxPhase = 8, order = [1, 0]}>
func.func @f(%p: tensor<32x16x!hd.ptr<f32>, #b2>, %m: !hd.memdesc<32x32xf32, #sw>) {
  // expected-error @+1 {{copies [32, 16] elements into a [32, 32] tile}}
  %0 = hd.async_copy %p, %m : tensor<32x16x!hd.ptr<f32>, #b2> -> !hd.memdesc<32x32xf32, #sw>
  return
}

// -----

#b2 = #hd.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#sw = #hd.swizzled<{vec = 4, perPhase = 1, maxPhase = 8, order = [1, 0]}>
func.func @f(%p: tensor<32x32x!hd.ptr<f16>, #b2>, %m: !hd.memdesc<32x32xf32, #sw>) {
  // expected-error @+1 {{copies 'f16' into a tile of 'f32'}}
  %0 = hd.async_copy %p, %m : tensor<32x32x!hd.ptr<f16>, #b2> -> !hd.memdesc<32x32xf32, #sw>
  return
}

// -----

#b2 = #hd.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#sw = #hd.swizzled<{vec = 4, perPhase = 1, maxPhase = 8, order = [1, 0]}>
func.func @f(%p: tensor<32x32x!hd.ptr<f32, shared>, #b2>, %m: !hd.memdesc<32x32xf32, #sw>) {
  // expected-error @+1 {{accesses global memory but the pointer}}
  %0 = hd.async_copy %p, %m : tensor<32x32x!hd.ptr<f32, shared>, #b2> -> !hd.memdesc<32x32xf32, #sw>
  return
}

// -----

// other without mask; an i1 `other` slips through the type checks, which compare the mask slot with whatever comes next.
#b2 = #hd.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#sw = #hd.swizzled<{vec = 4, perPhase = 1, maxPhase = 8, order = [1, 0]}>
func.func @f(%p: tensor<32x32x!hd.ptr<f32>, #b2>, %m: !hd.memdesc<32x32xf32, #sw>, %o: tensor<32x32xi1, #b2>) {
  // expected-error @+1 {{has `other` without a `mask`}}
  %0 = "hd.async_copy"(%p, %m, %o) {operandSegmentSizes = array<i32: 1, 1, 0, 1>} : (tensor<32x32x!hd.ptr<f32>, #b2>, !hd.memdesc<32x32xf32, #sw>, tensor<32x32xi1, #b2>) -> !hd.async_token
  return
}

// -----

func.func @f(%a: tensor<16xf16>, %c: tensor<16xf32>) {
  // expected-error @+1 {{needs rank 2 (or 3 with a batch dimension), got 1}}
  %0 = hd.dot %a, %a, %c : tensor<16xf16> * tensor<16xf16> -> tensor<16xf32>
  return
}

// -----

func.func @f(%a: tensor<2x16x16xf16>, %b: tensor<16x16xf16>, %c: tensor<16x16xf32>) {
  // expected-error @+1 {{operands and accumulator must have one rank}}
  %0 = hd.dot %a, %b, %c : tensor<2x16x16xf16> * tensor<16x16xf16> -> tensor<16x16xf32>
  return
}

// -----

func.func @f(%a: tensor<16x8xf16>, %b: tensor<16x16xf16>, %c: tensor<16x16xf32>) {
  // expected-error @+1 {{shapes do not compose: a [16, 8] * b [16, 16] -> acc [16, 16]}}
  %0 = hd.dot %a, %b, %c : tensor<16x8xf16> * tensor<16x16xf16> -> tensor<16x16xf32>
  return
}

// -----

func.func @f(%a: tensor<2x16x16xf16>, %b: tensor<4x16x16xf16>, %c: tensor<2x16x16xf32>) {
  // expected-error @+1 {{shapes do not compose: a [2, 16, 16] * b [4, 16, 16]}}
  %0 = hd.dot %a, %b, %c : tensor<2x16x16xf16> * tensor<4x16x16xf16> -> tensor<2x16x16xf32>
  return
}

// -----

func.func @f(%a: tensor<16x16xf16>, %b: tensor<16x16xbf16>, %c: tensor<16x16xf32>) {
  // expected-error @+1 {{operands must share an element type, got 'f16' and 'bf16'}}
  %0 = hd.dot %a, %b, %c : tensor<16x16xf16> * tensor<16x16xbf16> -> tensor<16x16xf32>
  return
}

// -----

func.func @f(%a: tensor<16x16xi8>, %c: tensor<16x16xf32>) {
  // expected-error @+1 {{does not multiply 'i8' into 'f32' (f16->f16/f32, bf16->bf16/f32, f32->f32, f64->f64, i8->i32)}}
  %0 = hd.dot %a, %a, %c : tensor<16x16xi8> * tensor<16x16xi8> -> tensor<16x16xf32>
  return
}

// -----

func.func @f(%a: tensor<16x16xf16>, %c: tensor<16x16xf32>) {
  // expected-error @+1 {{tf32 input precision applies to f32 operands only}}
  %0 = hd.dot %a, %a, %c {inputPrecision = #hd.precision<tf32>} : tensor<16x16xf16> * tensor<16x16xf16> -> tensor<16x16xf32>
  return
}

// -----

#b2 = #hd.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#opb = #hd.dot_op<{opIdx = 1, parent = #b2}>
func.func @f(%a: tensor<32x16xf16, #b2>, %b: tensor<16x32xf16, #opb>, %c: tensor<32x32xf32, #b2>) {
  // expected-error @+1 {{operand a has layout #hd.blocked}}
  %0 = hd.dot %a, %b, %c : tensor<32x16xf16, #b2> * tensor<16x32xf16, #opb> -> tensor<32x32xf32, #b2>
  return
}

// -----

#b2 = #hd.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#opa = #hd.dot_op<{opIdx = 0, parent = #b2}>
func.func @f(%a: tensor<32x16xf16, #opa>, %b: tensor<16x32xf16, #opa>, %c: tensor<32x32xf32, #b2>) {
  // expected-error @+1 {{operand b has layout #hd.dot_op<{opIdx = 0}}
  %0 = hd.dot %a, %b, %c : tensor<32x16xf16, #opa> * tensor<16x32xf16, #opa> -> tensor<32x32xf32, #b2>
  return
}

// -----

func.func @f(%t: tensor<32x32xi32>) {
  // expected-error @+1 {{needs 2 divisor(s), one per dimension, got 1}}
  %0 = hd.multiple_of %t, [16] : tensor<32x32xi32>
  return
}

// -----

func.func @f(%s: i32) {
  // expected-error @+1 {{divisor 0 must be positive}}
  %0 = hd.multiple_of %s, [0] : i32
  return
}

// -----

func.func @f(%s: f32) {
  // expected-error @+1 {{applies to integers or pointers, not 'f32'}}
  %0 = hd.multiple_of %s, [4] : f32
  return
}

// -----

// Tensor copies: one coordinate per block dim.
#m = #hd.matrix_shared<{swizzle = 128, elementBits = 16, transposed = false}>
#bs = #hd.swizzled<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
func.func @f(%d: !hd.tensor_desc<64x64xbf16, #m>, %bar: !hd.memdesc<1xi64, #bs>, %dst: !hd.memdesc<64x64xbf16, #m>, %x: i32) {
  // expected-error @+1 {{gives 1 coordinates for a descriptor of 2 dims}}
  hd.async_tensor_copy %d[%x], %bar, %dst : !hd.tensor_desc<64x64xbf16, #m>, !hd.memdesc<1xi64, #bs> -> !hd.memdesc<64x64xbf16, #m>
  return
}

// -----

#m = #hd.matrix_shared<{swizzle = 128, elementBits = 16, transposed = false}>
#bs = #hd.swizzled<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
func.func @f(%d: !hd.tensor_desc<64x64xbf16, #m>, %bar: !hd.memdesc<1xi64, #bs>, %dst: !hd.memdesc<32x64xbf16, #m>, %x: i32) {
  // expected-error @+1 {{copies blocks of [64, 64] into a [32, 64] tile}}
  hd.async_tensor_copy %d[%x, %x], %bar, %dst : !hd.tensor_desc<64x64xbf16, #m>, !hd.memdesc<1xi64, #bs> -> !hd.memdesc<32x64xbf16, #m>
  return
}

// -----

#m = #hd.matrix_shared<{swizzle = 128, elementBits = 16, transposed = false}>
#m64 = #hd.matrix_shared<{swizzle = 64, elementBits = 16, transposed = false}>
#bs = #hd.swizzled<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
func.func @f(%d: !hd.tensor_desc<64x64xbf16, #m>, %bar: !hd.memdesc<1xi64, #bs>, %dst: !hd.memdesc<64x64xbf16, #m64>, %x: i32) {
  // expected-error @+1 {{copies blocks laid out as #hd.matrix_shared<{swizzle = 128}}
  hd.async_tensor_copy %d[%x, %x], %bar, %dst : !hd.tensor_desc<64x64xbf16, #m>, !hd.memdesc<1xi64, #bs> -> !hd.memdesc<64x64xbf16, #m64>
  return
}

// -----

// Tensor stores: the same checks as copies, the other way.
#m = #hd.matrix_shared<{swizzle = 128, elementBits = 16, transposed = false}>
func.func @f(%d: !hd.tensor_desc<64x64xbf16, #m>, %src: !hd.memdesc<64x64xbf16, #m>, %x: i32) {
  // expected-error @+1 {{gives 1 coordinates for a descriptor of 2 dims}}
  hd.async_tensor_store %d[%x], %src : !hd.memdesc<64x64xbf16, #m> -> !hd.tensor_desc<64x64xbf16, #m>
  return
}

// -----

#m = #hd.matrix_shared<{swizzle = 128, elementBits = 16, transposed = false}>
func.func @f(%d: !hd.tensor_desc<64x64xbf16, #m>, %src: !hd.memdesc<32x64xbf16, #m>, %x: i32) {
  // expected-error @+1 {{stores a [32, 64] tile into blocks of [64, 64]}}
  hd.async_tensor_store %d[%x, %x], %src : !hd.memdesc<32x64xbf16, #m> -> !hd.tensor_desc<64x64xbf16, #m>
  return
}

// -----

#m = #hd.matrix_shared<{swizzle = 128, elementBits = 16, transposed = false}>
func.func @f(%d: !hd.tensor_desc<64x64xbf16, #m>, %src: !hd.memdesc<64x64xf16, #m>, %x: i32) {
  // expected-error @+1 {{stores a tile of 'f16' into a descriptor of 'bf16'}}
  hd.async_tensor_store %d[%x, %x], %src : !hd.memdesc<64x64xf16, #m> -> !hd.tensor_desc<64x64xbf16, #m>
  return
}

// -----

#m = #hd.matrix_shared<{swizzle = 128, elementBits = 16, transposed = false}>
#m64 = #hd.matrix_shared<{swizzle = 64, elementBits = 16, transposed = false}>
func.func @f(%d: !hd.tensor_desc<64x64xbf16, #m>, %src: !hd.memdesc<64x64xbf16, #m64>, %x: i32) {
  // expected-error @+1 {{stores a tile laid out as #hd.matrix_shared<{swizzle = 64}}
  hd.async_tensor_store %d[%x, %x], %src : !hd.memdesc<64x64xbf16, #m64> -> !hd.tensor_desc<64x64xbf16, #m>
  return
}

// -----

func.func @f() {
  // expected-error @+1 {{'hd.async_tensor_store_wait' op attribute 'pending' failed to satisfy constraint}}
  hd.async_tensor_store_wait pending = -1
  return
}

// -----

// A barrier is one i64.
#bs = #hd.swizzled<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
func.func @f(%bar: !hd.memdesc<2xi64, #bs>) {
  // expected-error @+1 {{must be a memdesc of one i64 (a barrier)}}
  hd.mbarrier_init %bar, 1 : !hd.memdesc<2xi64, #bs>
  return
}

// -----

#bs = #hd.swizzled<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
func.func @f(%bar: !hd.memdesc<1xi32, #bs>, %p: i32) {
  // expected-error @+1 {{must be a memdesc of one i64 (a barrier)}}
  hd.mbarrier_wait %bar, %p : !hd.memdesc<1xi32, #bs>
  return
}

// -----

#bs = #hd.swizzled<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
func.func @f(%bar: !hd.memdesc<1xi64, #bs>) {
  // expected-error @+1 {{attribute 'count' failed to satisfy constraint}}
  hd.mbarrier_init %bar, 0 : !hd.memdesc<1xi64, #bs>
  return
}

// -----

func.func @f() {
  // expected-error @+1 {{'hd.warp_specialize' op partition 0 has 3 warps; a partition runs a power of two of warps}}
  hd.warp_specialize warps [3] default {
    hd.warp_return
  } partitions {
    hd.warp_return
  }
  return
}

// -----

func.func @f() {
  // expected-error @+1 {{'hd.warp_specialize' op gives 1 register budgets for 2 regions (the default region's first)}}
  hd.warp_specialize warps [4] regs [240] default {
    hd.warp_return
  } partitions {
    hd.warp_return
  }
  return
}

// -----

func.func @f() {
  // expected-error @+1 {{'hd.warp_specialize' op gives region 1 a budget of 0 registers a thread}}
  hd.warp_specialize warps [4] regs [240, 0] default {
    hd.warp_return
  } partitions {
    hd.warp_return
  }
  return
}

// -----

func.func @f() {
  // expected-error @+1 {{'hd.warp_specialize' op has 1 partitions but 2 warp counts}}
  hd.warp_specialize warps [1, 1] default {
    hd.warp_return
  } partitions {
    hd.warp_return
  }
  return
}

// -----

#b1 = #hd.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
func.func @f(%t: tensor<128xf32, #b1>, %p: tensor<128x!hd.ptr<f32>, #b1>) {
  hd.warp_specialize warps [1] default {
    hd.warp_return
  } partitions {
    // expected-error @+1 {{'hd.store' op in partition 0 of hd.warp_specialize reads a tile defined above it}}
    hd.store %p, %t : tensor<128x!hd.ptr<f32>, #b1>
    hd.warp_return
  }
  return
}

// -----

func.func @f() {
  // expected-error @+1 {{'hd.warp_specialize' op contains another hd.warp_specialize; they do not nest}}
  hd.warp_specialize warps [1] default {
    hd.warp_specialize warps [1] default {
      hd.warp_return
    } partitions {
      hd.warp_return
    }
    hd.warp_return
  } partitions {
    hd.warp_return
  }
  return
}

// -----

#rs = #hd.swizzled<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
func.func @f() {
  %ring = hd.local_alloc -> !hd.memdesc<128x64xbf16, #rs>
  // expected-error @+1 {{'hd.memdesc_reinterpret' op result '!hd.memdesc<128x128xbf16, #hd.swizzled<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>>' needs 32768 bytes, more than the 16384 of}}
  %c = hd.memdesc_reinterpret %ring : !hd.memdesc<128x64xbf16, #rs> -> !hd.memdesc<128x128xbf16, #rs>
  return
}

// -----

#rr = #hd.matrix_shared<{swizzle = 128, elementBits = 16, transposed = false, rank = 3}>
#rs = #hd.swizzled<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
func.func @f() {
  %ring = hd.local_alloc -> !hd.memdesc<2x64x64xbf16, #rr>
  %c0 = arith.constant 0 : i32
  %one = hd.memdesc_index %ring[%c0] : !hd.memdesc<2x64x64xbf16, #rr> -> !hd.memdesc<64x64xbf16, #rr, alloc = 2x64x64>
  // expected-error @+1 {{'hd.memdesc_reinterpret' op reinterprets a whole allocation;}}
  %c = hd.memdesc_reinterpret %one : !hd.memdesc<64x64xbf16, #rr, alloc = 2x64x64> -> !hd.memdesc<64x64xbf16, #rs>
  return
}

// -----

// expected-error @+1 {{`hd.cluster_dims` is array<i32: X, Y, Z> (each at least 1) on a builtin.module}}
module attributes {hd.cluster_dims = array<i32: 2, 0, 1>} {
}

// -----

// expected-error @+1 {{`hd.cluster_dims` is array<i32: X, Y, Z> (each at least 1) on a builtin.module}}
module attributes {hd.cluster_dims = array<i32: 2, 1>} {
}

// -----

func.func @f() {
  hd.warp_specialize warps [1] default {
    // expected-error @+1 {{'hd.cluster_barrier' op needs every thread of the program; inside hd.warp_specialize only a region's warps run it}}
    hd.cluster_barrier
    hd.warp_return
  } partitions {
    hd.warp_return
  }
  return
}

// -----

func.func @f() {
  // expected-error @+1 {{'hd.warp_specialize' op gives region 1 a budget of 0 registers a thread (only the default region's may be 0)}}
  hd.warp_specialize warps [4] regs [240, 0] default {
    hd.warp_return
  } partitions {
    hd.warp_return
  }
  return
}

// -----

func.func @poly_share_range(%x: f32) -> f32 {
  // expected-error @+1 {{`hd.polynomial_share` is a float in [0, 1], got 1.500000e+00 : f32}}
  %r = math.exp2 %x fastmath<afn> {hd.polynomial_share = 1.5 : f32} : f32
  return %r : f32
}

// -----

func.func @poly_share_without_afn(%x: f32) -> f32 {
  // expected-error @+1 {{`hd.polynomial_share` belongs on an f32 math.exp or math.exp2 with fastmath<afn>}}
  %r = math.exp2 %x {hd.polynomial_share = 0.5 : f32} : f32
  return %r : f32
}

// -----

func.func @poly_share_on_log(%x: f32) -> f32 {
  // expected-error @+1 {{`hd.polynomial_share` belongs on an f32 math.exp or math.exp2 with fastmath<afn>}}
  %r = math.log %x fastmath<afn> {hd.polynomial_share = 0.5 : f32} : f32
  return %r : f32
}

// -----

func.func @poly_share_f64(%x: f64) -> f64 {
  // expected-error @+1 {{`hd.polynomial_share` belongs on an f32 math.exp or math.exp2 with fastmath<afn>}}
  %r = math.exp %x fastmath<afn> {hd.polynomial_share = 0.5 : f32} : f64
  return %r : f64
}
