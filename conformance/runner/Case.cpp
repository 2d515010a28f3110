//===- Case.cpp - Plans, tolerances and the list of every case ------------===//

#include "Case.h"

namespace hadron::conformance {

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

void Plan::argTensorDesc(int buffer, const std::vector<uint64_t> &shape,
                         const std::vector<uint64_t> &strides) {
  hd_tensor_desc d{};
  d.rank = uint32_t(std::min<size_t>(shape.size(), HD_TENSOR_DESC_MAX_RANK));
  for (uint32_t i = 0; i < d.rank; ++i) {
    d.shape[i] = shape[i];
    d.strides[i] = i < strides.size() ? strides[i] : 0;
  }
  args.push_back(Arg{buffer, {}, d});
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
    addWarpSpecializeCases(c);
    return c;
  }();
  return all;
}

} // namespace hadron::conformance
