//===- AmdMatrixLayouts.cpp - Register fragments of MFMA and WMMA ---------===//
//
// MFMA (CDNA, wave64), an M x N x K instruction with M = N in {16, 32}:
//
//   A (M x K): lane l holds row l % M and kPerLane consecutive K values
//              starting at (l / M) * kPerLane; 64 / M lane groups cover K.
//   B (K x N): the same with rows and columns exchanged (column l % N).
//   D (M x N): lane l holds column l % N; its M * N / 64 values are rows in
//              groups of 4 (32-bit results) or 1 (f64, one result a VGPR
//              pair): the register bits below the group pick the row within
//              it, the lane bits above log2(N) pick the group, the
//              remaining register bits pick blocks of group * 64 / N rows.
//              (32x32: row = 8 * (r / 4) + 4 * (l / 32) + r % 4;
//               16x16: row = 4 * (l / 16) + r;
//               16x16 f64: row = 4 * r + l / 16.)
//
// WMMA (RDNA3, wave32), 16 x 16 x 16:
//
//   A: lane l holds row l % 16, all 16 K values; lanes 16-31 hold a copy.
//   B: lane l holds column l % 16, all 16 K values; lanes 16-31 hold a copy.
//   D: lane l holds column l % 16 and the 8 rows 2 * r + l / 16.
//
//===----------------------------------------------------------------------===//

#include "AmdModel.h"

#include "hadron/Layout/LinearLayout.h"
#include "hadron/Layout/MatrixInstrText.h"

#include <string>
#include <utility>

