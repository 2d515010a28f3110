// threadsPerWarp [8, 8] is a 64-lane warp: NVIDIA GPUs have 32.
#bad = #hd.blocked<{sizePerThread = [1, 1], threadsPerWarp = [8, 8], warpsPerCTA = [4, 1], order = [1, 0]}>

module attributes {hd.num_warps = 4 : i32} {
  func.func @warp64(%x: !hd.ptr<f32>) attributes {hd.kernel} {
    %xp = hd.splat %x : tensor<32x8x!hd.ptr<f32>, #bad>
    %v = hd.load %xp : tensor<32x8x!hd.ptr<f32>, #bad>
    hd.store %xp, %v : tensor<32x8x!hd.ptr<f32>, #bad>
    return
  }
}
