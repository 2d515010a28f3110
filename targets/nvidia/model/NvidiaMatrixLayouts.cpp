//===- NvidiaMatrixLayouts.cpp - Matrix fragments as linear layouts -------===//
//
// The PTX ISA gives each fragment as formulas over groupID = laneid >> 2 and
// threadID_in_group = laneid % 4. Every one of them is linear over GF(2):
// each bit of the register index and of the lane moves the element by a
// fixed row/column power of two. For example the mma.m16n8k16 accumulator
// (PTX ISA, "Matrix Fragments for mma.m16n8k16", C/D) is
//
//   row = groupID + 8 * (i >> 1),  col = threadID_in_group * 2 + (i & 1)
//
// so register bit 0 -> col 1, register bit 1 -> row 8, lane bits 0, 1 ->
// col 2, 4 and lane bits 2, 3, 4 -> row 1, 2, 4. The tables below are those
// bases, written (row, col); the unit test checks them against the formulas.
//
//===----------------------------------------------------------------------===//

#include "NvidiaModel.h"

#include <utility>

namespace hadron::nvidia {

namespace {

using RowCol = std::pair<int32_t, int32_t>;

/// Bases of one warp's fragment: per register bit and per lane bit.
struct WarpFragment {
  std::vector<RowCol> registers;
  std::vector<RowCol> lanes;
  int32_t rows, cols;
};

// Lane bits 2..4 pick the row (groupID); bits 0..1 (threadID_in_group) step
// along `dim` by `step`.
std::vector<RowCol> lanesGroupRows(bool colsFromThreadInGroup, int32_t step) {
  RowCol t0 = colsFromThreadInGroup ? RowCol{0, step} : RowCol{step, 0};
  RowCol t1 = colsFromThreadInGroup ? RowCol{0, 2 * step} : RowCol{2 * step, 0};
  return {t0, t1, {1, 0}, {2, 0}, {4, 0}};
}
// B fragments: groupID picks the column (N), threadID_in_group the row (K).
std::vector<RowCol> lanesGroupCols(int32_t kStep) {
  return {{kStep, 0}, {2 * kStep, 0}, {0, 1}, {0, 2}, {0, 4}};
}

/// A of one warp, for the K of the instruction's input type.
WarpFragment warpA(unsigned k, const std::string &type) {
  if (type == "tf32") // m16n8k8: a0 (g, t), a1 (g+8, t), a2 (g, t+4), a3 (g+8, t+4)
    return {{{8, 0}, {0, 4}}, lanesGroupRows(true, 1), 16, 8};
  if (type == "s8" && k == 16) // a_i: (g + 8*(i>=4), t*4 + i%4)
    return {{{0, 1}, {0, 2}, {8, 0}}, lanesGroupRows(true, 4), 16, 16};
  if (type == "s8") // k32: (g + 8*((i>>2)&1), t*4 + i%4 + 16*(i>=8))
    return {{{0, 1}, {0, 2}, {8, 0}, {0, 16}}, lanesGroupRows(true, 4), 16, 32};
  // f16/bf16 k16: (g + 8*((i>>1)&1), t*2 + (i&1) + 8*(i>=4))
  return {{{0, 1}, {8, 0}, {0, 8}}, lanesGroupRows(true, 2), 16, 16};
}

/// B (K x N = 8) of one warp.
WarpFragment warpB(unsigned k, const std::string &type) {
  if (type == "tf32") // b0 (t, g), b1 (t+4, g)
    return {{{4, 0}}, lanesGroupCols(1), 8, 8};
  if (type == "s8" && k == 16) // b_i: (t*4 + i, g)
    return {{{1, 0}, {2, 0}}, lanesGroupCols(4), 16, 8};
  if (type == "s8") // k32: (t*4 + i%4 + 16*(i>=4), g)
    return {{{1, 0}, {2, 0}, {16, 0}}, lanesGroupCols(4), 32, 8};
  // f16/bf16 k16: (t*2 + (i&1) + 8*(i>=2), g)
  return {{{1, 0}, {8, 0}}, lanesGroupCols(2), 16, 8};
}

/// The accumulator of an m16 x `n` tile of one warp: pairs of columns, the
/// second row half, then n / 8 column blocks.
WarpFragment warpAccumulator(int32_t n) {
  WarpFragment f{{{0, 1}, {8, 0}}, lanesGroupRows(true, 2), 16, n};
  for (int32_t c = 8; c < n; c *= 2)
    f.registers.push_back({0, c});
  return f;
}

LinearLayout::InDim inDim(const char *name, const std::vector<RowCol> &bases) {
  LinearLayout::InDim dim{name, {}};
  for (auto [row, col] : bases)
    dim.bases.push_back({row, col});
  return dim;
}

bool isPowerOfTwo(unsigned v) { return v && !(v & (v - 1)); }

} // namespace

Result<LinearLayout> fragmentLayout(const MatrixInstr &instr, MatrixOperand operand,
                                    unsigned n) {
  const std::string aType = instr.aType;
  std::vector<RowCol> warps;
  unsigned cols = instr.n;
  if (instr.family == MatrixFamily::Wgmma) {
    if (operand == MatrixOperand::B)
      return Error(std::string(instr.name) +
                   ": operand B is read from shared memory through a matrix descriptor; it "
                   "has no register fragment");
    cols = n ? n : instr.n;
    // A linear layout covers power-of-two sizes; wgmma's N is any multiple of 8.
    if (cols < instr.nMin || cols > instr.n || !isPowerOfTwo(cols))
      return Error(std::string(instr.name) + ": N = " + std::to_string(cols) +
                   " has no fragment layout here; N must be a power of two from " +
                   std::to_string(instr.nMin) + " to " + std::to_string(instr.n));
    // The warpgroup's four warps each own 16 consecutive rows.
    warps = {{16, 0}, {32, 0}};
  } else if (n && n != instr.n) {
    return Error(std::string(instr.name) + ": N is " + std::to_string(instr.n) + ", not " +
                 std::to_string(n));
  }

  WarpFragment f = operand == MatrixOperand::A   ? warpA(instr.k, aType)
                   : operand == MatrixOperand::B ? warpB(instr.k, aType)
                                                 : warpAccumulator(static_cast<int32_t>(cols));
  int32_t rows = f.rows * (warps.empty() ? 1 : 4);
  return LinearLayout::create({inDim("register", f.registers), inDim("lane", f.lanes),
                               inDim("warp", warps)},
                              {{"dim0", rows}, {"dim1", f.cols}},
                              /*requireSurjective=*/true);
}

namespace {
/// The MLIR spelling of a model type name.
std::string mlirType(const std::string &type) {
  if (type == "s8")
    return "i8";
  if (type == "s32")
    return "i32";
  return type;
}

std::string basesText(const LinearLayout &layout, const char *in) {
  std::string s = "[";
  for (int i = 0; i < layout.getInDimSizeLog2(in); ++i) {
    const LinearLayout::Basis &b = layout.getBasis(in, i);
    s += (i ? ", [" : "[") + std::to_string(b[0]) + ", " + std::to_string(b[1]) + "]";
  }
  return s + "]";
}
} // namespace

Result<std::string> matrixInstrAttribute(const MatrixInstr &instr) {
  if (instr.family != MatrixFamily::MmaSync)
    return Error(std::string(instr.name) +
                 ": issued by a warpgroup from shared memory; no #hd.matrix_instr describes it");
  std::string text = std::string("#hd.matrix_instr<{name = \"") + instr.name +
                     "\", shape = [" + std::to_string(instr.m) + ", " +
                     std::to_string(instr.n) + ", " + std::to_string(instr.k) +
                     "], aType = " + mlirType(instr.aType) + ", bType = " + mlirType(instr.bType) +
                     ", accType = " + mlirType(instr.accType);
  const std::pair<const char *, MatrixOperand> operands[] = {
      {"a", MatrixOperand::A}, {"b", MatrixOperand::B}, {"acc", MatrixOperand::Accumulator}};
  for (auto [key, operand] : operands) {
    Result<LinearLayout> fragment = fragmentLayout(instr, operand);
    if (!fragment)
      return Error(fragment.error());
    text += std::string(", ") + key + " = {register = " + basesText(*fragment, "register") +
            ", lane = " + basesText(*fragment, "lane") + "}";
  }
  return text + "}>";
}

} // namespace hadron::nvidia