namespace hadron::amd {
namespace {

using Basis = LinearLayout::Basis;

int log2Exact(unsigned v) {
  int bits = 0;
  while ((1u << bits) < v)
    ++bits;
  return (1u << bits) == v ? bits : -1;
}

/// A basis moving `rows` along dim0 and `cols` along dim1.
Basis at(int32_t rows, int32_t cols) { return {rows, cols}; }

Result<LinearLayout> build(std::vector<Basis> registers, std::vector<Basis> lanes, int32_t rows,
                           int32_t cols) {
  return LinearLayout::create({{"register", std::move(registers)}, {"lane", std::move(lanes)}},
                              {{"dim0", rows}, {"dim1", cols}}, /*requireSurjective=*/true);
}

/// A or B of an MFMA: `outer` is M (or N) along the dim the lane's low bits
/// walk, K runs along the other. `kFirst` puts K on dim0 (operand B).
Result<LinearLayout> mfmaOperand(const MatrixInstr &instr, unsigned outer, bool kFirst) {
  auto basis = [&](int32_t alongOuter, int32_t alongK) {
    return kFirst ? at(alongK, alongOuter) : at(alongOuter, alongK);
  };
  std::vector<Basis> registers, lanes;
  for (unsigned i = 1; i < instr.kPerLane; i <<= 1)
    registers.push_back(basis(0, i));
  int outerBits = log2Exact(outer);
  for (int b = 0; b < 6; ++b)
    lanes.push_back(b < outerBits ? basis(1 << b, 0)
                                  : basis(0, instr.kPerLane << (b - outerBits)));
  return kFirst ? build(registers, lanes, instr.k, outer) : build(registers, lanes, outer, instr.k);
}

Result<LinearLayout> mfmaAccumulator(const MatrixInstr &instr) {
  int colBits = log2Exact(instr.n);
  int regBits = log2Exact(instr.m * instr.n / 64);
  // Rows a lane holds before the next lane group: 4 for 32-bit results, 1
  // for f64 (AMD's matrix instruction calculator, "64b outputs").
  int groupBits = std::string(instr.accType) == "f64" ? 0 : 2;
  int row = 1;
  std::vector<Basis> registers(regBits), lanes(6);
  for (int b = 0; b < groupBits && b < regBits; ++b, row <<= 1)
    registers[b] = at(row, 0);
  for (int b = 0; b < 6; ++b)
    if (b < colBits)
      lanes[b] = at(0, 1 << b);
  for (int b = colBits; b < 6; ++b, row <<= 1)
    lanes[b] = at(row, 0);
  for (int b = groupBits; b < regBits; ++b, row <<= 1)
    registers[b] = at(row, 0);
  return build(registers, lanes, instr.m, instr.n);
}

Result<LinearLayout> wmmaFragment(const MatrixInstr &instr, MatrixOperand operand) {
  std::vector<Basis> registers, lanes;
  switch (operand) {
  case MatrixOperand::A:
  case MatrixOperand::B: {
    bool kFirst = operand == MatrixOperand::B;
    for (int32_t i = 1; i < 16; i <<= 1)
      registers.push_back(kFirst ? at(i, 0) : at(0, i));
    for (int32_t i = 1; i < 16; i <<= 1)
      lanes.push_back(kFirst ? at(0, i) : at(i, 0));
    lanes.push_back(at(0, 0)); // the upper half-wave holds a copy
    return build(registers, lanes, 16, 16);
  }
  case MatrixOperand::Accumulator:
    for (int32_t i = 2; i < 16; i <<= 1)
      registers.push_back(at(i, 0));
    for (int32_t i = 1; i < 16; i <<= 1)
      lanes.push_back(at(0, i));
    lanes.push_back(at(1, 0)); // the upper half-wave holds the odd rows
    return build(registers, lanes, 16, 16);
  }
  return Error("unknown matrix operand");
}

} // namespace

Result<LinearLayout> fragmentLayout(const MatrixInstr &instr, MatrixOperand operand) {
  if (instr.family == MatrixFamily::Wmma)
    return wmmaFragment(instr, operand);
  if (instr.m != instr.n || (instr.m != 16 && instr.m != 32) ||
      instr.k != (64 / instr.m) * instr.kPerLane || log2Exact(instr.kPerLane) < 0)
    return Error(std::string("matrix instruction ") + instr.name + " (" +
                 std::to_string(instr.m) + "x" + std::to_string(instr.n) + "x" +
                 std::to_string(instr.k) + ", " + std::to_string(instr.kPerLane) +
                 " per lane) has no MFMA fragment shape");
  switch (operand) {
  case MatrixOperand::A:
    return mfmaOperand(instr, instr.m, /*kFirst=*/false);
  case MatrixOperand::B:
    return mfmaOperand(instr, instr.n, /*kFirst=*/true);
  case MatrixOperand::Accumulator:
    return mfmaAccumulator(instr);
  }
  return Error("unknown matrix operand");
}

namespace {

/// The MLIR spelling of a model type; empty when hd.dot has no such operand.
std::string mlirType(const std::string &type) {
  if (type == "xf32")
    return "tf32";
  if (type == "f16" || type == "bf16" || type == "f32" || type == "f64" || type == "i8" ||
      type == "i32")
    return type;
  return "";
}

} // namespace

bool issuedByDot(const MatrixInstr &instr) {
  return !mlirType(instr.aType).empty() && !mlirType(instr.bType).empty() &&
         !mlirType(instr.accType).empty();
}

Result<std::string> matrixInstrAttribute(const MatrixInstr &instr) {
  if (!issuedByDot(instr))
    return Error(std::string(instr.name) + ": hd.dot has no " + instr.aType +
                 " operands, so no #hd.matrix_instr describes it");
  MatrixInstrText text{instr.name,
                       {instr.m, instr.n, instr.k},
                       {mlirType(instr.aType), mlirType(instr.bType), mlirType(instr.accType)},
                       {}};
  return matrixInstrAttributeText<MatrixOperand>(
      text, {{"a", MatrixOperand::A}, {"b", MatrixOperand::B}, {"acc", MatrixOperand::Accumulator}},
      [&](MatrixOperand operand) { return fragmentLayout(instr, operand); });
}

} // namespace hadron::amd
