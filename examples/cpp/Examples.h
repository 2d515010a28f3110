//===- Examples.h - The example kernels, written with the C++ builder -----===//
//
// The kernels of examples/*.mlir (what `hadron demo` runs), each written
// with hadron/Builder/Builder.h in the file of its name. hadron-examples
// writes their IR next to each other for `hadron demo --examples DIR`.
//
//===----------------------------------------------------------------------===//
#ifndef HADRON_EXAMPLES_CPP_EXAMPLES_H
#define HADRON_EXAMPLES_CPP_EXAMPLES_H

#include "hadron/Builder/Builder.h"

#include <vector>

namespace hadron::examples {

/// The demo's specialisation of each example; the kernel is named `name`.
struct Example {
  const char *name;
  Result<builder::Module> (*build)();
};

Result<builder::Module> vectorAdd();
Result<builder::Module> rowSoftmax();
Result<builder::Module> maskedCopy();
Result<builder::Module> transpose();
Result<builder::Module> matmul();

const std::vector<Example> &examples();

} // namespace hadron::examples

#endif // HADRON_EXAMPLES_CPP_EXAMPLES_H
