//===- Layouts.h - Test layouts for any warp size ---------------*- C++ -*-===//
//
// The suites write their layouts once, for 32 threads per warp; Blocked::str
// adapts one to the target's lane count (8 to 64) by scaling threadsPerWarp
// along the fastest dimensions, so one list of layouts serves every warp
// size. The text is what the hd dialect parses and what the C++ builder's
// Layout::fromText takes. Plain C++: the runtime-only suites and the
// generator that builds their kernels with the builder share it.
//
//===----------------------------------------------------------------------===//
#ifndef HADRON_TESTKIT_LAYOUTS_H
#define HADRON_TESTKIT_LAYOUTS_H

#include <string>
#include <vector>

namespace hadron::testkit {

/// #hd.blocked written for 32 lanes.
struct Blocked {
  std::vector<int> spt, tpw, wpc, order;

  int rank() const { return static_cast<int>(spt.size()); }
  int numWarps() const;
  /// threadsPerWarp for `lanes` threads.
  std::vector<int> lanesFor(unsigned lanes) const;
  /// The CTA tile along dimension d for `lanes` threads.
  int tile(int d, unsigned lanes) const;
  std::string str(unsigned lanes) const;
  /// "s4_t32_w4_o0", for test and case names.
  std::string name() const;
};

/// #hd.slice of `parent` (a layout's text or alias) along `dim`.
std::string slice(int dim, const std::string &parent);

/// A linear layout over a power-of-two `shape` whose row-major index bits,
/// taken in the order `perm`, go to registers, then lanes, then warps: any
/// of them is a valid distributed layout, and a permuted one scatters
/// neighbours across lanes and warps.
std::string linearLayout(const std::vector<int> &shape, unsigned lanes, int numWarps,
                         const std::vector<int> &perm);

/// "4, 32" with `sep` ", ", and "[4, 32]".
std::string join(const std::vector<int> &v, const char *sep);
std::string list(const std::vector<int> &v);
/// "64x32".
std::string shapeStr(const std::vector<int> &shape);

/// The lane counts the suites build kernels for (threads per warp of a
/// device, or a compile-only target's).
inline const unsigned kLaneCounts[] = {8, 16, 32, 64};

} // namespace hadron::testkit

#endif // HADRON_TESTKIT_LAYOUTS_H
