// Row softmax: each program normalises one row of 1024 floats (n_cols may be
// smaller; masked-off columns read -inf so they add nothing). exp and the
// divide allow approximate functions (afn), as Triton's softmax computes them.
#blocked = #hd.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [8], order = [0]}>

module attributes {hd.num_warps = 8 : i32} {
  func.func @row_softmax(%in: !hd.ptr<f32> {hd.divisibility = 16 : i32}, %out: !hd.ptr<f32> {hd.divisibility = 16 : i32}, %n_cols: i32) attributes {hd.kernel} {
    %row = hd.program_id 0
    %start = arith.muli %row, %n_cols : i32
    %cols = hd.arange 0 to 1024 : tensor<1024xi32, #blocked>
    %n = hd.splat %n_cols : tensor<1024xi32, #blocked>
    %mask = arith.cmpi slt, %cols, %n : tensor<1024xi32, #blocked>
    %base = hd.splat %start : tensor<1024xi32, #blocked>
    %offsets = arith.addi %base, %cols : tensor<1024xi32, #blocked>
    %ip = hd.splat %in : tensor<1024x!hd.ptr<f32>, #blocked>
    %iptrs = hd.addptr %ip, %offsets : tensor<1024x!hd.ptr<f32>, #blocked>, tensor<1024xi32, #blocked>
    %ninf = arith.constant dense<0xFF800000> : tensor<1024xf32, #blocked>
    %x = hd.load %iptrs mask %mask other %ninf : tensor<1024x!hd.ptr<f32>, #blocked>
    %max = hd.reduce(%x) axis = 0 : (tensor<1024xf32, #blocked>) -> f32 {
    ^bb0(%a: f32, %b: f32):
      %m = arith.maximumf %a, %b : f32
      hd.yield %m : f32
    }
    %maxs = hd.splat %max : tensor<1024xf32, #blocked>
    %shifted = arith.subf %x, %maxs : tensor<1024xf32, #blocked>
    %e = math.exp %shifted fastmath<afn> : tensor<1024xf32, #blocked>
    %sum = hd.reduce(%e) axis = 0 : (tensor<1024xf32, #blocked>) -> f32 {
    ^bb0(%a: f32, %b: f32):
      %s = arith.addf %a, %b : f32
      hd.yield %s : f32
    }
    %sums = hd.splat %sum : tensor<1024xf32, #blocked>
    %y = arith.divf %e, %sums fastmath<afn> : tensor<1024xf32, #blocked>
    %op = hd.splat %out : tensor<1024x!hd.ptr<f32>, #blocked>
    %optrs = hd.addptr %op, %offsets : tensor<1024x!hd.ptr<f32>, #blocked>, tensor<1024xi32, #blocked>
    hd.store %optrs, %y mask %mask : tensor<1024x!hd.ptr<f32>, #blocked>
    return
  }
}
