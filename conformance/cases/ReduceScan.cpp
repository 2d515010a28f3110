//===- ReduceScan.cpp - reduce and scan along each axis and layout -------===//
//
// reduce.<op>.<type>.axis<A>.<layout> and scan.*: a masked [M, N] tile (the
// lanes past the matrix read the combine's identity through `other`),
// reduced or scanned along A with a combine region. Sums of floats are
// compared by relative norm (the order of a parallel sum is the target's);
// max/min, integer sums and argmax are exact. argmax draws many ties and
// must return the first index of the maximum; custom combines (sum of
// absolute values, xor) are user regions, not a built-in kind.
//
//===----------------------------------------------------------------------===//

#include "Common.h"

namespace hadron::conformance {

namespace {

struct Combine {
  std::string name;
  Elem elem;
  /// The region's body on two scalars a, b: returns the combined value.
  std::function<std::string(Kernel &, const std::string &, const std::string &)> emit;
  std::function<double(double, double)> ref;
  std::string identity; ///< `other` for masked-off lanes (and the scan's neutral)
  Tolerance tol;
  /// Integers: the reference in int64 (a double would round i64 values).
  std::function<int64_t(int64_t, int64_t)> iref{};
};

Combine simple(const std::string &name, Elem e, const std::string &op,
               std::function<double(double, double)> ref, const std::string &identity,
               Tolerance tol = {}) {
  const std::string en = irName(e);
  return {name, e,
          [op, en](Kernel &k, const std::string &a, const std::string &b) {
            return k.let(op + " " + a + ", " + b + " : " + en);
          },
          std::move(ref), identity, tol};
}

double wrap32(double v) { return static_cast<double>(wrapTo(Elem::I32, static_cast<int64_t>(v))); }

const Combine &combine(const std::string &name) {
  static const std::vector<Combine> all = [] {
    std::vector<Combine> c;
    c.push_back(simple("sum.i32", Elem::I32, "arith.addi",
                       [](double a, double b) { return wrap32(a + b); }, "0"));
    c.back().iref = [](int64_t a, int64_t b) { return wrapTo(Elem::I32, a + b); };
    c.push_back(simple("sum.f32", Elem::F32, "arith.addf",
                       [](double a, double b) { return a + b; }, "0.0", Tolerance::norm(1e-5)));
    c.push_back(simple("max.f32", Elem::F32, "arith.maximumf",
                       [](double a, double b) { return std::isnan(a) || std::isnan(b) ? NAN : std::max(a, b); },
                       "0xFF800000"));
    c.push_back(simple("min.i32", Elem::I32, "arith.minsi",
                       [](double a, double b) { return std::min(a, b); }, "2147483647"));
    c.back().iref = [](int64_t a, int64_t b) { return std::min(a, b); };
    c.push_back(simple("max.i64", Elem::I64, "arith.maxsi",
                       [](double a, double b) { return std::max(a, b); }, "-9223372036854775808"));
    c.back().iref = [](int64_t a, int64_t b) { return std::max(a, b); };
    c.push_back(simple("sum.f64", Elem::F64, "arith.addf",
                       [](double a, double b) { return a + b; }, "0.0", Tolerance::norm(1e-12)));
    // A user combine: |a| + |b| (associative and commutative, not a kind).
    c.push_back({"custom_sum_abs.f32", Elem::F32,
                 [](Kernel &k, const std::string &a, const std::string &b) {
                   std::string x = k.let("math.absf " + a + " : f32");
                   std::string y = k.let("math.absf " + b + " : f32");
                   return k.let("arith.addf " + x + ", " + y + " : f32");
                 },
                 [](double a, double b) { return std::fabs(a) + std::fabs(b); }, "0.0",
                 Tolerance::norm(1e-5)});
    c.push_back(simple("custom_xor.i32", Elem::I32, "arith.xori",
                       [](double a, double b) {
                         return static_cast<double>(static_cast<int32_t>(a) ^ static_cast<int32_t>(b));
                       },
                       "0"));
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

void emitRegion(Kernel &k, const Combine &c) {
  const std::string en = irName(c.elem);
  std::string a = k.fresh(), b = k.fresh();
  k.line("^bb0(" + a + ": " + en + ", " + b + ": " + en + "):");
  std::string r = c.emit(k, a, b);
  k.line("hd.yield " + r + " : " + en);
  k.line("}");
}

/// Reduce (scan = false) or inclusive scan of a rows x cols matrix in one
/// [m, n] tile along `axis`.
Plan reduceOrScan(Env &env, const Combine &c, const Blocked &layout, int axis, bool scan,
                  bool reverse) {
  const int m = std::max(layout.tile(0, env.lanes), 16), n = std::max(layout.tile(1, env.lanes), 32);
  const std::string en = irName(c.elem);
  Kernel k(scan ? "scan" : "reduce", layout.numWarps());
  std::string l = k.layout("l", layout.str(env.lanes));
  std::string in = k.arg(ptr(en)), out = k.arg(ptr(en));
  std::string rows = k.arg("i32"), cols = k.arg("i32");
  auto t = k.tile2d({m, n}, l, "", "", cols, rows, cols);
  const std::string tt = tensor({m, n}, en, l);
  std::string x = k.load(k.pointers(in, en, t.offsets, {m, n}, l), en, {m, n}, l, t.mask,
                         k.dense(c.identity, tt));
  const int rowsN = static_cast<int>(env.uniformInt(m / 2 + 1, m));
  const int colsN = static_cast<int>(env.uniformInt(n / 2 + 1, n));
  Plan p;
  Array a(c.elem, size_t(rowsN) * colsN);
  for (int i = 0; i < rowsN * colsN; ++i) {
    V v = drawFor(env, c);
    isFloat(c.elem) ? a.setF(i, v.f) : a.setI(i, v.i);
  }
  auto at = [&](int i, int j) { return isFloat(c.elem) ? a.f(size_t(i) * colsN + j) : double(a.i(size_t(i) * colsN + j)); };
  if (!scan) {
    const std::string sl = k.layout("s", slice(axis, l));
    const int len = axis == 0 ? n : m;
    const std::string rt = tensor({len}, en, sl);
    std::string r = k.let("hd.reduce(" + x + ") axis = " + std::to_string(axis) + " : (" + tt + ") -> " + rt + " {");
    emitRegion(k, c);
    auto to = k.tile1d(len, sl, "", axis == 0 ? cols : rows);
    k.store(k.pointers(out, en, to.offsets, {len}, sl), r, en, {len}, sl, to.mask);
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
    std::string r = k.let("hd.scan(" + x + ") axis = " + std::to_string(axis) + " reverse = " +
                          (reverse ? "true" : "false") + " : (" + tt + ") -> " + tt + " {");
    emitRegion(k, c);
    k.store(k.pointers(out, en, t.offsets, {m, n}, l), r, en, {m, n}, l, t.mask);
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
  p.kernel = k.name();
  p.ir = k.str();
  p.note = std::to_string(rowsN) + " x " + std::to_string(colsN) + " in a " + std::to_string(m) +
           "x" + std::to_string(n) + " tile";
  return p;
}

/// argmax along `axis` with two operands (value, index): many ties, the
/// first index wins.
Plan argmax(Env &env, const Blocked &layout, int axis) {
  const int m = std::max(layout.tile(0, env.lanes), 16), n = std::max(layout.tile(1, env.lanes), 32);
  Kernel k("argmax", layout.numWarps());
  std::string l = k.layout("l", layout.str(env.lanes));
  std::string sl = k.layout("s", slice(axis, l));
  std::string in = k.arg(ptr("f32")), ov = k.arg(ptr("f32")), oi = k.arg(ptr("i32"));
  auto t = k.tile2d({m, n}, l, "", "", k.constI32(n), "", "");
  const std::string ft = tensor({m, n}, "f32", l), it = tensor({m, n}, "i32", l);
  std::string x = k.load(k.pointers(in, "f32", t.offsets, {m, n}, l), "f32", {m, n}, l);
  // The index along the axis: the row (axis 0) or column (axis 1) of each element.
  std::string idx = k.let("arith.divsi " + t.offsets + ", " + k.dense(std::to_string(n), it) + " : " + it);
  if (axis == 1)
    idx = k.let("arith.remsi " + t.offsets + ", " + k.dense(std::to_string(n), it) + " : " + it);
  const int len = axis == 0 ? n : m;
  const std::string rf = tensor({len}, "f32", sl), ri = tensor({len}, "i32", sl);
  std::vector<std::string> r = k.letMany(2, "hd.reduce(" + x + ", " + idx + ") axis = " +
                                                std::to_string(axis) + " : (" + ft + ", " + it +
                                                ") -> (" + rf + ", " + ri + ") {");
  std::string av = k.fresh(), ai = k.fresh(), bv = k.fresh(), bi = k.fresh();
  k.line("^bb0(" + av + ": f32, " + ai + ": i32, " + bv + ": f32, " + bi + ": i32):");
  std::string gt = k.let("arith.cmpf ogt, " + bv + ", " + av + " : f32");
  std::string eq = k.let("arith.cmpf oeq, " + bv + ", " + av + " : f32");
  std::string lt = k.let("arith.cmpi slt, " + bi + ", " + ai + " : i32");
  std::string tie = k.let("arith.andi " + eq + ", " + lt + " : i1");
  std::string take = k.let("arith.ori " + gt + ", " + tie + " : i1");
  std::string v = k.let("arith.select " + take + ", " + bv + ", " + av + " : f32");
  std::string i = k.let("arith.select " + take + ", " + bi + ", " + ai + " : i32");
  k.line("hd.yield " + v + ", " + i + " : f32, i32");
  k.line("}");
  auto to = k.tile1d(len, sl, "", "");
  k.store(k.pointers(ov, "f32", to.offsets, {len}, sl), r[0], "f32", {len}, sl);
  k.store(k.pointers(oi, "i32", to.offsets, {len}, sl), r[1], "i32", {len}, sl);
  Plan p;
  p.kernel = k.name();
  p.ir = k.str();
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
  const std::string en = floats ? "f32" : "i32";
  Kernel k("reduce_scalar", layout.numWarps());
  std::string l = k.layout("l", layout.str(env.lanes));
  std::string in = k.arg(ptr(en)), out = k.arg(ptr(en)), n = k.arg("i32");
  std::string pid = k.programId(0);
  std::string start = k.let("arith.muli " + pid + ", " + k.constI32(block) + " : i32");
  auto t = k.tile1d(block, l, start, n);
  const std::string tt = tensor({block}, en, l);
  std::string x = k.load(k.pointers(in, en, t.offsets, {block}, l), en, {block}, l, t.mask,
                         k.dense(floats ? "0.0" : "0", tt));
  std::string r = k.let("hd.reduce(" + x + ") axis = 0 : (" + tt + ") -> " + en + " {");
  k.combine(en, floats ? "arith.addf" : "arith.addi");
  std::string o = k.let("hd.addptr " + out + ", " + pid + " : " + ptr(en) + ", i32");
  k.line("hd.store " + o + ", " + r + " : " + ptr(en));
  Plan p;
  p.kernel = k.name();
  p.ir = k.str();
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

} // namespace

void addReduceScanCases(std::vector<Case> &cases) {
  const auto &l2 = layouts2d();
  auto add = [&](const std::string &family, const std::string &comb, const Blocked &l, int axis,
                 bool scan, bool reverse) {
    std::string name = family + "." + comb + ".axis" + std::to_string(axis) +
                       (reverse ? ".reverse" : "") + "." + l.name();
    cases.push_back({name, [comb, l, axis, scan, reverse](Env &env) {
                       return reduceOrScan(env, combine(comb), l, axis, scan, reverse);
                     }});
  };
  for (const Blocked &l : l2)
    for (int axis = 0; axis < 2; ++axis)
      add("reduce", "sum.i32", l, axis, false, false);
  for (int axis = 0; axis < 2; ++axis) {
    add("reduce", "sum.f32", l2[axis], axis, false, false);
    add("reduce", "max.f32", l2[1 - axis], axis, false, false);
    add("reduce", "min.i32", l2[2], axis, false, false);
  }
  add("reduce", "max.i64", l2[0], 1, false, false);
  add("reduce", "sum.f64", l2[1], 0, false, false);
  add("reduce", "custom_sum_abs.f32", l2[0], 1, false, false);
  add("reduce", "custom_xor.i32", l2[2], 0, false, false);
  for (size_t i = 0; i < l2.size(); ++i) {
    Blocked l = l2[i];
    int axis = static_cast<int>(i % 2);
    cases.push_back({"reduce.argmax_ties.axis" + std::to_string(axis) + "." + l.name(),
                     [l, axis](Env &env) { return argmax(env, l, axis); }});
  }
  cases.push_back({"reduce.sum.i32.to_scalar", [](Env &env) { return toScalar(env, layouts1d()[0], false); }});
  cases.push_back({"reduce.sum.f32.to_scalar", [](Env &env) { return toScalar(env, layouts1d()[1], true); }});

  for (int axis = 0; axis < 2; ++axis)
    for (bool reverse : {false, true})
      add("scan", "sum.i32", l2[(axis + reverse) % 3], axis, true, reverse);
  add("scan", "sum.f32", l2[2], 1, true, false);
  add("scan", "max.f32", l2[0], 0, true, false);
  add("scan", "min.i32", l2[1], 1, true, true);
  add("scan", "custom_xor.i32", l2[0], 1, true, false);
}

} // namespace hadron::conformance
