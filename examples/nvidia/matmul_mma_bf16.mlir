// C = A * B on tensor cores: bf16 A (MxK), B (KxN) and C row-major, with
// M and N multiples of 128 and K a multiple of 32. Each program computes one
// 128x128 tile of C with 8 warps (2 along M, 4 along N); each K step of 32
// loads a 128x32 slab of A and a 32x128 slab of B in coalesced layouts,
// moves them into the operand layouts of mma.m16n8k16.bf16 and runs hd.dot,
// which the NVIDIA target issues as mma.sync (on the host: FMAs). The f32
// accumulator is rounded to bf16 for the store.
// #instr is the model's declaration (NvidiaModelTest checks it).
#instr = #hd.matrix_instr<{name = "mma.m16n8k16.bf16", shape = [16, 8, 16], aType = bf16, bType = bf16, accType = f32, a = {register = [[0, 1], [8, 0], [0, 8]], lane = [[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]]}, b = {register = [[1, 0], [8, 0]], lane = [[2, 0], [4, 0], [0, 1], [0, 2], [0, 4]]}, acc = {register = [[0, 1], [8, 0]], lane = [[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]]}}>
#acc = #hd.mma<{instr = #instr, warpsPerCTA = [2, 4]}>
#a_op = #hd.dot_op<{opIdx = 0, parent = #acc}>
#b_op = #hd.dot_op<{opIdx = 1, parent = #acc}>
#a_load = #hd.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [8, 1], order = [1, 0]}>
#b_load = #hd.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [8, 1], order = [1, 0]}>
#a_rows = #hd.slice<{dim = 1, parent = #a_load}>
#a_cols = #hd.slice<{dim = 0, parent = #a_load}>
#b_rows = #hd.slice<{dim = 1, parent = #b_load}>
#b_cols = #hd.slice<{dim = 0, parent = #b_load}>
#c_rows = #hd.slice<{dim = 1, parent = #acc}>
#c_cols = #hd.slice<{dim = 0, parent = #acc}>

