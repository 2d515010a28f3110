//===- ReduceScan.cpp - reduce and scan along each axis and layout -------===//
//
// reduce.<op>.<type>.axis<A>.<layout> and scan.*: a masked [M, N] tile (the
// lanes past the matrix read the combine's identity through `other`),
// reduced or scanned along A with a combine region. Sums of floats are
// compared by relative norm (the order of a parallel sum is the target's);
// max/min, integer sums and argmax are exact. argmax draws many ties and
// must return the first index of the maximum; custom combines (sum of
// absolute values, xor) are user regions, not a built-in kind. The kernels
// are the kernel library's (tests/kernels/ReduceScan.h, written with the
// C++ builder), which also fixes the cases' order; here are the inputs and
// references.
//
//===----------------------------------------------------------------------===//

#include "Common.h"

namespace hadron::conformance {

namespace {

/// A combine's reference (the kernel library has its region and identity).
struct Combine {
  std::string name;
  Elem elem;
  std::function<double(double, double)> ref;
  Tolerance tol;
  /// Integers: the reference in int64 (a double would round i64 values).
  std::function<int64_t(int64_t, int64_t)> iref{};
};

Combine simple(const std::string &name, Elem e, std::function<double(double, double)> ref,
               Tolerance tol = {}) {
  return {name, e, std::move(ref), tol};
}

double wrap32(double v) { return static_cast<double>(wrapTo(Elem::I32, static_cast<int64_t>(v))); }

const Combine &combine(const std::string &name) {
  static const std::vector<Combine> all = [] {
    std::vector<Combine> c;
    c.push_back(simple("sum.i32", Elem::I32, [](double a, double b) { return wrap32(a + b); }));
    c.back().iref = [](int64_t a, int64_t b) { return wrapTo(Elem::I32, a + b); };
    c.push_back(simple("sum.f32", Elem::F32, [](double a, double b) { return a + b; },
                       Tolerance::norm(1e-5)));
    c.push_back(simple("max.f32", Elem::F32, [](double a, double b) {
      return std::isnan(a) || std::isnan(b) ? NAN : std::max(a, b);
    }));
    c.push_back(simple("min.i32", Elem::I32, [](double a, double b) { return std::min(a, b); }));
    c.back().iref = [](int64_t a, int64_t b) { return std::min(a, b); };
    c.push_back(simple("max.i64", Elem::I64, [](double a, double b) { return std::max(a, b); }));
    c.back().iref = [](int64_t a, int64_t b) { return std::max(a, b); };
    c.push_back(simple("sum.f64", Elem::F64, [](double a, double b) { return a + b; },
                       Tolerance::norm(1e-12)));
    // A user combine: |a| + |b| (associative and commutative, not a kind).
    c.push_back(simple("custom_sum_abs.f32", Elem::F32,
                       [](double a, double b) { return std::fabs(a) + std::fabs(b); },
                       Tolerance::norm(1e-5)));
    c.push_back(simple("custom_xor.i32", Elem::I32, [](double a, double b) {
      return static_cast<double>(static_cast<int32_t>(a) ^ static_cast<int32_t>(b));
    }));
    c.back().iref = [](int64_t a, int64_t b) { return a ^ b; };
    return c;
  }();
  for (const Combine &c : all)
    if (c.name == name)
      return c;
  return all[0];
}

V drawFor(Env &env, const Combine &c) {
  if (c.elem == Elem::I32)
    return c.name == "sum.i32" ? I(env.uniformInt(INT32_MIN, INT32_MAX)) : I(env.uniformInt(-1000000, 1000000));
  if (c.elem == Elem::I64)
    return I(env.uniformInt(INT64_MIN / 2, INT64_MAX / 2));
  return F(env.uniform(-10, 10));
}

/// Reduce (scan = false) or inclusive scan of a rows x cols matrix in one
/// [m, n] tile along `axis`.
Plan reduceOrScan(Env &env, const kernels::KernelUse &use) {
  const Combine &c = combine(use.variant);
  const bool scan = use.kernel == "scan";
  const int axis = use.ints[0];
  const bool reverse = scan && use.ints[1] != 0;
  const std::vector<int> tile = kernels::reduceTile(use.layout, env.lanes);
  const int m = tile[0], n = tile[1];
  Plan p = libraryPlan(use, env.lanes);
  const int rowsN = static_cast<int>(env.uniformInt(m / 2 + 1, m));
  const int colsN = static_cast<int>(env.uniformInt(n / 2 + 1, n));
  Array a(c.elem, size_t(rowsN) * colsN);
  for (int i = 0; i < rowsN * colsN; ++i) {
    V v = drawFor(env, c);
    isFloat(c.elem) ? a.setF(i, v.f) : a.setI(i, v.i);
  }
  auto at = [&](int i, int j) { return isFloat(c.elem) ? a.f(size_t(i) * colsN + j) : double(a.i(size_t(i) * colsN + j)); };
  if (!scan) {
    const int outN = axis == 0 ? colsN : rowsN, inner = axis == 0 ? rowsN : colsN;
    Array want(c.elem, outN);
    auto ai = [&](int i, int j) { return a.i(size_t(i) * colsN + j); };
    for (int o = 0; o < outN; ++o) {
      if (c.iref) {
        int64_t acc = axis == 0 ? ai(0, o) : ai(o, 0);
        for (int q = 1; q < inner; ++q)
          acc = c.iref(acc, axis == 0 ? ai(q, o) : ai(o, q));
        want.setI(o, acc);
        continue;
      }
      double acc = axis == 0 ? at(0, o) : at(o, 0);
      for (int q = 1; q < inner; ++q)
        acc = c.ref(acc, axis == 0 ? at(q, o) : at(o, q));
      want.setF(o, acc);
    }
    p.argBuffer(p.addInput("in", std::move(a)));
    p.argBuffer(p.addOutput("out", std::move(want), c.tol));
  } else {
    Array want(c.elem, size_t(rowsN) * colsN);
    const int outer = axis == 0 ? colsN : rowsN, inner = axis == 0 ? rowsN : colsN;
    for (int o = 0; o < outer; ++o) {
      // Reverse scans start from the tile's end, past the matrix: the
      // identity elements there change nothing.
      double acc = 0;
      int64_t iacc = 0;
      for (int s = 0; s < inner; ++s) {
        int q = reverse ? inner - 1 - s : s;
        size_t idx = axis == 0 ? size_t(q) * colsN + o : size_t(o) * colsN + q;
        if (c.iref) {
          iacc = s == 0 ? a.i(idx) : c.iref(iacc, a.i(idx));
          want.setI(idx, iacc);
        } else {
          acc = s == 0 ? a.f(idx) : c.ref(acc, a.f(idx));
          want.setF(idx, acc);
        }
      }
    }
    p.argBuffer(p.addInput("in", std::move(a)));
    p.argBuffer(p.addOutput("out", std::move(want), c.tol));
  }
  p.argI32(rowsN);
  p.argI32(colsN);
  addNote(p, std::to_string(rowsN) + " x " + std::to_string(colsN) + " in a " + std::to_string(m) +
           "x" + std::to_string(n) + " tile");
  return p;
}

/// argmax along `axis` with two operands (value, index): many ties, the
/// first index wins.
Plan argmax(Env &env, const Blocked &layout, int axis) {
  const std::vector<int> tile = kernels::reduceTile(layout, env.lanes);
  const int m = tile[0], n = tile[1], len = axis == 0 ? n : m;
  Plan p = libraryPlan(kernels::reducescan::argmax(layout, axis), env.lanes);
  Array a(Elem::F32, size_t(m) * n);
  for (int q = 0; q < m * n; ++q)
    a.setF(q, static_cast<double>(env.uniformInt(-3, 3))); // 7 values: ties everywhere
  Array wv(Elem::F32, len), wi(Elem::I32, len);
  for (int o = 0; o < len; ++o) {
    int best = 0;
    const int inner = axis == 0 ? m : n;
    auto val = [&](int q) { return axis == 0 ? a.f(size_t(q) * n + o) : a.f(size_t(o) * n + q); };
    for (int q = 1; q < inner; ++q)
      if (val(q) > val(best))
        best = q;
    wv.setF(o, val(best));
    wi.setI(o, best);
  }
  p.argBuffer(p.addInput("in", std::move(a)));
  p.argBuffer(p.addOutput("max", std::move(wv)));
  p.argBuffer(p.addOutput("index", std::move(wi)));
  return p;
}

/// A 1-D tile reduced to a scalar, stored by one pointer; per program.
Plan toScalar(Env &env, const Blocked &layout, bool floats) {
  const int block = layout.tile(0, env.lanes);
  Plan p = libraryPlan(kernels::reducescan::toScalar(layout, floats), env.lanes);
  const int count = env.tailSize(block, 4 * block);
  const int grid = (count + block - 1) / block;
  Array a(floats ? Elem::F32 : Elem::I32, count), want(a.elem(), grid);
  std::vector<double> sums(grid, 0), sumsAbs(grid, 0);
  for (int i = 0; i < count; ++i) {
    if (floats)
      a.setF(i, env.uniform(-1, 1));
    else
      a.setI(i, env.uniformInt(-100000, 100000));
    sums[i / block] += floats ? a.f(i) : double(a.i(i));
    sumsAbs[i / block] += floats ? std::fabs(a.f(i)) : 0;
  }
  // A sum of a few values cancels to near zero often enough that a relative
  // tolerance fails at random: allow the error of any summation order in
  // f32, plus the final rounding.
  std::vector<double> bounds(grid);
  for (int g = 0; g < grid; ++g) {
    floats ? want.setF(g, sums[g]) : want.setI(g, static_cast<int64_t>(sums[g]));
    bounds[g] = Tolerance::sumBound(block, 0x1p-24, sumsAbs[g]) + 0x1p-24 * std::fabs(sums[g]);
  }
  p.argBuffer(p.addInput("in", std::move(a)));
  p.argBuffer(p.addOutput("out", std::move(want),
                          floats ? Tolerance::within(std::move(bounds)) : Tolerance{}));
  p.argI32(count);
  p.grid = {static_cast<uint32_t>(grid), 1, 1};
  return p;
}

/// The case of the kernel library's `use`: family.combine.axisA[.reverse].layout,
/// reduce.argmax_ties.axisA.layout or reduce.sum.<type>.to_scalar.
std::string caseName(const kernels::KernelUse &use) {
  if (use.kernel == "reduce_scalar")
    return std::string("reduce.sum.") + irName(use.elem) + ".to_scalar";
  const std::string axis = ".axis" + std::to_string(use.ints[0]);
  if (use.kernel == "argmax")
    return "reduce.argmax_ties" + axis + "." + use.layout.name();
  const bool reverse = use.kernel == "scan" && use.ints[1] != 0;
  return use.kernel + "." + use.variant + axis + (reverse ? ".reverse" : "") + "." +
         use.layout.name();
}

} // namespace

void addReduceScanCases(std::vector<Case> &cases) {
  for (const kernels::KernelUse &use : kernels::reduceScanUses()) {
    std::function<Plan(Env &)> plan;
    if (use.kernel == "argmax")
      plan = [use](Env &env) { return argmax(env, use.layout, use.ints[0]); };
    else if (use.kernel == "reduce_scalar")
      plan = [use](Env &env) { return toScalar(env, use.layout, use.elem == Elem::F32); };
    else
      plan = [use](Env &env) { return reduceOrScan(env, use); };
    cases.push_back({caseName(use), plan});
  }
}

} // namespace hadron::conformance
