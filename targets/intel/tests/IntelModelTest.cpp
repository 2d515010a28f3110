// The Intel arch table: what each architecture declares (sub-group sizes,
// SLM, cache lines, 2D block I/O, DPAS), in the descriptor's order; and
// every element of every DPAS fragment against an independent reference:
// the operand formats of cl_intel_subgroup_matrix_multiply_accumulate(_tf32),
// written here as plain arithmetic rather than linear layouts.

#include "IntelModel.h"

#include "hadron/Layout/LinearLayout.h"

#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

using namespace hadron;
using namespace hadron::intel;

namespace {

TEST(IntelModel, ArchsInDescriptorOrder) {
  std::vector<std::string> names;
  for (const ArchModel &m : archModels())
    names.push_back(m.arch);
  EXPECT_EQ(names, (std::vector<std::string>{"pvc", "bmg", "lnl", "acm", "cpu"}));
  EXPECT_EQ(knownArchs(), "pvc, bmg, lnl, acm, cpu");
  EXPECT_EQ(findArch("pvc"), &archModels().front());
  EXPECT_EQ(findArch("gfx942"), nullptr);
  EXPECT_EQ(findArch(""), nullptr);
}

TEST(IntelModel, SubGroupSizesAndLocalMemory) {
  struct Expect {
    const char *arch;
    std::vector<unsigned> sizes;
    uint64_t slm;
    Family family;
  };
  const Expect expected[] = {
      {"pvc", {16, 32}, 128 * 1024, Family::XeHpc},
      {"bmg", {16, 32}, 64 * 1024, Family::Xe2},
      {"lnl", {16, 32}, 64 * 1024, Family::Xe2},
      {"acm", {8, 16, 32}, 64 * 1024, Family::XeHpg},
      {"cpu", {8, 16, 32}, 256 * 1024, Family::Cpu},
  };
  for (const Expect &e : expected) {
    const ArchModel *m = findArch(e.arch);
    ASSERT_NE(m, nullptr) << e.arch;
    EXPECT_EQ(m->subGroupSizes, e.sizes) << e.arch;
    EXPECT_EQ(m->slmBytesPerWorkGroup, e.slm) << e.arch;
    EXPECT_EQ(m->family, e.family) << e.arch;
    EXPECT_EQ(m->cacheLineBytes, 64u) << e.arch;
    EXPECT_EQ(m->maxVectorBytes, 16u) << e.arch;
    EXPECT_EQ(m->maxSlmVectorBytes, 16u) << e.arch;
    for (unsigned s : e.sizes)
      EXPECT_TRUE(allowsSubGroupSize(*m, s)) << e.arch << " " << s;
    EXPECT_FALSE(allowsSubGroupSize(*m, 64)) << e.arch;
    EXPECT_FALSE(allowsSubGroupSize(*m, 4)) << e.arch;
  }
  EXPECT_EQ(findArch("pvc")->maxWorkGroupSize, 1024u);
  EXPECT_GE(findArch("cpu")->maxWorkGroupSize, 32u * 32u);
}

TEST(IntelModel, BlockIoAndDpasAreDeclared) {
  for (const char *arch : {"pvc", "bmg", "lnl"}) {
    const ArchModel &m = *findArch(arch);
    EXPECT_TRUE(m.blockIo.available) << arch;
    EXPECT_EQ(m.blockIo.maxWidthBytes, 64u) << arch;
    EXPECT_EQ(m.blockIo.pitchAlignment, 16u) << arch;
    ASSERT_FALSE(m.dpas.empty()) << arch;
    for (const DpasInstr &d : m.dpas) {
      EXPECT_EQ(d.subGroupSize, 16u) << d.name;
      EXPECT_EQ(d.m, 8u) << d.name;
      EXPECT_EQ(d.n, 16u) << d.name;
      EXPECT_TRUE(allowsSubGroupSize(m, d.subGroupSize)) << d.name;
    }
    EXPECT_STREQ(m.dpas[0].name, "dpas.f32.8x16x16.f16");
  }
  const ArchModel &acm = *findArch("acm");
  EXPECT_FALSE(acm.blockIo.available);
  ASSERT_FALSE(acm.dpas.empty());
  EXPECT_EQ(acm.dpas[0].subGroupSize, 8u);
  EXPECT_EQ(acm.dpas[0].n, 8u);
  const ArchModel &cpu = *findArch("cpu");
  EXPECT_FALSE(cpu.blockIo.available);
  EXPECT_TRUE(cpu.dpas.empty());
  // K is 32 bytes of the input type per row.
  for (const DpasInstr &d : findArch("pvc")->dpas) {
    unsigned bytes = std::string(d.aType) == "i8" ? 1 : std::string(d.aType) == "tf32" ? 4 : 2;
    EXPECT_EQ(d.k * bytes, 32u) << d.name;
  }
}

TEST(IntelModel, DpasInstructionsPerArch) {
  auto names = [](const char *arch) {
    std::set<std::string> out;
    for (const DpasInstr &d : findArch(arch)->dpas)
      out.insert(d.name);
    return out;
  };
  const std::set<std::string> xe16 = {"dpas.f32.8x16x16.f16", "dpas.f32.8x16x16.bf16",
                                      "dpas.f32.8x16x8.tf32", "dpas.i32.8x16x32.i8"};
  EXPECT_EQ(names("pvc"), xe16);
  EXPECT_EQ(names("bmg"), xe16);
  EXPECT_EQ(names("lnl"), xe16);
  // tf32 needs 16-lane sub-groups: the 8-lane DG2 has f16, bf16 and i8 only.
  EXPECT_EQ(names("acm"), (std::set<std::string>{"dpas.f32.8x8x16.f16", "dpas.f32.8x8x16.bf16",
                                                 "dpas.i32.8x8x32.i8"}));
  EXPECT_EQ(findDpas("dpas.i32.8x8x32.i8")->subGroupSize, 8u);
  EXPECT_STREQ(findDpas("dpas.f32.8x16x16.f16")->builtin,
               "_Z38intel_sub_group_f16_f16_matrix_mad_k16Dv8_sDv8_iDv8_f");
  EXPECT_EQ(findDpas("mfma.f32.32x32x8.f16"), nullptr);
}

int32_t at(const LinearLayout &l, int reg, int lane, const char *dim) {
  Result<LinearLayout::Point> p = l.apply({{"register", reg}, {"lane", lane}});
  EXPECT_TRUE(p.ok()) << p.error();
  for (auto &[name, value] : *p)
    if (name == dim)
      return value;
  return -1;
}

/// Where the extension's functions take element (row, col) of an operand:
/// the lane and the element's index in the lane's operand vector (elements
/// numbered component by component, low bits first). The extension's
/// formats, with s lanes:
///  - A, 16-bit types: s = 16: component r (a short) of lane c is A[r][c];
///    s = 8: component r (an int) of lane c / 2 holds A[r][c], half c % 2.
///  - A, i8: component r of lane c / (32 / s) holds A[r][c], byte
///    c % (32 / s) (2 bytes a short for s = 16, 4 an int for s = 8).
///  - A, tf32 (s = 16 only): component i (a float) of lane l is
///    A[2i + l / 8][l % 8].
///  - B: lane n holds column n; component i packs rows e*i .. e*i+e-1 (e
///    elements a 32-bit component), low bits first.
///  - accumulator: component r of lane n is D[r][n].
struct Where {
  int lane, element;
};

Where reference(const DpasInstr &d, MatrixOperand operand, int row, int col) {
  const std::string type = d.aType;
  const int s = int(d.subGroupSize);
  if (operand == MatrixOperand::Accumulator)
    return {col, row};
  if (operand == MatrixOperand::B)
    return {col, row};
  if (type == "tf32")
    return {(row % 2) * 8 + col, row / 2};
  const int perLane = (type == "i8" ? 32 : 16) / s; // elements of a row per lane
  return {col / perLane, row * perLane + col % perLane};
}

TEST(IntelModel, EveryDpasFragmentElementIsWhereTheExtensionPutsIt) {
  std::set<std::string> seen;
  for (const ArchModel &m : archModels())
    for (const DpasInstr &d : m.dpas) {
      if (!seen.insert(d.name).second)
        continue;
      for (MatrixOperand operand :
           {MatrixOperand::A, MatrixOperand::B, MatrixOperand::Accumulator}) {
        SCOPED_TRACE(std::string(d.name) + " operand " + std::to_string(int(operand)));
        Result<LinearLayout> l = fragmentLayout(d, operand);
        ASSERT_TRUE(l.ok()) << l.error();
        EXPECT_EQ(l->getInDimSize("lane"), int32_t(d.subGroupSize));
        EXPECT_TRUE(l->isInjective());
        EXPECT_TRUE(l->isSurjective());
        const int rows = operand == MatrixOperand::B ? int(d.k) : int(d.m);
        const int cols = operand == MatrixOperand::A ? int(d.k) : int(d.n);
        EXPECT_EQ(l->getOutDimSize("dim0"), rows);
        EXPECT_EQ(l->getOutDimSize("dim1"), cols);
        int mismatches = 0;
        for (int lane = 0; lane < l->getInDimSize("lane"); ++lane)
          for (int reg = 0; reg < l->getInDimSize("register"); ++reg) {
            int row = at(*l, reg, lane, "dim0"), col = at(*l, reg, lane, "dim1");
            Where want = reference(d, operand, row, col);
            if ((want.lane != lane || want.element != reg) && mismatches++ < 4)
              ADD_FAILURE() << "register " << reg << " of lane " << lane << " holds (" << row
                            << ", " << col << "); the extension passes it as element "
                            << want.element << " of lane " << want.lane;
          }
      }
    }
}

TEST(IntelModel, DpasAttributes) {
  Result<std::string> text = matrixInstrAttribute(*findDpas("dpas.f32.8x16x8.tf32"));
  ASSERT_TRUE(text.ok()) << text.error();
  EXPECT_EQ(*text, "#hd.matrix_instr<{name = \"dpas.f32.8x16x8.tf32\", shape = [8, 16, 8], "
                   "aType = tf32, bType = tf32, accType = f32, "
                   "a = {register = [[2, 0], [4, 0]], lane = [[0, 1], [0, 2], [0, 4], [1, 0]]}, "
                   "b = {register = [[1, 0], [2, 0], [4, 0]], lane = [[0, 1], [0, 2], [0, 4], "
                   "[0, 8]]}, "
                   "acc = {register = [[1, 0], [2, 0], [4, 0]], lane = [[0, 1], [0, 2], [0, 4], "
                   "[0, 8]]}}>");
}

} // namespace
