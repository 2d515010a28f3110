//===- Common.h - What the case files share ---------------------*- C++ -*-===//
//
// The layouts cases rotate through, the plan of a kernel from the kernel
// library (tests/kernels, written with the C++ builder and built at build
// time: the suite links no MLIR), and the 1-D elementwise frame: a masked
// tile per program over n elements (n drawn so that the last tile is
// partial), one to three typed inputs, one typed output compared with a
// reference evaluated per element in the op's precision.
//
//===----------------------------------------------------------------------===//
#ifndef HADRON_CONFORMANCE_CASES_COMMON_H
#define HADRON_CONFORMANCE_CASES_COMMON_H

#include "Case.h"

#include "kernels/Atomic.h"
#include "kernels/Elementwise.h"
#include "kernels/Frame.h"
#include "kernels/Layout.h"
#include "kernels/Memory.h"
#include "kernels/ReduceScan.h"
#include "kernels/Shape.h"

#include <cmath>
#include <functional>
#include <limits>
#include <string>
#include <vector>

namespace hadron::conformance {

using testkit::Blocked;

/// 1-D layouts (4, 1 and 2 elements per thread; 4, 8 and 1 warps): the
/// kernel library's frame layouts.
inline const std::vector<Blocked> &layouts1d() { return kernels::frameLayouts(); }

/// 2-D layouts: row-major, column-major, and one with warps along columns.
inline const std::vector<Blocked> &layouts2d() { return kernels::layouts2d(); }

/// The plan of the kernel library's kernel `key` (function `kernel`, with
/// `numWarps` warps); its IR stays empty when the kernel was not built,
/// which fails the case with the key.
Plan builtPlan(const std::string &kernel, const std::string &key, int numWarps);
/// The same for the kernel library's `use`, built for `lanes`.
inline Plan libraryPlan(const kernels::KernelUse &use, unsigned lanes) {
  return builtPlan(use.kernel, use.key(lanes), use.layout.numWarps());
}
/// A case that fails saying `file` has no reference for it: the kernel
/// library lists a kernel the suite does not check.
Case unchecked(const std::string &name, const std::string &kernel, const std::string &file);
/// Appends `what` to the plan's note (after what libraryPlan put there).
inline void addNote(Plan &p, const std::string &what) {
  p.note += (p.note.empty() ? "" : "; ") + what;
}

/// One element's value, whatever its type: integers in `i`, floats in `f`.
struct V {
  int64_t i = 0;
  double f = 0;
};
inline V I(int64_t v) { return V{v, static_cast<double>(v)}; }
inline V F(double v) { return V{0, v}; }

/// What an elementwise case checks, over the kernel library's kernel
/// (tests/kernels/Elementwise.h) of `ins` -> `out`.
struct Elementwise {
  std::vector<Elem> ins;
  Elem out;
  /// The reference of one element, from the inputs as the device sees them.
  std::function<V(const std::vector<V> &)> ref;
  /// Draws operand `k`; empty: the type's default range.
  std::function<V(Env &, int k)> gen{};
  Tolerance tol{};
};

/// The plan of one elementwise case: the kernel library's kernel of `use`,
/// n drawn so that the last tile is partial, inputs from `op.gen`.
Plan elementwisePlan(Env &env, const Elementwise &op, const kernels::ElementwiseUse &use);

/// Default values of an element type: integers over their full range,
/// floats in [-100, 100).
V defaultValue(Env &env, Elem e);
/// Floats with NaN, both infinities and both zeros mixed in (1 in 4).
V withSpecials(Env &env, Elem e);

} // namespace hadron::conformance

#endif // HADRON_CONFORMANCE_CASES_COMMON_H
