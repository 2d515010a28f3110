//===- Conversions.cpp - casts between every pair that matters -----------===//
//
// cvt.<from>_<to>[.variant]: float narrowing rounds to nearest even (inputs
// include exact ties of both parities, subnormal results, overflow to
// infinity and NaN), integer casts wrap or extend, and float -> int
// saturates the way front ends write it: NaN -> 0, out-of-range -> the
// type's MIN/MAX, in range -> fptosi (whose out-of-range lanes the select
// discards). The kernels are the kernel library's (tests/kernels/
// Elementwise.h, written with the C++ builder), which also fixes the cases'
// order and layouts; here are each conversion's inputs and reference.
//
//===----------------------------------------------------------------------===//

#include "Common.h"

#include <cstring>
#include <map>

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

/// What a conversion case checks: the reference and the inputs.
struct Reference {
  std::function<V(const std::vector<V> &)> ref;
  std::function<V(Env &, int k)> gen{};
};

/// Every conversion's check, by the op's name ("f32_bf16.rne").
std::map<std::string, Reference> checks() {
  std::map<std::string, Reference> c;
  auto add = [&c](const std::string &op, Reference check) { c[op] = std::move(check); };
  const Elem i8 = Elem::I8, i16 = Elem::I16, i32 = Elem::I32, i64 = Elem::I64;
  const Elem h = Elem::F16, bf = Elem::BF16, s = Elem::F32, d = Elem::F64;

  add("f32_bf16.rne", {[](auto &v) { return F(v[0].f); },
                       [bf](Env &env, int) { return narrowingInput(env, bf, false); }});
  add("f32_bf16.subnormal", {[](auto &v) { return F(v[0].f); },
                             [bf](Env &env, int) { return narrowingInput(env, bf, true); }});
  add("f32_f16.rne", {[](auto &v) { return F(v[0].f); },
                      [h](Env &env, int) { return narrowingInput(env, h, true); }});
  add("f64_f32.rne", {[](auto &v) { return F(v[0].f); },
                      [](Env &env, int) {
                        return F(std::ldexp(env.uniform(-1, 1), static_cast<int>(env.uniformInt(-140, 129))));
                      }});
  add("f16_f32", {[](auto &v) { return F(v[0].f); },
                  [h](Env &env, int) { return withSpecials(env, h); }});
  add("bf16_f32", {[](auto &v) { return F(v[0].f); },
                   [bf](Env &env, int) { return withSpecials(env, bf); }});
  add("f32_f64", {[](auto &v) { return F(v[0].f); },
                  [s](Env &env, int) { return withSpecials(env, s); }});
  add("i32_f32.sitofp", {[](auto &v) { return F(static_cast<float>(v[0].i)); }});
  add("i32_f32.uitofp", {[](auto &v) { return F(static_cast<float>(static_cast<uint32_t>(v[0].i))); }});
  add("i64_f64.sitofp", {[](auto &v) { return F(static_cast<double>(v[0].i)); }});
  add("i8_f16.sitofp", {[](auto &v) { return F(double(v[0].i)); }});
  add("i16_f32.sitofp", {[](auto &v) { return F(double(v[0].i)); }});
  add("f32_i32.fptosi", {[](auto &v) { return I(static_cast<int32_t>(v[0].f)); },
                         [](Env &env, int) { return F(env.uniform(-2e9, 2e9)); }});
  add("f64_i64.fptosi", {[](auto &v) { return I(static_cast<int64_t>(v[0].f)); },
                         [](Env &env, int) { return F(env.uniform(-9e18, 9e18)); }});
  add("f32_i32.fptoui", {[](auto &v) { return I(wrapTo(Elem::I32, static_cast<int64_t>(static_cast<uint32_t>(v[0].f)))); },
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
        {[t](auto &v) { return I(saturate(v[0].f, t)); }, satInput(range)});
  }
  add("i8_i32.extsi", {[](auto &v) { return I(v[0].i); }});
  add("i16_i64.extui", {[](auto &v) { return I(static_cast<uint16_t>(v[0].i)); }});
  add("i32_i64.extsi", {[](auto &v) { return I(v[0].i); }});
  add("i64_i8.trunci", {[](auto &v) { return I(wrapTo(Elem::I8, v[0].i)); }});
  add("i32_i16.trunci", {[](auto &v) { return I(wrapTo(Elem::I16, v[0].i)); }});
  add("i32_f32.bitcast", {[](auto &v) { return F(floatOfBits(static_cast<uint32_t>(v[0].i))); },
                          [](Env &env, int) {
                            // Finite patterns: a NaN's payload need not survive.
                            uint32_t b;
                            do
                              b = static_cast<uint32_t>(env.uniformInt(0, 0xffffffff));
                            while ((b & 0x7f800000) == 0x7f800000);
                            return I(static_cast<int32_t>(b));
                          }});
  return c;
}

} // namespace

void addConversionCases(std::vector<Case> &cases) {
  static const std::map<std::string, Reference> all = checks();
  for (const kernels::ElementwiseUse &use : kernels::conversionUses()) {
    auto it = all.find(use.op);
    if (it == all.end()) {
      cases.push_back(unchecked(use.name, use.kernel, "conformance/cases/Conversions.cpp"));
      continue;
    }
    Elementwise ew{use.ins, use.out, it->second.ref, it->second.gen};
    cases.push_back({use.name, [ew, use](Env &env) { return elementwisePlan(env, ew, use); }});
  }
}

} // namespace hadron::conformance
