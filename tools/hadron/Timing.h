//===- Timing.h - Timing launches with device events ------------*- C++ -*-===//
#ifndef HADRON_TOOLS_HADRON_TIMING_H
#define HADRON_TOOLS_HADRON_TIMING_H

#include "Cli.h"

#include <array>

namespace hadron::cli {

/// Launches `kernel` `repeat` times (at least once), each between two events
/// on `device`, and returns the median of the elapsed times in milliseconds.
Expected<double> medianLaunchMs(const runtime::Device &device, const runtime::Kernel &kernel,
                                std::array<uint32_t, 3> grid, const std::vector<hd_arg> &args,
                                unsigned repeat);

/// "12.3 GB/s" for `amount` bytes (or "4.5 GFLOP/s" for flops) in `ms`.
std::string rateText(double amount, double ms, const char *unit);

} // namespace hadron::cli

#endif // HADRON_TOOLS_HADRON_TIMING_H
