//===- Bench.h - What hadron-bench measures, and how it reports it --------===//
//
// A run is a list of workloads (copy or add over n floats, row softmax over
// rows x cols), each tried with several kernel configs. Every config's
// result is first checked against a host reference on fresh random inputs
// with the output poisoned (NaN), then timed: runtime events around each
// launch, the median of many launches after a warm-up. Bandwidth counts the
// bytes read plus the bytes written, as /work/shared/bench's Triton/Gluon
// reference script does (copy 2*4*n, add 3*4*n, softmax 2*4*rows*cols),
// in 1e9 bytes per second.
//
//===----------------------------------------------------------------------===//
#ifndef HADRON_BENCH_BENCH_H
#define HADRON_BENCH_BENCH_H

#include "Kernels.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace hadron::bench {

struct Workload {
  Op op = Op::Copy;
  uint64_t n = 0;              ///< copy/add: elements
  uint32_t rows = 0, cols = 0; ///< softmax
  std::vector<Config> configs;

  /// The JSON prefix, as the reference script spells it: "copy", "add",
  /// "softmax8192x1024".
  std::string key() const;
  /// "copy n=268435456", "softmax 8192x1024"
  std::string describe() const;
  uint64_t elements() const { return op == Op::Softmax ? uint64_t(rows) * cols : n; }
  /// Bytes read plus bytes written by one launch.
  uint64_t bytes() const;
  /// CTAs of one launch of `c`.
  uint32_t grid(const Config &c) const;
};

/// The median of `v` (the mean of the two middle values for an even count).
double median(std::vector<double> v);

/// 1e9 bytes per second.
inline double gbps(uint64_t bytes, double ms) { return ms > 0 ? bytes / (ms * 1e-3) / 1e9 : 0; }

/// A flat JSON object in insertion order, the reference script's style
/// ("copy.hadron_best_GBps": 4012.5).
class JsonReport {
public:
  void number(const std::string &key, double value);
  void string(const std::string &key, const std::string &value);
  std::string text() const;
  bool write(const std::string &path, std::string &why) const;

private:
  std::vector<std::pair<std::string, std::string>> entries_;
};

} // namespace hadron::bench

#endif // HADRON_BENCH_BENCH_H
