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

// expected-error @+1 {{#hd.matrix_instr `acc` has fields other than `register` and `lane`}}
#i = #hd.matrix_instr<{name = "x", shape = [2, 2, 2], aType = f16, bType = f16, accType = f32, a = {register = [[0, 1]], lane = [[1, 0]]}, b = {register = [[0, 1]], lane = [[1, 0]]}, acc = {register = [[0, 1]], lane = [[1, 0]], warp = []}}>
func.func private @f() attributes {i = #i}

// -----

// expected-error @+1 {{#hd.matrix_instr "x" fragments disagree on the lanes of a warp: a has 2, b 2, acc 4}}
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
