//===- MatrixDotKernel.h - One hd.dot on a reported matrix instruction ----===//
//
// The test kernel of one `#hd.matrix_instr<{...}>` text as a compiler part's
// matrix_instructions reports it: D = A * B + C for row-major A (M x K),
// B (K x N), C and D (M x N) in one CTA of two warps along M, with
// M = 2m, N = 2n and K = 2k, so each warp issues the instruction four
// times (two tiles along N, two steps along K). Operands are loaded in a
// blocked layout and converted to the operand layouts, and the accumulator
// goes back to the blocked layout before the store. Written from the text
// alone, so it knows nothing of the model it tests; the target tests of
// AMD and Intel compile it for each instruction their compiler parts report.
//
//===----------------------------------------------------------------------===//
#ifndef HADRON_TESTS_SUPPORT_MATRIXDOTKERNEL_H
#define HADRON_TESTS_SUPPORT_MATRIXDOTKERNEL_H

#include <regex>
#include <string>

namespace hadron::testing {

struct MatrixInstrText {
  std::string text, name;
  int m = 0, n = 0, k = 0;
  std::string aType, accType;
};

/// The fields of an #hd.matrix_instr text the kernel needs.
inline MatrixInstrText parseMatrixInstrText(const std::string &text) {
  MatrixInstrText mi;
  mi.text = text;
  std::smatch match;
  if (std::regex_search(text, match, std::regex(R"(name = \"([^\"]+)\")")))
    mi.name = match[1];
  if (std::regex_search(text, match, std::regex(R"(shape = \[(\d+), (\d+), (\d+)\])"))) {
    mi.m = std::stoi(match[1]);
    mi.n = std::stoi(match[2]);
    mi.k = std::stoi(match[3]);
  }
  if (std::regex_search(text, match, std::regex(R"(aType = (\w+))")))
    mi.aType = match[1];
  if (std::regex_search(text, match, std::regex(R"(accType = (\w+))")))
    mi.accType = match[1];
  return mi;
}

/// The kernel `mma_dot(a, b, c, d)` for warps of `lanes` lanes.
inline std::string matrixDotKernel(const MatrixInstrText &mi, unsigned lanes) {
  const bool tf32 = mi.aType == "tf32";
  const std::string elem = tf32 ? "f32" : mi.aType, acc = mi.accType;
  const int M = 2 * mi.m, N = 2 * mi.n, K = 2 * mi.k;
  const std::string tpw = lanes == 64 ? "[8, 8]" : lanes == 32 ? "[4, 8]" : lanes == 16 ? "[2, 8]"
                                                                                         : "[1, 8]";
  std::string ir = "#instr = " + mi.text + "\n" +
                   "#mma = #hd.mma<{instr = #instr, warpsPerCTA = [2, 1]}>\n"
                   "#a_op = #hd.dot_op<{opIdx = 0, parent = #mma}>\n"
                   "#b_op = #hd.dot_op<{opIdx = 1, parent = #mma}>\n"
                   "#ld = #hd.blocked<{sizePerThread = [1, 1], threadsPerWarp = " + tpw +
                   ", warpsPerCTA = [2, 1], order = [1, 0]}>\n"
                   "#rows = #hd.slice<{dim = 1, parent = #ld}>\n"
                   "#cols = #hd.slice<{dim = 0, parent = #ld}>\n"
                   "module attributes {hd.num_warps = 2 : i32} {\n"
                   "  func.func @mma_dot(%a: !hd.ptr<" + elem + ">, %b: !hd.ptr<" + elem +
                   ">, %c: !hd.ptr<" + acc + ">, %d: !hd.ptr<" + acc +
                   ">) attributes {hd.kernel} {\n";
  auto tensor = [](int r, int c, const std::string &e, const std::string &layout) {
    return "tensor<" + std::to_string(r) + "x" + std::to_string(c) + "x" + e + ", " + layout +
           ">";
  };
  // Pointers to the elements of an r x c row-major matrix, in #ld.
  auto pointers = [&](const std::string &x, int r, int c, const std::string &e) {
    std::string R = std::to_string(r), C = std::to_string(c), v = "%" + x + "_";
    std::string ptrT = tensor(r, c, "!hd.ptr<" + e + ">", "#ld"), offT = tensor(r, c, "i32", "#ld");
    std::string rowT = "tensor<" + R + "xi32, #rows>", colT = "tensor<" + C + "xi32, #cols>";
    ir += "    " + v + "r = hd.arange 0 to " + R + " : " + rowT + "\n" +
          "    " + v + "s = arith.constant dense<" + C + "> : " + rowT + "\n" +
          "    " + v + "rs = arith.muli " + v + "r, " + v + "s : " + rowT + "\n" +
          "    " + v + "r2 = hd.expand_dims " + v + "rs axis = 1 : " + rowT + " -> tensor<" + R +
          "x1xi32, #ld>\n" +
          "    " + v + "rb = hd.broadcast " + v + "r2 : tensor<" + R + "x1xi32, #ld> -> " + offT +
          "\n" +
          "    " + v + "c = hd.arange 0 to " + C + " : " + colT + "\n" +
          "    " + v + "c2 = hd.expand_dims " + v + "c axis = 0 : " + colT + " -> tensor<1x" + C +
          "xi32, #ld>\n" +
          "    " + v + "cb = hd.broadcast " + v + "c2 : tensor<1x" + C + "xi32, #ld> -> " + offT +
          "\n" +
          "    " + v + "off = arith.addi " + v + "rb, " + v + "cb : " + offT + "\n" +
          "    " + v + "p = hd.splat %" + x + " : " + ptrT + "\n" +
          "    " + v + "ptrs = hd.addptr " + v + "p, " + v + "off : " + ptrT + ", " + offT + "\n";
    return v + "ptrs";
  };
  std::string pa = pointers("a", M, K, elem), pb = pointers("b", K, N, elem);
  std::string pc = pointers("c", M, N, acc), pd = pointers("d", M, N, acc);
  auto ptrs = [&](int r, int c, const std::string &e) {
    return tensor(r, c, "!hd.ptr<" + e + ">", "#ld");
  };
  std::string aT = tensor(M, K, elem, "#ld"), bT = tensor(K, N, elem, "#ld");
  std::string cT = tensor(M, N, acc, "#ld");
  std::string aOp = tensor(M, K, elem, "#a_op"), bOp = tensor(K, N, elem, "#b_op");
  std::string accT = tensor(M, N, acc, "#mma");
  ir += "    %av = hd.load " + pa + " : " + ptrs(M, K, elem) + "\n" +
        "    %bv = hd.load " + pb + " : " + ptrs(K, N, elem) + "\n" +
        "    %cv = hd.load " + pc + " : " + ptrs(M, N, acc) + "\n" +
        "    %ao = hd.convert_layout %av : " + aT + " -> " + aOp + "\n" +
        "    %bo = hd.convert_layout %bv : " + bT + " -> " + bOp + "\n" +
        "    %co = hd.convert_layout %cv : " + cT + " -> " + accT + "\n" +
        "    %do = hd.dot %ao, %bo, %co" +
        (tf32 ? " {inputPrecision = #hd.precision<tf32>}" : "") + " : " + aOp + " * " + bOp +
        " -> " + accT + "\n" +
        "    %dv = hd.convert_layout %do : " + accT + " -> " + cT + "\n" +
        "    hd.store " + pd + ", %dv : " + ptrs(M, N, acc) + "\n" +
        "    return\n  }\n}\n";
  return ir;
}

} // namespace hadron::testing

#endif // HADRON_TESTS_SUPPORT_MATRIXDOTKERNEL_H
