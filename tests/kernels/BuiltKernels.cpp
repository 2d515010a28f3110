//===- BuiltKernels.cpp - Kernels the C++ builder wrote at build time -----===//

#include "kernels/BuiltKernels.h"

namespace hadron::kernels {
namespace {

struct Entry {
  const char *key, *ir;
};

const Entry kBuilt[] = {
#include "TestKernels.inc"
};

} // namespace

std::string builtKernelIR(const std::string &key) {
  for (const Entry &e : kBuilt)
    if (key == e.key)
      return e.ir;
  return "";
}

} // namespace hadron::kernels
