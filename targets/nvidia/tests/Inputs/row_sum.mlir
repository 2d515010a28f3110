// out[r] = sum of row r of a rows x 128 f32 matrix, 4 rows per program.
// threadsPerWarp [1, 32] and warpsPerCTA [4, 1]: each warp owns one row,
// so the reduction is 4 registers per thread, then a butterfly over the
// lanes of one warp (no shared memory).
#rows = #hd.blocked<{sizePerThread = [1, 4], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#r = #hd.slice<{dim = 1, parent = #rows}>
#c = #hd.slice<{dim = 0, parent = #rows}>

module attributes {hd.num_warps = 4 : i32} {
  func.func @row_sum(%in: !hd.ptr<f32> {hd.divisibility = 16 : i32}, %out: !hd.ptr<f32> {hd.divisibility = 16 : i32}) attributes {hd.kernel} {
    %c4 = arith.constant 4 : i32
    %c128 = arith.constant 128 : i32
    %pid = hd.program_id 0
    %r0 = arith.muli %pid, %c4 : i32
    %ri = hd.arange 0 to 4 : tensor<4xi32, #r>
    %r0_t = hd.splat %r0 : tensor<4xi32, #r>
    %row = arith.addi %r0_t, %ri : tensor<4xi32, #r>
    %c128_t = hd.splat %c128 : tensor<4xi32, #r>
    %row_start = arith.muli %row, %c128_t : tensor<4xi32, #r>
    %row_start2 = hd.expand_dims %row_start axis = 1 : tensor<4xi32, #r> -> tensor<4x1xi32, #rows>
    %row_start_b = hd.broadcast %row_start2 : tensor<4x1xi32, #rows> -> tensor<4x128xi32, #rows>
    %ci = hd.arange 0 to 128 : tensor<128xi32, #c>
    %ci2 = hd.expand_dims %ci axis = 0 : tensor<128xi32, #c> -> tensor<1x128xi32, #rows>
    %ci_b = hd.broadcast %ci2 : tensor<1x128xi32, #rows> -> tensor<4x128xi32, #rows>
    %offsets = arith.addi %row_start_b, %ci_b : tensor<4x128xi32, #rows>
    %ip = hd.splat %in : tensor<4x128x!hd.ptr<f32>, #rows>
    %iptrs = hd.addptr %ip, %offsets : tensor<4x128x!hd.ptr<f32>, #rows>, tensor<4x128xi32, #rows>
    %x = hd.load %iptrs : tensor<4x128x!hd.ptr<f32>, #rows>
    %sum = hd.reduce(%x) axis = 1 : (tensor<4x128xf32, #rows>) -> tensor<4xf32, #r> {
    ^bb0(%a: f32, %b: f32):
      %s = arith.addf %a, %b : f32
      hd.yield %s : f32
    }
    %op = hd.splat %out : tensor<4x!hd.ptr<f32>, #r>
    %optrs = hd.addptr %op, %row : tensor<4x!hd.ptr<f32>, #r>, tensor<4xi32, #r>
    hd.store %optrs, %sum : tensor<4x!hd.ptr<f32>, #r>
    return
  }
}
