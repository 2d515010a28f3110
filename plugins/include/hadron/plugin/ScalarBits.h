//===- ScalarBits.h - hd_arg floats as the bits a 16-bit parameter holds -*- C++ -*-===//
//
// An hd_arg carries HD_ARG_F16 and HD_ARG_BF16 values as a double; a kernel
// takes the IEEE binary16 or bfloat16 bits. Every runtime part converts with
// these functions so that one hd_arg arrives as the same bits on every target.
// They round to nearest even once, straight from the double: going through
// float first rounds twice and can land one ulp off (1 + 2^-11 + 2^-40 is
// above a binary16 tie, but as a float it is the tie and rounds down to even).
// Overflow gives infinity, a NaN stays a quiet NaN with its sign, and
// subnormals of the narrow format are rounded like any other value.
//
// Header-only and free of LLVM, for runtime parts in and out of Hadron's tree.
//
//===----------------------------------------------------------------------===//
#ifndef HADRON_PLUGIN_SCALARBITS_H
#define HADRON_PLUGIN_SCALARBITS_H

#include <cstdint>
#include <cstring>

namespace hadron::plugin {
namespace detail {

/// `m` shifted right by `shift` (1..64), rounded to nearest even.
inline uint64_t roundShiftRightEven(uint64_t m, int shift) {
  if (shift >= 64)
    return 0; // m < 2^53: below half of the lowest kept bit
  uint64_t q = m >> shift, rem = m & ((1ull << shift) - 1), half = 1ull << (shift - 1);
  return q + ((rem > half || (rem == half && (q & 1))) ? 1 : 0);
}

/// `value` rounded to a binary format of 1 sign, `expBits` exponent and
/// `manBits` (< 52) mantissa bits, returned right-aligned.
inline uint32_t roundDoubleToFormat(double value, int expBits, int manBits) {
  uint64_t u;
  std::memcpy(&u, &value, sizeof(u));
  const uint32_t sign = static_cast<uint32_t>(u >> 63) << (expBits + manBits);
  const uint32_t expMask = ((1u << expBits) - 1) << manBits;
  const uint64_t fraction = u & 0xfffffffffffffull;
  const int doubleExp = static_cast<int>((u >> 52) & 0x7ff);
  if (doubleExp == 0x7ff) // infinity, or NaN (made quiet)
    return sign | expMask | (fraction ? 1u << (manBits - 1) : 0u);
  if (doubleExp == 0) // zero or a double subnormal: far below any narrow subnormal
    return sign;
  const uint64_t mantissa = fraction | (1ull << 52); // value = mantissa * 2^(e - 52)
  const int e = doubleExp - 1023;
  const int bias = (1 << (expBits - 1)) - 1;
  int biased = e + bias;
  if (biased >= 1) {
    uint64_t r = roundShiftRightEven(mantissa, 52 - manBits);
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
  const int shift = 52 - e + (1 - bias - manBits);
  return sign | static_cast<uint32_t>(roundShiftRightEven(mantissa, shift));
}

} // namespace detail

/// IEEE binary16 bits of `value`, rounded to nearest even once.
inline uint16_t doubleToHalfBits(double value) {
  return static_cast<uint16_t>(detail::roundDoubleToFormat(value, 5, 10));
}

/// bfloat16 bits of `value`, rounded to nearest even once.
inline uint16_t doubleToBFloat16Bits(double value) {
  return static_cast<uint16_t>(detail::roundDoubleToFormat(value, 8, 7));
}

} // namespace hadron::plugin

#endif // HADRON_PLUGIN_SCALARBITS_H
