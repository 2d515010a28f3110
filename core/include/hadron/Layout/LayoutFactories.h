//===- LayoutFactories.h - GPU layouts as linear layouts --------*- C++ -*-===//
//
// The distributed and shared-memory layouts a GPU kernel uses, each built as
// a LinearLayout for a concrete tensor shape. They are plain C++ so that the
// dialect's attributes, the lowering and the unit tests share one
// definition.
//
// Conventions shared by every factory:
//  * Out dims are "dim0" .. "dimN-1", in tensor order, sized by `shape`.
//  * `order` lists tensor dims from fastest to slowest varying: order[0] is
//    the dim whose consecutive elements are consecutive in registers, lanes,
//    warps or memory.
//  * Every size is a power of two; arguments are validated and a failure
//    names the argument and the value, e.g. "sizePerThread[1] = 3 is not a
//    power of two".
//
//===----------------------------------------------------------------------===//
#ifndef HADRON_LAYOUT_LAYOUTFACTORIES_H
#define HADRON_LAYOUT_LAYOUTFACTORIES_H

#include "hadron/Layout/LinearLayout.h"

#include <cstdint>
#include <vector>

namespace hadron {

/// A blocked (distributed) layout: each thread holds sizePerThread
/// contiguous elements, a warp is a threadsPerWarp grid of threads and a CTA a
/// warpsPerCTA grid of warps, each grid laid out in `order`.
///
/// In dims "register", "lane", "warp", "block" (block has size 1). The tile
/// one CTA covers along dim d is T[d] = sizePerThread[d] * threadsPerWarp[d] *
/// warpsPerCTA[d], and the layout is fitted to `shape`:
///  * shape[d] < T[d]: registers that would step past the shape are dropped
///    (a thread does not hold an element twice), lanes and warps that would
///    do so get zero bases: they replicate the elements of lower lanes and
///    warps, since the number of lanes and warps is fixed.
///  * shape[d] > T[d]: the tile repeats; each thread holds
///    shape[d] / T[d] copies of its sizePerThread block, one tile apart. The
///    register bases of the repetition come after the sizePerThread ones,
///    dims in `order`.
/// The result is surjective onto the shape.
Result<LinearLayout> blockedLayout(const std::vector<int32_t> &shape,
                                   const std::vector<int32_t> &sizePerThread,
                                   const std::vector<int32_t> &threadsPerWarp,
                                   const std::vector<int32_t> &warpsPerCTA,
                                   const std::vector<int32_t> &order);

/// The layout of `parent`'s tensor with tensor dim `dim` removed, which is
/// what a reduction along `dim` produces.
///
/// Contract: `parent` has out dims "dim0" .. "dimN-1" in order (as every
/// factory here builds them) and 0 <= dim < N. The result has out dims
/// "dim0" .. "dimN-2" (the dims after `dim` move down by one) and the same in
/// dims, with the parent's entries along `dim` dropped. Register bases that
/// become zero are removed: the registers a thread used along `dim` are
/// reduced into one. Lane, warp and block bases that become zero stay: those
/// threads now hold the same values (replication), and their count is fixed
/// by the hardware.
///
/// For a blocked parent the result is the same whether the parent was built
/// for the full parent shape or with shape[dim] = 1, so callers may pass
/// either.
Result<LinearLayout> sliceLayout(const LinearLayout &parent, int dim);

/// A shared-memory layout with an XOR swizzle, from in dim "offset" (the
/// element offset in the allocation) to the tensor's out dims.
///
/// Memory is row-major in `order`: offset bits first walk dim order[0]
/// (the columns), then order[1] (the rows), then order[2], ... For a rank 1
/// tensor there is no swizzle. Otherwise an element (row, col) is stored at
///   row * cols + (col ^ f(row)),  f(row) = ((row / perPhase) % maxPhase) *
///                                          vec % cols,
/// so the offset bases are: column bit i -> (col 2^i); row bit i -> (row 2^i,
/// col f(2^i)); every higher dim's bit i -> 2^i along that dim. With vec,
/// perPhase and maxPhase all powers of two f is linear over GF(2), and
/// vec = perPhase = maxPhase = 1 is the unswizzled row-major layout. The
/// result is a bijection.
Result<LinearLayout> swizzledSharedLayout(const std::vector<int32_t> &shape,
                                          int32_t vec, int32_t perPhase,
                                          int32_t maxPhase,
                                          const std::vector<int32_t> &order);

/// The shared-memory layout matrix units read operands from (see
/// #hd.matrix_shared), from in dim "offset" to the tensor's out dims. The
/// last two dims form the tile; dim rank-1 is contiguous, or dim rank-2 when
/// `transposed`. With E = swizzleBytes * 8 / elementBits elements per run,
/// the unswizzled element offset of (row r, contiguous c) in a tile of R rows
/// is (c / E) * R * E + r * E + c % E; leading dims stack whole tiles. The
/// swizzle XORs byte-offset bits 4.. with bits 7.. over log2(swizzleBytes /
/// 16) bits. swizzleBytes is 32, 64 or 128, elementBits 8, 16 or 32; the
/// contiguous dim must hold whole runs and the other dim whole atoms of 8
/// rows.
Result<LinearLayout> matrixSharedLayout(const std::vector<int32_t> &shape,
                                        int32_t swizzleBytes, int32_t elementBits,
                                        bool transposed);

/// The layout of an operand of an FMA dot whose result C = A * B has the
/// blocked layout (sizePerThread, threadsPerWarp, warpsPerCTA, order).
///
/// Contract: opIdx 0 is A with `shape` [M, K], opIdx 1 is B with `shape`
/// [K, N]; a rank 3 shape has a leading batch dim ([batch, M, K] and
/// [batch, K, N]) and the blocked parameters then have rank 3 as well. The
/// parameters are the parent's, indexed by tensor dim of C ([M, N] or
/// [batch, M, N]); the dims of A and B line up with them because K of A takes
/// N's position and K of B takes M's.
///
/// Each thread computes its elements of C from whole rows of A and whole
/// columns of B, so the operand is the parent's blocked layout with the K
/// dim moved entirely into registers: sizePerThread[K] = K. Along M (for A)
/// or N (for B) it is the parent's layout, repetition included. The lanes and
/// warps the parent spreads along the other dim of C get zero bases: they
/// need the same operand elements. K's registers sit in the register order
/// `order` gives, so with K fastest in `order` a thread's K elements are
/// consecutive registers.
Result<LinearLayout>
dotOperandLayout(int opIdx, const std::vector<int32_t> &shape,
                 const std::vector<int32_t> &sizePerThread,
                 const std::vector<int32_t> &threadsPerWarp,
                 const std::vector<int32_t> &warpsPerCTA,
                 const std::vector<int32_t> &order);

/// Which operand of a matrix instruction D = A * B + C a fragment belongs to.
enum class MatrixOperand { A, B, Accumulator };

/// The layout of a rank 2 operand of a dot that runs on a matrix instruction
/// D (m x n) = A (m x k) * B (k x n) + C, spread over a warpsPerCTA = [wm, wn]
/// grid of warps.
///
/// `fragment` is what one warp holds of one instruction's operand, as the
/// target's model declares it: in dims "register" and "lane" (a "warp" in dim
/// of size 1 is allowed) to out dims "dim0" (rows) and "dim1" (columns) of
/// the instruction's tile, m x k for A, k x n for B, m x n for the
/// accumulator. Register i of the fragment is the instruction's i-th operand
/// element, so a lowering finds an instruction's registers by coordinate.
///
/// The fragment is tiled over `shape` ([M, K], [K, N] or [M, N]):
///  * warps: the first log2(wm) warp bits step along M by the fragment's
///    rows, the next log2(wn) along N by its columns. A's N-warps and B's
///    M-warps get zero bases: they need the same operand elements. A warp
///    step past the shape is zero too (replication).
///  * registers: the fragment's registers come first, then repetitions along
///    K (A and B) or N (the accumulator), then along the other dim, each one
///    CTA tile apart.
/// A shape smaller than one instruction tile keeps the fragment's
/// coordinates modulo the shape (its registers that no longer move are
/// dropped, its lanes replicate), as expand_dims of a sliced accumulator
/// needs; a dot needs whole tiles. The result is surjective.
Result<LinearLayout> matrixOperandLayout(MatrixOperand operand,
                                         const std::vector<int32_t> &shape,
                                         const LinearLayout &fragment,
                                         const std::vector<int32_t> &warpsPerCTA);

} // namespace hadron

#endif // HADRON_LAYOUT_LAYOUTFACTORIES_H
