// Transpose: out[j][i] = in[i][j] for an MxN row-major matrix (M and N
// multiples of 64) into an NxM one, one 64x64 tile per program on a grid of
// (M / 64, N / 64). The tile is loaded in #rows, a blocked layout whose
// fastest dimension is 1 (order [1, 0]: each thread reads 4 consecutive
// elements of a row of `in`), and hd.convert_layout moves it to #cols,
// whose fastest dimension is 0 (order [0, 1]: each thread holds 4
// consecutive elements of a column, which are consecutive in `out`), so both
// the loads and the stores are contiguous. On a GPU the conversion goes
// through shared memory; on the host it is a register permutation.
#rows = #hd.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#cols = #hd.blocked<{sizePerThread = [4, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#rows_i = #hd.slice<{dim = 1, parent = #rows}>
#rows_j = #hd.slice<{dim = 0, parent = #rows}>
#cols_i = #hd.slice<{dim = 1, parent = #cols}>
#cols_j = #hd.slice<{dim = 0, parent = #cols}>

module attributes {hd.num_warps = 4 : i32} {
  func.func @transpose(%in: !hd.ptr<f32> {hd.divisibility = 16 : i32}, %out: !hd.ptr<f32> {hd.divisibility = 16 : i32}, %m: i32 {hd.divisibility = 64 : i32}, %n: i32 {hd.divisibility = 64 : i32}) attributes {hd.kernel} {
    %c64 = arith.constant 64 : i32
    %pid_i = hd.program_id 0
    %pid_j = hd.program_id 1
    %i0 = arith.muli %pid_i, %c64 : i32
    %j0 = arith.muli %pid_j, %c64 : i32

    // Load in[i0 + i][j0 + j] at offset (i0 + i) * n + j0 + j.
    %ri = hd.arange 0 to 64 : tensor<64xi32, #rows_i>
    %rj = hd.arange 0 to 64 : tensor<64xi32, #rows_j>
    %i0_r = hd.splat %i0 : tensor<64xi32, #rows_i>
    %gi = arith.addi %i0_r, %ri : tensor<64xi32, #rows_i>
    %n_r = hd.splat %n : tensor<64xi32, #rows_i>
    %row_start = arith.muli %gi, %n_r : tensor<64xi32, #rows_i>
    %j0_r = hd.splat %j0 : tensor<64xi32, #rows_j>
    %gj = arith.addi %j0_r, %rj : tensor<64xi32, #rows_j>
    %row_start2 = hd.expand_dims %row_start axis = 1 : tensor<64xi32, #rows_i> -> tensor<64x1xi32, #rows>
    %gj2 = hd.expand_dims %gj axis = 0 : tensor<64xi32, #rows_j> -> tensor<1x64xi32, #rows>
    %row_start_b = hd.broadcast %row_start2 : tensor<64x1xi32, #rows> -> tensor<64x64xi32, #rows>
    %gj_b = hd.broadcast %gj2 : tensor<1x64xi32, #rows> -> tensor<64x64xi32, #rows>
    %in_offsets = arith.addi %row_start_b, %gj_b : tensor<64x64xi32, #rows>
    %ip = hd.splat %in : tensor<64x64x!hd.ptr<f32>, #rows>
    %iptrs = hd.addptr %ip, %in_offsets : tensor<64x64x!hd.ptr<f32>, #rows>, tensor<64x64xi32, #rows>
    %tile = hd.load %iptrs : tensor<64x64x!hd.ptr<f32>, #rows>

    %moved = hd.convert_layout %tile : tensor<64x64xf32, #rows> -> tensor<64x64xf32, #cols>

    // Store element (i, j) to out[j0 + j][i0 + i] at offset (j0 + j) * m + i0 + i.
    %ci = hd.arange 0 to 64 : tensor<64xi32, #cols_i>
    %cj = hd.arange 0 to 64 : tensor<64xi32, #cols_j>
    %i0_c = hd.splat %i0 : tensor<64xi32, #cols_i>
    %oi = arith.addi %i0_c, %ci : tensor<64xi32, #cols_i>
    %j0_c = hd.splat %j0 : tensor<64xi32, #cols_j>
    %oj = arith.addi %j0_c, %cj : tensor<64xi32, #cols_j>
    %m_c = hd.splat %m : tensor<64xi32, #cols_j>
    %col_start = arith.muli %oj, %m_c : tensor<64xi32, #cols_j>
    %oi2 = hd.expand_dims %oi axis = 1 : tensor<64xi32, #cols_i> -> tensor<64x1xi32, #cols>
    %col_start2 = hd.expand_dims %col_start axis = 0 : tensor<64xi32, #cols_j> -> tensor<1x64xi32, #cols>
    %oi_b = hd.broadcast %oi2 : tensor<64x1xi32, #cols> -> tensor<64x64xi32, #cols>
    %col_start_b = hd.broadcast %col_start2 : tensor<1x64xi32, #cols> -> tensor<64x64xi32, #cols>
    %out_offsets = arith.addi %col_start_b, %oi_b : tensor<64x64xi32, #cols>
    %op = hd.splat %out : tensor<64x64x!hd.ptr<f32>, #cols>
    %optrs = hd.addptr %op, %out_offsets : tensor<64x64x!hd.ptr<f32>, #cols>, tensor<64x64xi32, #cols>
    hd.store %optrs, %moved : tensor<64x64x!hd.ptr<f32>, #cols>
    return
  }
}
