//===- GenerateKernels.cpp - hadron-e2e-kernels: the built-kernel table ---===//
//
//   hadron-e2e-kernels OUT.inc
//
// Writes the {key, IR} entries of every kernel KernelSources.h lists, for
// BuiltKernels.cpp. Exits with 1, naming the kernel, when one fails.
//
//===----------------------------------------------------------------------===//

#include "KernelSources.h"

#include <cstdio>
#include <fstream>

int main(int argc, char **argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: hadron-e2e-kernels OUT.inc\n");
    return 2;
  }
  hadron::e2e::BuiltKernels kernels;
  if (std::string error = hadron::e2e::addControlFlowKernels(kernels); !error.empty()) {
    std::fprintf(stderr, "hadron-e2e-kernels: %s\n", error.c_str());
    return 1;
  }
  std::ofstream out(argv[1]);
  out << "// Built by hadron-e2e-kernels from tests/e2e/kernels: {key, IR}.\n";
  for (const auto &[key, ir] : kernels)
    out << "{\"" << key << "\", R\"hdir(" << ir << ")hdir\"},\n";
  if (!out.good()) {
    std::fprintf(stderr, "hadron-e2e-kernels: cannot write %s\n", argv[1]);
    return 1;
  }
  return 0;
}
