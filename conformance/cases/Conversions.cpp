//===- Conversions.cpp - casts between every pair that matters -----------===//
//
// cvt.<from>_<to>[.variant]: float narrowing rounds to nearest even (inputs
// include exact ties of both parities, subnormal results, overflow to
// infinity and NaN), integer casts wrap or extend, and float -> int
// saturates the way front ends write it: NaN -> 0, out-of-range -> the
// type's MIN/MAX, in range -> fptosi (whose out-of-range lanes the select
// discards).
//
//===----------------------------------------------------------------------===//

#include "Common.h"

#include <cstring>

namespace hadron::conformance {

namespace {

float floatOfBits(uint32_t b) {
  float f;
  std::memcpy(&f, &b, 4);
  return f;
}

/// f32 values that stress narrowing to `to`: exact ties (the dropped bits
/// are 1000...), values one ulp off ties, subnormal and overflowing
/// results, NaN and infinities.
V narrowingInput(Env &env, Elem to, bool subnormals) {
  const int dropped = to == Elem::BF16 ? 16 : 13;
  const uint32_t half = 1u << (dropped - 1);
  switch (env.uniformInt(0, 9)) {
  case 0: return F(NAN);
  case 1: return F(env.uniformInt(0, 1) ? INFINITY : -INFINITY);
  case 2: { // overflow
    double big = to == Elem::BF16 ? 3.4e38 : 65520.0 * (1 + env.uniform(0, 4));
    return F(static_cast<float>(env.uniformInt(0, 1) ? big : -big));
  }
  case 3: // subnormal in the target (for bf16, an f32 subnormal too)
    if (!subnormals)
      return F(static_cast<float>(std::ldexp(env.uniform(-1, 1), -100)));
    return F(static_cast<float>(std::ldexp(env.uniform(-1, 1), to == Elem::F16 ? -16 : -128)));
  default: {
    // Random sign/exponent/mantissa with the dropped bits at a tie, or next to it.
    uint32_t b = static_cast<uint32_t>(env.uniformInt(0, 0xffffffff));
    int exp = to == Elem::F16 ? static_cast<int>(env.uniformInt(127 - 14, 127 + 15))
                              : static_cast<int>(env.uniformInt(1, 254));
    b = (b & 0x807fffff) | (uint32_t(exp) << 23);
    b &= ~((1u << dropped) - 1);
    b |= half + static_cast<uint32_t>(env.uniformInt(-1, 1));
    return F(floatOfBits(b));
  }
  }
}

/// `x -> int` saturating, NaN -> 0.
Body saturatingToInt(Elem from, Elem to) {
  return [from, to](Kernel &k, const std::vector<std::string> &a,
                    const std::vector<std::string> &t, const std::string &r) {
    const int w = bitWidth(to);
    const std::string lo = std::to_string(-std::ldexp(1.0, w - 1));
    const std::string hi = std::to_string(std::ldexp(1.0, w - 1));
    std::string flo = k.dense(lo, t[0]), fhi = k.dense(hi, t[0]);
    const std::string mt = withElem(t[0], "i1");
    std::string isNan = k.let("arith.cmpf uno, " + a[0] + ", " + a[0] + " : " + t[0]);
    std::string tooLow = k.let("arith.cmpf olt, " + a[0] + ", " + flo + " : " + t[0]);
    std::string tooHigh = k.let("arith.cmpf oge, " + a[0] + ", " + fhi + " : " + t[0]);
    std::string conv = k.let("arith.fptosi " + a[0] + " : " + t[0] + " to " + r);
    const int64_t maxv = w == 64 ? INT64_MAX : (int64_t(1) << (w - 1)) - 1;
    const int64_t minv = w == 64 ? INT64_MIN : -(int64_t(1) << (w - 1));
    std::string imax = k.dense(std::to_string(maxv), r), imin = k.dense(std::to_string(minv), r);
    std::string zero = k.dense("0", r);
    std::string s1 = k.let("arith.select " + tooHigh + ", " + imax + ", " + conv + " : " + mt + ", " + r);
    std::string s2 = k.let("arith.select " + tooLow + ", " + imin + ", " + s1 + " : " + mt + ", " + r);
    (void)from;
    return k.let("arith.select " + isNan + ", " + zero + ", " + s2 + " : " + mt + ", " + r);
  };
}

int64_t saturate(double v, Elem to) {
  const int w = bitWidth(to);
  if (std::isnan(v))
    return 0;
  if (v >= std::ldexp(1.0, w - 1))
    return w == 64 ? INT64_MAX : (int64_t(1) << (w - 1)) - 1;
  if (v < -std::ldexp(1.0, w - 1))
    return w == 64 ? INT64_MIN : -(int64_t(1) << (w - 1));
  return static_cast<int64_t>(v);
}

} // namespace

void addConversionCases(std::vector<Case> &cases) {
  size_t rot = 1;
  auto add = [&](const std::string &name, Elementwise ew) {
    const Blocked layout = layouts1d()[rot++ % layouts1d().size()];
    cases.push_back({"cvt." + name, [ew, layout](Env &env) {
                       return elementwisePlan(env, ew, layout, "convert");
                     }});
  };
  const Elem i8 = Elem::I8, i16 = Elem::I16, i32 = Elem::I32, i64 = Elem::I64;
  const Elem h = Elem::F16, bf = Elem::BF16, s = Elem::F32, d = Elem::F64;

  add("f32_bf16.rne", {{s}, bf, castOp("arith.truncf"), [](auto &v) { return F(v[0].f); },
                       [bf](Env &env, int) { return narrowingInput(env, bf, false); }});
  add("f32_bf16.subnormal", {{s}, bf, castOp("arith.truncf"), [](auto &v) { return F(v[0].f); },
                             [bf](Env &env, int) { return narrowingInput(env, bf, true); }});
  add("f32_f16.rne", {{s}, h, castOp("arith.truncf"), [](auto &v) { return F(v[0].f); },
                      [h](Env &env, int) { return narrowingInput(env, h, true); }});
  add("f64_f32.rne", {{d}, s, castOp("arith.truncf"), [](auto &v) { return F(v[0].f); },
                      [](Env &env, int) {
                        return F(std::ldexp(env.uniform(-1, 1), static_cast<int>(env.uniformInt(-140, 129))));
                      }});
  add("f16_f32", {{h}, s, castOp("arith.extf"), [](auto &v) { return F(v[0].f); },
                  [h](Env &env, int) { return withSpecials(env, h); }});
  add("bf16_f32", {{bf}, s, castOp("arith.extf"), [](auto &v) { return F(v[0].f); },
                   [bf](Env &env, int) { return withSpecials(env, bf); }});
  add("f32_f64", {{s}, d, castOp("arith.extf"), [](auto &v) { return F(v[0].f); },
                  [s](Env &env, int) { return withSpecials(env, s); }});
  add("i32_f32.sitofp", {{i32}, s, castOp("arith.sitofp"),
                         [](auto &v) { return F(static_cast<float>(v[0].i)); }});
  add("i32_f32.uitofp", {{i32}, s, castOp("arith.uitofp"),
                         [](auto &v) { return F(static_cast<float>(static_cast<uint32_t>(v[0].i))); }});
  add("i64_f64.sitofp", {{i64}, d, castOp("arith.sitofp"),
                         [](auto &v) { return F(static_cast<double>(v[0].i)); }});
  add("i8_f16.sitofp", {{i8}, h, castOp("arith.sitofp"), [](auto &v) { return F(double(v[0].i)); }});
  add("i16_f32.sitofp", {{i16}, s, castOp("arith.sitofp"), [](auto &v) { return F(double(v[0].i)); }});
  add("f32_i32.fptosi", {{s}, i32, castOp("arith.fptosi"),
                         [](auto &v) { return I(static_cast<int32_t>(v[0].f)); },
                         [](Env &env, int) { return F(env.uniform(-2e9, 2e9)); }});
  add("f64_i64.fptosi", {{d}, i64, castOp("arith.fptosi"),
                         [](auto &v) { return I(static_cast<int64_t>(v[0].f)); },
                         [](Env &env, int) { return F(env.uniform(-9e18, 9e18)); }});
  add("f32_i32.fptoui", {{s}, i32, castOp("arith.fptoui"),
                         [](auto &v) { return I(wrapTo(Elem::I32, static_cast<int64_t>(static_cast<uint32_t>(v[0].f)))); },
                         [](Env &env, int) { return F(env.uniform(0, 4e9)); }});
  auto satInput = [](double range) {
    return [range](Env &env, int) {
      switch (env.uniformInt(0, 7)) {
      case 0: return F(NAN);
      case 1: return F(env.uniformInt(0, 1) ? INFINITY : -INFINITY);
      default: return F(env.uniform(-range, range));
      }
    };
  };
  for (auto [from, to, range] : {std::tuple{s, i8, 400.0}, std::tuple{s, i16, 1e5},
                                 std::tuple{s, i32, 5e9}, std::tuple{d, i64, 3e19},
                                 std::tuple{h, i8, 1000.0}}) {
    Elem f = from, t = to;
    add(std::string(irName(f)) + "_" + irName(t) + ".saturating",
        {{f}, t, saturatingToInt(f, t), [t](auto &v) { return I(saturate(v[0].f, t)); },
         satInput(range)});
  }
  add("i8_i32.extsi", {{i8}, i32, castOp("arith.extsi"), [](auto &v) { return I(v[0].i); }});
  add("i16_i64.extui", {{i16}, i64, castOp("arith.extui"),
                        [](auto &v) { return I(static_cast<uint16_t>(v[0].i)); }});
  add("i32_i64.extsi", {{i32}, i64, castOp("arith.extsi"), [](auto &v) { return I(v[0].i); }});
  add("i64_i8.trunci", {{i64}, i8, castOp("arith.trunci"), [](auto &v) { return I(wrapTo(Elem::I8, v[0].i)); }});
  add("i32_i16.trunci", {{i32}, i16, castOp("arith.trunci"), [](auto &v) { return I(wrapTo(Elem::I16, v[0].i)); }});
  add("i32_f32.bitcast", {{i32}, s, castOp("arith.bitcast"),
                          [](auto &v) { return F(floatOfBits(static_cast<uint32_t>(v[0].i))); },
                          [](Env &env, int) {
                            // Finite patterns: a NaN's payload need not survive.
                            uint32_t b;
                            do
                              b = static_cast<uint32_t>(env.uniformInt(0, 0xffffffff));
                            while ((b & 0x7f800000) == 0x7f800000);
                            return I(static_cast<int32_t>(b));
                          }});
}

} // namespace hadron::conformance
