//===- ElementwiseTest.cpp - arith and math on i32/i64/f16/f32/f64 tiles --===//
//
// One kernel per op and layout, from the kernel library
// (tests/kernels/Elementwise.h, written with the C++ builder): load one to
// three input tiles (masked, a tail past the last full block), apply the
// op, store. References are plain
// C++ in the op's precision. Integer results and exactly rounded float ops
// (+ - * / fma sqrt, conversions, min/max) must match bit for bit; the
// transcendental functions within a few ULP. Inputs include what the ops
// are picky about: negative operands of division and remainder, shift
// amounts up to the width, NaN and signed zeros for min/max, values that
// round to even in conversions.
//
//===----------------------------------------------------------------------===//

#include "E2E.h"
#include "kernels/Elementwise.h"

#include <limits>
#include <variant>

namespace hadron::e2e {
namespace {

enum class Ty { I32, I64, F16, F32, F64 };
using testkit::Elem;

bool isFloat(Ty t) { return t == Ty::F16 || t == Ty::F32 || t == Ty::F64; }

/// One element of any of the types: integers in `i` (sign-extended), floats
/// in `f` (already rounded to their type).
struct Val {
  int64_t i = 0;
  double f = 0;
};
Val I(int64_t v) { return Val{v, 0}; }
Val F(double v) { return Val{0, v}; }

using Gen = std::function<Val(std::mt19937_64 &, int operand)>;
using Ref = std::function<Val(const std::vector<Val> &)>;

/// An op of the kernel library's list (kernels::e2eElementwiseOps(), whose
/// kernel computes it) with its host reference and inputs.
struct OpCase {
  std::string name;
  Ref ref;
  Gen gen{};           ///< Empty: the type's default range.
  int64_t ulps = 0;    ///< 0 with exactBits: bit-exact.
  double absTol = 0;
  bool exactBits = true;
  /// A core bug that makes the kernel fail to compile: the test skips with
  /// it until the kernel compiles.
  std::string knownBug{};
  /// The library's op of this name, and its types.
  const kernels::E2eElementwiseOp *op = nullptr;
  std::vector<Ty> ins{};
  Ty out = Ty::I32;
};

// Rounding helpers: a reference computes in the op's type.
double f32(double v) { return static_cast<float>(v); }
double f16(double v) { return fromHalf(toHalf(static_cast<float>(v))); }
double roundTo(Ty t, double v) { return t == Ty::F32 ? f32(v) : t == Ty::F16 ? f16(v) : v; }

int64_t wrap32(int64_t v) { return static_cast<int32_t>(static_cast<uint32_t>(v)); }
uint32_t u32(int64_t v) { return static_cast<uint32_t>(v); }
uint64_t u64(int64_t v) { return static_cast<uint64_t>(v); }

std::uniform_int_distribution<int64_t> fullI32(INT32_MIN, INT32_MAX);
std::uniform_int_distribution<int64_t> fullI64(INT64_MIN, INT64_MAX);

Val defaultGen(Ty t, std::mt19937_64 &rng) {
  switch (t) {
  case Ty::I32: return I(fullI32(rng));
  case Ty::I64: return I(fullI64(rng));
  case Ty::F16: return F(f16(std::uniform_real_distribution<double>(-100, 100)(rng)));
  case Ty::F32: return F(f32(std::uniform_real_distribution<double>(-100, 100)(rng)));
  case Ty::F64: return F(std::uniform_real_distribution<double>(-100, 100)(rng));
  }
  return {};
}

Gen uniformF(Ty t, double lo, double hi) {
  return [t, lo, hi](std::mt19937_64 &rng, int) {
    return F(roundTo(t, std::uniform_real_distribution<double>(lo, hi)(rng)));
  };
}

Gen smallInts(int64_t lo, int64_t hi) {
  return [lo, hi](std::mt19937_64 &rng, int) {
    return I(std::uniform_int_distribution<int64_t>(lo, hi)(rng));
  };
}

/// Division operands: any dividend (small ones often, so that quotients of
/// every sign and size appear), a non-zero divisor, never MIN / -1.
Gen divisionOperands(Ty t) {
  return [t](std::mt19937_64 &rng, int operand) {
    const bool wide = t == Ty::I64;
    std::uniform_int_distribution<int> pick(0, 3);
    int64_t v;
    do {
      int kind = pick(rng);
      if (kind == 0)
        v = std::uniform_int_distribution<int64_t>(-20, 20)(rng);
      else if (kind == 1)
        v = std::uniform_int_distribution<int64_t>(-100000, 100000)(rng);
      else
        v = wide ? fullI64(rng) : fullI32(rng);
    } while ((operand == 1 && (v == 0 || v == -1)));
    return I(v);
  };
}

/// Floats with NaN, infinities and both zeros mixed in (1 in 4).
Gen withSpecials(Ty t) {
  return [t](std::mt19937_64 &rng, int) {
    std::uniform_int_distribution<int> pick(0, 15);
    switch (pick(rng)) {
    case 0: return F(std::numeric_limits<double>::quiet_NaN());
    case 1: return F(0.0);
    case 2: return F(-0.0);
    case 3: return F(pick(rng) < 8 ? INFINITY : -INFINITY);
    default: return F(roundTo(t, std::uniform_real_distribution<double>(-4, 4)(rng)));
    }
  };
}

bool nan(const Val &v) { return std::isnan(v.f); }

// IEEE maximum/minimum: NaN wins, -0 < +0.
double ieeeMax(double a, double b) {
  if (std::isnan(a) || std::isnan(b))
    return NAN;
  if (a == 0 && b == 0)
    return std::signbit(a) ? b : a;
  return a > b ? a : b;
}
double ieeeMin(double a, double b) {
  if (std::isnan(a) || std::isnan(b))
    return NAN;
  if (a == 0 && b == 0)
    return std::signbit(a) ? a : b;
  return a < b ? a : b;
}
// maxnum/minnum: a NaN operand is ignored.
double numMax(double a, double b) { return std::isnan(a) ? b : std::isnan(b) ? a : std::fmax(a, b); }
double numMin(double a, double b) { return std::isnan(a) ? b : std::isnan(b) ? a : std::fmin(a, b); }

int64_t floorDivRef(int64_t a, int64_t b) {
  int64_t q = a / b;
  return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}
int64_t ceilDivRef(int64_t a, int64_t b) {
  int64_t q = a / b;
  return (a % b != 0 && ((a < 0) == (b < 0))) ? q + 1 : q;
}

Ty tyOf(Elem e) {
  switch (e) {
  case Elem::I64: return Ty::I64;
  case Elem::F16: return Ty::F16;
  case Elem::F32: return Ty::F32;
  case Elem::F64: return Ty::F64;
  default: return Ty::I32;
  }
}

std::vector<OpCase> allCases() {
  std::vector<OpCase> c;
  // The operand and result types are the library kernel's; an op it lacks
  // has no types and fails its test naming the op.
  auto add = [&](OpCase oc) {
    for (const kernels::E2eElementwiseOp &op : kernels::e2eElementwiseOps())
      if (op.name == oc.name) {
        oc.op = &op;
        for (Elem e : op.ins)
          oc.ins.push_back(tyOf(e));
        oc.out = tyOf(op.out);
      }
    c.push_back(std::move(oc));
  };
  const Ty i32 = Ty::I32, i64 = Ty::I64, h = Ty::F16, s = Ty::F32, d = Ty::F64;

  // i32: wrapping arithmetic, division of every sign, shifts, bit ops, min/max.
  add({"i32_addi", [](auto &v) { return I(wrap32(v[0].i + v[1].i)); }});
  add({"i32_subi", [](auto &v) { return I(wrap32(v[0].i - v[1].i)); }});
  add({"i32_muli", [](auto &v) { return I(wrap32(int64_t(u32(v[0].i) * uint64_t(u32(v[1].i))))); }});
  add({"i32_divsi", [](auto &v) { return I(v[0].i / v[1].i); }, divisionOperands(i32)});
  add({"i32_remsi", [](auto &v) { return I(v[0].i % v[1].i); }, divisionOperands(i32)});
  add({"i32_divui", [](auto &v) { return I(wrap32(u32(v[0].i) / u32(v[1].i))); }, divisionOperands(i32)});
  add({"i32_remui", [](auto &v) { return I(wrap32(u32(v[0].i) % u32(v[1].i))); }, divisionOperands(i32)});
  add({"i32_floordivsi", [](auto &v) { return I(floorDivRef(v[0].i, v[1].i)); }, divisionOperands(i32), 0, 0, true});
  add({"i32_ceildivsi", [](auto &v) { return I(ceilDivRef(v[0].i, v[1].i)); }, divisionOperands(i32), 0, 0, true});
  add({"i32_andi", [](auto &v) { return I(v[0].i & v[1].i); }});
  add({"i32_ori", [](auto &v) { return I(v[0].i | v[1].i); }});
  add({"i32_xori", [](auto &v) { return I(v[0].i ^ v[1].i); }});
  Gen shift32 = [](std::mt19937_64 &rng, int operand) {
    return operand == 0 ? I(fullI32(rng)) : I(std::uniform_int_distribution<int64_t>(0, 31)(rng));
  };
  add({"i32_shli", [](auto &v) { return I(wrap32(int64_t(u32(v[0].i) << v[1].i))); }, shift32});
  add({"i32_shrsi", [](auto &v) { return I(int32_t(v[0].i) >> v[1].i); }, shift32});
  add({"i32_shrui", [](auto &v) { return I(wrap32(u32(v[0].i) >> v[1].i)); }, shift32});
  add({"i32_minsi", [](auto &v) { return I(std::min(v[0].i, v[1].i)); }});
  add({"i32_maxsi", [](auto &v) { return I(std::max(v[0].i, v[1].i)); }});
  add({"i32_minui", [](auto &v) { return I(wrap32(std::min(u32(v[0].i), u32(v[1].i)))); }});
  add({"i32_maxui", [](auto &v) { return I(wrap32(std::max(u32(v[0].i), u32(v[1].i)))); }});
  add({"i32_absi", [](auto &v) { return I(wrap32(v[0].i < 0 ? -v[0].i : v[0].i)); }});
  add({"i32_ctpop", [](auto &v) { return I(__builtin_popcount(u32(v[0].i))); }});
  Gen small = smallInts(-50, 50);
  add({"i32_cmpi_slt", [](auto &v) { return I(v[0].i < v[1].i); }, small});
  add({"i32_cmpi_ult", [](auto &v) { return I(u32(v[0].i) < u32(v[1].i)); }, small});
  add({"i32_cmpi_eq", [](auto &v) { return I(v[0].i == v[1].i); }, smallInts(-3, 3)});
  add({"i32_cmpi_sge", [](auto &v) { return I(v[0].i >= v[1].i); }, small});
  add({"i32_select", [](auto &v) { return v[0].i > v[1].i ? v[2] : v[0]; }});
  add({"i32_extsi_i64", [](auto &v) { return I(v[0].i); }});
  add({"i32_extui_i64", [](auto &v) { return I(int64_t(u32(v[0].i))); }});
  add({"i32_sitofp_f32", [](auto &v) { return F(static_cast<float>(int32_t(v[0].i))); }});
  add({"i32_uitofp_f32", [](auto &v) { return F(static_cast<float>(u32(v[0].i))); }});
  add({"i32_sitofp_f64", [](auto &v) { return F(static_cast<double>(v[0].i)); }});
  add({"i32_bitcast_f32", [](auto &v) {
         uint32_t b = u32(v[0].i);
         float f;
         std::memcpy(&f, &b, 4);
         return F(f);
       },
       [](std::mt19937_64 &rng, int) {
         // Finite bit patterns: a NaN's payload need not survive a store.
         int64_t b;
         do
           b = fullI32(rng);
         while ((u32(b) & 0x7f800000) == 0x7f800000);
         return I(b);
       }});

  // i64.
  add({"i64_addi", [](auto &v) { return I(int64_t(u64(v[0].i) + u64(v[1].i))); }});
  add({"i64_muli", [](auto &v) { return I(int64_t(u64(v[0].i) * u64(v[1].i))); }});
  add({"i64_divsi", [](auto &v) { return I(v[0].i / v[1].i); }, divisionOperands(i64)});
  add({"i64_remsi", [](auto &v) { return I(v[0].i % v[1].i); }, divisionOperands(i64)});
  add({"i64_divui", [](auto &v) { return I(int64_t(u64(v[0].i) / u64(v[1].i))); }, divisionOperands(i64)});
  Gen shift64 = [](std::mt19937_64 &rng, int operand) {
    return operand == 0 ? I(fullI64(rng)) : I(std::uniform_int_distribution<int64_t>(0, 63)(rng));
  };
  add({"i64_shli", [](auto &v) { return I(int64_t(u64(v[0].i) << v[1].i)); }, shift64});
  add({"i64_shrsi", [](auto &v) { return I(v[0].i >> v[1].i); }, shift64});
  add({"i64_shrui", [](auto &v) { return I(int64_t(u64(v[0].i) >> v[1].i)); }, shift64});
  add({"i64_maxsi", [](auto &v) { return I(std::max(v[0].i, v[1].i)); }});
  add({"i64_minui", [](auto &v) { return I(int64_t(std::min(u64(v[0].i), u64(v[1].i)))); }});
  add({"i64_trunci_i32", [](auto &v) { return I(wrap32(v[0].i)); }});
  add({"i64_sitofp_f64", [](auto &v) { return F(static_cast<double>(v[0].i)); }});
  add({"i64_sitofp_f32", [](auto &v) { return F(static_cast<float>(v[0].i)); }});

  // f32: exactly rounded arithmetic.
  add({"f32_addf", [](auto &v) { return F(f32(v[0].f + v[1].f)); }});
  add({"f32_subf", [](auto &v) { return F(f32(v[0].f - v[1].f)); }});
  add({"f32_mulf", [](auto &v) { return F(f32(v[0].f * v[1].f)); }});
  add({"f32_divf", [](auto &v) {
         return F(static_cast<float>(v[0].f) / static_cast<float>(v[1].f));
       }});
  add({"f32_remf", [](auto &v) {
         return F(std::fmod(static_cast<float>(v[0].f), static_cast<float>(v[1].f)));
       }});
  add({"f32_negf", [](auto &v) { return F(-v[0].f); }, withSpecials(s)});
  add({"f32_maximumf", [](auto &v) { return F(ieeeMax(v[0].f, v[1].f)); }, withSpecials(s)});
  add({"f32_minimumf", [](auto &v) { return F(ieeeMin(v[0].f, v[1].f)); }, withSpecials(s)});
  // maxnum/minnum may give either zero for (-0, +0): compared by value.
  add({"f32_maxnumf", [](auto &v) { return F(numMax(v[0].f, v[1].f)); }, withSpecials(s), 0, 0, false});
  add({"f32_minnumf", [](auto &v) { return F(numMin(v[0].f, v[1].f)); }, withSpecials(s), 0, 0, false});
  add({"f32_cmpf_olt", [](auto &v) { return I(v[0].f < v[1].f); }, withSpecials(s)});
  add({"f32_cmpf_une", [](auto &v) { return I(!(v[0].f == v[1].f)); }, withSpecials(s)});
  add({"f32_cmpf_uno", [](auto &v) { return I(nan(v[0]) || nan(v[1])); }, withSpecials(s)});
  add({"f32_cmpf_oge", [](auto &v) { return I(v[0].f >= v[1].f); }, withSpecials(s)});
  add({"f32_fma", [](auto &v) {
         return F(std::fma(static_cast<float>(v[0].f), static_cast<float>(v[1].f),
                           static_cast<float>(v[2].f)));
       }});
  add({"f32_sqrt", [](auto &v) { return F(std::sqrt(float(v[0].f))); },
       uniformF(s, 0, 1e6)});
  add({"f32_absf", [](auto &v) { return F(std::fabs(v[0].f)); },
       withSpecials(s)});
  add({"f32_floor", [](auto &v) { return F(std::floor(v[0].f)); }});
  add({"f32_ceil", [](auto &v) { return F(std::ceil(v[0].f)); }});
  add({"f32_trunc", [](auto &v) { return F(std::trunc(v[0].f)); }});
  add({"f32_round", [](auto &v) { return F(std::round(v[0].f)); },
       [](std::mt19937_64 &rng, int) {
         // Halves too: round goes away from zero.
         return F(std::uniform_int_distribution<int>(-200, 200)(rng) * 0.5 +
                  (std::uniform_int_distribution<int>(0, 1)(rng) ? 0.25 : 0));
       }});
  add({"f32_copysign", [](auto &v) { return F(std::copysign(v[0].f, v[1].f)); }, withSpecials(s)});
  add({"f32_fptosi_i32", [](auto &v) { return I(static_cast<int32_t>(static_cast<float>(v[0].f))); },
       uniformF(s, -2e9, 2e9)});
  add({"f32_fptoui_i32", [](auto &v) { return I(wrap32(static_cast<uint32_t>(static_cast<float>(v[0].f)))); },
       uniformF(s, 0, 4e9)});
  add({"f32_extf_f64", [](auto &v) { return F(v[0].f); },
       withSpecials(s)});
  add({"f32_truncf_f16", [](auto &v) { return F(f16(v[0].f)); },
       [](std::mt19937_64 &rng, int) {
         // Across the half range, including values that overflow to inf and
         // subnormals.
         double m = std::uniform_real_distribution<double>(-1, 1)(rng);
         int e = std::uniform_int_distribution<int>(-26, 17)(rng);
         return F(f32(std::ldexp(m, e)));
       }});
  // Transcendentals: a few ULP, as device math libraries promise.
  add({"f32_exp", [](auto &v) { return F(f32(std::exp(v[0].f))); },
       uniformF(s, -20, 20), 4});
  add({"f32_exp2", [](auto &v) { return F(f32(std::exp2(v[0].f))); },
       uniformF(s, -20, 20), 4});
  add({"f32_log", [](auto &v) { return F(f32(std::log(v[0].f))); },
       uniformF(s, 1e-3, 1e4), 4, 1e-6});
  add({"f32_log2", [](auto &v) { return F(f32(std::log2(v[0].f))); },
       uniformF(s, 1e-3, 1e4), 4, 1e-6});
  add({"f32_rsqrt", [](auto &v) { return F(f32(1.0 / std::sqrt(v[0].f))); }, uniformF(s, 1e-3, 1e4), 4});
  add({"f32_sin", [](auto &v) { return F(f32(std::sin(v[0].f))); },
       uniformF(s, -10, 10), 4, 2e-7});
  add({"f32_cos", [](auto &v) { return F(f32(std::cos(v[0].f))); },
       uniformF(s, -10, 10), 4, 2e-7});
  add({"f32_tanh", [](auto &v) { return F(f32(std::tanh(v[0].f))); },
       uniformF(s, -6, 6), 4, 1e-7});
  add({"f32_erf", [](auto &v) { return F(f32(std::erf(v[0].f))); },
       uniformF(s, -3, 3), 4, 1e-7});
  add({"f32_powf", [](auto &v) { return F(f32(std::pow(v[0].f, v[1].f))); },
       [](std::mt19937_64 &rng, int operand) {
         return operand == 0 ? F(f32(std::uniform_real_distribution<double>(0.1, 10)(rng)))
                             : F(f32(std::uniform_real_distribution<double>(-4, 4)(rng)));
       },
       8});
  add({"f32_atan2", [](auto &v) { return F(f32(std::atan2(v[0].f, v[1].f))); }, uniformF(s, -10, 10), 4,
       1e-7});

  // f64.
  add({"f64_addf", [](auto &v) { return F(v[0].f + v[1].f); }});
  add({"f64_mulf", [](auto &v) { return F(v[0].f * v[1].f); }});
  add({"f64_divf", [](auto &v) { return F(v[0].f / v[1].f); }});
  add({"f64_fma", [](auto &v) { return F(std::fma(v[0].f, v[1].f, v[2].f)); }});
  add({"f64_sqrt", [](auto &v) { return F(std::sqrt(v[0].f)); },
       uniformF(d, 0, 1e12)});
  add({"f64_maximumf", [](auto &v) { return F(ieeeMax(v[0].f, v[1].f)); }, withSpecials(d)});
  add({"f64_exp", [](auto &v) { return F(std::exp(v[0].f)); },
       uniformF(d, -50, 50), 4});
  add({"f64_log", [](auto &v) { return F(std::log(v[0].f)); },
       uniformF(d, 1e-6, 1e9), 4, 1e-15});
  add({"f64_fptosi_i64", [](auto &v) { return I(static_cast<int64_t>(v[0].f)); }, uniformF(d, -9e18, 9e18)});
  add({"f64_truncf_f32", [](auto &v) { return F(f32(v[0].f)); },
       uniformF(d, -1e30, 1e30)});

  // f16: arithmetic rounds once to half (exact from float for + * /).
  add({"f16_addf", [](auto &v) { return F(f16(v[0].f + v[1].f)); }});
  add({"f16_mulf", [](auto &v) { return F(f16(v[0].f * v[1].f)); }});
  add({"f16_divf", [](auto &v) {
         return F(f16(static_cast<float>(v[0].f) / static_cast<float>(v[1].f)));
       }});
  add({"f16_maximumf", [](auto &v) { return F(ieeeMax(v[0].f, v[1].f)); }, withSpecials(h)});
  add({"f16_extf_f32", [](auto &v) { return F(v[0].f); },
       withSpecials(h)});
  add({"f16_exp", [](auto &v) { return F(f16(std::exp(v[0].f))); },
       uniformF(h, -8, 8), 1});
  add({"f16_fptosi_i32", [](auto &v) { return I(static_cast<int32_t>(v[0].f)); }, uniformF(h, -60000, 60000)});
  return c;
}

const std::vector<OpCase> &cases() {
  static const std::vector<OpCase> all = allCases();
  return all;
}

//===----------------------------------------------------------------------===//
// Host buffers of any element type
//===----------------------------------------------------------------------===//

using AnyVec = std::variant<std::vector<int32_t>, std::vector<int64_t>, std::vector<Half>,
                            std::vector<float>, std::vector<double>>;

AnyVec toTyped(Ty t, const std::vector<Val> &v) {
  auto conv = [&](auto sample) {
    using T = decltype(sample);
    std::vector<T> out(v.size());
    for (size_t i = 0; i < v.size(); ++i) {
      if constexpr (std::is_same_v<T, Half>)
        out[i] = toHalf(static_cast<float>(v[i].f));
      else if constexpr (std::is_floating_point_v<T>)
        out[i] = static_cast<T>(v[i].f);
      else
        out[i] = static_cast<T>(v[i].i);
    }
    return AnyVec(std::move(out));
  };
  switch (t) {
  case Ty::I32: return conv(int32_t());
  case Ty::I64: return conv(int64_t());
  case Ty::F16: return conv(Half());
  case Ty::F32: return conv(float());
  case Ty::F64: return conv(double());
  }
  return {};
}

struct Layout {
  Blocked layout;
  int block;
  std::string name() const { return layout.name(); }
};

const Layout kLayouts[] = {
    {kernels::e2eElementwiseLayouts()[0].first, kernels::e2eElementwiseLayouts()[0].second},
    {kernels::e2eElementwiseLayouts()[1].first, kernels::e2eElementwiseLayouts()[1].second},
    {kernels::e2eElementwiseLayouts()[2].first, kernels::e2eElementwiseLayouts()[2].second},
};

class Elementwise : public ::testing::TestWithParam<std::tuple<size_t, Layout>> {};

TEST_P(Elementwise, MatchesTheHostReference) {
  E2E_BEGIN();
  const OpCase &c = cases()[std::get<0>(GetParam())];
  const Layout &lay = std::get<1>(GetParam());
  ASSERT_NE(c.op, nullptr) << c.name << " is not in kernels::e2eElementwiseOps()";
  Program p;
  int kid = p.addBuilt(kernels::e2eelementwise::op(*c.op, lay.layout, lay.block).key(S.lanes),
                       "elementwise");
  E2E_READY_UNLESS_KNOWN_BUG(p, c.knownBug);

  const int count = tailSize(rng, lay.block, 4 * lay.block);
  std::vector<std::vector<Val>> inputs(c.ins.size(), std::vector<Val>(count));
  for (size_t a = 0; a < c.ins.size(); ++a)
    for (int i = 0; i < count; ++i)
      inputs[a][i] = c.gen ? c.gen(rng, static_cast<int>(a)) : defaultGen(c.ins[a], rng);
  // What the device sees: the inputs rounded to their types, as the
  // reference must see them too.
  std::vector<Val> want(count);
  for (int i = 0; i < count; ++i) {
    std::vector<Val> args;
    for (size_t a = 0; a < c.ins.size(); ++a) {
      Val v = inputs[a][i];
      if (isFloat(c.ins[a]))
        v.f = roundTo(c.ins[a], v.f);
      args.push_back(v);
    }
    want[i] = c.ref(args);
  }

  std::vector<hd_arg> launchArgs;
  // Buffers live in variants of Buf<T>.
  using AnyBuf_ = std::variant<Buf<int32_t>, Buf<int64_t>, Buf<Half>, Buf<float>, Buf<double>>;
  std::vector<std::unique_ptr<AnyBuf_>> bufs;
  for (size_t a = 0; a < c.ins.size(); ++a) {
    AnyVec typed = toTyped(c.ins[a], inputs[a]);
    std::visit([&](auto &v) { bufs.push_back(std::make_unique<AnyBuf_>(p.input(v))); }, typed);
    std::visit([&](auto &b) { launchArgs.push_back(b.arg()); }, *bufs.back());
  }
  AnyVec wantTyped = toTyped(c.out, want);
  std::visit(
      [&](auto &w) {
        using T = typename std::decay_t<decltype(w)>::value_type;
        bufs.push_back(std::make_unique<AnyBuf_>(p.output<T>(count + 16)));
      },
      wantTyped);
  std::visit([&](auto &b) { launchArgs.push_back(b.arg()); }, *bufs.back());
  launchArgs.push_back(runtime::arg::i32(count));
  std::vector<AnyBuf> outputs;
  std::visit([&](auto &b) { outputs.push_back(io(b)); }, *bufs.back());
  ASSERT_TRUE(p.bufferErrors().empty()) << p.bufferErrors();
  E2E_LAUNCH(p, kid, {ceilDiv(count, lay.block), 1, 1}, launchArgs, outputs);

  std::visit(
      [&](auto &b) {
        using T = std::decay_t<decltype(b.host()[0])>;
        const auto &w = std::get<std::vector<T>>(wantTyped);
        if (c.exactBits && c.ulps == 0)
          expectExact(b.host(), w, c.name);
        else if constexpr (std::is_floating_point_v<T> || std::is_same_v<T, Half>)
          expectClose(b.host(), w, c.ulps, c.absTol, c.name);
        else
          expectExact(b.host(), w, c.name);
        expectPoisoned(b.host(), count, b.size(), "past n");
      },
      *bufs.back());
  if (HasFailure()) {
    std::string firstInputs;
    for (int i = 0; i < std::min(count, 4); ++i) {
      firstInputs += "\n  [" + std::to_string(i) + "]";
      for (size_t a = 0; a < c.ins.size(); ++a)
        firstInputs += " " + (isFloat(c.ins[a]) ? show(roundTo(c.ins[a], inputs[a][i].f))
                                                 : std::to_string(inputs[a][i].i));
    }
    ADD_FAILURE() << "first inputs:" << firstInputs;
  }
}

INSTANTIATE_TEST_SUITE_P(
    Ops, Elementwise,
    ::testing::Combine(::testing::Range<size_t>(0, cases().size()),
                       ::testing::Values(kLayouts[0], kLayouts[1])),
    [](const auto &info) {
      return cases()[std::get<0>(info.param)].name + "_" + std::get<1>(info.param).name();
    });

// A scalar kernel argument splat into the tile, in a third layout, with
// constants folded into dense tensors: out = x * s + 1.5.
TEST(ElementwiseScalars, SplatArgumentAndDenseConstant) {
  E2E_BEGIN();
  const Layout &lay = kLayouts[2];
  Program p;
  int kid = p.addBuilt(kernels::e2eelementwise::axpb(lay.layout, lay.block).key(S.lanes), "axpb");
  E2E_READY(p);
  const int count = tailSize(rng, lay.block, 5 * lay.block);
  std::vector<float> hx = randomVector<float>(rng, count, -10, 10);
  const float scale = randomVector<float>(rng, 1, -3, 3)[0];
  auto bx = p.input(hx);
  auto bo = p.output<float>(count + 8);
  E2E_LAUNCH(p, kid, {ceilDiv(count, lay.block), 1, 1},
             {bx.arg(), bo.arg(), runtime::arg::f32(scale), runtime::arg::i32(count)}, {io(bo)});
  std::vector<float> want(count);
  for (int i = 0; i < count; ++i)
    want[i] = hx[i] * scale + 1.5f;
  // One ULP: a device may fuse the multiply and the add.
  expectClose(bo.host(), want, 1, 0, "x * s + 1.5");
  expectPoisoned(bo.host(), count, bo.size(), "past n");
}

} // namespace
} // namespace hadron::e2e
