//===- NaturalArgs.h - hd_arg scalars in their natural C types -*- C++ -*-===//
//
// A kernel compiled for the CPU (the host target, the template) takes its
// arguments as `void **args`, each pointing at the value in its natural C
// type: a pointer, int8_t for i1 and i8, ..., the IEEE binary16 or bfloat16
// bits for f16 and bf16. A runtime part fills one NaturalArg per argument
// with naturalArg and passes their addresses. f16 and bf16 go through
// ScalarBits.h, so one hd_arg arrives as the same bits on every target; an
// i1 is 0 or 1 whatever nonzero value the caller gave.
//
// Header-only and free of LLVM, for runtime parts in and out of Hadron's tree.
//
//===----------------------------------------------------------------------===//
#ifndef HADRON_PLUGIN_NATURALARGS_H
#define HADRON_PLUGIN_NATURALARGS_H

#include "hadron/plugin/ScalarBits.h"
#include "hadron/plugin/plugin.h"

#include <cstdint>
#include <cstring>

namespace hadron::plugin {

/// One argument's storage; the kernel reads the member of its type.
union NaturalArg {
  void *ptr;
  int8_t i8;
  int16_t i16;
  int32_t i32;
  int64_t i64;
  uint16_t bits16;
  float f32;
  double f64;
};

/// The value of `a` in its natural C type, the rest of the storage zero. A
/// tensor descriptor is no scalar: its slot stays zero, and the runtime part
/// passes the descriptor its own way (or refuses it).
inline NaturalArg naturalArg(const hd_arg &a) {
  NaturalArg s;
  std::memset(&s, 0, sizeof(s));
  switch (a.kind) {
  case HD_ARG_PTR: s.ptr = reinterpret_cast<void *>(a.value.ptr); break;
  case HD_ARG_I1: s.i8 = a.value.i ? 1 : 0; break;
  case HD_ARG_I8: s.i8 = static_cast<int8_t>(a.value.i); break;
  case HD_ARG_I16: s.i16 = static_cast<int16_t>(a.value.i); break;
  case HD_ARG_I32: s.i32 = static_cast<int32_t>(a.value.i); break;
  case HD_ARG_I64: s.i64 = a.value.i; break;
  case HD_ARG_F16: s.bits16 = doubleToHalfBits(a.value.f); break;
  case HD_ARG_BF16: s.bits16 = doubleToBFloat16Bits(a.value.f); break;
  case HD_ARG_F32: s.f32 = static_cast<float>(a.value.f); break;
  case HD_ARG_F64: s.f64 = a.value.f; break;
  case HD_ARG_TENSOR_DESC: break;
  }
  return s;
}

} // namespace hadron::plugin

#endif // HADRON_PLUGIN_NATURALARGS_H
