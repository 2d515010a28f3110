//===- Blocked.h - The e2e suite's blocked layouts, for any warp size -----===//
//
// Plain C++ (no runtime, no MLIR): hadron-e2e and hadron-e2e-kernels, which
// builds some of its kernels with the C++ builder at build time, share it.
//
//===----------------------------------------------------------------------===//
#ifndef HADRON_TESTS_E2E_BLOCKED_H
#define HADRON_TESTS_E2E_BLOCKED_H

#include <string>
#include <vector>

namespace hadron::e2e {

/// A blocked layout written for 32 threads per warp; `str` adapts it to the
/// session's lane count by scaling threadsPerWarp along the fastest
/// dimensions, so one list of layouts serves warp sizes 16, 32 and 64.
struct Blocked {
  std::vector<int> spt, tpw, wpc, order;

  int rank() const { return static_cast<int>(spt.size()); }
  int numWarps() const;
  /// threadsPerWarp for `lanes` threads.
  std::vector<int> lanesFor(unsigned lanes) const;
  /// The CTA tile along dimension d for `lanes` threads.
  int tile(int d, unsigned lanes) const;
  std::string str(unsigned lanes) const;
  /// For test names: "s4_t32_w4_o0".
  std::string name() const;
};

/// "4, 32" and "[4, 32]".
std::string joinInts(const std::vector<int> &v, const char *sep);
std::string listInts(const std::vector<int> &v);

} // namespace hadron::e2e

#endif // HADRON_TESTS_E2E_BLOCKED_H
