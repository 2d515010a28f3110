//===- KernelParams.h - hd_arg values as the kernel's .param values -*- C++ -*-===//
//
// cuLaunchKernel takes one pointer per kernel parameter, to a value of the
// width NvidiaKernelABI.h gives the argument's kind. Header-only and free of
// LLVM and the driver, so that the tests check these bytes without a GPU.
//
//===----------------------------------------------------------------------===//
#ifndef HADRON_TARGETS_NVIDIA_RUNTIME_KERNELPARAMS_H
#define HADRON_TARGETS_NVIDIA_RUNTIME_KERNELPARAMS_H

#include "hadron/plugin/ScalarBits.h"
#include "hadron/plugin/plugin.h"

#include <cstdint>

namespace hadron::nvidia {

union ParamSlot {
  uint64_t u64;
  uint32_t u32;
  uint16_t u16;
  uint8_t u8;
  float f32;
  double f64;
};

/// The value of `a` in the width its .param has, the unused bytes zero.
inline ParamSlot paramSlot(const hd_arg &a) {
  ParamSlot s;
  s.u64 = 0;
  switch (a.kind) {
  case HD_ARG_PTR: s.u64 = a.value.ptr; break;
  case HD_ARG_I1: s.u8 = a.value.i ? 1 : 0; break;
  case HD_ARG_I8: s.u8 = static_cast<uint8_t>(a.value.i); break;
  case HD_ARG_I16: s.u16 = static_cast<uint16_t>(a.value.i); break;
  case HD_ARG_I32: s.u32 = static_cast<uint32_t>(a.value.i); break;
  case HD_ARG_I64: s.u64 = static_cast<uint64_t>(a.value.i); break;
  case HD_ARG_F16: s.u16 = plugin::doubleToHalfBits(a.value.f); break;
  case HD_ARG_BF16: s.u16 = plugin::doubleToBFloat16Bits(a.value.f); break;
  case HD_ARG_F32: s.f32 = static_cast<float>(a.value.f); break;
  case HD_ARG_F64: s.f64 = a.value.f; break;
  case HD_ARG_TENSOR_DESC: break; // passed as a tensor map or generic words
  }
  return s;
}

} // namespace hadron::nvidia

#endif // HADRON_TARGETS_NVIDIA_RUNTIME_KERNELPARAMS_H
