//===- DeviceTiming.h - Timing one kernel on a device, bf16 bits ----------===//
//
// What the matrix benchmarks (Matmul.cpp, Attention.cpp) share: bf16 <-> f32
// bits, and the median time of a kernel's launches with device events
// around each one, after a warm-up.
//
//===----------------------------------------------------------------------===//
#ifndef HADRON_BENCH_DEVICETIMING_H
#define HADRON_BENCH_DEVICETIMING_H

#include "Bench.h"

#include "hadron/runtime/Runtime.hpp"

#include <array>
#include <cstdint>
#include <cstring>
#include <vector>

namespace hadron::bench {

/// f32 to bf16, round to nearest even (inputs are finite).
inline uint16_t toBf16(float v) {
  uint32_t u;
  std::memcpy(&u, &v, 4);
  return static_cast<uint16_t>((u + 0x7fffu + ((u >> 16) & 1)) >> 16);
}
inline float fromBf16(uint16_t h) {
  uint32_t u = uint32_t(h) << 16;
  float v;
  std::memcpy(&v, &u, 4);
  return v;
}

/// The median milliseconds of `reps` launches of `kernel` on `grid`, each
/// between two events, after `warmup` untimed ones; the first failure.
inline hadron::runtime::Expected<double>
medianLaunchMs(const hadron::runtime::Device &dev, hadron::runtime::Kernel &kernel,
               const std::array<uint32_t, 3> &grid, const std::vector<hd_arg> &args,
               unsigned warmup, unsigned reps) {
  namespace rt = hadron::runtime;
  auto start = dev.createEvent(), stop = dev.createEvent();
  if (!start)
    return start.status();
  if (!stop)
    return stop.status();
  rt::Status s;
  for (unsigned i = 0; i < warmup && s; ++i)
    s = kernel.launch(grid, args);
  std::vector<double> ms;
  for (unsigned i = 0; i < reps && s; ++i) {
    s = start->record();
    if (s)
      s = kernel.launch(grid, args);
    if (s)
      s = stop->record();
    auto e = s ? start->elapsedMsUntil(*stop) : rt::Expected<float>(s);
    if (!e)
      return e.status();
    ms.push_back(*e);
  }
  if (!s)
    return s;
  return median(ms);
}

} // namespace hadron::bench

#endif // HADRON_BENCH_DEVICETIMING_H
