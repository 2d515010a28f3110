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

inline builder::DType dtypeOf(Elem e) { return builder::DType::fromText(testkit::irName(e)); }

inline builder::Layout layoutOf(const Blocked &b, unsigned lanes) {
  return builder::Layout::fromText(b.str(lanes));
}

inline builder::Options optionsOf(const KernelUse &use) {
  return {.numWarps = static_cast<unsigned>(use.layout.numWarps())};
}

/// Builds each use for every lane count with `build` (once per key) and
/// appends it to `out`; returns "" or what failed to build.
inline std::string addUses(
    BuiltKernels &out, const std::vector<KernelUse> &uses,
    const std::function<Result<builder::Module>(const KernelUse &, unsigned lanes)> &build) {
  std::set<std::string> done;
  for (unsigned lanes : testkit::kLaneCounts)
    for (const KernelUse &use : uses) {
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
