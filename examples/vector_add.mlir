// Vector add: out[i] = x[i] + y[i] for i < n, 1024 elements per program.
// Each thread loads 4 consecutive floats (a 16-byte vector), 32 lanes per
// warp, 4 warps per program: 512 elements per layout tile, repeated twice.
#blocked = #hd.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>

module attributes {hd.num_warps = 4 : i32} {
  func.func @vector_add(%x: !hd.ptr<f32> {hd.divisibility = 16 : i32}, %y: !hd.ptr<f32> {hd.divisibility = 16 : i32}, %out: !hd.ptr<f32> {hd.divisibility = 16 : i32}, %n: i32) attributes {hd.kernel} {
    %c1024 = arith.constant 1024 : i32
    %pid = hd.program_id 0
    %base = arith.muli %pid, %c1024 : i32
    %range = hd.arange 0 to 1024 : tensor<1024xi32, #blocked>
    %base_t = hd.splat %base : tensor<1024xi32, #blocked>
    %offsets = arith.addi %base_t, %range : tensor<1024xi32, #blocked>
    %n_t = hd.splat %n : tensor<1024xi32, #blocked>
    %mask = arith.cmpi slt, %offsets, %n_t : tensor<1024xi32, #blocked>
    %xp = hd.splat %x : tensor<1024x!hd.ptr<f32>, #blocked>
    %xptrs = hd.addptr %xp, %offsets : tensor<1024x!hd.ptr<f32>, #blocked>, tensor<1024xi32, #blocked>
    %yp = hd.splat %y : tensor<1024x!hd.ptr<f32>, #blocked>
    %yptrs = hd.addptr %yp, %offsets : tensor<1024x!hd.ptr<f32>, #blocked>, tensor<1024xi32, #blocked>
    %xv = hd.load %xptrs mask %mask : tensor<1024x!hd.ptr<f32>, #blocked>
    %yv = hd.load %yptrs mask %mask : tensor<1024x!hd.ptr<f32>, #blocked>
    %sum = arith.addf %xv, %yv : tensor<1024xf32, #blocked>
    %op = hd.splat %out : tensor<1024x!hd.ptr<f32>, #blocked>
    %optrs = hd.addptr %op, %offsets : tensor<1024x!hd.ptr<f32>, #blocked>, tensor<1024xi32, #blocked>
    hd.store %optrs, %sum mask %mask : tensor<1024x!hd.ptr<f32>, #blocked>
    return
  }
}
