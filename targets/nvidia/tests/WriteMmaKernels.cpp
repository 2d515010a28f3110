//===- WriteMmaKernels.cpp - The mma.sync test kernels as files -----------===//
//
//   nvidia-mma-kernels DIR
//
// writes DIR/<instruction>.mlir for every mma.sync instruction of the model
// and DIR/<case>.mlir for every wgmma test case:
// the kernels NvidiaGpu's mma tests load, so that a GPU machine without the
// compiler part finds them in a kernel cache filled ahead of time
// (scripts/stage-gpu-run.sh compiles the files it is given).
//
//===----------------------------------------------------------------------===//

#include "MmaDotKernel.h"

#include <cstdio>
#include <fstream>

int main(int argc, char **argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: nvidia-mma-kernels DIR\n");
    return 2;
  }
  for (const std::string &name : hadron::nvidia::testing::mmaSyncInstructions()) {
    hadron::Result<std::string> ir =
        hadron::nvidia::testing::mmaDotKernel(*hadron::nvidia::findMatrixInstr(name));
    std::string path = std::string(argv[1]) + "/" + name + ".mlir";
    std::ofstream out(path);
    if (!ir || !(out << *ir)) {
      std::fprintf(stderr, "nvidia-mma-kernels: %s: %s\n", path.c_str(),
                   ir ? "cannot write" : ir.error().c_str());
      return 1;
    }
  }
  for (const hadron::nvidia::testing::WgmmaCase &c : hadron::nvidia::testing::wgmmaCases()) {
    hadron::Result<std::string> ir = hadron::nvidia::testing::wgmmaDotKernel(c);
    std::string path =
        std::string(argv[1]) + "/" + hadron::nvidia::testing::wgmmaCaseName(c) + ".mlir";
    std::ofstream out(path);
    if (!ir || !(out << *ir)) {
      std::fprintf(stderr, "nvidia-mma-kernels: %s: %s\n", path.c_str(),
                   ir ? "cannot write" : ir.error().c_str());
      return 1;
    }
  }
  return 0;
}
