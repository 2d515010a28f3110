// Every hd attribute and type prints in a form that parses back to itself.
// RUN: hadron-opt %s | hadron-opt | FileCheck %s

// CHECK-DAG: #[[BLOCKED:blocked[0-9]*]] = #hd.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-DAG: #[[BLOCKED1D:blocked[0-9]*]] = #hd.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-DAG: #[[SLICE:slice[0-9]*]] = #hd.slice<{dim = 1, parent = #[[BLOCKED]]}>
// CHECK-DAG: #[[SLICE0:slice[0-9]*]] = #hd.slice<{dim = 0, parent = #hd.auto}>
// CHECK-DAG: #[[LINEAR:linear[0-9]*]] = #hd.linear<{register = {{\[\[}}0, 1]], lane = {{\[\[}}0, 2], [1, 0]], warp = [], block = []}>
// CHECK-DAG: #[[LINEARW:linear[0-9]*]] = #hd.linear<{register = [], lane = {{\[\[}}1], [2]], warp = {{\[\[}}4]], block = {{\[\[}}0]]}>
// CHECK-DAG: #[[DOTA:dot_op[0-9]*]] = #hd.dot_op<{opIdx = 0, parent = #[[BLOCKED]], kWidth = 1}>
// CHECK-DAG: #[[DOTB:dot_op[0-9]*]] = #hd.dot_op<{opIdx = 1, parent = #[[BLOCKED]], kWidth = 4}>
// CHECK-DAG: #[[SWIZZLED:swizzled[0-9]*]] = #hd.swizzled<{vec = 8, perPhase = 2, maxPhase = 4, order = [1, 0]}>
// CHECK-DAG: #[[SWIZZLED3:swizzled[0-9]*]] = #hd.swizzled<{vec = 1, perPhase = 1, maxPhase = 1, order = [2, 1, 0]}>
// CHECK-DAG: #[[PADDED:padded[0-9]*]] = #hd.padded<{intervals = [32, 256], paddings = [4, 8], order = [1, 0]}>
// CHECK-DAG: #[[SHARED_LINEAR:shared_linear[0-9]*]] = #hd.shared_linear<{offset = {{\[\[}}0, 1], [0, 2], [1, 0], [2, 3]]}>
// CHECK-DAG: #[[TARGET:target[0-9]*]] = #hd.target<{name = "host", arch = "generic", warpSizes = [32, 64], numWarps = 4, maxThreadsPerCTA = 1024, sharedMemoryBytes = 65536}>

#blocked = #hd.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
// Fields are named, so any order parses.
#blocked1d = #hd.blocked<{order = [0], warpsPerCTA = [4], threadsPerWarp = [32], sizePerThread = [4]}>
#slice = #hd.slice<{dim = 1, parent = #blocked}>
#linear = #hd.linear<{register = [[0, 1]], lane = [[0, 2], [1, 0]]}>
#linearw = #hd.linear<{block = [[0]], warp = [[4]], lane = [[1], [2]]}>
// kWidth defaults to 1.
#dota = #hd.dot_op<{opIdx = 0, parent = #blocked}>
#dotb = #hd.dot_op<{opIdx = 1, parent = #blocked, kWidth = 4}>
#swizzled = #hd.swizzled<{vec = 8, perPhase = 2, maxPhase = 4, order = [1, 0]}>
#swizzled3 = #hd.swizzled<{vec = 1, perPhase = 1, maxPhase = 1, order = [2, 1, 0]}>
#padded = #hd.padded<{intervals = [32, 256], paddings = [4, 8], order = [1, 0]}>
#shared_linear = #hd.shared_linear<{offset = [[0, 1], [0, 2], [1, 0], [2, 3]]}>

