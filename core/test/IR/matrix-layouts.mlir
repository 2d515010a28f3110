// #hd.matrix_instr and #hd.mma: they print in a form that parses back, a dot
// on them verifies its types and shapes against the instruction, and every
// malformed field is an error that names it.
// RUN: hadron-opt %s -split-input-file | hadron-opt -split-input-file | FileCheck %s

// The m16n8k16 bf16 instruction as the NVIDIA model declares it (fragments
// of the PTX ISA); the names and numbers are data to the core.
// CHECK: #[[INSTR:.*]] = #hd.matrix_instr<{name = "mma.m16n8k16.bf16", shape = [16, 8, 16], aType = bf16, bType = bf16, accType = f32, a = {register = {{\[\[}}0, 1], [8, 0], [0, 8]], lane = {{\[\[}}0, 2], [0, 4], [1, 0], [2, 0], [4, 0]]}, b = {register = {{\[\[}}1, 0], [8, 0]], lane = {{\[\[}}2, 0], [4, 0], [0, 1], [0, 2], [0, 4]]}, acc = {register = {{\[\[}}0, 1], [8, 0]], lane = {{\[\[}}0, 2], [0, 4], [1, 0], [2, 0], [4, 0]]}}>
// CHECK: #[[MMA:.*]] = #hd.mma<{instr = #[[INSTR]], warpsPerCTA = [2, 4]}>
// CHECK: #hd.dot_op<{opIdx = 0, parent = #[[MMA]], kWidth = 1}>
// CHECK-LABEL: func.func @dot_on_matrix_unit
// CHECK: hd.dot
#instr = #hd.matrix_instr<{name = "mma.m16n8k16.bf16", shape = [16, 8, 16], aType = bf16, bType = bf16, accType = f32, a = {register = [[0, 1], [8, 0], [0, 8]], lane = [[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]]}, b = {register = [[1, 0], [8, 0]], lane = [[2, 0], [4, 0], [0, 1], [0, 2], [0, 4]]}, acc = {register = [[0, 1], [8, 0]], lane = [[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]]}}>
#mma = #hd.mma<{instr = #instr, warpsPerCTA = [2, 4]}>
#a = #hd.dot_op<{opIdx = 0, parent = #mma}>
#b = #hd.dot_op<{opIdx = 1, parent = #mma}>
#rows = #hd.slice<{dim = 1, parent = #mma}>
func.func @dot_on_matrix_unit(%x: tensor<64x32xbf16, #a>, %y: tensor<32x64xbf16, #b>, %c: tensor<64x64xf32, #mma>, %r: tensor<64xf32, #rows>) -> tensor<64x64xf32, #mma> {
  %d = hd.dot %x, %y, %c : tensor<64x32xbf16, #a> * tensor<32x64xbf16, #b> -> tensor<64x64xf32, #mma>
  // A slice of the accumulator expands back into a column of it.
  %col = hd.expand_dims %r axis = 1 : tensor<64xf32, #rows> -> tensor<64x1xf32, #mma>
  return %d : tensor<64x64xf32, #mma>
}

// -----

// An instruction a group of 4 warps issues together (warp bases along rows)
// and that reads A and B from shared memory (no fragments): the dot takes
// both as memdescs in the swizzled tiles matrix units read.
// CHECK: #hd.matrix_instr<{name = "group.m64n16k16", shape = [64, 16, 16], aType = bf16, bType = bf16, accType = f32, acc = {register = {{\[\[}}0, 1], [8, 0], [0, 8]], lane = {{\[\[}}0, 2], [0, 4], [1, 0], [2, 0], [4, 0]], warp = {{\[\[}}16, 0], [32, 0]]}}>
// CHECK: #hd.matrix_shared<{swizzle = 128, elementBits = 16, transposed = false}>
// CHECK: #hd.matrix_shared<{swizzle = 64, elementBits = 16, transposed = true, rank = 3}>
// CHECK-LABEL: func.func @dot_from_shared
// CHECK: hd.dot %{{.*}}, %{{.*}}, %{{.*}} : !hd.memdesc<128x64xbf16
#instr = #hd.matrix_instr<{name = "group.m64n16k16", shape = [64, 16, 16], aType = bf16, bType = bf16, accType = f32, acc = {register = [[0, 1], [8, 0], [0, 8]], lane = [[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]], warp = [[16, 0], [32, 0]]}}>
#mma = #hd.mma<{instr = #instr, warpsPerCTA = [8, 1]}>
#sa = #hd.matrix_shared<{swizzle = 128, elementBits = 16, transposed = false}>
#sb = #hd.matrix_shared<{swizzle = 64, elementBits = 16, transposed = true, rank = 3}>
func.func @dot_from_shared(%c: tensor<128x32xf32, #mma>) -> tensor<128x32xf32, #mma> {
  %a = hd.local_alloc -> !hd.memdesc<128x64xbf16, #sa>
  %bs = hd.local_alloc -> !hd.memdesc<2x64x32xbf16, #sb>
  %i = arith.constant 1 : i32
  %b = hd.memdesc_index %bs[%i] : !hd.memdesc<2x64x32xbf16, #sb> -> !hd.memdesc<64x32xbf16, #sb, alloc = 2x64x32>
  %d = hd.dot %a, %b, %c : !hd.memdesc<128x64xbf16, #sa> * !hd.memdesc<64x32xbf16, #sb, alloc = 2x64x32> -> tensor<128x32xf32, #mma>
  // CHECK: hd.dot {{.*}} {async}
  // CHECK: hd.dot_wait %{{.*}} pending = 1
  %e = hd.dot %a, %b, %d {async} : !hd.memdesc<128x64xbf16, #sa> * !hd.memdesc<64x32xbf16, #sb, alloc = 2x64x32> -> tensor<128x32xf32, #mma>
  %f = hd.dot_wait %e pending = 1 : tensor<128x32xf32, #mma>
  return %f : tensor<128x32xf32, #mma>
}
