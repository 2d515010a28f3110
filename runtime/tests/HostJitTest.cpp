//===- HostJitTest.cpp - IR to results through the runtime on the host ----===//
//
// hd_module_load_ir with the real host compiler part: examples/vector_add.mlir
// is compiled, loaded and launched through the runtime, on fresh random
// inputs with poisoned outputs and a tail that exercises the mask.
//
//===----------------------------------------------------------------------===//

#include "hadron/runtime/Runtime.hpp"

#include "TestFiles.h"
#include "VectorAddCheck.h"

#include <gtest/gtest.h>


using namespace hadron::runtime;

using hadron::runtime::tests::checkVectorAdd;
using hadron::runtime::tests::readFile;

namespace {

TEST(HostJit, VectorAddFromIR) {
  auto ctx = Context::create();
  ASSERT_TRUE(ctx.ok()) << ctx.status().message();
  auto dev = ctx->select("host");
  ASSERT_TRUE(dev.ok()) << dev.status().message();
  auto module = dev->loadIR(readFile(HADRON_SOURCE_DIR "/examples/vector_add.mlir"));
  ASSERT_TRUE(module.ok()) << module.status().message();
  auto add = module->kernel("vector_add");
  ASSERT_TRUE(add.ok()) << add.status().message();
  ASSERT_EQ(add->signature().num_args, 4u);

  checkVectorAdd(*dev, *add, 5 * 1024 + 77, 1024, 7);
}

TEST(HostJit, CompileErrorsComeBackWithTheDiagnostic) {
  auto ctx = Context::create();
  ASSERT_TRUE(ctx.ok());
  auto dev = ctx->select("host");
  ASSERT_TRUE(dev.ok());
  auto bad = dev->loadIR("garbage");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().code(), HD_ERROR_COMPILE);
  EXPECT_NE(bad.status().message().find("host:0: compile failed:"), std::string::npos)
      << bad.status().message();
  EXPECT_NE(bad.status().message().find("garbage"), std::string::npos) << bad.status().message();
}

TEST(HostJit, CompilesWithoutADevice) {
  auto ctx = Context::create();
  ASSERT_TRUE(ctx.ok()) << ctx.status().message();
  const std::string ir = readFile(HADRON_SOURCE_DIR "/examples/vector_add.mlir");
  hd_compile_options options{sizeof(hd_compile_options), "native", 2, nullptr};
  hd_compiled *compiled = nullptr;
  hd_error err;
  ASSERT_EQ(hd_context_compile(ctx->get(), "host", ir.data(), ir.size(), &options, &compiled, &err),
            HD_OK)
      << err.message;
  const hd_compiled_module *result = hd_compiled_get(compiled);
  ASSERT_NE(result, nullptr);
  EXPECT_GT(result->binary_size, 0u);
  ASSERT_EQ(result->num_kernels, 1u);
  EXPECT_STREQ(result->kernels[0].name, "vector_add");
  EXPECT_EQ(result->kernels[0].num_args, 4u);
  ASSERT_NE(result->llvm_ir, nullptr);
  EXPECT_NE(std::string(result->llvm_ir).find("vector_add"), std::string::npos);
  ASSERT_NE(result->assembly, nullptr);
  EXPECT_NE(std::string(result->assembly).find("vector_add"), std::string::npos);

  // The binary loads like any precompiled one.
  auto dev = ctx->select("host");
  ASSERT_TRUE(dev.ok()) << dev.status().message();
  std::vector<hd_kernel_signature> kernels(result->kernels, result->kernels + result->num_kernels);
  auto module = dev->loadBinary(result->binary, result->binary_size, kernels);
  ASSERT_TRUE(module.ok()) << module.status().message();
  EXPECT_TRUE(module->kernel("vector_add").ok());
  hd_compiled_destroy(compiled);
}

