//===- FakeCompiler.cpp - A compiler part for the JIT path tests ----------===//
//
// "Compiles" any IR into a binary holding the IR text, with one kernel named
// jit_<arch>(ptr). IR that starts with "error" is rejected with a message
// naming line 1. A module the runtime forgets to release shows as a leak in
// the sanitizer build. Arch fake1 reports two matrix instructions.
//
// Built with FAKE_COMPILER_ABI_1_1, the table is that of plugin ABI 1.1,
// which ended at `release`: a runtime must still load it.
//
//===----------------------------------------------------------------------===//

#include "hadron/plugin/plugin.h"

#include <cstdio>
#include <string>

namespace {

struct Compiled {
  hd_compiled_module module{};
  std::string binary;
  std::string kernelName;
  hd_kernel_signature signature{};
};

const hd_arg_kind kArgs[] = {HD_ARG_PTR};

hd_status compile(const char *ir, uint64_t size, const hd_compile_options *options,
                  hd_compiled_module **out, hd_error *err) {
  std::string text(ir, size);
  if (text.rfind("error", 0) == 0) {
    if (err) {
      err->code = HD_ERROR_COMPILE;
      std::snprintf(err->message, sizeof(err->message), "<ir>:1: expected an operation");
    }
    return HD_ERROR_COMPILE;
  }
  auto *c = new Compiled;
  c->binary = text;
  c->kernelName = std::string("jit_") + (options && options->arch ? options->arch : "default");
  c->signature = {c->kernelName.c_str(), 1, kArgs, 1, 32, 0, nullptr};
  c->module.binary = c->binary.data();
  c->module.binary_size = c->binary.size();
  c->module.num_kernels = 1;
  c->module.kernels = &c->signature;
  *out = &c->module;
  return HD_OK;
}

void release(hd_compiled_module *module) {
  delete reinterpret_cast<Compiled *>(module); // module is Compiled's first member
}

#ifdef FAKE_COMPILER_ABI_1_1
// The table as ABI 1.1 declared it: nothing after `release`, so a runtime
// that reads past struct_size reads past the object (the sanitizer build
// reports it).
struct CompilerTable11 {
  uint32_t struct_size, abi_major, abi_minor;
  decltype(hd_compiler_table::compile) compile;
  decltype(hd_compiler_table::release) release;
};
static_assert(sizeof(CompilerTable11) == HD_COMPILER_TABLE_SIZE_1_0);
const CompilerTable11 kTable11 = {sizeof(CompilerTable11), HADRON_PLUGIN_ABI_MAJOR, 1, compile,
                                  release};
#else
const char *const kMatrixInstructions[] = {"#fake.mma<a>", "#fake.mma<b>", nullptr};

// The runtime passes only archs the descriptor lists: fake1.
hd_status matrixInstructions(const char *, const char *const **out, hd_error *) {
  *out = kMatrixInstructions;
  return HD_OK;
}

const hd_compiler_table kTable = {sizeof(hd_compiler_table), HADRON_PLUGIN_ABI_MAJOR,
                                  HADRON_PLUGIN_ABI_MINOR,   compile,
                                  release,                   matrixInstructions};
#endif

} // namespace

extern "C" HADRON_PLUGIN_EXPORT const hd_compiler_table *hadron_compiler_entry(void) {
#ifdef FAKE_COMPILER_ABI_1_1
  return reinterpret_cast<const hd_compiler_table *>(&kTable11);
#else
  return &kTable;
#endif
}

