// D = A * B + C on dpas.i32.8x8x32.i8 (acm, 8-lane sub-groups): a 16x16x64
// dot over two sub-groups along M, each issuing the instruction for 2 tiles
// along N x 2 steps along K (dpas.test).
#instr = #hd.matrix_instr<{name = "dpas.i32.8x8x32.i8", shape = [8, 8, 32], aType = i8, bType = i8, accType = i32, a = {register = [[0, 1], [0, 2], [1, 0], [2, 0], [4, 0]], lane = [[0, 4], [0, 8], [0, 16]]}, b = {register = [[1, 0], [2, 0], [4, 0], [8, 0], [16, 0]], lane = [[0, 1], [0, 2], [0, 4]]}, acc = {register = [[1, 0], [2, 0], [4, 0]], lane = [[0, 1], [0, 2], [0, 4]]}}>
#mma = #hd.mma<{instr = #instr, warpsPerCTA = [2, 1]}>
#a_op = #hd.dot_op<{opIdx = 0, parent = #mma}>
#b_op = #hd.dot_op<{opIdx = 1, parent = #mma}>
#ld = #hd.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 8], warpsPerCTA = [2, 1], order = [1, 0]}>
#rows = #hd.slice<{dim = 1, parent = #ld}>
#cols = #hd.slice<{dim = 0, parent = #ld}>
module attributes {hd.num_warps = 2 : i32} {
  func.func @mma_dot(%a: !hd.ptr<i8>, %b: !hd.ptr<i8>, %c: !hd.ptr<i32>, %d: !hd.ptr<i32>) attributes {hd.kernel} {
    %a_r = hd.arange 0 to 16 : tensor<16xi32, #rows>
    %a_s = arith.constant dense<64> : tensor<16xi32, #rows>
    %a_rs = arith.muli %a_r, %a_s : tensor<16xi32, #rows>
    %a_r2 = hd.expand_dims %a_rs axis = 1 : tensor<16xi32, #rows> -> tensor<16x1xi32, #ld>
    %a_rb = hd.broadcast %a_r2 : tensor<16x1xi32, #ld> -> tensor<16x64xi32, #ld>
    %a_c = hd.arange 0 to 64 : tensor<64xi32, #cols>
    %a_c2 = hd.expand_dims %a_c axis = 0 : tensor<64xi32, #cols> -> tensor<1x64xi32, #ld>
    %a_cb = hd.broadcast %a_c2 : tensor<1x64xi32, #ld> -> tensor<16x64xi32, #ld>
    %a_off = arith.addi %a_rb, %a_cb : tensor<16x64xi32, #ld>
    %a_p = hd.splat %a : tensor<16x64x!hd.ptr<i8>, #ld>
    %a_ptrs = hd.addptr %a_p, %a_off : tensor<16x64x!hd.ptr<i8>, #ld>, tensor<16x64xi32, #ld>
    %b_r = hd.arange 0 to 64 : tensor<64xi32, #rows>
    %b_s = arith.constant dense<16> : tensor<64xi32, #rows>
    %b_rs = arith.muli %b_r, %b_s : tensor<64xi32, #rows>
    %b_r2 = hd.expand_dims %b_rs axis = 1 : tensor<64xi32, #rows> -> tensor<64x1xi32, #ld>
    %b_rb = hd.broadcast %b_r2 : tensor<64x1xi32, #ld> -> tensor<64x16xi32, #ld>
    %b_c = hd.arange 0 to 16 : tensor<16xi32, #cols>
    %b_c2 = hd.expand_dims %b_c axis = 0 : tensor<16xi32, #cols> -> tensor<1x16xi32, #ld>
    %b_cb = hd.broadcast %b_c2 : tensor<1x16xi32, #ld> -> tensor<64x16xi32, #ld>
    %b_off = arith.addi %b_rb, %b_cb : tensor<64x16xi32, #ld>
    %b_p = hd.splat %b : tensor<64x16x!hd.ptr<i8>, #ld>
    %b_ptrs = hd.addptr %b_p, %b_off : tensor<64x16x!hd.ptr<i8>, #ld>, tensor<64x16xi32, #ld>
    %c_r = hd.arange 0 to 16 : tensor<16xi32, #rows>
    %c_s = arith.constant dense<16> : tensor<16xi32, #rows>
    %c_rs = arith.muli %c_r, %c_s : tensor<16xi32, #rows>
    %c_r2 = hd.expand_dims %c_rs axis = 1 : tensor<16xi32, #rows> -> tensor<16x1xi32, #ld>
    %c_rb = hd.broadcast %c_r2 : tensor<16x1xi32, #ld> -> tensor<16x16xi32, #ld>
    %c_c = hd.arange 0 to 16 : tensor<16xi32, #cols>
    %c_c2 = hd.expand_dims %c_c axis = 0 : tensor<16xi32, #cols> -> tensor<1x16xi32, #ld>
    %c_cb = hd.broadcast %c_c2 : tensor<1x16xi32, #ld> -> tensor<16x16xi32, #ld>
    %c_off = arith.addi %c_rb, %c_cb : tensor<16x16xi32, #ld>
    %c_p = hd.splat %c : tensor<16x16x!hd.ptr<i32>, #ld>
    %c_ptrs = hd.addptr %c_p, %c_off : tensor<16x16x!hd.ptr<i32>, #ld>, tensor<16x16xi32, #ld>
    %d_r = hd.arange 0 to 16 : tensor<16xi32, #rows>
    %d_s = arith.constant dense<16> : tensor<16xi32, #rows>
    %d_rs = arith.muli %d_r, %d_s : tensor<16xi32, #rows>
    %d_r2 = hd.expand_dims %d_rs axis = 1 : tensor<16xi32, #rows> -> tensor<16x1xi32, #ld>
    %d_rb = hd.broadcast %d_r2 : tensor<16x1xi32, #ld> -> tensor<16x16xi32, #ld>
    %d_c = hd.arange 0 to 16 : tensor<16xi32, #cols>
    %d_c2 = hd.expand_dims %d_c axis = 0 : tensor<16xi32, #cols> -> tensor<1x16xi32, #ld>
    %d_cb = hd.broadcast %d_c2 : tensor<1x16xi32, #ld> -> tensor<16x16xi32, #ld>
    %d_off = arith.addi %d_rb, %d_cb : tensor<16x16xi32, #ld>
    %d_p = hd.splat %d : tensor<16x16x!hd.ptr<i32>, #ld>
    %d_ptrs = hd.addptr %d_p, %d_off : tensor<16x16x!hd.ptr<i32>, #ld>, tensor<16x16xi32, #ld>
    %av = hd.load %a_ptrs : tensor<16x64x!hd.ptr<i8>, #ld>
    %bv = hd.load %b_ptrs : tensor<64x16x!hd.ptr<i8>, #ld>
    %cv = hd.load %c_ptrs : tensor<16x16x!hd.ptr<i32>, #ld>
    %ao = hd.convert_layout %av : tensor<16x64xi8, #ld> -> tensor<16x64xi8, #a_op>
    %bo = hd.convert_layout %bv : tensor<64x16xi8, #ld> -> tensor<64x16xi8, #b_op>
    %co = hd.convert_layout %cv : tensor<16x16xi32, #ld> -> tensor<16x16xi32, #mma>
    %do = hd.dot %ao, %bo, %co : tensor<16x64xi8, #a_op> * tensor<64x16xi8, #b_op> -> tensor<16x16xi32, #mma>
    %dv = hd.convert_layout %do : tensor<16x16xi32, #mma> -> tensor<16x16xi32, #ld>
    hd.store %d_ptrs, %dv : tensor<16x16x!hd.ptr<i32>, #ld>
    return
  }
}
