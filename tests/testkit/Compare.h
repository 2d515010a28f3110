//===- Compare.h - Outputs against host references --------------*- C++ -*-===//
//
// How an output is compared with what the host computed, per element type:
// integers bit for bit; floats bit for bit, by value, within ULPs, within a
// per-element error bound, or by the relative L2 norm over the output. NaN
// matches any NaN; the poison an output was filled with before the launch
// never matches a value (an element the kernel did not write), and a poison
// element of the reference must stay poison (one it must not write).
//
//===----------------------------------------------------------------------===//
#ifndef HADRON_TESTKIT_COMPARE_H
#define HADRON_TESTKIT_COMPARE_H

#include "testkit/Values.h"

#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace hadron::testkit {

/// How an output is compared with the reference.
struct Tolerance {
  enum Kind {
    Exact,   ///< bit for bit (NaN matches any NaN)
    Ulps,    ///< per element, within `ulps` units in the last place or `absTol`
    RelNorm, ///< ||got - want||_2 <= relNorm * ||want||_2 over the whole output
    Bounds,  ///< per element, |got - want| <= bounds[k] (a forward error bound the
             ///< case derives from its inputs, e.g. for a sum n*u*sum|x|)
  };
  Kind kind = Exact;
  int64_t ulps = 0;
  double absTol = 0;
  double relNorm = 0;
  std::vector<double> bounds;
  /// Compare by value (so -0 equals +0).
  bool byValue = false;

  static Tolerance exact() { return {}; }
  static Tolerance value() {
    Tolerance t;
    t.byValue = true;
    return t;
  }
  static Tolerance ulp(int64_t n, double absTol = 0) {
    Tolerance t;
    t.kind = Ulps;
    t.ulps = n;
    t.absTol = absTol;
    return t;
  }
  static Tolerance norm(double rel) {
    Tolerance t;
    t.kind = RelNorm;
    t.relNorm = rel;
    return t;
  }
  static Tolerance within(std::vector<double> perElement) {
    Tolerance t;
    t.kind = Bounds;
    t.bounds = std::move(perElement);
    return t;
  }
  /// The worst-case error of summing `n` values in any order in a format
  /// with unit roundoff `u`, given the sum of their magnitudes: gamma_n *
  /// sum|x| (Higham, Accuracy and Stability of Numerical Algorithms, 4.2).
  static double sumBound(size_t n, double u, double sumAbs) {
    double nu = static_cast<double>(n) * u;
    return nu < 1 ? nu / (1 - nu) * sumAbs : INFINITY;
  }
  std::string str() const;
};

/// The first element that did not match, and how many did not.
struct Mismatch {
  size_t index = 0;
  std::string expected, got;
  size_t count = 1;
  std::string what; ///< the output's name, or what a custom check looked at
};

/// Compares `got` with `want` by `tol`. Elements of `got` past want.size()
/// must hold the poison when `pastEndPoisoned` (an output's slack).
std::optional<Mismatch> compare(const std::string &what, const Array &want, const Array &got,
                                const Tolerance &tol, bool pastEndPoisoned);

} // namespace hadron::testkit

#endif // HADRON_TESTKIT_COMPARE_H
