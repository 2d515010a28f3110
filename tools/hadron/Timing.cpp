//===- Timing.cpp - Timing launches with device events --------------------===//

#include "Timing.h"

#include <algorithm>
#include <cstdio>

namespace hadron::cli {

Expected<double> medianLaunchMs(const runtime::Device &device, const runtime::Kernel &kernel,
                                std::array<uint32_t, 3> grid, const std::vector<hd_arg> &args,
                                unsigned repeat) {
  auto start = device.createEvent();
  if (!start)
    return start.status();
  auto end = device.createEvent();
  if (!end)
    return end.status();
  std::vector<double> times;
  for (unsigned i = 0; i < std::max(repeat, 1u); ++i) {
    if (Status s = start->record(); !s)
      return s;
    if (Status s = kernel.launch(grid, args); !s)
      return s;
    if (Status s = end->record(); !s)
      return s;
    auto ms = start->elapsedMsUntil(*end);
    if (!ms)
      return ms.status();
    times.push_back(*ms);
  }
  std::sort(times.begin(), times.end());
  size_t n = times.size();
  return n % 2 ? times[n / 2] : (times[n / 2 - 1] + times[n / 2]) / 2;
}

std::string rateText(double amount, double ms, const char *unit) {
  char buf[64];
  if (ms <= 0)
    std::snprintf(buf, sizeof(buf), "- G%s/s", unit);
  else
    std::snprintf(buf, sizeof(buf), "%.2f G%s/s", amount / (ms * 1e-3) / 1e9, unit);
  return buf;
}

} // namespace hadron::cli
