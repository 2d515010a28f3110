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
//===----------------------------------------------------------------------===//

#include "Common.h"

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

/// `op` on every operand with the fast-math flags `flags`.
Body fastMathOp(const std::string &op, const std::string &flags) {
  return [op, flags](Kernel &k, const std::vector<std::string> &a,
                     const std::vector<std::string> &t, const std::string &) {
    std::string operands = a[0];
    for (size_t i = 1; i < a.size(); ++i)
      operands += ", " + a[i];
    return k.let(op + " " + operands + " fastmath<" + flags + "> : " + t[0]);
  };
}

/// Operand 0 over the full range, operand 1 a shift amount in [0, width).
std::function<V(Env &, int)> shiftOperands(Elem e) {
  return [e](Env &env, int k) {
    return k == 0 ? defaultValue(env, e) : I(env.uniformInt(0, bitWidth(e) - 1));
  };
}

/// A shift whose amount may reach 2 * width: `amount >= width` selects what
/// C compilers for GPUs and Triton define (0 for shl/shrui, the sign for
/// shrsi), the shift itself only sees amounts below the width.
Body guardedShift(const std::string &op, Elem e) {
  return [op, e](Kernel &k, const std::vector<std::string> &a, const std::vector<std::string> &t,
                 const std::string &) {
    const std::string w = std::to_string(bitWidth(e));
    std::string width = k.dense(w, t[0]);
    std::string past = k.let("arith.cmpi uge, " + a[1] + ", " + width + " : " + t[0]);
    std::string wm1 = k.dense(std::to_string(bitWidth(e) - 1), t[0]);
    std::string amount = k.let("arith.andi " + a[1] + ", " + wm1 + " : " + t[0]);
    std::string shifted = k.let(op + " " + a[0] + ", " + amount + " : " + t[0]);
    std::string beyond = op == "arith.shrsi" ? k.let("arith.shrsi " + a[0] + ", " + wm1 + " : " + t[0])
                                             : k.dense("0", t[0]);
    return k.let("arith.select " + past + ", " + beyond + ", " + shifted + " : " +
                 withElem(t[0], "i1") + ", " + t[0]);
  };
}

void intCases(std::vector<Case> &cases, Elem e, size_t &rot) {
  const std::string tn = irName(e);
  auto add = [&](const std::string &op, Elementwise ew) {
    const Blocked layout = layouts1d()[rot++ % layouts1d().size()];
    std::string name = "ew." + tn + "." + op;
    cases.push_back({name, [ew, layout, op](Env &env) {
                       return elementwisePlan(env, ew, layout, "ew_" + op);
                     }});
  };
  const int w = bitWidth(e);
  auto wrap = [e](int64_t v) { return I(wrapTo(e, v)); };
  auto uw = [e](uint64_t v) { return I(wrapTo(e, static_cast<int64_t>(v))); };
  add("addi", {{e, e}, e, binaryOp("arith.addi"),
               [e, wrap](auto &v) { return wrap(static_cast<int64_t>(u(e, v[0].i) + u(e, v[1].i))); }});
  add("subi", {{e, e}, e, binaryOp("arith.subi"),
               [e, wrap](auto &v) { return wrap(static_cast<int64_t>(u(e, v[0].i) - u(e, v[1].i))); }});
  add("muli", {{e, e}, e, binaryOp("arith.muli"),
               [e, wrap](auto &v) { return wrap(static_cast<int64_t>(u(e, v[0].i) * u(e, v[1].i))); }});
  add("divsi", {{e, e}, e, binaryOp("arith.divsi"), [](auto &v) { return I(v[0].i / v[1].i); },
                divisionOperands(e)});
  add("remsi", {{e, e}, e, binaryOp("arith.remsi"), [](auto &v) { return I(v[0].i % v[1].i); },
                divisionOperands(e)});
  add("divui", {{e, e}, e, binaryOp("arith.divui"),
                [e, uw](auto &v) { return uw(u(e, v[0].i) / u(e, v[1].i)); }, divisionOperands(e)});
  add("remui", {{e, e}, e, binaryOp("arith.remui"),
                [e, uw](auto &v) { return uw(u(e, v[0].i) % u(e, v[1].i)); }, divisionOperands(e)});
  add("andi", {{e, e}, e, binaryOp("arith.andi"), [](auto &v) { return I(v[0].i & v[1].i); }});
  add("xori", {{e, e}, e, binaryOp("arith.xori"), [](auto &v) { return I(v[0].i ^ v[1].i); }});
  add("shli", {{e, e}, e, binaryOp("arith.shli"),
               [e, uw](auto &v) { return uw(u(e, v[0].i) << v[1].i); }, shiftOperands(e)});
  add("shrsi", {{e, e}, e, binaryOp("arith.shrsi"), [](auto &v) { return I(v[0].i >> v[1].i); },
                shiftOperands(e)});
  add("shrui", {{e, e}, e, binaryOp("arith.shrui"),
                [e, uw](auto &v) { return uw(u(e, v[0].i) >> v[1].i); }, shiftOperands(e)});
  auto pastWidth = [e, w](Env &env, int k) {
    return k == 0 ? defaultValue(env, e) : I(env.uniformInt(0, 2 * w));
  };
  add("shli_past_width", {{e, e}, e, guardedShift("arith.shli", e),
                          [e, uw, w](auto &v) {
                            return u(e, v[1].i) >= uint64_t(w) ? I(0) : uw(u(e, v[0].i) << v[1].i);
                          },
                          pastWidth});
  add("shrsi_past_width", {{e, e}, e, guardedShift("arith.shrsi", e),
                           [w](auto &v) { return I(v[0].i >> std::min<int64_t>(v[1].i, w - 1)); },
                           pastWidth});
  add("shrui_past_width", {{e, e}, e, guardedShift("arith.shrui", e),
                           [e, uw, w](auto &v) {
                             return u(e, v[1].i) >= uint64_t(w) ? I(0) : uw(u(e, v[0].i) >> v[1].i);
                           },
                           pastWidth});
  add("minsi", {{e, e}, e, binaryOp("arith.minsi"), [](auto &v) { return I(std::min(v[0].i, v[1].i)); }});
  add("maxui", {{e, e}, e, binaryOp("arith.maxui"),
                [e, uw](auto &v) { return uw(std::max(u(e, v[0].i), u(e, v[1].i))); }});
  add("cmpi_slt", {{e, e}, Elem::I32, compareOp("arith.cmpi", "slt"),
                   [](auto &v) { return I(v[0].i < v[1].i); },
                   [](Env &env, int) { return I(env.uniformInt(-50, 50)); }});
  add("cmpi_ugt", {{e, e}, Elem::I32, compareOp("arith.cmpi", "ugt"),
                   [e](auto &v) { return I(u(e, v[0].i) > u(e, v[1].i)); },
                   [](Env &env, int) { return I(env.uniformInt(-50, 50)); }});
}

