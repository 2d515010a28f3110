//===- Trace.h - The state of one kernel trace (internal) -------*- C++ -*-===//
//
// What the builder's free functions share while a kernel callable runs: the
// MLIR context, module and function being built, the insertion point, and
// the way errors leave: fail() throws a TraceError that carries the user's
// source location, caught only by detail::trace (Trace.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef HADRON_LIB_BUILDER_TRACE_H
#define HADRON_LIB_BUILDER_TRACE_H

#include "hadron/Builder/Builder.h"
#include "hadron/IR/Dialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OwningOpRef.h"

#include <string>
#include <vector>

namespace hadron::builder::detail {

/// Unwinds a trace; `message` is complete ("file:line:col: error: ...").
struct TraceError {
  std::string message;
};

class Trace {
public:
  Trace(mlir::MLIRContext *ctx, mlir::ModuleOp module, mlir::func::FuncOp func,
        const Options &options);
  ~Trace();

  /// The trace running on this thread; a builder function called outside
  /// one is a programming error and aborts with the caller's location.
  static Trace &current(const SourceLoc &loc);

  mlir::MLIRContext *ctx;
  mlir::OpBuilder b;
  mlir::ModuleOp module;
  mlir::func::FuncOp func;
  Options options;
  std::vector<int> divisibility; ///< Per argument; 0: none.
  /// The warps of the region being built (options.numWarps outside
  /// warp_specialize) and what runs them, for messages ("the kernel runs
  /// num_warps = 4", "worker partition 0 of warp_specialize runs 1 warp").
  unsigned warps;
  std::string warpsOwner;
  /// Inside a region of warp_specialize (they do not nest).
  bool inWarpSpecialize = false;

  /// The MLIR location of a C++ source location.
  mlir::Location at(const SourceLoc &loc) const;

  /// Stops the trace: "file:line:col: error: what: message".
  [[noreturn]] void fail(const SourceLoc &loc, const std::string &what,
                         const std::string &message) const;
  /// Runs the op's verifier (and its regions' ops' when `recursive`); fails
  /// with what it said.
  void verify(mlir::Operation *op, const SourceLoc &loc, const std::string &what,
              bool recursive = false);
  template <typename OpT> OpT checked(OpT op, const SourceLoc &loc, const std::string &what) {
    verify(op.getOperation(), loc, what);
    return op;
  }

  /// Parses a DType or a Layout into this context, or fails naming it.
  mlir::Type type(const DType &t, const SourceLoc &loc, const std::string &what);
  mlir::Attribute layout(const Layout &l, const SourceLoc &loc, const std::string &what);
  /// tensor<shape x elem, layout>, checked against the layout.
  mlir::RankedTensorType tileType(llvm::ArrayRef<int64_t> shape, mlir::Type elem,
                                  mlir::Attribute layout, const SourceLoc &loc,
                                  const std::string &what);

  /// Diagnostics MLIR emitted since the last take (the handler's buffer).
  std::string takeDiagnostics();
  std::string diagnostics;

private:
  Trace *previous_;
};

} // namespace hadron::builder::detail

namespace hadron::builder {
/// A specialisation's context and module; the module goes first.
struct Module::State {
  std::string key, kernelName;
  std::unique_ptr<mlir::MLIRContext> ctx;
  mlir::OwningOpRef<mlir::ModuleOp> module;
};
} // namespace hadron::builder

namespace hadron::builder::detail {

/// What set_user_location last set on this thread (an empty file: none).
UserLocation currentUserLocation();

/// Text of a type or attribute, for messages.
std::string str(mlir::Type t);
std::string str(mlir::Attribute a);
/// "[128, 64]".
std::string shapeStr(llvm::ArrayRef<int64_t> shape);

} // namespace hadron::builder::detail

#endif // HADRON_LIB_BUILDER_TRACE_H
