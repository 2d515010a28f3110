//===- ConformanceCommand.cpp - hadron conformance ------------------------===//
//
// Runs the conformance suite (conformance/, docs/conformance.md): every case
// on every device found or picked, compile-only on the targets named, the
// expectations of each target applied, a line per cell that is not a plain
// pass, a summary, and the reports when --report is given.
//
//===----------------------------------------------------------------------===//

#include "Cli.h"

#include "Report.h"
#include "Runner.h"

#include <cstdio>

namespace hadron::cli {
namespace {

const char kUsage[] =
    "usage: hadron conformance [--device SEL] [--target T]... [--filter GLOB]\n"
    "                          [--report DIR] [--seed N] [--expectations DIR]\n"
    "                          [--differential] [--list [--ir]] [-v]\n"
    "\n"
    "Runs the conformance cases on every device found and compiles them for each\n"
    "--target (then validates the binary with ptxas, llvm-readobj or spirv-val\n"
    "when installed). Each target's expectations file (unsupported, xfail) is\n"
    "applied; a failure or an XPASS (an xfail that passed) exits with 1.\n"
    "\n"
    "options:\n"
    "  --device SEL       'all' (default), 'none', or comma-separated selectors,\n"
    "                     one device each ('host', 'nvidia:1', 'host,host');\n"
    "                     SEL@ARCH compiles for ARCH ('host@x86-64-v3')\n"
    "  --target T         compile-only target plugin[:arch] (repeatable), e.g.\n"
    "                     nvidia:sm_90a, amd:gfx942\n"
    "  --filter GLOB      comma-separated globs over case names (default: all)\n"
    "  --report DIR       write conformance.{json,md,html} there\n"
    "  --seed N           the run's seed (default: $HADRON_CONFORMANCE_SEED, else\n"
    "                     fresh; printed); each case's seed derives from it\n"
    "  --expectations DIR the expectations files (default: the source tree's\n"
    "                     conformance/expectations)\n"
    "  --differential     compare every device's outputs with the first's\n"
    "  --list             print the case names and exit (--ir: and each kernel,\n"
    "                     written for 32 lanes)\n"
    "  -v, --verbose      a line for passing cells too\n"
    "  -h, --help         show this help\n";

} // namespace

int conformanceCommand(const std::vector<std::string> &args) {
  using namespace hadron::conformance;
  int exitCode = kExitOk;
  std::optional<ParsedArgs> parsed = parseCommand(
      "conformance", args,
      {{{"--device"}}, {{"--target"}, true, true}, {{"--filter"}}, {{"--report"}}, {{"--seed"}},
       {{"--expectations"}}, {{"--differential"}, false}, {{"--list"}, false}, {{"--ir"}, false},
       {{"-v", "--verbose"}, false}},
      0, kUsage, exitCode);
  if (!parsed)
    return exitCode;

  Options options;
  options.devices = parsed->get("--device", "all");
  options.compileTargets = parsed->all("--target");
  options.filter = parsed->get("--filter");
  options.expectationsDir = parsed->get("--expectations", HADRON_CONFORMANCE_EXPECTATIONS_DIR);
  options.differential = parsed->has("--differential");
  options.verbose = parsed->has("-v");
  if (parsed->has("--seed")) {
    auto seed = parseUnsigned(parsed->get("--seed"), "--seed");
    if (!seed)
      return reportUsage("conformance", seed.status(), kUsage);
    options.seed = *seed;
  }
  // Listing runs nothing, but the dot.mma cases come from the plugins.
  const bool list = parsed->has("--list");
  if (list)
    options.devices = "none";
  Expected<std::unique_ptr<Runner>> created = Runner::create(options);
  if (!created)
    return report("conformance", created.status());
  std::unique_ptr<Runner> runner = std::move(created).value();
  for (const std::string &note : runner->notes())
    std::fprintf(stderr, "note: %s\n", note.c_str());
  if (list) {
    for (const Case *c : runner->cases()) {
      std::printf("%s\n", c->name.c_str());
      if (parsed->has("--ir")) {
        std::mt19937_64 rng(options.seed.value_or(1));
        Env env;
        env.rng = &rng;
        std::printf("%s\n", c->build(env).ir.c_str());
      }
    }
    std::printf("%zu case(s)\n", runner->cases().size());
    return kExitOk;
  }
  const size_t cases = runner->cases().size();
  if (cases == 0)
    return report("conformance",
                  Status(HD_ERROR_INVALID_ARGUMENT, "--filter '" + options.filter + "' matches no case"));
  std::printf("hadron conformance: %zu case(s), seed %llu (replay: --seed %llu)\n", cases,
              static_cast<unsigned long long>(runner->seed()),
              static_cast<unsigned long long>(runner->seed()));
  for (const Target &t : runner->targets())
    std::printf("  %-16s %s\n", t.id.c_str(), t.description.c_str());
  if (runner->targets().empty())
    return report("conformance", Status(HD_ERROR_NO_DEVICE, "no target: no device was picked and no --target given"));
  std::fflush(stdout);

  runner->runAll(stdout);

  Summary s = runner->summary();
  for (const DiffResult &d : runner->differences())
    if (!d.agree || options.verbose)
      std::printf("differential %s: %s vs %s: %s\n", d.caseName.c_str(), d.first.c_str(),
                  d.second.c_str(), d.message.c_str());
  if (options.filter.empty())
    for (const std::string &u : runner->unusedExpectations())
      std::printf("warning: stale expectation: %s\n", u.c_str());
  if (parsed->has("--report")) {
    std::string dir = parsed->get("--report");
    if (Status written = writeReports(*runner, dir); !written)
      return report("conformance", written);
    std::printf("report: %s/conformance.{json,md,html}\n", dir.c_str());
  }
  std::printf("summary: %s -> %s\n", s.str().c_str(), s.failed() ? "FAILED" : "PASSED");
  return s.failed() ? kExitFailure : kExitOk;
}

} // namespace hadron::cli
