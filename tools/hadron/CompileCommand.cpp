//===- CompileCommand.cpp - hadron compile --------------------------------===//
//
// Compiles through the runtime (hd_context_compile), which loads the target
// plugin's compiler part: this tool never links a compiler. No device is
// needed, so a GPU target compiles on a machine without that GPU.
//
//===----------------------------------------------------------------------===//

#include "Cli.h"

#include <cstdio>
#include <cstdlib>
#include <dirent.h>
#include <filesystem>
#include <memory>
#include <unistd.h>

namespace hadron::cli {
namespace {

const char kUsage[] =
    "usage: hadron compile KERNEL.mlir --target T[,T...] [--emit=ir|llvm|asm|bin|bundle]\n"
    "                      [-o OUT] [--dump-dir DIR] [-O N]\n"
    "\n"
    "Compiles hd IR with the compiler part of the target's plugin.\n"
    "\n"
    "options:\n"
    "  --target T      vendor[:arch]: host, host:native, nvidia:sm_90a, amd:gfx942,\n"
    "                  intel:pvc; a bare vendor means its plugin's default arch.\n"
    "                  Several, comma-separated, make a bundle\n"
    "  --emit E        what to write (default bin; bundle for several targets or\n"
    "                  an output named *.hdb):\n"
    "                    ir      the input IR as verified against the target\n"
    "                    llvm    the LLVM IR that was code-generated\n"
    "                    asm     the target's assembly (PTX, GCN, x86, ...)\n"
    "                    bin     the binary the target's runtime part loads\n"
    "                    bundle  one file with the binary and kernel signatures of\n"
    "                            every target; hadron run and hd_module_load_bundle\n"
    "                            load the entry of the device they select\n"
    "  -o, --output F  where to write it; '-' (the default) is stdout, which a\n"
    "                  binary refuses when stdout is a terminal\n"
    "  --dump-dir DIR  also write each compilation stage's IR into DIR\n"
    "  -O N            optimisation level 0..3 (default 3)\n"
    "  -h, --help      show this help\n";

enum class Emit { IR, LLVM, Asm, Bin, Bundle };

Expected<Emit> parseEmit(const std::string &text) {
  if (text == "ir")
    return Emit::IR;
  if (text == "llvm")
    return Emit::LLVM;
  if (text == "asm")
    return Emit::Asm;
  if (text == "bin")
    return Emit::Bin;
  if (text == "bundle")
    return Emit::Bundle;
  return usageError("--emit: '" + text + "' is not one of ir, llvm, asm, bin, bundle");
}

struct Target {
  std::string vendor;
  std::string arch; ///< Empty: the plugin's default.
};

Expected<Target> parseTarget(const std::string &text) {
  Target t;
  size_t colon = text.find(':');
  t.vendor = text.substr(0, colon);
  if (colon != std::string::npos)
    t.arch = text.substr(colon + 1);
  bool vendorOk =
      !t.vendor.empty() && t.vendor[0] >= 'a' && t.vendor[0] <= 'z' &&
      t.vendor.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789_-") == std::string::npos;
  if (!vendorOk || (colon != std::string::npos && t.arch.empty()))
    return usageError("--target: '" + text +
                      "' is not vendor[:arch] (host, host:native, nvidia:sm_90a, amd:gfx942)");
  return t;
}

/// A fresh directory under $TMPDIR for the stage dumps --emit=ir reads;
/// removed with its files when this goes away.
class TempDir {
public:
  TempDir() {
    const char *tmp = std::getenv("TMPDIR");
    std::string pattern = std::string(tmp && *tmp ? tmp : "/tmp") + "/hadron-compile-XXXXXX";
    std::vector<char> buf(pattern.begin(), pattern.end());
    buf.push_back('\0');
    if (::mkdtemp(buf.data()))
      path_ = buf.data();
  }
  ~TempDir() {
    if (path_.empty())
      return;
    if (DIR *dir = ::opendir(path_.c_str())) {
      while (dirent *entry = ::readdir(dir))
        if (entry->d_name[0] != '.')
          ::unlink((path_ + "/" + entry->d_name).c_str());
      ::closedir(dir);
    }
    ::rmdir(path_.c_str());
  }
  TempDir(const TempDir &) = delete;
  TempDir &operator=(const TempDir &) = delete;
  const std::string &path() const { return path_; }

private:
  std::string path_;
};

bool endsWith(const std::string &s, const std::string &suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

/// --emit=bundle: every target through hd_context_compile_bundle.
int compileBundle(const std::string &source, const std::string &ir, const std::string &targets,
                  uint32_t optLevel, const std::string &output) {
  auto ctx = runtime::Context::create();
  if (!ctx)
    return report("compile", ctx.status());
  hd_compile_options options = runtime::Context::defaultOptions();
  options.opt_level = optLevel;
  auto bundle = ctx->compileBundle(targets, ir, options);
  if (!bundle)
    return report("compile", namingSource(bundle.status(), source));
  Status s = output == "-" ? writeFile(output, bundle->bytes().data(), bundle->bytes().size())
                           : bundle->writeFile(output);
  return s ? kExitOk : report("compile", s);
}

/// The file the compiler parts' shared pipeline writes after verification.
constexpr const char kVerifiedIRFile[] = "0-input.mlir";

} // namespace

int compileCommand(const std::vector<std::string> &args) {
  int exitCode = kExitOk;
  auto parsed =
      parseCommand("compile", args,
                   {{{"--target"}}, {{"--emit"}}, {{"-o", "--output"}}, {{"--dump-dir"}}, {{"-O"}}},
                   1, kUsage, exitCode);
  if (!parsed)
    return exitCode;
  if (!parsed->has("--target"))
    return reportUsage("compile", usageError("--target is required"), kUsage);
  const std::string targets = parsed->get("--target");
  std::string output = parsed->get("-o", "-");
  const bool several = targets.find(',') != std::string::npos;
  auto emit = parseEmit(parsed->get("--emit", several || endsWith(output, ".hdb") ? "bundle" : "bin"));
  if (!emit)
    return reportUsage("compile", emit.status(), kUsage);
  if (several && *emit != Emit::Bundle)
    return reportUsage("compile",
                       usageError("several targets make a bundle; --emit=" +
                                  parsed->get("--emit") + " takes one target"),
                       kUsage);
  if (*emit == Emit::Bundle && parsed->has("--dump-dir"))
    return reportUsage("compile",
                       usageError("--dump-dir takes one target and no bundle (each target's "
                                  "stages would overwrite the last's)"),
                       kUsage);
  auto optLevel = parseUnsigned(parsed->get("-O", "3"), "-O", 0, 3);
  if (!optLevel)
    return reportUsage("compile", optLevel.status(), kUsage);
  if ((*emit == Emit::Bin || *emit == Emit::Bundle) && output == "-" && ::isatty(STDOUT_FILENO))
    return reportUsage("compile", usageError("refusing to write a binary to a terminal; use -o"),
                       kUsage);

  // A bundle's list is checked by the runtime, which names the bad target.
  auto target = *emit == Emit::Bundle ? Expected<Target>(Target{}) : parseTarget(targets);
  if (!target)
    return reportUsage("compile", target.status(), kUsage);

  auto ir = readFile(parsed->positionals[0]);
  if (!ir)
    return report("compile", ir.status());
  if (*emit == Emit::Bundle)
    return compileBundle(parsed->positionals[0], *ir, targets, static_cast<uint32_t>(*optLevel),
                         output);
  auto ctx = runtime::Context::create();
  if (!ctx)
    return report("compile", ctx.status());

  // --emit=ir reads the verified IR from the stage dumps, in a temporary
  // directory unless the user asked for one.
  std::string dumpDir = parsed->get("--dump-dir");
  if (!dumpDir.empty()) {
    // The compiler part writes into it and says nothing when it cannot:
    // make it here, or say why not.
    std::error_code ec;
    std::filesystem::create_directories(dumpDir, ec);
    if (ec || !std::filesystem::is_directory(dumpDir))
      return report("compile", Status(HD_ERROR_INVALID_ARGUMENT,
                                      "--dump-dir " + dumpDir + ": cannot create the directory" +
                                          (ec ? " (" + ec.message() + ")" : std::string())));
  }
  std::unique_ptr<TempDir> scratch;
  if (*emit == Emit::IR && dumpDir.empty()) {
    scratch = std::make_unique<TempDir>();
    if (scratch->path().empty())
      return report("compile", Status(HD_ERROR_INTERNAL, "cannot create a temporary directory"));
    dumpDir = scratch->path();
  }
  hd_compile_options options{};
  options.struct_size = sizeof(options);
  options.arch = target->arch.empty() ? nullptr : target->arch.c_str();
  options.opt_level = static_cast<uint32_t>(*optLevel);
  options.dump_dir = dumpDir.empty() ? nullptr : dumpDir.c_str();

  hd_compiled *compiled = nullptr;
  hd_error err;
  hd_status status = hd_context_compile(ctx->get(), target->vendor.c_str(), ir->data(), ir->size(),
                                        &options, &compiled, &err);
  if (status != HD_OK)
    return report("compile", namingSource(Status::fromError(status, err), parsed->positionals[0]));
  std::unique_ptr<hd_compiled, void (*)(hd_compiled *)> owned(compiled, hd_compiled_destroy);
  const hd_compiled_module *result = hd_compiled_get(compiled);

  std::string text;
  switch (*emit) {
  case Emit::IR: {
    auto verified = readFile(dumpDir + "/" + kVerifiedIRFile);
    if (!verified)
      return report("compile",
                    Status(HD_ERROR_UNSUPPORTED,
                           "the " + target->vendor + " compiler part wrote no " + kVerifiedIRFile +
                               " stage dump: " + verified.status().message()));
    text = std::move(*verified);
    break;
  }
  case Emit::LLVM:
  case Emit::Asm: {
    const bool llvm = *emit == Emit::LLVM;
    const char *produced = llvm ? result->llvm_ir : result->assembly;
    if (!produced)
      return report("compile", Status(HD_ERROR_UNSUPPORTED, "the " + target->vendor +
                                                                " compiler part gave no " +
                                                                (llvm ? "LLVM IR" : "assembly")));
    text = produced;
    break;
  }
  case Emit::Bin:
    if (Status s = writeFile(output, result->binary, result->binary_size); !s)
      return report("compile", s);
    return kExitOk;
  case Emit::Bundle:
    break; // compiled by compileBundle above
  }
  if (Status s = writeFile(output, text.data(), text.size()); !s)
    return report("compile", s);
  return kExitOk;
}

} // namespace hadron::cli
