//===- Elementwise.cpp - The elementwise kernels, with the builder --------===//

#include "Elementwise.h"
#include "Build.h"

#include <cmath>
#include <cstdint>
#include <functional>
#include <map>

namespace hadron::kernels {
namespace {

using hb::FastMath;

using Args = std::vector<Tensor>;
using Body = std::function<Tensor(const Args &)>;

/// A shift whose amount b may reach 2 * width: amounts past the width give
/// `beyond`, the shift itself sees only amounts below it (arith leaves
/// those undefined).
Body guardedShift(int width, const std::function<Tensor(Tensor, Tensor)> &shift,
                  const std::function<Tensor(Tensor)> &beyond) {
  return [=](const Args &v) {
    return hb::where(hb::uge(v[1], width), beyond(v[0]), shift(v[0], v[1] & (width - 1)));
  };
}

/// The conversion `op` ("f32_i8.saturating") to `to`.
Body conversion(const std::string &op, Elem to) {
  const hb::DType type = dtypeOf(to);
  const std::string how = op.find('.') == std::string::npos ? "" : op.substr(op.find('.') + 1);
  if (how == "uitofp" || how == "fptoui" || how == "extui")
    return [type](const Args &v) { return hb::to_unsigned(v[0], type); };
  if (how == "bitcast")
    return [type](const Args &v) { return v[0].bitcast(type); };
  if (how == "saturating") {
    const int w = testkit::bitWidth(to);
    const double limit = std::ldexp(1.0, w - 1);
    const int64_t maxv = w == 64 ? INT64_MAX : (int64_t(1) << (w - 1)) - 1;
    const int64_t minv = w == 64 ? INT64_MIN : -(int64_t(1) << (w - 1));
    return [=](const Args &v) {
      const Tensor &x = v[0];
      Tensor inRange = hb::where(x >= limit, maxv, x.to(type));
      return hb::where(hb::unordered(x, x), 0, hb::where(x < -limit, minv, inRange));
    };
  }
  return [type](const Args &v) { return v[0].to(type); };
}

/// The op `name` on operands of width `width` (integers) or any float.
Body body(const std::string &name, int width) {
  static const std::map<std::string, Body> fixed = {
      {"addi", [](const Args &v) { return v[0] + v[1]; }},
      {"subi", [](const Args &v) { return v[0] - v[1]; }},
      {"muli", [](const Args &v) { return v[0] * v[1]; }},
      {"divsi", [](const Args &v) { return v[0] / v[1]; }},
      {"remsi", [](const Args &v) { return v[0] % v[1]; }},
      {"divui", [](const Args &v) { return hb::udiv(v[0], v[1]); }},
      {"remui", [](const Args &v) { return hb::urem(v[0], v[1]); }},
      {"andi", [](const Args &v) { return v[0] & v[1]; }},
      {"xori", [](const Args &v) { return v[0] ^ v[1]; }},
      {"shli", [](const Args &v) { return v[0] << v[1]; }},
      {"shrsi", [](const Args &v) { return v[0] >> v[1]; }},
      {"shrui", [](const Args &v) { return hb::ushr(v[0], v[1]); }},
      {"minsi", [](const Args &v) { return hb::minimum(v[0], v[1]); }},
      {"maxui", [](const Args &v) { return hb::umax(v[0], v[1]); }},
      {"cmpi_slt", [](const Args &v) { return (v[0] < v[1]).to(hb::int32); }},
      {"cmpi_ugt", [](const Args &v) { return hb::ugt(v[0], v[1]).to(hb::int32); }},
      {"addf", [](const Args &v) { return v[0] + v[1]; }},
      {"subf", [](const Args &v) { return v[0] - v[1]; }},
      {"mulf", [](const Args &v) { return v[0] * v[1]; }},
      {"divf", [](const Args &v) { return v[0] / v[1]; }},
      {"maximumf_nan", [](const Args &v) { return hb::maximum(v[0], v[1]); }},
      {"minimumf_nan", [](const Args &v) { return hb::minimum(v[0], v[1]); }},
      {"maxnumf_nan", [](const Args &v) { return hb::maxnum(v[0], v[1]); }},
      {"minnumf_nan", [](const Args &v) { return hb::minnum(v[0], v[1]); }},
      {"negf", [](const Args &v) { return -v[0]; }},
      {"absf", [](const Args &v) { return hb::abs(v[0]); }},
      {"cmpf_olt", [](const Args &v) { return (v[0] < v[1]).to(hb::int32); }},
      {"cmpf_uno", [](const Args &v) { return hb::unordered(v[0], v[1]).to(hb::int32); }},
      {"sqrt", [](const Args &v) { return hb::sqrt(v[0]); }},
      {"fma", [](const Args &v) { return hb::fma(v[0], v[1], v[2]); }},
      {"floor", [](const Args &v) { return hb::floor(v[0]); }},
      {"ceil", [](const Args &v) { return hb::ceil(v[0]); }},
      {"exp", [](const Args &v) { return hb::exp(v[0]); }},
      {"log", [](const Args &v) { return hb::log(v[0]); }},
      {"sin", [](const Args &v) { return hb::sin(v[0]); }},
      {"tanh", [](const Args &v) { return hb::tanh(v[0]); }},
      {"exp_afn", [](const Args &v) { return hb::exp(v[0], FastMath::afn); }},
      {"exp2_afn", [](const Args &v) { return hb::exp2(v[0], FastMath::afn); }},
      {"log_afn", [](const Args &v) { return hb::log(v[0], FastMath::afn); }},
      {"rsqrt_afn", [](const Args &v) { return hb::rsqrt(v[0], FastMath::afn); }},
      {"divf_afn", [](const Args &v) { return hb::fdiv(v[0], v[1], FastMath::afn); }},
      {"exp2_poly", [](const Args &v) { return hb::exp2(v[0], FastMath::afn, 1.0); }},
      {"exp_poly_half", [](const Args &v) { return hb::exp(v[0], FastMath::afn, 0.5); }},
  };
  if (auto it = fixed.find(name); it != fixed.end())
    return it->second;
  auto zeros = [](Tensor x) { return hb::full(x.shape(), 0, x.dtype(), x.layout()); };
  if (name == "shli_past_width")
    return guardedShift(width, [](Tensor x, Tensor s) { return x << s; }, zeros);
  if (name == "shrsi_past_width")
    return guardedShift(
        width, [](Tensor x, Tensor s) { return x >> s; },
        [width](Tensor x) { return x >> (width - 1); });
  if (name == "shrui_past_width")
    return guardedShift(width, [](Tensor x, Tensor s) { return hb::ushr(x, s); }, zeros);
  return nullptr;
}

/// The kernel `name`: f of program pid's masked block of each input of
/// `ins`, stored as `out` (the file header of Elementwise.h).
Result<hb::Module> elementwise(const std::string &name, const std::vector<Elem> &ins, Elem out,
                               const Body &f, const Blocked &layout, int block, unsigned lanes) {
  auto kernel = hb::jit(name, [&](hb::Constexpr<int> BLOCK, hb::Constexpr<hb::Layout> L) {
    Args ptrs, vals;
    for (Elem e : ins)
      ptrs.push_back(hb::arg(hb::pointer_type(dtypeOf(e))));
    Tensor result = hb::arg(hb::pointer_type(dtypeOf(out)));
    Tensor n = hb::arg(hb::int32);
    Tensor offsets = hb::program_id(0) * BLOCK + hb::arange(0, BLOCK, L);
    Tensor mask = offsets < n;
    // Masked-off elements read 1: a division by what a masked load leaves
    // undefined may trap (integer division does on x86).
    for (const Tensor &p : ptrs)
      vals.push_back(hb::load(p + offsets, mask, 1));
    hb::store(result + offsets, f(vals), mask);
  });
  hb::Options options{.numWarps = static_cast<unsigned>(layout.numWarps())};
  return kernel.specialize(options, block, layoutOf(layout, lanes));
}

Result<hb::Module> build(const ElementwiseUse &use, unsigned lanes) {
  Body f = use.kernel == "convert" ? conversion(use.op, use.out)
                                   : body(use.op, testkit::bitWidth(use.ins[0]));
  if (!f)
    return Error("no elementwise op '" + use.op + "' (tests/kernels/Elementwise.cpp)");
  return elementwise(use.kernel, use.ins, use.out, f, use.layout, use.blockFor(lanes), lanes);
}

/// tests/e2e's op `name` ("i32_cmpi_ult": what follows the operands' type)
/// with result type `out`: the ops the conformance suite has under the
/// same name (body()), the ones only tests/e2e runs, and conversions named
/// by the op and the result type.
Body e2eBody(const std::string &name, Elem in, Elem out) {
  const std::string op = name.substr(name.find('_') + 1);
  static const std::map<std::string, Body> more = {
      {"floordivsi", [](const Args &v) { return hb::floordiv(v[0], v[1]); }},
      {"ceildivsi", [](const Args &v) { return hb::ceildiv(v[0], v[1]); }},
      {"ori", [](const Args &v) { return v[0] | v[1]; }},
      {"maxsi", [](const Args &v) { return hb::maximum(v[0], v[1]); }},
      {"minui", [](const Args &v) { return hb::umin(v[0], v[1]); }},
      {"absi", [](const Args &v) { return hb::abs(v[0]); }},
      {"ctpop", [](const Args &v) { return hb::popcount(v[0]); }},
      {"cmpi_ult", [](const Args &v) { return hb::ult(v[0], v[1]).to(hb::int32); }},
      {"cmpi_eq", [](const Args &v) { return (v[0] == v[1]).to(hb::int32); }},
      {"cmpi_sge", [](const Args &v) { return (v[0] >= v[1]).to(hb::int32); }},
      {"select", [](const Args &v) { return hb::where(v[0] > v[1], v[2], v[0]); }},
      {"remf", [](const Args &v) { return v[0] % v[1]; }},
      {"maximumf", [](const Args &v) { return hb::maximum(v[0], v[1]); }},
      {"minimumf", [](const Args &v) { return hb::minimum(v[0], v[1]); }},
      {"maxnumf", [](const Args &v) { return hb::maxnum(v[0], v[1]); }},
      {"minnumf", [](const Args &v) { return hb::minnum(v[0], v[1]); }},
      {"cmpf_une", [](const Args &v) { return (v[0] != v[1]).to(hb::int32); }},
      {"cmpf_oge", [](const Args &v) { return (v[0] >= v[1]).to(hb::int32); }},
      {"absf", [](const Args &v) { return hb::abs(v[0]); }},
      {"trunc", [](const Args &v) { return hb::trunc(v[0]); }},
      {"round", [](const Args &v) { return hb::round(v[0]); }},
      {"copysign", [](const Args &v) { return hb::copysign(v[0], v[1]); }},
      {"exp2", [](const Args &v) { return hb::exp2(v[0]); }},
      {"log2", [](const Args &v) { return hb::log2(v[0]); }},
      {"rsqrt", [](const Args &v) { return hb::rsqrt(v[0]); }},
      {"cos", [](const Args &v) { return hb::cos(v[0]); }},
      {"erf", [](const Args &v) { return hb::erf(v[0]); }},
      {"powf", [](const Args &v) { return hb::pow(v[0], v[1]); }},
      {"atan2", [](const Args &v) { return hb::atan2(v[0], v[1]); }},
  };
  if (auto it = more.find(op); it != more.end())
    return it->second;
  if (Body b = body(op, testkit::bitWidth(in)))
    return b;
  const hb::DType to = dtypeOf(out);
  const std::string how = op.substr(0, op.find('_'));
  if (how == "extui" || how == "uitofp" || how == "fptoui")
    return [to](const Args &v) { return hb::to_unsigned(v[0], to); };
  if (how == "bitcast")
    return [to](const Args &v) { return v[0].bitcast(to); };
  if (how == "extsi" || how == "sitofp" || how == "trunci" || how == "fptosi" ||
      how == "extf" || how == "truncf")
    return [to](const Args &v) { return v[0].to(to); };
  return nullptr;
}

Result<hb::Module> buildE2e(const KernelUse &use, unsigned lanes) {
  const hb::Layout layout = layoutOf(use.layout, lanes);
  const int block = use.ints[0];
  if (use.kernel == "axpb") {
    auto axpb = hb::jit("axpb", [&](Constexpr<int> BLOCK) {
      Tensor x = hb::arg(hb::pointer_type(hb::float32)), out = hb::arg(hb::pointer_type(hb::float32));
      Tensor scale = hb::arg(hb::float32), n = hb::arg(hb::int32);
      Tensor offsets = hb::program_id(0) * BLOCK + hb::arange(0, BLOCK, layout);
      Tensor mask = offsets < n;
      hb::store(out + offsets, hb::load(x + offsets, mask) * scale + 1.5, mask);
    });
    return axpb.specialize(optionsOf(use), Constexpr<int>("BLOCK", block));
  }
  const E2eElementwiseOp *op = nullptr;
  for (const E2eElementwiseOp &o : e2eElementwiseOps())
    if (o.name == use.variant)
      op = &o;
  Body f = op ? e2eBody(op->name, op->ins[0], op->out) : nullptr;
  if (!f)
    return Error("no e2e elementwise op '" + use.variant + "' (tests/kernels/Elementwise.cpp)");
  return elementwise("elementwise", op->ins, op->out, f, use.layout, block, lanes);
}

} // namespace

std::string addElementwiseKernels(BuiltKernels &out) {
  std::vector<ElementwiseUse> uses = elementwiseUses();
  for (ElementwiseUse &u : conversionUses())
    uses.push_back(std::move(u));
  if (std::string error = addUses<ElementwiseUse>(out, uses, build); !error.empty())
    return error;
  return addUses<KernelUse>(out, e2eElementwiseUses(), buildE2e);
}

} // namespace hadron::kernels
