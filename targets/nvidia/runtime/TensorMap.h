//===- TensorMap.h - hd_tensor_desc as a CUtensorMap's encode arguments -*- C++ -*-===//
//
// The arguments cuTensorMapEncodeTiled takes for a descriptor that a kernel
// reads in blocks of its hd_tensor_desc_spec, checked against the copy
// engine's limits first (CUDA driver API, "Tensor Map Object Management").
// The box is the block, except that a swizzled layout's innermost box is its
// swizzle span: the compiler issues one copy per span (NvidiaTensorCopy.cpp).
// Header-only and free of the driver, so tests check it without a GPU.
//
//===----------------------------------------------------------------------===//
#ifndef HADRON_TARGETS_NVIDIA_RUNTIME_TENSORMAP_H
#define HADRON_TARGETS_NVIDIA_RUNTIME_TENSORMAP_H

#include "hadron/plugin/plugin.h"

#include <cstdint>
#include <string>

namespace hadron::nvidia {

struct TensorMapArgs {
  int dataType = 0; ///< CU_TENSOR_MAP_DATA_TYPE_UINT8/16/32/64: bits are copied as they are
  unsigned rank = 0;
  uint64_t globalAddress = 0;
  unsigned long long globalDim[HD_TENSOR_DESC_MAX_RANK] = {};     ///< innermost first
  unsigned long long globalStrides[HD_TENSOR_DESC_MAX_RANK] = {}; ///< bytes, dims 1..rank-1
  unsigned boxDim[HD_TENSOR_DESC_MAX_RANK] = {};                  ///< innermost first
  unsigned elementStrides[HD_TENSOR_DESC_MAX_RANK] = {};
  int swizzle = 0; ///< CU_TENSOR_MAP_SWIZZLE_NONE/32B/64B/128B = 0..3
  int l2Promotion = 2; ///< CU_TENSOR_MAP_L2_PROMOTION_L2_128B
  int oobFill = 0;     ///< CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE: zeros
};

/// The encode arguments of `d` for a kernel that reads it as `spec`; false,
/// with a message naming the value and the limit in `why`, where the copy
/// engine cannot read it.
inline bool tensorMapArgs(const hd_tensor_desc &d, const hd_tensor_desc_spec &spec,
                          TensorMapArgs &out, std::string &why) {
  const unsigned rank = spec.rank;
  const uint64_t elem = spec.elem_bytes;
  switch (elem) {
  case 1: out.dataType = 0; break;
  case 2: out.dataType = 1; break;
  case 4: out.dataType = 2; break;
  case 8: out.dataType = 4; break;
  default:
    why = "elements of " + std::to_string(elem) + " bytes; the copy engine moves 1, 2, 4 or 8";
    return false;
  }
  switch (spec.swizzle_bytes) {
  case 0: out.swizzle = 0; break;
  case 32: out.swizzle = 1; break;
  case 64: out.swizzle = 2; break;
  case 128: out.swizzle = 3; break;
  default:
    why = "a " + std::to_string(spec.swizzle_bytes) + "-byte swizzle; the copy engine has 32, 64 "
          "and 128";
    return false;
  }
  if (rank == 0 || rank > HD_TENSOR_DESC_MAX_RANK || d.rank != rank) {
    why = "rank " + std::to_string(d.rank) + " for blocks of rank " + std::to_string(rank);
    return false;
  }
  if (d.base % 16 != 0) {
    why = "base address " + std::to_string(d.base) + " is not 16-byte aligned";
    return false;
  }
  out.rank = rank;
  out.globalAddress = d.base;
  for (unsigned i = 0; i < rank; ++i) {
    unsigned dim = rank - 1 - i; // hd order is outermost first
    if (d.shape[dim] == 0 || d.shape[dim] > (uint64_t(1) << 32)) {
      why = "dim " + std::to_string(dim) + " has " + std::to_string(d.shape[dim]) +
            " elements; the copy engine takes 1 to 2^32";
      return false;
    }
    out.globalDim[i] = d.shape[dim];
    out.elementStrides[i] = 1;
    if (i > 0) {
      uint64_t bytes = d.strides[dim] * elem;
      if (bytes % 16 != 0 || bytes >= (uint64_t(1) << 40)) {
        why = "dim " + std::to_string(dim) + " has a stride of " + std::to_string(bytes) +
              " bytes; the copy engine needs a multiple of 16 below 2^40";
        return false;
      }
      out.globalStrides[i - 1] = bytes;
    }
    uint64_t box = spec.block[dim];
    if (i == 0 && spec.swizzle_bytes && box * elem > spec.swizzle_bytes)
      box = spec.swizzle_bytes / elem;
    if (box == 0 || box > 256) {
      why = "a box of " + std::to_string(box) + " elements along dim " + std::to_string(dim) +
            "; the copy engine takes 1 to 256";
      return false;
    }
    if (i == 0 && (box * elem) % 16 != 0) {
      why = "an innermost box of " + std::to_string(box * elem) +
            " bytes; the copy engine moves multiples of 16";
      return false;
    }
    out.boxDim[i] = unsigned(box);
  }
  return true;
}

} // namespace hadron::nvidia

#endif // HADRON_TARGETS_NVIDIA_RUNTIME_TENSORMAP_H
