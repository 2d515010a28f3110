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
//   f32 afn   exp_afn exp2_afn log_afn rsqrt_afn divf_afn (FastMath::afn)
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
#include "testkit/Values.h"

#include <string>
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
                                   {"divf_afn", 2, false}};
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

} // namespace hadron::kernels

#endif // HADRON_TESTS_KERNELS_ELEMENTWISE_H
