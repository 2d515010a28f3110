// The module-level checks of #hd.target (warp size, num_warps, threads per
// CTA, shared memory) and the misuse of hd's discardable attributes.
// RUN: hadron-opt %s -split-input-file -verify-diagnostics

#b = #hd.blocked<{sizePerThread = [1, 1], threadsPerWarp = [8, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {hd.target = #hd.target<{name = "sm_90", arch = "a", warpSizes = [32], numWarps = 4, maxThreadsPerCTA = 1024, sharedMemoryBytes = 49152}>} {
  func.func @f(%c: i32) {
    // expected-error @+1 {{'hd.splat' op result #0: threadsPerWarp [8, 8] multiplies to 64, target sm_90 allows 32}}
    %0 = hd.splat %c : tensor<64x64xi32, #b>
    return
  }
}

// -----

#b = #hd.blocked<{sizePerThread = [1], threadsPerWarp = [16], warpsPerCTA = [4], order = [0]}>
module attributes {hd.target = #hd.target<{name = "gfx", arch = "a", warpSizes = [32, 64], numWarps = 4, maxThreadsPerCTA = 1024, sharedMemoryBytes = 49152}>} {
  // expected-error @+1 {{'func.func' op block argument #0: threadsPerWarp [16] multiplies to 16, target gfx allows 32 or 64}}
  func.func @f(%t: tensor<64xf32, #b>) {
    return
  }
}

// -----

#b = #hd.blocked<{sizePerThread = [1, 1], threadsPerWarp = [8, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {hd.target = #hd.target<{name = "sm_90", arch = "a", warpSizes = [32], numWarps = 4, maxThreadsPerCTA = 1024, sharedMemoryBytes = 49152}>} {
  // A slice reports its parent's threadsPerWarp.
  // expected-error @+1 {{block argument #0: threadsPerWarp [8, 8] multiplies to 64, target sm_90 allows 32}}
  func.func @f(%t: tensor<64xf32, #hd.slice<{dim = 1, parent = #b}>>) {
    return
  }
}

// -----

#l = #hd.linear<{register = [[1]], lane = [[2], [4]], warp = [[8], [16]]}>
module attributes {hd.target = #hd.target<{name = "sm_90", arch = "a", warpSizes = [32], numWarps = 4, maxThreadsPerCTA = 1024, sharedMemoryBytes = 49152}>} {
  // expected-error @+1 {{block argument #0: layout #hd.linear<{register = [[1]], lane = [[2], [4]], warp = [[8], [16]], block = []}> has 4 lanes per warp, target sm_90 allows 32}}
  func.func @f(%t: tensor<32xf32, #l>) {
    return
  }
}

// -----

#b32 = #hd.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b64 = #hd.blocked<{sizePerThread = [1], threadsPerWarp = [64], warpsPerCTA = [4], order = [0]}>
module attributes {hd.target = #hd.target<{name = "gfx", arch = "a", warpSizes = [32, 64], numWarps = 4, maxThreadsPerCTA = 1024, sharedMemoryBytes = 49152}>} {
  func.func @f(%s: f32) {
    %0 = hd.splat %s : tensor<128xf32, #b32>
    // expected-error @+1 {{result #0: threadsPerWarp [64] multiplies to 64, but another layout of this module has warps of 32 lanes; a module uses one warp size}}
    %1 = hd.splat %s : tensor<256xf32, #b64>
    return
  }
}

// -----

#b = #hd.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [2, 4], order = [1, 0]}>
module attributes {hd.target = #hd.target<{name = "sm_90", arch = "a", warpSizes = [32], numWarps = 4, maxThreadsPerCTA = 1024, sharedMemoryBytes = 49152}>} {
  func.func @f(%s: f32) {
    // expected-error @+1 {{result #0: warpsPerCTA [2, 4] multiplies to 8, target sm_90 runs num_warps = 4}}
    %0 = hd.splat %s : tensor<32x32xf32, #b>
    return
  }
}

// -----

