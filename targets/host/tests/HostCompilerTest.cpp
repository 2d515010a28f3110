// End to end on the host target without the runtime: compile hd IR with the
// host compiler part, dlopen the ELF it produced and call each CTA through
// the HostKernelABI.h entry. Inputs are fresh random values, outputs are
// poisoned with NaN first, and results are compared with a host reference.

#include "HostKernelABI.h"
#include "hadron/plugin/plugin.h"
#include "testkit/Attention.h"
#include "testkit/Values.h"

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <dlfcn.h>
#include <fstream>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <unistd.h>
#include <vector>

namespace {

namespace testkit = hadron::testkit;

std::string readFile(const std::string &path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

class HostCompilerTest : public ::testing::Test {
protected:
  static void SetUpTestSuite() {
    library = dlopen(HADRON_HOST_COMPILER_PATH, RTLD_NOW | RTLD_LOCAL);
    ASSERT_NE(library, nullptr) << dlerror();
    auto entry = reinterpret_cast<hd_compiler_entry_fn>(
        dlsym(library, HADRON_COMPILER_ENTRY_SYMBOL));
    ASSERT_NE(entry, nullptr);
    table = entry();
    ASSERT_EQ(table->abi_major, HADRON_PLUGIN_ABI_MAJOR);
  }

  /// The compiled module of `ir` for `arch`, or null (with a failure).
  hd_compiled_module *compiled(const std::string &ir, const char *arch) {
    hd_compile_options options{sizeof(options), arch, 3, nullptr};
    hd_compiled_module *module = nullptr;
    hd_error err{};
    hd_status status = table->compile(ir.data(), ir.size(), &options, &module, &err);
    EXPECT_EQ(status, HD_OK) << err.message;
    return status == HD_OK ? module : nullptr;
  }

  /// Compiles `ir` and returns the entry of `kernel`, keeping the .so open.
  hd_host_kernel_fn compile(const std::string &ir, const std::string &kernel,
                            const char *arch = nullptr) {
    hd_compiled_module *module = compiled(ir, arch);
    if (!module)
      return nullptr;
    char path[] = "/tmp/hadron-test-XXXXXX";
    int fd = mkstemp(path);
    EXPECT_GE(fd, 0);
    EXPECT_EQ(write(fd, module->binary, module->binary_size), (ssize_t)module->binary_size);
    close(fd);
    void *so = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    unlink(path);
    EXPECT_NE(so, nullptr) << dlerror();
    bool found = false;
    for (uint32_t i = 0; i < module->num_kernels; ++i)
      found |= kernel == module->kernels[i].name;
    EXPECT_TRUE(found) << kernel << " missing from the signatures";
    table->release(module);
    return so ? reinterpret_cast<hd_host_kernel_fn>(dlsym(so, kernel.c_str())) : nullptr;
  }

  static void launch(hd_host_kernel_fn fn, void **args, int gridX, int gridY = 1,
                     size_t sharedBytes = 1 << 16) {
    std::vector<char> shared(sharedBytes);
    for (int y = 0; y < gridY; ++y)
      for (int x = 0; x < gridX; ++x) {
        int32_t grid[HD_HOST_GRID_INFO_SIZE] = {x, y, 0, gridX, gridY, 1};
        fn(args, grid, shared.data());
      }
  }

  /// The LLVM IR `ir` compiles to for `arch`.
  std::string llvmIR(const std::string &ir, const char *arch) {
    hd_compiled_module *module = compiled(ir, arch);
    if (!module)
      return {};
    std::string text = module->llvm_ir;
    table->release(module);
    return text;
  }

  /// vector_add `fn` (tiles of `block`) on n fresh random floats into an
  /// output poisoned past n: every sum right, nothing written past the mask.
  void expectVectorAdd(hd_host_kernel_fn fn, int n, int block) {
    std::uniform_real_distribution<float> dist(-100, 100);
    std::vector<float> x(n), y(n), out(n + 64, NAN);
    for (int i = 0; i < n; ++i) {
      x[i] = dist(rng);
      y[i] = dist(rng);
    }
    float *px = x.data(), *py = y.data(), *po = out.data();
    void *args[] = {&px, &py, &po, &n};
    launch(fn, args, (n + block - 1) / block);
    for (int i = 0; i < n; ++i)
      ASSERT_EQ(out[i], x[i] + y[i]) << "n = " << n << ", i = " << i;
    for (int i = n; i < n + 64; ++i)
      ASSERT_TRUE(std::isnan(out[i])) << "wrote past the mask at " << i;
  }

  static inline void *library = nullptr;
  static inline const hd_compiler_table *table = nullptr;
  std::mt19937 rng{std::random_device{}()};
};

TEST_F(HostCompilerTest, VectorAddWithTail) {
  auto fn = compile(readFile(HADRON_SOURCE_DIR "/examples/vector_add.mlir"), "vector_add");
  ASSERT_NE(fn, nullptr);
  for (int n : {1, 1000, 1024, 3000})
    expectVectorAdd(fn, n, 1024);
}

// Tiles of 1024 and 2048 elements are loops over chunks; where the output's
// range misses the inputs' the loads, the add and the store run as one loop
// (FuseChunkLoops.h), elsewhere as loads of the whole tile, then stores.
// Either way a program must read its whole tile before it writes any of
// it: the output here overlaps an input at shifts below, at and beyond one
// tile, in both directions, in place, and over the other input, with a
// ragged last program. The reference runs the programs in the launch's
// order, each loading its tile first.
TEST_F(HostCompilerTest, VectorAddOverlappingItsInputs) {
  const std::string source = readFile(HADRON_SOURCE_DIR "/examples/vector_add.mlir");
  // 256 and 512 floats: chunk loops O3 would unroll whole, fused before it.
  for (int block : {256, 512, 1024, 2048}) {
    SCOPED_TRACE("block " + std::to_string(block));
    std::string ir = source;
    const std::string size = std::to_string(block);
    for (size_t at = 0; (at = ir.find("1024", at)) != std::string::npos; at += size.size())
      ir.replace(at, 4, size);
    // 4 elements a thread of 128 threads: 512 a layout tile; fewer below.
    const std::string perThread = "sizePerThread = [" + std::to_string(std::min(4, block / 128));
    ir.replace(ir.find("sizePerThread = [4"), perThread.size(), perThread);
    const std::string llvm = llvmIR(ir, "native");
    EXPECT_NE(llvm.find(".fused"), std::string::npos) << "the chunk loops were not fused";
    EXPECT_NE(llvm.find(".full"), std::string::npos)
        << "no unmasked copy of the fused body for chunks with every lane on";
    auto fn = compile(ir, "vector_add");
    ASSERT_NE(fn, nullptr);
    const int pad = 2 * block + 64;
    std::uniform_real_distribution<float> dist(-100, 100);
    for (int n : {1000, 2500, 4096}) {
      const int programs = (n + block - 1) / block;
      for (int shift : {-block - block / 2, -block, -block + 24, -17, -1, 0, 1, 16, block - 1,
                        block, block + block / 2}) {
        for (bool overY : {false, true}) {
          SCOPED_TRACE("n = " + std::to_string(n) + ", out = " + (overY ? "y" : "x") + " + " +
                       std::to_string(shift));
          std::vector<float> memory(n + 2 * pad), other(n);
          for (float &v : memory)
            v = dist(rng);
          for (float &v : other)
            v = dist(rng);
          float *shared = memory.data() + pad;
          float *px = overY ? other.data() : shared, *py = overY ? shared : other.data();
          float *po = shared + shift;
          std::vector<float> want = memory;
          float *wantShared = want.data() + pad;
          for (int p = 0; p < programs; ++p) {
            std::vector<float> tile;
            for (int i = p * block; i < std::min(n, (p + 1) * block); ++i)
              tile.push_back(overY ? other[i] + wantShared[i] : wantShared[i] + other[i]);
            for (size_t i = 0; i < tile.size(); ++i)
              wantShared[p * block + i + shift] = tile[i];
          }
          void *args[] = {&px, &py, &po, &n};
          launch(fn, args, programs);
          for (size_t i = 0; i < memory.size(); ++i)
            ASSERT_EQ(memory[i], want[i]) << "at " << static_cast<long>(i) - pad;
        }
      }
    }
    // Apart: fresh inputs, a poisoned output.
    for (int n : {1, 1000, 3000, 4096})
      expectVectorAdd(fn, n, block);
  }
}

// examples/row_softmax.mlir on the host is the plugin CTS's
// (host.PluginDevice.RowSoftmaxAcrossLanesAndWarps).

// A GPU-style 2-D layout (4x8 lanes, 4 warps) runs unchanged: lanes and
// warps fold into registers. Rows are summed through expand_dims,
// broadcast and a reduce along axis 1.
constexpr const char *kRowSum = R"(
#b = #hd.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#row = #hd.slice<{dim = 1, parent = #b}>
#col = #hd.slice<{dim = 0, parent = #b}>
module attributes {hd.num_warps = 4 : i32} {
  func.func @row_sum(%x: !hd.ptr<f32>, %out: !hd.ptr<f32>) attributes {hd.kernel} {
    %pid = hd.program_id 0
    %c16 = arith.constant 16 : i32
    %c64 = arith.constant 64 : i32
    %row0 = arith.muli %pid, %c16 : i32
    %rows = hd.arange 0 to 16 : tensor<16xi32, #row>
    %rs = hd.splat %row0 : tensor<16xi32, #row>
    %r = arith.addi %rows, %rs : tensor<16xi32, #row>
    %cols = hd.arange 0 to 64 : tensor<64xi32, #col>
    %r2 = hd.expand_dims %r axis = 1 : tensor<16xi32, #row> -> tensor<16x1xi32, #b>
    %c2 = hd.expand_dims %cols axis = 0 : tensor<64xi32, #col> -> tensor<1x64xi32, #b>
    %stride = hd.splat %c64 : tensor<16x1xi32, #b>
    %roff = arith.muli %r2, %stride : tensor<16x1xi32, #b>
    %rb = hd.broadcast %roff : tensor<16x1xi32, #b> -> tensor<16x64xi32, #b>
    %cb = hd.broadcast %c2 : tensor<1x64xi32, #b> -> tensor<16x64xi32, #b>
    %off = arith.addi %rb, %cb : tensor<16x64xi32, #b>
    %xp = hd.splat %x : tensor<16x64x!hd.ptr<f32>, #b>
    %ptrs = hd.addptr %xp, %off : tensor<16x64x!hd.ptr<f32>, #b>, tensor<16x64xi32, #b>
    %v = hd.load %ptrs : tensor<16x64x!hd.ptr<f32>, #b>
    %s = hd.reduce(%v) axis = 1 : (tensor<16x64xf32, #b>) -> tensor<16xf32, #row> {
    ^bb0(%a: f32, %c: f32):
      %t = arith.addf %a, %c : f32
      hd.yield %t : f32
    }
    %op = hd.splat %out : tensor<16x!hd.ptr<f32>, #row>
    %optrs = hd.addptr %op, %r : tensor<16x!hd.ptr<f32>, #row>, tensor<16xi32, #row>
    hd.store %optrs, %s : tensor<16x!hd.ptr<f32>, #row>
    return
  }
}
)";

TEST_F(HostCompilerTest, RowSumWithGpuLayout) {
  auto fn = compile(kRowSum, "row_sum");
  ASSERT_NE(fn, nullptr);
  const int rows = 48, cols = 64;
  std::uniform_int_distribution<int> dist(-50, 50);
  std::vector<float> x(rows * cols), out(rows + 8, NAN);
  for (float &v : x)
    v = dist(rng);
  float *px = x.data(), *po = out.data();
  void *args[] = {&px, &po};
  launch(fn, args, rows / 16);
  for (int r = 0; r < rows; ++r) {
    float ref = 0;
    for (int c = 0; c < cols; ++c)
      ref += x[r * cols + c];
    ASSERT_EQ(out[r], ref) << "row " << r;
  }
  for (int i = rows; i < rows + 8; ++i)
    ASSERT_TRUE(std::isnan(out[i]));
}

// Every element adds its value into one of 16 bins: heavy contention on
// few addresses, totals checked. Masked-off lanes must not add anything.
constexpr const char *kHistogram = R"(
#b = #hd.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {hd.num_warps = 4 : i32} {
  func.func @histogram(%x: !hd.ptr<i32>, %bins: !hd.ptr<i32>, %n: i32) attributes {hd.kernel} {
    %pid = hd.program_id 0
    %c256 = arith.constant 256 : i32
    %base = arith.muli %pid, %c256 : i32
    %r = hd.arange 0 to 256 : tensor<256xi32, #b>
    %bs = hd.splat %base : tensor<256xi32, #b>
    %i = arith.addi %r, %bs : tensor<256xi32, #b>
    %ns = hd.splat %n : tensor<256xi32, #b>
    %m = arith.cmpi slt, %i, %ns : tensor<256xi32, #b>
    %xp = hd.splat %x : tensor<256x!hd.ptr<i32>, #b>
    %xptrs = hd.addptr %xp, %i : tensor<256x!hd.ptr<i32>, #b>, tensor<256xi32, #b>
    %v = hd.load %xptrs mask %m : tensor<256x!hd.ptr<i32>, #b>
    %c15 = arith.constant dense<15> : tensor<256xi32, #b>
    %bin = arith.andi %i, %c15 : tensor<256xi32, #b>
    %bp = hd.splat %bins : tensor<256x!hd.ptr<i32>, #b>
    %bptrs = hd.addptr %bp, %bin : tensor<256x!hd.ptr<i32>, #b>, tensor<256xi32, #b>
    %old = hd.atomic_rmw add, %bptrs, %v mask %m : tensor<256x!hd.ptr<i32>, #b> -> tensor<256xi32, #b>
    %ok = arith.cmpi slt, %i, %ns : tensor<256xi32, #b>
    %true = arith.constant dense<true> : tensor<256xi1, #b>
    %any = arith.ori %ok, %true : tensor<256xi1, #b>
    hd.assert %any, "always true" : tensor<256xi1, #b>
    return
  }
}
)";

