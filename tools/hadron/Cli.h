//===- Cli.h - What the hadron subcommands share ----------------*- C++ -*-===//
//
// The command-line parser, file helpers and exit codes of the `hadron` tool.
// The tool links only libhadron-runtime: compilers are reached through the
// runtime and the plugins it loads, never linked.
//
// Failures are the runtime's Status values. Usage errors (bad options, bad
// argument specs) are found before the runtime is called and are printed
// with the usage (reportUsage); everything after is printed alone (report).
//
//===----------------------------------------------------------------------===//
#ifndef HADRON_TOOLS_HADRON_CLI_H
#define HADRON_TOOLS_HADRON_CLI_H

#include "hadron/runtime/Runtime.hpp"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace hadron::cli {

using runtime::Expected;
using runtime::Status;

/// Exit codes of every subcommand.
enum ExitCode : int {
  kExitOk = 0,
  kExitFailure = 1, ///< The runtime, the compiler or a result check failed.
  kExitUsage = 2,   ///< Bad options or arguments.
};

/// One option a subcommand accepts. `names` lists its spellings ("-o",
/// "--output"); the first is the key under which ParsedArgs stores it.
struct OptionSpec {
  std::vector<std::string> names;
  bool takesValue = true;
  bool repeatable = false;
};

struct ParsedArgs {
  std::map<std::string, std::vector<std::string>> options;
  std::vector<std::string> positionals;
  bool help = false; ///< -h or --help was given.

  bool has(const std::string &key) const { return options.count(key) != 0; }
  /// The last value given for `key`, or `fallback`.
  std::string get(const std::string &key, const std::string &fallback = "") const;
  /// Every value given for a repeatable option, in order.
  std::vector<std::string> all(const std::string &key) const;
};

/// Parses `args` (the words after the subcommand name). Accepts `--name
/// value`, `--name=value` and, for one-letter options, `-Ovalue`; `--`
/// ends the options. An unknown option, a missing value or a repeated
/// non-repeatable option is a usage error naming it.
Expected<ParsedArgs> parseArgs(const std::vector<std::string> &args,
                               const std::vector<OptionSpec> &specs);

/// What a subcommand does with its words: parses them against `specs` and
/// checks that it got `positionals` positional words (0: none; 1: the
/// kernel file). Returns the parsed words, or nothing after printing the
/// usage: on stdout for --help (`exitCode` kExitOk), on stderr with the
/// error otherwise (kExitUsage).
std::optional<ParsedArgs> parseCommand(const char *subcommand, const std::vector<std::string> &args,
                                       const std::vector<OptionSpec> &specs, size_t positionals,
                                       const char *usage, int &exitCode);

/// --seed's value, or a fresh random seed when it is absent.
Expected<uint64_t> seedOption(const ParsedArgs &parsed);

/// A usage error: HD_ERROR_INVALID_ARGUMENT with `message`.
Status usageError(const std::string &message);

/// Parses a decimal unsigned integer in [minValue, maxValue]; `what` names
/// the option in the error.
Expected<uint64_t> parseUnsigned(const std::string &text, const std::string &what,
                                 uint64_t minValue = 0, uint64_t maxValue = UINT64_MAX);

Expected<std::string> readFile(const std::string &path);
Status writeFile(const std::string &path, const void *data, size_t size);

/// Prints a failure as "hadron SUBCOMMAND: message" on stderr and returns
/// kExitFailure.
int report(const char *subcommand, const Status &status);
/// Same for a usage error, followed by the usage; returns kExitUsage.
int reportUsage(const char *subcommand, const Status &status, const char *usage);

/// The compiler parts name the IR buffer "<kernel>" in diagnostics; this
/// puts the file's path there ("k.mlir:3:10: error: ...").
Status namingSource(const Status &status, const std::string &path);

/// Quotes and escapes `text` as a JSON string.
std::string jsonString(const std::string &text);

/// The subcommands. Each takes the words after its name.
int devicesCommand(const std::vector<std::string> &args);
int compileCommand(const std::vector<std::string> &args);
int runCommand(const std::vector<std::string> &args);
int demoCommand(const std::vector<std::string> &args);
int conformanceCommand(const std::vector<std::string> &args);

} // namespace hadron::cli

#endif // HADRON_TOOLS_HADRON_CLI_H
