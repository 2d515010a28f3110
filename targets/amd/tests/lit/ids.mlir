// Program ids are workgroup ids, num_programs the code object v5 hidden
// block counts, lanes come from mbcnt (lo and hi on wave64, lo alone on
// wave32) and warps from workitem.id.x / waveSize, made uniform with
// readfirstlane. ROCDL after distribute, then the LLVM IR.

// RUN: rm -rf %t && mkdir -p %t/w64 %t/w32
// RUN: hadron compile %s --target amd:gfx942 -O1 --emit=llvm --dump-dir %t/w64 -o %t/w64.ll
// RUN: FileCheck %s --check-prefix=ROCDL64 < %t/w64/1-llvm-dialect.mlir
// RUN: FileCheck %s --check-prefix=LLVM64 < %t/w64.ll
// RUN: sed 's/threadsPerWarp = \[64\]/threadsPerWarp = [32]/' %s > %t/w32.mlir
// RUN: hadron compile %t/w32.mlir --target amd:gfx1100 -O1 --emit=llvm --dump-dir %t/w32 -o %t/w32.ll
// RUN: FileCheck %s --check-prefix=ROCDL32 < %t/w32/1-llvm-dialect.mlir
// RUN: FileCheck %s --check-prefix=LLVM32 < %t/w32.ll

// The dump is in generic form.
// ROCDL64-DAG: "rocdl.workgroup.id.x"() : () -> i32
// ROCDL64-DAG: "rocdl.workgroup.id.y"() : () -> i32
// ROCDL64-DAG: "rocdl.workgroup.id.z"() : () -> i32
// ROCDL64-DAG: intrin = "llvm.amdgcn.implicitarg.ptr"{{.*}} : () -> !llvm.ptr<4>
// ROCDL64-DAG: "llvm.load"({{.*}}invariant{{.*}} : (!llvm.ptr<4>) -> i32
// ROCDL64-DAG: %[[LO:.*]] = "rocdl.mbcnt.lo"(%[[ONES:.*]], %{{.*}}) : (i32, i32) -> i32
// ROCDL64-DAG: "rocdl.mbcnt.hi"(%[[ONES]], %[[LO]]) : (i32, i32) -> i32
// ROCDL64-DAG: %[[TID:.*]] = "rocdl.workitem.id.x"() <{range = #llvm.constant_range<i32, 0, 128>}>
// ROCDL64-DAG: %[[WAVE:.*]] = "llvm.lshr"(%[[TID]], %{{.*}}) : (i32, i32) -> i32
// ROCDL64-DAG: "rocdl.readfirstlane"(%[[WAVE]]) : (i32) -> i32

// LLVM64-LABEL: define amdgpu_kernel void @ids(
// LLVM64-DAG: call {{.*}}i32 @llvm.amdgcn.workgroup.id.x()
// LLVM64-DAG: call {{.*}}i32 @llvm.amdgcn.workgroup.id.y()
// LLVM64-DAG: call {{.*}}i32 @llvm.amdgcn.workgroup.id.z()
// LLVM64-DAG: call {{.*}}ptr addrspace(4) @llvm.amdgcn.implicitarg.ptr()
// LLVM64-DAG: call i32 @llvm.amdgcn.mbcnt.lo(i32 -1, i32 0)
// LLVM64-DAG: call i32 @llvm.amdgcn.mbcnt.hi(i32 -1,
// LLVM64-DAG: call range(i32 0, 128) i32 @llvm.amdgcn.workitem.id.x()
// LLVM64-DAG: call i32 @llvm.amdgcn.readfirstlane.i32(

// ROCDL32-NOT: rocdl.mbcnt.hi
// ROCDL32: "rocdl.mbcnt.lo"
// ROCDL32-NOT: rocdl.mbcnt.hi
// ROCDL32: "rocdl.workitem.id.x"() <{range = #llvm.constant_range<i32, 0, 64>}>
// LLVM32: call i32 @llvm.amdgcn.mbcnt.lo(i32 -1, i32 0)
// LLVM32-NOT: mbcnt.hi

// Each thread stores pid.x + pid.y + pid.z + nprog.x and its element index:
// the index goes through lane and warp ids.
#b = #hd.blocked<{sizePerThread = [1], threadsPerWarp = [64], warpsPerCTA = [2], order = [0]}>
module attributes {hd.num_warps = 2 : i32} {
  func.func @ids(%out: !hd.ptr<i32> {hd.divisibility = 16 : i32}) attributes {hd.kernel} {
    %x = hd.program_id 0
    %y = hd.program_id 1
    %z = hd.program_id 2
    %n = hd.num_programs 0
    %a = arith.addi %x, %y : i32
    %b = arith.addi %a, %z : i32
    %c = arith.addi %b, %n : i32
    %i = hd.arange 0 to 128 : tensor<128xi32, #b>
    %cs = hd.splat %c : tensor<128xi32, #b>
    %v = arith.addi %i, %cs : tensor<128xi32, #b>
    %ps = hd.splat %out : tensor<128x!hd.ptr<i32>, #b>
    %p = hd.addptr %ps, %i : tensor<128x!hd.ptr<i32>, #b>, tensor<128xi32, #b>
    hd.store %p, %v : tensor<128x!hd.ptr<i32>, #b>
    return
  }
}