TEST_F(HostCompilerTest, AtomicAddWithContentionAndMask) {
  auto fn = compile(kHistogram, "histogram");
  ASSERT_NE(fn, nullptr);
  int n = 1000;
  std::uniform_int_distribution<int> dist(-1000, 1000);
  std::vector<int32_t> x(1024), bins(16, 0), ref(16, 0);
  for (int i = 0; i < 1024; ++i)
    x[i] = dist(rng);
  for (int i = 0; i < n; ++i)
    ref[i & 15] += x[i];
  int32_t *px = x.data(), *pb = bins.data();
  void *args[] = {&px, &pb, &n};
  launch(fn, args, 4);
  for (int b = 0; b < 16; ++b)
    ASSERT_EQ(bins[b], ref[b]) << "bin " << b;
}

/// A kernel applying `op` (text such as "arith.truncf" or "math.exp") to n
/// elements of `from`, writing `to`; `fastMath` names the op's fast-math
/// flags, if any.
std::string unaryKernel(const std::string &from, const std::string &to, const std::string &op,
                        const std::string &fastMath = "") {
  const std::string l = "#hd.blocked<{sizePerThread = [4], threadsPerWarp = [32], "
                        "warpsPerCTA = [2], order = [0]}>";
  auto t = [&](const std::string &e) { return "tensor<256x" + e + ", #l>"; };
  auto p = [&](const std::string &e) { return "tensor<256x!hd.ptr<" + e + ">, #l>"; };
  return "#l = " + l + "\nmodule attributes {hd.num_warps = 2 : i32} {\n"
         "  func.func @convert(%in: !hd.ptr<" + from + ">, %out: !hd.ptr<" + to +
         ">, %n: i32) attributes {hd.kernel} {\n"
         "    %c = arith.constant 256 : i32\n"
         "    %pid = hd.program_id 0\n"
         "    %base = arith.muli %pid, %c : i32\n"
         "    %r = hd.arange 0 to 256 : " + t("i32") + "\n"
         "    %b = hd.splat %base : " + t("i32") + "\n"
         "    %off = arith.addi %b, %r : " + t("i32") + "\n"
         "    %nt = hd.splat %n : " + t("i32") + "\n"
         "    %m = arith.cmpi slt, %off, %nt : " + t("i32") + "\n"
         "    %ip = hd.splat %in : " + p(from) + "\n"
         "    %ips = hd.addptr %ip, %off : " + p(from) + ", " + t("i32") + "\n"
         "    %x = hd.load %ips mask %m : " + p(from) + "\n"
         "    %y = " + op + " %x" + (fastMath.empty() ? "" : " fastmath<" + fastMath + ">") +
         " : " + t(from) + (from == to ? "" : " to " + t(to)) + "\n"
         "    %op = hd.splat %out : " + p(to) + "\n"
         "    %ops = hd.addptr %op, %off : " + p(to) + ", " + t("i32") + "\n"
         "    hd.store %ops, %y mask %m : " + p(to) + "\n"
         "    return\n  }\n}\n";
}

