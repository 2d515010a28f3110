//===- Runner.h - Cases x targets, compared, validated, reported -*- C++ -*-===//
//
// The runner links only libhadron-runtime: it runs wherever the runtime and
// the plugins' runtime parts are (a GPU machine without LLVM/MLIR, with the
// kernels compiled ahead of time into the kernel cache).
//
// Targets (the matrix's columns):
//  - every device the runtime found (or those --device picks): each case is
//    compiled with hd_module_load_ir, launched on fresh inputs into poisoned
//    outputs and compared with its host reference;
//  - compile-only targets (--target plugin:arch): each case is compiled with
//    hd_context_compile, the binary checked to hold the kernel, then
//    validated by the vendor's tool when it is installed (ptxas for PTX,
//    llvm-readobj's notes for an AMD code object, spirv-val for SPIR-V;
//    llvm-readobj's symbols for a host object); an absent tool is recorded;
//  - plugins that loaded but have no device and were not asked for: a
//    column of no-device cells saying why.
//
//===----------------------------------------------------------------------===//
#ifndef HADRON_CONFORMANCE_RUNNER_H
#define HADRON_CONFORMANCE_RUNNER_H

#include "Case.h"
#include "Expectations.h"

#include "hadron/runtime/Status.hpp"
#include "hadron/runtime/runtime.h"

#include <cstdio>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace hadron::conformance {

enum class Outcome { Pass, Fail, XFail, XPass, Unsupported, CompileOnly, NoDevice };
const char *outcomeName(Outcome o);
/// Fail and XPass fail the run.
bool failsRun(Outcome o);

struct Target {
  enum Kind { Device, CompileOnly, NoDevice };
  Kind kind = Device;
  std::string id;     ///< "host:0", "nvidia:sm_90a", "amd" (no device)
  std::string plugin; ///< the plugin's name
  std::string arch;
  /// Devices: the arch kernels are compiled for when the selector named one
  /// ("host@x86-64-v3"); empty = the device's own.
  std::string compileArch;
  hd_device *device = nullptr;
  hd_device_info info{};
  unsigned lanes = 32;
  /// The matrix instructions its plugin's compiler part reports for `arch`
  /// (names); a dot.mma case of another instruction is unsupported here,
  /// unless the device folds a warp into one thread (warp size 1), which
  /// runs any #hd.mma dot as FMAs.
  std::vector<std::string> matrixInstrs;
  /// The device's model ("host (2 cores), arch native, warp size 1, ...")
  /// or, for a no-device column, why it has none.
  std::string description;
  Expectations expectations;
};

struct Result {
  std::string caseName, target;
  Outcome outcome = Outcome::Fail;
  /// A failure's message, or the expectation's reason (with its file:line).
  std::string message;
  std::optional<Mismatch> mismatch;
  /// The kernel compiled (a failure, if any, came later).
  bool compiled = false;
  uint64_t seed = 0;
  double compileMs = 0, runMs = 0;
  /// "ptxas: ok", "spirv-val: not installed", ...
  std::string validation;
  std::string note;
  /// The downloaded outputs (kept for the differential comparison).
  std::vector<Array> outputs;
  std::vector<Tolerance> tolerances;
  /// The inputs' bytes, to tell whether two devices saw the same inputs.
  uint64_t inputHash = 0;
};

struct Options {
  /// "all" (every device), "none", or comma-separated runtime selectors,
  /// each picking one device ("host", "nvidia:1"), optionally with the arch
  /// to compile for ("host@x86-64-v3").
  std::string devices = "all";
  /// Compile-only targets, "plugin[:arch]".
  std::vector<std::string> compileTargets;
  /// Comma-separated globs over case names.
  std::string filter;
  /// The run's seed; each case's is derived from it and the case's name.
  std::optional<uint64_t> seed;
  std::string expectationsDir;
  /// Compare every device's outputs with the first device's.
  bool differential = false;
  /// Also show passing cells on the progress stream.
  bool verbose = false;
};

struct Summary {
  size_t counts[7] = {};
  size_t differentialFailures = 0;
  bool failed() const;
  std::string str() const;
};

/// A differential comparison of one case between two devices.
struct DiffResult {
  std::string caseName, first, second;
  bool agree = true;
  bool comparable = true;
  std::string message;
};

class Runner {
public:
  /// Loads the plugins, picks the targets and reads their expectations.
  /// Fails when the options are wrong (a bad selector, an unknown compile
  /// target, a malformed expectations file).
  static runtime::Expected<std::unique_ptr<Runner>> create(const Options &options);
  ~Runner();

  const Options &options() const { return options_; }
  uint64_t seed() const { return seed_; }
  std::vector<Target> &targets() { return targets_; }
  /// The selected cases: allCases() and a dot.mma case per matrix
  /// instruction some loaded plugin reports for one of its archs.
  std::vector<const Case *> cases() const;
  /// What the run could not learn or build, one line each ("nvidia:sm_90a:
  /// matrix instructions unknown: ..."): cases that are missing because of it.
  const std::vector<std::string> &notes() const { return notes_; }
  /// The seed a case's inputs are drawn from in this run.
  uint64_t caseSeed(const std::string &caseName) const;

  /// One cell.
  Result run(const Case &c, Target &t);
  /// Every selected case on every target; each cell is reported to
  /// `progress` (a line per cell) as it finishes.
  void runAll(FILE *progress);

  const std::vector<Result> &results() const { return results_; }
  const std::vector<DiffResult> &differences() const { return diffs_; }
  Summary summary() const;
  /// Expectation entries no selected case matched (stale ones, when the
  /// whole suite ran).
  std::vector<std::string> unusedExpectations() const;
  /// The command that replays a case with this run's seed.
  std::string replay(const std::string &caseName, const std::string &target) const;

private:
  Runner() = default;
  Result runOnDevice(const Case &c, Target &t, Plan &plan, Result r);
  Result compileOnly(const Case &c, Target &t, Plan &plan, Result r);
  void differential(const Case &c, const std::vector<size_t> &cellIndices);
  /// Asks every loaded plugin for each arch's matrix instructions, makes
  /// their cases and gives each target its arch's.
  void addMatrixInstructions();

  Options options_;
  uint64_t seed_ = 0;
  hd_context *ctx_ = nullptr;
  std::vector<Target> targets_;
  std::vector<Case> cases_;
  std::vector<std::string> notes_;
  std::vector<Result> results_;
  std::vector<DiffResult> diffs_;
};

/// Compares one downloaded output with the reference: the first mismatch, or
/// nothing.
std::optional<Mismatch> compareOutput(const Buffer &b, const Array &got);
/// Compares two devices' outputs with the output's tolerance.
std::optional<Mismatch> compareDevices(const Array &a, const Array &b, const Tolerance &tol);

/// Validates a compiled binary with the vendor's tool: "tool: ok",
/// "tool: not installed", or a failure (returns false) with the tool's
/// output.
bool validateBinary(const hd_compiled_module &m, const std::string &kernel,
                    const std::string &arch, std::string &what);

} // namespace hadron::conformance

#endif // HADRON_CONFORMANCE_RUNNER_H
