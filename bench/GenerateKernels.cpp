//===- GenerateKernels.cpp - hadron-bench-kernels: the kernels' IR table --===//
//
//   hadron-bench-kernels OUT.inc
//
// Builds every benchmark kernel for every config the bench accepts
// (allConfigs()) with the C++ builder and writes their IR as the entries of
// KernelIR.cpp's table. hadron-bench links no MLIR, so the builder runs
// here, at build time. Exits with 1, naming the kernel, when one fails.
//
//===----------------------------------------------------------------------===//

#include "KernelSources.h"

#include <cstdio>
#include <fstream>

using namespace hadron::bench;

int main(int argc, char **argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: hadron-bench-kernels OUT.inc\n");
    return 2;
  }
  std::ofstream out(argv[1]);
  out << "// Built by hadron-bench-kernels from bench/KernelSources.cpp: {op, block, spt, "
         "warps, IR}.\n";
  for (Op op : {Op::Copy, Op::Add, Op::Softmax})
    for (const Config &c : allConfigs()) {
      auto module = buildKernel(op, c);
      if (!module) {
        std::fprintf(stderr, "hadron-bench-kernels: %s %s: %s\n", opName(op),
                     c.describe().c_str(), module.error().c_str());
        return 1;
      }
      out << "{Op::" << (op == Op::Copy ? "Copy" : op == Op::Add ? "Add" : "Softmax") << ", "
          << c.block << ", " << c.spt << ", " << c.warps << ", R\"hdir(" << module->str()
          << ")hdir\"},\n";
    }
  if (!out.good()) {
    std::fprintf(stderr, "hadron-bench-kernels: cannot write %s\n", argv[1]);
    return 1;
  }
  return 0;
}
