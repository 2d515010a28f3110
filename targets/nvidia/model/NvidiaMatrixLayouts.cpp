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

#include "hadron/Layout/MatrixInstrText.h"

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

/// "wgmma.m64nNk16.bf16" with N spelled out.
std::string concreteName(const MatrixInstr &instr, unsigned n) {
  std::string name = instr.name;
  if (instr.family == MatrixFamily::Wgmma) {
    size_t at = name.find("nN");
    if (at != std::string::npos)
      name.replace(at, 2, "n" + std::to_string(n));
  }
  return name;
}
} // namespace

Result<std::string> matrixInstrAttribute(const MatrixInstr &instr, unsigned n,
                                         bool aInRegisters) {
  const bool group = instr.family == MatrixFamily::Wgmma;
  unsigned cols = group ? (n ? n : instr.n) : instr.n;
  MatrixInstrText text{concreteName(instr, cols),
                       {instr.m, cols, instr.k},
                       {mlirType(instr.aType), mlirType(instr.bType), mlirType(instr.accType)},
                       {}};
  std::vector<std::pair<const char *, MatrixOperand>> operands = {
      {"acc", MatrixOperand::Accumulator}};
  if (!group)
    operands.insert(operands.begin(), {{"a", MatrixOperand::A}, {"b", MatrixOperand::B}});
  else if (aInRegisters)
    operands.insert(operands.begin(), {"a", MatrixOperand::A});
  for (auto [key, operand] : operands) {
    Result<LinearLayout> fragment = fragmentLayout(instr, operand, group ? cols : 0);
    if (!fragment)
      return Error(fragment.error());
    text.fragments.emplace_back(key, *fragment);
  }
  return matrixInstrAttributeText(text);
}

Result<NamedMatrixInstr> parseMatrixInstrName(std::string_view name) {
  for (const MatrixInstr &instr : matrixInstructions()) {
    if (instr.family != MatrixFamily::Wgmma) {
      if (name == instr.name)
        return NamedMatrixInstr{&instr, instr.n};
      continue;
    }
    // "wgmma.m64n<N>k16.bf16" against "wgmma.m64nNk16.bf16".
    std::string_view pattern = instr.name;
    size_t at = pattern.find("nN");
    if (at == std::string_view::npos || name.substr(0, at + 1) != pattern.substr(0, at + 1))
      continue;
    size_t end = at + 1;
    unsigned n = 0;
    while (end < name.size() && name[end] >= '0' && name[end] <= '9' && n < 100000)
      n = n * 10 + unsigned(name[end++] - '0');
    if (end == at + 1 || name.substr(end) != pattern.substr(at + 2))
      continue;
    if (n < instr.nMin || n > instr.n || n % 8 != 0)
      return Error(std::string(name) + ": N = " + std::to_string(n) + "; " + instr.name +
                   " takes N a multiple of 8 from " + std::to_string(instr.nMin) + " to " +
                   std::to_string(instr.n));
    return NamedMatrixInstr{&instr, n};
  }
  return Error("\"" + std::string(name) + "\" is not a matrix instruction the NVIDIA model declares");
}

uint64_t MatrixDescriptorLayout::fields() const {
  uint64_t mode = swizzleBytes == 128 ? 1 : swizzleBytes == 64 ? 2 : 3;
  return (uint64_t((leadingByteOffset >> 4) & 0x3FFF) << 16) |
         (uint64_t((strideByteOffset >> 4) & 0x3FFF) << 32) | (mode << 62);
}

Result<MatrixDescriptorLayout>
matrixDescriptorLayout(const std::vector<std::vector<int64_t>> &byteOffsets, bool operandA,
                       unsigned elementBits) {
  if (byteOffsets.size() != 2)
    return Error("a matrix operand tile has 2 dims");
  const int kDim = operandA ? 1 : 0, mnDim = 1 - kDim;
  const std::vector<int64_t> &kBits = byteOffsets[kDim], &mnBits = byteOffsets[mnDim];
  const int64_t elemBytes = elementBits / 8;
  std::string tried;
  for (int64_t swizzle : {128, 64, 32}) {
    const int64_t mask = swizzle / 16 - 1;
    // Row j of an 8-row core-matrix group: `swizzle` bytes apart, XORed.
    auto row = [&](int j) {
      int64_t u = swizzle << j;
      return u ^ (((u >> 7) & mask) << 4);
    };
    // The "strided" dim: rows 1, 2, 4 of a group, then groups `stride`
    // bytes apart (stride from the first group bit, or 0 when none).
    auto rowsMatch = [&](const std::vector<int64_t> &bits, int64_t &stride) {
      stride = 0;
      for (size_t j = 0; j < bits.size(); ++j) {
        if (j < 3) {
          if (bits[j] != row(int(j)))
            return false;
          continue;
        }
        if (j == 3)
          stride = bits[3];
        if (stride <= 0 || stride % 16 != 0 || bits[j] != stride << (j - 3))
          return false;
      }
      return true;
    };
    // The contiguous dim: elements in order within a run of `swizzle`
    // bytes, then runs `stride` bytes apart.
    auto runsMatch = [&](const std::vector<int64_t> &bits, int64_t &stride) {
      stride = 0;
      for (size_t j = 0; j < bits.size(); ++j) {
        int64_t plain = elemBytes << j;
        if (plain < swizzle) {
          if (bits[j] != plain)
            return false;
          continue;
        }
        if (plain == swizzle)
          stride = bits[j];
        if (stride <= 0 || stride % 16 != 0 || bits[j] != stride * (plain / swizzle))
          return false;
      }
      return true;
    };
    MatrixDescriptorLayout d;
    d.swizzleBytes = unsigned(swizzle);
    int64_t kRuns = 0, groups = 0;
    // K-major: K contiguous within one run, MN strided.
    if (runsMatch(kBits, kRuns) && kRuns == 0 && rowsMatch(mnBits, groups)) {
      d.mnMajor = false;
      d.leadingByteOffset = 16; // unused by swizzled K-major layouts
      d.strideByteOffset = unsigned(groups ? groups : 8 * swizzle);
      return d;
    }
    // MN-major (16-bit types): MN contiguous, K strided.
    int64_t mnRuns = 0;
    if (elementBits == 16 && runsMatch(mnBits, mnRuns) && rowsMatch(kBits, groups)) {
      d.mnMajor = true;
      d.leadingByteOffset = unsigned(mnRuns ? mnRuns : swizzle * 8);
      d.strideByteOffset = unsigned(groups ? groups : 8 * swizzle);
      return d;
    }
  }
  auto show = [](const std::vector<int64_t> &bits) {
    std::string s = "[";
    for (size_t i = 0; i < bits.size(); ++i)
      s += (i ? ", " : "") + std::to_string(bits[i]);
    return s + "]";
  };
  return Error(std::string("operand ") + (operandA ? "A" : "B") +
               " is not in a layout a wgmma descriptor reads (a K-major" +
               (elementBits == 16 ? " or MN-major" : "") +
               " tile with a 128-, 64- or 32-byte swizzle, as #hd.matrix_shared makes): "
               "byte offsets of its row bits " +
               show(byteOffsets[0]) + ", column bits " + show(byteOffsets[1]));
}

} // namespace hadron::nvidia
