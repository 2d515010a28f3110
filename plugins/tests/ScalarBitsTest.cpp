//===- ScalarBitsTest.cpp - The SDK's double -> f16/bf16 conversion -------===//
//
// Every expected value is worked out by hand in its comment. The "through
// float" notes give what rounding twice (double -> float -> 16 bits) yields,
// which is what these cases exist to catch.
//
//===----------------------------------------------------------------------===//

#include "hadron/plugin/ScalarBits.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>

using hadron::plugin::doubleToBFloat16Bits;
using hadron::plugin::doubleToHalfBits;

namespace {

double fromBits(uint64_t bits) {
  double d;
  std::memcpy(&d, &bits, sizeof(d));
  return d;
}

const double kInf = std::numeric_limits<double>::infinity();

TEST(SdkScalarBits, HalfExactAndRounded) {
  EXPECT_EQ(doubleToHalfBits(1.0), 0x3c00);
  EXPECT_EQ(doubleToHalfBits(-2.0), 0xc000);
  EXPECT_EQ(doubleToHalfBits(0.0), 0x0000);
  EXPECT_EQ(doubleToHalfBits(-0.0), 0x8000);
  EXPECT_EQ(doubleToHalfBits(1.0 / 3.0), 0x3555); // 1.0101010101|01... * 2^-2: below the tie
  // 1 + 2^-11 is halfway between 0x3c00 and 0x3c01: to even.
  EXPECT_EQ(doubleToHalfBits(1.0 + std::ldexp(1.0, -11)), 0x3c00);
  // 1 + 3 * 2^-11 is halfway between 0x3c01 and 0x3c02: to even.
  EXPECT_EQ(doubleToHalfBits(1.0 + 3 * std::ldexp(1.0, -11)), 0x3c02);
  // 2 - 2^-11 is halfway between 0x3fff (2 - 2^-10) and 2.0; 0x3fff is odd,
  // so the rounding carries into the exponent.
  EXPECT_EQ(doubleToHalfBits(2.0 - std::ldexp(1.0, -11)), 0x4000);
}

TEST(SdkScalarBits, HalfOverflowAndSpecials) {
  EXPECT_EQ(doubleToHalfBits(65504.0), 0x7bff);  // the largest half
  EXPECT_EQ(doubleToHalfBits(65519.99), 0x7bff); // below the tie with 2^16
  EXPECT_EQ(doubleToHalfBits(65520.0), 0x7c00);  // the tie; 0x7bff is odd: infinity
  EXPECT_EQ(doubleToHalfBits(-1e6), 0xfc00);
  EXPECT_EQ(doubleToHalfBits(1e300), 0x7c00);
  EXPECT_EQ(doubleToHalfBits(kInf), 0x7c00);
  EXPECT_EQ(doubleToHalfBits(-kInf), 0xfc00);
  EXPECT_EQ(doubleToHalfBits(std::nan("")), 0x7e00);
  EXPECT_EQ(doubleToHalfBits(-std::nan("")), 0xfe00);
  EXPECT_EQ(doubleToHalfBits(fromBits(0x7ff0000000000001ull)), 0x7e00); // signalling: quiet
}

TEST(SdkScalarBits, HalfSubnormals) {
  EXPECT_EQ(doubleToHalfBits(std::ldexp(1.0, -24)), 0x0001);    // the smallest subnormal
  EXPECT_EQ(doubleToHalfBits(std::ldexp(1023.0, -24)), 0x03ff); // the largest subnormal
  EXPECT_EQ(doubleToHalfBits(std::ldexp(1.0, -14)), 0x0400);    // the smallest normal
  EXPECT_EQ(doubleToHalfBits(std::ldexp(1.0, -25)), 0x0000);    // tie of 0 and 2^-24: 0
  EXPECT_EQ(doubleToHalfBits(std::ldexp(-1.5, -25)), 0x8001);
  EXPECT_EQ(doubleToHalfBits(std::ldexp(3.0, -25)), 0x0002);    // tie of 1 and 2 (* 2^-24): 2
  // 1023.5 * 2^-24, the tie of the largest subnormal and the smallest normal.
  EXPECT_EQ(doubleToHalfBits(std::ldexp(1.0, -14) - std::ldexp(1.0, -25)), 0x0400);
  EXPECT_EQ(doubleToHalfBits(1e-300), 0x0000);
  EXPECT_EQ(doubleToHalfBits(-std::numeric_limits<double>::denorm_min()), 0x8000);
}

// Each double lies within 2^-24 relative of a half tie: float rounds it onto
// the tie, which then goes to even; once from the double it goes the other way.
TEST(SdkScalarBits, HalfRoundsOnceNotThroughFloat) {
  // Above the tie 1 + 2^-11 (float ulp there is 2^-23): up. Through float: 0x3c00.
  EXPECT_EQ(doubleToHalfBits(1.0 + std::ldexp(1.0, -11) + std::ldexp(1.0, -40)), 0x3c01);
  // Below the tie 1 + 3 * 2^-11: down. Through float: 0x3c02.
  EXPECT_EQ(doubleToHalfBits(1.0 + 3 * std::ldexp(1.0, -11) - std::ldexp(1.0, -40)), 0x3c01);
  // Below the tie 65520 (float ulp there is 2^-8): the largest half. Through float: infinity.
  EXPECT_EQ(doubleToHalfBits(65520.0 - std::ldexp(1.0, -30)), 0x7bff);
  // Above the subnormal tie 2^-25 (float ulp there is 2^-48): 2^-24. Through float: 0.
  EXPECT_EQ(doubleToHalfBits(std::ldexp(1.0, -25) + std::ldexp(1.0, -60)), 0x0001);
}

TEST(SdkScalarBits, BFloat16) {
  EXPECT_EQ(doubleToBFloat16Bits(1.0), 0x3f80);
  EXPECT_EQ(doubleToBFloat16Bits(-3.0), 0xc040);
  EXPECT_EQ(doubleToBFloat16Bits(-0.0), 0x8000);
  EXPECT_EQ(doubleToBFloat16Bits(1.0 / 3.0), 0x3eab); // 1.0101010|1010... * 2^-2: up
  EXPECT_EQ(doubleToBFloat16Bits(1.0 + std::ldexp(1.0, -8)), 0x3f80);     // tie: even
  EXPECT_EQ(doubleToBFloat16Bits(1.0 + 3 * std::ldexp(1.0, -8)), 0x3f82); // tie: even
  EXPECT_EQ(doubleToBFloat16Bits(3.4e38), 0x7f80); // above (2 - 2^-8) * 2^127: infinity
  EXPECT_EQ(doubleToBFloat16Bits(-kInf), 0xff80);
  EXPECT_EQ(doubleToBFloat16Bits(std::nan("")), 0x7fc0);
  EXPECT_EQ(doubleToBFloat16Bits(std::ldexp(1.0, -126)), 0x0080); // the smallest normal
  EXPECT_EQ(doubleToBFloat16Bits(std::ldexp(1.0, -133)), 0x0001); // the smallest subnormal
  EXPECT_EQ(doubleToBFloat16Bits(std::ldexp(1.0, -134)), 0x0000); // tie of 0 and 2^-133: 0
}

TEST(SdkScalarBits, BFloat16RoundsOnceNotThroughFloat) {
  // Above the tie 1 + 2^-8: up. Through float: 0x3f80.
  EXPECT_EQ(doubleToBFloat16Bits(1.0 + std::ldexp(1.0, -8) + std::ldexp(1.0, -40)), 0x3f81);
  // Below the tie 1 + 3 * 2^-8: down. Through float: 0x3f82.
  EXPECT_EQ(doubleToBFloat16Bits(1.0 + 3 * std::ldexp(1.0, -8) - std::ldexp(1.0, -40)), 0x3f81);
  // Below the tie (2 - 2^-8) * 2^127 with infinity (float ulp there is
  // 2^104): the largest bf16. Through float: infinity.
  EXPECT_EQ(doubleToBFloat16Bits(std::ldexp(2.0 - std::ldexp(1.0, -8), 127) -
                                 std::ldexp(1.0, 90)),
            0x7f7f);
  // Above the subnormal tie 2^-134 (a float subnormal, ulp 2^-149): 2^-133.
  // Through float: 0.
  EXPECT_EQ(doubleToBFloat16Bits(std::ldexp(1.0, -134) + std::ldexp(1.0, -170)), 0x0001);
}

} // namespace
