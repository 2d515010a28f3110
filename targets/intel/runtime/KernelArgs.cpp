//===- KernelArgs.cpp - Scalar kernel arguments as the kernel takes them --===//

#include "IntelRuntime.h"

#include <cmath>
#include <cstring>

namespace hadron::intel {
namespace {

uint16_t toHalf(double value) {
  float f = static_cast<float>(value);
  uint32_t x;
  std::memcpy(&x, &f, 4);
  uint32_t sign = (x >> 16) & 0x8000;
  int32_t exp = static_cast<int32_t>((x >> 23) & 0xff) - 127 + 15;
  uint32_t mant = x & 0x7fffff;
  if (((x >> 23) & 0xff) == 0xff) // inf, nan
    return static_cast<uint16_t>(sign | 0x7c00 | (mant ? 0x200 : 0));
  if (exp >= 31)
    return static_cast<uint16_t>(sign | 0x7c00);
  if (exp <= 0) {
    if (exp < -10)
      return static_cast<uint16_t>(sign);
    mant |= 0x800000;
    uint32_t shift = static_cast<uint32_t>(14 - exp);
    uint32_t half = mant >> shift;
    uint32_t rest = mant & ((1u << shift) - 1);
    uint32_t mid = 1u << (shift - 1);
    if (rest > mid || (rest == mid && (half & 1)))
      ++half;
    return static_cast<uint16_t>(sign | half);
  }
  uint32_t half = (static_cast<uint32_t>(exp) << 10) | (mant >> 13);
  uint32_t rest = mant & 0x1fff;
  if (rest > 0x1000 || (rest == 0x1000 && (half & 1)))
    ++half; // may carry into the exponent, up to inf: correct
  return static_cast<uint16_t>(sign | half);
}

uint16_t toBFloat16(double value) {
  float f = static_cast<float>(value);
  uint32_t x;
  std::memcpy(&x, &f, 4);
  if (std::isnan(f))
    return static_cast<uint16_t>((x >> 16) | 0x40);
  x += 0x7fff + ((x >> 16) & 1);
  return static_cast<uint16_t>(x >> 16);
}

} // namespace

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
  case HD_ARG_F16: put(toHalf(arg.value.f)); break;
  case HD_ARG_BF16: put(toBFloat16(arg.value.f)); break;
  case HD_ARG_F32: put(static_cast<float>(arg.value.f)); break;
  case HD_ARG_F64: put(arg.value.f); break;
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
