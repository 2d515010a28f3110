//===- Elementwise.h - The elementwise kernels, their uses and keys -*- C++ -*-===//
//
// One kernel per op and element type: program pid loads its masked block
// (offsets pid * block + arange(block) below n; masked-off elements read 1,
// since an integer division by what a masked load leaves undefined may
// trap) from each input, applies the op and stores the result. Its
// arguments are (in_0, ..., in_{arity-1}, out, n: i32).
//
// The ops, by the name the conformance suite gives its ew.<type>.<op> case:
//   integers  addi subi muli divsi remsi divui remui andi xori shli shrsi
//             shrui minsi maxui; shli/shrsi/shrui_past_width take amounts up
//             to 2 * width and give what C compilers for GPUs and Triton
//             define past the width (0, or the sign for shrsi); cmpi_slt and
//             cmpi_ugt give 0/1 as i32
//   floats    addf subf mulf divf maximumf_nan minimumf_nan maxnumf_nan
//             minnumf_nan negf absf, cmpf_olt and cmpf_uno (0/1 as i32);
//             f32 and f64 also sqrt fma floor ceil exp log sin tanh
//   f32 afn   exp_afn exp2_afn log_afn rsqrt_afn divf_afn (FastMath::afn);
//             exp2_poly (every register by the polynomial) and exp_poly_half
//             (half of them), hd.polynomial_share
//
// and the conversions of the cvt.<from>_<to>[.variant] cases (kernel
// `convert`): .to() for float narrowing (.rne, .subnormal) and widening,
// .sitofp, .fptosi, .extsi and .trunci; to_unsigned for .uitofp, .fptoui
// and .extui; .bitcast; and .saturating, float to int the way front ends
// write it (NaN -> 0, out of range -> the type's MIN/MAX, else fptosi).
//
// Plain C++: the conformance suite (runtime only) walks the uses to name
// its cases and find their kernels; the generator (Elementwise.cpp, with the
// C++ builder) builds every use.
//
//===----------------------------------------------------------------------===//
#ifndef HADRON_TESTS_KERNELS_ELEMENTWISE_H
#define HADRON_TESTS_KERNELS_ELEMENTWISE_H

#include "kernels/Frame.h"
#include "kernels/KernelUse.h"
#include "testkit/Values.h"

#include <string>
#include <utility>
#include <vector>

namespace hadron::kernels {

using testkit::Elem;

/// One op on one element type with the 1-D layout it runs with.
struct ElementwiseUse {
  /// The conformance case's name: "ew.i32.divui", "cvt.f32_bf16.rne".
  std::string name;
  /// The kernel function's name.
  std::string kernel;
  /// The op: "divui", "f32_bf16.rne".
  std::string op;
  std::vector<Elem> ins;
  Elem out;
  Blocked layout;

