// The Intel compiler part without a device: every example compiles for
// every arch into SPIR-V that spirv-val accepts, whose entry points carry
// the kernel's sub-group size (SubgroupSize) and work-group size
// (LocalSize), and whose signatures the runtime launches with. Then the
// error paths: a layout whose lanes the arch has no sub-group for, layouts
// of two sub-group sizes in one kernel (the core's verifier), an unknown
// arch, IR that does not parse. hd.dot on every DPAS instruction each arch
// reports calls the extension's builtin, in spirv-dis's disassembly; DPAS
// is refused where it cannot run.

#include "MatrixDotKernel.h"
#include "hadron/plugin/plugin.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dirent.h>
#include <dlfcn.h>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

namespace {

const char *const kArchs[] = {"pvc", "bmg", "lnl", "acm", "cpu"};

std::string readFile(const std::string &path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
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

const hd_compiler_table *compiler() {
  static const hd_compiler_table *table = [] {
    void *so = dlopen(HADRON_INTEL_COMPILER_PATH, RTLD_NOW | RTLD_LOCAL);
    if (!so)
      return static_cast<const hd_compiler_table *>(nullptr);
    auto entry = reinterpret_cast<hd_compiler_entry_fn>(dlsym(so, HADRON_COMPILER_ENTRY_SYMBOL));
    return entry ? entry() : nullptr;
  }();
  return table;
}

struct Compiled {
  hd_status status = HD_OK;
  std::string error;
  hd_compiled_module *module = nullptr;
  Compiled() = default;
  Compiled(const Compiled &) = delete;
  ~Compiled() {
    if (module)
      compiler()->release(module);
  }
};

void compile(const std::string &ir, const char *arch, Compiled &out, unsigned opt = 3) {
  hd_compile_options options{};
  options.struct_size = sizeof(options);
  options.arch = arch;
  options.opt_level = opt;
  hd_error err{};
  out.status = compiler()->compile(ir.data(), ir.size(), &options, &out.module, &err);
  if (out.status != HD_OK)
    out.error = err.message;
}

/// Runs `command`, returns its exit code and what it printed.
int run(const std::string &command, std::string &output) {
  // One log per process and call: ctest runs these tests two at a time, in
  // separate processes sharing TempDir().
  static int calls = 0;
  std::string log = testing::TempDir() + "/intel-run." + std::to_string(::getpid()) + "." +
                    std::to_string(calls++) + ".log";
  int rc = std::system((command + " > " + log + " 2>&1").c_str());
  output = readFile(log);
  std::remove(log.c_str());
  return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}

/// spirv-val's verdict on `binary` ("" when valid) and its disassembly.
std::string validate(const hd_compiled_module &m, const std::string &name, std::string &dis) {
  std::string path = testing::TempDir() + "/" + name + ".spv";
  {
    std::ofstream out(path, std::ios::binary);
    out.write(static_cast<const char *>(m.binary), static_cast<std::streamsize>(m.binary_size));
  }
  std::string verdict;
  if (run(std::string(HADRON_SPIRV_VAL) + " " + path, verdict) == 0)
    verdict.clear();
  else if (verdict.empty())
    verdict = "spirv-val failed without a message";
  run(std::string(HADRON_SPIRV_DIS) + " " + path, dis);
  return verdict;
}

std::string withLanes(std::string ir, int from, int to) {
  return std::regex_replace(ir, std::regex("threadsPerWarp = \\[" + std::to_string(from) + "\\]"),
                            "threadsPerWarp = [" + std::to_string(to) + "]");
}

TEST(IntelCompiler, TableIsVersioned) {
  const hd_compiler_table *c = compiler();
  ASSERT_NE(c, nullptr) << dlerror();
  EXPECT_EQ(c->abi_major, unsigned(HADRON_PLUGIN_ABI_MAJOR));
  EXPECT_GE(c->struct_size, sizeof(hd_compiler_table));
}

class EveryExample : public testing::TestWithParam<std::string> {};

TEST_P(EveryExample, ValidSpirvForEveryArch) {
  ASSERT_NE(compiler(), nullptr);
  std::string ir = readFile(std::string(HADRON_SOURCE_DIR "/examples/") + GetParam());
  ASSERT_FALSE(ir.empty());
  for (const char *arch : kArchs) {
    SCOPED_TRACE(std::string(arch) + " " + GetParam());
    Compiled c;
    compile(ir, arch, c);
    ASSERT_EQ(c.status, HD_OK) << c.error;
    const hd_compiled_module &m = *c.module;
    ASSERT_GE(m.binary_size, 20u);
    uint32_t magic;
    std::memcpy(&magic, m.binary, 4);
    EXPECT_EQ(magic, 0x07230203u);
    std::string dis;
    EXPECT_EQ(validate(m, GetParam() + "." + arch, dis), "");
    EXPECT_NE(dis.find("OpMemoryModel Physical64 OpenCL"), std::string::npos);
    EXPECT_NE(dis.find("OpCapability Kernel"), std::string::npos);
    ASSERT_GE(m.num_kernels, 1u);
    for (uint32_t k = 0; k < m.num_kernels; ++k) {
      const hd_kernel_signature &sig = m.kernels[k];
      // The examples' layouts have 32 lanes.
      EXPECT_EQ(sig.warp_size, 32u) << sig.name;
      std::smatch entry;
      std::string name = sig.name;
      ASSERT_TRUE(std::regex_search(dis, entry,
                                    std::regex("OpEntryPoint Kernel (%\\w+) \"" + name + "\"")))
          << dis;
      std::string id = entry[1];
      EXPECT_NE(dis.find("OpExecutionMode " + id + " SubgroupSize 32"), std::string::npos) << dis;
      EXPECT_NE(dis.find("OpExecutionMode " + id + " LocalSize " +
                         std::to_string(sig.num_warps * 32) + " 1 1"),
                std::string::npos)
          << dis;
    }
    EXPECT_NE(std::string(m.llvm_ir).find("spir_kernel"), std::string::npos);
    EXPECT_NE(std::string(m.assembly).find("OpEntryPoint"), std::string::npos);
  }
}

INSTANTIATE_TEST_SUITE_P(Examples, EveryExample, testing::ValuesIn(examples()),
                         [](const testing::TestParamInfo<std::string> &info) {
                           return info.param.substr(0, info.param.size() - 5);
                         });

TEST(IntelCompiler, EveryOptLevelIsValid) {
  std::string ir = readFile(HADRON_SOURCE_DIR "/examples/row_softmax.mlir");
  for (unsigned opt = 0; opt <= 3; ++opt) {
    Compiled c;
    compile(ir, "pvc", c, opt);
    ASSERT_EQ(c.status, HD_OK) << "O" << opt << ": " << c.error;
    std::string dis;
    EXPECT_EQ(validate(*c.module, "softmax.O" + std::to_string(opt), dis), "") << "O" << opt;
  }
}

// The layouts choose the sub-group size among the arch's.
TEST(IntelCompiler, SubGroupSizeFollowsTheLayouts) {
  std::string ir = readFile(HADRON_SOURCE_DIR "/examples/vector_add.mlir");
  struct Case {
    const char *arch;
    int lanes;
  };
  for (Case c : {Case{"pvc", 16}, Case{"bmg", 16}, Case{"acm", 8}, Case{"acm", 16}, Case{"cpu", 8},
                 Case{"cpu", 16}}) {
    SCOPED_TRACE(std::string(c.arch) + " " + std::to_string(c.lanes));
    Compiled out;
    compile(withLanes(ir, 32, c.lanes), c.arch, out);
    ASSERT_EQ(out.status, HD_OK) << out.error;
    EXPECT_EQ(out.module->kernels[0].warp_size, unsigned(c.lanes));
    std::string dis;
    EXPECT_EQ(validate(*out.module, "vadd.sg" + std::to_string(c.lanes), dis), "");
    EXPECT_NE(dis.find("SubgroupSize " + std::to_string(c.lanes)), std::string::npos) << dis;
    EXPECT_NE(dis.find("LocalSize " + std::to_string(4 * c.lanes) + " 1 1"), std::string::npos);
    EXPECT_NE(std::string(out.module->llvm_ir).find("!intel_reqd_sub_group_size"),
              std::string::npos);
  }
}

TEST(IntelCompiler, LanesWithoutASubGroupSizeAreAnError) {
  std::string ir = withLanes(readFile(HADRON_SOURCE_DIR "/examples/vector_add.mlir"), 32, 64);
  Compiled c;
  compile(ir, "pvc", c);
  EXPECT_EQ(c.status, HD_ERROR_COMPILE);
  EXPECT_NE(c.error.find("multiplies to 64"), std::string::npos) << c.error;
  EXPECT_NE(c.error.find("16"), std::string::npos) << c.error;
  Compiled eight;
  compile(withLanes(readFile(HADRON_SOURCE_DIR "/examples/vector_add.mlir"), 32, 8), "pvc",
          eight);
  EXPECT_EQ(eight.status, HD_ERROR_COMPILE) << "pvc has no 8-wide sub-groups";
  EXPECT_NE(eight.error.find("multiplies to 8"), std::string::npos) << eight.error;
}

TEST(IntelCompiler, TwoSubGroupSizesInOneKernelAreAnError) {
  const std::string ir = R"(
#a = #hd.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b = #hd.blocked<{sizePerThread = [8], threadsPerWarp = [16], warpsPerCTA = [4], order = [0]}>
module attributes {hd.num_warps = 4 : i32} {
  func.func @mixed(%x: !hd.ptr<f32>, %out: !hd.ptr<f32>) attributes {hd.kernel} {
    %r = hd.arange 0 to 512 : tensor<512xi32, #a>
    %xp = hd.splat %x : tensor<512x!hd.ptr<f32>, #a>
    %p = hd.addptr %xp, %r : tensor<512x!hd.ptr<f32>, #a>, tensor<512xi32, #a>
    %v = hd.load %p : tensor<512x!hd.ptr<f32>, #a>
    %w = hd.convert_layout %v : tensor<512xf32, #a> -> tensor<512xf32, #b>
    %r2 = hd.arange 0 to 512 : tensor<512xi32, #b>
    %op = hd.splat %out : tensor<512x!hd.ptr<f32>, #b>
    %q = hd.addptr %op, %r2 : tensor<512x!hd.ptr<f32>, #b>, tensor<512xi32, #b>
    hd.store %q, %w : tensor<512x!hd.ptr<f32>, #b>
    return
  }
}
)";
  Compiled c;
  compile(ir, "pvc", c);
  EXPECT_EQ(c.status, HD_ERROR_COMPILE);
  EXPECT_NE(c.error.find("threadsPerWarp [16] multiplies to 16, but another layout of this "
                         "module has warps of 32 lanes"),
            std::string::npos)
      << c.error;
}

/// What each arch's DPAS is called through, per
/// cl_intel_subgroup_matrix_multiply_accumulate(_tf32): the OpenCL C function
/// (Itanium-mangled for the sub-group size's operand vectors, as clang
/// mangles the extension's declarations). Written here, not read from the
/// model, so that a missing, extra or misnamed instruction fails.
struct ArchDpas {
  const char *arch;
  unsigned lanes;
  std::map<std::string, std::string> builtinOf; ///< instruction name -> function
};

const ArchDpas kXe16(const char *arch) {
  return {arch,
          16,
          {{"dpas.f32.8x16x16.f16", "_Z38intel_sub_group_f16_f16_matrix_mad_k16Dv8_sDv8_iDv8_f"},
           {"dpas.f32.8x16x16.bf16",
            "_Z40intel_sub_group_bf16_bf16_matrix_mad_k16Dv8_sDv8_iDv8_f"},
           {"dpas.f32.8x16x8.tf32", "_Z39intel_sub_group_tf32_tf32_matrix_mad_k8Dv4_fDv8_fS0_"},
           {"dpas.i32.8x16x32.i8", "_Z36intel_sub_group_i8_i8_matrix_mad_k32Dv8_sDv8_iS0_"}}};
}

const ArchDpas kArchDpas[] = {
    kXe16("pvc"),
    kXe16("bmg"),
    kXe16("lnl"),
    {"acm",
     8,
     {{"dpas.f32.8x8x16.f16", "_Z38intel_sub_group_f16_f16_matrix_mad_k16Dv8_iS_Dv8_f"},
      {"dpas.f32.8x8x16.bf16", "_Z40intel_sub_group_bf16_bf16_matrix_mad_k16Dv8_iS_Dv8_f"},
      {"dpas.i32.8x8x32.i8", "_Z36intel_sub_group_i8_i8_matrix_mad_k32Dv8_iS_S_"}}},
    {"cpu", 16, {}},
};

std::vector<std::string> reportedMatrixInstructions(const char *arch) {
  const char *const *texts = nullptr;
  hd_error err{};
  EXPECT_EQ(compiler()->matrix_instructions(arch, &texts, &err), HD_OK) << err.message;
  std::vector<std::string> out;
  for (; texts && *texts; ++texts)
    out.push_back(*texts);
  return out;
}

class DpasPerArch : public testing::TestWithParam<ArchDpas> {};

// Every instruction the compiler part reports for the arch, and no other,
// compiles from a kernel written from its #hd.matrix_instr text alone into
// SPIR-V that spirv-val accepts and that calls the extension's function
// exactly four times (2 tiles along N x 2 steps along K per sub-group),
// imported for the driver to provide. bf16 kernels stop at the known
// SPV_KHR_bfloat16 gap (the conformance expectation's reason) before DPAS.
TEST_P(DpasPerArch, EveryReportedInstructionCallsItsBuiltin) {
  ASSERT_NE(compiler(), nullptr);
  const ArchDpas &unit = GetParam();
  std::set<std::string> reported, expected;
  for (const auto &[name, builtin] : unit.builtinOf)
    expected.insert(name);
  for (const std::string &text : reportedMatrixInstructions(unit.arch)) {
    hadron::testing::MatrixInstrText mi = hadron::testing::parseMatrixInstrText(text);
    SCOPED_TRACE(mi.name);
    reported.insert(mi.name);
    auto want = unit.builtinOf.find(mi.name);
    if (want == unit.builtinOf.end())
      continue;
    Compiled c;
    compile(hadron::testing::matrixDotKernel(mi, unit.lanes), unit.arch, c);
    if (mi.aType == "bf16") {
      EXPECT_NE(c.error.find("requires the following SPIR-V extension: SPV_KHR_bfloat16"),
                std::string::npos)
          << c.error;
      continue;
    }
    ASSERT_EQ(c.status, HD_OK) << c.error;
    std::string dis;
    EXPECT_EQ(validate(*c.module, std::string(unit.arch) + "-" + mi.name, dis), "");
    std::regex call("OpFunctionCall %\\w+ %" + want->second + " ");
    EXPECT_EQ(std::distance(std::sregex_iterator(dis.begin(), dis.end(), call),
                            std::sregex_iterator()),
              4)
        << dis;
    EXPECT_NE(dis.find("LinkageAttributes \"" + want->second + "\" Import"), std::string::npos);
    EXPECT_NE(dis.find("SubgroupSize " + std::to_string(unit.lanes)), std::string::npos);
  }
  EXPECT_EQ(reported, expected);
}

INSTANTIATE_TEST_SUITE_P(IntelCompiler, DpasPerArch, testing::ValuesIn(kArchDpas),
                         [](const auto &info) { return std::string(info.param.arch); });

// DPAS elsewhere is refused with the reason: on the OpenCL CPU device (no
// matrix unit), with another sub-group size, or under a name no arch has.
TEST(IntelCompiler, DpasWhereItCannotRunIsRefused) {
  std::string f16;
  for (const std::string &text : reportedMatrixInstructions("pvc"))
    if (text.find("\"dpas.f32.8x16x16.f16\"") != std::string::npos)
      f16 = text;
  ASSERT_FALSE(f16.empty());
  std::string ir = hadron::testing::matrixDotKernel(hadron::testing::parseMatrixInstrText(f16), 16);
  Compiled cpu;
  compile(ir, "cpu", cpu);
  EXPECT_EQ(cpu.status, HD_ERROR_COMPILE);
  EXPECT_NE(cpu.error.find("matrix instruction \"dpas.f32.8x16x16.f16\" is DPAS, which cpu has "
                           "not (no matrix unit)"),
            std::string::npos)
      << cpu.error;
  Compiled acm;
  compile(ir, "acm", acm);
  EXPECT_NE(acm.error.find("is not one of acm's DPAS instructions (dpas.f32.8x8x16.f16, "
                           "dpas.f32.8x8x16.bf16, dpas.i32.8x8x32.i8)"),
            std::string::npos)
      << acm.error;
  Compiled unknown;
  compile(std::regex_replace(ir, std::regex("dpas\\.f32\\.8x16x16\\.f16"), "dpas.f32.8x16x17.f16"),
          "pvc", unknown);
  EXPECT_NE(unknown.error.find("no matrix instruction \"dpas.f32.8x16x17.f16\": the Intel model "
                               "declares no DPAS of that name"),
            std::string::npos)
      << unknown.error;
}

TEST(IntelCompiler, UnknownArchNamesTheKnownOnes) {
  Compiled c;
  compile(readFile(HADRON_SOURCE_DIR "/examples/vector_add.mlir"), "xe9", c);
  EXPECT_EQ(c.status, HD_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(c.error, "intel compile: unknown arch 'xe9'; intel compiles for pvc, bmg, lnl, acm, cpu");
}

TEST(IntelCompiler, BadIrIsAnError) {
  Compiled c;
  compile("this is not IR", "pvc", c);
  EXPECT_EQ(c.status, HD_ERROR_COMPILE);
  EXPECT_NE(c.error.find("intel compile: the IR does not parse"), std::string::npos) << c.error;
  hd_compiled_module *m = nullptr;
  hd_error err{};
  EXPECT_EQ(compiler()->compile(nullptr, 0, nullptr, &m, &err), HD_ERROR_INVALID_ARGUMENT);
}

} // namespace
