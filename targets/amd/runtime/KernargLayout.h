//===- KernargLayout.h - How explicit kernel arguments are packed -*- C++ -*-===//
//
// The AMDGPU code object ABI places a kernel's explicit arguments in its
// kernarg segment in order, each at the next offset aligned to its own size
// (pointers 8 bytes, i1 one byte, f16/bf16 two, ...). HIP copies exactly
// these bytes from the buffer given with HIP_LAUNCH_PARAM_BUFFER_POINTER
// (and appends the hidden arguments itself), so the runtime part packs one
// buffer with this layout. Header-only and free of LLVM: the runtime part
// uses it to launch, the compiler tests check it against the .args of the
// code objects the compiler part emits.
//
//===----------------------------------------------------------------------===//
#ifndef HADRON_TARGETS_AMD_RUNTIME_KERNARGLAYOUT_H
#define HADRON_TARGETS_AMD_RUNTIME_KERNARGLAYOUT_H

#include "hadron/plugin/ScalarBits.h"
#include "hadron/plugin/plugin.h"

#include <cstdint>
#include <cstring>
#include <vector>

namespace hadron::amd {

/// Bytes (and alignment) of one argument of `kind` in the kernarg segment.
inline uint32_t kernargSize(hd_arg_kind kind) {
  switch (kind) {
  case HD_ARG_I1:
  case HD_ARG_I8:
    return 1;
  case HD_ARG_I16:
  case HD_ARG_F16:
  case HD_ARG_BF16:
    return 2;
  case HD_ARG_I32:
  case HD_ARG_F32:
    return 4;
  case HD_ARG_PTR:
  case HD_ARG_I64:
  case HD_ARG_F64:
  case HD_ARG_TENSOR_DESC: // refused at launch
    return 8;
  }
  return 8;
}

struct KernargLayout {
  std::vector<uint32_t> offsets; ///< one per argument
  uint32_t size = 0;             ///< end of the last argument
};

inline KernargLayout kernargLayout(const hd_arg_kind *kinds, uint32_t count) {
  KernargLayout layout;
  for (uint32_t i = 0; i < count; ++i) {
    uint32_t size = kernargSize(kinds[i]);
    uint32_t offset = (layout.size + size - 1) / size * size;
    layout.offsets.push_back(offset);
    layout.size = offset + size;
  }
  return layout;
}

/// Writes argument `arg` (its kind's natural C representation) at `dst`.
inline void packKernarg(const hd_arg &arg, unsigned char *dst) {
  switch (arg.kind) {
  case HD_ARG_PTR:
    std::memcpy(dst, &arg.value.ptr, 8);
    return;
  case HD_ARG_I1:
  case HD_ARG_I8: {
    int8_t v = int8_t(arg.value.i);
    std::memcpy(dst, &v, 1);
    return;
  }
  case HD_ARG_I16: {
    int16_t v = int16_t(arg.value.i);
    std::memcpy(dst, &v, 2);
    return;
  }
  case HD_ARG_I32: {
    int32_t v = int32_t(arg.value.i);
    std::memcpy(dst, &v, 4);
    return;
  }
  case HD_ARG_I64:
    std::memcpy(dst, &arg.value.i, 8);
    return;
  case HD_ARG_F16: {
    uint16_t v = plugin::doubleToHalfBits(arg.value.f);
    std::memcpy(dst, &v, 2);
    return;
  }
  case HD_ARG_BF16: {
    uint16_t v = plugin::doubleToBFloat16Bits(arg.value.f);
    std::memcpy(dst, &v, 2);
    return;
  }
  case HD_ARG_F32: {
    float v = float(arg.value.f);
    std::memcpy(dst, &v, 4);
    return;
  }
  case HD_ARG_F64:
    std::memcpy(dst, &arg.value.f, 8);
    return;
  case HD_ARG_TENSOR_DESC: // refused at launch
    return;
  }
}

/// The kernarg buffer of a launch: `args` packed per kernargLayout of their
/// kinds, padding zeroed.
inline std::vector<unsigned char> packKernargs(const hd_arg *args, uint32_t count) {
  std::vector<hd_arg_kind> kinds;
  for (uint32_t i = 0; i < count; ++i)
    kinds.push_back(args[i].kind);
  KernargLayout layout = kernargLayout(kinds.data(), count);
  std::vector<unsigned char> buffer(layout.size, 0);
  for (uint32_t i = 0; i < count; ++i)
    packKernarg(args[i], buffer.data() + layout.offsets[i]);
  return buffer;
}

} // namespace hadron::amd

#endif // HADRON_TARGETS_AMD_RUNTIME_KERNARGLAYOUT_H