/// A kernel converting n elements of `from` into `to` (arith.truncf/extf).
std::string convertKernel(const std::string &from, const std::string &to) {
  const bool extends = (from == "f32" && to == "f64") || from == "f16" || from == "bf16";
  return unaryKernel(from, to, extends ? "arith.extf" : "arith.truncf");
}

/// A 16-bit format: 1 sign bit, `expBits`, the rest mantissa.
struct Format16 {
  int expBits;
  int mantBits() const { return 15 - expBits; }
  uint16_t inf() const { return static_cast<uint16_t>(((1u << expBits) - 1) << mantBits()); }
  /// The value of a non-negative finite encoding.
  long double value(uint32_t b) const {
    int bias = (1 << (expBits - 1)) - 1;
    uint32_t e = b >> mantBits(), m = b & ((1u << mantBits()) - 1);
    return e == 0 ? std::ldexp(static_cast<long double>(m), 1 - bias - mantBits())
                  : std::ldexp(static_cast<long double>(m | (1u << mantBits())),
                               static_cast<int>(e) - bias - mantBits());
  }
  /// Round to nearest even by search over the encodings, independent of any
  /// bit trick: the two neighbours of |v|, the nearer or the even one.
  uint16_t round(long double v) const {
    uint16_t sign = std::signbit(v) ? 0x8000 : 0;
    v = std::fabs(v);
    uint32_t lo = 0, hi = inf(); // value(inf()) stands for max + ulp
    long double top = 2 * value(inf() - 1) - value(inf() - 2);
    if (v >= top)
      return sign | inf();
    while (hi - lo > 1) {
      uint32_t mid = (lo + hi) / 2;
      (value(mid) <= v ? lo : hi) = mid;
    }
    long double above = hi == inf() ? top : value(hi);
    long double dlo = v - value(lo), dhi = above - v;
    return sign | static_cast<uint16_t>(dlo < dhi ? lo : dhi < dlo ? hi : (lo & 1 ? hi : lo));
  }
  bool isNan(uint16_t b) const { return (b & 0x7fff) > inf(); }
};

