//===- BuiltKernels.cpp - Kernels the C++ builder wrote at build time -----===//

#include "E2E.h"

namespace hadron::e2e {
namespace {

struct Entry {
  const char *key, *ir;
};

const Entry kBuilt[] = {
#include "E2EKernels.inc"
};

} // namespace

std::string builtKernelIR(const std::string &key) {
  for (const Entry &e : kBuilt)
    if (key == e.key)
      return e.ir;
  return "";
}

} // namespace hadron::e2e
