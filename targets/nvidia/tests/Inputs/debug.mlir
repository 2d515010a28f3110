// Prints every x and asserts x < n, through vprintf and __assertfail.
#blocked = #hd.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>

module attributes {hd.num_warps = 4 : i32} {
  func.func @debug(%x: !hd.ptr<i32> {hd.divisibility = 16 : i32}, %n: i32) attributes {hd.kernel} {
    %range = hd.arange 0 to 128 : tensor<128xi32, #blocked>
    %xp = hd.splat %x : tensor<128x!hd.ptr<i32>, #blocked>
    %ptrs = hd.addptr %xp, %range : tensor<128x!hd.ptr<i32>, #blocked>, tensor<128xi32, #blocked>
    %v = hd.load %ptrs : tensor<128x!hd.ptr<i32>, #blocked>
    hd.print "x = " : %v : tensor<128xi32, #blocked>
    %n_t = hd.splat %n : tensor<128xi32, #blocked>
    %ok = arith.cmpi slt, %v, %n_t : tensor<128xi32, #blocked>
    hd.assert %ok, "x out of range" : tensor<128xi1, #blocked>
    return
  }
}
