// D = A * B + C on wmma.f32.16x16x16.bf16: a 32x32x32 dot over two wave32s
// along M, each issuing the instruction for 2 tiles along N x 2 steps along K
// (mma.test).
#instr = #hd.matrix_instr<{name = "wmma.f32.16x16x16.bf16", shape = [16, 16, 16], aType = bf16, bType = bf16, accType = f32, a = {register = [[0, 1], [0, 2], [0, 4], [0, 8]], lane = [[1, 0], [2, 0], [4, 0], [8, 0], [0, 0]]}, b = {register = [[1, 0], [2, 0], [4, 0], [8, 0]], lane = [[0, 1], [0, 2], [0, 4], [0, 8], [0, 0]]}, acc = {register = [[2, 0], [4, 0], [8, 0]], lane = [[0, 1], [0, 2], [0, 4], [0, 8], [1, 0]]}}>
#mma = #hd.mma<{instr = #instr, warpsPerCTA = [2, 1]}>
#a_op = #hd.dot_op<{opIdx = 0, parent = #mma}>
#b_op = #hd.dot_op<{opIdx = 1, parent = #mma}>
#ld = #hd.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [2, 1], order = [1, 0]}>
#rows = #hd.slice<{dim = 1, parent = #ld}>
#cols = #hd.slice<{dim = 0, parent = #ld}>
module attributes {hd.num_warps = 2 : i32} {
  func.func @mma_dot(%a: !hd.ptr<bf16>, %b: !hd.ptr<bf16>, %c: !hd.ptr<f32>, %d: !hd.ptr<f32>) attributes {hd.kernel} {
    %a_r = hd.arange 0 to 32 : tensor<32xi32, #rows>
    %a_s = arith.constant dense<32> : tensor<32xi32, #rows>
    %a_rs = arith.muli %a_r, %a_s : tensor<32xi32, #rows>
    %a_r2 = hd.expand_dims %a_rs axis = 1 : tensor<32xi32, #rows> -> tensor<32x1xi32, #ld>
    %a_rb = hd.broadcast %a_r2 : tensor<32x1xi32, #ld> -> tensor<32x32xi32, #ld>
    %a_c = hd.arange 0 to 32 : tensor<32xi32, #cols>
    %a_c2 = hd.expand_dims %a_c axis = 0 : tensor<32xi32, #cols> -> tensor<1x32xi32, #ld>
    %a_cb = hd.broadcast %a_c2 : tensor<1x32xi32, #ld> -> tensor<32x32xi32, #ld>
    %a_off = arith.addi %a_rb, %a_cb : tensor<32x32xi32, #ld>
    %a_p = hd.splat %a : tensor<32x32x!hd.ptr<bf16>, #ld>
    %a_ptrs = hd.addptr %a_p, %a_off : tensor<32x32x!hd.ptr<bf16>, #ld>, tensor<32x32xi32, #ld>
    %b_r = hd.arange 0 to 32 : tensor<32xi32, #rows>
    %b_s = arith.constant dense<32> : tensor<32xi32, #rows>
    %b_rs = arith.muli %b_r, %b_s : tensor<32xi32, #rows>
    %b_r2 = hd.expand_dims %b_rs axis = 1 : tensor<32xi32, #rows> -> tensor<32x1xi32, #ld>
    %b_rb = hd.broadcast %b_r2 : tensor<32x1xi32, #ld> -> tensor<32x32xi32, #ld>
    %b_c = hd.arange 0 to 32 : tensor<32xi32, #cols>
    %b_c2 = hd.expand_dims %b_c axis = 0 : tensor<32xi32, #cols> -> tensor<1x32xi32, #ld>
    %b_cb = hd.broadcast %b_c2 : tensor<1x32xi32, #ld> -> tensor<32x32xi32, #ld>
    %b_off = arith.addi %b_rb, %b_cb : tensor<32x32xi32, #ld>
    %b_p = hd.splat %b : tensor<32x32x!hd.ptr<bf16>, #ld>
    %b_ptrs = hd.addptr %b_p, %b_off : tensor<32x32x!hd.ptr<bf16>, #ld>, tensor<32x32xi32, #ld>
    %c_r = hd.arange 0 to 32 : tensor<32xi32, #rows>
    %c_s = arith.constant dense<32> : tensor<32xi32, #rows>
    %c_rs = arith.muli %c_r, %c_s : tensor<32xi32, #rows>
    %c_r2 = hd.expand_dims %c_rs axis = 1 : tensor<32xi32, #rows> -> tensor<32x1xi32, #ld>
    %c_rb = hd.broadcast %c_r2 : tensor<32x1xi32, #ld> -> tensor<32x32xi32, #ld>
    %c_c = hd.arange 0 to 32 : tensor<32xi32, #cols>
    %c_c2 = hd.expand_dims %c_c axis = 0 : tensor<32xi32, #cols> -> tensor<1x32xi32, #ld>
    %c_cb = hd.broadcast %c_c2 : tensor<1x32xi32, #ld> -> tensor<32x32xi32, #ld>
    %c_off = arith.addi %c_rb, %c_cb : tensor<32x32xi32, #ld>
    %c_p = hd.splat %c : tensor<32x32x!hd.ptr<f32>, #ld>
    %c_ptrs = hd.addptr %c_p, %c_off : tensor<32x32x!hd.ptr<f32>, #ld>, tensor<32x32xi32, #ld>
    %d_r = hd.arange 0 to 32 : tensor<32xi32, #rows>
    %d_s = arith.constant dense<32> : tensor<32xi32, #rows>
    %d_rs = arith.muli %d_r, %d_s : tensor<32xi32, #rows>
    %d_r2 = hd.expand_dims %d_rs axis = 1 : tensor<32xi32, #rows> -> tensor<32x1xi32, #ld>
    %d_rb = hd.broadcast %d_r2 : tensor<32x1xi32, #ld> -> tensor<32x32xi32, #ld>
    %d_c = hd.arange 0 to 32 : tensor<32xi32, #cols>
    %d_c2 = hd.expand_dims %d_c axis = 0 : tensor<32xi32, #cols> -> tensor<1x32xi32, #ld>
    %d_cb = hd.broadcast %d_c2 : tensor<1x32xi32, #ld> -> tensor<32x32xi32, #ld>
    %d_off = arith.addi %d_rb, %d_cb : tensor<32x32xi32, #ld>
    %d_p = hd.splat %d : tensor<32x32x!hd.ptr<f32>, #ld>
    %d_ptrs = hd.addptr %d_p, %d_off : tensor<32x32x!hd.ptr<f32>, #ld>, tensor<32x32xi32, #ld>
    %av = hd.load %a_ptrs : tensor<32x32x!hd.ptr<bf16>, #ld>
    %bv = hd.load %b_ptrs : tensor<32x32x!hd.ptr<bf16>, #ld>
    %cv = hd.load %c_ptrs : tensor<32x32x!hd.ptr<f32>, #ld>
    %ao = hd.convert_layout %av : tensor<32x32xbf16, #ld> -> tensor<32x32xbf16, #a_op>
    %bo = hd.convert_layout %bv : tensor<32x32xbf16, #ld> -> tensor<32x32xbf16, #b_op>
    %co = hd.convert_layout %cv : tensor<32x32xf32, #ld> -> tensor<32x32xf32, #mma>
    %do = hd.dot %ao, %bo, %co : tensor<32x32xbf16, #a_op> * tensor<32x32xbf16, #b_op> -> tensor<32x32xf32, #mma>
    %dv = hd.convert_layout %do : tensor<32x32xf32, #mma> -> tensor<32x32xf32, #ld>
    hd.store %d_ptrs, %dv : tensor<32x32x!hd.ptr<f32>, #ld>
    return
  }
}
