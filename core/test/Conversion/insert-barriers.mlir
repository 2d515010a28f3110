// RUN: hadron-opt --hd-allocate-shared-memory --hd-insert-barriers %s | FileCheck %s

// A barrier goes where threads may race on shared memory: before a read of
// what another thread wrote (RAW), before overwriting what others may still
// read (WAR), and around a loop's back edge. Accesses that cannot conflict
// get none.

#b = #hd.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#s = #hd.swizzled<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
module attributes {hd.num_warps = 4 : i32} {
  // CHECK-LABEL: func.func @raw_war
  func.func @raw_war(%x: tensor<512xf32, #b>, %y: tensor<512xf32, #b>) -> tensor<512xf32, #b> attributes {hd.kernel} {
    %m = hd.local_alloc -> !hd.memdesc<512xf32, #s>
    // CHECK: hd.local_store
    // CHECK-NEXT: hd.barrier
    // CHECK-NEXT: hd.local_load
    hd.local_store %x, %m : tensor<512xf32, #b> -> !hd.memdesc<512xf32, #s>
    %v = hd.local_load %m : !hd.memdesc<512xf32, #s> -> tensor<512xf32, #b>
    // CHECK-NEXT: hd.barrier
    // CHECK-NEXT: hd.local_store
    hd.local_store %y, %m : tensor<512xf32, #b> -> !hd.memdesc<512xf32, #s>
    // CHECK-NEXT: hd.barrier
    // CHECK-NEXT: hd.local_load
    %w = hd.local_load %m : !hd.memdesc<512xf32, #s> -> tensor<512xf32, #b>
    // Two reads in a row: no barrier between them.
    // CHECK-NEXT: hd.local_load
    %u = hd.local_load %m : !hd.memdesc<512xf32, #s> -> tensor<512xf32, #b>
    hd.local_dealloc %m : !hd.memdesc<512xf32, #s>
    %s1 = arith.addf %v, %w : tensor<512xf32, #b>
    %s2 = arith.addf %s1, %u : tensor<512xf32, #b>
    return %s2 : tensor<512xf32, #b>
  }