/// Inputs that reach every path of a conversion: random bits (all classes),
/// values near the target's ties, subnormals of the target, overflow.
template <typename Bits> std::vector<Bits> conversionInputs(std::mt19937 &rng, int n) {
  std::vector<Bits> v(n);
  std::uniform_int_distribution<uint64_t> any;
  for (int i = 0; i < n; ++i) {
    double d;
    switch (i % 4) {
    case 0: v[i] = static_cast<Bits>(any(rng)); continue; // any encoding
    case 1: d = std::ldexp(1.0 + (any(rng) % 256) / 256.0, static_cast<int>(any(rng) % 60) - 40); break;
    case 2: d = std::ldexp(static_cast<double>(any(rng) % 2048), -24 - static_cast<int>(any(rng) % 4)); break;
    default: d = std::ldexp(1.0 + (any(rng) % 1024) / 1024.0, static_cast<int>(any(rng) % 280) - 140);
    }
    if (any(rng) & 1)
      d = -d;
    if constexpr (sizeof(Bits) == 4) {
      float f = static_cast<float>(d);
      std::memcpy(&v[i], &f, 4);
    } else {
      std::memcpy(&v[i], &d, 8);
    }
  }
  return v;
}

// Half and bfloat conversions compile for every CPU level: where the CPU has
// no instruction, the binary carries its own helper (HostBuiltins.cpp), so a
// kernel for baseline x86-64 loads and rounds to nearest even.
TEST_F(HostCompilerTest, HalfAndBf16ConversionsOnEveryLevel) {
  const Format16 half{5}, bf16{8};
  const int n = 4096;
  for (const char *arch : {"x86-64", "x86-64-v3"}) {
    SCOPED_TRACE(arch);
    for (auto [to, fmt] : {std::pair{"bf16", bf16}, std::pair{"f16", half}}) {
      // f32 and f64 sources
      for (bool wide : {false, true}) {
        SCOPED_TRACE(std::string(wide ? "f64" : "f32") + " to " + to);
        auto fn = compile(convertKernel(wide ? "f64" : "f32", to), "convert", arch);
        ASSERT_NE(fn, nullptr);
        std::vector<uint16_t> out(n + 8, 0xdead);
        std::vector<uint32_t> in32 = conversionInputs<uint32_t>(rng, n);
        std::vector<uint64_t> in64 = conversionInputs<uint64_t>(rng, n);
        void *pin = wide ? static_cast<void *>(in64.data()) : static_cast<void *>(in32.data());
        uint16_t *pout = out.data();
        int count = n;
        void *args[] = {&pin, &pout, &count};
        launch(fn, args, n / 256);
        for (int i = 0; i < n; ++i) {
          long double v;
          if (wide) {
            double d;
            std::memcpy(&d, &in64[i], 8);
            v = d;
          } else {
            float f;
            std::memcpy(&f, &in32[i], 4);
            v = f;
          }
          if (std::isnan(v)) {
            ASSERT_TRUE(fmt.isNan(out[i])) << std::hex << "element " << i << " NaN gave " << out[i];
            continue;
          }
          ASSERT_EQ(out[i], fmt.round(v))
              << std::hex << "element " << std::dec << i << " of " << (double)v;
        }
        for (int i = n; i < n + 8; ++i)
          ASSERT_EQ(out[i], 0xdead) << "wrote past the end";
      }
    }
    // f16 to f32 is exact: every one of the 65536 encodings.
    auto fn = compile(convertKernel("f16", "f32"), "convert", arch);
    ASSERT_NE(fn, nullptr);
    std::vector<uint16_t> in(65536);
    for (int i = 0; i < 65536; ++i)
      in[i] = static_cast<uint16_t>(i);
    std::vector<float> out(65536, -1.0f);
    uint16_t *pin = in.data();
    float *pout = out.data();
    int count = 65536;
    void *args[] = {&pin, &pout, &count};
    launch(fn, args, 65536 / 256);
    for (int i = 0; i < 65536; ++i) {
      uint16_t h = in[i];
      if (half.isNan(h)) {
        ASSERT_TRUE(std::isnan(out[i])) << i;
        continue;
      }
      long double want = (h & 0x7fff) == half.inf() ? INFINITY : half.value(h & 0x7fff);
      ASSERT_EQ(static_cast<long double>(out[i]), h & 0x8000 ? -want : want) << std::hex << h;
    }
  }
}

