//===- Examples.cpp - The list of examples --------------------------------===//

#include "Examples.h"

namespace hadron::examples {

const std::vector<Example> &examples() {
  static const std::vector<Example> all = {{"vector_add", vectorAdd},
                                           {"row_softmax", rowSoftmax},
                                           {"masked_copy", maskedCopy},
                                           {"transpose", transpose},
                                           {"matmul", matmul}};
  return all;
}

} // namespace hadron::examples
