//===- Random.cpp - Seeds and random sizes for the suites -----------------===//

#include "testkit/Random.h"

#include <chrono>
#include <cstdlib>

namespace hadron::testkit {

std::optional<uint64_t> seedFromEnv(const char *var) {
  const char *v = std::getenv(var);
  if (!v || !*v)
    return std::nullopt;
  return std::strtoull(v, nullptr, 0);
}

uint64_t clockSeed() {
  return static_cast<uint64_t>(std::chrono::system_clock::now().time_since_epoch().count()) %
         1000000000000ull;
}

uint64_t deriveSeed(uint64_t runSeed, const std::string &name) {
  uint64_t h = 0xcbf29ce484222325ull; // FNV-1a: the same on every platform
  for (unsigned char c : name)
    h = (h ^ c) * 0x100000001b3ull;
  return (h ^ (runSeed * 0x9e3779b97f4a7c15ull)) % 1000000000000ull;
}

int tailSize(std::mt19937_64 &rng, int tile, int max) {
  std::uniform_int_distribution<int> d(1, max);
  if (max < tile)
    return d(rng);
  for (;;) {
    int n = d(rng);
    if (n % tile != 0)
      return n;
  }
}

} // namespace hadron::testkit
