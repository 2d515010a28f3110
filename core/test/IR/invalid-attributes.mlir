// Every error of the layout and target attributes' parsers and verifiers,
// and of the tensor-encoding checks.
// RUN: hadron-opt %s -split-input-file -verify-diagnostics

// FieldReader: the body must be a dictionary.
// expected-error @+1 {{#hd.blocked expects a dictionary of fields, got [1, 2]}}
#b = #hd.blocked<[1, 2]>

// -----

// expected-error @+1 {{#hd.blocked is missing the field `order`}}
#b = #hd.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4]}>

// -----

// expected-error @+1 {{#hd.blocked has no field `foo`}}
#b = #hd.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0], foo = 1}>

// -----

// expected-error @+1 {{#hd.blocked `sizePerThread` must be an array of integers, got 4}}
#b = #hd.blocked<{sizePerThread = 4, threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>

// -----

// expected-error @+1 {{#hd.blocked `threadsPerWarp` must hold non-negative 32-bit integers, got -1}}
#b = #hd.blocked<{sizePerThread = [1], threadsPerWarp = [-1], warpsPerCTA = [4], order = [0]}>

// -----

// expected-error @+1 {{#hd.blocked `warpsPerCTA` must hold non-negative 32-bit integers, got "4"}}
#b = #hd.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = ["4"], order = [0]}>

// -----

// expected-error @+1 {{#hd.swizzled `vec` must be a non-negative 32-bit integer, got "8"}}
#s = #hd.swizzled<{vec = "8", perPhase = 1, maxPhase = 8, order = [1, 0]}>

// -----

// A bool is not an integer field.
// expected-error @+1 {{#hd.swizzled `perPhase` must be a non-negative 32-bit integer, got true}}
#s = #hd.swizzled<{vec = 8, perPhase = true, maxPhase = 8, order = [1, 0]}>

// -----

// expected-error @+1 {{#hd.swizzled `maxPhase` must be a non-negative 32-bit integer, got 4294967296}}
#s = #hd.swizzled<{vec = 8, perPhase = 1, maxPhase = 4294967296, order = [1, 0]}>

// -----

// expected-error @+1 {{#hd.target `sharedMemoryBytes` must be a non-negative integer, got -1}}
#t = #hd.target<{name = "t", arch = "a", warpSizes = [32], numWarps = 4, maxThreadsPerCTA = 1024, sharedMemoryBytes = -1}>

// -----

// expected-error @+1 {{#hd.target `name` must be a string, got 1}}
#t = #hd.target<{name = 1, arch = "a", warpSizes = [32], numWarps = 4, maxThreadsPerCTA = 1024, sharedMemoryBytes = 0}>

// -----

// expected-error @+1 {{#hd.target is missing the field `sharedMemoryBytes`}}
#t = #hd.target<{name = "t", arch = "a", warpSizes = [32], numWarps = 4, maxThreadsPerCTA = 1024}>

// -----

// expected-error @+1 {{#hd.slice `parent` must be a distributed layout, got 1}}
#s = #hd.slice<{dim = 0, parent = 1}>

// -----

// A shared layout is not a distributed one.
// expected-error @+1 {{#hd.slice `parent` must be a distributed layout, got #hd.swizzled}}
#s = #hd.slice<{dim = 0, parent = #hd.swizzled<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>}>

// -----

// expected-error @+1 {{#hd.dot_op `kWidth` must be a non-negative 32-bit integer}}
#d = #hd.dot_op<{opIdx = 0, parent = #hd.auto, kWidth = -2}>

// -----

// expected-error @+1 {{#hd.dot_op has no field `kwidth`}}
#d = #hd.dot_op<{opIdx = 0, parent = #hd.auto, kwidth = 2}>

// -----

// expected-error @+1 {{#hd.linear `register` must be a list of bases, got 1}}
#l = #hd.linear<{register = 1}>

// -----

// expected-error @+1 {{#hd.linear `lane` basis must be a list of integers, got 1}}
#l = #hd.linear<{register = [[1]], lane = [1]}>

// -----

// expected-error @+1 {{#hd.linear `warp` basis entries must be non-negative int32, got -1}}
#l = #hd.linear<{register = [[1]], warp = [[-1]]}>

// -----

// expected-error @+1 {{#hd.linear has no field `thread`}}
#l = #hd.linear<{register = [[1]], thread = [[2]]}>

// -----

// expected-error @+1 {{#hd.shared_linear is missing the field `offset`}}
#s = #hd.shared_linear<{}>

// -----

// expected-error @+1 {{#hd.blocked needs at least one dimension}}
#b = #hd.blocked<{sizePerThread = [], threadsPerWarp = [], warpsPerCTA = [], order = []}>

// -----

// expected-error @+1 {{#hd.blocked fields disagree on the rank: sizePerThread has 2, threadsPerWarp 1, warpsPerCTA 1, order 1}}
#b = #hd.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>

// -----

// expected-error @+1 {{#hd.blocked sizePerThread[1] = 3 is not a power of two}}
#b = #hd.blocked<{sizePerThread = [1, 3], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>

