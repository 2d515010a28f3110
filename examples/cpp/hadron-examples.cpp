//===- hadron-examples.cpp - Write the C++ examples' IR -------------------===//
//
//   hadron-examples OUT_DIR
//
// Builds every example of Examples.h with the C++ builder and writes its IR
// to OUT_DIR/<name>.mlir, where `hadron demo --examples OUT_DIR` (which links
// no MLIR) finds it. Exits with 1, naming the example, when one fails to
// build.
//
//===----------------------------------------------------------------------===//

#include "Examples.h"

#include <cstdio>
#include <fstream>

int main(int argc, char **argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: hadron-examples OUT_DIR\n");
    return 2;
  }
  for (const hadron::examples::Example &e : hadron::examples::examples()) {
    auto module = e.build();
    if (!module) {
      std::fprintf(stderr, "hadron-examples: %s: %s\n", e.name, module.error().c_str());
      return 1;
    }
    std::string path = std::string(argv[1]) + "/" + e.name + ".mlir";
    std::ofstream out(path);
    out << "// Built by hadron-examples from examples/cpp/" << e.name << ".cpp\n"
        << module->str();
    if (!out.good()) {
      std::fprintf(stderr, "hadron-examples: cannot write %s\n", path.c_str());
      return 1;
    }
  }
  return 0;
}
