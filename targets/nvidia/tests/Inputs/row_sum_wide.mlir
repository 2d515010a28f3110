// Per row of a rows x 128 i32 matrix, 4 rows per program: the i64 sum
// (sums[r]) and the f16 maximum (maxs[r]). Lane butterflies of 64-bit and
// 16-bit values: two 32-bit shuffles per step for i64, one widened for f16.
#rows = #hd.blocked<{sizePerThread = [1, 4], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#r = #hd.slice<{dim = 1, parent = #rows}>
#c = #hd.slice<{dim = 0, parent = #rows}>

module attributes {hd.num_warps = 4 : i32} {
  func.func @row_sum_wide(%in: !hd.ptr<i32> {hd.divisibility = 16 : i32}, %sums: !hd.ptr<i64> {hd.divisibility = 16 : i32}, %maxs: !hd.ptr<f16> {hd.divisibility = 16 : i32}) attributes {hd.kernel} {
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
    %ip = hd.splat %in : tensor<4x128x!hd.ptr<i32>, #rows>
    %iptrs = hd.addptr %ip, %offsets : tensor<4x128x!hd.ptr<i32>, #rows>, tensor<4x128xi32, #rows>
    %x = hd.load %iptrs : tensor<4x128x!hd.ptr<i32>, #rows>
    %wide = arith.extsi %x : tensor<4x128xi32, #rows> to tensor<4x128xi64, #rows>
    %half = arith.sitofp %x : tensor<4x128xi32, #rows> to tensor<4x128xf16, #rows>
    %sum = hd.reduce(%wide) axis = 1 : (tensor<4x128xi64, #rows>) -> tensor<4xi64, #r> {
    ^bb0(%a: i64, %b: i64):
      %s = arith.addi %a, %b : i64
      hd.yield %s : i64
    }
    %max = hd.reduce(%half) axis = 1 : (tensor<4x128xf16, #rows>) -> tensor<4xf16, #r> {
    ^bb0(%a: f16, %b: f16):
      %m = arith.maximumf %a, %b : f16
      hd.yield %m : f16
    }
    %sp = hd.splat %sums : tensor<4x!hd.ptr<i64>, #r>
    %sptrs = hd.addptr %sp, %row : tensor<4x!hd.ptr<i64>, #r>, tensor<4xi32, #r>
    hd.store %sptrs, %sum : tensor<4x!hd.ptr<i64>, #r>
    %mp = hd.splat %maxs : tensor<4x!hd.ptr<f16>, #r>
    %mptrs = hd.addptr %mp, %row : tensor<4x!hd.ptr<f16>, #r>, tensor<4xi32, #r>
    hd.store %mptrs, %max : tensor<4x!hd.ptr<f16>, #r>
    return
  }
}
