#a = #hd.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b = #hd.blocked<{sizePerThread = [8], threadsPerWarp = [16], warpsPerCTA = [4], order = [0]}>
module attributes {hd.num_warps = 4 : i32} {
  func.func @mixed(%x: !hd.ptr<f32>, %out: !hd.ptr<f32>) attributes {hd.kernel} {
    %r = hd.arange 0 to 512 : tensor<512xi32, #a>
    %xp = hd.splat %x : tensor<512x!hd.ptr<f32>, #a>
    %p = hd.addptr %xp, %r : tensor<512x!hd.ptr<f32>, #a>, tensor<512xi32, #a>
    %v = hd.load %p : tensor<512x!hd.ptr<f32>, #a>
    %w = hd.convert_layout %v : tensor<512xf32, #a> -> tensor<512xf32, #b>
    %r2 = hd.arange 0 to 512 : tensor<512xi32, #b>
    %op = hd.splat %out : tensor<512x!hd.ptr<f32>, #b>
    %q = hd.addptr %op, %r2 : tensor<512x!hd.ptr<f32>, #b>, tensor<512xi32, #b>
    hd.store %q, %w : tensor<512x!hd.ptr<f32>, #b>
    return
  }
}
