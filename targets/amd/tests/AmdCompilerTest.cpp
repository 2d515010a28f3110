// The AMD compiler part without a GPU: every example compiles for every
// arch, and each HSACO is validated the way a loader sees it (llvm-readobj
// --notes and --dyn-syms): the kernel and its descriptor are there, the
// wavefront size is the arch's, the static LDS is what the shared-memory
// allocator planned (the signature's static_shared_bytes), the explicit
// kernel arguments are where the runtime part packs them, and nothing is
// left undefined. hd.dot on every matrix instruction each arch reports
// becomes exactly the MFMA/WMMA the ISA names, in llvm-objdump's
// disassembly of the code object. Then the error paths: wrong wave size,
// unknown arch, device libraries missing, another arch's instruction.
//
// The examples are written for 32-wide warps. For the wave64 archs the
// test doubles the first entry of every threadsPerWarp (so that it
// multiplies to 64), in memory; the files are left as they are.

#include "CodeObject.h"
#include "KernargLayout.h"
#include "MatrixDotKernel.h"

#include "hadron/plugin/plugin.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <dirent.h>
#include <dlfcn.h>
#include <fstream>
#include <map>
#include <memory>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <unistd.h>
#include <vector>

using namespace hadron::amd;
using namespace hadron::amd::test;
using namespace hadron::testing;

