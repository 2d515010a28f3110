//===- Dot.h - The dot kernels and their uses -------------------*- C++ -*-===//
//
// The kernel of the conformance suite's dot.<in>_<acc>.<bm>x<bn>x<bk>.w<W>
// cases: matmul (A, B: in; C, D: acc; M, N, K: i32) computes D = C + A x B
// with program (pid0, pid1) taking a bm x bn tile of D in the blocked
// accumulator layout, a K loop (for_range, step bk) carrying it, and the
// operands loaded masked (0 past the edges) in blocked layouts and converted
// to their DotOperand layouts.
//
// The dot.mma.* cases are not here: their accumulator layout names a matrix
// instruction that a target plugin reports at run time
// (hd_context_matrix_instructions), which a table built at build time cannot
// know, so conformance/cases/Dot.cpp writes those few kernels as text.
//
//===----------------------------------------------------------------------===//
#ifndef HADRON_TESTS_KERNELS_DOT_H
#define HADRON_TESTS_KERNELS_DOT_H

#include "kernels/KernelUse.h"

#include <vector>

namespace hadron::kernels {

/// The accumulator layout, the tile (ints {bm, bn, bk}) and the types (the
/// accumulator's in `variant`).
inline KernelUse dotUse(Elem in, Elem acc, const Blocked &accLayout, int bm, int bn, int bk) {
  return {"matmul", accLayout, in, {}, {bm, bn, bk}, testkit::irName(acc)};
}

/// The operand loads' layouts for `warps` warps (written for 32 lanes).
inline Blocked dotLoadA(int warps) { return {{1, 1}, {8, 4}, {warps, 1}, {1, 0}}; }
inline Blocked dotLoadB(int warps) { return {{1, 1}, {2, 16}, {1, warps}, {1, 0}}; }

/// What the conformance suite's dot.* cases (but dot.mma.*) take, in its
/// order. Products M * N * K of at most 8192 per tile: the host folds a
/// program's threads into one, so larger tiles cost seconds of compile time
/// there.
inline std::vector<KernelUse> dotUses() {
  const Blocked acc4{{1, 4}, {4, 8}, {4, 1}, {1, 0}};
  const Blocked acc2{{2, 2}, {8, 4}, {2, 1}, {1, 0}};
  const Blocked acc1{{4, 4}, {4, 8}, {1, 1}, {1, 0}};
  const Elem f16 = Elem::F16, bf16 = Elem::BF16, f32 = Elem::F32, f64 = Elem::F64;
  return {
      dotUse(f16, f32, acc4, 32, 32, 8),          dotUse(f16, f32, acc2, 16, 16, 16),
      dotUse(f16, f16, acc1, 16, 32, 8),          dotUse(bf16, f32, acc4, 32, 32, 8),
      dotUse(bf16, f32, acc1, 16, 32, 8),         dotUse(f32, f32, acc4, 32, 32, 8),
      dotUse(f32, f32, acc2, 32, 16, 8),          dotUse(Elem::I8, Elem::I32, acc4, 16, 32, 8),
      dotUse(Elem::I8, Elem::I32, acc1, 16, 16, 16), dotUse(f64, f64, acc2, 32, 16, 8),
  };
}

/// What tests/e2e's Dot tests take from the library (those whose operands
/// stay in registers), in their order: f32 and f64 accumulate in their own
/// type, f16 in f32.
inline std::vector<KernelUse> e2eDotUses() {
  const Elem f16 = Elem::F16, f32 = Elem::F32, f64 = Elem::F64;
  return {
      dotUse(f32, f32, {{2, 4}, {4, 8}, {4, 1}, {1, 0}}, 32, 32, 8),
      dotUse(f32, f32, {{1, 1}, {8, 4}, {1, 4}, {1, 0}}, 16, 32, 16),
      dotUse(f32, f32, {{4, 2}, {8, 4}, {1, 2}, {0, 1}}, 32, 16, 16),
      dotUse(f32, f32, {{1, 2}, {32, 1}, {1, 1}, {1, 0}}, 32, 16, 4),
      dotUse(f32, f32, {{2, 2}, {4, 8}, {2, 4}, {1, 0}}, 16, 32, 8),
      dotUse(f16, f32, {{2, 2}, {8, 4}, {1, 1}, {1, 0}}, 16, 16, 8),
      dotUse(f16, f32, {{1, 1}, {8, 4}, {1, 4}, {1, 0}}, 16, 32, 8),
      dotUse(f64, f64, {{2, 2}, {8, 4}, {2, 1}, {1, 0}}, 32, 16, 8),
  };
}

} // namespace hadron::kernels

#endif // HADRON_TESTS_KERNELS_DOT_H
