//===- Compare.cpp - Outputs against host references ----------------------===//

#include "testkit/Compare.h"

#include <cstdio>

namespace hadron::testkit {

std::string Tolerance::str() const {
  char buf[96];
  switch (kind) {
  case Exact: return byValue ? "exact value" : "exact bits";
  case Ulps:
    std::snprintf(buf, sizeof buf, "%lld ulp%s", static_cast<long long>(ulps),
                  absTol > 0 ? (" or abs " + std::to_string(absTol)).c_str() : "");
    return buf;
  case RelNorm: std::snprintf(buf, sizeof buf, "rel. L2 norm %.3g", relNorm); return buf;
  case Bounds: return "per-element error bound";
  }
  return "?";
}

namespace {

/// Element k of `got` against `want` (k < want.size()) by `tol`; what is wrong.
std::optional<std::string> elementProblem(const Array &got, const Array &want, size_t k,
                                          const Tolerance &tol) {
  const Elem e = want.elem();
  if (want.isPoison(k))
    return got.isPoison(k) ? std::nullopt
                           : std::optional<std::string>("written where it must not be");
  if (got.isPoison(k))
    return "not written (still poisoned)";
  if (!isFloat(e))
    return got.bits(k) == want.bits(k) ? std::nullopt : std::optional<std::string>("");
  const double g = got.f(k), w = want.f(k);
  if (std::isnan(g) || std::isnan(w))
    return std::isnan(g) && std::isnan(w) ? std::nullopt : std::optional<std::string>("");
  if (tol.kind == Tolerance::Exact)
    return (tol.byValue ? g == w : got.bits(k) == want.bits(k)) ? std::nullopt
                                                               : std::optional<std::string>("");
  if (g == w)
    return std::nullopt;
  if (std::isinf(g) || std::isinf(w))
    return std::string("");
  if (tol.kind == Tolerance::Ulps) {
    if (std::fabs(g - w) <= tol.absTol)
      return std::nullopt;
    int64_t d = ulpDistance(e, g, w);
    if (d <= tol.ulps)
      return std::nullopt;
    return std::to_string(d) + " ulp";
  }
  if (tol.kind == Tolerance::Bounds) {
    double bound = k < tol.bounds.size() ? tol.bounds[k] : 0;
    if (std::fabs(g - w) <= bound)
      return std::nullopt;
    char buf[96];
    std::snprintf(buf, sizeof buf, "error %.3g over the bound %.3g", std::fabs(g - w), bound);
    return std::string(buf);
  }
  return std::nullopt; // RelNorm: judged over the whole output
}

} // namespace

std::optional<Mismatch> compare(const std::string &what, const Array &want, const Array &got,
                                const Tolerance &tol, bool pastEndPoisoned) {
  Mismatch m;
  m.what = what;
  m.count = 0;
  const size_t n = want.size();
  if (got.size() < n) {
    m.count = 1;
    m.expected = std::to_string(n) + " elements";
    m.got = std::to_string(got.size()) + " elements";
    return m;
  }
  double err2 = 0, ref2 = 0;
  size_t worst = SIZE_MAX;
  double worstErr = -1;
  for (size_t k = 0; k < got.size(); ++k) {
    std::optional<std::string> problem;
    if (k < n) {
      problem = elementProblem(got, want, k, tol);
      if (!problem && tol.kind == Tolerance::RelNorm && !want.isPoison(k)) {
        double g = got.f(k), w = want.f(k);
        if (!(std::isnan(g) && std::isnan(w))) {
          err2 += (g - w) * (g - w);
          ref2 += w * w;
          if (std::fabs(g - w) > worstErr)
            worstErr = std::fabs(g - w), worst = k;
        }
      }
    } else if (pastEndPoisoned && !got.isPoison(k)) {
      problem = "written past the end";
    }
    if (!problem)
      continue;
    if (m.count++ == 0) {
      m.index = k;
      m.got = got.show(k) + (problem->empty() ? "" : " (" + *problem + ")");
      m.expected = k < n ? want.show(k) : "poison (past the end)";
    }
  }
  if (m.count)
    return m;
  if (tol.kind == Tolerance::RelNorm) {
    double rel = std::sqrt(err2) / std::max(std::sqrt(ref2), 1e-300);
    if (rel > tol.relNorm && worst != SIZE_MAX) {
      m.count = 1;
      m.index = worst;
      m.got = got.show(worst) + " (relative L2 error " + std::to_string(rel) + ")";
      m.expected = want.show(worst);
      return m;
    }
  }
  return std::nullopt;
}

} // namespace hadron::testkit
