// Math the AMDGPU backend lacks (f64 exp, which it cannot select) or does
// inaccurately (f32 sin) becomes ocml calls, element by element; ocml is
// linked, internalised and inlined, so no call is left and nothing is
// undefined. Without the device libraries: an error naming the file, the
// function that needed it and where it was looked for.

// REQUIRES: rocm-device-libs
// RUN: rm -rf %t && mkdir -p %t/dump
// RUN: hadron compile %s --target amd:gfx942 --dump-dir %t/dump -o %t/k.hsaco
// RUN: FileCheck %s --check-prefix=DIALECT < %t/dump/1-llvm-dialect.mlir
// RUN: FileCheck %s --check-prefix=LLVM < %t/dump/2-llvm.ll
// RUN: llvm-readobj --dyn-syms %t/k.hsaco | FileCheck %s --check-prefix=SYMS
// RUN: env HADRON_AMD_DEVICE_LIBS=%t/none not hadron compile %s --target amd:gfx942 -o %t/x 2>&1 | FileCheck %s --check-prefix=NOLIBS
// A kernel without such math needs no library.
// RUN: sed 's/threadsPerWarp = \[32\]/threadsPerWarp = [64]/' %examples/vector_add.mlir > %t/va.mlir
// RUN: env HADRON_AMD_DEVICE_LIBS=%t/none hadron compile %t/va.mlir --target amd:gfx942 -o %t/va.hsaco

// DIALECT-DAG: "llvm.intr.sin"(%{{.*}}) {{.*}}: (vector<2xf32>) -> vector<2xf32>
// DIALECT-DAG: "llvm.intr.exp"(%{{.*}}) {{.*}}: (vector<2xf64>) -> vector<2xf64>

// LLVM-NOT: call {{.*}}@llvm.sin.
// LLVM-NOT: call {{.*}}@llvm.exp.f64
// LLVM-NOT: declare {{.*}}@__ocml_
// LLVM: define amdgpu_kernel void @math(

// The null symbol (entry 0) is the only undefined one.
// SYMS-NOT: __ocml
// SYMS: Name: math (
// SYMS-NOT: Undefined
// SYMS-NOT: __ocml

// NOLIBS: hadron compile: amd: compile failed: amd compile: the kernel calls __ocml_{{sin_f32|exp_f64}}, which is in the ROCm device library ocml.bc; no ocml.bc in {{.*}}none (install rocm-device-libs, or set HADRON_AMD_DEVICE_LIBS to the directory that holds it)

#b = #hd.blocked<{sizePerThread = [2], threadsPerWarp = [64], warpsPerCTA = [1], order = [0]}>
module attributes {hd.num_warps = 1 : i32} {
  func.func @math(%x: !hd.ptr<f32> {hd.divisibility = 16 : i32}, %y: !hd.ptr<f64> {hd.divisibility = 16 : i32}) attributes {hd.kernel} {
    %i = hd.arange 0 to 128 : tensor<128xi32, #b>
    %xs = hd.splat %x : tensor<128x!hd.ptr<f32>, #b>
    %xp = hd.addptr %xs, %i : tensor<128x!hd.ptr<f32>, #b>, tensor<128xi32, #b>
    %xv = hd.load %xp : tensor<128x!hd.ptr<f32>, #b>
    %s = math.sin %xv : tensor<128xf32, #b>
    hd.store %xp, %s : tensor<128x!hd.ptr<f32>, #b>
    %ys = hd.splat %y : tensor<128x!hd.ptr<f64>, #b>
    %yp = hd.addptr %ys, %i : tensor<128x!hd.ptr<f64>, #b>, tensor<128xi32, #b>
    %yv = hd.load %yp : tensor<128x!hd.ptr<f64>, #b>
    %e = math.exp %yv : tensor<128xf64, #b>
    hd.store %yp, %e : tensor<128x!hd.ptr<f64>, #b>
    return
  }
}