void floatCases(std::vector<Case> &cases, Elem e, size_t &rot, bool full) {
  const std::string tn = irName(e);
  auto add = [&](const std::string &op, Elementwise ew) {
    const Blocked layout = layouts1d()[rot++ % layouts1d().size()];
    cases.push_back({"ew." + tn + "." + op, [ew, layout, op](Env &env) {
                       return elementwisePlan(env, ew, layout, "ew_" + op);
                     }});
  };
  auto r = [e](double v) { return F(roundTo(e, v)); };
  // Narrow types compute exactly in float and round once: that is their
  // correctly rounded result for + - * / and sqrt.
  auto nf = [e](double v) { return e == Elem::F64 ? v : static_cast<double>(static_cast<float>(v)); };
  auto specials = [e](Env &env, int) { return withSpecials(env, e); };
  auto range = [e](double lo, double hi) {
    return [e, lo, hi](Env &env, int) { return F(roundTo(e, env.uniform(lo, hi))); };
  };
  add("addf", {{e, e}, e, binaryOp("arith.addf"), [=](auto &v) { return r(nf(v[0].f + v[1].f)); }});
  add("subf", {{e, e}, e, binaryOp("arith.subf"), [=](auto &v) { return r(nf(v[0].f - v[1].f)); }});
  add("mulf", {{e, e}, e, binaryOp("arith.mulf"), [=](auto &v) { return r(nf(v[0].f * v[1].f)); }});
  add("divf", {{e, e}, e, binaryOp("arith.divf"),
               [=](auto &v) {
                 return e == Elem::F64 ? F(v[0].f / v[1].f)
                                       : r(static_cast<float>(v[0].f) / static_cast<float>(v[1].f));
               }});
  add("maximumf_nan", {{e, e}, e, binaryOp("arith.maximumf"),
                       [](auto &v) { return F(ieeeMax(v[0].f, v[1].f)); }, specials});
  add("minimumf_nan", {{e, e}, e, binaryOp("arith.minimumf"),
                       [](auto &v) { return F(ieeeMin(v[0].f, v[1].f)); }, specials});
  // maxnum/minnum may pick either zero for (-0, +0): compared by value.
  add("maxnumf_nan", {{e, e}, e, binaryOp("arith.maxnumf"),
                      [](auto &v) { return F(numMax(v[0].f, v[1].f)); }, specials,
                      Tolerance::value()});
  add("minnumf_nan", {{e, e}, e, binaryOp("arith.minnumf"),
                      [](auto &v) { return F(numMin(v[0].f, v[1].f)); }, specials,
                      Tolerance::value()});
  add("negf", {{e}, e, unaryOp("arith.negf"), [](auto &v) { return F(-v[0].f); }, specials});
  add("absf", {{e}, e, unaryOp("math.absf"), [](auto &v) { return F(std::fabs(v[0].f)); }, specials});
  add("cmpf_olt", {{e, e}, Elem::I32, compareOp("arith.cmpf", "olt"),
                   [](auto &v) { return I(v[0].f < v[1].f); }, specials});
  add("cmpf_uno", {{e, e}, Elem::I32, compareOp("arith.cmpf", "uno"),
                   [](auto &v) { return I(std::isnan(v[0].f) || std::isnan(v[1].f)); }, specials});
  if (!full)
    return;
  add("sqrt", {{e}, e, unaryOp("math.sqrt"),
               [=](auto &v) { return e == Elem::F64 ? F(std::sqrt(v[0].f)) : r(std::sqrt(float(v[0].f))); },
               range(0, 1e4)});
  add("fma", {{e, e, e}, e, ternaryOp("math.fma"),
              [=](auto &v) {
                return e == Elem::F64 ? F(std::fma(v[0].f, v[1].f, v[2].f))
                                      : r(std::fma(float(v[0].f), float(v[1].f), float(v[2].f)));
              }});
  add("floor", {{e}, e, unaryOp("math.floor"), [](auto &v) { return F(std::floor(v[0].f)); }});
  add("ceil", {{e}, e, unaryOp("math.ceil"), [](auto &v) { return F(std::ceil(v[0].f)); }});
  add("exp", {{e}, e, unaryOp("math.exp"), [=](auto &v) { return r(std::exp(v[0].f)); },
              range(-20, 20), Tolerance::ulp(4)});
  add("log", {{e}, e, unaryOp("math.log"), [=](auto &v) { return r(std::log(v[0].f)); },
              range(1e-3, 1e4), Tolerance::ulp(4, 1e-6)});
  add("sin", {{e}, e, unaryOp("math.sin"), [=](auto &v) { return r(std::sin(v[0].f)); },
              range(-10, 10), Tolerance::ulp(4, 2e-7)});
  add("tanh", {{e}, e, unaryOp("math.tanh"), [=](auto &v) { return r(std::tanh(v[0].f)); },
               range(-6, 6), Tolerance::ulp(4, 1e-7)});
}

