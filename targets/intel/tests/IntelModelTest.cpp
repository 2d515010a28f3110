// The Intel arch table: what each architecture declares (sub-group sizes,
// SLM, cache lines, 2D block I/O, DPAS), in the descriptor's order.

#include "IntelModel.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

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

} // namespace
