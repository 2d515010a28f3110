//===- main.cpp - The hadron command-line tool ----------------------------===//
//
// `hadron SUBCOMMAND ...`: devices, compile, run, demo, conformance. docs/cli.md describes
// each with an example.
//
//===----------------------------------------------------------------------===//

#include "Cli.h"

#include <cstdio>
#include <cstring>

namespace {

const char kUsage[] =
    "usage: hadron <subcommand> [options]\n"
    "\n"
    "subcommands:\n"
    "  devices   list the plugins, devices, search directories and load report\n"
    "  compile   compile an hd IR kernel for a target (IR, LLVM IR, assembly, binary)\n"
    "  run       run a kernel on a device with generated arguments\n"
    "  demo      run the examples on a device, check them and time them\n"
    "  conformance  run the conformance suite on every device and target\n"
    "\n"
    "'hadron <subcommand> --help' describes each. Exit status: 0 success, 1 failure,\n"
    "2 usage error.\n";

struct Subcommand {
  const char *name;
  int (*run)(const std::vector<std::string> &);
};

const Subcommand kSubcommands[] = {
    {"devices", hadron::cli::devicesCommand},
    {"compile", hadron::cli::compileCommand},
    {"run", hadron::cli::runCommand},
    {"demo", hadron::cli::demoCommand},
    {"conformance", hadron::cli::conformanceCommand},
};

} // namespace

int main(int argc, char **argv) {
  if (argc < 2) {
    std::fputs(kUsage, stderr);
    return hadron::cli::kExitUsage;
  }
  const char *name = argv[1];
  if (!std::strcmp(name, "-h") || !std::strcmp(name, "--help") || !std::strcmp(name, "help")) {
    std::fputs(kUsage, stdout);
    return hadron::cli::kExitOk;
  }
  for (const Subcommand &sub : kSubcommands)
    if (!std::strcmp(name, sub.name))
      return sub.run(std::vector<std::string>(argv + 2, argv + argc));
  std::fprintf(stderr, "hadron: unknown %s '%s'\n\n%s", name[0] == '-' ? "option" : "subcommand",
               name, kUsage);
  return hadron::cli::kExitUsage;
}
