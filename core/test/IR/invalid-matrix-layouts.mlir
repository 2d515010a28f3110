// Every error of #hd.matrix_instr, #hd.mma and a dot on them.
// RUN: hadron-opt %s -split-input-file -verify-diagnostics

// expected-error @+1 {{#hd.matrix_instr `shape` must be [m, n, k], powers of two up to 65536, got [16, 8]}}
#i = #hd.matrix_instr<{name = "x", shape = [16, 8], aType = f16, bType = f16, accType = f32, a = {register = [], lane = []}, b = {register = [], lane = []}, acc = {register = [], lane = []}}>
func.func private @f() attributes {i = #i}

// -----

// expected-error @+1 {{#hd.matrix_instr `shape` must be [m, n, k], powers of two up to 65536, got [16, 8, 12]}}
#i = #hd.matrix_instr<{name = "x", shape = [16, 8, 12], aType = f16, bType = f16, accType = f32, a = {register = [], lane = []}, b = {register = [], lane = []}, acc = {register = [], lane = []}}>
func.func private @f() attributes {i = #i}

// -----

// expected-error @+1 {{#hd.matrix_instr `aType` must be a type, got 3}}
#i = #hd.matrix_instr<{name = "x", shape = [2, 2, 2], aType = 3, bType = f16, accType = f32, a = {register = [], lane = []}, b = {register = [], lane = []}, acc = {register = [], lane = []}}>
func.func private @f() attributes {i = #i}

// -----

// A 2x2 A tile needs two bits of (register, lane); one is missing.
// expected-error @+1 {{#hd.matrix_instr `a` is not a fragment of a 2x2 tile}}
#i = #hd.matrix_instr<{name = "x", shape = [2, 2, 2], aType = f16, bType = f16, accType = f32, a = {register = [[0, 1]], lane = []}, b = {register = [[0, 1]], lane = [[1, 0]]}, acc = {register = [[0, 1]], lane = [[1, 0]]}}>
func.func private @f() attributes {i = #i}

// -----

// expected-error @+1 {{#hd.matrix_instr `b` is missing `lane`}}
#i = #hd.matrix_instr<{name = "x", shape = [2, 2, 2], aType = f16, bType = f16, accType = f32, a = {register = [[0, 1]], lane = [[1, 0]]}, b = {register = [[0, 1], [1, 0]]}, acc = {register = [[0, 1]], lane = [[1, 0]]}}>
func.func private @f() attributes {i = #i}

// -----

// expected-error @+1 {{#hd.matrix_instr `acc` has fields other than `register`, `lane` and `warp`}}
#i = #hd.matrix_instr<{name = "x", shape = [2, 2, 2], aType = f16, bType = f16, accType = f32, a = {register = [[0, 1]], lane = [[1, 0]]}, b = {register = [[0, 1]], lane = [[1, 0]]}, acc = {register = [[0, 1]], lane = [[1, 0]], block = []}}>
func.func private @f() attributes {i = #i}

// -----

// expected-error @+1 {{#hd.matrix_instr "x" fragments disagree on the lanes of a warp: a has 2, acc 4}}
#i = #hd.matrix_instr<{name = "x", shape = [2, 2, 2], aType = f16, bType = f16, accType = f32, a = {register = [[0, 1]], lane = [[1, 0]]}, b = {register = [[0, 1]], lane = [[1, 0]]}, acc = {register = [], lane = [[0, 1], [1, 0]]}}>
func.func private @f() attributes {i = #i}

// -----

// expected-error @+1 {{#hd.mma `instr` must be a #hd.matrix_instr, got "mma.m16n8k16.bf16"}}
#m = #hd.mma<{instr = "mma.m16n8k16.bf16", warpsPerCTA = [1, 1]}>
func.func private @f() attributes {m = #m}

// -----

#i = #hd.matrix_instr<{name = "x", shape = [2, 2, 2], aType = f16, bType = f16, accType = f32, a = {register = [[0, 1]], lane = [[1, 0]]}, b = {register = [[0, 1]], lane = [[1, 0]]}, acc = {register = [[0, 1]], lane = [[1, 0]]}}>
// expected-error @+1 {{#hd.mma warpsPerCTA has 3 entries; a matrix-instruction dot has rank 2}}
#m = #hd.mma<{instr = #i, warpsPerCTA = [1, 1, 1]}>
func.func private @f() attributes {m = #m}

// -----

#i = #hd.matrix_instr<{name = "x", shape = [2, 2, 2], aType = f16, bType = f16, accType = f32, a = {register = [[0, 1]], lane = [[1, 0]]}, b = {register = [[0, 1]], lane = [[1, 0]]}, acc = {register = [[0, 1]], lane = [[1, 0]]}}>
// expected-error @+1 {{#hd.mma warpsPerCTA[1] = 3 is not a power of two}}
#m = #hd.mma<{instr = #i, warpsPerCTA = [1, 3]}>
func.func private @f() attributes {m = #m}

// -----

#i = #hd.matrix_instr<{name = "x", shape = [2, 2, 2], aType = f16, bType = f16, accType = f32, a = {register = [[0, 1]], lane = [[1, 0]]}, b = {register = [[0, 1]], lane = [[1, 0]]}, acc = {register = [[0, 1]], lane = [[1, 0]]}}>
#m = #hd.mma<{instr = #i, warpsPerCTA = [1, 1]}>
// expected-error @+1 {{has rank 2 but the tensor has rank 1}}
func.func private @f(%t: tensor<4xf32, #m>)

// -----

#i = #hd.matrix_instr<{name = "x", shape = [2, 2, 2], aType = f16, bType = f16, accType = f32, a = {register = [[0, 1]], lane = [[1, 0]]}, b = {register = [[0, 1]], lane = [[1, 0]]}, acc = {register = [[0, 1]], lane = [[1, 0]]}}>
#m = #hd.mma<{instr = #i, warpsPerCTA = [1, 1]}>
#a = #hd.dot_op<{opIdx = 0, parent = #m}>
#b = #hd.dot_op<{opIdx = 1, parent = #m}>
func.func @wrong_types(%x: tensor<4x4xbf16, #a>, %y: tensor<4x4xbf16, #b>, %c: tensor<4x4xf32, #m>) {
  // expected-error @+1 {{multiplies 'bf16' into 'f32' but its matrix instruction "x" takes 'f16' x 'f16' -> 'f32'}}
  %d = hd.dot %x, %y, %c : tensor<4x4xbf16, #a> * tensor<4x4xbf16, #b> -> tensor<4x4xf32, #m>
  return
}

// -----

#i = #hd.matrix_instr<{name = "x", shape = [2, 2, 2], aType = f16, bType = f16, accType = f32, a = {register = [[0, 1]], lane = [[1, 0]]}, b = {register = [[0, 1]], lane = [[1, 0]]}, acc = {register = [[0, 1]], lane = [[1, 0]]}}>
#m = #hd.mma<{instr = #i, warpsPerCTA = [1, 1]}>
#a = #hd.dot_op<{opIdx = 0, parent = #m}>
#b = #hd.dot_op<{opIdx = 1, parent = #m}>
func.func @partial_tile(%x: tensor<1x4xf16, #a>, %y: tensor<4x4xf16, #b>, %c: tensor<1x4xf32, #m>) {
  // expected-error @+1 {{computes [1, 4] with k = 4, not a multiple of its matrix instruction "x" (2x2x2)}}
  %d = hd.dot %x, %y, %c : tensor<1x4xf16, #a> * tensor<4x4xf16, #b> -> tensor<1x4xf32, #m>
  return
}

// -----

#i = #hd.matrix_instr<{name = "g", shape = [64, 16, 16], aType = bf16, bType = bf16, accType = f32, acc = {register = [[0, 1], [8, 0], [0, 8]], lane = [[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]], warp = [[16, 0], [32, 0]]}}>
// expected-error @+1 {{"g" is issued by 4 warps together along M, so warpsPerCTA[0] must be a multiple of 4}}
#m = #hd.mma<{instr = #i, warpsPerCTA = [2, 2]}>
func.func @group_split(%c: tensor<64x16xf32, #m>) {
  return
}

// -----

// expected-error @+1 {{acc.warp bases must step along rows (dim 0)}}
#i = #hd.matrix_instr<{name = "g", shape = [32, 32, 16], aType = bf16, bType = bf16, accType = f32, acc = {register = [[0, 1], [8, 0], [0, 8]], lane = [[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]], warp = [[16, 0], [0, 16]]}}>
func.func private @group_along_n() attributes {i = #i}

// -----

#i = #hd.matrix_instr<{name = "g", shape = [64, 16, 16], aType = bf16, bType = bf16, accType = f32, acc = {register = [[0, 1], [8, 0], [0, 8]], lane = [[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]], warp = [[16, 0], [32, 0]]}}>
#m = #hd.mma<{instr = #i, warpsPerCTA = [4, 1]}>
#s = #hd.matrix_shared<{swizzle = 128, elementBits = 16, transposed = false}>
#l = #hd.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
func.func @registers_for_shared(%x: tensor<64x64xbf16, #l>, %c: tensor<64x16xf32, #m>) {
  %b = hd.local_alloc -> !hd.memdesc<64x16xbf16, #hd.swizzled<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>>
  // expected-error @+1 {{operand a must be a shared-memory tile (!hd.memdesc): the matrix instruction "g" reads it from shared memory}}
  %d = hd.dot %x, %b, %c : tensor<64x64xbf16, #l> * !hd.memdesc<64x16xbf16, #hd.swizzled<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>> -> tensor<64x16xf32, #m>
  return
}

// -----

// expected-error @+1 {{#hd.matrix_shared swizzle = 48 bytes; it is 32, 64 or 128}}
func.func @bad_swizzle(%x: !hd.memdesc<64x64xbf16, #hd.matrix_shared<{swizzle = 48, elementBits = 16, transposed = false}>>) {
  return
}

// -----

// expected-error @+1 {{holds 16-bit elements, not 'f32'}}
func.func @wrong_element(%x: !hd.memdesc<64x64xf32, #hd.matrix_shared<{swizzle = 128, elementBits = 16, transposed = false}>>) {
  return
}

// -----

// expected-error @+1 {{the contiguous dim holds 32 elements; a 128-byte swizzle of 16-bit elements needs a multiple of 64}}
func.func @narrow_tile(%x: !hd.memdesc<64x32xbf16, #hd.matrix_shared<{swizzle = 128, elementBits = 16, transposed = false}>>) {
  return
}
