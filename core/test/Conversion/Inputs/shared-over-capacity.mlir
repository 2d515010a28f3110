#s = #hd.swizzled<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
module attributes {hd.num_warps = 4 : i32, hd.target = #hd.target<{name = "t", arch = "a", warpSizes = [32], numWarps = 4, maxThreadsPerCTA = 1024, sharedMemoryBytes = 49152}>} {
  func.func @too_big() attributes {hd.kernel} {
    %a = hd.local_alloc -> !hd.memdesc<8192xf32, #s>
    %b = hd.local_alloc -> !hd.memdesc<8192xf32, #s>
    hd.local_dealloc %a : !hd.memdesc<8192xf32, #s>
    hd.local_dealloc %b : !hd.memdesc<8192xf32, #s>
    return
  }
}
