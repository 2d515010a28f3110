//===- Random.h - Seeds and random sizes for the suites ---------*- C++ -*-===//
//
// Every run draws fresh inputs: its seed comes from the clock unless an
// environment variable fixes it, and is printed with every failure so that
// the failing run can be replayed. Each test or case draws from a seed of its
// own, derived from the run's and its name, so one of them replays alone.
//
//===----------------------------------------------------------------------===//
#ifndef HADRON_TESTKIT_RANDOM_H
#define HADRON_TESTKIT_RANDOM_H

#include <cstdint>
#include <optional>
#include <random>
#include <string>

namespace hadron::testkit {

/// The seed the environment variable `var` fixes (decimal or 0x hex), if set.
std::optional<uint64_t> seedFromEnv(const char *var);
/// A fresh seed from the clock, below 10^12 so that it is easy to copy.
uint64_t clockSeed();
/// The seed of one test or case (`name`) in a run with seed `runSeed`.
uint64_t deriveSeed(uint64_t runSeed, const std::string &name);

/// A size in [1, max] that is not a multiple of `tile` (any size in [1,
/// max] when max < tile): the last tile of a launch is partial.
int tailSize(std::mt19937_64 &rng, int tile, int max);

} // namespace hadron::testkit

#endif // HADRON_TESTKIT_RANDOM_H
