//===- NvidiaModelTest.cpp - The per-arch table and the matrix fragments --===//
//
// Values of the table checked against the CUDA Programming Guide's
// compute-capability table, and every declared fragment layout checked to be
// a valid linear layout of the instruction's shape, and, element by element,
// against the PTX ISA's fragment formulas.
//
//===----------------------------------------------------------------------===//

#include "model/NvidiaModel.h"

#include "hadron/Layout/LayoutFactories.h"

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <sstream>
#include <limits>
#include <set>

using namespace hadron;
using namespace hadron::nvidia;

namespace {

TEST(NvidiaModel, ArchTableValues) {
  const char *expected[] = {"sm_80", "sm_86", "sm_89", "sm_90", "sm_90a", "sm_100", "sm_100a"};
  ASSERT_EQ(archModels().size(), std::size(expected));
  for (size_t i = 0; i < std::size(expected); ++i)
    EXPECT_STREQ(archModels()[i].arch, expected[i]);

  for (const ArchModel &m : archModels()) {
    SCOPED_TRACE(m.arch);
    EXPECT_EQ(m.warpSize, 32u);
    EXPECT_EQ(m.maxThreadsPerCTA, 1024u);
    EXPECT_EQ(m.registersPerSM, 65536u);
    EXPECT_EQ(m.maxRegistersPerThread, 255u);
    EXPECT_EQ(m.sharedBytesPerCTA, 48u * 1024);
    EXPECT_EQ(m.sharedBanks, 32u);
    EXPECT_EQ(m.sharedBankBytes, 4u);
    EXPECT_EQ(m.cacheLineBytes, 128u);
    EXPECT_EQ(m.maxVectorBytes, 16u);
    EXPECT_EQ(m.maxSharedVectorBytes, 16u);
    EXPECT_LT(m.sharedBytesPerCTAOptIn, m.sharedBytesPerSM);
    EXPECT_LE(m.sharedBytesPerSM, m.l1AndSharedBytesPerSM);
    EXPECT_TRUE(m.asyncCopy & kAsyncCopyCpAsync);
    EXPECT_EQ((m.asyncCopy & kAsyncCopyTma) != 0, m.computeCapability >= 90);
  }
  const ArchModel *h = findArch("sm_90a");
  ASSERT_NE(h, nullptr);
  EXPECT_EQ(h->sharedBytesPerCTAOptIn, 227u * 1024);
  EXPECT_EQ(h->sharedBytesPerSM, 228u * 1024);
  EXPECT_EQ(h->maxThreadsPerSM, 2048u);
  EXPECT_TRUE(h->archSpecific);
  EXPECT_EQ(findArch("sm_80")->sharedBytesPerCTAOptIn, 163u * 1024);
  EXPECT_EQ(findArch("sm_86")->sharedBytesPerCTAOptIn, 99u * 1024);
  EXPECT_EQ(findArch("sm_89")->sharedBytesPerCTAOptIn, 99u * 1024);
  EXPECT_EQ(findArch("sm_86")->maxThreadsPerSM, 1536u);
  EXPECT_EQ(findArch("sm_100a")->sharedBytesPerCTAOptIn, 227u * 1024);
  EXPECT_EQ(findArch("sm_70"), nullptr);
  EXPECT_EQ(findArch("sm_90A"), nullptr);
}

TEST(NvidiaModel, ArchNameFromComputeCapability) {
  EXPECT_EQ(archName(8, 0), "sm_80");
  EXPECT_EQ(archName(8, 6), "sm_86");
  EXPECT_EQ(archName(8, 9), "sm_89");
  EXPECT_EQ(archName(9, 0), "sm_90a");
  EXPECT_EQ(archName(10, 0), "sm_100a");
  EXPECT_EQ(archName(12, 0), "sm_120");
}

TEST(NvidiaModel, MatrixInstructionsPerArch) {
  auto names = [](const ArchModel &arch) {
    std::set<std::string> out;
    for (const MatrixInstr *i : matrixInstructions(arch))
      out.insert(i->name);
    return out;
  };
  std::set<std::string> sm80 = names(*findArch("sm_80"));
  EXPECT_TRUE(sm80.count("mma.m16n8k16.f16"));
  EXPECT_TRUE(sm80.count("mma.m16n8k16.bf16"));
  EXPECT_TRUE(sm80.count("mma.m16n8k8.tf32"));
  EXPECT_TRUE(sm80.count("mma.m16n8k16.s8"));
  EXPECT_FALSE(sm80.count("wgmma.m64nNk16.f16"));
  // wgmma is sm_90a's alone: not plain sm_90, not sm_100a.
  EXPECT_TRUE(names(*findArch("sm_90a")).count("wgmma.m64nNk16.f16"));
  EXPECT_FALSE(names(*findArch("sm_90")).count("wgmma.m64nNk16.f16"));
  EXPECT_FALSE(names(*findArch("sm_100a")).count("wgmma.m64nNk16.f16"));
  EXPECT_TRUE(names(*findArch("sm_100a")).count("mma.m16n8k16.f16"));
  EXPECT_EQ(findMatrixInstr("mma.m16n8k16.f16")->k, 16u);
  EXPECT_EQ(findMatrixInstr("nope"), nullptr);
}

/// Element (row, col) that register `reg` of `lane` (of `warp`) holds.
std::pair<int32_t, int32_t> at(const LinearLayout &l, int32_t reg, int32_t lane, int32_t warp) {
  auto p = l.apply({{"register", reg}, {"lane", lane}, {"warp", warp}});
  EXPECT_TRUE(p.ok()) << p.error();
  return {p.value()[0].second, p.value()[1].second};
}

TEST(NvidiaModel, MmaAccumulatorFragmentIsThePtxMapping) {
  auto acc = fragmentLayout(*findMatrixInstr("mma.m16n8k16.f16"), nvidia::MatrixOperand::Accumulator);
  ASSERT_TRUE(acc.ok()) << acc.error();
  const LinearLayout &l = acc.value();
  EXPECT_EQ(l.getInDimSize("register"), 4);
  EXPECT_EQ(l.getInDimSize("lane"), 32);
  EXPECT_EQ(l.getOutDimSize("dim0"), 16);
  EXPECT_EQ(l.getOutDimSize("dim1"), 8);
  EXPECT_TRUE(l.isInvertible());
  // PTX ISA, mma.m16n8k16 C/D: row = groupID + 8 * (i >= 2),
  // col = threadID_in_group * 2 + (i & 1).
  for (int32_t lane = 0; lane < 32; ++lane)
    for (int32_t i = 0; i < 4; ++i)
      EXPECT_EQ(at(l, i, lane, 0),
                std::make_pair((lane >> 2) + 8 * (i >> 1), (lane % 4) * 2 + (i & 1)))
          << "lane " << lane << " c" << i;
}

TEST(NvidiaModel, MmaOperandFragmentsAreThePtxMappings) {
  auto a = fragmentLayout(*findMatrixInstr("mma.m16n8k16.f16"), nvidia::MatrixOperand::A);
  auto b = fragmentLayout(*findMatrixInstr("mma.m16n8k16.bf16"), nvidia::MatrixOperand::B);
  auto tf32a = fragmentLayout(*findMatrixInstr("mma.m16n8k8.tf32"), nvidia::MatrixOperand::A);
  auto s8a = fragmentLayout(*findMatrixInstr("mma.m16n8k32.s8"), nvidia::MatrixOperand::A);
  ASSERT_TRUE(a.ok() && b.ok() && tf32a.ok() && s8a.ok());
  for (int32_t lane = 0; lane < 32; ++lane) {
    int32_t g = lane >> 2, t = lane % 4;
    for (int32_t i = 0; i < 8; ++i) // f16 A: a0..a7
      EXPECT_EQ(at(a.value(), i, lane, 0),
                std::make_pair(g + 8 * ((i >> 1) & 1), t * 2 + (i & 1) + 8 * (i >> 2)));
    for (int32_t i = 0; i < 4; ++i) // bf16 B (k x n): b0..b3
      EXPECT_EQ(at(b.value(), i, lane, 0), std::make_pair(t * 2 + (i & 1) + 8 * (i >> 1), g));
    for (int32_t i = 0; i < 4; ++i) // tf32 A: a0..a3
      EXPECT_EQ(at(tf32a.value(), i, lane, 0), std::make_pair(g + 8 * (i & 1), t + 4 * (i >> 1)));
    for (int32_t i = 0; i < 16; ++i) // s8 k32 A: a0..a15
      EXPECT_EQ(at(s8a.value(), i, lane, 0),
                std::make_pair(g + 8 * ((i >> 2) & 1), t * 4 + (i & 3) + 16 * (i >> 3)));
  }
}

TEST(NvidiaModel, EveryFragmentIsAValidLayoutOfTheInstructionShape) {
  for (const MatrixInstr &instr : matrixInstructions()) {
    SCOPED_TRACE(instr.name);
    unsigned threads = instr.family == MatrixFamily::Wgmma ? 128 : 32;
    struct Want {
      nvidia::MatrixOperand operand;
      int32_t rows, cols;
    } wants[] = {{nvidia::MatrixOperand::A, int32_t(instr.m), int32_t(instr.k)},
                 {nvidia::MatrixOperand::B, int32_t(instr.k), int32_t(instr.n)},
                 {nvidia::MatrixOperand::Accumulator, int32_t(instr.m), int32_t(instr.n)}};
    for (const Want &w : wants) {
      auto l = fragmentLayout(instr, w.operand);
      if (instr.family == MatrixFamily::Wgmma && w.operand == nvidia::MatrixOperand::B) {
        ASSERT_FALSE(l.ok());
        EXPECT_NE(l.error().find("shared memory"), std::string::npos) << l.error();
        continue;
      }
      ASSERT_TRUE(l.ok()) << l.error();
      EXPECT_EQ(l.value().getOutDimSize("dim0"), w.rows);
      EXPECT_EQ(l.value().getOutDimSize("dim1"), w.cols);
      EXPECT_EQ(l.value().getInDimSize("lane") * l.value().getInDimSize("warp"),
                int32_t(threads));
      // Each element in exactly one register of one thread.
      EXPECT_TRUE(l.value().isInvertible()) << l.value().toString();
    }
  }
}

TEST(NvidiaModel, MatrixInstrAttributeSpellsTheFragments) {
  const MatrixInstr *bf16 = findMatrixInstr("mma.m16n8k16.bf16");
  ASSERT_NE(bf16, nullptr);
  Result<std::string> attr = matrixInstrAttribute(*bf16);
  ASSERT_TRUE(attr.ok()) << attr.error();
  // The PTX ISA's m16n8k16 fragments, as bases (row, col).
  EXPECT_EQ(*attr,
            "#hd.matrix_instr<{name = \"mma.m16n8k16.bf16\", shape = [16, 8, 16], aType = bf16, "
            "bType = bf16, accType = f32, a = {register = [[0, 1], [8, 0], [0, 8]], lane = [[0, "
            "2], [0, 4], [1, 0], [2, 0], [4, 0]]}, b = {register = [[1, 0], [8, 0]], lane = [[2, "
            "0], [4, 0], [0, 1], [0, 2], [0, 4]]}, acc = {register = [[0, 1], [8, 0]], lane = "
            "[[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]]}}>");
  Result<std::string> s8 = matrixInstrAttribute(*findMatrixInstr("mma.m16n8k32.s8"));
  ASSERT_TRUE(s8.ok()) << s8.error();
  EXPECT_NE(s8->find("aType = i8, bType = i8, accType = i32"), std::string::npos) << *s8;
  // wgmma: N spelled in the name, the accumulator over the warpgroup's 4
  // warps (16 rows each), no register fragment for A or B.
  Result<std::string> wgmma = matrixInstrAttribute(*findMatrixInstr("wgmma.m64nNk16.bf16"), 64);
  ASSERT_TRUE(wgmma.ok()) << wgmma.error();
  EXPECT_EQ(*wgmma,
            "#hd.matrix_instr<{name = \"wgmma.m64n64k16.bf16\", shape = [64, 64, 16], aType = "
            "bf16, bType = bf16, accType = f32, acc = {register = [[0, 1], [8, 0], [0, 8], [0, "
            "16], [0, 32]], lane = [[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]], warp = [[16, 0], "
            "[32, 0]]}}>");
}

TEST(NvidiaModel, MatrixInstrNamesParseBackToTheModel) {
  Result<NamedMatrixInstr> mma = parseMatrixInstrName("mma.m16n8k16.f16");
  ASSERT_TRUE(mma.ok()) << mma.error();
  EXPECT_EQ(mma->instr, findMatrixInstr("mma.m16n8k16.f16"));
  Result<NamedMatrixInstr> w = parseMatrixInstrName("wgmma.m64n256k16.bf16");
  ASSERT_TRUE(w.ok()) << w.error();
  EXPECT_EQ(w->instr, findMatrixInstr("wgmma.m64nNk16.bf16"));
  EXPECT_EQ(w->n, 256u);
  Result<NamedMatrixInstr> tooWide = parseMatrixInstrName("wgmma.m64n512k16.bf16");
  ASSERT_FALSE(tooWide.ok());
  EXPECT_NE(tooWide.error().find("N = 512"), std::string::npos) << tooWide.error();
  EXPECT_FALSE(parseMatrixInstrName("wgmma.m64nNk16.bf16").ok());
  EXPECT_FALSE(parseMatrixInstrName("mma.m16n8k16.f64").ok());
}

namespace {
/// Byte offsets of each coordinate bit of the `rows` x `cols` tile at the
/// origin of a #hd.matrix_shared tile of `shape`, as the core passes them.
std::vector<std::vector<int64_t>> tileBytes(const std::vector<int32_t> &shape, int swizzle,
                                            int bits, bool transposed, int rows, int cols) {
  Result<LinearLayout> layout = hadron::matrixSharedLayout(shape, swizzle, bits, transposed);
  EXPECT_TRUE(layout.ok()) << layout.error();
  Result<LinearLayout> inv = layout->invert();
  EXPECT_TRUE(inv.ok());
  std::vector<std::vector<int64_t>> out(2);
  for (int d = 0; d < 2; ++d)
    for (int i = 0; (1 << i) < (d ? cols : rows); ++i)
      out[d].push_back(int64_t(inv->getBasis(d ? "dim1" : "dim0", i)[0]) * bits / 8);
  return out;
}
} // namespace

TEST(NvidiaModel, DescriptorLayoutsOfTheMatrixSharedTiles) {
  // A: 128 x 64 bf16, K contiguous, 128-byte swizzle: 8-row groups 1024 apart.
  Result<MatrixDescriptorLayout> a =
      matrixDescriptorLayout(tileBytes({128, 64}, 128, 16, false, 64, 16), true, 16);
  ASSERT_TRUE(a.ok()) << a.error();
  EXPECT_FALSE(a->mnMajor);
  EXPECT_EQ(a->swizzleBytes, 128u);
  EXPECT_EQ(a->strideByteOffset, 1024u);
  // Bits 62..63 = 1 (128B), SBO 1024 >> 4 = 64 at bit 32, LBO (unused) 1.
  EXPECT_EQ(a->fields(), (uint64_t(1) << 62) | (uint64_t(64) << 32) | (uint64_t(1) << 16));
  // B: 64 x 256 bf16, N contiguous: 64-element runs 64 rows * 128 bytes apart.
  Result<MatrixDescriptorLayout> b =
      matrixDescriptorLayout(tileBytes({64, 256}, 128, 16, false, 16, 256), false, 16);
  ASSERT_TRUE(b.ok()) << b.error();
  EXPECT_TRUE(b->mnMajor);
  EXPECT_EQ(b->leadingByteOffset, 64u * 128u);
  EXPECT_EQ(b->strideByteOffset, 1024u);
  // B with K contiguous (transposed), 64-byte swizzle: K-major, groups 512 apart.
  Result<MatrixDescriptorLayout> bk =
      matrixDescriptorLayout(tileBytes({64, 128}, 64, 16, true, 16, 128), false, 16);
  ASSERT_TRUE(bk.ok()) << bk.error();
  EXPECT_FALSE(bk->mnMajor);
  EXPECT_EQ(bk->swizzleBytes, 64u);
  EXPECT_EQ(bk->strideByteOffset, 512u);
  // 32-byte swizzle of tf32 (K-major only).
  Result<MatrixDescriptorLayout> t =
      matrixDescriptorLayout(tileBytes({128, 32}, 32, 32, false, 64, 8), true, 32);
  ASSERT_TRUE(t.ok()) << t.error();
  EXPECT_EQ(t->swizzleBytes, 32u);
  EXPECT_EQ(t->strideByteOffset, 256u);
  // MN-major tf32 is refused, as is a row-major tile with 256-byte rows.
  EXPECT_FALSE(
      matrixDescriptorLayout(tileBytes({32, 128}, 128, 32, false, 8, 128), false, 32).ok());
  std::vector<std::vector<int64_t>> plain = {{256, 512, 1024, 2048, 4096, 8192},
                                             {2, 4, 8, 16}};
  Result<MatrixDescriptorLayout> bad = matrixDescriptorLayout(plain, true, 16);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().find("operand A is not in a layout a wgmma descriptor reads"),
            std::string::npos)
      << bad.error();
}

