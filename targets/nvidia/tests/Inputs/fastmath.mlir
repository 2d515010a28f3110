// Kernels for fastmath.test, one module each (split-file): out = f(x), or
// x / y, with and without the afn fast-math flag, a scalar exp, and exp2 and
// exp with a share of their registers by the polynomial (hd.polynomial_share).
//--- exp_afn.mlir
#b = #hd.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {hd.num_warps = 4 : i32} {
  func.func @exp_afn(%x: !hd.ptr<f32> {hd.divisibility = 16 : i32}, %out: !hd.ptr<f32> {hd.divisibility = 16 : i32}) attributes {hd.kernel} {
    %offsets = hd.arange 0 to 512 : tensor<512xi32, #b>
    %xp = hd.splat %x : tensor<512x!hd.ptr<f32>, #b>
    %xptrs = hd.addptr %xp, %offsets : tensor<512x!hd.ptr<f32>, #b>, tensor<512xi32, #b>
    %xv = hd.load %xptrs : tensor<512x!hd.ptr<f32>, #b>
    %r = math.exp %xv fastmath<afn> : tensor<512xf32, #b>
    %op = hd.splat %out : tensor<512x!hd.ptr<f32>, #b>
    %optrs = hd.addptr %op, %offsets : tensor<512x!hd.ptr<f32>, #b>, tensor<512xi32, #b>
    hd.store %optrs, %r : tensor<512x!hd.ptr<f32>, #b>
    return
  }
}
//--- exp_precise.mlir
#b = #hd.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {hd.num_warps = 4 : i32} {
  func.func @exp_precise(%x: !hd.ptr<f32> {hd.divisibility = 16 : i32}, %out: !hd.ptr<f32> {hd.divisibility = 16 : i32}) attributes {hd.kernel} {
    %offsets = hd.arange 0 to 512 : tensor<512xi32, #b>
    %xp = hd.splat %x : tensor<512x!hd.ptr<f32>, #b>
    %xptrs = hd.addptr %xp, %offsets : tensor<512x!hd.ptr<f32>, #b>, tensor<512xi32, #b>
    %xv = hd.load %xptrs : tensor<512x!hd.ptr<f32>, #b>
    %r = math.exp %xv : tensor<512xf32, #b>
    %op = hd.splat %out : tensor<512x!hd.ptr<f32>, #b>
    %optrs = hd.addptr %op, %offsets : tensor<512x!hd.ptr<f32>, #b>, tensor<512xi32, #b>
    hd.store %optrs, %r : tensor<512x!hd.ptr<f32>, #b>
    return
  }
}
//--- exp2_afn.mlir
#b = #hd.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {hd.num_warps = 4 : i32} {
  func.func @exp2_afn(%x: !hd.ptr<f32> {hd.divisibility = 16 : i32}, %out: !hd.ptr<f32> {hd.divisibility = 16 : i32}) attributes {hd.kernel} {
    %offsets = hd.arange 0 to 512 : tensor<512xi32, #b>
    %xp = hd.splat %x : tensor<512x!hd.ptr<f32>, #b>
    %xptrs = hd.addptr %xp, %offsets : tensor<512x!hd.ptr<f32>, #b>, tensor<512xi32, #b>
    %xv = hd.load %xptrs : tensor<512x!hd.ptr<f32>, #b>
    %r = math.exp2 %xv fastmath<afn> : tensor<512xf32, #b>
    %op = hd.splat %out : tensor<512x!hd.ptr<f32>, #b>
    %optrs = hd.addptr %op, %offsets : tensor<512x!hd.ptr<f32>, #b>, tensor<512xi32, #b>
    hd.store %optrs, %r : tensor<512x!hd.ptr<f32>, #b>
    return
  }
}
//--- log_afn.mlir
#b = #hd.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {hd.num_warps = 4 : i32} {
  func.func @log_afn(%x: !hd.ptr<f32> {hd.divisibility = 16 : i32}, %out: !hd.ptr<f32> {hd.divisibility = 16 : i32}) attributes {hd.kernel} {
    %offsets = hd.arange 0 to 512 : tensor<512xi32, #b>
    %xp = hd.splat %x : tensor<512x!hd.ptr<f32>, #b>
    %xptrs = hd.addptr %xp, %offsets : tensor<512x!hd.ptr<f32>, #b>, tensor<512xi32, #b>
    %xv = hd.load %xptrs : tensor<512x!hd.ptr<f32>, #b>
    %r = math.log %xv fastmath<afn> : tensor<512xf32, #b>
    %op = hd.splat %out : tensor<512x!hd.ptr<f32>, #b>
    %optrs = hd.addptr %op, %offsets : tensor<512x!hd.ptr<f32>, #b>, tensor<512xi32, #b>
    hd.store %optrs, %r : tensor<512x!hd.ptr<f32>, #b>
    return
  }
}
//--- rsqrt_afn.mlir
#b = #hd.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {hd.num_warps = 4 : i32} {
  func.func @rsqrt_afn(%x: !hd.ptr<f32> {hd.divisibility = 16 : i32}, %out: !hd.ptr<f32> {hd.divisibility = 16 : i32}) attributes {hd.kernel} {
    %offsets = hd.arange 0 to 512 : tensor<512xi32, #b>
    %xp = hd.splat %x : tensor<512x!hd.ptr<f32>, #b>
    %xptrs = hd.addptr %xp, %offsets : tensor<512x!hd.ptr<f32>, #b>, tensor<512xi32, #b>
    %xv = hd.load %xptrs : tensor<512x!hd.ptr<f32>, #b>
    %r = math.rsqrt %xv fastmath<afn> : tensor<512xf32, #b>
    %op = hd.splat %out : tensor<512x!hd.ptr<f32>, #b>
    %optrs = hd.addptr %op, %offsets : tensor<512x!hd.ptr<f32>, #b>, tensor<512xi32, #b>
    hd.store %optrs, %r : tensor<512x!hd.ptr<f32>, #b>
    return
  }
}
//--- divf_afn.mlir
#b = #hd.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {hd.num_warps = 4 : i32} {
  func.func @divf_afn(%x: !hd.ptr<f32> {hd.divisibility = 16 : i32}, %y: !hd.ptr<f32> {hd.divisibility = 16 : i32}, %out: !hd.ptr<f32> {hd.divisibility = 16 : i32}) attributes {hd.kernel} {
    %offsets = hd.arange 0 to 512 : tensor<512xi32, #b>
    %xp = hd.splat %x : tensor<512x!hd.ptr<f32>, #b>
    %xptrs = hd.addptr %xp, %offsets : tensor<512x!hd.ptr<f32>, #b>, tensor<512xi32, #b>
    %xv = hd.load %xptrs : tensor<512x!hd.ptr<f32>, #b>
    %yp = hd.splat %y : tensor<512x!hd.ptr<f32>, #b>
    %yptrs = hd.addptr %yp, %offsets : tensor<512x!hd.ptr<f32>, #b>, tensor<512xi32, #b>
    %yv = hd.load %yptrs : tensor<512x!hd.ptr<f32>, #b>
    %r = arith.divf %xv, %yv fastmath<afn> : tensor<512xf32, #b>
    %op = hd.splat %out : tensor<512x!hd.ptr<f32>, #b>
    %optrs = hd.addptr %op, %offsets : tensor<512x!hd.ptr<f32>, #b>, tensor<512xi32, #b>
    hd.store %optrs, %r : tensor<512x!hd.ptr<f32>, #b>
    return
  }
}
//--- divf_precise.mlir
#b = #hd.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {hd.num_warps = 4 : i32} {
  func.func @divf_precise(%x: !hd.ptr<f32> {hd.divisibility = 16 : i32}, %y: !hd.ptr<f32> {hd.divisibility = 16 : i32}, %out: !hd.ptr<f32> {hd.divisibility = 16 : i32}) attributes {hd.kernel} {
    %offsets = hd.arange 0 to 512 : tensor<512xi32, #b>
    %xp = hd.splat %x : tensor<512x!hd.ptr<f32>, #b>
    %xptrs = hd.addptr %xp, %offsets : tensor<512x!hd.ptr<f32>, #b>, tensor<512xi32, #b>
    %xv = hd.load %xptrs : tensor<512x!hd.ptr<f32>, #b>
    %yp = hd.splat %y : tensor<512x!hd.ptr<f32>, #b>
    %yptrs = hd.addptr %yp, %offsets : tensor<512x!hd.ptr<f32>, #b>, tensor<512xi32, #b>
    %yv = hd.load %yptrs : tensor<512x!hd.ptr<f32>, #b>
    %r = arith.divf %xv, %yv : tensor<512xf32, #b>
    %op = hd.splat %out : tensor<512x!hd.ptr<f32>, #b>
    %optrs = hd.addptr %op, %offsets : tensor<512x!hd.ptr<f32>, #b>, tensor<512xi32, #b>
    hd.store %optrs, %r : tensor<512x!hd.ptr<f32>, #b>
    return
  }
}
//--- scalar_exp_afn.mlir
module attributes {hd.num_warps = 4 : i32} {
  func.func @scalar_exp_afn(%a: f32, %out: !hd.ptr<f32>) attributes {hd.kernel} {
    %e = math.exp %a fastmath<afn> : f32
    hd.store %out, %e : !hd.ptr<f32>
    return
  }
}
//--- exp2_poly_half.mlir
#b = #hd.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {hd.num_warps = 4 : i32} {
  func.func @exp2_poly_half(%x: !hd.ptr<f32> {hd.divisibility = 16 : i32}, %out: !hd.ptr<f32> {hd.divisibility = 16 : i32}) attributes {hd.kernel} {
    %offsets = hd.arange 0 to 512 : tensor<512xi32, #b>
    %xp = hd.splat %x : tensor<512x!hd.ptr<f32>, #b>
    %xptrs = hd.addptr %xp, %offsets : tensor<512x!hd.ptr<f32>, #b>, tensor<512xi32, #b>
    %xv = hd.load %xptrs : tensor<512x!hd.ptr<f32>, #b>
    %r = math.exp2 %xv fastmath<afn> {hd.polynomial_share = 0.5 : f32} : tensor<512xf32, #b>
    %op = hd.splat %out : tensor<512x!hd.ptr<f32>, #b>
    %optrs = hd.addptr %op, %offsets : tensor<512x!hd.ptr<f32>, #b>, tensor<512xi32, #b>
    hd.store %optrs, %r : tensor<512x!hd.ptr<f32>, #b>
    return
  }
}
//--- exp_poly_all.mlir
#b = #hd.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {hd.num_warps = 4 : i32} {
  func.func @exp_poly_all(%x: !hd.ptr<f32> {hd.divisibility = 16 : i32}, %out: !hd.ptr<f32> {hd.divisibility = 16 : i32}) attributes {hd.kernel} {
    %offsets = hd.arange 0 to 512 : tensor<512xi32, #b>
    %xp = hd.splat %x : tensor<512x!hd.ptr<f32>, #b>
    %xptrs = hd.addptr %xp, %offsets : tensor<512x!hd.ptr<f32>, #b>, tensor<512xi32, #b>
    %xv = hd.load %xptrs : tensor<512x!hd.ptr<f32>, #b>
    %r = math.exp %xv fastmath<afn> {hd.polynomial_share = 1.0 : f32} : tensor<512xf32, #b>
    %op = hd.splat %out : tensor<512x!hd.ptr<f32>, #b>
    %optrs = hd.addptr %op, %offsets : tensor<512x!hd.ptr<f32>, #b>, tensor<512xi32, #b>
    hd.store %optrs, %r : tensor<512x!hd.ptr<f32>, #b>
    return
  }
}