// -----

// expected-error @+1 {{#hd.blocked threadsPerWarp[0] = 0 is not a power of two}}
#b = #hd.blocked<{sizePerThread = [1], threadsPerWarp = [0], warpsPerCTA = [4], order = [0]}>

// -----

// expected-error @+1 {{#hd.blocked warpsPerCTA[0] = 6 is not a power of two}}
#b = #hd.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [6], order = [0]}>

// -----

// expected-error @+1 {{#hd.blocked order [0, 0] is not a permutation of [0, 2)}}
#b = #hd.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [0, 0]}>

// -----

// expected-error @+1 {{#hd.blocked order [2, 0] is not a permutation of [0, 2)}}
#b = #hd.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [2, 0]}>

// -----

// expected-error @+1 {{#hd.blocked tile along dim 0 is 2^90 elements}}
#b = #hd.blocked<{sizePerThread = [1073741824], threadsPerWarp = [1073741824], warpsPerCTA = [1073741824], order = [0]}>

// -----

// expected-error @+1 {{#hd.slice dim 2 is out of range for parent}}
#s = #hd.slice<{dim = 2, parent = #hd.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>}>

// -----

// expected-error @+1 {{has no dimension left; a reduction of it is a scalar}}
#s = #hd.slice<{dim = 0, parent = #hd.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>}>

// -----

// expected-error @+1 {{#hd.linear needs at least one basis with one entry per tensor dimension}}
#l = #hd.linear<{register = [], lane = []}>

// -----

// expected-error @+1 {{#hd.linear basis of `lane` has 1 entries; the layout has rank 2}}
#l = #hd.linear<{register = [[0, 1]], lane = [[2]]}>

// -----

// Bases that skip element 1 miss half the tile.
// expected-error @+1 {{#hd.linear layout is not surjective}}
#l = #hd.linear<{register = [[2]], lane = [[4]]}>

// -----

// expected-error @+1 {{has entry 1073741824 for out dim 'dim0', outside [0, 1073741824)}}
#l = #hd.linear<{register = [[1073741824]]}>

// -----

// expected-error @+1 {{#hd.dot_op opIdx is 2; a dot has operands 0 and 1}}
#d = #hd.dot_op<{opIdx = 2, parent = #hd.auto}>

// -----

// expected-error @+1 {{has rank 1; a dot needs rank 2 (or 3 with a batch dimension)}}
#d = #hd.dot_op<{opIdx = 0, parent = #hd.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>}>

// -----

// expected-error @+1 {{#hd.dot_op kWidth = 3 is not a power of two}}
#d = #hd.dot_op<{opIdx = 1, parent = #hd.auto, kWidth = 3}>

// -----

#b3 = #hd.blocked<{sizePerThread = [1, 1, 1], threadsPerWarp = [1, 4, 8], warpsPerCTA = [1, 4, 1], order = [2, 1, 0]}>
// expected-error @+1 {{#hd.dot_op parent must be the accumulator layout, got #hd.slice}}
#d = #hd.dot_op<{opIdx = 0, parent = #hd.slice<{dim = 0, parent = #b3}>}>

// -----

#b2 = #hd.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
// expected-error @+1 {{#hd.dot_op parent must be the accumulator layout, got #hd.dot_op}}
#d = #hd.dot_op<{opIdx = 0, parent = #hd.dot_op<{opIdx = 1, parent = #b2}>}>

// -----

// expected-error @+1 {{#hd.dot_op is missing the field `parent`}}
#d = #hd.dot_op<{opIdx = 0}>

// -----

// expected-error @+1 {{#hd.swizzled needs at least one dimension}}
#s = #hd.swizzled<{vec = 1, perPhase = 1, maxPhase = 1, order = []}>

// -----

// expected-error @+1 {{#hd.swizzled vec = 3 is not a power of two}}
#s = #hd.swizzled<{vec = 3, perPhase = 1, maxPhase = 1, order = [1, 0]}>

// -----

// expected-error @+1 {{#hd.swizzled perPhase = 0 is not a power of two}}
#s = #hd.swizzled<{vec = 1, perPhase = 0, maxPhase = 1, order = [1, 0]}>

// -----

// expected-error @+1 {{#hd.swizzled maxPhase = 12 is not a power of two}}
#s = #hd.swizzled<{vec = 1, perPhase = 1, maxPhase = 12, order = [1, 0]}>

// -----

// expected-error @+1 {{#hd.swizzled order [1, 1] is not a permutation of [0, 2)}}
#s = #hd.swizzled<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 1]}>

// -----

// expected-error @+1 {{#hd.padded needs at least one dimension}}
#p = #hd.padded<{intervals = [32], paddings = [4], order = []}>

// -----

// expected-error @+1 {{#hd.padded needs one padding per interval, got 2 intervals and 1 paddings}}
#p = #hd.padded<{intervals = [32, 64], paddings = [4], order = [1, 0]}>

// -----