TEST(NvidiaModel, TheGemmExampleNamesTheModelsInstruction) {
  // examples/nvidia/matmul_mma_bf16.mlir spells the attribute out; it must
  // be the model's, or the example and the hardware disagree.
  std::ifstream in(HADRON_SOURCE_DIR "/examples/nvidia/matmul_mma_bf16.mlir");
  std::stringstream text;
  text << in.rdbuf();
  ASSERT_FALSE(text.str().empty());
  Result<std::string> attr = matrixInstrAttribute(*findMatrixInstr("mma.m16n8k16.bf16"));
  ASSERT_TRUE(attr.ok());
  EXPECT_NE(text.str().find("#instr = " + *attr + "\n"), std::string::npos);
}

TEST(NvidiaModel, TheWgmmaGemmExampleNamesTheModelsInstruction) {
  std::ifstream in(HADRON_SOURCE_DIR "/examples/nvidia/matmul_wgmma_bf16.mlir");
  std::stringstream text;
  text << in.rdbuf();
  ASSERT_FALSE(text.str().empty());
  Result<std::string> attr = matrixInstrAttribute(*findMatrixInstr("wgmma.m64nNk16.bf16"), 256);
  ASSERT_TRUE(attr.ok());
  EXPECT_NE(text.str().find("#instr = " + *attr + "\n"), std::string::npos);
}

