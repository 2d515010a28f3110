// A tile goes through shared memory and back: local_store, barrier,
// local_load, so the kernel addresses the dynamic shared array.
#b2 = #hd.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#sw = #hd.swizzled<{vec = 4, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#r = #hd.slice<{dim = 1, parent = #b2}>
#c = #hd.slice<{dim = 0, parent = #b2}>

module attributes {hd.num_warps = 4 : i32} {
  func.func @shared_copy(%in: !hd.ptr<f32> {hd.divisibility = 16 : i32}, %out: !hd.ptr<f32> {hd.divisibility = 16 : i32}) attributes {hd.kernel} {
    %c32 = arith.constant 32 : i32
    %ri = hd.arange 0 to 16 : tensor<16xi32, #r>
    %c32_t = hd.splat %c32 : tensor<16xi32, #r>
    %rs = arith.muli %ri, %c32_t : tensor<16xi32, #r>
    %rs2 = hd.expand_dims %rs axis = 1 : tensor<16xi32, #r> -> tensor<16x1xi32, #b2>
    %rsb = hd.broadcast %rs2 : tensor<16x1xi32, #b2> -> tensor<16x32xi32, #b2>
    %ci = hd.arange 0 to 32 : tensor<32xi32, #c>
    %ci2 = hd.expand_dims %ci axis = 0 : tensor<32xi32, #c> -> tensor<1x32xi32, #b2>
    %cib = hd.broadcast %ci2 : tensor<1x32xi32, #b2> -> tensor<16x32xi32, #b2>
    %offsets = arith.addi %rsb, %cib : tensor<16x32xi32, #b2>
    %ip = hd.splat %in : tensor<16x32x!hd.ptr<f32>, #b2>
    %iptrs = hd.addptr %ip, %offsets : tensor<16x32x!hd.ptr<f32>, #b2>, tensor<16x32xi32, #b2>
    %t = hd.load %iptrs : tensor<16x32x!hd.ptr<f32>, #b2>
    %tile = hd.local_alloc -> !hd.memdesc<16x32xf32, #sw>
    hd.local_store %t, %tile : tensor<16x32xf32, #b2> -> !hd.memdesc<16x32xf32, #sw>
    hd.barrier
    %back = hd.local_load %tile : !hd.memdesc<16x32xf32, #sw> -> tensor<16x32xf32, #b2>
    hd.local_dealloc %tile : !hd.memdesc<16x32xf32, #sw>
    %op = hd.splat %out : tensor<16x32x!hd.ptr<f32>, #b2>
    %optrs = hd.addptr %op, %offsets : tensor<16x32x!hd.ptr<f32>, #b2>, tensor<16x32xi32, #b2>
    hd.store %optrs, %back : tensor<16x32x!hd.ptr<f32>, #b2>
    return
  }
}