/// ulps between two finite floats (of any signs).
int64_t ulpDistance(float a, float b) {
  auto ordered = [](float v) {
    int32_t i;
    std::memcpy(&i, &v, 4);
    return i < 0 ? -static_cast<int64_t>(i & 0x7fffffff) : static_cast<int64_t>(i);
  };
  return std::llabs(ordered(a) - ordered(b));
}

// math.exp on f32 tiles is expanded inline on the host (HostCompiler.cpp),
// not called per element: within 2 ulp of exp rounded from double, NaN kept,
// overflow to inf, underflow through the subnormals to +0. The afn flag,
// which lets a target approximate, changes none of it on the host.
TEST_F(HostCompilerTest, VectorExpIsAccurateEverywhere) {
  const std::pair<const char *, const char *> runs[] = {
      {"native", ""}, {"x86-64-v3", ""}, {"x86-64", ""}, {"native", "afn"}, {"x86-64", "afn"}};
  for (auto [arch, fastMath] : runs) {
    SCOPED_TRACE(std::string(arch) + " " + fastMath);
    const std::string ir = unaryKernel("f32", "f32", "math.exp", fastMath);
    auto fn = compile(ir, "convert", arch);
    ASSERT_NE(fn, nullptr);
    // Every 2^-12 step of [-110, 95] plus random bit patterns and specials.
    std::vector<float> in;
    for (double v = -110; v < 95; v += 1.0 / 4096)
      in.push_back(static_cast<float>(v));
    std::uniform_int_distribution<uint32_t> bits;
    for (int k = 0; k < 65536; ++k) {
      uint32_t u = bits(rng);
      float v;
      std::memcpy(&v, &u, 4);
      in.push_back(v);
    }
    for (float v : {0.0f, -0.0f, INFINITY, -INFINITY, NAN, 88.7228394f, 88.72284f, -87.33655f,
                    -103.972f, -103.9721f, 1e-30f, -1e-30f, 1.0f, -1.0f})
      in.push_back(v);
    while (in.size() % 256)
      in.push_back(0.5f);
    std::vector<float> out(in.size() + 8, -1.0f);
    float *pin = in.data(), *pout = out.data();
    int count = static_cast<int>(in.size());
    void *args[] = {&pin, &pout, &count};
    launch(fn, args, count / 256);
    int64_t worst = 0;
    for (size_t k = 0; k < in.size(); ++k) {
      const float want = static_cast<float>(std::exp(static_cast<double>(in[k])));
      if (std::isnan(in[k])) {
        ASSERT_TRUE(std::isnan(out[k])) << k;
        continue;
      }
      if (std::isinf(want) || want == 0) {
        ASSERT_EQ(out[k], want) << "exp(" << in[k] << ")";
        continue;
      }
      int64_t d = ulpDistance(out[k], want);
      worst = std::max(worst, d);
      ASSERT_LE(d, 2) << "exp(" << in[k] << ") = " << out[k] << ", want " << want;
    }
    for (size_t k = in.size(); k < out.size(); ++k)
      ASSERT_EQ(out[k], -1.0f) << "wrote past the end";
    std::printf("[%s%s%s] exp: worst %lld ulp over %zu inputs\n", arch, *fastMath ? " " : "",
                fastMath, static_cast<long long>(worst), in.size());
  }
}

