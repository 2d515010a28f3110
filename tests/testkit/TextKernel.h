//===- TextKernel.h - Writing hd kernels as text ----------------*- C++ -*-===//
//
// The kernels of the tests and cases not yet written with the C++ builder
// (tests/kernels), as textual hd IR (the form every front end lowers to and
// hd_module_load_ir takes): layouts as aliases at the top, arguments, and a
// body of SSA lines with fresh names.
//
//===----------------------------------------------------------------------===//
#ifndef HADRON_TESTKIT_TEXTKERNEL_H
#define HADRON_TESTKIT_TEXTKERNEL_H

#include "testkit/Layouts.h"

#include <string>
#include <utility>
#include <vector>

namespace hadron::testkit {

std::string tensor(const std::vector<int> &shape, const std::string &elem,
                   const std::string &layout);
std::string ptr(const std::string &elem);

/// One kernel in one module.
class Kernel {
public:
  Kernel(std::string name, int numWarps) : name_(std::move(name)), numWarps_(numWarps) {}
  const std::string &name() const { return name_; }
  int numWarps() const { return numWarps_; }

  /// `#alias = definition` at the top; returns "#alias".
  std::string layout(const std::string &alias, const std::string &definition);
  /// An argument; returns its SSA name. `attrs` e.g.
  /// "{hd.divisibility = 16 : i32}".
  std::string arg(const std::string &type, const std::string &attrs = "");
  std::string let(const std::string &rhs);
  std::vector<std::string> letMany(int count, const std::string &rhs);
  void line(const std::string &text);
  std::string fresh();

  std::string constI32(long long v);
  std::string constIndex(long long v);
  std::string dense(const std::string &value, const std::string &type);
  std::string splat(const std::string &scalar, const std::string &type);
  std::string programId(int axis);
  /// splat(base) + offsets, a tensor of pointers.
  std::string pointers(const std::string &base, const std::string &elem,
                       const std::string &offsets, const std::vector<int> &shape,
                       const std::string &layout);
  std::string load(const std::string &ptrs, const std::string &elem,
                   const std::vector<int> &shape, const std::string &layout,
                   const std::string &mask = "", const std::string &other = "");
  void store(const std::string &ptrs, const std::string &value, const std::string &elem,
             const std::vector<int> &shape, const std::string &layout,
             const std::string &mask = "");

  struct Tile {
    std::string offsets, mask;
  };
  /// start + arange(n), masked by < limit when limit is given.
  Tile tile1d(int n, const std::string &layout, const std::string &start,
              const std::string &limit);
  /// (row0 + i) * ld + col0 + j, masked by row < rows && col < cols when
  /// both are given.
  Tile tile2d(const std::vector<int> &shape, const std::string &layout, const std::string &row0,
              const std::string &col0, const std::string &ld, const std::string &rows,
              const std::string &cols);
  /// A combine region `^bb0(...): <body> hd.yield` for reduce/scan on one
  /// scalar operand; `op` is e.g. "arith.addf" or "arith.maxsi".
  void combine(const std::string &elem, const std::string &op);

  std::string str() const;

private:
  std::string name_;
  int numWarps_;
  std::vector<std::pair<std::string, std::string>> layouts_;
  std::vector<std::string> args_, body_;
  int next_ = 0;
};

} // namespace hadron::testkit

#endif // HADRON_TESTKIT_TEXTKERNEL_H
