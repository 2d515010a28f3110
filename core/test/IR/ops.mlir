// Every hd op parses, verifies and prints back to something that parses to
// the same module.
// RUN: hadron-opt %s | hadron-opt | FileCheck %s

#b1 = #hd.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b2 = #hd.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#b3 = #hd.blocked<{sizePerThread = [1, 1, 2], threadsPerWarp = [1, 4, 8], warpsPerCTA = [1, 4, 1], order = [2, 1, 0]}>
#row = #hd.slice<{dim = 1, parent = #b2}>
#col = #hd.slice<{dim = 0, parent = #b2}>
#opa = #hd.dot_op<{opIdx = 0, parent = #b2, kWidth = 1}>
#opb = #hd.dot_op<{opIdx = 1, parent = #b2, kWidth = 1}>
#sw = #hd.swizzled<{vec = 4, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#sw3 = #hd.swizzled<{vec = 4, perPhase = 1, maxPhase = 8, order = [2, 1, 0]}>

// CHECK-LABEL: func.func @ids
func.func @ids() -> (i32, i32) {
  // CHECK: hd.program_id 2
  %0 = hd.program_id 2
  // CHECK: hd.num_programs 0
  %1 = hd.num_programs 0
  return %0, %1 : i32, i32
}

// CHECK-LABEL: func.func @creation
func.func @creation(%s: f32) -> (tensor<128xi32, #b1>, tensor<32x32xf32, #b2>) {
  // CHECK: hd.arange 0 to 128 : tensor<128xi32, #blocked{{[0-9]*}}>
  %0 = hd.arange 0 to 128 : tensor<128xi32, #b1>
  // CHECK: hd.splat %{{.*}} : tensor<32x32xf32, #blocked{{[0-9]*}}>
  %1 = hd.splat %s : tensor<32x32xf32, #b2>
  return %0, %1 : tensor<128xi32, #b1>, tensor<32x32xf32, #b2>
}

// CHECK-LABEL: func.func @shapes
func.func @shapes(%r: tensor<32xf32, #row>, %t: tensor<32x32xf32, #b2>) {
  // CHECK: hd.expand_dims %{{.*}} axis = 1 : tensor<32xf32, #slice{{[0-9]*}}> -> tensor<32x1xf32, #blocked{{[0-9]*}}>
  %0 = hd.expand_dims %r axis = 1 : tensor<32xf32, #row> -> tensor<32x1xf32, #b2>
  // CHECK: hd.broadcast %{{.*}} : tensor<32x1xf32, #blocked{{[0-9]*}}> -> tensor<32x32xf32, #blocked{{[0-9]*}}>
  %1 = hd.broadcast %0 : tensor<32x1xf32, #b2> -> tensor<32x32xf32, #b2>
  // CHECK: hd.reshape %{{.*}} : tensor<32x32xf32, #blocked{{[0-9]*}}> -> tensor<1024xf32, #blocked{{[0-9]*}}>
  %2 = hd.reshape %t : tensor<32x32xf32, #b2> -> tensor<1024xf32, #b1>
  // CHECK: hd.permute %{{.*}}, [1, 0] : tensor<32x32xf32, #blocked{{[0-9]*}}> -> tensor<32x32xf32, #blocked{{[0-9]*}}>
  %3 = hd.permute %t, [1, 0] : tensor<32x32xf32, #b2> -> tensor<32x32xf32, #b2>
  // CHECK: hd.join %{{.*}}, %{{.*}} : tensor<32x32xf32, #blocked{{[0-9]*}}> -> tensor<32x32x2xf32, #blocked{{[0-9]*}}>
  %4 = hd.join %t, %t : tensor<32x32xf32, #b2> -> tensor<32x32x2xf32, #b3>
  // CHECK: hd.split %{{.*}} : tensor<32x32x2xf32, #blocked{{[0-9]*}}> -> tensor<32x32xf32, #blocked{{[0-9]*}}>, tensor<32x32xf32, #blocked{{[0-9]*}}>
  %5:2 = hd.split %4 : tensor<32x32x2xf32, #b3> -> tensor<32x32xf32, #b2>, tensor<32x32xf32, #b2>
  // CHECK: hd.convert_layout %{{.*}} : tensor<32xf32, #slice{{[0-9]*}}> -> tensor<32xf32, #slice{{[0-9]*}}>
  %6 = hd.convert_layout %r : tensor<32xf32, #row> -> tensor<32xf32, #col>
  return
}

