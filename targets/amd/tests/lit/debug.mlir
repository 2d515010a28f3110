// print: a placeholder call after distribute, expanded into HIP's hostcall
// printf from the device libraries (ockl), whose hidden hostcall buffer the
// code object then asks for. assert: prints the message and traps.

// REQUIRES: rocm-device-libs
// RUN: rm -rf %t && mkdir -p %t/dump
// RUN: hadron compile %s --target amd:gfx942 --dump-dir %t/dump -o %t/k.hsaco
// RUN: FileCheck %s --check-prefix=ROCDL < %t/dump/1-llvm-dialect.mlir
// RUN: FileCheck %s --check-prefix=LLVM < %t/dump/2-llvm.ll
// RUN: FileCheck %s --check-prefix=ASM < %t/dump/3-kernel.s
// RUN: llvm-readobj --notes %t/k.hsaco | FileCheck %s --check-prefix=NOTES

// ROCDL-DAG: "llvm.mlir.global"() <{addr_space = 4 : i32, {{.*}}value = "pid (%d, %d, %d) n = %d\0A\00"
// ROCDL-DAG: "llvm.mlir.global"() <{addr_space = 4 : i32, {{.*}}value = "<kernel>:{{[0-9]+}}: assertion failed: n must be positive\00"
// ROCDL-DAG: "llvm.call"({{.*}}) <{{{.*}}callee = @__hd_amd_printf
// ROCDL-DAG: "llvm.call"({{.*}}) <{{{.*}}callee = @__hd_amd_assert
// ROCDL-DAG: "llvm.intr.trap"() : () -> ()

// After linking ockl and optimising: the hostcall, no placeholder.
// LLVM-NOT: __hd_amd_printf
// LLVM: call void @llvm.trap()
// LLVM-NOT: __hd_amd_printf

// ASM: s_trap 2

// NOTES: .value_kind: hidden_hostcall_buffer

module attributes {hd.num_warps = 1 : i32} {
  func.func @debug(%n: i32) attributes {hd.kernel} {
    %zero = arith.constant 0 : i32
    %ok = arith.cmpi sgt, %n, %zero : i32
    hd.assert %ok, "n must be positive" : i1
    hd.print "n = " : %n : i32
    return
  }
}
