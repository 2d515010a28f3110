// out[i] = exp(x) + log(|x| + 1) + sqrt(|x|) + tanh(x) + sin(x): every
// function but sqrt comes from libdevice on NVIDIA.
#blocked = #hd.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>

module attributes {hd.num_warps = 4 : i32} {
  func.func @math(%x: !hd.ptr<f32> {hd.divisibility = 16 : i32}, %out: !hd.ptr<f32> {hd.divisibility = 16 : i32}, %n: i32) attributes {hd.kernel} {
    %c512 = arith.constant 512 : i32
    %pid = hd.program_id 0
    %base = arith.muli %pid, %c512 : i32
    %range = hd.arange 0 to 512 : tensor<512xi32, #blocked>
    %base_t = hd.splat %base : tensor<512xi32, #blocked>
    %offsets = arith.addi %base_t, %range : tensor<512xi32, #blocked>
    %n_t = hd.splat %n : tensor<512xi32, #blocked>
    %mask = arith.cmpi slt, %offsets, %n_t : tensor<512xi32, #blocked>
    %xp = hd.splat %x : tensor<512x!hd.ptr<f32>, #blocked>
    %xptrs = hd.addptr %xp, %offsets : tensor<512x!hd.ptr<f32>, #blocked>, tensor<512xi32, #blocked>
    %v = hd.load %xptrs mask %mask : tensor<512x!hd.ptr<f32>, #blocked>
    %one = arith.constant dense<1.0> : tensor<512xf32, #blocked>
    %a = math.absf %v : tensor<512xf32, #blocked>
    %e = math.exp %v : tensor<512xf32, #blocked>
    %a1 = arith.addf %a, %one : tensor<512xf32, #blocked>
    %l = math.log %a1 : tensor<512xf32, #blocked>
    %s = math.sqrt %a : tensor<512xf32, #blocked>
    %t = math.tanh %v : tensor<512xf32, #blocked>
    %sn = math.sin %v : tensor<512xf32, #blocked>
    %r0 = arith.addf %e, %l : tensor<512xf32, #blocked>
    %r1 = arith.addf %r0, %s : tensor<512xf32, #blocked>
    %r2 = arith.addf %r1, %t : tensor<512xf32, #blocked>
    %r3 = arith.addf %r2, %sn : tensor<512xf32, #blocked>
    %op = hd.splat %out : tensor<512x!hd.ptr<f32>, #blocked>
    %optrs = hd.addptr %op, %offsets : tensor<512x!hd.ptr<f32>, #blocked>, tensor<512xi32, #blocked>
    hd.store %optrs, %r3 mask %mask : tensor<512x!hd.ptr<f32>, #blocked>
    return
  }
}
