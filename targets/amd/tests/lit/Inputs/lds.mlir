// A kernel whose LDS is one ROWSx256 f32 tile, written and read back
// (errors.test substitutes ROWS).
#b = #hd.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#rows = #hd.slice<{dim = 1, parent = #b}>
#cols = #hd.slice<{dim = 0, parent = #b}>
#sw = #hd.swizzled<{vec = 4, perPhase = 1, maxPhase = 8, order = [1, 0]}>
module attributes {hd.num_warps = 4 : i32} {
  func.func @lds(%v: f32, %out: !hd.ptr<f32> {hd.divisibility = 16 : i32}) attributes {hd.kernel} {
    %x = hd.splat %v : tensor<ROWSx256xf32, #b>
    %tile = hd.local_alloc %x : tensor<ROWSx256xf32, #b> -> !hd.memdesc<ROWSx256xf32, #sw>
    %y = hd.local_load %tile : !hd.memdesc<ROWSx256xf32, #sw> -> tensor<ROWSx256xf32, #b>
    %r = hd.arange 0 to ROWS : tensor<ROWSxi32, #rows>
    %c = hd.arange 0 to 256 : tensor<256xi32, #cols>
    %r2 = hd.expand_dims %r axis = 1 : tensor<ROWSxi32, #rows> -> tensor<ROWSx1xi32, #b>
    %c2 = hd.expand_dims %c axis = 0 : tensor<256xi32, #cols> -> tensor<1x256xi32, #b>
    %stride = arith.constant dense<256> : tensor<ROWSx1xi32, #b>
    %ro = arith.muli %r2, %stride : tensor<ROWSx1xi32, #b>
    %rb = hd.broadcast %ro : tensor<ROWSx1xi32, #b> -> tensor<ROWSx256xi32, #b>
    %cb = hd.broadcast %c2 : tensor<1x256xi32, #b> -> tensor<ROWSx256xi32, #b>
    %off = arith.addi %rb, %cb : tensor<ROWSx256xi32, #b>
    %op = hd.splat %out : tensor<ROWSx256x!hd.ptr<f32>, #b>
    %ops = hd.addptr %op, %off : tensor<ROWSx256x!hd.ptr<f32>, #b>, tensor<ROWSx256xi32, #b>
    hd.store %ops, %y : tensor<ROWSx256x!hd.ptr<f32>, #b>
    hd.local_dealloc %tile : !hd.memdesc<ROWSx256xf32, #sw>
    return
  }
}
