// x[i] < 50 for every element, or the kernel stops: run.test feeds it iota.
#b = #hd.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {hd.num_warps = 4 : i32} {
  func.func @k(%x: !hd.ptr<i32> {hd.divisibility = 16 : i32}) attributes {hd.kernel} {
    %p = hd.splat %x : tensor<512x!hd.ptr<i32>, #b>
    %o = hd.arange 0 to 512 : tensor<512xi32, #b>
    %q = hd.addptr %p, %o : tensor<512x!hd.ptr<i32>, #b>, tensor<512xi32, #b>
    %v = hd.load %q : tensor<512x!hd.ptr<i32>, #b>
    %c = arith.constant dense<50> : tensor<512xi32, #b>
    %ok = arith.cmpi slt, %v, %c : tensor<512xi32, #b>
    hd.assert %ok, "x must be below 50" : tensor<512xi1, #b>
    return
  }
}
