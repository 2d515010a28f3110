// #hd.coalesced resolves to 16-byte vectors per lane and the arch's wave
// size: 64 lanes on CDNA, 32 on RDNA.

// RUN: rm -rf %t && mkdir -p %t/cdna %t/rdna
// RUN: hadron compile %s --target amd:gfx90a --dump-dir %t/cdna -o %t/cdna.hsaco
// RUN: FileCheck %s --check-prefix=CDNA < %t/cdna/0-planned.mlir
// RUN: hadron compile %s --target amd:gfx1100 --dump-dir %t/rdna -o %t/rdna.hsaco
// RUN: FileCheck %s --check-prefix=RDNA < %t/rdna/0-planned.mlir
// RUN: hadron compile %s --target amd:gfx942 --emit=asm | FileCheck %s --check-prefix=ASM

// CDNA: #hd.blocked<{sizePerThread = [4], threadsPerWarp = [64], warpsPerCTA = [4], order = [0]}>
// RDNA: #hd.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// ASM: global_load_dwordx4
// ASM: global_store_dwordx4

module attributes {hd.num_warps = 4 : i32} {
  func.func @copy(%src: !hd.ptr<f32> {hd.divisibility = 16 : i32}, %dst: !hd.ptr<f32> {hd.divisibility = 16 : i32}) attributes {hd.kernel} {
    %offsets = hd.arange 0 to 2048 : tensor<2048xi32, #hd.coalesced>
    %sp = hd.splat %src : tensor<2048x!hd.ptr<f32>, #hd.coalesced>
    %sptrs = hd.addptr %sp, %offsets : tensor<2048x!hd.ptr<f32>, #hd.coalesced>, tensor<2048xi32, #hd.coalesced>
    %x = hd.load %sptrs : tensor<2048x!hd.ptr<f32>, #hd.coalesced>
    %dp = hd.splat %dst : tensor<2048x!hd.ptr<f32>, #hd.coalesced>
    %dptrs = hd.addptr %dp, %offsets : tensor<2048x!hd.ptr<f32>, #hd.coalesced>, tensor<2048xi32, #hd.coalesced>
    hd.store %dptrs, %x : tensor<2048x!hd.ptr<f32>, #hd.coalesced>
    return
  }
}