namespace {

const char *const kArchs[] = {"gfx90a", "gfx942", "gfx950", "gfx1100"};

unsigned waveOf(const std::string &arch) { return arch == "gfx1100" ? 32 : 64; }

std::string readFile(const std::string &path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

/// `ir` with every threadsPerWarp's first entry doubled when `wave` is 64
/// (the examples' layouts are written for 32 lanes).
std::string forWave(const std::string &ir, unsigned wave) {
  if (wave == 32)
    return ir;
  std::regex tpw(R"(threadsPerWarp = \[(\d+))");
  std::string out;
  auto begin = std::sregex_iterator(ir.begin(), ir.end(), tpw);
  size_t last = 0;
  for (auto it = begin; it != std::sregex_iterator(); ++it) {
    out += ir.substr(last, it->position() - last);
    out += "threadsPerWarp = [" + std::to_string(std::stoi((*it)[1]) * 2);
    last = it->position() + it->length();
  }
  return out + ir.substr(last);
}

std::vector<std::string> examples() {
  std::vector<std::string> files;
  if (DIR *dir = ::opendir(HADRON_SOURCE_DIR "/examples")) {
    while (dirent *e = ::readdir(dir)) {
      std::string name = e->d_name;
      if (name.size() > 5 && name.substr(name.size() - 5) == ".mlir")
        files.push_back(name);
    }
    ::closedir(dir);
  }
  std::sort(files.begin(), files.end());
  return files;
}

/// A compiled module, released when it goes away.
struct Compiled {
  const hd_compiler_table *table = nullptr;
  hd_compiled_module *module = nullptr;
  hd_status status = HD_OK;
  std::string error;
  ~Compiled() {
    if (module)
      table->release(module);
  }
};

class AmdCompilerTest : public ::testing::Test {
protected:
  static void SetUpTestSuite() {
    library = dlopen(HADRON_AMD_COMPILER_PATH, RTLD_NOW | RTLD_LOCAL);
    ASSERT_NE(library, nullptr) << dlerror();
    auto entry = reinterpret_cast<hd_compiler_entry_fn>(
        dlsym(library, HADRON_COMPILER_ENTRY_SYMBOL));
    ASSERT_NE(entry, nullptr);
    table = entry();
    ASSERT_EQ(table->abi_major, HADRON_PLUGIN_ABI_MAJOR);
  }

  static std::unique_ptr<Compiled> compile(const std::string &ir, const char *arch,
                                           unsigned opt = 3, const char *dumpDir = nullptr) {
    auto c = std::make_unique<Compiled>();
    c->table = table;
    hd_compile_options options{sizeof(options), arch, opt, dumpDir};
    hd_error err{};
    c->status = table->compile(ir.data(), ir.size(), &options, &c->module, &err);
    if (c->status != HD_OK)
      c->error = err.message;
    return c;
  }

  /// Writes the binary to a temporary file and runs llvm-readobj with `flags`.
  static std::string readobj(const hd_compiled_module &m, const std::string &flags) {
    char path[] = "/tmp/hadron-amd-test-XXXXXX";
    int fd = mkstemp(path);
    EXPECT_GE(fd, 0);
    EXPECT_EQ(write(fd, m.binary, m.binary_size), ssize_t(m.binary_size));
    close(fd);
    int status = 0;
    std::string out =
        runCommand(std::string(HADRON_LLVM_READOBJ) + " " + flags + " " + path + " 2>&1", status);
    unlink(path);
    EXPECT_EQ(status, 0) << out;
    return out;
  }

  /// Everything the code object must say about `m`'s kernels.
  /// `scratch`: the kernel may use private (stack) memory, as the device
  /// libraries' printf does.
  static void validate(const hd_compiled_module &m, const std::string &arch,
                       bool scratch = false) {
    unsigned wave = waveOf(arch);
    std::string notes = readobj(m, "--notes");
    CodeObjectMetadata md = parseNotes(notes);
    EXPECT_EQ(md.target, "amdgcn-amd-amdhsa--" + arch) << notes;
    ASSERT_EQ(md.kernels.size(), m.num_kernels) << notes;
    std::vector<DynamicSymbol> symbols = parseDynamicSymbols(readobj(m, "--dyn-syms"));
    for (uint32_t i = 0; i < m.num_kernels; ++i) {
      const hd_kernel_signature &sig = m.kernels[i];
      SCOPED_TRACE(sig.name);
      const KernelMetadata *k = md.kernel(sig.name);
      ASSERT_NE(k, nullptr) << notes;
      EXPECT_EQ(k->get(".symbol"), std::string(sig.name) + ".kd");
      EXPECT_EQ(sig.warp_size, wave);
      EXPECT_EQ(k->number(".wavefront_size"), wave);
      EXPECT_EQ(k->number(".group_segment_fixed_size"), sig.static_shared_bytes);
      EXPECT_EQ(k->number(".max_flat_workgroup_size"), uint64_t(sig.num_warps) * wave);
      EXPECT_EQ(k->lists.at(".reqd_workgroup_size"),
                (std::vector<std::string>{std::to_string(sig.num_warps * wave), "1", "1"}));
      if (!scratch) {
        EXPECT_EQ(k->number(".private_segment_fixed_size"), 0u) << "the kernel spills to scratch";
      }
      EXPECT_EQ(k->get(".uses_dynamic_stack"), "false");

      std::vector<KernelArg> explicitArgs;
      bool hidden = false;
      for (const KernelArg &a : k->args) {
        if (a.hidden())
          hidden = true;
        else
          explicitArgs.push_back(a);
      }
      KernargLayout layout = kernargLayout(sig.args, sig.num_args);
      ASSERT_EQ(explicitArgs.size(), sig.num_args) << notes;
      for (uint32_t a = 0; a < sig.num_args; ++a) {
        EXPECT_EQ(explicitArgs[a].offset, layout.offsets[a]) << "argument " << a;
        EXPECT_EQ(explicitArgs[a].size, kernargSize(sig.args[a])) << "argument " << a;
        EXPECT_EQ(explicitArgs[a].valueKind,
                  sig.args[a] == HD_ARG_PTR ? "global_buffer" : "by_value")
            << "argument " << a;
      }
      // The segment is the explicit arguments rounded up to 4 bytes or,
      // when the kernel reads hidden arguments, rounded up to 8 and
      // followed by code object v5's 256 bytes of them (of which .args
      // lists only those used).
      uint64_t segment = hidden ? (layout.size + 7) / 8 * 8 + 256 : (layout.size + 3) / 4 * 4;
      EXPECT_EQ(k->number(".kernarg_segment_size"), segment) << notes;

      bool entry = false, descriptor = false;
      for (const DynamicSymbol &s : symbols) {
        entry |= s.name == sig.name && s.section == ".text";
        descriptor |= s.name == std::string(sig.name) + ".kd" && s.section == ".rodata";
      }
      EXPECT_TRUE(entry && descriptor) << "kernel or descriptor missing from .dynsym";
    }
    for (const DynamicSymbol &s : symbols)
      EXPECT_NE(s.section, "Undefined") << s.name << " is undefined in the HSACO";
  }

  static inline void *library = nullptr;
  static inline const hd_compiler_table *table = nullptr;
};

class AmdExamples : public AmdCompilerTest, public ::testing::WithParamInterface<const char *> {};

TEST_P(AmdExamples, EveryExampleCompilesToAValidCodeObject) {
  std::string arch = GetParam();
  std::vector<std::string> files = examples();
  ASSERT_GE(files.size(), 5u) << "examples/ not found";
  bool sawStaticLds = false;
  for (const std::string &file : files) {
    SCOPED_TRACE(file);
    auto c = compile(forWave(readFile(HADRON_SOURCE_DIR "/examples/" + file), waveOf(arch)),
                     arch.c_str());
    ASSERT_EQ(c->status, HD_OK) << c->error;
    validate(*c->module, arch);
    for (uint32_t i = 0; i < c->module->num_kernels; ++i)
      sawStaticLds |= c->module->kernels[i].static_shared_bytes > 0;
  }
  // transpose goes through LDS: the comparison with the plan is not 0 == 0.
  EXPECT_TRUE(sawStaticLds) << "no example uses LDS; the group segment check proves nothing";
}

INSTANTIATE_TEST_SUITE_P(Archs, AmdExamples, ::testing::ValuesIn(kArchs),
                         [](const auto &info) { return std::string(info.param); });

/// What each arch's matrix unit issues for an hd.dot, per the ISA guides
/// (MI200 CDNA2, MI300 CDNA3, MI355 CDNA4, RDNA3), as llvm-objdump spells
/// the mnemonic on that arch: gfx90a keeps the CDNA1/2 names
/// (v_mfma_f32_32x32x8f16, *bf16_1k), gfx940 and later the underscored ones.
/// Written here, not read from the model, so that a missing, extra or
/// misnamed instruction in the compiler part's answer fails.
struct ArchMatrixUnit {
  const char *arch;
  std::map<std::string, std::string> mnemonicOf; ///< instruction name -> mnemonic
};

const ArchMatrixUnit kMatrixUnits[] = {
    {"gfx90a",
     {{"mfma.f32.32x32x2.f32", "v_mfma_f32_32x32x2f32"},
      {"mfma.f32.16x16x4.f32", "v_mfma_f32_16x16x4f32"},
      {"mfma.f32.32x32x8.f16", "v_mfma_f32_32x32x8f16"},
      {"mfma.f32.16x16x16.f16", "v_mfma_f32_16x16x16f16"},
      {"mfma.f32.32x32x8.bf16", "v_mfma_f32_32x32x8bf16_1k"},
      {"mfma.f32.16x16x16.bf16", "v_mfma_f32_16x16x16bf16_1k"},
      {"mfma.f64.16x16x4.f64", "v_mfma_f64_16x16x4f64"},
      {"mfma.i32.32x32x8.i8", "v_mfma_i32_32x32x8i8"},
      {"mfma.i32.16x16x16.i8", "v_mfma_i32_16x16x16i8"}}},
    {"gfx942",
     {{"mfma.f32.32x32x2.f32", "v_mfma_f32_32x32x2_f32"},
      {"mfma.f32.16x16x4.f32", "v_mfma_f32_16x16x4_f32"},
      {"mfma.f32.32x32x8.f16", "v_mfma_f32_32x32x8_f16"},
      {"mfma.f32.16x16x16.f16", "v_mfma_f32_16x16x16_f16"},
      {"mfma.f32.32x32x8.bf16", "v_mfma_f32_32x32x8_bf16"},
      {"mfma.f32.16x16x16.bf16", "v_mfma_f32_16x16x16_bf16"},
      {"mfma.f64.16x16x4.f64", "v_mfma_f64_16x16x4_f64"},
      {"mfma.i32.32x32x16.i8", "v_mfma_i32_32x32x16_i8"},
      {"mfma.i32.16x16x32.i8", "v_mfma_i32_16x16x32_i8"},
      {"mfma.f32.32x32x4.xf32", "v_mfma_f32_32x32x4_xf32"},
      {"mfma.f32.16x16x8.xf32", "v_mfma_f32_16x16x8_xf32"}}},
    {"gfx950",
     {{"mfma.f32.32x32x2.f32", "v_mfma_f32_32x32x2_f32"},
      {"mfma.f32.16x16x4.f32", "v_mfma_f32_16x16x4_f32"},
      {"mfma.f32.32x32x8.f16", "v_mfma_f32_32x32x8_f16"},
      {"mfma.f32.16x16x16.f16", "v_mfma_f32_16x16x16_f16"},
      {"mfma.f32.32x32x8.bf16", "v_mfma_f32_32x32x8_bf16"},
      {"mfma.f32.16x16x16.bf16", "v_mfma_f32_16x16x16_bf16"},
      {"mfma.f64.16x16x4.f64", "v_mfma_f64_16x16x4_f64"},
      {"mfma.i32.32x32x16.i8", "v_mfma_i32_32x32x16_i8"},
      {"mfma.i32.16x16x32.i8", "v_mfma_i32_16x16x32_i8"},
      {"mfma.f32.32x32x16.f16", "v_mfma_f32_32x32x16_f16"},
      {"mfma.f32.16x16x32.f16", "v_mfma_f32_16x16x32_f16"},
      {"mfma.f32.32x32x16.bf16", "v_mfma_f32_32x32x16_bf16"},
      {"mfma.f32.16x16x32.bf16", "v_mfma_f32_16x16x32_bf16"}}},
    {"gfx1100",
     {{"wmma.f32.16x16x16.f16", "v_wmma_f32_16x16x16_f16"},
      {"wmma.f32.16x16x16.bf16", "v_wmma_f32_16x16x16_bf16"},
      {"wmma.i32.16x16x16.i8", "v_wmma_i32_16x16x16_iu8"}}},
};

/// The compiler part's matrix_instructions(arch) texts.
std::vector<std::string> reportedMatrixInstructions(const hd_compiler_table &table,
                                                    const char *arch) {
  const char *const *texts = nullptr;
  hd_error err{};
  EXPECT_EQ(table.matrix_instructions(arch, &texts, &err), HD_OK) << err.message;
  std::vector<std::string> out;
  for (; texts && *texts; ++texts)
    out.push_back(*texts);
  return out;
}

/// The matrix-unit mnemonics in llvm-objdump's disassembly of `m`.
std::multiset<std::string> matrixMnemonics(const hd_compiled_module &m, const std::string &arch) {
  char path[] = "/tmp/hadron-amd-mma-XXXXXX";
  int fd = mkstemp(path);
  EXPECT_GE(fd, 0);
  EXPECT_EQ(write(fd, m.binary, m.binary_size), ssize_t(m.binary_size));
  close(fd);
  int status = 0;
  std::string out = runCommand(std::string(HADRON_LLVM_OBJDUMP) + " -d --mcpu=" + arch + " " +
                                   path + " 2>&1",
                               status);
  unlink(path);
  EXPECT_EQ(status, 0) << out;
  std::multiset<std::string> found;
  std::regex mnemonic(R"(\b(v_mfma_\w+|v_wmma_\w+))");
  for (auto it = std::sregex_iterator(out.begin(), out.end(), mnemonic);
       it != std::sregex_iterator(); ++it)
    found.insert((*it)[1]);
  return found;
}

class AmdMatrixUnit : public AmdCompilerTest,
                      public ::testing::WithParamInterface<ArchMatrixUnit> {};

// Every instruction the compiler part reports for the arch, and no other,
// compiles from a kernel written from its #hd.matrix_instr text alone, into a
// valid code object whose disassembly holds exactly the four instructions
// the dot needs (2 tiles along N x 2 steps along K per warp) and nothing
// else of the matrix unit.
TEST_P(AmdMatrixUnit, EveryReportedInstructionIsIssued) {
  const ArchMatrixUnit &unit = GetParam();
  std::set<std::string> reported, expected;
  for (const auto &[name, mnemonic] : unit.mnemonicOf)
    expected.insert(name);
  for (const std::string &text : reportedMatrixInstructions(*table, unit.arch)) {
    MatrixInstrText mi = parseMatrixInstrText(text);
    SCOPED_TRACE(mi.name);
    reported.insert(mi.name);
    auto want = unit.mnemonicOf.find(mi.name);
    if (want == unit.mnemonicOf.end())
      continue;
    auto c = compile(matrixDotKernel(mi, waveOf(unit.arch)), unit.arch);
    ASSERT_EQ(c->status, HD_OK) << c->error;
    validate(*c->module, unit.arch);
    EXPECT_EQ(matrixMnemonics(*c->module, unit.arch),
              (std::multiset<std::string>{want->second, want->second, want->second,
                                          want->second}));
  }
  EXPECT_EQ(reported, expected);
}

INSTANTIATE_TEST_SUITE_P(Archs, AmdMatrixUnit, ::testing::ValuesIn(kMatrixUnits),
                         [](const auto &info) { return std::string(info.param.arch); });

// An instruction of another arch, or of no arch, is refused by name.
TEST_F(AmdCompilerTest, MatrixInstructionsOfOtherArchsAreRefused) {
  std::vector<std::string> gfx942 = reportedMatrixInstructions(*table, "gfx942");
  std::string xf32;
  for (const std::string &text : gfx942)
    if (text.find("\"mfma.f32.32x32x4.xf32\"") != std::string::npos)
      xf32 = text;
  ASSERT_FALSE(xf32.empty());
  std::string ir = matrixDotKernel(parseMatrixInstrText(xf32), 64);
  auto gone = compile(ir, "gfx950");
  EXPECT_EQ(gone->status, HD_ERROR_COMPILE);
  EXPECT_NE(gone->error.find("matrix instruction \"mfma.f32.32x32x4.xf32\" "
                             "(v_mfma_f32_32x32x4_xf32) is gfx942's; the kernel is compiled "
                             "for gfx950"),
            std::string::npos)
      << gone->error;
  std::string renamed = std::regex_replace(ir, std::regex("mfma\\.f32\\.32x32x4\\.xf32"),
                                           "mfma.f32.32x32x5.xf32");
  auto unknown = compile(renamed, "gfx942");
  EXPECT_NE(unknown->error.find("no matrix instruction \"mfma.f32.32x32x5.xf32\": the AMD model "
                                "declares none of that name"),
            std::string::npos)
      << unknown->error;
  const char *const *texts = nullptr;
  hd_error err{};
  EXPECT_EQ(table->matrix_instructions("gfx1200", &texts, &err), HD_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(err.message).find("unknown arch 'gfx1200'"), std::string::npos);
}

TEST_F(AmdCompilerTest, EveryOptLevel) {
  std::string ir = forWave(readFile(HADRON_SOURCE_DIR "/examples/row_softmax.mlir"), 64);
  for (unsigned opt = 0; opt <= 3; ++opt) {
    auto c = compile(ir, "gfx942", opt);
    ASSERT_EQ(c->status, HD_OK) << "-O" << opt << ": " << c->error;
    validate(*c->module, "gfx942");
  }
}

// The kernarg offsets the runtime part packs are the code object's, for
// every kind and with padding between them.
TEST_F(AmdCompilerTest, ScalarArgumentsLandWhereTheRuntimePacksThem) {
  const std::string ir = R"(
module attributes {hd.num_warps = 1 : i32} {
  func.func @mixed(%a: i8, %b: f64, %c: i1, %p: !hd.ptr<f32>, %d: f16, %e: i64, %f: bf16, %g: i32, %h: i16, %q: f32, %r: i1) attributes {hd.kernel} {
    return
  }
}
)";
  for (const char *arch : kArchs) {
    SCOPED_TRACE(arch);
    auto c = compile(ir, arch);
    ASSERT_EQ(c->status, HD_OK) << c->error;
    validate(*c->module, arch);
    const hd_kernel_signature &sig = c->module->kernels[0];
    KernargLayout layout = kernargLayout(sig.args, sig.num_args);
    EXPECT_EQ(layout.offsets, (std::vector<uint32_t>{0, 8, 16, 24, 32, 40, 48, 52, 56, 60, 64}));
    EXPECT_EQ(layout.size, 65u);
  }
}

// num_programs reads the code object v5 hidden arguments, which HIP fills:
// they follow the explicit ones in the kernarg segment.
TEST_F(AmdCompilerTest, NumProgramsUsesTheHiddenBlockCount) {
  const std::string ir = R"(
module attributes {hd.num_warps = 1 : i32} {
  func.func @grid(%out: !hd.ptr<i32>, %k: i32) attributes {hd.kernel} {
    %pid = hd.program_id 0
    %nx = hd.num_programs 0
    %ny = hd.num_programs 1
    %nz = hd.num_programs 2
    %a = arith.addi %nx, %ny : i32
    %b = arith.addi %a, %nz : i32
    %c = arith.addi %b, %k : i32
    %p = hd.addptr %out, %pid : !hd.ptr<i32>, i32
    hd.store %p, %c : !hd.ptr<i32>
    return
  }
}
)";
  auto c = compile(ir, "gfx942");
  ASSERT_EQ(c->status, HD_OK) << c->error;
  validate(*c->module, "gfx942");
  CodeObjectMetadata md = parseNotes(readobj(*c->module, "--notes"));
  const KernelMetadata *k = md.kernel("grid");
  ASSERT_NE(k, nullptr);
  std::vector<std::string> kinds;
  for (const KernelArg &a : k->args)
    kinds.push_back(a.valueKind);
  ASSERT_GE(kinds.size(), 5u);
  EXPECT_EQ(kinds[2], "hidden_block_count_x");
  EXPECT_EQ(kinds[3], "hidden_block_count_y");
  EXPECT_EQ(kinds[4], "hidden_block_count_z");
  EXPECT_EQ(k->args[2].offset, 16u); // after the pointer and the i32, 8-aligned
}

