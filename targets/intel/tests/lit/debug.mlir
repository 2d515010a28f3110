// hd.print is OpenCL's printf (format in the constant address space:
// UniformConstant, OpExtInst printf); a failing hd.assert sets the status
// buffer's flag with a compare-and-swap and copies its message, which the
// runtime reports at synchronize.

// RUN: rm -rf %t && mkdir -p %t
// RUN: hadron compile %s --target intel:pvc --emit=llvm -o %t/d.ll
// RUN: FileCheck %s --check-prefix=LLVM < %t/d.ll
// RUN: hadron compile %s --target intel:pvc -o %t/d.spv
// RUN: spirv-val %t/d.spv
// RUN: spirv-dis %t/d.spv | FileCheck %s --check-prefix=SPIRV

// LLVM-DAG: addrspace(2) constant [{{[0-9]+}} x i8] c"{{.*}}assertion failed: x too large\00"
// LLVM-DAG: call spir_func i32 (ptr addrspace(2), ...) @_Z6printfPU3AS2Kcz(ptr addrspace(2)
// LLVM-DAG: cmpxchg ptr addrspace(1) %{{.*}}, i32 0, i32 1 syncscope("device") monotonic monotonic

// SPIRV-DAG: OpExtInst %uint %{{[0-9]+}} printf
// SPIRV-DAG: OpAtomicCompareExchange %uint
// SPIRV-DAG: OpTypePointer UniformConstant

#b = #hd.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
module attributes {hd.num_warps = 1 : i32} {
  func.func @d(%x: !hd.ptr<i32>, %n: i32) attributes {hd.kernel} {
    %r = hd.arange 0 to 32 : tensor<32xi32, #b>
    %xp = hd.splat %x : tensor<32x!hd.ptr<i32>, #b>
    %p = hd.addptr %xp, %r : tensor<32x!hd.ptr<i32>, #b>, tensor<32xi32, #b>
    %v = hd.load %p : tensor<32x!hd.ptr<i32>, #b>
    hd.print "n = " : %n : i32
    %lim = hd.splat %n : tensor<32xi32, #b>
    %ok = arith.cmpi slt, %v, %lim : tensor<32xi32, #b>
    hd.assert %ok, "x too large" : tensor<32xi1, #b>
    return
  }
}
