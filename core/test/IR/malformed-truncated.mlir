// A file that ends inside a function body: the error points at the end of
// the file, never a crash.
// RUN: not hadron-opt %s 2>&1 | FileCheck %s
// CHECK: malformed-truncated.mlir:[[@LINE+4]]:{{[0-9]+}}: error: expected '>' in tensor type
#b = #hd.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
func.func @f(%x: !hd.ptr<f32>) attributes {hd.kernel} {
  %r = hd.arange 0 to 128 : tensor<128xi32, #b>
  %p = hd.splat %x : tensor<128x!hd.ptr<f32>, #b