#l = #hd.linear<{lane = [[1], [2], [4], [8], [16]], warp = [[32]]}>
module attributes {hd.target = #hd.target<{name = "sm_90", arch = "a", warpSizes = [32], numWarps = 4, maxThreadsPerCTA = 1024, sharedMemoryBytes = 49152}>} {
  func.func @f(%s: f32) {
    // expected-error @+1 {{result #0: layout #hd.linear<{register = [], lane = [[1], [2], [4], [8], [16]], warp = [[32]], block = []}> has 2 warps, target sm_90 runs num_warps = 4}}
    %0 = hd.splat %s : tensor<64xf32, #l>
    return
  }
}

// -----

#b = #hd.blocked<{sizePerThread = [1], threadsPerWarp = [64], warpsPerCTA = [16], order = [0]}>
module attributes {hd.target = #hd.target<{name = "gfx", arch = "a", warpSizes = [32, 64], numWarps = 16, maxThreadsPerCTA = 768, sharedMemoryBytes = 49152}>} {
  func.func @f(%s: f32) {
    // expected-error @+1 {{result #0: 16 warps of 64 lanes exceed the 768 threads per CTA target gfx allows}}
    %0 = hd.splat %s : tensor<1024xf32, #b>
    return
  }
}

// -----

#sw = #hd.swizzled<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
module attributes {hd.target = #hd.target<{name = "sm_90", arch = "a", warpSizes = [32], numWarps = 4, maxThreadsPerCTA = 1024, sharedMemoryBytes = 49152}>} {
  func.func @f() {
    // expected-error @+1 {{'hd.local_alloc' op of '!hd.memdesc<128x128xf32, #hd.swizzled<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>>' needs 65536 bytes of shared memory; target sm_90 allows 49152 per CTA}}
    %0 = hd.local_alloc -> !hd.memdesc<128x128xf32, #sw>
    return
  }
}

// -----

#p = #hd.padded<{intervals = [64], paddings = [4], order = [1, 0]}>
module attributes {hd.target = #hd.target<{name = "sm_90", arch = "a", warpSizes = [32], numWarps = 4, maxThreadsPerCTA = 1024, sharedMemoryBytes = 8192}>} {
  func.func @f() {
    // Padding counts: 64x32 f32 is 8192 bytes, plus 4 elements per 64.
    // expected-error @+1 {{needs 8704 bytes of shared memory; target sm_90 allows 8192 per CTA}}
    %0 = hd.local_alloc -> !hd.memdesc<64x32xf32, #p>
    return
  }
}

// -----

// expected-error @+1 {{`hd.target` must be a #hd.target, got 3 : i64}}
module attributes {hd.target = 3} {
}

// -----

module {
  // expected-error @+1 {{`hd.target` belongs on a builtin.module}}
  func.func @f() attributes {hd.target = #hd.target<{name = "sm_90", arch = "a", warpSizes = [32], numWarps = 4, maxThreadsPerCTA = 1024, sharedMemoryBytes = 49152}>} {
    return
  }
}

// -----

// expected-error @+1 {{`hd.kernel` marks a func.func, not builtin.module}}
module attributes {hd.kernel} {
}

// -----

// expected-error @+1 {{`hd.kernel` is a unit attribute}}
func.func @f() attributes {hd.kernel = 1 : i32} {
  return
}

// -----

// expected-error @+1 {{unknown hd attribute `hd.kernels`}}
func.func @f() attributes {hd.kernels} {
  return
}

// -----

// Inside a partition of hd.warp_specialize, layouts have its warps.
#b = #hd.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {hd.target = #hd.target<{name = "sm_90", arch = "a", warpSizes = [32], numWarps = 4, maxThreadsPerCTA = 1024, sharedMemoryBytes = 49152}>} {
  func.func @f(%s: f32) {
    hd.warp_specialize warps [1] default {
      %0 = hd.splat %s : tensor<128xf32, #b>
      hd.warp_return
    } partitions {
      // expected-error @+1 {{result #0: warpsPerCTA [4] multiplies to 4, but its hd.warp_specialize region runs 1 warps}}
      %1 = hd.splat %s : tensor<128xf32, #b>
      hd.warp_return
    }
    return
  }
}
