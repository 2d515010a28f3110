//===- TensorDesc.h - The generic encoding of tensor descriptors -*- C++ -*-===//
//
// A kernel compiled for a target without a copy engine reads an
// HD_ARG_TENSOR_DESC argument as a value of 1 + 2 * rank 64-bit words:
// {base, shape[0..rank), strides[0..rank)} (elements, innermost last), as
// core lowers it (TargetHooks::tensorDescType). Runtime parts pass it by
// value in place of the argument. Header-only, free of LLVM.
//
//===----------------------------------------------------------------------===//
#ifndef HADRON_PLUGIN_TENSORDESC_H
#define HADRON_PLUGIN_TENSORDESC_H

#include "hadron/plugin/plugin.h"

#include <cstdint>

namespace hadron::plugin {

/// Words of the generic encoding of a descriptor of `rank` dims.
constexpr uint32_t kGenericTensorDescMaxWords = 1 + 2 * HD_TENSOR_DESC_MAX_RANK;
inline uint32_t genericTensorDescWords(uint32_t rank) { return 1 + 2 * rank; }

/// Writes the generic encoding of `d` to `words` (genericTensorDescWords).
inline void packGenericTensorDesc(const hd_tensor_desc &d, uint64_t *words) {
  uint32_t rank = d.rank > HD_TENSOR_DESC_MAX_RANK ? HD_TENSOR_DESC_MAX_RANK : d.rank;
  words[0] = d.base;
  for (uint32_t r = 0; r < rank; ++r) {
    words[1 + r] = d.shape[r];
    words[1 + rank + r] = d.strides[r];
  }
}

} // namespace hadron::plugin

#endif // HADRON_PLUGIN_TENSORDESC_H