module attributes {hd.num_warps = 8 : i32} {
  func.func @matmul_mma(%a: !hd.ptr<bf16> {hd.divisibility = 16 : i32}, %b: !hd.ptr<bf16> {hd.divisibility = 16 : i32}, %c: !hd.ptr<bf16> {hd.divisibility = 16 : i32}, %m: i32 {hd.divisibility = 16 : i32}, %n: i32 {hd.divisibility = 16 : i32}, %k: i32 {hd.divisibility = 16 : i32}) attributes {hd.kernel} {
    %c128 = arith.constant 128 : i32
    %pid_m = hd.program_id 0
    %pid_n = hd.program_id 1
    %m0 = arith.muli %pid_m, %c128 : i32
    %n0 = arith.muli %pid_n, %c128 : i32

    // A[m0 + i][t] at (m0 + i) * k + t; B[t][n0 + j] at t * n + n0 + j.
    %ai = hd.arange 0 to 128 : tensor<128xi32, #a_rows>
    %m0_a = hd.splat %m0 : tensor<128xi32, #a_rows>
    %a_gi = arith.addi %m0_a, %ai : tensor<128xi32, #a_rows>
    %k_a = hd.splat %k : tensor<128xi32, #a_rows>
    %a_row_start = arith.muli %a_gi, %k_a : tensor<128xi32, #a_rows>
    %a_row_start2 = hd.expand_dims %a_row_start axis = 1 : tensor<128xi32, #a_rows> -> tensor<128x1xi32, #a_load>
    %a_row_off = hd.broadcast %a_row_start2 : tensor<128x1xi32, #a_load> -> tensor<128x32xi32, #a_load>
    %akk = hd.arange 0 to 32 : tensor<32xi32, #a_cols>
    %akk2 = hd.expand_dims %akk axis = 0 : tensor<32xi32, #a_cols> -> tensor<1x32xi32, #a_load>
    %a_kk = hd.broadcast %akk2 : tensor<1x32xi32, #a_load> -> tensor<128x32xi32, #a_load>
    %a_base = arith.addi %a_row_off, %a_kk : tensor<128x32xi32, #a_load>

    %bj = hd.arange 0 to 128 : tensor<128xi32, #b_cols>
    %n0_b = hd.splat %n0 : tensor<128xi32, #b_cols>
    %b_gj = arith.addi %n0_b, %bj : tensor<128xi32, #b_cols>
    %b_gj2 = hd.expand_dims %b_gj axis = 0 : tensor<128xi32, #b_cols> -> tensor<1x128xi32, #b_load>
    %b_col_off = hd.broadcast %b_gj2 : tensor<1x128xi32, #b_load> -> tensor<32x128xi32, #b_load>
    %bkk = hd.arange 0 to 32 : tensor<32xi32, #b_rows>
    %n_b = hd.splat %n : tensor<32xi32, #b_rows>
    %b_kk_rows = arith.muli %bkk, %n_b : tensor<32xi32, #b_rows>
    %b_kk_rows2 = hd.expand_dims %b_kk_rows axis = 1 : tensor<32xi32, #b_rows> -> tensor<32x1xi32, #b_load>
    %b_kk = hd.broadcast %b_kk_rows2 : tensor<32x1xi32, #b_load> -> tensor<32x128xi32, #b_load>
    %b_base = arith.addi %b_kk, %b_col_off : tensor<32x128xi32, #b_load>

    %ap = hd.splat %a : tensor<128x32x!hd.ptr<bf16>, #a_load>
    %bp = hd.splat %b : tensor<32x128x!hd.ptr<bf16>, #b_load>
    %zero = arith.constant dense<0.0> : tensor<128x128xf32, #acc>
    %lb = arith.constant 0 : index
    %step = arith.constant 32 : index
    %ub = arith.index_cast %k : i32 to index
    %result = scf.for %kk = %lb to %ub step %step iter_args(%sum = %zero) -> (tensor<128x128xf32, #acc>) {
      %kk_i32 = arith.index_cast %kk : index to i32
      %kk_a = hd.splat %kk_i32 : tensor<128x32xi32, #a_load>
      %a_off = arith.addi %a_base, %kk_a : tensor<128x32xi32, #a_load>
      %aptrs = hd.addptr %ap, %a_off : tensor<128x32x!hd.ptr<bf16>, #a_load>, tensor<128x32xi32, #a_load>
      %a_tile = hd.load %aptrs : tensor<128x32x!hd.ptr<bf16>, #a_load>
      %kk_row = arith.muli %kk_i32, %n : i32
      %kk_b = hd.splat %kk_row : tensor<32x128xi32, #b_load>
      %b_off = arith.addi %b_base, %kk_b : tensor<32x128xi32, #b_load>
      %bptrs = hd.addptr %bp, %b_off : tensor<32x128x!hd.ptr<bf16>, #b_load>, tensor<32x128xi32, #b_load>
      %b_tile = hd.load %bptrs : tensor<32x128x!hd.ptr<bf16>, #b_load>
      %a_dot = hd.convert_layout %a_tile : tensor<128x32xbf16, #a_load> -> tensor<128x32xbf16, #a_op>
      %b_dot = hd.convert_layout %b_tile : tensor<32x128xbf16, #b_load> -> tensor<32x128xbf16, #b_op>
      %next = hd.dot %a_dot, %b_dot, %sum : tensor<128x32xbf16, #a_op> * tensor<32x128xbf16, #b_op> -> tensor<128x128xf32, #acc>
      scf.yield %next : tensor<128x128xf32, #acc>
    }

    // C[m0 + i][n0 + j] at (m0 + i) * n + n0 + j, from the accumulator's layout.
    %ci = hd.arange 0 to 128 : tensor<128xi32, #c_rows>
    %m0_c = hd.splat %m0 : tensor<128xi32, #c_rows>
    %c_gi = arith.addi %m0_c, %ci : tensor<128xi32, #c_rows>
    %n_c = hd.splat %n : tensor<128xi32, #c_rows>
    %c_row_start = arith.muli %c_gi, %n_c : tensor<128xi32, #c_rows>
    %cj = hd.arange 0 to 128 : tensor<128xi32, #c_cols>
    %n0_c = hd.splat %n0 : tensor<128xi32, #c_cols>
    %c_gj = arith.addi %n0_c, %cj : tensor<128xi32, #c_cols>
    %c_row_start2 = hd.expand_dims %c_row_start axis = 1 : tensor<128xi32, #c_rows> -> tensor<128x1xi32, #acc>
    %c_gj2 = hd.expand_dims %c_gj axis = 0 : tensor<128xi32, #c_cols> -> tensor<1x128xi32, #acc>
    %c_row_off = hd.broadcast %c_row_start2 : tensor<128x1xi32, #acc> -> tensor<128x128xi32, #acc>
    %c_col_off = hd.broadcast %c_gj2 : tensor<1x128xi32, #acc> -> tensor<128x128xi32, #acc>
    %c_off = arith.addi %c_row_off, %c_col_off : tensor<128x128xi32, #acc>
    %cp = hd.splat %c : tensor<128x128x!hd.ptr<bf16>, #acc>
    %cptrs = hd.addptr %cp, %c_off : tensor<128x128x!hd.ptr<bf16>, #acc>, tensor<128x128xi32, #acc>
    %c_bf16 = arith.truncf %result : tensor<128x128xf32, #acc> to tensor<128x128xbf16, #acc>
    hd.store %cptrs, %c_bf16 : tensor<128x128x!hd.ptr<bf16>, #acc>
    return
  }
}
