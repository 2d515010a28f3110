//===- NvidiaCompilerTest.cpp - The NVIDIA compiler part, no GPU needed ---===//
//
// Loads libhadron-target-nvidia-compiler.so directly and compiles:
//  - every examples/*.mlir for sm_80 and sm_90a; with ptxas found, the binary
//    must be the cubin ptxas made of the PTX (ELF, machine EM_CUDA), which
//    is ptxas accepting it;
//  - a kernel with exp/log/tanh/sin, which must have libdevice linked in
//    and no __nv_ extern left;
//  - without a toolkit (CUDA_HOME pointed at an empty directory): PTX as
//    the binary, and a loud error naming the libdevice function a math
//    kernel needs;
//  - hd.dot on the #hd.mma layout of every mma.sync instruction the model
//    declares: the PTX issues that instruction, ptxas accepts it, and an
//    arch without it is refused by name;
//  - bad input: a 64-lane warp layout, an unknown arch.
//
//===----------------------------------------------------------------------===//

#include "MmaDotKernel.h"

#include "hadron/plugin/plugin.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <dlfcn.h>

namespace {

std::string readFile(const std::string &path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

const hd_compiler_table *compiler() {
  static const hd_compiler_table *table = [] {
    void *handle = ::dlopen(HADRON_NVIDIA_COMPILER_PATH, RTLD_NOW | RTLD_LOCAL);
    if (!handle)
      return static_cast<const hd_compiler_table *>(nullptr);
    auto entry = reinterpret_cast<hd_compiler_entry_fn>(
        ::dlsym(handle, HADRON_COMPILER_ENTRY_SYMBOL));
    return entry ? entry() : nullptr;
  }();
  return table;
}

struct Compiled {
  hd_status status = HD_ERROR_INTERNAL;
  std::string message, binary, ptx, llvmIR;
  std::vector<hd_kernel_signature> kernels; // names dangle after release
  uint32_t numWarps = 0, warpSize = 0;
  uint64_t staticSharedBytes = 0;
};

Compiled compile(const std::string &ir, const char *arch) {
  Compiled c;
  const hd_compiler_table *table = compiler();
  if (!table) {
    c.message = std::string("cannot load ") + HADRON_NVIDIA_COMPILER_PATH;
    return c;
  }
  hd_compile_options options{sizeof(hd_compile_options), arch, 3, nullptr};
  hd_compiled_module *out = nullptr;
  hd_error err{};
  c.status = table->compile(ir.data(), ir.size(), &options, &out, &err);
  if (c.status != HD_OK) {
    c.message = err.message;
    return c;
  }
  c.binary.assign(static_cast<const char *>(out->binary), out->binary_size);
  c.ptx = out->assembly ? out->assembly : "";
  c.llvmIR = out->llvm_ir ? out->llvm_ir : "";
  if (out->num_kernels) {
    c.numWarps = out->kernels[0].num_warps;
    c.warpSize = out->kernels[0].warp_size;
    c.staticSharedBytes = out->kernels[0].static_shared_bytes;
  }
  table->release(out);
  return c;
}

bool isCudaElf(const std::string &binary) {
  // ELF magic, then e_machine (offset 18, little-endian) == EM_CUDA (190).
  return binary.size() > 20 && binary.compare(0, 4, "\x7f" "ELF") == 0 &&
         static_cast<unsigned char>(binary[18]) == 190 && binary[19] == 0;
}

/// Whether the compiler part will find ptxas (its rule: CUDA_HOME, else
/// /usr/local/cuda, else PATH), for the tests that need one.
bool ptxasAvailable() {
  if (const char *home = std::getenv("CUDA_HOME"); home && *home)
    return std::filesystem::exists(std::string(home) + "/bin/ptxas");
  if (std::filesystem::exists("/usr/local/cuda/bin/ptxas"))
    return true;
  return std::system("command -v ptxas > /dev/null 2>&1") == 0;
}

bool libdeviceAvailable() {
  const char *home = std::getenv("CUDA_HOME");
  std::string root = home && *home ? home : "/usr/local/cuda";
  return std::filesystem::exists(root + "/nvvm/libdevice/libdevice.10.bc");
}

/// Sets CUDA_HOME for the scope of a test.
class ScopedCudaHome {
public:
  explicit ScopedCudaHome(const std::string &value) {
    if (const char *old = std::getenv("CUDA_HOME"))
      saved = old, hadValue = true;
    ::setenv("CUDA_HOME", value.c_str(), 1);
  }
  ~ScopedCudaHome() {
    if (hadValue)
      ::setenv("CUDA_HOME", saved.c_str(), 1);
    else
      ::unsetenv("CUDA_HOME");
  }

private:
  std::string saved;
  bool hadValue = false;
};

std::vector<std::string> exampleFiles() {
  std::vector<std::string> files;
  for (const auto &entry : std::filesystem::directory_iterator(HADRON_SOURCE_DIR "/examples"))
    if (entry.path().extension() == ".mlir")
      files.push_back(entry.path().string());
  std::sort(files.begin(), files.end());
  return files;
}

class ExampleCompiles : public ::testing::TestWithParam<std::tuple<std::string, const char *>> {};

TEST_P(ExampleCompiles, ToPtxAndPtxasAcceptsIt) {
  auto [path, arch] = GetParam();
  Compiled c = compile(readFile(path), arch);
  ASSERT_EQ(c.status, HD_OK) << path << " for " << arch << ":\n" << c.message;
  EXPECT_NE(c.ptx.find(std::string(".target ") + arch), std::string::npos) << c.ptx.substr(0, 400);
  EXPECT_NE(c.ptx.find(".entry"), std::string::npos);
  EXPECT_EQ(c.warpSize, 32u);
  EXPECT_NE(c.llvmIR.find("ptx_kernel"), std::string::npos);
  // Nothing the driver would have to resolve but its own system calls.
  EXPECT_EQ(c.ptx.find(".extern .func __nv_"), std::string::npos);
  if (!ptxasAvailable())
    GTEST_SKIP() << "no ptxas (CUDA_HOME, /usr/local/cuda, PATH): the binary is the PTX, "
                    "which only the driver would check";
  EXPECT_TRUE(isCudaElf(c.binary)) << "with ptxas found the binary must be a cubin";
}

INSTANTIATE_TEST_SUITE_P(
    NvidiaCompiler, ExampleCompiles,
    ::testing::Combine(::testing::ValuesIn(exampleFiles()), ::testing::Values("sm_80", "sm_90a")),
    [](const auto &info) {
      std::string name = std::filesystem::path(std::get<0>(info.param)).stem().string() + "_" +
                         std::get<1>(info.param);
      for (char &ch : name)
        if (!isalnum(static_cast<unsigned char>(ch)))
          ch = '_';
      return name;
    });

class MmaDotCompiles : public ::testing::TestWithParam<std::string> {};

TEST_P(MmaDotCompiles, IssuesTheInstructionOnEveryArchThatHasIt) {
  const hadron::nvidia::MatrixInstr *instr = hadron::nvidia::findMatrixInstr(GetParam());
  ASSERT_NE(instr, nullptr);
  hadron::Result<std::string> ir = hadron::nvidia::testing::mmaDotKernel(*instr);
  ASSERT_TRUE(ir.ok()) << ir.error();
  // M = 4m, N = 4n over 2x2 warps: 2x2 tiles per warp, two K steps.
  const size_t perWarp = 8;
  for (const char *arch : {"sm_80", "sm_90a", "sm_100a"}) {
    Compiled c = compile(*ir, arch);
    ASSERT_EQ(c.status, HD_OK) << arch << ":\n" << c.message << "\n" << *ir;
    size_t count = 0;
    for (size_t at = c.ptx.find(instr->ptx); at != std::string::npos;
         at = c.ptx.find(instr->ptx, at + 1))
      ++count;
    EXPECT_EQ(count, perWarp) << arch << "\n" << c.ptx;
    if (ptxasAvailable()) {
      EXPECT_TRUE(isCudaElf(c.binary)) << arch;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(NvidiaCompiler, MmaDotCompiles,
                         ::testing::ValuesIn(hadron::nvidia::testing::mmaSyncInstructions()),
                         [](const auto &info) { return hadron::nvidia::testing::testName(info.param); });

class WgmmaDotCompiles : public ::testing::TestWithParam<hadron::nvidia::testing::WgmmaCase> {};

TEST_P(WgmmaDotCompiles, IssuesOneInstructionPerKStepFromDescriptors) {
  namespace nv = hadron::nvidia;
  const nv::testing::WgmmaCase &wc = GetParam();
  hadron::Result<std::string> ir = nv::testing::wgmmaDotKernel(wc);
  ASSERT_TRUE(ir.ok()) << ir.error();
  const nv::MatrixInstr *instr = nv::findMatrixInstr(wc.instr);
  const nv::testing::MmaDotShape s = nv::testing::wgmmaDotShape(wc);
  Compiled c = compile(*ir, "sm_90a");
  ASSERT_EQ(c.status, HD_OK) << c.message << "\n" << *ir;
  // Each warpgroup covers its 64 rows and all N with one instruction per K step.
  std::string ptx = instr->ptx;
  ptx.replace(ptx.find("nN"), 2, "n" + std::to_string(wc.n));
  size_t count = 0;
  for (size_t at = c.ptx.find(ptx); at != std::string::npos; at = c.ptx.find(ptx, at + 1))
    ++count;
  EXPECT_EQ(count, size_t(s.k / int(instr->k))) << c.ptx;
  for (const char *op : {"wgmma.fence.sync.aligned", "wgmma.commit_group.sync.aligned",
                         "wgmma.wait_group.sync.aligned 0", "fence.proxy.async.shared::cta"})
    EXPECT_NE(c.ptx.find(op), std::string::npos) << op;
  if (ptxasAvailable()) {
    EXPECT_TRUE(isCudaElf(c.binary));
  }
  // sm_90 without the 'a' features has no wgmma: refused by name.
  Compiled plain = compile(*ir, "sm_90");
  ASSERT_NE(plain.status, HD_OK);
  EXPECT_NE(plain.message.find("needs the arch-specific sm_90a"), std::string::npos)
      << plain.message;
}

INSTANTIATE_TEST_SUITE_P(NvidiaCompiler, WgmmaDotCompiles,
                         ::testing::ValuesIn(hadron::nvidia::testing::wgmmaCases()),
                         [](const auto &info) {
                           return hadron::nvidia::testing::wgmmaCaseName(info.param);
                         });

TEST(NvidiaCompiler, WgmmaRefusesALayoutItsDescriptorsCannotRead) {
  namespace nv = hadron::nvidia;
  std::string ir = *nv::testing::wgmmaDotKernel({"wgmma.m64nNk16.bf16", 128, 128, false});
  // A plain row-major tile: rows 256 bytes apart, no swizzle.
  const std::string from = "#a_sh = #hd.matrix_shared<{swizzle = 128, elementBits = 16, "
                           "transposed = false}>";
  ASSERT_NE(ir.find(from), std::string::npos);
  ir.replace(ir.find(from), from.size(),
             "#a_sh = #hd.swizzled<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>");
  Compiled c = compile(ir, "sm_90a");
  ASSERT_NE(c.status, HD_OK);
  EXPECT_NE(c.message.find("operand A is not in a layout a wgmma descriptor reads"),
            std::string::npos)
      << c.message;
}

TEST(NvidiaCompiler, MmaOfALaterArchIsRefusedByName) {
  // wgmma is sm_90a's alone, and has no register form: hd.dot on registers
  // refuses it, naming both.
  std::string ir = *hadron::nvidia::testing::mmaDotKernel(
      *hadron::nvidia::findMatrixInstr("mma.m16n8k16.bf16"));
  std::string renamed = ir;
  renamed.replace(renamed.find("mma.m16n8k16.bf16"), 17, "wgmma.m64n8k16.bf16");
  Compiled c = compile(renamed, "sm_90a");
  ASSERT_NE(c.status, HD_OK);
  EXPECT_NE(c.message.find("\"wgmma.m64n8k16.bf16\" is issued by a warpgroup"), std::string::npos)
      << c.message;
  c = compile(renamed, "sm_80");
  ASSERT_NE(c.status, HD_OK);
  EXPECT_NE(c.message.find("needs the arch-specific sm_90a; the kernel is compiled for sm_80"),
            std::string::npos)
      << c.message;
}

TEST(NvidiaCompiler, EveryArchCompilesVectorAdd) {
  const std::string ir = readFile(HADRON_SOURCE_DIR "/examples/vector_add.mlir");
  for (const char *arch : {"sm_80", "sm_86", "sm_89", "sm_90", "sm_90a", "sm_100", "sm_100a"}) {
    Compiled c = compile(ir, arch);
    ASSERT_EQ(c.status, HD_OK) << arch << ": " << c.message;
    EXPECT_NE(c.ptx.find(std::string(".target ") + arch), std::string::npos) << arch;
    if (ptxasAvailable()) {
      EXPECT_TRUE(isCudaElf(c.binary)) << arch;
    }
  }
}

TEST(NvidiaCompiler, MathLinksLibdevice) {
  if (!libdeviceAvailable())
    GTEST_SKIP() << "no libdevice.10.bc under CUDA_HOME or /usr/local/cuda";
  Compiled c = compile(readFile(HADRON_NVIDIA_INPUTS "/math.mlir"), "sm_90a");
  ASSERT_EQ(c.status, HD_OK) << c.message;
  // Linked, internalized and inlined: no declaration of a libdevice
  // function is left, and PTX has no extern for one.
  EXPECT_EQ(c.llvmIR.find("declare float @__nv_"), std::string::npos);
  EXPECT_EQ(c.llvmIR.find("@llvm.exp.f32"), std::string::npos);
  EXPECT_EQ(c.ptx.find(".extern"), std::string::npos);
  EXPECT_EQ(c.ptx.find("__nv_"), std::string::npos);
  // sqrt is the IEEE instruction, exp is libdevice's ex2-based sequence.
  EXPECT_NE(c.ptx.find("sqrt.rn.f32"), std::string::npos);
  EXPECT_NE(c.ptx.find("ex2.approx"), std::string::npos);
  if (ptxasAvailable()) {
    EXPECT_TRUE(isCudaElf(c.binary));
  }
}

TEST(NvidiaCompiler, WithoutAToolkitThePtxIsTheBinary) {
  std::filesystem::path empty = std::filesystem::temp_directory_path() / "hadron-no-cuda-home";
  std::filesystem::create_directories(empty);
  ScopedCudaHome home(empty.string());
  Compiled c = compile(readFile(HADRON_SOURCE_DIR "/examples/vector_add.mlir"), "sm_90a");
  ASSERT_EQ(c.status, HD_OK) << c.message;
  EXPECT_EQ(c.binary, c.ptx);
  EXPECT_NE(c.binary.find(".version"), std::string::npos);
}

TEST(NvidiaCompiler, WithoutLibdeviceMathFailsLoudly) {
  std::filesystem::path empty = std::filesystem::temp_directory_path() / "hadron-no-cuda-home";
  std::filesystem::create_directories(empty);
  ScopedCudaHome home(empty.string());
  Compiled c = compile(readFile(HADRON_NVIDIA_INPUTS "/math.mlir"), "sm_80");
  ASSERT_EQ(c.status, HD_ERROR_COMPILE);
  EXPECT_NE(c.message.find("needs libdevice for __nv_"), std::string::npos) << c.message;
  EXPECT_NE(c.message.find("CUDA_HOME=" + empty.string()), std::string::npos) << c.message;
}

TEST(NvidiaCompiler, SharedMemoryIsPlannedIntoTheSignature) {
  // The runtime launches with static_shared_bytes of dynamic shared memory
  // (NvidiaKernelABI.h): the 16x32 f32 tile must be in it.
  Compiled c = compile(readFile(HADRON_NVIDIA_INPUTS "/shared.mlir"), "sm_90a");
  ASSERT_EQ(c.status, HD_OK) << c.message;
  EXPECT_GE(c.staticSharedBytes, 16u * 32 * 4);
  EXPECT_NE(c.ptx.find(".extern .shared .align 1024 .b8 __hd_shared[]"), std::string::npos);
  Compiled none = compile(readFile(HADRON_SOURCE_DIR "/examples/vector_add.mlir"), "sm_90a");
  ASSERT_EQ(none.status, HD_OK) << none.message;
  EXPECT_EQ(none.staticSharedBytes, 0u);
}

TEST(NvidiaCompiler, RejectsA64LaneWarp) {
  Compiled c = compile(readFile(HADRON_NVIDIA_INPUTS "/warp64.mlir"), "sm_90a");
  ASSERT_EQ(c.status, HD_ERROR_COMPILE);
  EXPECT_NE(c.message.find("threadsPerWarp [8, 8] multiplies to 64"), std::string::npos)
      << c.message;
  EXPECT_NE(c.message.find("32"), std::string::npos) << c.message;
}

TEST(NvidiaCompiler, RejectsAnUnknownArch) {
  Compiled c = compile(readFile(HADRON_SOURCE_DIR "/examples/vector_add.mlir"), "sm_75");
  ASSERT_EQ(c.status, HD_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(c.message.find("unknown arch 'sm_75'"), std::string::npos) << c.message;
  EXPECT_NE(c.message.find("sm_80, sm_86"), std::string::npos) << c.message;
}

/// What the compiler part reports for `arch`, or the error's message.
std::vector<std::string> reportedMatrixInstructions(const char *arch, std::string &error) {
  std::vector<std::string> texts;
  const hd_compiler_table *table = compiler();
  if (!table) {
    error = std::string("cannot load ") + HADRON_NVIDIA_COMPILER_PATH;
    return texts;
  }
  if (table->struct_size < sizeof(hd_compiler_table) || !table->matrix_instructions) {
    error = "the table has no matrix_instructions";
    return texts;
  }
  const char *const *list = nullptr;
  hd_error err{};
  if (table->matrix_instructions(arch, &list, &err) != HD_OK) {
    error = err.message;
    return texts;
  }
  for (; *list; ++list)
    texts.push_back(*list);
  return texts;
}

// The conformance suite makes its dot.mma cases from this answer: it must be
// every mma.sync instruction the model gives the arch, and nothing issued
// from shared memory (wgmma has no #hd.matrix_instr).
TEST(NvidiaCompiler, ReportsExactlyTheModelsMmaSyncInstructions) {
  for (const char *arch : {"sm_80", "sm_90a"}) {
    std::vector<std::string> want;
    namespace nv = hadron::nvidia;
    for (const nv::MatrixInstr *instr : nv::matrixInstructions(*nv::findArch(arch)))
      if (instr->family == nv::MatrixFamily::MmaSync)
        want.push_back(*nv::matrixInstrAttribute(*instr));
    // f16, bf16, tf32 and two s8 shapes on both: sm_90a adds only wgmma.
    ASSERT_EQ(want.size(), 5u) << arch;
    std::string error;
    EXPECT_EQ(reportedMatrixInstructions(arch, error), want) << arch << ": " << error;
    EXPECT_EQ(error, "");
  }
  std::string error;
  EXPECT_EQ(reportedMatrixInstructions(nullptr, error).size(), 5u) << error;
  EXPECT_TRUE(reportedMatrixInstructions("sm_75", error).empty());
  EXPECT_NE(error.find("unknown arch 'sm_75'"), std::string::npos) << error;
}

TEST(NvidiaCompiler, DefaultArchIsSm80) {
  Compiled c = compile(readFile(HADRON_SOURCE_DIR "/examples/vector_add.mlir"), nullptr);
  ASSERT_EQ(c.status, HD_OK) << c.message;
  EXPECT_NE(c.ptx.find(".target sm_80"), std::string::npos);
}

TEST(NvidiaCompiler, ParseErrorsNameTheLine) {
  Compiled c = compile("module {\n  func.func @k( {\n}\n", "sm_90a");
  ASSERT_EQ(c.status, HD_ERROR_COMPILE);
  EXPECT_NE(c.message.find("<kernel>:2:"), std::string::npos) << c.message;
}

} // namespace
