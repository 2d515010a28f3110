// Every error of the hd types' parsers and verifiers.
// RUN: hadron-opt %s -split-input-file -verify-diagnostics

// expected-error @+1 {{unknown address space `local`; expected generic, global or shared}}
func.func @f(%p: !hd.ptr<f32, local>)

// -----

// expected-error @+1 {{!hd.ptr points to integers, floats or pointers, not 'index'}}
func.func @f(%p: !hd.ptr<index>)

// -----

// expected-error @+1 {{!hd.ptr points to integers, floats or pointers, not 'tensor<4xf32>'}}
func.func @f(%p: !hd.ptr<tensor<4xf32>>)

// -----

#b = #hd.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// expected-error @+1 {{!hd.memdesc needs a shared layout (#hd.swizzled, #hd.padded, #hd.shared_linear or #hd.matrix_shared), got #hd.blocked}}
func.func @f(%m: !hd.memdesc<128xf32, #b>)

// -----

#sw = #hd.swizzled<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
// expected-error @+1 {{!hd.memdesc needs at least one dimension}}
func.func @f(%m: !hd.memdesc<f32, #sw>)

// -----

#sw = #hd.swizzled<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
// expected-error @+1 {{!hd.memdesc holds integers or floats, not '!hd.ptr<f32>'}}
func.func @f(%m: !hd.memdesc<4x!hd.ptr<f32>, #sw>)

// -----

#sw = #hd.swizzled<{vec = 4, perPhase = 1, maxPhase = 8, order = [1, 0]}>
// expected-error @+1 {{!hd.memdesc dimensions must be positive, got 0}}
func.func @f(%m: !hd.memdesc<0x4xf32, #sw>)

// -----

#sw = #hd.swizzled<{vec = 4, perPhase = 1, maxPhase = 8, order = [1, 0]}>
// expected-error @+1 {{!hd.memdesc view of rank 2 cannot be larger than its allocation of rank 1}}
func.func @f(%m: !hd.memdesc<4x4xf32, #sw, alloc = 16>)

// -----

#sw = #hd.swizzled<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
// expected-error @+1 {{!hd.memdesc allocation dimensions must be powers of two, got 6}}
func.func @f(%m: !hd.memdesc<4xf32, #sw, alloc = 6>)

// -----

#sw = #hd.swizzled<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
// expected-error @+1 {{!hd.memdesc allocation dimension 2147483648 is over the 2^30 elements a layout dim holds}}
func.func @f(%m: !hd.memdesc<2147483648xf32, #sw>)

// -----

#sw = #hd.swizzled<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
// expected-error @+1 {{!hd.memdesc view dimension 0 is 8, larger than its allocation's 4}}
func.func @f(%m: !hd.memdesc<8xf32, #sw, alloc = 4>)

// -----

#sw = #hd.swizzled<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
// expected-error @+1 {{has rank 1 but the tile has rank 2}}
func.func @f(%m: !hd.memdesc<4x4xf32, #sw, alloc = 2x4x4>)

// -----

#s = #hd.shared_linear<{offset = [[1], [2]]}>
// expected-error @+1 {{cannot hold the tile: #hd.shared_linear covers 4 elements along dim 0, the tile has 8}}
func.func @f(%m: !hd.memdesc<8xf32, #s>)

// -----

#sw = #hd.swizzled<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
// expected-error @+1 {{expected 'alloc'}}
func.func @f(%m: !hd.memdesc<4xf32, #sw, 4>)

// -----

#m = #hd.matrix_shared<{swizzle = 128, elementBits = 16, transposed = false}>
// expected-error @+1 {{!hd.tensor_desc block dims must be powers of two, got 48}}
func.func @f(%d: !hd.tensor_desc<48x64xbf16, #m>)

// -----

#b = #hd.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// expected-error @+1 {{!hd.tensor_desc (the layout its blocks land in) needs a shared layout}}
func.func @f(%d: !hd.tensor_desc<64xf32, #b>)

// -----

#sw = #hd.swizzled<{vec = 1, perPhase = 1, maxPhase = 1, order = [5, 4, 3, 2, 1, 0]}>
// expected-error @+1 {{!hd.tensor_desc blocks have 1 to 5 dims, got 6}}
func.func @f(%d: !hd.tensor_desc<2x2x2x2x2x2xf32, #sw>)

// -----

#m = #hd.matrix_shared<{swizzle = 128, elementBits = 16, transposed = false}>
// expected-error @+1 {{holds 16-bit elements, not 'f32'}}
func.func @f(%d: !hd.tensor_desc<64x64xf32, #m>)