// CHECK-LABEL: func.func @distributed
// CHECK-SAME: tensor<32x32xf32, #[[BLOCKED]]>
// CHECK-SAME: tensor<512xf32, #[[BLOCKED1D]]>
// CHECK-SAME: tensor<32xf32, #[[SLICE]]>
// CHECK-SAME: tensor<2x4xf32, #[[LINEAR]]>
// CHECK-SAME: tensor<32x16xf16, #[[DOTA]]>
// CHECK-SAME: tensor<16x32xf16, #[[DOTB]]>
// CHECK-SAME: tensor<8xf32, #hd.auto>
// CHECK-SAME: tensor<64x64xf32, #hd.coalesced>
// CHECK-SAME: tensor<8xf32, #[[SLICE0]]>
// CHECK-SAME: tensor<2x4xf32, #[[LINEAR]]>
func.func @distributed(%a: tensor<32x32xf32, #blocked>, %b: tensor<512xf32, #blocked1d>,
                       %c: tensor<32xf32, #slice>, %d: tensor<2x4xf32, #linear>,
                       %e: tensor<32x16xf16, #dota>, %f: tensor<16x32xf16, #dotb>,
                       %g: tensor<8xf32, #hd.auto>, %h: tensor<64x64xf32, #hd.coalesced>,
                       %i: tensor<8xf32, #hd.slice<{dim = 0, parent = #hd.auto}>>,
                       %j: tensor<2x4xf32, #hd.linear<{lane = [[0, 2], [1, 0]], register = [[0, 1]], warp = [], block = []}>>) {
  return
}

