//===- IntelMatrixLayouts.cpp - DPAS operands as linear layouts -----------===//
//
// cl_intel_subgroup_matrix_multiply_accumulate hands DPAS its operands as
// per-lane vectors whose components follow the hardware's register tiles:
// A is M = 8 rows of 32 bytes, B is K x N packed along K into 32-bit
// components (VNNI), the accumulator M x N. With s lanes (s = N) and e
// elements of the type per 32 bits (f16/bf16 2, i8 4, tf32 1):
//
//   A: a row is 32 / s bytes a lane. For s = 16 and f16, bf16 or i8 that
//      is 16 bits (one short per row, 1 or 2 elements); for s = 8 32 bits
//      (one int per row, 2 or 4 elements); for s = 16 and tf32 half a float,
//      so a float component holds two rows: lane l of component c has
//      row 2c + l / 8, column l % 8.
//      Otherwise lane l of component r (row r) holds columns w*l .. w*l+w-1,
//      w = elements per lane and row.
//   B: lane l holds column l; component c holds rows e*c .. e*c+e-1.
//   D: lane l holds column l; component r holds row r.
//
// Elements are numbered in component order, low bits first, which is the
// order the hook packs them into the builtin's vectors.
//
//===----------------------------------------------------------------------===//

#include "IntelModel.h"

#include "hadron/Layout/LinearLayout.h"
#include "hadron/Layout/MatrixInstrText.h"

#include <utility>

namespace hadron::intel {
namespace {

using Basis = LinearLayout::Basis;

int log2Exact(unsigned v) {
  int bits = 0;
  while ((1u << bits) < v)
    ++bits;
  return (1u << bits) == v ? bits : -1;
}

unsigned elementBits(const std::string &type) {
  if (type == "f16" || type == "bf16")
    return 16;
  if (type == "i8")
    return 8;
  return 32; // tf32 is stored as a float
}

Result<LinearLayout> build(std::vector<Basis> registers, std::vector<Basis> lanes, unsigned rows,
                           unsigned cols) {
  return LinearLayout::create({{"register", std::move(registers)}, {"lane", std::move(lanes)}},
                              {{"dim0", int32_t(rows)}, {"dim1", int32_t(cols)}},
                              /*requireSurjective=*/true);
}

/// `count` bases stepping `start`, 2 * start, ... along `dim` (0: rows).
void steps(std::vector<Basis> &out, unsigned count, int32_t start, int dim) {
  for (unsigned i = 0, v = start; i < count; ++i, v *= 2)
    out.push_back(dim == 0 ? Basis{int32_t(v), 0} : Basis{0, int32_t(v)});
}

} // namespace

Result<LinearLayout> fragmentLayout(const DpasInstr &instr, MatrixOperand operand) {
  const unsigned s = instr.subGroupSize, bits = elementBits(instr.aType);
  const int laneBits = log2Exact(s);
  if (instr.m != 8 || instr.n != s || instr.k * bits != 256 || laneBits < 3)
    return Error(std::string("DPAS instruction ") + instr.name + " (" + std::to_string(instr.m) +
                 "x" + std::to_string(instr.n) + "x" + std::to_string(instr.k) + " of " +
                 instr.aType + ", " + std::to_string(s) +
                 " lanes) is not 8 rows of 32 bytes by the sub-group's columns");
  std::vector<Basis> registers, lanes;
  switch (operand) {
  case MatrixOperand::A: {
    const unsigned laneBitsPerRow = 256 / s; // bits of a row one lane holds
    if (laneBitsPerRow < bits) {
      // Two (or more) rows per component: the low lanes take the first row.
      const unsigned lanesPerRow = instr.k;
      steps(lanes, log2Exact(lanesPerRow), 1, 1);
      steps(lanes, laneBits - log2Exact(lanesPerRow), 1, 0);
      steps(registers, log2Exact(instr.m) - (laneBits - log2Exact(lanesPerRow)), s / lanesPerRow,
            0);
      break;
    }
    const unsigned perLane = laneBitsPerRow / bits;
    steps(registers, log2Exact(perLane), 1, 1);
    steps(registers, log2Exact(instr.m), 1, 0);
    steps(lanes, laneBits, perLane, 1);
    break;
  }
  case MatrixOperand::B:
    steps(registers, log2Exact(instr.k), 1, 0);
    steps(lanes, laneBits, 1, 1);
    break;
  case MatrixOperand::Accumulator:
    steps(registers, log2Exact(instr.m), 1, 0);
    steps(lanes, laneBits, 1, 1);
    break;
  }
  unsigned rows = operand == MatrixOperand::B ? instr.k : instr.m;
  unsigned cols = operand == MatrixOperand::A ? instr.k : instr.n;
  return build(std::move(registers), std::move(lanes), rows, cols);
}

Result<std::string> matrixInstrAttribute(const DpasInstr &instr) {
  MatrixInstrText text{
      instr.name, {instr.m, instr.n, instr.k}, {instr.aType, instr.bType, instr.accType}, {}};
  return matrixInstrAttributeText<MatrixOperand>(
      text, {{"a", MatrixOperand::A}, {"b", MatrixOperand::B}, {"acc", MatrixOperand::Accumulator}},
      [&](MatrixOperand operand) { return fragmentLayout(instr, operand); });
}

} // namespace hadron::intel