// expected-error @+1 {{#hd.padded needs one padding per interval, got 0 intervals and 0 paddings}}
#p = #hd.padded<{intervals = [], paddings = [], order = [1, 0]}>

// -----

// expected-error @+1 {{#hd.padded intervals[0] = 48 is not a power of two}}
#p = #hd.padded<{intervals = [48], paddings = [4], order = [1, 0]}>

// -----

// expected-error @+1 {{#hd.padded paddings[1] is 0}}
#p = #hd.padded<{intervals = [32, 64], paddings = [4, 0], order = [1, 0]}>

// -----

// expected-error @+1 {{#hd.padded order [0, 2] is not a permutation of [0, 2)}}
#p = #hd.padded<{intervals = [32], paddings = [4], order = [0, 2]}>

// -----

// expected-error @+1 {{#hd.padded is missing the field `paddings`}}
#p = #hd.padded<{intervals = [32], order = [1, 0]}>

// -----

// expected-error @+1 {{#hd.shared_linear needs at least one basis with one entry per tensor dimension}}
#s = #hd.shared_linear<{offset = []}>

// -----

// expected-error @+1 {{#hd.shared_linear basis of `offset` has 2 entries; the layout has rank 1}}
#s = #hd.shared_linear<{offset = [[1], [0, 2]]}>

// -----

// Two offsets hold the same element.
// expected-error @+1 {{#hd.shared_linear must store each element exactly once}}
#s = #hd.shared_linear<{offset = [[1], [1]]}>

// -----

// expected-error @+1 {{#hd.shared_linear has no field `register`}}
#s = #hd.shared_linear<{offset = [[1]], register = [[1]]}>

// -----

// expected-error @+1 {{#hd.target needs a name}}
#t = #hd.target<{name = "", arch = "a", warpSizes = [32], numWarps = 4, maxThreadsPerCTA = 1024, sharedMemoryBytes = 0}>

// -----

// expected-error @+1 {{#hd.target t allows no warp size}}
#t = #hd.target<{name = "t", arch = "a", warpSizes = [], numWarps = 4, maxThreadsPerCTA = 1024, sharedMemoryBytes = 0}>

// -----

// expected-error @+1 {{#hd.target warpSizes[1] = 48 is not a power of two}}
#t = #hd.target<{name = "t", arch = "a", warpSizes = [32, 48], numWarps = 4, maxThreadsPerCTA = 1024, sharedMemoryBytes = 0}>

// -----

// expected-error @+1 {{#hd.target numWarps = 3 is not a power of two}}
#t = #hd.target<{name = "t", arch = "a", warpSizes = [32], numWarps = 3, maxThreadsPerCTA = 1024, sharedMemoryBytes = 0}>

// -----

// expected-error @+1 {{#hd.target numWarps = 64 of 32 lanes is 2048 threads; target t allows 1024 per CTA}}
#t = #hd.target<{name = "t", arch = "a", warpSizes = [64, 32], numWarps = 64, maxThreadsPerCTA = 1024, sharedMemoryBytes = 0}>

// -----

// expected-error @+1 {{#hd.target `arch` must be a string, got 90}}
#t = #hd.target<{name = "t", arch = 90, warpSizes = [32], numWarps = 4, maxThreadsPerCTA = 1024, sharedMemoryBytes = 0}>

// -----

#b = #hd.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// expected-error @+1 {{has rank 1 but the tensor has rank 2}}
func.func @rank(%t: tensor<4x4xf32, #b>)

// -----

#b = #hd.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// expected-error @+1 {{tensor dimension 0 is 96; tiles with a layout need power-of-two dimensions}}
func.func @not_pow2(%t: tensor<96xf32, #b>)

// -----

#b = #hd.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// expected-error @+1 {{tensor dimension 0 is 2147483648; a layout dim holds at most 2^30 elements}}
func.func @too_big(%t: tensor<2147483648xf32, #b>)

// -----

// A placeholder still needs power-of-two dimensions.
// expected-error @+1 {{tensor dimension 1 is 3; tiles with a layout need power-of-two dimensions}}
func.func @auto_shape(%t: tensor<4x3xf32, #hd.auto>)

// -----

#l = #hd.linear<{register = [[1]], lane = [[2]]}>
// expected-error @+1 {{cannot hold a tensor of shape [8]: #hd.linear covers 4 elements along dim 0, the tensor has 8}}
func.func @linear_size(%t: tensor<8xf32, #l>)

// -----

#l = #hd.linear<{register = [[0, 1], [1, 0]]}>
#d = #hd.dot_op<{opIdx = 0, parent = #l}>
// expected-error @+1 {{has no operand layout; only #hd.blocked (FMA dot) and #hd.mma (matrix instruction) parents define one}}
func.func @dot_of_linear(%t: tensor<2x2xf16, #d>)

// -----

#b2 = #hd.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#s = #hd.slice<{dim = 1, parent = #b2}>
// expected-error @+1 {{layout #hd.slice<{dim = 1, parent = #hd.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>}> has rank 1 but the tensor has rank 2}}
func.func @slice_rank(%t: tensor<4x4xf32, #s>)