  // The store of iteration i+1 races with the load of iteration i: the
  // barrier before the store covers the back edge.
  // CHECK-LABEL: func.func @loop
  func.func @loop(%x: tensor<512xf32, #b>, %n: index) -> tensor<512xf32, #b> attributes {hd.kernel} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %m = hd.local_alloc -> !hd.memdesc<512xf32, #s>
    // CHECK: scf.for
    // CHECK-NEXT: hd.barrier
    // CHECK-NEXT: hd.local_store
    // CHECK-NEXT: hd.barrier
    // CHECK-NEXT: hd.local_load
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %x) -> (tensor<512xf32, #b>) {
      hd.local_store %acc, %m : tensor<512xf32, #b> -> !hd.memdesc<512xf32, #s>
      %v = hd.local_load %m : !hd.memdesc<512xf32, #s> -> tensor<512xf32, #b>
      %next = arith.addf %v, %acc : tensor<512xf32, #b>
      scf.yield %next : tensor<512xf32, #b>
    }
    hd.local_dealloc %m : !hd.memdesc<512xf32, #s>
    return %r : tensor<512xf32, #b>
  }

  // A tensor copy is ordered for its readers by the barrier it completes
  // (they wait on it): no CTA barrier between it and the read. It must not
  // overwrite what the CTA may still read: a CTA barrier before it.
  // CHECK-LABEL: func.func @tensor_copy
  func.func @tensor_copy(%d: !hd.tensor_desc<512xf32, #s>, %i: i32) -> tensor<512xf32, #b> attributes {hd.kernel} {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %m = hd.local_alloc -> !hd.memdesc<512xf32, #s>
    %bars = hd.local_alloc -> !hd.memdesc<1xi64, #s>
    hd.mbarrier_init %bars, 1 : !hd.memdesc<1xi64, #s>
    hd.mbarrier_expect %bars, 2048 : !hd.memdesc<1xi64, #s>
    // CHECK: hd.async_tensor_copy
    // CHECK-NEXT: hd.mbarrier_wait
    // CHECK-NEXT: hd.local_load
    hd.async_tensor_copy %d[%i], %bars, %m : !hd.tensor_desc<512xf32, #s>, !hd.memdesc<1xi64, #s> -> !hd.memdesc<512xf32, #s>
    hd.mbarrier_wait %bars, %c0 : !hd.memdesc<1xi64, #s>
    %v = hd.local_load %m : !hd.memdesc<512xf32, #s> -> tensor<512xf32, #b>
    // CHECK: hd.mbarrier_expect
    // CHECK-NEXT: hd.barrier
    // CHECK-NEXT: hd.async_tensor_copy
    hd.mbarrier_expect %bars, 2048 : !hd.memdesc<1xi64, #s>
    hd.async_tensor_copy %d[%i], %bars, %m : !hd.tensor_desc<512xf32, #s>, !hd.memdesc<1xi64, #s> -> !hd.memdesc<512xf32, #s>
    hd.mbarrier_wait %bars, %c1 : !hd.memdesc<1xi64, #s>
    return %v : tensor<512xf32, #b>
  }
  // A tensor store starts with a barrier of its own (the copy reads what
  // the CTA wrote): none before it. Its tile is read until a store wait,
  // which ends with a barrier: no other before writing the tile again.
  // CHECK-LABEL: func.func @tensor_store
  func.func @tensor_store(%d: !hd.tensor_desc<512xf32, #s>, %i: i32, %x: tensor<512xf32, #b>) attributes {hd.kernel} {
    %m = hd.local_alloc -> !hd.memdesc<512xf32, #s>
    // CHECK: hd.local_store
    // CHECK-NEXT: hd.async_tensor_store
    // CHECK-NEXT: hd.async_tensor_store_wait pending = 0
    // CHECK-NEXT: hd.local_store
    // CHECK-NEXT: hd.async_tensor_store
    hd.local_store %x, %m : tensor<512xf32, #b> -> !hd.memdesc<512xf32, #s>
    hd.async_tensor_store %d[%i], %m : !hd.memdesc<512xf32, #s> -> !hd.tensor_desc<512xf32, #s>
    hd.async_tensor_store_wait pending = 0
    hd.local_store %x, %m : tensor<512xf32, #b> -> !hd.memdesc<512xf32, #s>
    hd.async_tensor_store %d[%i], %m : !hd.memdesc<512xf32, #s> -> !hd.tensor_desc<512xf32, #s>
    // Without a wait the planner still orders the CTA's own accesses.
    // CHECK-NEXT: hd.barrier
    // CHECK-NEXT: hd.local_store
    hd.local_store %x, %m : tensor<512xf32, #b> -> !hd.memdesc<512xf32, #s>
    hd.async_tensor_store_wait pending = 0
    return
  }

  // The regions of hd.warp_specialize run at once and order what they share
  // with mbarriers: each is planned alone (no barrier for the producer's
  // copy against the consumers' read), a barrier inside one is its warps'
  // (lowered per region), and what the CTA did before is settled by a CTA
  // barrier in front of the op.
  // CHECK-LABEL: func.func @warp_specialized
  func.func @warp_specialized(%d: !hd.tensor_desc<512xf32, #s>, %i: i32, %x: tensor<512xf32, #b>) attributes {hd.kernel} {
    %c0 = arith.constant 0 : i32
    %m = hd.local_alloc -> !hd.memdesc<512xf32, #s>
    %bars = hd.local_alloc -> !hd.memdesc<1xi64, #s>
    hd.mbarrier_init %bars, 1 : !hd.memdesc<1xi64, #s>
    hd.local_store %x, %m : tensor<512xf32, #b> -> !hd.memdesc<512xf32, #s>
    // CHECK: hd.local_store
    // CHECK-NEXT: hd.barrier
    // CHECK-NEXT: hd.warp_specialize
    hd.warp_specialize warps [1] default {
      // CHECK: hd.mbarrier_wait
      // CHECK-NEXT: hd.local_load
      // CHECK-NEXT: arith.addf
      // CHECK-NEXT: hd.barrier
      // CHECK-NEXT: hd.local_store
      hd.mbarrier_wait %bars, %c0 : !hd.memdesc<1xi64, #s>
      %v = hd.local_load %m : !hd.memdesc<512xf32, #s> -> tensor<512xf32, #b>
      %w = arith.addf %v, %v : tensor<512xf32, #b>
      hd.local_store %w, %m : tensor<512xf32, #b> -> !hd.memdesc<512xf32, #s>
      hd.warp_return
    } partitions {
      // CHECK: hd.mbarrier_expect
      // CHECK-NEXT: hd.async_tensor_copy
      hd.mbarrier_expect %bars, 2048 : !hd.memdesc<1xi64, #s>
      hd.async_tensor_copy %d[%i], %bars, %m : !hd.tensor_desc<512xf32, #s>, !hd.memdesc<1xi64, #s> -> !hd.memdesc<512xf32, #s>
      hd.warp_return
    }
    return
  }
}
