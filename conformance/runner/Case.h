//===- Case.h - What a conformance case is ----------------------*- C++ -*-===//
//
// A case is a name and a function that, given the target's threads per warp
// and a seeded random generator, builds a Plan: the kernel as textual hd IR,
// its buffers (inputs with fresh random values, outputs with what the host
// reference computed and the tolerance to compare with), the launch
// arguments and the grid. The runner poisons every output before the launch,
// so an element the kernel fails to write keeps the poison and fails.
//
// Cases live in conformance/cases/, one file per family; each file has an
// add<Family>Cases function that allCases() calls. docs/conformance.md shows
// how to add one.
//
//===----------------------------------------------------------------------===//
#ifndef HADRON_CONFORMANCE_CASE_H
#define HADRON_CONFORMANCE_CASE_H

#include "MatrixInstr.h"

#include "hadron/runtime/runtime.h"
#include "testkit/Compare.h"
#include "testkit/Random.h"
#include "testkit/Values.h"

#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <random>
#include <string>
#include <utility>
#include <vector>

namespace hadron::conformance {

using testkit::Array;
using testkit::Elem;
using testkit::Mismatch;
using testkit::Tolerance;

/// A custom check of a downloaded output (atomics' totals, orderings a
/// device may pick): nothing when it holds.
using Check = std::function<std::optional<Mismatch>(const Array &got)>;

struct Buffer {
  enum Role {
    Input,  ///< uploaded, not read back
    Output, ///< poisoned before the launch, read back and compared
    InOut,  ///< `init` uploaded, read back and compared
  };
  std::string name;
  Role role = Input;
  Array init;   ///< Input/InOut: the values; Output: its size and type
  Array want;   ///< Output/InOut: the reference (a poison element must stay poison);
                ///< elements past want.size() must keep the poison
  Tolerance tol;
  Check check;  ///< used instead of `want` when set
};

/// One launch argument: a buffer (by index into Plan::buffers) or a scalar.
struct Arg {
  int buffer = -1;
  hd_arg scalar{};
  /// With a buffer: pass it as a tensor descriptor of this rank, shape and
  /// strides (base = the buffer's device address) instead of a pointer.
  std::optional<hd_tensor_desc> desc;
};

struct Plan {
  std::string ir;
  std::string kernel;
  std::vector<Buffer> buffers;
  std::vector<Arg> args;
  std::array<uint32_t, 3> grid{1, 1, 1};
  uint32_t numWarps = 4;
  /// When not empty, the launch's stdout (fd 1, through the device's
  /// synchronisation) must contain this.
  std::string expectStdout;
  /// What was drawn (sizes, trip counts), printed with a failure.
  std::string note;
  /// A check over every output at once (indexed like `buffers`; inputs are
  /// empty there), after each buffer's own comparison passed: atomics'
  /// totals, where the old values and the final memory must agree.
  std::function<std::optional<Mismatch>(const std::vector<Array> &outputs)> check;

  int addInput(std::string name, Array values);
  int addOutput(std::string name, Array want, Tolerance tol = {}, size_t slack = 16);
  int addInOut(std::string name, Array init, Array want, Tolerance tol = {});
  void argBuffer(int buffer) { args.push_back(Arg{buffer, {}, std::nullopt}); }
  /// Buffer `buffer` as a tensor descriptor (shape and strides in elements,
  /// innermost last).
  void argTensorDesc(int buffer, const std::vector<uint64_t> &shape,
                     const std::vector<uint64_t> &strides);
  void argI32(int32_t v);
  void argI64(int64_t v);
  void argF32(float v);
  void argF64(double v);
};

/// What a case is built for.
struct Env {
  /// Threads per warp the layouts must multiply to: the device's warp size,
  /// 32 where the device folds warps (the host), or the target's `lanes`
  /// from its expectations file in compile-only runs.
  unsigned lanes = 32;
  std::mt19937_64 *rng = nullptr;

  std::mt19937_64 &random() { return *rng; }
  int64_t uniformInt(int64_t lo, int64_t hi) {
    return std::uniform_int_distribution<int64_t>(lo, hi)(*rng);
  }
  double uniform(double lo, double hi) {
    return std::uniform_real_distribution<double>(lo, hi)(*rng);
  }
  /// A size in [1, max] that is not a multiple of `tile` (when max >= tile).
  int tailSize(int tile, int max) { return testkit::tailSize(*rng, tile, max); }
};

struct Case {
  Case(std::string name, std::function<Plan(Env &)> build, std::string matrixInstr = "")
      : name(std::move(name)), build(std::move(build)), matrixInstr(std::move(matrixInstr)) {}

  std::string name; ///< "family.what.variant", dots between parts
  std::function<Plan(Env &)> build;
  /// The matrix instruction the kernel names (MatrixInstr::name); empty for
  /// a case every target runs.
  std::string matrixInstr;
  std::string family() const { return name.substr(0, name.find('.')); }
};

/// Every case, in a fixed order (the order of the family functions, then of
/// registration).
const std::vector<Case> &allCases();

// One per file in conformance/cases/.
void addElementwiseCases(std::vector<Case> &cases);
void addConversionCases(std::vector<Case> &cases);
void addMemoryCases(std::vector<Case> &cases);
void addShapeCases(std::vector<Case> &cases);
void addReduceScanCases(std::vector<Case> &cases);
void addLayoutCases(std::vector<Case> &cases);
void addAtomicCases(std::vector<Case> &cases);
void addDotCases(std::vector<Case> &cases);
void addControlFlowCases(std::vector<Case> &cases);
void addMiscCases(std::vector<Case> &cases);
void addWarpSpecializeCases(std::vector<Case> &cases);
/// dot.mma.<name> cases for each instruction (cases/Dot.cpp), made per run
/// from what the targets' compiler parts report; returns the instructions
/// it cannot make a case for, and why.
std::vector<std::string> addMatrixDotCases(std::vector<Case> &cases,
                                           const std::vector<MatrixInstr> &instrs);

} // namespace hadron::conformance

#endif // HADRON_CONFORMANCE_CASE_H
