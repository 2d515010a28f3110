//===- Elementwise.cpp - arith and math on i8..i64, f16, bf16, f32, f64 --===//
//
// One case per op and type (ew.<type>.<op>), each on one of the 1-D layouts
// in turn. Integer results and correctly rounded float ops must match bit
// for bit; transcendental functions within a few ULP. Inputs include what
// the ops are picky about: negative operands of division and remainder
// (C semantics: the quotient truncates toward zero, the remainder takes the
// dividend's sign), full-range operands whose sums and products wrap, shift
// amounts up to and past the width (guarded the way a front end guards
// them, since arith leaves those undefined), NaN, infinities and signed
// zeros for min/max.
//
// The kernels are the kernel library's (tests/kernels/Elementwise.h, written
// with the C++ builder; the suite links no MLIR), which also fixes the
// cases' order and layouts. Here: each op's reference, operands and
// tolerance.
//
//===----------------------------------------------------------------------===//

#include "Common.h"

#include "kernels/Elementwise.h"

#include <map>

namespace hadron::conformance {

namespace {

uint64_t mask(Elem e) { return bitWidth(e) == 64 ? ~0ull : (1ull << bitWidth(e)) - 1; }
uint64_t u(Elem e, int64_t v) { return static_cast<uint64_t>(v) & mask(e); }

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
double numMax(double a, double b) { return std::isnan(a) ? b : std::isnan(b) ? a : std::fmax(a, b); }
double numMin(double a, double b) { return std::isnan(a) ? b : std::isnan(b) ? a : std::fmin(a, b); }

/// Division operands: small ones often (quotients of every sign), never a
/// zero divisor, never MIN / -1.
std::function<V(Env &, int)> divisionOperands(Elem e) {
  return [e](Env &env, int k) {
    int64_t v;
    do {
      switch (env.uniformInt(0, 3)) {
      case 0: v = env.uniformInt(-20, 20); break;
      case 1: v = wrapTo(e, env.uniformInt(-100000, 100000)); break;
      default: v = defaultValue(env, e).i;
      }
    } while (k == 1 && (v == 0 || v == -1));
    return I(v);
  };
}

/// Operand 0 over the full range, operand 1 a shift amount in [0, width).
std::function<V(Env &, int)> shiftOperands(Elem e) {
  return [e](Env &env, int k) {
    return k == 0 ? defaultValue(env, e) : I(env.uniformInt(0, bitWidth(e) - 1));
  };
}

/// What a case checks: the reference, the operands and the tolerance of
/// the element type's op.
struct Reference {
  std::function<V(const std::vector<V> &)> ref;
  std::function<V(Env &, int k)> gen{};
  Tolerance tol{};
};
using References = std::map<std::string, Reference>;

void addIntChecks(References &c, Elem e) {
  const int w = bitWidth(e);
  auto wrap = [e](int64_t v) { return I(wrapTo(e, v)); };
  auto uw = [e](uint64_t v) { return I(wrapTo(e, static_cast<int64_t>(v))); };
  c["addi"] = {[e, wrap](auto &v) { return wrap(static_cast<int64_t>(u(e, v[0].i) + u(e, v[1].i))); }};
  c["subi"] = {[e, wrap](auto &v) { return wrap(static_cast<int64_t>(u(e, v[0].i) - u(e, v[1].i))); }};
  c["muli"] = {[e, wrap](auto &v) { return wrap(static_cast<int64_t>(u(e, v[0].i) * u(e, v[1].i))); }};
  c["divsi"] = {[](auto &v) { return I(v[0].i / v[1].i); },
                divisionOperands(e)};
  c["remsi"] = {[](auto &v) { return I(v[0].i % v[1].i); },
                divisionOperands(e)};
  c["divui"] = {[e, uw](auto &v) { return uw(u(e, v[0].i) / u(e, v[1].i)); }, divisionOperands(e)};
  c["remui"] = {[e, uw](auto &v) { return uw(u(e, v[0].i) % u(e, v[1].i)); }, divisionOperands(e)};
  c["andi"] = {[](auto &v) { return I(v[0].i & v[1].i); }};
  c["xori"] = {[](auto &v) { return I(v[0].i ^ v[1].i); }};
  c["shli"] = {[e, uw](auto &v) { return uw(u(e, v[0].i) << v[1].i); }, shiftOperands(e)};
  c["shrsi"] = {[](auto &v) { return I(v[0].i >> v[1].i); },
                shiftOperands(e)};
  c["shrui"] = {[e, uw](auto &v) { return uw(u(e, v[0].i) >> v[1].i); }, shiftOperands(e)};
  auto pastWidth = [e, w](Env &env, int k) {
    return k == 0 ? defaultValue(env, e) : I(env.uniformInt(0, 2 * w));
  };
  c["shli_past_width"] = {[e, uw, w](auto &v) {
                            return u(e, v[1].i) >= uint64_t(w) ? I(0) : uw(u(e, v[0].i) << v[1].i);
                          },
                          pastWidth};
  c["shrsi_past_width"] = {[w](auto &v) { return I(v[0].i >> std::min<int64_t>(v[1].i, w - 1)); },
                           pastWidth};
  c["shrui_past_width"] = {[e, uw, w](auto &v) {
                             return u(e, v[1].i) >= uint64_t(w) ? I(0) : uw(u(e, v[0].i) >> v[1].i);
                           },
                           pastWidth};
  c["minsi"] = {[](auto &v) { return I(std::min(v[0].i, v[1].i)); }};
  c["maxui"] = {[e, uw](auto &v) { return uw(std::max(u(e, v[0].i), u(e, v[1].i))); }};
  c["cmpi_slt"] = {[](auto &v) { return I(v[0].i < v[1].i); },
                   [](Env &env, int) { return I(env.uniformInt(-50, 50)); }};
  c["cmpi_ugt"] = {[e](auto &v) { return I(u(e, v[0].i) > u(e, v[1].i)); },
                   [](Env &env, int) { return I(env.uniformInt(-50, 50)); }};
}

/// The math functions' checks come only with `full` (f32 and f64).
void addFloatChecks(References &c, Elem e, bool full) {
  auto r = [e](double v) { return F(roundTo(e, v)); };
  // Narrow types compute exactly in float and round once: that is their
  // correctly rounded result for + - * / and sqrt.
  auto nf = [e](double v) { return e == Elem::F64 ? v : static_cast<double>(static_cast<float>(v)); };
  auto specials = [e](Env &env, int) { return withSpecials(env, e); };
  auto range = [e](double lo, double hi) {
    return [e, lo, hi](Env &env, int) { return F(roundTo(e, env.uniform(lo, hi))); };
  };
  c["addf"] = {[=](auto &v) { return r(nf(v[0].f + v[1].f)); }};
  c["subf"] = {[=](auto &v) { return r(nf(v[0].f - v[1].f)); }};
  c["mulf"] = {[=](auto &v) { return r(nf(v[0].f * v[1].f)); }};
  c["divf"] = {[=](auto &v) {
                 return e == Elem::F64 ? F(v[0].f / v[1].f)
                                       : r(static_cast<float>(v[0].f) / static_cast<float>(v[1].f));
               }};
  c["maximumf_nan"] = {[](auto &v) { return F(ieeeMax(v[0].f, v[1].f)); }, specials};
  c["minimumf_nan"] = {[](auto &v) { return F(ieeeMin(v[0].f, v[1].f)); }, specials};
  // maxnum/minnum may pick either zero for (-0, +0): compared by value.
  c["maxnumf_nan"] = {[](auto &v) { return F(numMax(v[0].f, v[1].f)); }, specials,
                      Tolerance::value()};
  c["minnumf_nan"] = {[](auto &v) { return F(numMin(v[0].f, v[1].f)); }, specials,
                      Tolerance::value()};
  c["negf"] = {[](auto &v) { return F(-v[0].f); }, specials};
  c["absf"] = {[](auto &v) { return F(std::fabs(v[0].f)); }, specials};
  c["cmpf_olt"] = {[](auto &v) { return I(v[0].f < v[1].f); }, specials};
  c["cmpf_uno"] = {[](auto &v) { return I(std::isnan(v[0].f) || std::isnan(v[1].f)); }, specials};
  if (!full)
    return;
  c["sqrt"] = {[=](auto &v) { return e == Elem::F64 ? F(std::sqrt(v[0].f)) : r(std::sqrt(float(v[0].f))); },
               range(0, 1e4)};
  c["fma"] = {[=](auto &v) {
                return e == Elem::F64 ? F(std::fma(v[0].f, v[1].f, v[2].f))
                                      : r(std::fma(float(v[0].f), float(v[1].f), float(v[2].f)));
              }};
  c["floor"] = {[](auto &v) { return F(std::floor(v[0].f)); }};
  c["ceil"] = {[](auto &v) { return F(std::ceil(v[0].f)); }};
  c["exp"] = {[=](auto &v) { return r(std::exp(v[0].f)); },
              range(-20, 20), Tolerance::ulp(4)};
  c["log"] = {[=](auto &v) { return r(std::log(v[0].f)); },
              range(1e-3, 1e4), Tolerance::ulp(4, 1e-6)};
  c["sin"] = {[=](auto &v) { return r(std::sin(v[0].f)); },
              range(-10, 10), Tolerance::ulp(4, 2e-7)};
  c["tanh"] = {[=](auto &v) { return r(std::tanh(v[0].f)); },
               range(-6, 6), Tolerance::ulp(4, 1e-7)};
}

/// afn lets a target approximate f32 exp, exp2, log, rsqrt and divf
/// (docs/ir.md, "Fast math"): each case allows the bound of the
/// approximation NVIDIA uses, which the CUDA C++ Programming Guide gives for
/// __expf (2 + 1.173 |x| ulp: 13 on [-10, 10]), exp2f, rsqrtf (2 ulp) and
/// __logf (3 ulp, 2^-21.41 absolute on [0.5, 2]), and the PTX ISA for
/// div.full (2 ulp).
void addFastMathChecks(References &c) {
  const Elem e = Elem::F32;
  auto r = [e](double v) { return F(roundTo(e, v)); };
  auto range = [e](double lo, double hi) {
    return [e, lo, hi](Env &env, int) { return F(roundTo(e, env.uniform(lo, hi))); };
  };
  c["exp_afn"] = {[=](auto &v) { return r(std::exp(v[0].f)); }, range(-10, 10), Tolerance::ulp(13)};
  c["exp2_afn"] = {[=](auto &v) { return r(std::exp2(v[0].f)); }, range(-20, 20),
                   Tolerance::ulp(2)};
  c["log_afn"] = {[=](auto &v) { return r(std::log(v[0].f)); }, range(1e-3, 1e4),
                  Tolerance::ulp(3, 4e-7)};
  c["rsqrt_afn"] = {[=](auto &v) { return r(1 / std::sqrt(v[0].f)); }, range(1e-3, 1e4),
                    Tolerance::ulp(2)};
  c["divf_afn"] = {[=](auto &v) { return r(v[0].f / v[1].f); }, {}, Tolerance::ulp(2)};
  // hd.polynomial_share: relative error 1.02e-4 (1712 ulp) on the
  // polynomial's registers, absolute 2^-126 below -126; the whole range,
  // +0 below -127 and +inf from 128 on included. exp adds the rounding of
  // x log2 e (1.173 |x| ulp, 12 on [-10, 10]).
  c["exp2_poly"] = {[=](auto &v) { return r(std::exp2(v[0].f)); }, range(-150, 130),
                    Tolerance::ulp(1712, 0x1p-126)};
  c["exp_poly_half"] = {[=](auto &v) { return r(std::exp(v[0].f)); }, range(-10, 10),
                        Tolerance::ulp(1724)};
}

/// Every case's check, by case name.
const References &checks() {
  static const References all = [] {
    References all;
    auto addFor = [&all](Elem e, const std::function<void(References &)> &add) {
      References c;
      add(c);
      for (auto &[op, check] : c)
        all["ew." + std::string(irName(e)) + "." + op] = std::move(check);
    };
    for (Elem e : {Elem::I8, Elem::I16, Elem::I32, Elem::I64})
      addFor(e, [e](References &c) { addIntChecks(c, e); });
    for (Elem e : {Elem::F32, Elem::F64, Elem::F16, Elem::BF16})
      addFor(e, [e](References &c) { addFloatChecks(c, e, e == Elem::F32 || e == Elem::F64); });
    addFor(Elem::F32, addFastMathChecks);
    return all;
  }();
  return all;
}

} // namespace

void addElementwiseCases(std::vector<Case> &cases) {
  for (const kernels::ElementwiseUse &use : kernels::elementwiseUses()) {
    auto it = checks().find(use.name);
    if (it == checks().end()) {
      cases.push_back(unchecked(use.name, use.kernel, "conformance/cases/Elementwise.cpp"));
      continue;
    }
    Elementwise ew{use.ins, use.out, it->second.ref, it->second.gen, it->second.tol};
    cases.push_back({use.name, [ew, use](Env &env) { return elementwisePlan(env, ew, use); }});
  }
}

} // namespace hadron::conformance
