// Two kernels in one module, each reducing across the lanes of its warp.
#b = #hd.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
module attributes {hd.num_warps = 1 : i32} {
  func.func @first(%in: !hd.ptr<f32>, %out: !hd.ptr<f32>) attributes {hd.kernel} {
    %i = hd.arange 0 to 32 : tensor<32xi32, #b>
    %p = hd.splat %in : tensor<32x!hd.ptr<f32>, #b>
    %ptrs = hd.addptr %p, %i : tensor<32x!hd.ptr<f32>, #b>, tensor<32xi32, #b>
    %x = hd.load %ptrs : tensor<32x!hd.ptr<f32>, #b>
    %s = hd.reduce(%x) axis = 0 : (tensor<32xf32, #b>) -> f32 {
    ^bb0(%a: f32, %c: f32):
      %t = arith.addf %a, %c : f32
      hd.yield %t : f32
    }
    hd.store %out, %s : !hd.ptr<f32>
    return
  }
  func.func @second(%in: !hd.ptr<f32>, %out: !hd.ptr<f32>) attributes {hd.kernel} {
    %i = hd.arange 0 to 32 : tensor<32xi32, #b>
    %p = hd.splat %in : tensor<32x!hd.ptr<f32>, #b>
    %ptrs = hd.addptr %p, %i : tensor<32x!hd.ptr<f32>, #b>, tensor<32xi32, #b>
    %x = hd.load %ptrs : tensor<32x!hd.ptr<f32>, #b>
    %s = hd.reduce(%x) axis = 0 : (tensor<32xf32, #b>) -> f32 {
    ^bb0(%a: f32, %c: f32):
      %t = arith.maxnumf %a, %c : f32
      hd.yield %t : f32
    }
    hd.store %out, %s : !hd.ptr<f32>
    return
  }
}
