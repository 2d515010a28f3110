//===- KernelArgs.cpp - Scalar kernel arguments as the kernel takes them --===//

#include "IntelRuntime.h"

#include "hadron/plugin/ScalarBits.h"

#include <cstring>

namespace hadron::intel {
size_t scalarArgBytes(hd_arg_kind kind) {
  switch (kind) {
  case HD_ARG_PTR: return 0;
  case HD_ARG_I1:
  case HD_ARG_I8: return 1;
  case HD_ARG_I16:
  case HD_ARG_F16:
  case HD_ARG_BF16: return 2;
  case HD_ARG_I32:
  case HD_ARG_F32: return 4;
  case HD_ARG_I64:
  case HD_ARG_F64: return 8;
  case HD_ARG_TENSOR_DESC: return 0; // refused at launch
  }
  return 0;
}

void packScalarArg(const hd_arg &arg, unsigned char *out) {
  auto put = [&](auto v) { std::memcpy(out, &v, sizeof(v)); };
  switch (arg.kind) {
  case HD_ARG_PTR: break;
  case HD_ARG_I1: put(static_cast<uint8_t>(arg.value.i != 0)); break;
  case HD_ARG_I8: put(static_cast<int8_t>(arg.value.i)); break;
  case HD_ARG_I16: put(static_cast<int16_t>(arg.value.i)); break;
  case HD_ARG_I32: put(static_cast<int32_t>(arg.value.i)); break;
  case HD_ARG_I64: put(static_cast<int64_t>(arg.value.i)); break;
  case HD_ARG_F16: put(plugin::doubleToHalfBits(arg.value.f)); break;
  case HD_ARG_BF16: put(plugin::doubleToBFloat16Bits(arg.value.f)); break;
  case HD_ARG_F32: put(static_cast<float>(arg.value.f)); break;
  case HD_ARG_F64: put(arg.value.f); break;
  case HD_ARG_TENSOR_DESC: break; // refused at launch
  }
}

const char *archOfDeviceId(uint32_t id) {
  uint32_t family = id & 0xff00;
  if (family == 0x0b00 && (id & 0xfff0) == 0x0bd0)
    return "pvc";
  if (family == 0xe200)
    return "bmg";
  if (id == 0x64a0 || id == 0x6420 || id == 0x64b0)
    return "lnl";
  if (family == 0x5600)
    return "acm";
  return "";
}

} // namespace hadron::intel