/// Instructions and back edges (branches to a block defined above them) of
/// function `name` in LLVM IR text.
struct FunctionShape {
  int instructions = 0, backEdges = 0;
};
FunctionShape shapeOf(const std::string &ir, const std::string &name) {
  FunctionShape shape;
  std::istringstream in(ir);
  std::string line;
  bool inside = false;
  std::set<std::string> seen;
  while (std::getline(in, line)) {
    if (!inside) {
      inside = line.rfind("define", 0) == 0 && line.find("@" + name + "(") != std::string::npos;
      continue;
    }
    if (line == "}")
      break;
    if (!line.empty() && line[0] != ' ' && line.find(':') != std::string::npos) {
      seen.insert(line.substr(0, line.find(':')));
      continue;
    }
    if (line.rfind("  ", 0) != 0)
      continue;
    ++shape.instructions;
    if (line.find(" br ") == std::string::npos)
      continue;
    for (size_t at = line.find("label %"); at != std::string::npos;
         at = line.find("label %", at + 1)) {
      size_t from = at + 7, to = line.find_first_of(", ", from);
      if (seen.count(line.substr(from, to - from)))
        ++shape.backEdges;
    }
  }
  return shape;
}

// A tile of 4096 elements (the 64x64 transpose: its loads, its layout move
// and its stores) is loops over register chunks at every level, not one
// basic block of thousands of instructions: straight-line, the kernel was
// 5000 to 7200 instructions after O3 and took 4 to 6 s to compile. Checked
// on the code's shape, not on the time.
TEST_F(HostCompilerTest, LargeTileIsLoopsOverChunks) {
  std::string ir = readFile(HADRON_SOURCE_DIR "/examples/transpose.mlir");
  for (const char *arch : {"native", "x86-64", "x86-64-v2", "x86-64-v3", "x86-64-v4"}) {
    SCOPED_TRACE(arch);
    FunctionShape shape = shapeOf(llvmIR(ir, arch), "transpose");
    EXPECT_GE(shape.backEdges, 3) << "the loads, the move and the stores each loop";
    EXPECT_GT(shape.instructions, 0);
    EXPECT_LE(shape.instructions, 1000);
  }
}

