// C = A * B on Hopper's warpgroup matrix unit: bf16 A (MxK), B (KxN) and C
// row-major, with M a multiple of 128, N of 256 and K of 64; f32
// accumulation, rounded to bf16 for the store. Each program computes one
// 128x256 tile of C with 8 warps: two warpgroups, each 64 rows by 256
// columns (128 f32 accumulator registers per thread). Written the way a
// Hopper GEMM is in Gluon, with explicit layouts:
//  - A and B stream through rings of 4 shared-memory stages in the swizzled
//    tiles the matrix unit reads (#hd.matrix_shared, 128-byte swizzle: A is
//    K-major, B is N-major); hd.async_copy (cp.async) fills each stage 3 K
//    steps ahead;
//  - hd.dot {async} reads both operands from shared memory where they
//    stand (on NVIDIA sm_90a: one wgmma.m64n256k16 per warpgroup and K step
//    of 16, through matrix descriptors) and returns before the product is
//    done; hd.dot_wait pending = 1 retires the previous step's, so the stage
//    it read can be refilled while this step's runs (on the host: FMAs, and
//    the wait changes nothing);
//  - the loads past the last K step re-read the last tile (min with k - 64),
//    so no step needs a mask;
//  - tiles are taken in groups of 8 rows of tiles walking down the columns,
//    so the CTAs running together share A and B in L2; the result goes
//    through shared memory (convert_layout) to be stored 16 bytes a thread.
// #instr is the model's declaration (NvidiaModelTest checks it).
#instr = #hd.matrix_instr<{name = "wgmma.m64n256k16.bf16", shape = [64, 256, 16], aType = bf16, bType = bf16, accType = f32, acc = {register = [[0, 1], [8, 0], [0, 8], [0, 16], [0, 32], [0, 64], [0, 128]], lane = [[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]], warp = [[16, 0], [32, 0]]}}>
#acc = #hd.mma<{instr = #instr, warpsPerCTA = [8, 1]}>
#a_load = #hd.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [8, 1], order = [1, 0]}>
#b_load = #hd.blocked<{sizePerThread = [1, 8], threadsPerWarp = [1, 32], warpsPerCTA = [8, 1], order = [1, 0]}>
#a_sh = #hd.matrix_shared<{swizzle = 128, elementBits = 16, transposed = false, rank = 3}>
#b_sh = #hd.matrix_shared<{swizzle = 128, elementBits = 16, transposed = false, rank = 3}>
#a_rows = #hd.slice<{dim = 1, parent = #a_load}>
#a_cols = #hd.slice<{dim = 0, parent = #a_load}>
#b_rows = #hd.slice<{dim = 1, parent = #b_load}>
#b_cols = #hd.slice<{dim = 0, parent = #b_load}>
#c_st = #hd.blocked<{sizePerThread = [1, 8], threadsPerWarp = [1, 32], warpsPerCTA = [8, 1], order = [1, 0]}>
#c_rows = #hd.slice<{dim = 1, parent = #c_st}>
#c_cols = #hd.slice<{dim = 0, parent = #c_st}>
module attributes {hd.num_warps = 8 : i32} {
  func.func @matmul_wgmma(%a: !hd.ptr<bf16> {hd.divisibility = 16 : i32}, %b: !hd.ptr<bf16> {hd.divisibility = 16 : i32}, %c: !hd.ptr<bf16> {hd.divisibility = 16 : i32}, %m: i32 {hd.divisibility = 16 : i32}, %n: i32 {hd.divisibility = 16 : i32}, %k: i32 {hd.divisibility = 16 : i32}) attributes {hd.kernel} {
    %cbm = arith.constant 128 : i32
    %cbn = arith.constant 256 : i32
    %gx = hd.program_id 0
    %gy = hd.program_id 1
    %npm = hd.num_programs 0
    %npn = hd.num_programs 1
    // Tile order: groups of 8 rows of tiles walk down the columns, so the
    // CTAs running together share their A rows and B columns in L2.
    %lin0 = arith.muli %gy, %npm : i32
    %lin = arith.addi %lin0, %gx : i32
    %cgrp = arith.constant 8 : i32
    %per_group = arith.muli %cgrp, %npn : i32
    %group = arith.divsi %lin, %per_group : i32
    %first_m = arith.muli %group, %cgrp : i32
    %left = arith.subi %npm, %first_m : i32
    %gsize = arith.minsi %left, %cgrp : i32
    %in_group = arith.remsi %lin, %per_group : i32
    %pm_off = arith.remsi %in_group, %gsize : i32
    %pid_m = arith.addi %first_m, %pm_off : i32
    %pid_n = arith.divsi %in_group, %gsize : i32
    %m0 = arith.muli %pid_m, %cbm : i32
    %n0 = arith.muli %pid_n, %cbn : i32
    %ai = hd.arange 0 to 128 : tensor<128xi32, #a_rows>
    %m0_a = hd.splat %m0 : tensor<128xi32, #a_rows>
    %a_gi = arith.addi %m0_a, %ai : tensor<128xi32, #a_rows>
    %k_a = hd.splat %k : tensor<128xi32, #a_rows>
    %a_row_start = arith.muli %a_gi, %k_a : tensor<128xi32, #a_rows>
    %a_row_start2 = hd.expand_dims %a_row_start axis = 1 : tensor<128xi32, #a_rows> -> tensor<128x1xi32, #a_load>
    %a_row_off = hd.broadcast %a_row_start2 : tensor<128x1xi32, #a_load> -> tensor<128x64xi32, #a_load>
    %akk = hd.arange 0 to 64 : tensor<64xi32, #a_cols>
    %akk2 = hd.expand_dims %akk axis = 0 : tensor<64xi32, #a_cols> -> tensor<1x64xi32, #a_load>
    %a_kk = hd.broadcast %akk2 : tensor<1x64xi32, #a_load> -> tensor<128x64xi32, #a_load>
    %a_base = arith.addi %a_row_off, %a_kk : tensor<128x64xi32, #a_load>
    %bj = hd.arange 0 to 256 : tensor<256xi32, #b_cols>
    %n0_b = hd.splat %n0 : tensor<256xi32, #b_cols>
    %b_gj = arith.addi %n0_b, %bj : tensor<256xi32, #b_cols>
    %b_gj2 = hd.expand_dims %b_gj axis = 0 : tensor<256xi32, #b_cols> -> tensor<1x256xi32, #b_load>
    %b_col_off = hd.broadcast %b_gj2 : tensor<1x256xi32, #b_load> -> tensor<64x256xi32, #b_load>
    %bkk = hd.arange 0 to 64 : tensor<64xi32, #b_rows>
    %n_b = hd.splat %n : tensor<64xi32, #b_rows>
    %b_kk_rows = arith.muli %bkk, %n_b : tensor<64xi32, #b_rows>
    %b_kk_rows2 = hd.expand_dims %b_kk_rows axis = 1 : tensor<64xi32, #b_rows> -> tensor<64x1xi32, #b_load>
    %b_kk = hd.broadcast %b_kk_rows2 : tensor<64x1xi32, #b_load> -> tensor<64x256xi32, #b_load>
    %b_base = arith.addi %b_kk, %b_col_off : tensor<64x256xi32, #b_load>
    %ap = hd.splat %a : tensor<128x64x!hd.ptr<bf16>, #a_load>
    %bp = hd.splat %b : tensor<64x256x!hd.ptr<bf16>, #b_load>
    // The rings of stages, and the first 3 K steps started.
    %a_smem = hd.local_alloc -> !hd.memdesc<4x128x64xbf16, #a_sh>
    %b_smem = hd.local_alloc -> !hd.memdesc<4x64x256xbf16, #b_sh>
    %cbk = arith.constant 64 : i32
    %klast = arith.subi %k, %cbk : i32
    %cstages = arith.constant 4 : i32
    %kp00 = arith.constant 0 : i32
    %kp0 = arith.minsi %kp00, %klast : i32
    %st0 = arith.constant 0 : i32
    %kk_a_p0 = hd.splat %kp0 : tensor<128x64xi32, #a_load>
    %a_off_p0 = arith.addi %a_base, %kk_a_p0 : tensor<128x64xi32, #a_load>
    %aptrs_p0 = hd.addptr %ap, %a_off_p0 : tensor<128x64x!hd.ptr<bf16>, #a_load>, tensor<128x64xi32, #a_load>
    %a_dst_p0 = hd.memdesc_index %a_smem[%st0] : !hd.memdesc<4x128x64xbf16, #a_sh> -> !hd.memdesc<128x64xbf16, #a_sh, alloc = 4x128x64>
    %a_cp_p0 = hd.async_copy %aptrs_p0, %a_dst_p0 : tensor<128x64x!hd.ptr<bf16>, #a_load> -> !hd.memdesc<128x64xbf16, #a_sh, alloc = 4x128x64>
    %kk_row_p0 = arith.muli %kp0, %n : i32
    %kk_b_p0 = hd.splat %kk_row_p0 : tensor<64x256xi32, #b_load>
    %b_off_p0 = arith.addi %b_base, %kk_b_p0 : tensor<64x256xi32, #b_load>
    %bptrs_p0 = hd.addptr %bp, %b_off_p0 : tensor<64x256x!hd.ptr<bf16>, #b_load>, tensor<64x256xi32, #b_load>
    %b_dst_p0 = hd.memdesc_index %b_smem[%st0] : !hd.memdesc<4x64x256xbf16, #b_sh> -> !hd.memdesc<64x256xbf16, #b_sh, alloc = 4x64x256>
    %b_cp_p0 = hd.async_copy %bptrs_p0, %b_dst_p0 : tensor<64x256x!hd.ptr<bf16>, #b_load> -> !hd.memdesc<64x256xbf16, #b_sh, alloc = 4x64x256>
    %grp_p0 = hd.async_commit_group %a_cp_p0, %b_cp_p0
    %kp10 = arith.constant 64 : i32
    %kp1 = arith.minsi %kp10, %klast : i32
    %st1 = arith.constant 1 : i32
    %kk_a_p1 = hd.splat %kp1 : tensor<128x64xi32, #a_load>
    %a_off_p1 = arith.addi %a_base, %kk_a_p1 : tensor<128x64xi32, #a_load>
    %aptrs_p1 = hd.addptr %ap, %a_off_p1 : tensor<128x64x!hd.ptr<bf16>, #a_load>, tensor<128x64xi32, #a_load>
    %a_dst_p1 = hd.memdesc_index %a_smem[%st1] : !hd.memdesc<4x128x64xbf16, #a_sh> -> !hd.memdesc<128x64xbf16, #a_sh, alloc = 4x128x64>
    %a_cp_p1 = hd.async_copy %aptrs_p1, %a_dst_p1 : tensor<128x64x!hd.ptr<bf16>, #a_load> -> !hd.memdesc<128x64xbf16, #a_sh, alloc = 4x128x64>
    %kk_row_p1 = arith.muli %kp1, %n : i32
    %kk_b_p1 = hd.splat %kk_row_p1 : tensor<64x256xi32, #b_load>
    %b_off_p1 = arith.addi %b_base, %kk_b_p1 : tensor<64x256xi32, #b_load>
    %bptrs_p1 = hd.addptr %bp, %b_off_p1 : tensor<64x256x!hd.ptr<bf16>, #b_load>, tensor<64x256xi32, #b_load>
    %b_dst_p1 = hd.memdesc_index %b_smem[%st1] : !hd.memdesc<4x64x256xbf16, #b_sh> -> !hd.memdesc<64x256xbf16, #b_sh, alloc = 4x64x256>
    %b_cp_p1 = hd.async_copy %bptrs_p1, %b_dst_p1 : tensor<64x256x!hd.ptr<bf16>, #b_load> -> !hd.memdesc<64x256xbf16, #b_sh, alloc = 4x64x256>
    %grp_p1 = hd.async_commit_group %a_cp_p1, %b_cp_p1
    %kp20 = arith.constant 128 : i32
    %kp2 = arith.minsi %kp20, %klast : i32
    %st2 = arith.constant 2 : i32
    %kk_a_p2 = hd.splat %kp2 : tensor<128x64xi32, #a_load>
    %a_off_p2 = arith.addi %a_base, %kk_a_p2 : tensor<128x64xi32, #a_load>
    %aptrs_p2 = hd.addptr %ap, %a_off_p2 : tensor<128x64x!hd.ptr<bf16>, #a_load>, tensor<128x64xi32, #a_load>
    %a_dst_p2 = hd.memdesc_index %a_smem[%st2] : !hd.memdesc<4x128x64xbf16, #a_sh> -> !hd.memdesc<128x64xbf16, #a_sh, alloc = 4x128x64>
    %a_cp_p2 = hd.async_copy %aptrs_p2, %a_dst_p2 : tensor<128x64x!hd.ptr<bf16>, #a_load> -> !hd.memdesc<128x64xbf16, #a_sh, alloc = 4x128x64>
    %kk_row_p2 = arith.muli %kp2, %n : i32
    %kk_b_p2 = hd.splat %kk_row_p2 : tensor<64x256xi32, #b_load>
    %b_off_p2 = arith.addi %b_base, %kk_b_p2 : tensor<64x256xi32, #b_load>
    %bptrs_p2 = hd.addptr %bp, %b_off_p2 : tensor<64x256x!hd.ptr<bf16>, #b_load>, tensor<64x256xi32, #b_load>
    %b_dst_p2 = hd.memdesc_index %b_smem[%st2] : !hd.memdesc<4x64x256xbf16, #b_sh> -> !hd.memdesc<64x256xbf16, #b_sh, alloc = 4x64x256>
    %b_cp_p2 = hd.async_copy %bptrs_p2, %b_dst_p2 : tensor<64x256x!hd.ptr<bf16>, #b_load> -> !hd.memdesc<64x256xbf16, #b_sh, alloc = 4x64x256>
    %grp_p2 = hd.async_commit_group %a_cp_p2, %b_cp_p2
    %zero = arith.constant dense<0.0> : tensor<128x256xf32, #acc>
    %lb = arith.constant 0 : index
    %step = arith.constant 64 : index
    %ub = arith.index_cast %k : i32 to index
    %c0i = arith.constant 0 : i32
    %c1i = arith.constant 1 : i32
    %res:2 = scf.for %kk = %lb to %ub step %step iter_args(%sum = %zero, %cur = %c0i) -> (tensor<128x256xf32, #acc>, i32) {
      %kk_i32 = arith.index_cast %kk : index to i32
      // Stage %cur has landed: start multiplying it from shared memory,
      // retire the previous step's product (freeing the stage it read),
      // then refill that stage 3 K steps ahead while this one runs.
      %w = hd.async_wait pending = 2
      %a_cur = hd.memdesc_index %a_smem[%cur] : !hd.memdesc<4x128x64xbf16, #a_sh> -> !hd.memdesc<128x64xbf16, #a_sh, alloc = 4x128x64>
      %b_cur = hd.memdesc_index %b_smem[%cur] : !hd.memdesc<4x64x256xbf16, #b_sh> -> !hd.memdesc<64x256xbf16, #b_sh, alloc = 4x64x256>
      %issued = hd.dot %a_cur, %b_cur, %sum {async} : !hd.memdesc<128x64xbf16, #a_sh, alloc = 4x128x64> * !hd.memdesc<64x256xbf16, #b_sh, alloc = 4x64x256> -> tensor<128x256xf32, #acc>
      %next = hd.dot_wait %issued pending = 1 : tensor<128x256xf32, #acc>
      %kn0 = arith.constant 192 : i32
      %kn1 = arith.addi %kk_i32, %kn0 : i32
      %knext = arith.minsi %kn1, %klast : i32
      %nx0 = arith.addi %cur, %cstages : i32
      %nx1 = arith.subi %nx0, %c1i : i32
      %nxs = arith.remsi %nx1, %cstages : i32
      %kk_a = hd.splat %knext : tensor<128x64xi32, #a_load>
      %a_off = arith.addi %a_base, %kk_a : tensor<128x64xi32, #a_load>
      %aptrs = hd.addptr %ap, %a_off : tensor<128x64x!hd.ptr<bf16>, #a_load>, tensor<128x64xi32, #a_load>
      %a_dst = hd.memdesc_index %a_smem[%nxs] : !hd.memdesc<4x128x64xbf16, #a_sh> -> !hd.memdesc<128x64xbf16, #a_sh, alloc = 4x128x64>
      %a_cp = hd.async_copy %aptrs, %a_dst : tensor<128x64x!hd.ptr<bf16>, #a_load> -> !hd.memdesc<128x64xbf16, #a_sh, alloc = 4x128x64>
      %kk_row = arith.muli %knext, %n : i32
      %kk_b = hd.splat %kk_row : tensor<64x256xi32, #b_load>
      %b_off = arith.addi %b_base, %kk_b : tensor<64x256xi32, #b_load>
      %bptrs = hd.addptr %bp, %b_off : tensor<64x256x!hd.ptr<bf16>, #b_load>, tensor<64x256xi32, #b_load>
      %b_dst = hd.memdesc_index %b_smem[%nxs] : !hd.memdesc<4x64x256xbf16, #b_sh> -> !hd.memdesc<64x256xbf16, #b_sh, alloc = 4x64x256>
      %b_cp = hd.async_copy %bptrs, %b_dst : tensor<64x256x!hd.ptr<bf16>, #b_load> -> !hd.memdesc<64x256xbf16, #b_sh, alloc = 4x64x256>
      %grp = hd.async_commit_group %a_cp, %b_cp
      %cur1 = arith.addi %cur, %c1i : i32
      %curn = arith.remsi %cur1, %cstages : i32
      scf.yield %next, %curn : tensor<128x256xf32, #acc>, i32
    }
    %done = hd.dot_wait %res#0 pending = 0 : tensor<128x256xf32, #acc>
    %wz = hd.async_wait pending = 0
    %ci = hd.arange 0 to 128 : tensor<128xi32, #c_rows>
    %m0_c = hd.splat %m0 : tensor<128xi32, #c_rows>
    %c_gi = arith.addi %m0_c, %ci : tensor<128xi32, #c_rows>
    %n_c = hd.splat %n : tensor<128xi32, #c_rows>
    %c_row_start = arith.muli %c_gi, %n_c : tensor<128xi32, #c_rows>
    %cj = hd.arange 0 to 256 : tensor<256xi32, #c_cols>
    %n0_c = hd.splat %n0 : tensor<256xi32, #c_cols>
    %c_gj = arith.addi %n0_c, %cj : tensor<256xi32, #c_cols>
    %c_row_start2 = hd.expand_dims %c_row_start axis = 1 : tensor<128xi32, #c_rows> -> tensor<128x1xi32, #c_st>
    %c_gj2 = hd.expand_dims %c_gj axis = 0 : tensor<256xi32, #c_cols> -> tensor<1x256xi32, #c_st>
    %c_row_off = hd.broadcast %c_row_start2 : tensor<128x1xi32, #c_st> -> tensor<128x256xi32, #c_st>
    %c_col_off = hd.broadcast %c_gj2 : tensor<1x256xi32, #c_st> -> tensor<128x256xi32, #c_st>
    %c_off = arith.addi %c_row_off, %c_col_off : tensor<128x256xi32, #c_st>
    %cp = hd.splat %c : tensor<128x256x!hd.ptr<bf16>, #c_st>
    %cptrs = hd.addptr %cp, %c_off : tensor<128x256x!hd.ptr<bf16>, #c_st>, tensor<128x256xi32, #c_st>
    %c_acc = arith.truncf %done : tensor<128x256xf32, #acc> to tensor<128x256xbf16, #acc>
    %c_bf16 = hd.convert_layout %c_acc : tensor<128x256xbf16, #acc> -> tensor<128x256xbf16, #c_st>
    hd.store %cptrs, %c_bf16 : tensor<128x256x!hd.ptr<bf16>, #c_st>
    return
  }
}
