//===- Case.cpp - Plans, tolerances and the list of every case ------------===//

#include "Case.h"

#include <cstdio>

namespace hadron::conformance {

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

int Plan::addInput(std::string name, Array values) {
  Buffer b;
  b.name = std::move(name);
  b.role = Buffer::Input;
  b.init = std::move(values);
  buffers.push_back(std::move(b));
  return static_cast<int>(buffers.size()) - 1;
}

int Plan::addOutput(std::string name, Array want, Tolerance tol, size_t slack) {
  Buffer b;
  b.name = std::move(name);
  b.role = Buffer::Output;
  b.init = Array(want.elem(), want.size() + slack);
  b.want = std::move(want);
  b.tol = tol;
  buffers.push_back(std::move(b));
  return static_cast<int>(buffers.size()) - 1;
}

int Plan::addInOut(std::string name, Array init, Array want, Tolerance tol) {
  Buffer b;
  b.name = std::move(name);
  b.role = Buffer::InOut;
  b.init = std::move(init);
  b.want = std::move(want);
  b.tol = tol;
  buffers.push_back(std::move(b));
  return static_cast<int>(buffers.size()) - 1;
}

namespace {

Arg integerArg(hd_arg_kind kind, int64_t v) {
  Arg a;
  a.scalar.kind = kind;
  a.scalar.value.i = v;
  return a;
}

Arg floatArg(hd_arg_kind kind, double v) {
  Arg a;
  a.scalar.kind = kind;
  a.scalar.value.f = v;
  return a;
}

} // namespace

void Plan::argI32(int32_t v) { args.push_back(integerArg(HD_ARG_I32, v)); }
void Plan::argI64(int64_t v) { args.push_back(integerArg(HD_ARG_I64, v)); }
void Plan::argF32(float v) { args.push_back(floatArg(HD_ARG_F32, v)); }
void Plan::argF64(double v) { args.push_back(floatArg(HD_ARG_F64, v)); }

int Env::tailSize(int tile, int max) {
  if (max < tile)
    return static_cast<int>(uniformInt(1, max));
  for (;;) {
    int n = static_cast<int>(uniformInt(1, max));
    if (n % tile != 0)
      return n;
  }
}

const std::vector<Case> &allCases() {
  static const std::vector<Case> all = [] {
    std::vector<Case> c;
    addElementwiseCases(c);
    addConversionCases(c);
    addMemoryCases(c);
    addShapeCases(c);
    addReduceScanCases(c);
    addLayoutCases(c);
    addAtomicCases(c);
    addDotCases(c);
    addControlFlowCases(c);
    addMiscCases(c);
    return c;
  }();
  return all;
}

} // namespace hadron::conformance