TEST_F(AmdCompilerTest, LayoutsForTheOtherWaveSizeAreRejected) {
  std::string wave32 = readFile(HADRON_SOURCE_DIR "/examples/vector_add.mlir");
  for (const char *arch : {"gfx90a", "gfx942", "gfx950"}) {
    auto c = compile(wave32, arch);
    EXPECT_EQ(c->status, HD_ERROR_COMPILE) << arch;
    EXPECT_NE(c->error.find("threadsPerWarp [32] multiplies to 32"), std::string::npos)
        << c->error;
    EXPECT_NE(c->error.find("64"), std::string::npos) << c->error;
  }
  auto c = compile(forWave(wave32, 64), "gfx1100");
  EXPECT_EQ(c->status, HD_ERROR_COMPILE);
  EXPECT_NE(c->error.find("threadsPerWarp [64] multiplies to 64"), std::string::npos) << c->error;
}

TEST_F(AmdCompilerTest, CoalescedLayoutsResolveToTheWaveSize) {
  const std::string ir = R"(
module attributes {hd.num_warps = 4 : i32} {
  func.func @copy(%src: !hd.ptr<f32> {hd.divisibility = 16 : i32}, %dst: !hd.ptr<f32> {hd.divisibility = 16 : i32}) attributes {hd.kernel} {
    %offsets = hd.arange 0 to 2048 : tensor<2048xi32, #hd.coalesced>
    %sp = hd.splat %src : tensor<2048x!hd.ptr<f32>, #hd.coalesced>
    %sptrs = hd.addptr %sp, %offsets : tensor<2048x!hd.ptr<f32>, #hd.coalesced>, tensor<2048xi32, #hd.coalesced>
    %x = hd.load %sptrs : tensor<2048x!hd.ptr<f32>, #hd.coalesced>
    %dp = hd.splat %dst : tensor<2048x!hd.ptr<f32>, #hd.coalesced>
    %dptrs = hd.addptr %dp, %offsets : tensor<2048x!hd.ptr<f32>, #hd.coalesced>, tensor<2048xi32, #hd.coalesced>
    hd.store %dptrs, %x : tensor<2048x!hd.ptr<f32>, #hd.coalesced>
    return
  }
}
)";
  for (const char *arch : kArchs) {
    SCOPED_TRACE(arch);
    char dir[] = "/tmp/hadron-amd-dump-XXXXXX";
    ASSERT_NE(mkdtemp(dir), nullptr);
    auto c = compile(ir, arch, 3, dir);
    ASSERT_EQ(c->status, HD_OK) << c->error;
    validate(*c->module, arch);
    std::string planned = readFile(std::string(dir) + "/0-planned.mlir");
    int status = 0;
    runCommand(std::string("rm -rf ") + dir, status);
    std::smatch m;
    ASSERT_TRUE(std::regex_search(planned, m, std::regex(R"(threadsPerWarp = \[(\d+)\])")))
        << planned;
    EXPECT_EQ(std::stoul(m[1]), waveOf(arch));
    // 16-byte vectors per thread: four f32.
    EXPECT_NE(planned.find("sizePerThread = [4]"), std::string::npos) << planned;
  }
}