/// afn lets a target approximate f32 exp, exp2, log, rsqrt and divf
/// (docs/ir.md, "Fast math"): each case allows the bound of the
/// approximation NVIDIA uses, which the CUDA C++ Programming Guide gives for
/// __expf (2 + 1.173 |x| ulp: 13 on [-10, 10]), exp2f, rsqrtf (2 ulp) and
/// __logf (3 ulp, 2^-21.41 absolute on [0.5, 2]), and the PTX ISA for
/// div.full (2 ulp). After the other cases, so that their layouts stay.
void fastMathCases(std::vector<Case> &cases, size_t &rot) {
  const Elem e = Elem::F32;
  auto add = [&](const std::string &op, Elementwise ew) {
    const Blocked layout = layouts1d()[rot++ % layouts1d().size()];
    cases.push_back({"ew.f32." + op, [ew, layout, op](Env &env) {
                       return elementwisePlan(env, ew, layout, "ew_" + op);
                     }});
  };
  auto r = [e](double v) { return F(roundTo(e, v)); };
  auto range = [e](double lo, double hi) {
    return [e, lo, hi](Env &env, int) { return F(roundTo(e, env.uniform(lo, hi))); };
  };
  add("exp_afn", {{e}, e, fastMathOp("math.exp", "afn"),
                  [=](auto &v) { return r(std::exp(v[0].f)); }, range(-10, 10), Tolerance::ulp(13)});
  add("exp2_afn", {{e}, e, fastMathOp("math.exp2", "afn"),
                   [=](auto &v) { return r(std::exp2(v[0].f)); }, range(-20, 20),
                   Tolerance::ulp(2)});
  add("log_afn", {{e}, e, fastMathOp("math.log", "afn"),
                  [=](auto &v) { return r(std::log(v[0].f)); }, range(1e-3, 1e4),
                  Tolerance::ulp(3, 4e-7)});
  add("rsqrt_afn", {{e}, e, fastMathOp("math.rsqrt", "afn"),
                    [=](auto &v) { return r(1 / std::sqrt(v[0].f)); }, range(1e-3, 1e4),
                    Tolerance::ulp(2)});
  add("divf_afn", {{e, e}, e, fastMathOp("arith.divf", "afn"),
                   [=](auto &v) { return r(v[0].f / v[1].f); }, {}, Tolerance::ulp(2)});
}

} // namespace

void addElementwiseCases(std::vector<Case> &cases) {
  size_t rot = 0;
  for (Elem e : {Elem::I8, Elem::I16, Elem::I32, Elem::I64})
    intCases(cases, e, rot);
  floatCases(cases, Elem::F32, rot, true);
  floatCases(cases, Elem::F64, rot, true);
  floatCases(cases, Elem::F16, rot, false);
  floatCases(cases, Elem::BF16, rot, false);
  fastMathCases(cases, rot);
}

} // namespace hadron::conformance
