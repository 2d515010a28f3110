//===- ScalarBits.h - hd_arg floats as the bits a kernel parameter holds -*- C++ -*-===//
//
// An hd_arg carries F16 and BF16 values as a double; the kernel's .b16
// parameter wants the IEEE binary16 / bfloat16 bits. The conversion goes
// straight from the double (rounding to nearest even once: through float
// first would round twice), overflows to infinity and keeps NaN a quiet NaN.
//
//===----------------------------------------------------------------------===//
#ifndef HADRON_TARGETS_NVIDIA_RUNTIME_SCALARBITS_H
#define HADRON_TARGETS_NVIDIA_RUNTIME_SCALARBITS_H

#include <cstdint>
#include <cstring>

namespace hadron::nvidia {

/// `value` rounded to a binary format of 1 sign, `expBits` exponent and
/// `manBits` mantissa bits (manBits < 52), returned right-aligned.
inline uint32_t roundDoubleToFormat(double value, int expBits, int manBits) {
  uint64_t u;
  std::memcpy(&u, &value, sizeof(u));
  const uint32_t sign = static_cast<uint32_t>(u >> 63) << (expBits + manBits);
  const uint32_t expMask = ((1u << expBits) - 1) << manBits;
  const uint64_t a = u & 0x7fffffffffffffffull;
  const int doubleExp = static_cast<int>(a >> 52);
  if (doubleExp == 0x7ff) // infinity, or NaN (made quiet)
    return sign | expMask | ((a & 0xfffffffffffffull) ? 1u << (manBits - 1) : 0u);
  if (doubleExp == 0) // zero or a double subnormal: far below any narrow subnormal
    return sign;
  const uint64_t mantissa = (a & 0xfffffffffffffull) | (1ull << 52); // value = m * 2^(e-52)
  const int e = doubleExp - 1023;
  const int bias = (1 << (expBits - 1)) - 1;
  auto roundShift = [](uint64_t m, int shift) -> uint64_t {
    if (shift >= 64)
      return 0;
    uint64_t q = m >> shift, rem = m & ((1ull << shift) - 1), half = 1ull << (shift - 1);
    return q + ((rem > half || (rem == half && (q & 1))) ? 1 : 0);
  };
  int biased = e + bias;
  if (biased >= 1) {
    uint64_t r = roundShift(mantissa, 52 - manBits);
    if (r == (1ull << (manBits + 1))) { // rounding carried into the exponent
      r >>= 1;
      ++biased;
    }
    if (biased >= (1 << expBits) - 1)
      return sign | expMask;
    return sign | (static_cast<uint32_t>(biased) << manBits) |
           static_cast<uint32_t>(r & ((1ull << manBits) - 1));
  }
  // A subnormal of the narrow format: k * 2^(1 - bias - manBits). A k that
  // rounds up to 2^manBits is the smallest normal, which these bits spell.
  int shift = 52 - e + (1 - bias - manBits);
  return sign | static_cast<uint32_t>(roundShift(mantissa, shift));
}

inline uint16_t doubleToHalfBits(double v) {
  return static_cast<uint16_t>(roundDoubleToFormat(v, 5, 10));
}
inline uint16_t doubleToBFloat16Bits(double v) {
  return static_cast<uint16_t>(roundDoubleToFormat(v, 8, 7));
}

} // namespace hadron::nvidia

#endif // HADRON_TARGETS_NVIDIA_RUNTIME_SCALARBITS_H