  int blockFor(unsigned lanes) const { return layout.tile(0, lanes); }
  std::string key(unsigned lanes) const { return name + ".lanes" + std::to_string(lanes); }
};

/// Every use, in the conformance suite's order: i8, i16, i32, i64, then
/// f32, f64 (all float ops), f16, bf16 (without the math functions), then
/// the f32 afn ops; the uses take the 1-D frame layouts in turn.
inline std::vector<ElementwiseUse> elementwiseUses() {
  struct Op {
    const char *name;
    int arity;
    bool toI32;
  };
  static const Op intOps[] = {
      {"addi", 2, false},  {"subi", 2, false},  {"muli", 2, false},
      {"divsi", 2, false}, {"remsi", 2, false}, {"divui", 2, false},
      {"remui", 2, false}, {"andi", 2, false},  {"xori", 2, false},
      {"shli", 2, false},  {"shrsi", 2, false}, {"shrui", 2, false},
      {"shli_past_width", 2, false}, {"shrsi_past_width", 2, false},
      {"shrui_past_width", 2, false}, {"minsi", 2, false}, {"maxui", 2, false},
      {"cmpi_slt", 2, true}, {"cmpi_ugt", 2, true}};
  static const Op floatOps[] = {
      {"addf", 2, false},         {"subf", 2, false},         {"mulf", 2, false},
      {"divf", 2, false},         {"maximumf_nan", 2, false}, {"minimumf_nan", 2, false},
      {"maxnumf_nan", 2, false},  {"minnumf_nan", 2, false},  {"negf", 1, false},
      {"absf", 1, false},         {"cmpf_olt", 2, true},      {"cmpf_uno", 2, true}};
  static const Op mathOps[] = {{"sqrt", 1, false}, {"fma", 3, false}, {"floor", 1, false},
                               {"ceil", 1, false}, {"exp", 1, false}, {"log", 1, false},
                               {"sin", 1, false},  {"tanh", 1, false}};
  static const Op fastMathOps[] = {{"exp_afn", 1, false}, {"exp2_afn", 1, false},
                                   {"log_afn", 1, false}, {"rsqrt_afn", 1, false},
                                   {"divf_afn", 2, false}, {"exp2_poly", 1, false},
                                   {"exp_poly_half", 1, false}};
  std::vector<ElementwiseUse> uses;
  auto add = [&](const Op &op, Elem e) {
    const Blocked &layout = frameLayouts()[uses.size() % frameLayouts().size()];
    const std::string name = op.name;
    uses.push_back({"ew." + std::string(testkit::irName(e)) + "." + name, "ew_" + name, name,
                    std::vector<Elem>(op.arity, e), op.toI32 ? Elem::I32 : e, layout});
  };
  for (Elem e : {Elem::I8, Elem::I16, Elem::I32, Elem::I64})
    for (const Op &op : intOps)
      add(op, e);
  for (Elem e : {Elem::F32, Elem::F64, Elem::F16, Elem::BF16}) {
    for (const Op &op : floatOps)
      add(op, e);
    if (e == Elem::F32 || e == Elem::F64)
      for (const Op &op : mathOps)
        add(op, e);
  }
  for (const Op &op : fastMathOps)
    add(op, Elem::F32);
  return uses;
}

/// The element type named `t` ("bf16").
inline Elem elemNamed(const std::string &t) {
  for (Elem e : {Elem::I1, Elem::I8, Elem::I16, Elem::I32, Elem::I64, Elem::F16, Elem::BF16,
                 Elem::F32, Elem::F64})
    if (t == testkit::irName(e))
      return e;
  return Elem::I1;
}

/// Every conversion, in the conformance suite's order; the uses take the
/// 1-D frame layouts in turn from the second.
inline std::vector<ElementwiseUse> conversionUses() {
  static const char *const ops[] = {
      "f32_bf16.rne",     "f32_bf16.subnormal", "f32_f16.rne",        "f64_f32.rne",
      "f16_f32",          "bf16_f32",           "f32_f64",            "i32_f32.sitofp",
      "i32_f32.uitofp",   "i64_f64.sitofp",     "i8_f16.sitofp",      "i16_f32.sitofp",
      "f32_i32.fptosi",   "f64_i64.fptosi",     "f32_i32.fptoui",     "f32_i8.saturating",
      "f32_i16.saturating", "f32_i32.saturating", "f64_i64.saturating", "f16_i8.saturating",
      "i8_i32.extsi",     "i16_i64.extui",      "i32_i64.extsi",      "i64_i8.trunci",
      "i32_i16.trunci",   "i32_f32.bitcast"};
  std::vector<ElementwiseUse> uses;
  for (const std::string op : ops) {
    const std::string types = op.substr(0, op.find('.'));
    const size_t bar = types.find('_');
    const Blocked &layout = frameLayouts()[(uses.size() + 1) % frameLayouts().size()];
    uses.push_back({"cvt." + op, "convert", op, {elemNamed(types.substr(0, bar))},
                    elemNamed(types.substr(bar + 1)), layout});
  }
  return uses;
}

//===----------------------------------------------------------------------===//
// tests/e2e's elementwise kernels
//===----------------------------------------------------------------------===//
//
//   elementwise (in_0, ..., in_{arity-1}, out, n: i32)
//         ints {block}, variant: the op's name. Program pid's masked block
//         (pid * block + arange(block) below n; masked-off elements read 1)
//         of each input, the op, stored. The name is the operands' type,
//         then the arith/math op (and its predicate, or the result type of a
//         conversion): "i32_floordivsi", "i32_cmpi_ult", "f32_truncf_f16".
//         i32_select is where(a > b, c, a); comparisons store 0/1 as i32.
//   axpb (x, out: f32, s: f32, n: i32)
//         ints {block}: out = x * s + 1.5, masked by n.

/// One op of tests/e2e's Elementwise test.
struct E2eElementwiseOp {
  std::string name;
  std::vector<Elem> ins;
  Elem out;
};

/// Every op, in the test's order.
inline const std::vector<E2eElementwiseOp> &e2eElementwiseOps() {
  using E = Elem;
  const E i32 = E::I32, i64 = E::I64, h = E::F16, s = E::F32, d = E::F64;
  static const std::vector<E2eElementwiseOp> ops = {
      {"i32_addi", {i32, i32}, i32},       {"i32_subi", {i32, i32}, i32},
      {"i32_muli", {i32, i32}, i32},       {"i32_divsi", {i32, i32}, i32},
      {"i32_remsi", {i32, i32}, i32},      {"i32_divui", {i32, i32}, i32},
      {"i32_remui", {i32, i32}, i32},      {"i32_floordivsi", {i32, i32}, i32},
      {"i32_ceildivsi", {i32, i32}, i32},  {"i32_andi", {i32, i32}, i32},
      {"i32_ori", {i32, i32}, i32},        {"i32_xori", {i32, i32}, i32},
      {"i32_shli", {i32, i32}, i32},       {"i32_shrsi", {i32, i32}, i32},
      {"i32_shrui", {i32, i32}, i32},      {"i32_minsi", {i32, i32}, i32},
      {"i32_maxsi", {i32, i32}, i32},      {"i32_minui", {i32, i32}, i32},
      {"i32_maxui", {i32, i32}, i32},      {"i32_absi", {i32}, i32},
      {"i32_ctpop", {i32}, i32},           {"i32_cmpi_slt", {i32, i32}, i32},
      {"i32_cmpi_ult", {i32, i32}, i32},   {"i32_cmpi_eq", {i32, i32}, i32},
      {"i32_cmpi_sge", {i32, i32}, i32},   {"i32_select", {i32, i32, i32}, i32},
      {"i32_extsi_i64", {i32}, i64},       {"i32_extui_i64", {i32}, i64},
      {"i32_sitofp_f32", {i32}, s},        {"i32_uitofp_f32", {i32}, s},
      {"i32_sitofp_f64", {i32}, d},        {"i32_bitcast_f32", {i32}, s},
      {"i64_addi", {i64, i64}, i64},       {"i64_muli", {i64, i64}, i64},
      {"i64_divsi", {i64, i64}, i64},      {"i64_remsi", {i64, i64}, i64},
      {"i64_divui", {i64, i64}, i64},      {"i64_shli", {i64, i64}, i64},
      {"i64_shrsi", {i64, i64}, i64},      {"i64_shrui", {i64, i64}, i64},
      {"i64_maxsi", {i64, i64}, i64},      {"i64_minui", {i64, i64}, i64},
      {"i64_trunci_i32", {i64}, i32},      {"i64_sitofp_f64", {i64}, d},
      {"i64_sitofp_f32", {i64}, s},        {"f32_addf", {s, s}, s},
      {"f32_subf", {s, s}, s},             {"f32_mulf", {s, s}, s},
      {"f32_divf", {s, s}, s},             {"f32_remf", {s, s}, s},
      {"f32_negf", {s}, s},                {"f32_maximumf", {s, s}, s},
      {"f32_minimumf", {s, s}, s},         {"f32_maxnumf", {s, s}, s},
      {"f32_minnumf", {s, s}, s},          {"f32_cmpf_olt", {s, s}, i32},
      {"f32_cmpf_une", {s, s}, i32},       {"f32_cmpf_uno", {s, s}, i32},
      {"f32_cmpf_oge", {s, s}, i32},       {"f32_fma", {s, s, s}, s},
      {"f32_sqrt", {s}, s},                {"f32_absf", {s}, s},
      {"f32_floor", {s}, s},               {"f32_ceil", {s}, s},
      {"f32_trunc", {s}, s},               {"f32_round", {s}, s},
      {"f32_copysign", {s, s}, s},         {"f32_fptosi_i32", {s}, i32},
      {"f32_fptoui_i32", {s}, i32},        {"f32_extf_f64", {s}, d},
      {"f32_truncf_f16", {s}, h},          {"f32_exp", {s}, s},
      {"f32_exp2", {s}, s},                {"f32_log", {s}, s},
      {"f32_log2", {s}, s},                {"f32_rsqrt", {s}, s},
      {"f32_sin", {s}, s},                 {"f32_cos", {s}, s},
      {"f32_tanh", {s}, s},                {"f32_erf", {s}, s},
      {"f32_powf", {s, s}, s},             {"f32_atan2", {s, s}, s},
      {"f64_addf", {d, d}, d},             {"f64_mulf", {d, d}, d},
      {"f64_divf", {d, d}, d},             {"f64_fma", {d, d, d}, d},
      {"f64_sqrt", {d}, d},                {"f64_maximumf", {d, d}, d},
      {"f64_exp", {d}, d},                 {"f64_log", {d}, d},
      {"f64_fptosi_i64", {d}, i64},        {"f64_truncf_f32", {d}, s},
      {"f16_addf", {h, h}, h},             {"f16_mulf", {h, h}, h},
      {"f16_divf", {h, h}, h},             {"f16_maximumf", {h, h}, h},
      {"f16_extf_f32", {h}, s},            {"f16_exp", {h}, h},
      {"f16_fptosi_i32", {h}, i32},
  };
  return ops;
}

/// The layouts (written for 32 lanes) and blocks of the Elementwise test
/// (the first two) and of ElementwiseScalars (the third).
inline const std::vector<std::pair<Blocked, int>> &e2eElementwiseLayouts() {
  static const std::vector<std::pair<Blocked, int>> l = {
      {{{4}, {32}, {4}, {0}}, 512},
      {{{1}, {32}, {8}, {0}}, 256},
      {{{2}, {32}, {1}, {0}}, 128},
  };
  return l;
}

namespace e2eelementwise {
inline KernelUse op(const E2eElementwiseOp &op, const Blocked &l, int block) {
  return {"elementwise", l, op.ins[0], {}, {block}, op.name};
}
inline KernelUse axpb(const Blocked &l, int block) { return {"axpb", l, Elem::F32, {}, {block}}; }
} // namespace e2eelementwise

/// What tests/e2e's elementwise tests take.
inline std::vector<KernelUse> e2eElementwiseUses() {
  std::vector<KernelUse> u;
  for (const E2eElementwiseOp &op : e2eElementwiseOps())
    for (int i = 0; i < 2; ++i)
      u.push_back(e2eelementwise::op(op, e2eElementwiseLayouts()[i].first,
                                     e2eElementwiseLayouts()[i].second));
  u.push_back(e2eelementwise::axpb(e2eElementwiseLayouts()[2].first,
                                   e2eElementwiseLayouts()[2].second));
  return u;
}

} // namespace hadron::kernels

#endif // HADRON_TESTS_KERNELS_ELEMENTWISE_H
