// Matmul: C = A * B for row-major f32 matrices A (MxK), B (KxN), C (MxN),
// with M and N multiples of 32 and K a multiple of 8. Each program computes
// one 32x32 tile of C on a grid of (M / 32, N / 32): an scf.for walks K in
// steps of 8 with the accumulator carried through the loop. Each step loads
// a 32x8 slab of A and an 8x32 slab of B in coalesced blocked layouts,
// converts them to the #hd.dot_op operand layouts of the accumulator's
// layout and multiplies them with hd.dot, here the FMA form every target
// runs (each thread holds its rows of A and columns of B whole along K).
#acc = #hd.blocked<{sizePerThread = [2, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#a_op = #hd.dot_op<{opIdx = 0, parent = #acc}>
#b_op = #hd.dot_op<{opIdx = 1, parent = #acc}>
#a_load = #hd.blocked<{sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#b_load = #hd.blocked<{sizePerThread = [1, 2], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#a_rows = #hd.slice<{dim = 1, parent = #a_load}>
#a_cols = #hd.slice<{dim = 0, parent = #a_load}>
#b_rows = #hd.slice<{dim = 1, parent = #b_load}>
#b_cols = #hd.slice<{dim = 0, parent = #b_load}>
#c_rows = #hd.slice<{dim = 1, parent = #acc}>
#c_cols = #hd.slice<{dim = 0, parent = #acc}>

