// Clusters of two programs (hd.cluster_dims) share one 64x64 bf16 block:
// program r of cluster c copies rows [32 r, 32 r + 32) of block c of `src`
// with a multicast mask naming both, so both receive the whole block on
// their own barrier. Then each arrives on the other's second barrier
// (hd.mbarrier_arrive rank) and waits on its own: it completes only if the
// peer's remote arrival landed. Program p stores what its shared memory
// holds as rows [64 p, 64 p + 64) of `out`, and 1 + its rank in flags[p].
#blk = #hd.matrix_shared<{swizzle = 128, elementBits = 16, transposed = false}>
#bar_sh = #hd.swizzled<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#st = #hd.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#rows = #hd.slice<{dim = 1, parent = #st}>
#cols = #hd.slice<{dim = 0, parent = #st}>
module attributes {hd.num_warps = 4 : i32, hd.cluster_dims = array<i32: 2, 1, 1>} {
  func.func @cluster_multicast(%src: !hd.tensor_desc<32x64xbf16, #blk>, %out: !hd.ptr<bf16>, %flags: !hd.ptr<i32>) attributes {hd.kernel} {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c2 = arith.constant 2 : i32
    %c3 = arith.constant 3 : i32
    %c32 = arith.constant 32 : i32
    %c64 = arith.constant 64 : i32
    %pid = hd.program_id 0
    %rank = arith.remsi %pid, %c2 : i32
    %cluster = arith.divsi %pid, %c2 : i32
    %is_r0 = arith.cmpi eq, %rank, %c0 : i32
    %is_r1 = arith.cmpi eq, %rank, %c1 : i32
    %other = arith.subi %c1, %rank : i32
    %tile = hd.local_alloc -> !hd.memdesc<64x64xbf16, #blk>
    %bars = hd.local_alloc -> !hd.memdesc<2x1xi64, #bar_sh>
    %full = hd.memdesc_index %bars[%c0] : !hd.memdesc<2x1xi64, #bar_sh> -> !hd.memdesc<1xi64, #bar_sh, alloc = 2x1>
    %met = hd.memdesc_index %bars[%c1] : !hd.memdesc<2x1xi64, #bar_sh> -> !hd.memdesc<1xi64, #bar_sh, alloc = 2x1>
    hd.mbarrier_init %full, 1 : !hd.memdesc<1xi64, #bar_sh, alloc = 2x1>
    hd.mbarrier_init %met, 1 : !hd.memdesc<1xi64, #bar_sh, alloc = 2x1>
    hd.cluster_barrier
    hd.mbarrier_expect %full, 8192 : !hd.memdesc<1xi64, #bar_sh, alloc = 2x1>
    %top = hd.memdesc_slice %tile [0, 0] : !hd.memdesc<64x64xbf16, #blk> -> !hd.memdesc<32x64xbf16, #blk, alloc = 64x64>
    %bottom = hd.memdesc_slice %tile [32, 0] : !hd.memdesc<64x64xbf16, #blk> -> !hd.memdesc<32x64xbf16, #blk, alloc = 64x64>
    %row0 = arith.muli %cluster, %c64 : i32
    %row1 = arith.addi %row0, %c32 : i32
    hd.async_tensor_copy %src[%row0, %c0], %full, %top pred %is_r0 multicast %c3 : !hd.tensor_desc<32x64xbf16, #blk>, !hd.memdesc<1xi64, #bar_sh, alloc = 2x1> -> !hd.memdesc<32x64xbf16, #blk, alloc = 64x64>
    hd.async_tensor_copy %src[%row1, %c0], %full, %bottom pred %is_r1 multicast %c3 : !hd.tensor_desc<32x64xbf16, #blk>, !hd.memdesc<1xi64, #bar_sh, alloc = 2x1> -> !hd.memdesc<32x64xbf16, #blk, alloc = 64x64>
    hd.mbarrier_wait %full, %c0 : !hd.memdesc<1xi64, #bar_sh, alloc = 2x1>
    hd.mbarrier_arrive %met rank %other : !hd.memdesc<1xi64, #bar_sh, alloc = 2x1>
    hd.mbarrier_wait %met, %c0 : !hd.memdesc<1xi64, #bar_sh, alloc = 2x1>
    %v = hd.local_load %tile : !hd.memdesc<64x64xbf16, #blk> -> tensor<64x64xbf16, #st>
    %i = hd.arange 0 to 64 : tensor<64xi32, #rows>
    %base = arith.muli %pid, %c64 : i32
    %base_r = hd.splat %base : tensor<64xi32, #rows>
    %gi = arith.addi %base_r, %i : tensor<64xi32, #rows>
    %c64_r = hd.splat %c64 : tensor<64xi32, #rows>
    %row_start = arith.muli %gi, %c64_r : tensor<64xi32, #rows>
    %j = hd.arange 0 to 64 : tensor<64xi32, #cols>
    %rs2 = hd.expand_dims %row_start axis = 1 : tensor<64xi32, #rows> -> tensor<64x1xi32, #st>
    %j2 = hd.expand_dims %j axis = 0 : tensor<64xi32, #cols> -> tensor<1x64xi32, #st>
    %rsb = hd.broadcast %rs2 : tensor<64x1xi32, #st> -> tensor<64x64xi32, #st>
    %jb = hd.broadcast %j2 : tensor<1x64xi32, #st> -> tensor<64x64xi32, #st>
    %off = arith.addi %rsb, %jb : tensor<64x64xi32, #st>
    %op = hd.splat %out : tensor<64x64x!hd.ptr<bf16>, #st>
    %ptrs = hd.addptr %op, %off : tensor<64x64x!hd.ptr<bf16>, #st>, tensor<64x64xi32, #st>
    hd.store %ptrs, %v : tensor<64x64x!hd.ptr<bf16>, #st>
    %flag = hd.addptr %flags, %pid : !hd.ptr<i32>, i32
    %mark = arith.addi %rank, %c1 : i32
    hd.store %flag, %mark : !hd.ptr<i32>
    hd.cluster_barrier
    return
  }
}
