// Masked copy with padding: dst[i] = src[i] for i < n and dst[i] = fill for
// n <= i < n_out, 1024 elements per program. Neither n nor n_out needs to be
// a multiple of the block: the load's mask stops at n and its `other` value
// supplies `fill` past it, the store's mask stops at n_out. Launch
// ceil(n_out / 1024) programs.
#blocked = #hd.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>

module attributes {hd.num_warps = 4 : i32} {
  func.func @masked_copy(%src: !hd.ptr<f32> {hd.divisibility = 16 : i32}, %dst: !hd.ptr<f32> {hd.divisibility = 16 : i32}, %n: i32, %n_out: i32, %fill: f32) attributes {hd.kernel} {
    %c1024 = arith.constant 1024 : i32
    %pid = hd.program_id 0
    %base = arith.muli %pid, %c1024 : i32
    %range = hd.arange 0 to 1024 : tensor<1024xi32, #blocked>
    %base_t = hd.splat %base : tensor<1024xi32, #blocked>
    %offsets = arith.addi %base_t, %range : tensor<1024xi32, #blocked>
    %n_t = hd.splat %n : tensor<1024xi32, #blocked>
    %in_src = arith.cmpi slt, %offsets, %n_t : tensor<1024xi32, #blocked>
    %n_out_t = hd.splat %n_out : tensor<1024xi32, #blocked>
    %in_dst = arith.cmpi slt, %offsets, %n_out_t : tensor<1024xi32, #blocked>
    %fill_t = hd.splat %fill : tensor<1024xf32, #blocked>
    %sp = hd.splat %src : tensor<1024x!hd.ptr<f32>, #blocked>
    %sptrs = hd.addptr %sp, %offsets : tensor<1024x!hd.ptr<f32>, #blocked>, tensor<1024xi32, #blocked>
    %x = hd.load %sptrs mask %in_src other %fill_t : tensor<1024x!hd.ptr<f32>, #blocked>
    %dp = hd.splat %dst : tensor<1024x!hd.ptr<f32>, #blocked>
    %dptrs = hd.addptr %dp, %offsets : tensor<1024x!hd.ptr<f32>, #blocked>, tensor<1024xi32, #blocked>
    hd.store %dptrs, %x mask %in_dst : tensor<1024x!hd.ptr<f32>, #blocked>
    return
  }
}
