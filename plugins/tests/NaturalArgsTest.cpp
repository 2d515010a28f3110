//===- NaturalArgsTest.cpp - hd_arg scalars as a CPU kernel reads them ----===//

#include "hadron/plugin/NaturalArgs.h"

#include <gtest/gtest.h>

#include <cstdint>

using hadron::plugin::NaturalArg;
using hadron::plugin::naturalArg;

namespace {

hd_arg intArg(hd_arg_kind kind, int64_t v) {
  hd_arg a{};
  a.kind = kind;
  a.value.i = v;
  return a;
}

hd_arg floatArg(hd_arg_kind kind, double v) {
  hd_arg a{};
  a.kind = kind;
  a.value.f = v;
  return a;
}

TEST(SdkNaturalArgs, IntegersAreTruncatedToTheirWidth) {
  EXPECT_EQ(naturalArg(intArg(HD_ARG_I8, 0x1ff)).i8, -1);
  EXPECT_EQ(naturalArg(intArg(HD_ARG_I16, 0x18001)).i16, -32767);
  EXPECT_EQ(naturalArg(intArg(HD_ARG_I32, 0x1'0000'0005)).i32, 5);
  EXPECT_EQ(naturalArg(intArg(HD_ARG_I64, -3)).i64, -3);
  // The bytes above the value are zero: a kernel reading a wider slot
  // (an i1 as a byte, an i16 as the low half) sees nothing stale.
  EXPECT_EQ(naturalArg(intArg(HD_ARG_I8, -1)).i64, 0xff);
}

TEST(SdkNaturalArgs, AnyNonzeroI1IsOne) {
  EXPECT_EQ(naturalArg(intArg(HD_ARG_I1, 0)).i8, 0);
  EXPECT_EQ(naturalArg(intArg(HD_ARG_I1, 1)).i8, 1);
  EXPECT_EQ(naturalArg(intArg(HD_ARG_I1, 256)).i8, 1); // whose low byte is 0
  EXPECT_EQ(naturalArg(intArg(HD_ARG_I1, -7)).i8, 1);
}

TEST(SdkNaturalArgs, FloatsInTheirFormat) {
  EXPECT_EQ(naturalArg(floatArg(HD_ARG_F32, 1.5)).f32, 1.5f);
  EXPECT_EQ(naturalArg(floatArg(HD_ARG_F64, 0.1)).f64, 0.1);
  // 1 + 2^-11 + 2^-40 rounds up in binary16 (0x3c01); through float it
  // would be the tie and round down to 0x3c00 (ScalarBitsTest).
  EXPECT_EQ(naturalArg(floatArg(HD_ARG_F16, 1.0 + 0x1p-11 + 0x1p-40)).bits16, 0x3c01);
  EXPECT_EQ(naturalArg(floatArg(HD_ARG_BF16, -2.0)).bits16, 0xc000);
}

TEST(SdkNaturalArgs, PointersAndDescriptors) {
  hd_arg p{};
  p.kind = HD_ARG_PTR;
  p.value.ptr = 0x7f0012345678;
  EXPECT_EQ(reinterpret_cast<uintptr_t>(naturalArg(p).ptr), 0x7f0012345678u);
  hd_arg d{};
  d.kind = HD_ARG_TENSOR_DESC;
  EXPECT_EQ(naturalArg(d).i64, 0);
}

} // namespace
