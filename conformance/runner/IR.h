//===- IR.h - Writing hd kernels as text ------------------------*- C++ -*-===//
//
// Cases write their kernels as textual hd IR (the form every front end
// lowers to and hd_module_load_ir takes). Layouts are written for 32 threads
// per warp and adapted to the target's lane count by Blocked::str, so one
// list of layouts serves warp sizes 16, 32 and 64.
//
//===----------------------------------------------------------------------===//
#ifndef HADRON_CONFORMANCE_IR_H
#define HADRON_CONFORMANCE_IR_H

#include <string>
#include <utility>
#include <vector>

namespace hadron::conformance {

/// #hd.blocked written for 32 lanes.
struct Blocked {
  std::vector<int> spt, tpw, wpc, order;

  int rank() const { return static_cast<int>(spt.size()); }
  int numWarps() const;
  std::vector<int> lanesFor(unsigned lanes) const;
  /// The CTA tile along dimension d.
  int tile(int d, unsigned lanes) const;
  std::string str(unsigned lanes) const;
  /// "s4_t32_w4_o0", for case names.
  std::string name() const;
};

std::string slice(int dim, const std::string &parent);
/// A linear layout over a power-of-two `shape` whose row-major index bits,
/// taken in the order `perm`, go to registers, then lanes, then warps.
std::string linearLayout(const std::vector<int> &shape, unsigned lanes, int numWarps,
                         const std::vector<int> &perm);

std::string shapeStr(const std::vector<int> &shape);
std::string tensor(const std::vector<int> &shape, const std::string &elem,
                   const std::string &layout);
std::string ptr(const std::string &elem);
std::string list(const std::vector<int> &v);

/// One kernel in one module.
class Kernel {
public:
  Kernel(std::string name, int numWarps) : name_(std::move(name)), numWarps_(numWarps) {}
  const std::string &name() const { return name_; }
  int numWarps() const { return numWarps_; }

  /// `#alias = definition` at the top; returns "#alias".
  std::string layout(const std::string &alias, const std::string &definition);
  /// An argument; returns its SSA name.
  std::string arg(const std::string &type);
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

} // namespace hadron::conformance

#endif // HADRON_CONFORMANCE_IR_H
