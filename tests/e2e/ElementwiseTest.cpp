//===- ElementwiseTest.cpp - arith and math on i32/i64/f16/f32/f64 tiles --===//
//
// One kernel per op and layout: load one to three input tiles (masked, a
// tail past the last full block), apply the op, store. References are plain
// C++ in the op's precision. Integer results and exactly rounded float ops
// (+ - * / fma sqrt, conversions, min/max) must match bit for bit; the
// transcendental functions within a few ULP. Inputs include what the ops
// are picky about: negative operands of division and remainder, shift
// amounts up to the width, NaN and signed zeros for min/max, values that
// round to even in conversions.
//
//===----------------------------------------------------------------------===//

#include "E2E.h"

#include <limits>
#include <variant>

namespace hadron::e2e {
namespace {

enum class Ty { I32, I64, F16, F32, F64 };

const char *irName(Ty t) {
  switch (t) {
  case Ty::I32: return "i32";
  case Ty::I64: return "i64";
  case Ty::F16: return "f16";
  case Ty::F32: return "f32";
  case Ty::F64: return "f64";
  }
  return "?";
}

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
using Body = std::function<std::string(KernelBuilder &, const std::vector<std::string> &args,
                                       const std::vector<std::string> &types,
                                       const std::string &result)>;

struct OpCase {
  std::string name;
  std::vector<Ty> ins;
  Ty out;
  Body body;
  Ref ref;
  Gen gen{};           ///< Empty: the type's default range.
  int64_t ulps = 0;    ///< 0 with exactBits: bit-exact.
  double absTol = 0;
  bool exactBits = true;
  /// A core bug that makes the kernel fail to compile: the test skips with
  /// it until the kernel compiles.
  std::string knownBug{};
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

// Bodies.
Body binary(const std::string &op) {
  return [op](KernelBuilder &k, const std::vector<std::string> &a,
              const std::vector<std::string> &t, const std::string &) {
    return k.let(op + " " + a[0] + ", " + a[1] + " : " + t[0]);
  };
}
Body unary(const std::string &op) {
  return [op](KernelBuilder &k, const std::vector<std::string> &a,
              const std::vector<std::string> &t, const std::string &) {
    return k.let(op + " " + a[0] + " : " + t[0]);
  };
}
Body ternary(const std::string &op) {
  return [op](KernelBuilder &k, const std::vector<std::string> &a,
              const std::vector<std::string> &t, const std::string &) {
    return k.let(op + " " + a[0] + ", " + a[1] + ", " + a[2] + " : " + t[0]);
  };
}
Body cast(const std::string &op) {
  return [op](KernelBuilder &k, const std::vector<std::string> &a,
              const std::vector<std::string> &t, const std::string &r) {
    return k.let(op + " " + a[0] + " : " + t[0] + " to " + r);
  };
}
/// A comparison, widened to i32 (0 or 1) to be stored.
Body compare(const std::string &op, const std::string &pred) {
  return [op, pred](KernelBuilder &k, const std::vector<std::string> &a,
                    const std::vector<std::string> &t, const std::string &r) {
    std::string c = k.let(op + " " + pred + ", " + a[0] + ", " + a[1] + " : " + t[0]);
    std::string boolType = t[0].substr(0, t[0].find('x') + 1) + "i1" +
                           t[0].substr(t[0].find(','));
    return k.let("arith.extui " + c + " : " + boolType + " to " + r);
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

std::vector<OpCase> allCases() {
  std::vector<OpCase> c;
  auto add = [&](OpCase oc) { c.push_back(std::move(oc)); };
  const Ty i32 = Ty::I32, i64 = Ty::I64, h = Ty::F16, s = Ty::F32, d = Ty::F64;

  // i32: wrapping arithmetic, division of every sign, shifts, bit ops, min/max.
  add({"i32_addi", {i32, i32}, i32, binary("arith.addi"),
       [](auto &v) { return I(wrap32(v[0].i + v[1].i)); }});
  add({"i32_subi", {i32, i32}, i32, binary("arith.subi"),
       [](auto &v) { return I(wrap32(v[0].i - v[1].i)); }});
  add({"i32_muli", {i32, i32}, i32, binary("arith.muli"),
       [](auto &v) { return I(wrap32(int64_t(u32(v[0].i) * uint64_t(u32(v[1].i))))); }});
  add({"i32_divsi", {i32, i32}, i32, binary("arith.divsi"),
       [](auto &v) { return I(v[0].i / v[1].i); }, divisionOperands(i32)});
  add({"i32_remsi", {i32, i32}, i32, binary("arith.remsi"),
       [](auto &v) { return I(v[0].i % v[1].i); }, divisionOperands(i32)});
  add({"i32_divui", {i32, i32}, i32, binary("arith.divui"),
       [](auto &v) { return I(wrap32(u32(v[0].i) / u32(v[1].i))); }, divisionOperands(i32)});
  add({"i32_remui", {i32, i32}, i32, binary("arith.remui"),
       [](auto &v) { return I(wrap32(u32(v[0].i) % u32(v[1].i))); }, divisionOperands(i32)});
  add({"i32_floordivsi", {i32, i32}, i32, binary("arith.floordivsi"),
       [](auto &v) { return I(floorDivRef(v[0].i, v[1].i)); }, divisionOperands(i32), 0, 0, true});
  add({"i32_ceildivsi", {i32, i32}, i32, binary("arith.ceildivsi"),
       [](auto &v) { return I(ceilDivRef(v[0].i, v[1].i)); }, divisionOperands(i32), 0, 0, true});
  add({"i32_andi", {i32, i32}, i32, binary("arith.andi"),
       [](auto &v) { return I(v[0].i & v[1].i); }});
  add({"i32_ori", {i32, i32}, i32, binary("arith.ori"), [](auto &v) { return I(v[0].i | v[1].i); }});
  add({"i32_xori", {i32, i32}, i32, binary("arith.xori"),
       [](auto &v) { return I(v[0].i ^ v[1].i); }});
  Gen shift32 = [](std::mt19937_64 &rng, int operand) {
    return operand == 0 ? I(fullI32(rng)) : I(std::uniform_int_distribution<int64_t>(0, 31)(rng));
  };
  add({"i32_shli", {i32, i32}, i32, binary("arith.shli"),
       [](auto &v) { return I(wrap32(int64_t(u32(v[0].i) << v[1].i))); }, shift32});
  add({"i32_shrsi", {i32, i32}, i32, binary("arith.shrsi"),
       [](auto &v) { return I(int32_t(v[0].i) >> v[1].i); }, shift32});
  add({"i32_shrui", {i32, i32}, i32, binary("arith.shrui"),
       [](auto &v) { return I(wrap32(u32(v[0].i) >> v[1].i)); }, shift32});
  add({"i32_minsi", {i32, i32}, i32, binary("arith.minsi"),
       [](auto &v) { return I(std::min(v[0].i, v[1].i)); }});
  add({"i32_maxsi", {i32, i32}, i32, binary("arith.maxsi"),
       [](auto &v) { return I(std::max(v[0].i, v[1].i)); }});
  add({"i32_minui", {i32, i32}, i32, binary("arith.minui"),
       [](auto &v) { return I(wrap32(std::min(u32(v[0].i), u32(v[1].i)))); }});
  add({"i32_maxui", {i32, i32}, i32, binary("arith.maxui"),
       [](auto &v) { return I(wrap32(std::max(u32(v[0].i), u32(v[1].i)))); }});
  add({"i32_absi", {i32}, i32, unary("math.absi"),
       [](auto &v) { return I(wrap32(v[0].i < 0 ? -v[0].i : v[0].i)); }});
  add({"i32_ctpop", {i32}, i32, unary("math.ctpop"),
       [](auto &v) { return I(__builtin_popcount(u32(v[0].i))); }});
  Gen small = smallInts(-50, 50);
  add({"i32_cmpi_slt", {i32, i32}, i32, compare("arith.cmpi", "slt"),
       [](auto &v) { return I(v[0].i < v[1].i); }, small});
  add({"i32_cmpi_ult", {i32, i32}, i32, compare("arith.cmpi", "ult"),
       [](auto &v) { return I(u32(v[0].i) < u32(v[1].i)); }, small});
  add({"i32_cmpi_eq", {i32, i32}, i32, compare("arith.cmpi", "eq"),
       [](auto &v) { return I(v[0].i == v[1].i); }, smallInts(-3, 3)});
  add({"i32_cmpi_sge", {i32, i32}, i32, compare("arith.cmpi", "sge"),
       [](auto &v) { return I(v[0].i >= v[1].i); }, small});
  add({"i32_select", {i32, i32, i32}, i32,
       [](KernelBuilder &k, const std::vector<std::string> &a, const std::vector<std::string> &t,
          const std::string &) {
         std::string c = k.let("arith.cmpi sgt, " + a[0] + ", " + a[1] + " : " + t[0]);
         return k.let("arith.select " + c + ", " + a[2] + ", " + a[0] + " : " +
                      t[0].substr(0, t[0].find('x') + 1) + "i1" + t[0].substr(t[0].find(',')) +
                      ", " + t[0]);
       },
       [](auto &v) { return v[0].i > v[1].i ? v[2] : v[0]; }});
  add({"i32_extsi_i64", {i32}, i64, cast("arith.extsi"), [](auto &v) { return I(v[0].i); }});
  add({"i32_extui_i64", {i32}, i64, cast("arith.extui"),
       [](auto &v) { return I(int64_t(u32(v[0].i))); }});
  add({"i32_sitofp_f32", {i32}, s, cast("arith.sitofp"),
       [](auto &v) { return F(static_cast<float>(int32_t(v[0].i))); }});
  add({"i32_uitofp_f32", {i32}, s, cast("arith.uitofp"),
       [](auto &v) { return F(static_cast<float>(u32(v[0].i))); }});
  add({"i32_sitofp_f64", {i32}, d, cast("arith.sitofp"),
       [](auto &v) { return F(static_cast<double>(v[0].i)); }});
  add({"i32_bitcast_f32", {i32}, s, cast("arith.bitcast"), [](auto &v) {
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
  add({"i64_addi", {i64, i64}, i64, binary("arith.addi"),
       [](auto &v) { return I(int64_t(u64(v[0].i) + u64(v[1].i))); }});
  add({"i64_muli", {i64, i64}, i64, binary("arith.muli"),
       [](auto &v) { return I(int64_t(u64(v[0].i) * u64(v[1].i))); }});
  add({"i64_divsi", {i64, i64}, i64, binary("arith.divsi"),
       [](auto &v) { return I(v[0].i / v[1].i); }, divisionOperands(i64)});
  add({"i64_remsi", {i64, i64}, i64, binary("arith.remsi"),
       [](auto &v) { return I(v[0].i % v[1].i); }, divisionOperands(i64)});
  add({"i64_divui", {i64, i64}, i64, binary("arith.divui"),
       [](auto &v) { return I(int64_t(u64(v[0].i) / u64(v[1].i))); }, divisionOperands(i64)});
  Gen shift64 = [](std::mt19937_64 &rng, int operand) {
    return operand == 0 ? I(fullI64(rng)) : I(std::uniform_int_distribution<int64_t>(0, 63)(rng));
  };
  add({"i64_shli", {i64, i64}, i64, binary("arith.shli"),
       [](auto &v) { return I(int64_t(u64(v[0].i) << v[1].i)); }, shift64});
  add({"i64_shrsi", {i64, i64}, i64, binary("arith.shrsi"),
       [](auto &v) { return I(v[0].i >> v[1].i); }, shift64});
  add({"i64_shrui", {i64, i64}, i64, binary("arith.shrui"),
       [](auto &v) { return I(int64_t(u64(v[0].i) >> v[1].i)); }, shift64});
  add({"i64_maxsi", {i64, i64}, i64, binary("arith.maxsi"),
       [](auto &v) { return I(std::max(v[0].i, v[1].i)); }});
  add({"i64_minui", {i64, i64}, i64, binary("arith.minui"),
       [](auto &v) { return I(int64_t(std::min(u64(v[0].i), u64(v[1].i)))); }});
  add({"i64_trunci_i32", {i64}, i32, cast("arith.trunci"), [](auto &v) { return I(wrap32(v[0].i)); }});
  add({"i64_sitofp_f64", {i64}, d, cast("arith.sitofp"),
       [](auto &v) { return F(static_cast<double>(v[0].i)); }});
  add({"i64_sitofp_f32", {i64}, s, cast("arith.sitofp"),
       [](auto &v) { return F(static_cast<float>(v[0].i)); }});

  // f32: exactly rounded arithmetic.
  add({"f32_addf", {s, s}, s, binary("arith.addf"), [](auto &v) { return F(f32(v[0].f + v[1].f)); }});
  add({"f32_subf", {s, s}, s, binary("arith.subf"), [](auto &v) { return F(f32(v[0].f - v[1].f)); }});
  add({"f32_mulf", {s, s}, s, binary("arith.mulf"), [](auto &v) { return F(f32(v[0].f * v[1].f)); }});
  add({"f32_divf", {s, s}, s, binary("arith.divf"), [](auto &v) {
         return F(static_cast<float>(v[0].f) / static_cast<float>(v[1].f));
       }});
  add({"f32_remf", {s, s}, s, binary("arith.remf"), [](auto &v) {
         return F(std::fmod(static_cast<float>(v[0].f), static_cast<float>(v[1].f)));
       }});
  add({"f32_negf", {s}, s, unary("arith.negf"), [](auto &v) { return F(-v[0].f); }, withSpecials(s)});
  add({"f32_maximumf", {s, s}, s, binary("arith.maximumf"),
       [](auto &v) { return F(ieeeMax(v[0].f, v[1].f)); }, withSpecials(s)});
  add({"f32_minimumf", {s, s}, s, binary("arith.minimumf"),
       [](auto &v) { return F(ieeeMin(v[0].f, v[1].f)); }, withSpecials(s)});
  // maxnum/minnum may give either zero for (-0, +0): compared by value.
  add({"f32_maxnumf", {s, s}, s, binary("arith.maxnumf"),
       [](auto &v) { return F(numMax(v[0].f, v[1].f)); }, withSpecials(s), 0, 0, false});
  add({"f32_minnumf", {s, s}, s, binary("arith.minnumf"),
       [](auto &v) { return F(numMin(v[0].f, v[1].f)); }, withSpecials(s), 0, 0, false});
  add({"f32_cmpf_olt", {s, s}, i32, compare("arith.cmpf", "olt"),
       [](auto &v) { return I(v[0].f < v[1].f); }, withSpecials(s)});
  add({"f32_cmpf_une", {s, s}, i32, compare("arith.cmpf", "une"),
       [](auto &v) { return I(!(v[0].f == v[1].f)); }, withSpecials(s)});
  add({"f32_cmpf_uno", {s, s}, i32, compare("arith.cmpf", "uno"),
       [](auto &v) { return I(nan(v[0]) || nan(v[1])); }, withSpecials(s)});
  add({"f32_cmpf_oge", {s, s}, i32, compare("arith.cmpf", "oge"),
       [](auto &v) { return I(v[0].f >= v[1].f); }, withSpecials(s)});
  add({"f32_fma", {s, s, s}, s, ternary("math.fma"), [](auto &v) {
         return F(std::fma(static_cast<float>(v[0].f), static_cast<float>(v[1].f),
                           static_cast<float>(v[2].f)));
       }});
  add({"f32_sqrt", {s}, s, unary("math.sqrt"), [](auto &v) { return F(std::sqrt(float(v[0].f))); },
       uniformF(s, 0, 1e6)});
  add({"f32_absf", {s}, s, unary("math.absf"), [](auto &v) { return F(std::fabs(v[0].f)); },
       withSpecials(s)});
  add({"f32_floor", {s}, s, unary("math.floor"), [](auto &v) { return F(std::floor(v[0].f)); }});
  add({"f32_ceil", {s}, s, unary("math.ceil"), [](auto &v) { return F(std::ceil(v[0].f)); }});
  add({"f32_trunc", {s}, s, unary("math.trunc"), [](auto &v) { return F(std::trunc(v[0].f)); }});
  add({"f32_round", {s}, s, unary("math.round"), [](auto &v) { return F(std::round(v[0].f)); },
       [](std::mt19937_64 &rng, int) {
         // Halves too: round goes away from zero.
         return F(std::uniform_int_distribution<int>(-200, 200)(rng) * 0.5 +
                  (std::uniform_int_distribution<int>(0, 1)(rng) ? 0.25 : 0));
       }});
  add({"f32_copysign", {s, s}, s, binary("math.copysign"),
       [](auto &v) { return F(std::copysign(v[0].f, v[1].f)); }, withSpecials(s)});
  add({"f32_fptosi_i32", {s}, i32, cast("arith.fptosi"),
       [](auto &v) { return I(static_cast<int32_t>(static_cast<float>(v[0].f))); },
       uniformF(s, -2e9, 2e9)});
  add({"f32_fptoui_i32", {s}, i32, cast("arith.fptoui"),
       [](auto &v) { return I(wrap32(static_cast<uint32_t>(static_cast<float>(v[0].f)))); },
       uniformF(s, 0, 4e9)});
  add({"f32_extf_f64", {s}, d, cast("arith.extf"), [](auto &v) { return F(v[0].f); },
       withSpecials(s)});
  add({"f32_truncf_f16", {s}, h, cast("arith.truncf"), [](auto &v) { return F(f16(v[0].f)); },
       [](std::mt19937_64 &rng, int) {
         // Across the half range, including values that overflow to inf and
         // subnormals.
         double m = std::uniform_real_distribution<double>(-1, 1)(rng);
         int e = std::uniform_int_distribution<int>(-26, 17)(rng);
         return F(f32(std::ldexp(m, e)));
       }});
  // Transcendentals: a few ULP, as device math libraries promise.
  add({"f32_exp", {s}, s, unary("math.exp"), [](auto &v) { return F(f32(std::exp(v[0].f))); },
       uniformF(s, -20, 20), 4});
  add({"f32_exp2", {s}, s, unary("math.exp2"), [](auto &v) { return F(f32(std::exp2(v[0].f))); },
       uniformF(s, -20, 20), 4});
  add({"f32_log", {s}, s, unary("math.log"), [](auto &v) { return F(f32(std::log(v[0].f))); },
       uniformF(s, 1e-3, 1e4), 4, 1e-6});
  add({"f32_log2", {s}, s, unary("math.log2"), [](auto &v) { return F(f32(std::log2(v[0].f))); },
       uniformF(s, 1e-3, 1e4), 4, 1e-6});
  add({"f32_rsqrt", {s}, s, unary("math.rsqrt"),
       [](auto &v) { return F(f32(1.0 / std::sqrt(v[0].f))); }, uniformF(s, 1e-3, 1e4), 4});
  add({"f32_sin", {s}, s, unary("math.sin"), [](auto &v) { return F(f32(std::sin(v[0].f))); },
       uniformF(s, -10, 10), 4, 2e-7});
  add({"f32_cos", {s}, s, unary("math.cos"), [](auto &v) { return F(f32(std::cos(v[0].f))); },
       uniformF(s, -10, 10), 4, 2e-7});
  add({"f32_tanh", {s}, s, unary("math.tanh"), [](auto &v) { return F(f32(std::tanh(v[0].f))); },
       uniformF(s, -6, 6), 4, 1e-7});
  add({"f32_erf", {s}, s, unary("math.erf"), [](auto &v) { return F(f32(std::erf(v[0].f))); },
       uniformF(s, -3, 3), 4, 1e-7});
  add({"f32_powf", {s, s}, s, binary("math.powf"),
       [](auto &v) { return F(f32(std::pow(v[0].f, v[1].f))); },
       [](std::mt19937_64 &rng, int operand) {
         return operand == 0 ? F(f32(std::uniform_real_distribution<double>(0.1, 10)(rng)))
                             : F(f32(std::uniform_real_distribution<double>(-4, 4)(rng)));
       },
       8});
  add({"f32_atan2", {s, s}, s, binary("math.atan2"),
       [](auto &v) { return F(f32(std::atan2(v[0].f, v[1].f))); }, uniformF(s, -10, 10), 4,
       1e-7});

  // f64.
  add({"f64_addf", {d, d}, d, binary("arith.addf"), [](auto &v) { return F(v[0].f + v[1].f); }});
  add({"f64_mulf", {d, d}, d, binary("arith.mulf"), [](auto &v) { return F(v[0].f * v[1].f); }});
  add({"f64_divf", {d, d}, d, binary("arith.divf"), [](auto &v) { return F(v[0].f / v[1].f); }});
  add({"f64_fma", {d, d, d}, d, ternary("math.fma"),
       [](auto &v) { return F(std::fma(v[0].f, v[1].f, v[2].f)); }});
  add({"f64_sqrt", {d}, d, unary("math.sqrt"), [](auto &v) { return F(std::sqrt(v[0].f)); },
       uniformF(d, 0, 1e12)});
  add({"f64_maximumf", {d, d}, d, binary("arith.maximumf"),
       [](auto &v) { return F(ieeeMax(v[0].f, v[1].f)); }, withSpecials(d)});
  add({"f64_exp", {d}, d, unary("math.exp"), [](auto &v) { return F(std::exp(v[0].f)); },
       uniformF(d, -50, 50), 4});
  add({"f64_log", {d}, d, unary("math.log"), [](auto &v) { return F(std::log(v[0].f)); },
       uniformF(d, 1e-6, 1e9), 4, 1e-15});
  add({"f64_fptosi_i64", {d}, i64, cast("arith.fptosi"),
       [](auto &v) { return I(static_cast<int64_t>(v[0].f)); }, uniformF(d, -9e18, 9e18)});
  add({"f64_truncf_f32", {d}, s, cast("arith.truncf"), [](auto &v) { return F(f32(v[0].f)); },
       uniformF(d, -1e30, 1e30)});

  // f16: arithmetic rounds once to half (exact from float for + * /).
  add({"f16_addf", {h, h}, h, binary("arith.addf"), [](auto &v) { return F(f16(v[0].f + v[1].f)); }});
  add({"f16_mulf", {h, h}, h, binary("arith.mulf"), [](auto &v) { return F(f16(v[0].f * v[1].f)); }});
  add({"f16_divf", {h, h}, h, binary("arith.divf"), [](auto &v) {
         return F(f16(static_cast<float>(v[0].f) / static_cast<float>(v[1].f)));
       }});
  add({"f16_maximumf", {h, h}, h, binary("arith.maximumf"),
       [](auto &v) { return F(ieeeMax(v[0].f, v[1].f)); }, withSpecials(h)});
  add({"f16_extf_f32", {h}, s, cast("arith.extf"), [](auto &v) { return F(v[0].f); },
       withSpecials(h)});
  add({"f16_exp", {h}, h, unary("math.exp"), [](auto &v) { return F(f16(std::exp(v[0].f))); },
       uniformF(h, -8, 8), 1});
  add({"f16_fptosi_i32", {h}, i32, cast("arith.fptosi"),
       [](auto &v) { return I(static_cast<int32_t>(v[0].f)); }, uniformF(h, -60000, 60000)});
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
    {{{4}, {32}, {4}, {0}}, 512},
    {{{1}, {32}, {8}, {0}}, 256},
    {{{2}, {32}, {1}, {0}}, 128},
};

class Elementwise : public ::testing::TestWithParam<std::tuple<size_t, Layout>> {};

TEST_P(Elementwise, MatchesTheHostReference) {
  E2E_BEGIN();
  const OpCase &c = cases()[std::get<0>(GetParam())];
  const Layout &lay = std::get<1>(GetParam());
  KernelBuilder k("elementwise", lay.layout.numWarps());
  std::string l = k.layout("l", lay.layout.str(S.lanes));
  std::vector<std::string> ptrArgs, tiles, types;
  for (Ty t : c.ins)
    ptrArgs.push_back(k.arg(std::string("!hd.ptr<") + irName(t) + ">"));
  std::string out = k.arg(std::string("!hd.ptr<") + irName(c.out) + ">");
  std::string n = k.arg("i32");
  std::string start =
      k.let("arith.muli " + k.let("hd.program_id 0") + ", " + k.constI32(lay.block) + " : i32");
  auto t = k.tile1d(lay.block, l, start, n);
  for (size_t i = 0; i < c.ins.size(); ++i) {
    std::string e = irName(c.ins[i]);
    types.push_back(tensor({lay.block}, e, l));
    // Masked-off elements read 1: a division by what a masked load leaves
    // undefined may trap (integer division does on x86).
    std::string one = k.let("arith.constant dense<" +
                            std::string(isFloat(c.ins[i]) ? "1.0" : "1") + "> : " + types.back());
    tiles.push_back(k.let("hd.load " + k.pointers(ptrArgs[i], e, t.offsets, {lay.block}, l) +
                          " mask " + t.mask + " other " + one + " : " +
                          tensor({lay.block}, "!hd.ptr<" + e + ">", l)));
  }
  std::string result = c.body(k, tiles, types, tensor({lay.block}, irName(c.out), l));
  k.line("hd.store " + k.pointers(out, irName(c.out), t.offsets, {lay.block}, l) + ", " + result +
         " mask " + t.mask + " : " +
         tensor({lay.block}, std::string("!hd.ptr<") + irName(c.out) + ">", l));

  Program p;
  int kid = p.add(k);
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
  KernelBuilder k("axpb", lay.layout.numWarps());
  std::string l = k.layout("l", lay.layout.str(S.lanes));
  std::string x = k.arg("!hd.ptr<f32>"), out = k.arg("!hd.ptr<f32>"), sc = k.arg("f32");
  std::string n = k.arg("i32");
  std::string start =
      k.let("arith.muli " + k.let("hd.program_id 0") + ", " + k.constI32(lay.block) + " : i32");
  auto t = k.tile1d(lay.block, l, start, n);
  std::string tf = tensor({lay.block}, "f32", l), pt = tensor({lay.block}, "!hd.ptr<f32>", l);
  std::string v = k.let("hd.load " + k.pointers(x, "f32", t.offsets, {lay.block}, l) + " mask " +
                        t.mask + " : " + pt);
  std::string m = k.let("arith.mulf " + v + ", " + k.splat(sc, tf) + " : " + tf);
  std::string r = k.let("arith.addf " + m + ", " + k.let("arith.constant dense<1.5> : " + tf) +
                        " : " + tf);
  k.line("hd.store " + k.pointers(out, "f32", t.offsets, {lay.block}, l) + ", " + r + " mask " +
         t.mask + " : " + pt);
  Program p;
  int kid = p.add(k);
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