TEST(HostJit, CompileNamesAMissingPluginAndAnUnlistedArch) {
  auto ctx = Context::create();
  ASSERT_TRUE(ctx.ok()) << ctx.status().message();
  hd_compiled *compiled = nullptr;
  hd_error err;
  EXPECT_EQ(hd_context_compile(ctx->get(), "nosuchvendor", "x", 1, nullptr, &compiled, &err),
            HD_ERROR_UNSUPPORTED);
  EXPECT_NE(std::string(err.message).find("no plugin 'nosuchvendor' is loaded"), std::string::npos)
      << err.message;
  EXPECT_NE(std::string(err.message).find("libhadron-target-nosuchvendor.so"), std::string::npos)
      << err.message;
  EXPECT_EQ(compiled, nullptr);

  hd_compile_options options{sizeof(hd_compile_options), "sm_90a", 3, nullptr};
  EXPECT_EQ(hd_context_compile(ctx->get(), "host", "x", 1, &options, &compiled, &err),
            HD_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(err.message).find("does not compile for arch 'sm_90a'"),
            std::string::npos)
      << err.message;

  EXPECT_EQ(hd_context_compile(ctx->get(), "host", "garbage", 7, nullptr, &compiled, &err),
            HD_ERROR_COMPILE);
  EXPECT_NE(std::string(err.message).find("host: compile failed:"), std::string::npos)
      << err.message;
  EXPECT_EQ(compiled, nullptr);
  hd_compiled_destroy(nullptr);
}

// A binary for a generic CPU level runs anywhere that has the level; the
// loader reads the level the binary records and refuses one it cannot run,
// naming it, instead of letting the kernel die of an illegal instruction.
TEST(HostJit, GenericLevelsRunAndAnUnrunnableLevelIsRefused) {
  auto ctx = Context::create();
  ASSERT_TRUE(ctx.ok()) << ctx.status().message();
  auto dev = ctx->select("host");
  ASSERT_TRUE(dev.ok()) << dev.status().message();
  // vector_add on 128-element blocks: without AVX a masked vector access is
  // compiled element by element, which takes seconds for 1024.
  std::string ir = readFile(HADRON_SOURCE_DIR "/examples/vector_add.mlir");
  for (size_t at; (at = ir.find("1024")) != std::string::npos;)
    ir.replace(at, 4, "128");
  for (size_t at; (at = ir.find("sizePerThread = [4]")) != std::string::npos;)
    ir.replace(at, 19, "sizePerThread = [1]");
  for (const char *arch : {"x86-64", "x86-64-v2"}) {
    SCOPED_TRACE(arch);
    hd_compile_options options{sizeof(hd_compile_options), arch, 2, nullptr};
    hd_compiled *compiled = nullptr;
    hd_error err;
    ASSERT_EQ(hd_context_compile(ctx->get(), "host", ir.data(), ir.size(), &options, &compiled,
                                 &err),
              HD_OK)
        << err.message;
    const hd_compiled_module *result = hd_compiled_get(compiled);
    std::vector<hd_kernel_signature> kernels(result->kernels,
                                             result->kernels + result->num_kernels);
    std::string bytes(static_cast<const char *>(result->binary), result->binary_size);
    const std::string recorded = std::string(arch) + '\0';
    size_t at = bytes.find(recorded);
    ASSERT_NE(at, std::string::npos) << "the binary records its arch";

    auto module = dev->loadBinary(bytes.data(), bytes.size(), kernels);
    ASSERT_TRUE(module.ok()) << module.status().message();
    auto add = module->kernel("vector_add");
    ASSERT_TRUE(add.ok());
    checkVectorAdd(*dev, *add, 3000, 128, 11);

    // The same binary claiming a level no CPU has (same length, so the ELF
    // stays well formed).
    std::string forged = bytes;
    forged.replace(at, recorded.size() - 2, std::string(recorded.size() - 2, 'z'));
    auto refused = dev->loadBinary(forged.data(), forged.size(), kernels);
    ASSERT_FALSE(refused.ok());
    EXPECT_EQ(refused.status().code(), HD_ERROR_UNSUPPORTED);
    EXPECT_NE(refused.status().message().find("was compiled for arch 'zzzz"), std::string::npos)
        << refused.status().message();
    hd_compiled_destroy(compiled);
  }
}

} // namespace
