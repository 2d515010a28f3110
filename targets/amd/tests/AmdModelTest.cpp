// The AMD memory-hierarchy table and the matrix fragment layouts: the
// figures the issue fixes per arch, the instruction sets per arch, each
// fragment layout's shape, validity and hand-checked elements, and every
// element of every fragment against an independent reference: the
// register/lane formulas of AMD's matrix instruction calculator
// (amd_matrix_instruction_calculator, gfx9 and gfx11 classes), written here
// as plain arithmetic rather than linear layouts.

#include "AmdModel.h"

#include "hadron/Layout/LinearLayout.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>

using namespace hadron;
using namespace hadron::amd;

namespace {

constexpr uint64_t KiB = 1024, MiB = 1024 * KiB;

TEST(AmdModel, ArchsInDescriptorOrderDefaultFirst) {
  std::vector<std::string> names;
  for (const ArchModel &m : archModels())
    names.push_back(m.arch);
  EXPECT_EQ(names, (std::vector<std::string>{"gfx942", "gfx90a", "gfx950", "gfx1100"}));
}

TEST(AmdModel, PerArchFigures) {
  struct Expected {
    const char *arch;
    Family family;
    unsigned wave, isa;
    uint64_t lds;
    unsigned ldsDma;
    bool hasMall;
  };
  const Expected expected[] = {
      {"gfx90a", Family::Cdna, 64, 9010, 64 * KiB, 4, false},
      {"gfx942", Family::Cdna, 64, 9402, 64 * KiB, 4, true},
      {"gfx950", Family::Cdna, 64, 9500, 160 * KiB, 16, true},
      {"gfx1100", Family::Rdna, 32, 11000, 64 * KiB, 0, true},
  };
  for (const Expected &e : expected) {
    SCOPED_TRACE(e.arch);
    const ArchModel *m = findArch(e.arch);
    ASSERT_NE(m, nullptr);
    EXPECT_EQ(m->family, e.family);
    EXPECT_EQ(m->waveSize, e.wave);
    EXPECT_EQ(m->isaVersion, e.isa);
    EXPECT_EQ(m->maxThreadsPerWorkgroup, 1024u);
    EXPECT_EQ(m->ldsBytesPerWorkgroup, e.lds);
    EXPECT_GE(m->ldsBytesPerCU, m->ldsBytesPerWorkgroup);
    EXPECT_EQ(m->ldsBanks, 32u);
    EXPECT_EQ(m->ldsBankBytes, 4u);
    EXPECT_EQ(m->cacheLineBytes, 128u);
    EXPECT_EQ(m->maxVectorBytes, 16u);
    EXPECT_EQ(m->maxLdsVectorBytes, 16u);
    EXPECT_EQ(m->ldsDmaBytes, e.ldsDma);
    EXPECT_EQ(m->mallBytes > 0, e.hasMall);
    EXPECT_GE(m->l2Bytes, 4 * MiB);
    EXPECT_GT(m->l1Bytes, 0u);
    EXPECT_GT(m->computeUnits, 0u);
    // The register file holds every lane's registers of the resident waves
    // at the smallest per-wave allocation, and at least one full wave.
    EXPECT_GE(m->vgprFileBytesPerSimd, uint64_t(m->vgprsPerLane) * m->waveSize * 4);
    EXPECT_EQ(m->vgprsPerLane, e.family == Family::Cdna ? 512u : 256u);
    EXPECT_NE(m->representative, nullptr);
  }
}

TEST(AmdModel, FindArchAcceptsTargetIdsAndRejectsOthers) {
  ASSERT_NE(findArch("gfx90a:sramecc+:xnack-"), nullptr);
  EXPECT_STREQ(findArch("gfx90a:sramecc+:xnack-")->arch, "gfx90a");
  EXPECT_EQ(processorOf("gfx942:xnack+"), "gfx942");
  EXPECT_EQ(processorOf("gfx1100"), "gfx1100");
  EXPECT_EQ(findArch("gfx1030"), nullptr);
  EXPECT_EQ(findArch("gfx94"), nullptr);
  EXPECT_EQ(findArch(""), nullptr);
  EXPECT_EQ(findArch("sm_90a"), nullptr);
}

TEST(AmdModel, MatrixInstructionsPerArch) {
  auto names = [](const char *arch) {
    std::set<std::string> out;
    for (const MatrixInstr *i : matrixInstructions(*findArch(arch)))
      out.insert(i->name);
    return out;
  };
  std::set<std::string> gfx90a = names("gfx90a"), gfx942 = names("gfx942"),
                        gfx950 = names("gfx950"), gfx1100 = names("gfx1100");
  for (const char *common : {"mfma.f32.32x32x8.f16", "mfma.f32.16x16x16.f16",
                             "mfma.f32.32x32x8.bf16", "mfma.f32.16x16x4.f32",
                             "mfma.f64.16x16x4.f64"})
    for (auto *set : {&gfx90a, &gfx942, &gfx950})
      EXPECT_TRUE(set->count(common)) << common;
  // CDNA2's i8 MFMAs were replaced on CDNA3 by the double-K ones.
  EXPECT_TRUE(gfx90a.count("mfma.i32.32x32x8.i8"));
  EXPECT_FALSE(gfx942.count("mfma.i32.32x32x8.i8"));
  EXPECT_TRUE(gfx942.count("mfma.i32.16x16x32.i8"));
  EXPECT_FALSE(gfx90a.count("mfma.i32.16x16x32.i8"));
  EXPECT_TRUE(gfx942.count("mfma.f32.16x16x8.xf32"));
  EXPECT_FALSE(gfx950.count("mfma.f32.16x16x8.xf32"));
  EXPECT_TRUE(gfx950.count("mfma.f32.16x16x32.f16"));
  EXPECT_FALSE(gfx942.count("mfma.f32.16x16x32.f16"));
  EXPECT_EQ(gfx1100, (std::set<std::string>{"wmma.f32.16x16x16.f16", "wmma.f32.16x16x16.bf16",
                                            "wmma.i32.16x16x16.i8"}));
  for (const ArchModel &arch : archModels())
    for (const MatrixInstr *i : matrixInstructions(arch))
      EXPECT_EQ(i->family, arch.family == Family::Cdna ? MatrixFamily::Mfma : MatrixFamily::Wmma)
          << i->name << " on " << arch.arch;
  EXPECT_EQ(findMatrixInstr("mfma.f32.32x32x8.f16")->m, 32u);
  EXPECT_STREQ(findMatrixInstr("mfma.f32.32x32x8.f16")->isa, "v_mfma_f32_32x32x8f16");
  EXPECT_EQ(findMatrixInstr("mma.m16n8k16.f16"), nullptr);
}

/// Every fragment of every instruction: dims, shape, wave-wide lanes,
/// registers = elements per lane, and every element covered.
TEST(AmdModel, FragmentLayoutsHaveTheInstructionsShape) {
  for (const MatrixInstr &instr : matrixInstructions()) {
    SCOPED_TRACE(instr.name);
    unsigned wave = instr.family == MatrixFamily::Mfma ? 64 : 32;
    struct Case {
      MatrixOperand operand;
      unsigned rows, cols, perLane;
    };
    const Case cases[] = {
        {MatrixOperand::A, instr.m, instr.k, instr.kPerLane},
        {MatrixOperand::B, instr.k, instr.n, instr.kPerLane},
        {MatrixOperand::Accumulator, instr.m, instr.n, instr.m * instr.n / wave},
    };
    for (const Case &c : cases) {
      Result<LinearLayout> layout = fragmentLayout(instr, c.operand);
      ASSERT_TRUE(layout.ok()) << layout.error();
      EXPECT_EQ(layout->getInDimNames(), (std::vector<std::string>{"register", "lane"}));
      EXPECT_EQ(layout->getOutDimSize("dim0"), int32_t(c.rows));
      EXPECT_EQ(layout->getOutDimSize("dim1"), int32_t(c.cols));
      EXPECT_EQ(layout->getInDimSize("lane"), int32_t(wave));
      EXPECT_EQ(layout->getInDimSize("register"), int32_t(c.perLane));
      EXPECT_TRUE(layout->isSurjective());
      // MFMA operands are distributed without copies; WMMA's A and B are
      // held by both half-waves.
      bool copies = instr.family == MatrixFamily::Wmma && c.operand != MatrixOperand::Accumulator;
      EXPECT_EQ(layout->isInjective(), !copies);
    }
  }
}

int32_t at(const LinearLayout &l, int reg, int lane, const char *dim) {
  Result<LinearLayout::Point> p = l.apply({{"register", reg}, {"lane", lane}});
  EXPECT_TRUE(p.ok()) << p.error();
  for (auto &[name, value] : *p)
    if (name == dim)
      return value;
  return -1;
}

TEST(AmdModel, MfmaFragmentsHandChecked) {
  const MatrixInstr &big = *findMatrixInstr("mfma.f32.32x32x8.f16");
  LinearLayout acc = fragmentLayout(big, MatrixOperand::Accumulator).value();
  // Lane 33, register 5: row 8 * (5 / 4) + 4 * (33 / 32) + 5 % 4 = 13, column 33 % 32.
  EXPECT_EQ(at(acc, 5, 33, "dim0"), 13);
  EXPECT_EQ(at(acc, 5, 33, "dim1"), 1);
  EXPECT_EQ(at(acc, 15, 63, "dim0"), 31);
  EXPECT_EQ(at(acc, 15, 63, "dim1"), 31);
  LinearLayout a = fragmentLayout(big, MatrixOperand::A).value();
  // Lane 40 holds row 8 and K 4..7.
  EXPECT_EQ(at(a, 3, 40, "dim0"), 8);
  EXPECT_EQ(at(a, 3, 40, "dim1"), 7);
  LinearLayout b = fragmentLayout(big, MatrixOperand::B).value();
  EXPECT_EQ(at(b, 1, 40, "dim0"), 5); // K
  EXPECT_EQ(at(b, 1, 40, "dim1"), 8); // N

  const MatrixInstr &small = *findMatrixInstr("mfma.f32.16x16x16.f16");
  LinearLayout a16 = fragmentLayout(small, MatrixOperand::A).value();
  // Lane 37, register 2: row 37 % 16 = 5, K (37 / 16) * 4 + 2 = 10.
  EXPECT_EQ(at(a16, 2, 37, "dim0"), 5);
  EXPECT_EQ(at(a16, 2, 37, "dim1"), 10);
  LinearLayout acc16 = fragmentLayout(small, MatrixOperand::Accumulator).value();
  // Lane 37, register 3: row 4 * (37 / 16) + 3 = 11, column 5.
  EXPECT_EQ(at(acc16, 3, 37, "dim0"), 11);
  EXPECT_EQ(at(acc16, 3, 37, "dim1"), 5);

  const MatrixInstr &i8 = *findMatrixInstr("mfma.i32.16x16x32.i8");
  LinearLayout ai8 = fragmentLayout(i8, MatrixOperand::A).value();
  // Eight K values per lane: lane 50, register 7 -> row 2, K 3 * 8 + 7.
  EXPECT_EQ(at(ai8, 7, 50, "dim0"), 2);
  EXPECT_EQ(at(ai8, 7, 50, "dim1"), 31);
}

TEST(AmdModel, WmmaFragmentsHandChecked) {
  const MatrixInstr &w = *findMatrixInstr("wmma.f32.16x16x16.f16");
  LinearLayout acc = fragmentLayout(w, MatrixOperand::Accumulator).value();
  // Lane 17, register 3: row 2 * 3 + 17 / 16 = 7, column 1.
  EXPECT_EQ(at(acc, 3, 17, "dim0"), 7);
  EXPECT_EQ(at(acc, 3, 17, "dim1"), 1);
  EXPECT_EQ(at(acc, 0, 2, "dim0"), 0);
  LinearLayout a = fragmentLayout(w, MatrixOperand::A).value();
  // Lanes l and l + 16 hold the same row, all 16 K values.
  for (int lane = 0; lane < 16; ++lane)
    for (int reg = 0; reg < 16; ++reg) {
      EXPECT_EQ(at(a, reg, lane, "dim0"), at(a, reg, lane + 16, "dim0"));
      EXPECT_EQ(at(a, reg, lane, "dim1"), reg);
    }
  LinearLayout b = fragmentLayout(w, MatrixOperand::B).value();
  EXPECT_EQ(at(b, 9, 21, "dim0"), 9); // K
  EXPECT_EQ(at(b, 9, 21, "dim1"), 5); // N
}

/// Where the hardware keeps element (row, col) of an operand: the element
/// index within the lane's registers (elements, not VGPRs) and the lanes
/// holding it. The calculator's formulas, with no blocks (every instruction
/// here is single-block):
///  - MFMA A[i][k] (B[k][j] with j for i): K values per lane
///    e = K / (64 / M), element k % e, lane (k / e) * M + i.
///  - MFMA D[i][j]: a group of g = 4 rows (32-bit results) or 1 (f64) per
///    lane, 64 / N groups side by side in the lanes:
///    element (i / (g * 64 / N)) * g + i % g, lane ((i / g) % (64 / N)) * N + j.
///  - WMMA (wave32) A[i][k]: element k, lanes i and i + 16; D[i][j]:
///    element i / 2, lane 16 * (i % 2) + j.
struct Location {
  int element;
  std::vector<int> lanes;
};

Location reference(const MatrixInstr &instr, MatrixOperand operand, int row, int col) {
  const int M = int(instr.m), N = int(instr.n), K = int(instr.k);
  if (instr.family == MatrixFamily::Wmma) {
    if (operand == MatrixOperand::Accumulator)
      return {row / 2, {16 * (row % 2) + col}};
    int outer = operand == MatrixOperand::A ? row : col;
    int k = operand == MatrixOperand::A ? col : row;
    return {k, {outer, outer + 16}};
  }
  if (operand == MatrixOperand::Accumulator) {
    int g = std::string(instr.accType) == "f64" ? 1 : 4;
    int groups = 64 / N;
    return {(row / (g * groups)) * g + row % g, {((row / g) % groups) * N + col}};
  }
  int outer = operand == MatrixOperand::A ? row : col;
  int k = operand == MatrixOperand::A ? col : row;
  int dim = operand == MatrixOperand::A ? M : N;
  int e = K / (64 / dim);
  return {k % e, {(k / e) * dim + outer}};
}

TEST(AmdModel, EveryFragmentElementIsWhereTheCalculatorPutsIt) {
  for (const MatrixInstr &instr : matrixInstructions())
    for (MatrixOperand operand :
         {MatrixOperand::A, MatrixOperand::B, MatrixOperand::Accumulator}) {
      SCOPED_TRACE(std::string(instr.name) + " operand " + std::to_string(int(operand)));
      LinearLayout l = fragmentLayout(instr, operand).value();
      int mismatches = 0;
      for (int lane = 0; lane < l.getInDimSize("lane"); ++lane)
        for (int reg = 0; reg < l.getInDimSize("register"); ++reg) {
          int row = at(l, reg, lane, "dim0"), col = at(l, reg, lane, "dim1");
          Location want = reference(instr, operand, row, col);
          bool found = want.element == reg && std::find(want.lanes.begin(), want.lanes.end(),
                                                        lane) != want.lanes.end();
          if (!found && mismatches++ < 4)
            ADD_FAILURE() << "register " << reg << " of lane " << lane << " holds (" << row
                          << ", " << col << "); the hardware keeps it in element "
                          << want.element << " of lane " << want.lanes.front();
        }
    }
}

TEST(AmdModel, F64AccumulatorRowsStepByFourPerRegister) {
  // v_mfma_f64_16x16x4f64 writes one f64 row per VGPR pair and lane group,
  // row 4 * r + l / 16: register 1 of lane 0 is row 4 and register 0 of
  // lane 16 row 1 (32-bit results would have rows 1 and 4 there).
  LinearLayout acc =
      fragmentLayout(*findMatrixInstr("mfma.f64.16x16x4.f64"), MatrixOperand::Accumulator)
          .value();
  EXPECT_EQ(at(acc, 1, 0, "dim0"), 4);
  EXPECT_EQ(at(acc, 0, 16, "dim0"), 1);
  EXPECT_EQ(at(acc, 2, 37, "dim0"), 10);
  EXPECT_EQ(at(acc, 2, 37, "dim1"), 5);
}

TEST(AmdModel, AttributesOfTheInstructionsHdDotCanIssue) {
  const MatrixInstr &f16 = *findMatrixInstr("mfma.f32.16x16x16.f16");
  Result<std::string> text = matrixInstrAttribute(f16);
  ASSERT_TRUE(text.ok()) << text.error();
  EXPECT_EQ(*text, "#hd.matrix_instr<{name = \"mfma.f32.16x16x16.f16\", shape = [16, 16, 16], "
                   "aType = f16, bType = f16, accType = f32, "
                   "a = {register = [[0, 1], [0, 2]], lane = [[1, 0], [2, 0], [4, 0], [8, 0], "
                   "[0, 4], [0, 8]]}, "
                   "b = {register = [[1, 0], [2, 0]], lane = [[0, 1], [0, 2], [0, 4], [0, 8], "
                   "[4, 0], [8, 0]]}, "
                   "acc = {register = [[1, 0], [2, 0]], lane = [[0, 1], [0, 2], [0, 4], [0, 8], "
                   "[4, 0], [8, 0]]}}>");
  // xf32 reads f32 operands at tf32 precision: an MLIR type a dot can name.
  EXPECT_NE(matrixInstrAttribute(*findMatrixInstr("mfma.f32.16x16x8.xf32"))->find("aType = tf32"),
            std::string::npos);
  Result<std::string> fp8 = matrixInstrAttribute(*findMatrixInstr("mfma.f32.16x16x32.f8e4m3fnuz"));
  ASSERT_FALSE(fp8.ok());
  EXPECT_NE(fp8.error().find("hd.dot has no f8E4M3FNUZ operands"), std::string::npos)
      << fp8.error();
}

TEST(AmdModel, FragmentOfAMalformedInstructionIsAnError) {
  MatrixInstr bad = *findMatrixInstr("mfma.f32.16x16x16.f16");
  bad.k = 12; // 4 lane groups of 4 K values make 16, not 12
  Result<LinearLayout> layout = fragmentLayout(bad, MatrixOperand::A);
  ASSERT_FALSE(layout.ok());
  EXPECT_NE(layout.error().find("16x16x12"), std::string::npos) << layout.error();
}

} // namespace