TEST(NvidiaModel, TheAttentionExamplesNameTheModelsInstructions) {
  // S = q k^T reads both operands from shared memory; O += P v takes P (A)
  // from registers, so its attribute has A's fragment.
  for (auto [dim, block] : {std::pair{64u, 64u}, std::pair{128u, 128u}}) {
    std::ifstream in(std::string(HADRON_SOURCE_DIR) + "/examples/nvidia/attention_fwd_hd" +
                     std::to_string(dim) + ".mlir");
    std::stringstream text;
    text << in.rdbuf();
    ASSERT_FALSE(text.str().empty()) << dim;
    const MatrixInstr &w = *findMatrixInstr("wgmma.m64nNk16.bf16");
    Result<std::string> s = matrixInstrAttribute(w, block);
    Result<std::string> o = matrixInstrAttribute(w, dim, /*aInRegisters=*/true);
    ASSERT_TRUE(s.ok() && o.ok());
    EXPECT_NE(text.str().find("#instr_s = " + *s + "\n"), std::string::npos) << dim;
    EXPECT_NE(text.str().find("#instr_o = " + *o + "\n"), std::string::npos) << dim;
    EXPECT_NE(o->find("a = {register = [[0, 1], [8, 0], [0, 8]]"), std::string::npos) << *o;
    EXPECT_EQ(s->find("a = {"), std::string::npos) << *s;
  }
}

