//===- Kernels.cpp - The benchmarks' hd kernels ---------------------------===//

#include "Kernels.h"

namespace hadron::bench {

std::string Config::describe() const {
  return "block=" + std::to_string(block) + " spt=" + std::to_string(spt) +
         " warps=" + std::to_string(warps);
}

std::string Config::tag() const {
  return "b" + std::to_string(block) + "_s" + std::to_string(spt) + "_w" + std::to_string(warps);
}

const char *opName(Op op) {
  switch (op) {
  case Op::Copy:
    return "copy";
  case Op::Add:
    return "add";
  case Op::Softmax:
    return "softmax";
  }
  return "?";
}

std::string kernelName(Op op) { return std::string("bench_") + opName(op); }

std::vector<Config> sweep(const std::vector<uint32_t> &blocks, const std::vector<uint32_t> &spts,
                          const std::vector<uint32_t> &warps) {
  std::vector<Config> out;
  for (uint32_t b : blocks)
    for (uint32_t w : warps)
      for (uint32_t s : spts)
        if (static_cast<uint64_t>(s) * 32 * w <= b)
          out.push_back({b, s, w});
  return out;
}

std::vector<Config> allConfigs() {
  std::vector<uint32_t> powers;
  for (uint32_t p = 1; p <= 65536; p *= 2)
    powers.push_back(p);
  return sweep(powers, powers, powers);
}

uint32_t nextPowerOfTwo(uint32_t v) {
  uint32_t p = 1;
  while (p < v)
    p <<= 1;
  return p;
}

} // namespace hadron::bench