// CHECK-LABEL: func.func @memory
func.func @memory(%p: !hd.ptr<f32>, %off: tensor<128xi32, #b1>, %m: tensor<128xi1, #b1>, %o: tensor<128xf32, #b1>) {
  %ps = hd.splat %p : tensor<128x!hd.ptr<f32>, #b1>
  // CHECK: hd.addptr %{{.*}}, %{{.*}} : tensor<128x!hd.ptr<f32>, #blocked{{[0-9]*}}>, tensor<128xi32, #blocked{{[0-9]*}}>
  %ptrs = hd.addptr %ps, %off : tensor<128x!hd.ptr<f32>, #b1>, tensor<128xi32, #b1>
  // CHECK: hd.load %{{.*}} : tensor<128x!hd.ptr<f32>, #blocked{{[0-9]*}}>
  %0 = hd.load %ptrs : tensor<128x!hd.ptr<f32>, #b1>
  // CHECK: hd.load %{{.*}} mask %{{.*}} other %{{.*}} {cache = #hd.cache<streaming>, evict = #hd.evict<evict_first>, isVolatile}
  %1 = hd.load %ptrs mask %m other %o {cache = #hd.cache<streaming>, evict = #hd.evict<evict_first>, isVolatile} : tensor<128x!hd.ptr<f32>, #b1>
  // CHECK: hd.store %{{.*}}, %{{.*}} mask %{{.*}} : tensor<128x!hd.ptr<f32>, #blocked{{[0-9]*}}>
  hd.store %ptrs, %1 mask %m : tensor<128x!hd.ptr<f32>, #b1>
  // CHECK: %{{.*}} = hd.load %{{.*}} : !hd.ptr<f32>
  %s = hd.load %p : !hd.ptr<f32>
  // CHECK: hd.store %{{.*}}, %{{.*}} : !hd.ptr<f32>
  hd.store %p, %s : !hd.ptr<f32>
  return
}

// CHECK-LABEL: func.func @atomics
func.func @atomics(%p: tensor<128x!hd.ptr<i32>, #b1>, %v: tensor<128xi32, #b1>, %m: tensor<128xi1, #b1>, %fp: !hd.ptr<f32>, %f: f32) {
  // CHECK: hd.atomic_rmw add, %{{.*}}, %{{.*}} mask %{{.*}} : tensor<128x!hd.ptr<i32>, #blocked{{[0-9]*}}> -> tensor<128xi32, #blocked{{[0-9]*}}>
  %0 = hd.atomic_rmw add, %p, %v mask %m : tensor<128x!hd.ptr<i32>, #b1> -> tensor<128xi32, #b1>
  // CHECK: hd.atomic_rmw and, {{.*}} {scope = #hd.scope<cta>, sem = #hd.sem<relaxed>}
  %1 = hd.atomic_rmw and, %p, %v {sem = #hd.sem<relaxed>, scope = #hd.scope<cta>} : tensor<128x!hd.ptr<i32>, #b1> -> tensor<128xi32, #b1>
  // CHECK: hd.atomic_rmw fadd, %{{.*}}, %{{.*}} : !hd.ptr<f32> -> f32
  %2 = hd.atomic_rmw fadd, %fp, %f : !hd.ptr<f32> -> f32
  // CHECK: hd.atomic_cas %{{.*}}, %{{.*}}, %{{.*}} : tensor<128x!hd.ptr<i32>, #blocked{{[0-9]*}}> -> tensor<128xi32, #blocked{{[0-9]*}}>
  %3 = hd.atomic_cas %p, %v, %v : tensor<128x!hd.ptr<i32>, #b1> -> tensor<128xi32, #b1>
  return
}

// CHECK-LABEL: func.func @reductions
func.func @reductions(%t: tensor<32x32xf32, #b2>, %i: tensor<32x32xi32, #b2>, %v: tensor<128xf32, #b1>) {
  // CHECK: hd.reduce(%{{.*}}) axis = 1 : (tensor<32x32xf32, #blocked{{[0-9]*}}>) -> tensor<32xf32, #slice{{[0-9]*}}>
  // CHECK: arith.maxnumf
  // CHECK: hd.yield %{{.*}} : f32
  %0 = hd.reduce(%t) axis = 1 : (tensor<32x32xf32, #b2>) -> tensor<32xf32, #row> {
  ^bb0(%a: f32, %b: f32):
    %m = arith.maxnumf %a, %b : f32
    hd.yield %m : f32
  }
  // Argmax: values and indices reduced together.
  // CHECK: hd.reduce(%{{.*}}, %{{.*}}) axis = 0 : (tensor<32x32xf32, #blocked{{[0-9]*}}>, tensor<32x32xi32, #blocked{{[0-9]*}}>) -> (tensor<32xf32, #slice{{[0-9]*}}>, tensor<32xi32, #slice{{[0-9]*}}>)
  %1:2 = hd.reduce(%t, %i) axis = 0 : (tensor<32x32xf32, #b2>, tensor<32x32xi32, #b2>) -> (tensor<32xf32, #col>, tensor<32xi32, #col>) {
  ^bb0(%av: f32, %ai: i32, %bv: f32, %bi: i32):
    %gt = arith.cmpf ogt, %bv, %av : f32
    %rv = arith.select %gt, %bv, %av : f32
    %ri = arith.select %gt, %bi, %ai : i32
    hd.yield %rv, %ri : f32, i32
  }
  // CHECK: hd.reduce(%{{.*}}) axis = 0 : (tensor<128xf32, #blocked{{[0-9]*}}>) -> f32
  %2 = hd.reduce(%v) axis = 0 : (tensor<128xf32, #b1>) -> f32 {
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %b : f32
    hd.yield %s : f32
  }
  // CHECK: hd.scan(%{{.*}}) axis = 1 reverse = false : (tensor<32x32xf32, #blocked{{[0-9]*}}>) -> tensor<32x32xf32, #blocked{{[0-9]*}}>
  %3 = hd.scan(%t) axis = 1 reverse = false : (tensor<32x32xf32, #b2>) -> tensor<32x32xf32, #b2> {
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %b : f32
    hd.yield %s : f32
  }
  return
}

// CHECK-LABEL: func.func @shared
func.func @shared(%t: tensor<32x32xf32, #b2>, %i: i32) {
  // CHECK: hd.local_alloc %{{.*}} : tensor<32x32xf32, #blocked{{[0-9]*}}> -> !hd.memdesc<32x32xf32, #swizzled{{[0-9]*}}>
  %0 = hd.local_alloc %t : tensor<32x32xf32, #b2> -> !hd.memdesc<32x32xf32, #sw>
  // CHECK: hd.local_alloc  -> !hd.memdesc<2x32x32xf32, #swizzled{{[0-9]*}}>
  %1 = hd.local_alloc -> !hd.memdesc<2x32x32xf32, #sw3>
  // CHECK: hd.memdesc_index %{{.*}}[%{{.*}}] : !hd.memdesc<2x32x32xf32, #swizzled{{[0-9]*}}> -> !hd.memdesc<32x32xf32, #swizzled{{[0-9]*}}, alloc = 2x32x32>
  %2 = hd.memdesc_index %1[%i] : !hd.memdesc<2x32x32xf32, #sw3> -> !hd.memdesc<32x32xf32, #sw3, alloc = 2x32x32>
  // CHECK: hd.local_store %{{.*}}, %{{.*}} : tensor<32x32xf32, #blocked{{[0-9]*}}> -> !hd.memdesc<32x32xf32, #swizzled{{[0-9]*}}, alloc = 2x32x32>
  hd.local_store %t, %2 : tensor<32x32xf32, #b2> -> !hd.memdesc<32x32xf32, #sw3, alloc = 2x32x32>
  // CHECK: hd.barrier
  hd.barrier
  // CHECK: hd.memdesc_slice %{{.*}} [16, 0] : !hd.memdesc<32x32xf32, #swizzled{{[0-9]*}}> -> !hd.memdesc<16x32xf32, #swizzled{{[0-9]*}}, alloc = 32x32>
  %3 = hd.memdesc_slice %0 [16, 0] : !hd.memdesc<32x32xf32, #sw> -> !hd.memdesc<16x32xf32, #sw, alloc = 32x32>
  // CHECK: hd.memdesc_permute %{{.*}}, [1, 0] : !hd.memdesc<32x32xf32, #swizzled{{[0-9]*}}> -> !hd.memdesc<32x32xf32, #swizzled{{[0-9]*}}>
  %4 = hd.memdesc_permute %0, [1, 0] : !hd.memdesc<32x32xf32, #sw> -> !hd.memdesc<32x32xf32, #sw>
  // CHECK: hd.local_load %{{.*}} : !hd.memdesc<32x32xf32, #swizzled{{[0-9]*}}> -> tensor<32x32xf32, #blocked{{[0-9]*}}>
  %5 = hd.local_load %0 : !hd.memdesc<32x32xf32, #sw> -> tensor<32x32xf32, #b2>
  // CHECK: hd.local_dealloc %{{.*}} : !hd.memdesc<32x32xf32, #swizzled{{[0-9]*}}>
  hd.local_dealloc %0 : !hd.memdesc<32x32xf32, #sw>
  return
}

// CHECK-LABEL: func.func @async
func.func @async(%p: tensor<32x32x!hd.ptr<f32>, #b2>, %m: tensor<32x32xi1, #b2>, %o: tensor<32x32xf32, #b2>) {
  %0 = hd.local_alloc -> !hd.memdesc<32x32xf32, #sw>
  // CHECK: hd.async_copy %{{.*}}, %{{.*}} : tensor<32x32x!hd.ptr<f32>, #blocked{{[0-9]*}}> -> !hd.memdesc<32x32xf32, #swizzled{{[0-9]*}}>
  %t0 = hd.async_copy %p, %0 : tensor<32x32x!hd.ptr<f32>, #b2> -> !hd.memdesc<32x32xf32, #sw>
  // CHECK: hd.async_copy %{{.*}}, %{{.*}} mask %{{.*}} other %{{.*}} :
  %t1 = hd.async_copy %p, %0 mask %m other %o : tensor<32x32x!hd.ptr<f32>, #b2> -> !hd.memdesc<32x32xf32, #sw>
  // CHECK: hd.async_commit_group %{{.*}}, %{{.*}}
  %g = hd.async_commit_group %t0, %t1
  // CHECK: hd.async_wait %{{.*}} pending = 0
  %w = hd.async_wait %g pending = 0
  return
}

// CHECK-LABEL: func.func @dot
func.func @dot(%a: tensor<32x16xf16, #opa>, %b: tensor<16x32xf16, #opb>, %c: tensor<32x32xf32, #b2>) -> tensor<32x32xf32, #b2> {
  // CHECK: hd.dot %{{.*}}, %{{.*}}, %{{.*}} : tensor<32x16xf16, #dot_op{{[0-9]*}}> * tensor<16x32xf16, #dot_op{{[0-9]*}}> -> tensor<32x32xf32, #blocked{{[0-9]*}}>
  %0 = hd.dot %a, %b, %c : tensor<32x16xf16, #opa> * tensor<16x32xf16, #opb> -> tensor<32x32xf32, #b2>
  return %0 : tensor<32x32xf32, #b2>
}

// CHECK-LABEL: func.func @debug
func.func @debug(%t: tensor<128xi32, #b1>, %c: tensor<128xi1, #b1>, %s: i32, %b: i1) {
  // CHECK: hd.print "x = " hex : %{{.*}}, %{{.*}} : tensor<128xi32, #blocked{{[0-9]*}}>, i32
  hd.print "x = " hex : %t, %s : tensor<128xi32, #b1>, i32
  // CHECK: hd.print "here"
  // CHECK-NEXT: arith.addi
  hd.print "here"
  %sum = arith.addi %s, %s : i32
  // CHECK: hd.assert %{{.*}}, "must hold" : tensor<128xi1, #blocked{{[0-9]*}}>
  hd.assert %c, "must hold" : tensor<128xi1, #b1>
  // CHECK: hd.assume %{{.*}}
  hd.assume %b
  // CHECK: hd.multiple_of %{{.*}}, [16] : tensor<128xi32, #blocked{{[0-9]*}}>
  %0 = hd.multiple_of %t, [16] : tensor<128xi32, #b1>
  return
}

// CHECK-LABEL: func.func @control_flow
func.func @control_flow(%t: tensor<128xf32, #b1>, %n: index) -> tensor<128xf32, #b1> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // CHECK: scf.for {{.*}} iter_args
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %t) -> (tensor<128xf32, #b1>) {
    %next = arith.addf %acc, %t : tensor<128xf32, #b1>
    scf.yield %next : tensor<128xf32, #b1>
  }
  return %r : tensor<128xf32, #b1>
}

// CHECK-LABEL: func.func @tensor_copies
#tm = #hd.matrix_shared<{swizzle = 128, elementBits = 16, transposed = false}>
#tbs = #hd.swizzled<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
func.func @tensor_copies(%d: !hd.tensor_desc<64x64xbf16, #tm>, %x: i32, %p: i1) {
  %bars = hd.local_alloc -> !hd.memdesc<2x1xi64, #tbs>
  %c0 = arith.constant 0 : i32
  %bar = hd.memdesc_index %bars[%c0] : !hd.memdesc<2x1xi64, #tbs> -> !hd.memdesc<1xi64, #tbs, alloc = 2x1>
  %dst = hd.local_alloc -> !hd.memdesc<64x64xbf16, #tm>
  // CHECK: hd.mbarrier_init %{{.*}}, 1 : !hd.memdesc<1xi64
  hd.mbarrier_init %bar, 1 : !hd.memdesc<1xi64, #tbs, alloc = 2x1>
  // CHECK: hd.mbarrier_expect %{{.*}}, 8192 pred %{{.*}} : !hd.memdesc<1xi64
  hd.mbarrier_expect %bar, 8192 pred %p : !hd.memdesc<1xi64, #tbs, alloc = 2x1>
  // CHECK: hd.async_tensor_copy %{{.*}}[%{{.*}}, %{{.*}}], %{{.*}}, %{{.*}} : !hd.tensor_desc<64x64xbf16, #matrix_shared{{[0-9]*}}>
  hd.async_tensor_copy %d[%x, %c0], %bar, %dst : !hd.tensor_desc<64x64xbf16, #tm>, !hd.memdesc<1xi64, #tbs, alloc = 2x1> -> !hd.memdesc<64x64xbf16, #tm>
  // CHECK: hd.mbarrier_wait %{{.*}}, %{{.*}} : !hd.memdesc<1xi64
  hd.mbarrier_wait %bar, %c0 : !hd.memdesc<1xi64, #tbs, alloc = 2x1>
  // CHECK: hd.mbarrier_arrive %{{.*}} {count = 2 : i32} : !hd.memdesc<1xi64
  hd.mbarrier_arrive %bar {count = 2 : i32} : !hd.memdesc<1xi64, #tbs, alloc = 2x1>
  // CHECK: hd.fence_async_shared
  hd.fence_async_shared
  // Cluster forms: a copy multicast to the programs of a mask, an arrival
  // on a peer's barrier, a barrier over the cluster.
  // CHECK: hd.async_tensor_copy %{{.*}}[%{{.*}}, %{{.*}}], %{{.*}}, %{{.*}} pred %{{.*}} multicast %{{.*}} : !hd.tensor_desc<64x64xbf16
  hd.async_tensor_copy %d[%x, %c0], %bar, %dst pred %p multicast %x : !hd.tensor_desc<64x64xbf16, #tm>, !hd.memdesc<1xi64, #tbs, alloc = 2x1> -> !hd.memdesc<64x64xbf16, #tm>
  // CHECK: hd.mbarrier_arrive %{{.*}} pred %{{.*}} rank %{{.*}} {per_warp} : !hd.memdesc<1xi64
  hd.mbarrier_arrive %bar pred %p rank %c0 {per_warp} : !hd.memdesc<1xi64, #tbs, alloc = 2x1>
  // CHECK: hd.cluster_barrier
  hd.cluster_barrier
  // CHECK: hd.async_tensor_store %{{.*}}[%{{.*}}, %{{.*}}], %{{.*}} : !hd.memdesc<64x64xbf16, #matrix_shared{{[0-9]*}}> -> !hd.tensor_desc<64x64xbf16
  hd.async_tensor_store %d[%x, %c0], %dst : !hd.memdesc<64x64xbf16, #tm> -> !hd.tensor_desc<64x64xbf16, #tm>
  // CHECK: hd.async_tensor_store_wait pending = 1
  hd.async_tensor_store_wait pending = 1
  return
}

// CHECK-LABEL: func.func @warp_specialize
#wb = #hd.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
#wbs = #hd.swizzled<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
func.func @warp_specialize(%x: i32) {
  %bar = hd.local_alloc -> !hd.memdesc<1xi64, #wbs>
  hd.mbarrier_init %bar, 4 : !hd.memdesc<1xi64, #wbs>
  // A splat constant from above is the same in every thread: partitions
  // may read it (the canonicalizer hoists constants out of regions).
  %ones = arith.constant dense<1> : tensor<32xi32, #wb>
  // CHECK: hd.warp_specialize warps [1, 2] default {
  hd.warp_specialize warps [1, 2] default {
    // CHECK: hd.mbarrier_arrive %{{.*}} {per_warp} : !hd.memdesc<1xi64
    hd.mbarrier_arrive %bar {per_warp} : !hd.memdesc<1xi64, #wbs>
    // CHECK: hd.warp_return
    hd.warp_return
  // CHECK: } partitions {
  } partitions {
    %t = hd.splat %x : tensor<32xi32, #wb>
    %u = arith.addi %t, %ones : tensor<32xi32, #wb>
    hd.mbarrier_wait %bar, %x : !hd.memdesc<1xi64, #wbs>
    hd.warp_return
  // CHECK: }, {
  }, {
    hd.barrier
    hd.warp_return
  }
  return
}

// CHECK-LABEL: func.func @warp_specialize_regs
func.func @warp_specialize_regs() {
  // CHECK: hd.warp_specialize warps [4] regs [240, 24] default {
  hd.warp_specialize warps [4] regs [240, 24] default {
    hd.warp_return
  } partitions {
    hd.warp_return
  }
  return
}

// CHECK-LABEL: func.func @reinterpret
#rr = #hd.matrix_shared<{swizzle = 128, elementBits = 16, transposed = false, rank = 3}>
#rs = #hd.swizzled<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
func.func @reinterpret() {
  %ring = hd.local_alloc -> !hd.memdesc<4x128x64xbf16, #rr>
  // CHECK: hd.memdesc_reinterpret %{{.*}} : !hd.memdesc<4x128x64xbf16, {{.*}}> -> !hd.memdesc<128x256xbf16, {{.*}}>
  %c = hd.memdesc_reinterpret %ring : !hd.memdesc<4x128x64xbf16, #rr> -> !hd.memdesc<128x256xbf16, #rs>
  return
}