module attributes {hd.num_warps = 4 : i32} {
  func.func @matmul(%a: !hd.ptr<f32> {hd.divisibility = 16 : i32}, %b: !hd.ptr<f32> {hd.divisibility = 16 : i32}, %c: !hd.ptr<f32> {hd.divisibility = 16 : i32}, %m: i32, %n: i32, %k: i32) attributes {hd.kernel} {
    %c32 = arith.constant 32 : i32
    %pid_m = hd.program_id 0
    %pid_n = hd.program_id 1
    %m0 = arith.muli %pid_m, %c32 : i32
    %n0 = arith.muli %pid_n, %c32 : i32

    // Loop-invariant parts of the offsets: A's rows (m0 + i) * k, B's
    // columns n0 + j, and the K ranges 0..7 of both slabs.
    %ai = hd.arange 0 to 32 : tensor<32xi32, #a_rows>
    %m0_a = hd.splat %m0 : tensor<32xi32, #a_rows>
    %a_gi = arith.addi %m0_a, %ai : tensor<32xi32, #a_rows>
    %k_a = hd.splat %k : tensor<32xi32, #a_rows>
    %a_row_start = arith.muli %a_gi, %k_a : tensor<32xi32, #a_rows>
    %a_row_start2 = hd.expand_dims %a_row_start axis = 1 : tensor<32xi32, #a_rows> -> tensor<32x1xi32, #a_load>
    %a_row_off = hd.broadcast %a_row_start2 : tensor<32x1xi32, #a_load> -> tensor<32x8xi32, #a_load>
    %akk = hd.arange 0 to 8 : tensor<8xi32, #a_cols>
    %akk2 = hd.expand_dims %akk axis = 0 : tensor<8xi32, #a_cols> -> tensor<1x8xi32, #a_load>
    %a_kk = hd.broadcast %akk2 : tensor<1x8xi32, #a_load> -> tensor<32x8xi32, #a_load>
    %a_base = arith.addi %a_row_off, %a_kk : tensor<32x8xi32, #a_load>

    %bj = hd.arange 0 to 32 : tensor<32xi32, #b_cols>
    %n0_b = hd.splat %n0 : tensor<32xi32, #b_cols>
    %b_gj = arith.addi %n0_b, %bj : tensor<32xi32, #b_cols>
    %b_gj2 = hd.expand_dims %b_gj axis = 0 : tensor<32xi32, #b_cols> -> tensor<1x32xi32, #b_load>
    %b_col_off = hd.broadcast %b_gj2 : tensor<1x32xi32, #b_load> -> tensor<8x32xi32, #b_load>
    %bkk = hd.arange 0 to 8 : tensor<8xi32, #b_rows>
    %n_b = hd.splat %n : tensor<8xi32, #b_rows>
    %b_kk_rows = arith.muli %bkk, %n_b : tensor<8xi32, #b_rows>
    %b_kk_rows2 = hd.expand_dims %b_kk_rows axis = 1 : tensor<8xi32, #b_rows> -> tensor<8x1xi32, #b_load>
    %b_kk = hd.broadcast %b_kk_rows2 : tensor<8x1xi32, #b_load> -> tensor<8x32xi32, #b_load>
    %b_base = arith.addi %b_kk, %b_col_off : tensor<8x32xi32, #b_load>

    %ap = hd.splat %a : tensor<32x8x!hd.ptr<f32>, #a_load>
    %bp = hd.splat %b : tensor<8x32x!hd.ptr<f32>, #b_load>
    %zero = arith.constant dense<0.0> : tensor<32x32xf32, #acc>
    %lb = arith.constant 0 : index
    %step = arith.constant 8 : index
    %ub = arith.index_cast %k : i32 to index
    %result = scf.for %kk = %lb to %ub step %step iter_args(%sum = %zero) -> (tensor<32x32xf32, #acc>) {
      // A[m0 + i][kk + t] and B[kk + t][n0 + j].
      %kk_i32 = arith.index_cast %kk : index to i32
      %kk_a = hd.splat %kk_i32 : tensor<32x8xi32, #a_load>
      %a_off = arith.addi %a_base, %kk_a : tensor<32x8xi32, #a_load>
      %aptrs = hd.addptr %ap, %a_off : tensor<32x8x!hd.ptr<f32>, #a_load>, tensor<32x8xi32, #a_load>
      %a_tile = hd.load %aptrs : tensor<32x8x!hd.ptr<f32>, #a_load>
      %kk_row = arith.muli %kk_i32, %n : i32
      %kk_b = hd.splat %kk_row : tensor<8x32xi32, #b_load>
      %b_off = arith.addi %b_base, %kk_b : tensor<8x32xi32, #b_load>
      %bptrs = hd.addptr %bp, %b_off : tensor<8x32x!hd.ptr<f32>, #b_load>, tensor<8x32xi32, #b_load>
      %b_tile = hd.load %bptrs : tensor<8x32x!hd.ptr<f32>, #b_load>
      %a_dot = hd.convert_layout %a_tile : tensor<32x8xf32, #a_load> -> tensor<32x8xf32, #a_op>
      %b_dot = hd.convert_layout %b_tile : tensor<8x32xf32, #b_load> -> tensor<8x32xf32, #b_op>
      %next = hd.dot %a_dot, %b_dot, %sum : tensor<32x8xf32, #a_op> * tensor<8x32xf32, #b_op> -> tensor<32x32xf32, #acc>
      scf.yield %next : tensor<32x32xf32, #acc>
    }

    // C[m0 + i][n0 + j] at offset (m0 + i) * n + n0 + j.
    %ci = hd.arange 0 to 32 : tensor<32xi32, #c_rows>
    %m0_c = hd.splat %m0 : tensor<32xi32, #c_rows>
    %c_gi = arith.addi %m0_c, %ci : tensor<32xi32, #c_rows>
    %n_c = hd.splat %n : tensor<32xi32, #c_rows>
    %c_row_start = arith.muli %c_gi, %n_c : tensor<32xi32, #c_rows>
    %cj = hd.arange 0 to 32 : tensor<32xi32, #c_cols>
    %n0_c = hd.splat %n0 : tensor<32xi32, #c_cols>
    %c_gj = arith.addi %n0_c, %cj : tensor<32xi32, #c_cols>
    %c_row_start2 = hd.expand_dims %c_row_start axis = 1 : tensor<32xi32, #c_rows> -> tensor<32x1xi32, #acc>
    %c_gj2 = hd.expand_dims %c_gj axis = 0 : tensor<32xi32, #c_cols> -> tensor<1x32xi32, #acc>
    %c_row_off = hd.broadcast %c_row_start2 : tensor<32x1xi32, #acc> -> tensor<32x32xi32, #acc>
    %c_col_off = hd.broadcast %c_gj2 : tensor<1x32xi32, #acc> -> tensor<32x32xi32, #acc>
    %c_off = arith.addi %c_row_off, %c_col_off : tensor<32x32xi32, #acc>
    %cp = hd.splat %c : tensor<32x32x!hd.ptr<f32>, #acc>
    %cptrs = hd.addptr %cp, %c_off : tensor<32x32x!hd.ptr<f32>, #acc>, tensor<32x32xi32, #acc>
    hd.store %cptrs, %result : tensor<32x32x!hd.ptr<f32>, #acc>
    return
  }
}