TEST_F(AmdCompilerTest, UnknownArchNamesTheKnownOnes) {
  auto c = compile(readFile(HADRON_SOURCE_DIR "/examples/vector_add.mlir"), "gfx1030");
  EXPECT_EQ(c->status, HD_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(c->error.find("unknown arch 'gfx1030'"), std::string::npos) << c->error;
  EXPECT_NE(c->error.find("gfx942, gfx90a, gfx950, gfx1100"), std::string::npos) << c->error;
}

/// f32 sin (accurate only through ocml) and f64 exp (which the backend
/// cannot select at all) on `wave`-wide layouts.
std::string mathKernel(unsigned wave) {
  std::string n = std::to_string(2 * wave);
  std::string layout = "#b = #hd.blocked<{sizePerThread = [2], threadsPerWarp = [" +
                       std::to_string(wave) + "], warpsPerCTA = [1], order = [0]}>\n";
  std::string t32 = "tensor<" + n + "xf32, #b>", t64 = "tensor<" + n + "xf64, #b>";
  std::string ti = "tensor<" + n + "xi32, #b>";
  std::string p32 = "tensor<" + n + "x!hd.ptr<f32>, #b>", p64 = "tensor<" + n + "x!hd.ptr<f64>, #b>";
  return layout + R"(module attributes {hd.num_warps = 1 : i32} {
  func.func @math(%x: !hd.ptr<f32>, %y: !hd.ptr<f64>) attributes {hd.kernel} {
    %i = hd.arange 0 to )" + n + " : " + ti + R"(
    %xs = hd.splat %x : )" + p32 + R"(
    %xp = hd.addptr %xs, %i : )" + p32 + ", " + ti + R"(
    %xv = hd.load %xp : )" + p32 + R"(
    %s = math.sin %xv : )" + t32 + R"(
    hd.store %xp, %s : )" + p32 + R"(
    %ys = hd.splat %y : )" + p64 + R"(
    %yp = hd.addptr %ys, %i : )" + p64 + ", " + ti + R"(
    %yv = hd.load %yp : )" + p64 + R"(
    %e = math.exp %yv : )" + t64 + R"(
    hd.store %yp, %e : )" + p64 + R"(
    return
  }
}
)";
}

