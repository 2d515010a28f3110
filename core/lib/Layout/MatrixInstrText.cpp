//===- MatrixInstrText.cpp - The #hd.matrix_instr text of a model entry ---===//

#include "hadron/Layout/MatrixInstrText.h"

namespace hadron {
namespace {

/// "[[r0, c0], [r1, c1], ...]": the bases of one input dimension.
std::string basesText(const LinearLayout &layout, const char *in) {
  std::string s = "[";
  for (int i = 0; i < layout.getInDimSizeLog2(in); ++i) {
    const LinearLayout::Basis &b = layout.getBasis(in, i);
    s += (i ? ", [" : "[") + std::to_string(b[0]) + ", " + std::to_string(b[1]) + "]";
  }
  return s + "]";
}

std::string fragmentText(const LinearLayout &fragment) {
  std::string text =
      "{register = " + basesText(fragment, "register") + ", lane = " + basesText(fragment, "lane");
  if (fragment.hasInDim("warp") && fragment.getInDimSizeLog2("warp") > 0)
    text += ", warp = " + basesText(fragment, "warp");
  return text + "}";
}

} // namespace

std::string matrixInstrAttributeText(const MatrixInstrText &instr) {
  std::string text = "#hd.matrix_instr<{name = \"" + instr.name + "\", shape = [" +
                     std::to_string(instr.shape[0]) + ", " + std::to_string(instr.shape[1]) +
                     ", " + std::to_string(instr.shape[2]) + "], aType = " + instr.types[0] +
                     ", bType = " + instr.types[1] + ", accType = " + instr.types[2];
  for (const auto &[key, fragment] : instr.fragments)
    text += ", " + key + " = " + fragmentText(fragment);
  return text + "}>";
}

} // namespace hadron
