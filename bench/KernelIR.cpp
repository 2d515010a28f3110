//===- KernelIR.cpp - kernelIR(): the builder's IR, looked up -------------===//
//
// The table holds the IR hadron-bench-kernels built from KernelSources.cpp
// for every config of allConfigs(), in that order per op.
//
//===----------------------------------------------------------------------===//

#include "Kernels.h"

#include <iterator>

namespace hadron::bench {
namespace {

struct Entry {
  Op op;
  uint32_t block, spt, warps;
  const char *ir;
};

const Entry kTable[] = {
#include "KernelTable.inc"
};

} // namespace

std::string kernelIR(Op op, const Config &c) {
  for (const Entry &e : kTable)
    if (e.op == op && e.block == c.block && e.spt == c.spt && e.warps == c.warps)
      return e.ir;
  return "";
}

} // namespace hadron::bench