TEST_F(AmdCompilerTest, MathLinksTheDeviceLibraries) {
  if (!std::getenv("HADRON_AMD_DEVICE_LIBS") &&
      access("/usr/lib/x86_64-linux-gnu/amdgcn/bitcode/ocml.bc", R_OK) != 0 &&
      access("/opt/rocm/amdgcn/bitcode/ocml.bc", R_OK) != 0)
    GTEST_SKIP() << "the ROCm device libraries are not installed (Debian: rocm-device-libs)";
  for (const char *arch : kArchs) {
    SCOPED_TRACE(arch);
    auto c = compile(mathKernel(waveOf(arch)), arch);
    ASSERT_EQ(c->status, HD_OK) << c->error;
    validate(*c->module, arch);
    std::string ir = c->module->llvm_ir;
    // Linked and inlined: no call into the libraries is left.
    EXPECT_EQ(ir.find("declare float @__ocml_sin_f32"), std::string::npos);
    EXPECT_EQ(ir.find("llvm.exp.f64"), std::string::npos);
    EXPECT_EQ(ir.find("llvm.sin.f32"), std::string::npos);
  }
}

TEST_F(AmdCompilerTest, MissingDeviceLibrariesAreAClearError) {
  ASSERT_EQ(setenv("HADRON_AMD_DEVICE_LIBS", "/nonexistent/bitcode", 1), 0);
  auto c = compile(mathKernel(64), "gfx942");
  // A kernel without math needs no library.
  auto plain = compile(forWave(readFile(HADRON_SOURCE_DIR "/examples/vector_add.mlir"), 64),
                       "gfx942");
  unsetenv("HADRON_AMD_DEVICE_LIBS");
  EXPECT_EQ(c->status, HD_ERROR_COMPILE);
  EXPECT_NE(c->error.find("ocml.bc"), std::string::npos) << c->error;
  EXPECT_NE(c->error.find("__ocml_"), std::string::npos) << c->error;
  EXPECT_NE(c->error.find("/nonexistent/bitcode"), std::string::npos) << c->error;
  EXPECT_NE(c->error.find("rocm-device-libs"), std::string::npos) << c->error;
  EXPECT_EQ(plain->status, HD_OK) << plain->error;
}

