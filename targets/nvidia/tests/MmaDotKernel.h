//===- MmaDotKernel.h - One hd.dot per mma.sync instruction, for tests ----===//
//
// D = A * B + C for row-major A (M x K), B (K x N), C and D (M x N) in one
// CTA of 2x2 warps, on the #hd.mma layout of one of the model's mma.sync
// instructions: M = 4m, N = 4n, K = 2k, so each warp repeats the instruction
// along M and N and the dot takes two K steps. Operands are loaded in a
// blocked layout and converted to the operand layouts; the accumulator goes
// back to the blocked layout before the store, so both directions of the
// conversion run too.
//
//===----------------------------------------------------------------------===//
#ifndef HADRON_TARGETS_NVIDIA_TESTS_MMADOTKERNEL_H
#define HADRON_TARGETS_NVIDIA_TESTS_MMADOTKERNEL_H

#include "model/NvidiaModel.h"

#include <cctype>
#include <ostream>
#include <string>
#include <vector>

namespace hadron::nvidia::testing {

struct MmaDotShape {
  int m, n, k;
  std::string elem, acc; ///< MLIR element types of A/B and of C/D
  bool tf32;             ///< f32 operands read at tf32 precision
};

inline MmaDotShape mmaDotShape(const MatrixInstr &instr) {
  std::string a = instr.aType;
  return {int(4 * instr.m), int(4 * instr.n), int(2 * instr.k),
          a == "tf32" ? "f32" : a == "s8" ? "i8" : a,
          std::string(instr.accType) == "s32" ? "i32" : "f32", a == "tf32"};
}

/// The names of the model's mma.sync instructions (the test parameters).
inline std::vector<std::string> mmaSyncInstructions() {
  std::vector<std::string> names;
  for (const MatrixInstr &instr : matrixInstructions())
    if (instr.family == MatrixFamily::MmaSync)
      names.push_back(instr.name);
  return names;
}

/// An instruction name as a test name: "mma.m16n8k16.f16" -> "mma_m16n8k16_f16".
inline std::string testName(std::string name) {
  for (char &ch : name)
    if (!std::isalnum(static_cast<unsigned char>(ch)))
      ch = '_';
  return name;
}

/// `tensor<r x c x elem, layout>`.
inline std::string tileType(int r, int c, const std::string &elem, const char *layout) {
  return "tensor<" + std::to_string(r) + "x" + std::to_string(c) + "x" + elem + ", " + layout +
         ">";
}

/// Appends to `ir` the ops that make pointers to every element of the r x c
/// row-major matrix `%x` in the layout #ld (slices #rows, #cols); returns
/// the name of the pointer tile.
inline std::string rowMajorPointers(std::string &ir, const std::string &x, int r, int c,
                                    const std::string &elem) {
  std::string R = std::to_string(r), C = std::to_string(c), v = "%" + x + "_";
  std::string ptrT = tileType(r, c, "!hd.ptr<" + elem + ">", "#ld");
  std::string offT = tileType(r, c, "i32", "#ld");
  ir += "    " + v + "r = hd.arange 0 to " + R + " : tensor<" + R + "xi32, #rows>\n" +
        "    " + v + "s = arith.constant dense<" + C + "> : tensor<" + R + "xi32, #rows>\n" +
        "    " + v + "rs = arith.muli " + v + "r, " + v + "s : tensor<" + R + "xi32, #rows>\n" +
        "    " + v + "r2 = hd.expand_dims " + v + "rs axis = 1 : tensor<" + R +
        "xi32, #rows> -> tensor<" + R + "x1xi32, #ld>\n" +
        "    " + v + "rb = hd.broadcast " + v + "r2 : tensor<" + R + "x1xi32, #ld> -> " + offT +
        "\n" + "    " + v + "c = hd.arange 0 to " + C + " : tensor<" + C + "xi32, #cols>\n" +
        "    " + v + "c2 = hd.expand_dims " + v + "c axis = 0 : tensor<" + C +
        "xi32, #cols> -> tensor<1x" + C + "xi32, #ld>\n" +
        "    " + v + "cb = hd.broadcast " + v + "c2 : tensor<1x" + C + "xi32, #ld> -> " + offT +
        "\n" + "    " + v + "off = arith.addi " + v + "rb, " + v + "cb : " + offT + "\n" +
        "    " + v + "p = hd.splat %" + x + " : " + ptrT + "\n" +
        "    " + v + "ptrs = hd.addptr " + v + "p, " + v + "off : " + ptrT + ", " + offT + "\n";
  return v + "ptrs";
}

/// The kernel `mma_dot(a, b, c, d)`, or an error for an instruction without
/// an #hd.matrix_instr (wgmma).
inline Result<std::string> mmaDotKernel(const MatrixInstr &instr) {
  Result<std::string> attr = matrixInstrAttribute(instr);
  if (!attr)
    return attr;
  const MmaDotShape s = mmaDotShape(instr);
  std::string ir = "#instr = " + *attr + "\n" +
                   "#mma = #hd.mma<{instr = #instr, warpsPerCTA = [2, 2]}>\n"
                   "#a_op = #hd.dot_op<{opIdx = 0, parent = #mma}>\n"
                   "#b_op = #hd.dot_op<{opIdx = 1, parent = #mma}>\n"
                   "#ld = #hd.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], "
                   "warpsPerCTA = [2, 2], order = [1, 0]}>\n"
                   "#rows = #hd.slice<{dim = 1, parent = #ld}>\n"
                   "#cols = #hd.slice<{dim = 0, parent = #ld}>\n"
                   "module attributes {hd.num_warps = 4 : i32} {\n"
                   "  func.func @mma_dot(%a: !hd.ptr<" + s.elem + ">, %b: !hd.ptr<" + s.elem +
                   ">, %c: !hd.ptr<" + s.acc + ">, %d: !hd.ptr<" + s.acc +
                   ">) attributes {hd.kernel} {\n";
  const auto tensor = tileType;
  auto pointers = [&](const std::string &x, int r, int c, const std::string &elem) {
    return rowMajorPointers(ir, x, r, c, elem);
  };
  std::string pa = pointers("a", s.m, s.k, s.elem), pb = pointers("b", s.k, s.n, s.elem);
  std::string pc = pointers("c", s.m, s.n, s.acc), pd = pointers("d", s.m, s.n, s.acc);
  std::string aT = tensor(s.m, s.k, s.elem, "#ld"), bT = tensor(s.k, s.n, s.elem, "#ld");
  std::string cT = tensor(s.m, s.n, s.acc, "#ld");
  std::string aOp = tensor(s.m, s.k, s.elem, "#a_op"), bOp = tensor(s.k, s.n, s.elem, "#b_op");
  std::string acc = tensor(s.m, s.n, s.acc, "#mma");
  auto ptrs = [&](int r, int c, const std::string &elem) {
    return tensor(r, c, "!hd.ptr<" + elem + ">", "#ld");
  };
  ir += "    %av = hd.load " + pa + " : " + ptrs(s.m, s.k, s.elem) + "\n" +
        "    %bv = hd.load " + pb + " : " + ptrs(s.k, s.n, s.elem) + "\n" +
        "    %cv = hd.load " + pc + " : " + ptrs(s.m, s.n, s.acc) + "\n" +
        "    %ao = hd.convert_layout %av : " + aT + " -> " + aOp + "\n" +
        "    %bo = hd.convert_layout %bv : " + bT + " -> " + bOp + "\n" +
        "    %co = hd.convert_layout %cv : " + cT + " -> " + acc + "\n" +
        "    %do = hd.dot %ao, %bo, %co" +
        (s.tf32 ? " {inputPrecision = #hd.precision<tf32>}" : "") + " : " + aOp + " * " + bOp +
        " -> " + acc + "\n" + "    %dv = hd.convert_layout %do : " + acc + " -> " + cT + "\n" +
        "    hd.store " + pd + ", %dv : " + ptrs(s.m, s.n, s.acc) + "\n" +
        "    return\n  }\n}\n";
  return ir;
}

/// A dot on a wgmma instruction: D = A * B + C with A (M x K) and B (K x N)
/// read from shared memory in #hd.matrix_shared layouts, in one CTA of 8
/// warps (two warpgroups along M). The operands are loaded row-major in a
/// blocked layout and stored into shared memory by local_alloc.
struct WgmmaCase {
  std::string instr;  ///< the model's name, "wgmma.m64nNk16.bf16"
  int n;              ///< the instruction's N, the tile's N
  int swizzle;        ///< bytes: 128, 64 or 32
  bool bKMajor;       ///< B with K contiguous (transposed = true), else N
  bool aInRegisters = false; ///< A from registers (its #hd.dot_op layout)
};

inline std::vector<WgmmaCase> wgmmaCases() {
  return {{"wgmma.m64nNk16.bf16", 256, 128, false}, {"wgmma.m64nNk16.bf16", 128, 64, true},
          {"wgmma.m64nNk16.f16", 64, 32, false},    {"wgmma.m64nNk16.f16", 128, 128, true},
          {"wgmma.m64nNk8.tf32", 128, 128, true},   {"wgmma.m64nNk32.s8", 64, 64, true},
          {"wgmma.m64nNk16.bf16", 128, 128, false, true},
          {"wgmma.m64nNk16.f16", 64, 64, true, true},
          {"wgmma.m64nNk32.s8", 128, 128, true, true}};
}

inline std::string wgmmaCaseName(const WgmmaCase &c) {
  return testName(c.instr) + "_n" + std::to_string(c.n) + "_sw" + std::to_string(c.swizzle) +
         (c.bKMajor ? "_bk" : "_bn") + (c.aInRegisters ? "_areg" : "");
}

/// Test names and parameter printing (stable across runs: ctest lists tests by name).
inline void PrintTo(const WgmmaCase &c, std::ostream *os) { *os << wgmmaCaseName(c); }

/// The shape: M = 128, N = the instruction's, K two runs of the swizzle.
inline MmaDotShape wgmmaDotShape(const WgmmaCase &c) {
  const MatrixInstr &instr = *findMatrixInstr(c.instr);
  std::string a = instr.aType;
  int elemBytes = a == "s8" ? 1 : a == "tf32" ? 4 : 2;
  return {128, c.n, 2 * c.swizzle / elemBytes, a == "tf32" ? "f32" : a == "s8" ? "i8" : a,
          std::string(instr.accType) == "s32" ? "i32" : "f32", a == "tf32"};
}

/// The kernel `wgmma_dot(a, b, c, d)`.
inline Result<std::string> wgmmaDotKernel(const WgmmaCase &c) {
  const MatrixInstr *instr = findMatrixInstr(c.instr);
  if (!instr)
    return Error("no instruction " + c.instr);
  Result<std::string> attr = matrixInstrAttribute(*instr, unsigned(c.n), c.aInRegisters);
  if (!attr)
    return attr;
  const MmaDotShape s = wgmmaDotShape(c);
  int bits = s.elem == "i8" ? 8 : s.elem == "f32" ? 32 : 16;
  auto shared = [&](bool transposed) {
    return "#hd.matrix_shared<{swizzle = " + std::to_string(c.swizzle) +
           ", elementBits = " + std::to_string(bits) +
           ", transposed = " + (transposed ? "true" : "false") + "}>";
  };
  std::string ir = "#instr = " + *attr + "\n" +
                   "#mma = #hd.mma<{instr = #instr, warpsPerCTA = [8, 1]}>\n"
                   "#a_op = #hd.dot_op<{opIdx = 0, parent = #mma}>\n"
                   "#ld = #hd.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], "
                   "warpsPerCTA = [8, 1], order = [1, 0]}>\n"
                   "#rows = #hd.slice<{dim = 1, parent = #ld}>\n"
                   "#cols = #hd.slice<{dim = 0, parent = #ld}>\n"
                   "#a_sh = " + shared(false) + "\n" +
                   "#b_sh = " + shared(c.bKMajor) + "\n" +
                   "module attributes {hd.num_warps = 8 : i32} {\n"
                   "  func.func @wgmma_dot(%a: !hd.ptr<" + s.elem + ">, %b: !hd.ptr<" + s.elem +
                   ">, %c: !hd.ptr<" + s.acc + ">, %d: !hd.ptr<" + s.acc +
                   ">) attributes {hd.kernel} {\n";
  const auto tensor = tileType;
  auto pointers = [&](const std::string &x, int r, int c, const std::string &elem) {
    return rowMajorPointers(ir, x, r, c, elem);
  };
  std::string pa = pointers("a", s.m, s.k, s.elem), pb = pointers("b", s.k, s.n, s.elem);
  std::string pc = pointers("c", s.m, s.n, s.acc), pd = pointers("d", s.m, s.n, s.acc);
  std::string aT = tensor(s.m, s.k, s.elem, "#ld"), bT = tensor(s.k, s.n, s.elem, "#ld");
  std::string cT = tensor(s.m, s.n, s.acc, "#ld");
  std::string aM = "!hd.memdesc<" + std::to_string(s.m) + "x" + std::to_string(s.k) + "x" +
                   s.elem + ", #a_sh>";
  std::string bM = "!hd.memdesc<" + std::to_string(s.k) + "x" + std::to_string(s.n) + "x" +
                   s.elem + ", #b_sh>";
  std::string acc = tensor(s.m, s.n, s.acc, "#mma");
  auto ptrs = [&](int r, int cols, const std::string &elem) {
    return tensor(r, cols, "!hd.ptr<" + elem + ">", "#ld");
  };
  ir += "    %av = hd.load " + pa + " : " + ptrs(s.m, s.k, s.elem) + "\n" +
        "    %bv = hd.load " + pb + " : " + ptrs(s.k, s.n, s.elem) + "\n" +
        "    %cv = hd.load " + pc + " : " + ptrs(s.m, s.n, s.acc) + "\n" +
        (c.aInRegisters
             ? "    %as = hd.convert_layout %av : " + aT + " -> " + tensor(s.m, s.k, s.elem, "#a_op") +
                   "\n"
             : "    %as = hd.local_alloc %av : " + aT + " -> " + aM + "\n") +
        "    %bs = hd.local_alloc %bv : " + bT + " -> " + bM + "\n" +
        "    %co = hd.convert_layout %cv : " + cT + " -> " + acc + "\n" +
        "    %do = hd.dot %as, %bs, %co" +
        (s.tf32 ? " {inputPrecision = #hd.precision<tf32>}" : "") + " : " +
        (c.aInRegisters ? tensor(s.m, s.k, s.elem, "#a_op") : aM) + " * " + bM +
        " -> " + acc + "\n" + "    %dv = hd.convert_layout %do : " + acc + " -> " + cT + "\n" +
        "    hd.store " + pd + ", %dv : " + ptrs(s.m, s.n, s.acc) + "\n" +
        "    return\n  }\n}\n";
  return ir;
}

} // namespace hadron::nvidia::testing

#endif // HADRON_TARGETS_NVIDIA_TESTS_MMADOTKERNEL_H
