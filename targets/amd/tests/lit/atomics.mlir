// atomicSyncScope: hd's cta, gpu and system scopes are LLVM's "workgroup",
// "agent" and the default (system) sync scope.

// RUN: hadron compile %s --target amd:gfx942 -O1 --emit=llvm | FileCheck %s

// CHECK-DAG: atomicrmw add ptr addrspace(1) %{{.*}}, i32 %{{.*}} syncscope("workgroup") monotonic
// CHECK-DAG: atomicrmw max ptr addrspace(1) %{{.*}}, i32 %{{.*}} syncscope("agent") acquire
// CHECK-DAG: atomicrmw xchg ptr addrspace(1) %{{.*}}, i32 %{{.*}} acq_rel

module attributes {hd.num_warps = 1 : i32} {
  func.func @scopes(%q: !hd.ptr<i32>, %v: i32, %out: !hd.ptr<i32>) attributes {hd.kernel} {
    %a = hd.atomic_rmw add, %q, %v {sem = #hd.sem<relaxed>, scope = #hd.scope<cta>} : !hd.ptr<i32> -> i32
    %b = hd.atomic_rmw max, %q, %a {sem = #hd.sem<acquire>, scope = #hd.scope<gpu>} : !hd.ptr<i32> -> i32
    %c = hd.atomic_rmw xchg, %q, %b {sem = #hd.sem<acq_rel>, scope = #hd.scope<system>} : !hd.ptr<i32> -> i32
    hd.store %out, %c : !hd.ptr<i32>
    return
  }
}