// Two lane bases and one warp basis: 4 lanes, 2 warps.
// CHECK-LABEL: func.func private @linear_warps
// CHECK-SAME: tensor<8xf32, #[[LINEARW]]>
func.func private @linear_warps(tensor<8xf32, #linearw>)

// CHECK-LABEL: func.func @shared
// CHECK-SAME: !hd.memdesc<64x64xf16, #[[SWIZZLED]]>
// CHECK-SAME: !hd.memdesc<32x64xf16, #[[SWIZZLED]], alloc = 64x64>
// CHECK-SAME: !hd.memdesc<64x64xf16, #[[SWIZZLED3]], alloc = 2x64x64>
// CHECK-SAME: !hd.memdesc<64x256xf32, #[[PADDED]]>
// CHECK-SAME: !hd.memdesc<4x4xi8, #[[SHARED_LINEAR]]>
func.func @shared(%a: !hd.memdesc<64x64xf16, #swizzled>,
                  %b: !hd.memdesc<32x64xf16, #swizzled, alloc = 64x64>,
                  %c: !hd.memdesc<64x64xf16, #swizzled3, alloc = 2x64x64>,
                  %d: !hd.memdesc<64x256xf32, #padded>,
                  %e: !hd.memdesc<4x4xi8, #shared_linear>) {
  return
}

// The default address space is global and is not printed.
// CHECK-LABEL: func.func @pointers
// CHECK-SAME: !hd.ptr<f32>,
// CHECK-SAME: !hd.ptr<f16, shared>,
// CHECK-SAME: !hd.ptr<i8, generic>,
// CHECK-SAME: !hd.ptr<!hd.ptr<bf16>>,
// CHECK-SAME: !hd.async_token
func.func @pointers(%a: !hd.ptr<f32, global>, %b: !hd.ptr<f16, shared>, %c: !hd.ptr<i8, generic>,
                    %d: !hd.ptr<!hd.ptr<bf16>>, %t: !hd.async_token) {
  return
}

// CHECK-LABEL: func.func @policy_defaults
// CHECK-SAME: c = #hd.cache<normal>, e = #hd.evict<normal>, m = #hd.sem<acq_rel>, p = #hd.precision<ieee>, s = #hd.scope<gpu>
func.func @policy_defaults() attributes {c = #hd.cache<normal>, e = #hd.evict<normal>, s = #hd.scope<gpu>, m = #hd.sem<acq_rel>, p = #hd.precision<ieee>} {
  return
}

// CHECK-LABEL: func.func @policies
func.func @policies(%p: !hd.ptr<f32>, %q: !hd.ptr<i32>, %v: i32, %m: i1, %o: f32,
                    %a: tensor<32x16xf32, #dota>, %b: tensor<16x32xf32, #hd.dot_op<{opIdx = 1, parent = #blocked}>>,
                    %acc: tensor<32x32xf32, #blocked>) {
  // Defaults are not printed.
  // CHECK: hd.load %{{.*}} : !hd.ptr<f32>
  %0 = hd.load %p {cache = #hd.cache<normal>, evict = #hd.evict<normal>} : !hd.ptr<f32>
  // CHECK: cache = #hd.cache<cache_all>, evict = #hd.evict<evict_first>
  %1 = hd.load %p mask %m other %o {cache = #hd.cache<cache_all>, evict = #hd.evict<evict_first>} : !hd.ptr<f32>
  // CHECK: cache = #hd.cache<cache_global>, evict = #hd.evict<evict_last>
  %2 = hd.load %p {cache = #hd.cache<cache_global>, evict = #hd.evict<evict_last>} : !hd.ptr<f32>
  // CHECK: cache = #hd.cache<streaming>
  %3 = hd.load %p {cache = #hd.cache<streaming>} : !hd.ptr<f32>
  // CHECK: cache = #hd.cache<no_cache>
  %4 = hd.load %p {cache = #hd.cache<no_cache>} : !hd.ptr<f32>
  // CHECK: cache = #hd.cache<write_back>
  hd.store %p, %0 {cache = #hd.cache<write_back>} : !hd.ptr<f32>
  // CHECK: cache = #hd.cache<write_through>
  hd.store %p, %0 {cache = #hd.cache<write_through>} : !hd.ptr<f32>
  // CHECK: scope = #hd.scope<cta>, sem = #hd.sem<relaxed>
  %5 = hd.atomic_rmw add, %q, %v {sem = #hd.sem<relaxed>, scope = #hd.scope<cta>} : !hd.ptr<i32> -> i32
  // CHECK: {sem = #hd.sem<acquire>}
  %6 = hd.atomic_rmw max, %q, %v {sem = #hd.sem<acquire>, scope = #hd.scope<gpu>} : !hd.ptr<i32> -> i32
  // CHECK: scope = #hd.scope<system>, sem = #hd.sem<release>
  %7 = hd.atomic_cas %q, %v, %v {sem = #hd.sem<release>, scope = #hd.scope<system>} : !hd.ptr<i32> -> i32
  // CHECK: hd.atomic_rmw xchg, %{{.*}}, %{{.*}} : !hd.ptr<i32> -> i32
  %8 = hd.atomic_rmw xchg, %q, %v {sem = #hd.sem<acq_rel>} : !hd.ptr<i32> -> i32
  // CHECK: inputPrecision = #hd.precision<tf32>
  %9 = hd.dot %a, %b, %acc {inputPrecision = #hd.precision<tf32>} : tensor<32x16xf32, #dota> * tensor<16x32xf32, #hd.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<32x32xf32, #blocked>
  // CHECK: hd.dot %{{.*}}, %{{.*}}, %{{.*}} : tensor
  %10 = hd.dot %a, %b, %acc {inputPrecision = #hd.precision<ieee>} : tensor<32x16xf32, #dota> * tensor<16x32xf32, #hd.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<32x32xf32, #blocked>
  return
}

// The target belongs on a module; the layouts inside must agree with it.
// CHECK: module attributes {hd.target = #[[TARGET]]}
// CHECK-LABEL: func.func @kernel
// CHECK-SAME: attributes {hd.kernel}
module attributes {hd.target = #hd.target<{name = "host", arch = "generic", warpSizes = [32, 64], numWarps = 4, maxThreadsPerCTA = 1024, sharedMemoryBytes = 65536}>} {
  func.func @kernel(%x: tensor<512xf32, #blocked1d>) attributes {hd.kernel} {
    return
  }
}
