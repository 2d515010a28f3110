//===- Build.h - What the generator's families share ------------*- C++ -*-===//
//
// The builder side of KernelUse: the builder's type and layout of a use, and
// the loop that builds a family's uses for every lane count.
//
//===----------------------------------------------------------------------===//
#ifndef HADRON_TESTS_KERNELS_BUILD_H
#define HADRON_TESTS_KERNELS_BUILD_H

#include "KernelUse.h"
#include "Sources.h"

#include "hadron/Builder/Builder.h"

#include <functional>
#include <set>

namespace hadron::kernels {

namespace hb = hadron::builder;
using hb::Constexpr;
using hb::Tensor;

inline builder::DType dtypeOf(Elem e) { return builder::DType::fromText(testkit::irName(e)); }

inline builder::Layout layoutOf(const Blocked &b, unsigned lanes) {
  return builder::Layout::fromText(b.str(lanes));
}

inline builder::Options optionsOf(const KernelUse &use) {
  return {.numWarps = static_cast<unsigned>(use.layout.numWarps())};
}

/// The row-major offsets (row * ld + column) of an m x n tile of `layout`
/// whose first element is at (row0, col0), and its mask (row < rows and
/// column < cols) when `rows` and `cols` are given.
struct Tile2d {
  builder::Tensor offsets, mask;
};
inline Tile2d tile2d(int m, int n, const builder::Layout &layout, const builder::Operand &ld,
                     const builder::Operand &row0 = 0, const builder::Operand &col0 = 0,
                     const builder::Tensor &rows = {}, const builder::Tensor &cols = {}) {
  namespace hb = hadron::builder;
  hb::Tensor r = row0 + hb::arange(0, m, hb::Slice{1, layout});
  hb::Tensor c = col0 + hb::arange(0, n, hb::Slice{0, layout});
  Tile2d t;
  t.offsets = hb::expand_dims(r * ld, 1) + hb::expand_dims(c, 0);
  if (rows.valid())
    t.mask = hb::expand_dims(r < rows, 1) & hb::expand_dims(c < cols, 0);
  return t;
}

/// Builds each use (a KernelUse, or any type with key(lanes)) for every
/// lane count with `build` (once per key) and appends it to `out`; returns
/// "" or what failed to build.
template <typename Use>
std::string addUses(BuiltKernels &out, const std::vector<Use> &uses,
                    const std::function<Result<builder::Module>(const Use &, unsigned lanes)> &build) {
  std::set<std::string> done;
  for (unsigned lanes : testkit::kLaneCounts)
    for (const Use &use : uses) {
      std::string key = use.key(lanes);
      if (!done.insert(key).second)
        continue;
      auto m = build(use, lanes);
      if (!m)
        return key + ": " + m.error();
      out.push_back({key, m->str()});
    }
  return "";
}

} // namespace hadron::kernels

#endif // HADRON_TESTS_KERNELS_BUILD_H