// print goes through HIP's hostcall printf (ockl), assert prints and traps.
TEST_F(AmdCompilerTest, PrintAndAssertUseHostcallPrintfAndTrap) {
  const std::string ir = R"(
module attributes {hd.num_warps = 1 : i32} {
  func.func @debug(%n: i32) attributes {hd.kernel} {
    %pid = hd.program_id 0
    %ok = arith.cmpi slt, %pid, %n : i32
    hd.assert %ok, "pid out of range" : i1
    hd.print "pid " : %pid : i32
    return
  }
}
)";
  auto c = compile(ir, "gfx942");
  ASSERT_EQ(c->status, HD_OK) << c->error;
  validate(*c->module, "gfx942", /*scratch=*/true);
  CodeObjectMetadata md = parseNotes(readobj(*c->module, "--notes"));
  bool hostcall = false;
  for (const KernelArg &a : md.kernel("debug")->args)
    hostcall |= a.valueKind == "hidden_hostcall_buffer";
  EXPECT_TRUE(hostcall) << "printf needs the hostcall buffer HIP services";
  std::string assembly = c->module->assembly;
  EXPECT_NE(assembly.find("s_trap"), std::string::npos);
  EXPECT_NE(std::string(c->module->llvm_ir).find("pid out of range"), std::string::npos);
}

TEST_F(AmdCompilerTest, MalformedIRNamesTheLine) {
  auto c = compile("module {\n  func.func @k( {\n}\n", "gfx942");
  EXPECT_EQ(c->status, HD_ERROR_COMPILE);
  EXPECT_NE(c->error.find("<kernel>:2:"), std::string::npos) << c->error;
}

} // namespace