// The bf16 GEMMs of examples/nvidia (128x128 and 128x256 tiles of C, a ring
// of shared-memory stages, #hd.mma accumulators for mma.sync and wgmma) run
// on the host as FMAs. Integer inputs in [-2, 2] keep every sum exact in
// f32, so C rounded to bf16 is compared bit for bit.
TEST_F(HostCompilerTest, GemmExamplesRunOnTheHost) {
  struct Example {
    const char *file, *kernel;
    int tileM, tileN, m, n, k;
  };
  for (Example e : {Example{"/examples/nvidia/matmul_mma_bf16.mlir", "matmul_mma", 128, 128, 256,
                            256, 96},
                    Example{"/examples/nvidia/matmul_wgmma_bf16.mlir", "matmul_wgmma", 128, 256,
                            128, 256, 192}}) {
    SCOPED_TRACE(e.file);
    auto fn = compile(readFile(std::string(HADRON_SOURCE_DIR) + e.file), e.kernel);
    ASSERT_NE(fn, nullptr);
    std::uniform_int_distribution<int> dist(-2, 2);
    std::vector<uint16_t> a(e.m * e.k), b(e.k * e.n), c(e.m * e.n + 64, 0x7fc1);
    for (uint16_t &v : a)
      v = testkit::toBf16Bits(float(dist(rng)));
    for (uint16_t &v : b)
      v = testkit::toBf16Bits(float(dist(rng)));
    uint16_t *pa = a.data(), *pb = b.data(), *pc = c.data();
    int m = e.m, n = e.n, k = e.k;
    void *args[] = {&pa, &pb, &pc, &m, &n, &k};
    launch(fn, args, m / e.tileM, n / e.tileN, 1 << 20);
    for (int i = 0; i < m; ++i)
      for (int j = 0; j < n; ++j) {
        float sum = 0;
        for (int t = 0; t < k; ++t)
          sum += testkit::fromBf16Bits(a[i * k + t]) * testkit::fromBf16Bits(b[t * n + j]);
        ASSERT_EQ(c[i * n + j], testkit::toBf16Bits(sum)) << "C[" << i << "][" << j << "]";
      }
    for (size_t i = size_t(m) * n; i < c.size(); ++i)
      ASSERT_EQ(c[i], 0x7fc1) << "wrote past C at " << i;
  }
}

/// `ir` with `hd.polynomial_share = share` on each exp2 of P (the lines
/// "%p... = math.exp2 ... fastmath<afn> :"), counted into `edits`.
std::string withPolynomialShare(std::string ir, const char *share, int &edits) {
  const std::string flag = "fastmath<afn> :";
  for (size_t at = ir.find(" = math.exp2 %shift"); at != std::string::npos;
       at = ir.find(" = math.exp2 %shift", at + 1)) {
    size_t f = ir.find(flag, at);
    ir.insert(f + flag.size() - 1, std::string("{hd.polynomial_share = ") + share + " : f32} ");
    ++edits;
  }
  return ir;
}

