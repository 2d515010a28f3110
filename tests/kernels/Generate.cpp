//===- Generate.cpp - hadron-test-kernels: the kernel library's table -----===//
//
//   hadron-test-kernels OUT.inc
//
// Writes the {key, IR} entries of every kernel Sources.h lists, for
// BuiltKernels.cpp. Exits with 1, naming the kernel, when one fails.
//
//===----------------------------------------------------------------------===//

#include "Sources.h"

#include <cstdio>
#include <fstream>

int main(int argc, char **argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: hadron-test-kernels OUT.inc\n");
    return 2;
  }
  hadron::kernels::BuiltKernels kernels;
  for (auto add : {hadron::kernels::addFrameKernels, hadron::kernels::addElementwiseKernels,
                   hadron::kernels::addMemoryKernels, hadron::kernels::addShapeKernels,
                   hadron::kernels::addReduceScanKernels, hadron::kernels::addAtomicKernels,
                   hadron::kernels::addLayoutKernels, hadron::kernels::addDotKernels,
                   hadron::kernels::addSharedMemoryKernels, hadron::kernels::addDebugKernels,
                   hadron::kernels::addWarpSpecializeKernels})
    if (std::string error = add(kernels); !error.empty()) {
      std::fprintf(stderr, "hadron-test-kernels: %s\n", error.c_str());
      return 1;
    }
  std::ofstream out(argv[1]);
  out << "// Built by hadron-test-kernels from tests/kernels: {key, IR}.\n";
  for (const auto &[key, ir] : kernels)
    out << "{\"" << key << "\", R\"hdir(" << ir << ")hdir\"},\n";
  if (!out.good()) {
    std::fprintf(stderr, "hadron-test-kernels: cannot write %s\n", argv[1]);
    return 1;
  }
  return 0;
}