TEST(NvidiaModel, WgmmaAccumulatorPerN) {
  const MatrixInstr &w = *findMatrixInstr("wgmma.m64nNk16.f16");
  for (unsigned n : {8u, 16u, 64u, 256u}) {
    auto l = fragmentLayout(w, nvidia::MatrixOperand::Accumulator, n);
    ASSERT_TRUE(l.ok()) << l.error();
    EXPECT_EQ(l.value().getInDimSize("register"), int32_t(n / 2));
    // Warp w owns rows 16w..16w+15; within it the mma.sync mapping repeats
    // every 8 columns.
    for (int32_t warp = 0; warp < 4; ++warp)
      for (int32_t lane = 0; lane < 32; lane += 5)
        for (int32_t i = 0; i < int32_t(n / 2); ++i)
          EXPECT_EQ(at(l.value(), i, lane, warp),
                    std::make_pair(16 * warp + (lane >> 2) + 8 * ((i >> 1) & 1),
                                   8 * (i >> 2) + (lane % 4) * 2 + (i & 1)));
  }
  auto bad = fragmentLayout(w, nvidia::MatrixOperand::Accumulator, 24);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().find("N = 24"), std::string::npos) << bad.error();
  auto wrongN = fragmentLayout(*findMatrixInstr("mma.m16n8k16.f16"), nvidia::MatrixOperand::A, 16);
  ASSERT_FALSE(wrongN.ok());
  EXPECT_NE(wrongN.error().find("N is 8"), std::string::npos) << wrongN.error();
}

} // namespace