// The flash-attention forward examples (head dims 64 and 128: two dots per
// K/V block, an online softmax, tiles of 128 x 128 and 128 x d) run on the
// host, against O = softmax(Q K^T * scale) V in double, within what bf16 P
// and O allow; also with half of P's exponentials by the FMA polynomial
// (hd.polynomial_share, as gen_attention.py POLY=0.5 writes it).
TEST_F(HostCompilerTest, AttentionExamplesRunOnTheHost) {
  for (auto [d, share] : {std::pair<int, const char *>{64, nullptr}, {128, nullptr},
                          {64, "0.5"}, {128, "0.5"}}) {
    SCOPED_TRACE("head dim " + std::to_string(d) + (share ? ", polynomial share " : "") +
                 (share ? share : ""));
    std::string name = "attention_fwd_hd" + std::to_string(d);
    std::string ir = readFile(HADRON_SOURCE_DIR "/examples/nvidia/" + name + ".mlir");
    if (share) {
      int edits = 0;
      ir = withPolynomialShare(ir, share, edits);
      ASSERT_EQ(edits, 2) << "P's exp2 before and in the loop";
    }
    auto fn = compile(ir, name);
    ASSERT_NE(fn, nullptr);
    const int heads = 2, nCtx = 256;
    const size_t count = size_t(heads) * nCtx * d;
    std::uniform_real_distribution<float> dist(-2.f, 2.f);
    std::vector<uint16_t> q(count), kk(count), v(count), o(count + 64, 0x7fc1);
    for (size_t i = 0; i < count; ++i) {
      q[i] = testkit::toBf16Bits(dist(rng));
      kk[i] = testkit::toBf16Bits(dist(rng));
      v[i] = testkit::toBf16Bits(dist(rng) / 2);
    }
    float scale = 1.f / std::sqrt(float(d));
    int n = nCtx;
    // q, k and v arrive as tensor descriptors: on the host the generic
    // words {base, shape[2], strides[2]} over [heads * n_ctx, d] rows.
    auto desc = [&](std::vector<uint16_t> &t) {
      return std::array<uint64_t, 5>{uint64_t(uintptr_t(t.data())), uint64_t(heads) * nCtx,
                                     uint64_t(d), uint64_t(d), 1};
    };
    std::array<uint64_t, 5> dq = desc(q), dk = desc(kk), dv = desc(v);
    uint16_t *po = o.data();
    void *args[] = {dq.data(), dk.data(), dv.data(), &po, &scale, &n};
    launch(fn, args, nCtx / 128, heads, 1 << 20);
    auto widen = [](const std::vector<uint16_t> &bits) {
      std::vector<float> f;
      for (uint16_t b : bits)
        f.push_back(testkit::fromBf16Bits(b));
      return f;
    };
    std::vector<float> qf = widen(q), kf = widen(kk), vf = widen(v);
    std::vector<double> ref = testkit::attentionReference(qf, kf, vf, heads, nCtx, d, scale);
    for (size_t i = 0; i < count; ++i)
      ASSERT_NEAR(testkit::fromBf16Bits(o[i]), ref[i], testkit::attentionTolerance(ref[i]))
          << "O[" << i / (size_t(nCtx) * d) << "][" << i / d % nCtx << "][" << i % d << "]";
    for (size_t i = count; i < o.size(); ++i)
      ASSERT_EQ(o[i], 0x7fc1) << "wrote past O at " << i;
  }
}

TEST_F(HostCompilerTest, UnknownArchIsAnErrorListingTheArchs) {
  std::string ir = readFile(HADRON_SOURCE_DIR "/examples/vector_add.mlir");
  hd_compile_options options{sizeof(options), "x86-64-v7", 3, nullptr};
  hd_compiled_module *module = nullptr;
  hd_error err{};
  EXPECT_EQ(table->compile(ir.data(), ir.size(), &options, &module, &err),
            HD_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(err.message).find("host compile: unknown arch 'x86-64-v7'"),
            std::string::npos)
      << err.message;
  EXPECT_NE(std::string(err.message).find("x86-64-v3"), std::string::npos) << err.message;
}

TEST_F(HostCompilerTest, BadIrIsAnErrorNamingTheLine) {
  std::string ir = "module {\n  func.func @k() attributes {hd.kernel} {\n    %0 = hd.bogus\n";
  hd_compiled_module *module = nullptr;
  hd_error err{};
  EXPECT_EQ(table->compile(ir.data(), ir.size(), nullptr, &module, &err), HD_ERROR_COMPILE);
  EXPECT_NE(std::string(err.message).find("<kernel>:3"), std::string::npos) << err.message;
}

TEST_F(HostCompilerTest, ModuleWithoutKernelIsAnError) {
  std::string ir = "module {\n  func.func @f() {\n    return\n  }\n}\n";
  hd_compiled_module *module = nullptr;
  hd_error err{};
  EXPECT_EQ(table->compile(ir.data(), ir.size(), nullptr, &module, &err), HD_ERROR_COMPILE);
  EXPECT_NE(std::string(err.message).find("no function marked hd.kernel"), std::string::npos)
      << err.message;
}

} // namespace
