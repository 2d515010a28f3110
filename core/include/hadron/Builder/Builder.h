//===- Builder.h - Write hd kernels in C++ ---------------------*- C++ -*-===//
//
// A typed front end for the hd dialect, shaped like Gluon's Python API: a
// kernel is a C++ callable whose parameters are its compile-time constants;
// calling the free functions below while it runs (a *trace*) builds the hd
// IR of one specialisation through MLIR's OpBuilder.
//
//   auto copy = jit("copy", [](Constexpr<int> BLOCK, Constexpr<Layout> layout) {
//     Tensor src = arg(pointer_type(float32), {.divisibility = 16});
//     Tensor dst = arg(pointer_type(float32), {.divisibility = 16});
//     Tensor n = arg(int32);
//     Tensor offsets = program_id(0) * BLOCK + arange(0, BLOCK, layout);
//     Tensor mask = offsets < n;
//     store(dst + offsets, load(src + offsets, mask), mask);
//   });
//   Result<Module> m = copy.specialize({.numWarps = 4}, Constexpr<int>("BLOCK", 1024),
//                                      Constexpr<Layout>("layout", Blocked{{4}, {32}, {4}, {0}}));
//   m->str();   // the module's IR text, what runtime::Device::loadIR takes
//
// Errors. Every function takes the caller's std::source_location as a
// defaulted last argument (operators get it through their Operand
// arguments). A type, shape or layout error, or an op the dialect's verifier
// rejects, stops the trace: specialize() returns an Error whose message
// starts with the user's "file:line:column" and says what was wrong
// ("file.cpp:12:7: error: +: shapes [128] and [256] differ"), never an IR
// dump. A module that specialize() returns has passed the verifier.
// (The trace unwinds with a C++ exception internal to the library; it never
// leaves specialize().)
//
// Values. A Tensor is a scalar (i32, f32, !hd.ptr<f32>, ...) or a
// distributed tile (tensor<SHAPE x T, #layout>). Arithmetic between a tile
// and a scalar or a C++ number splats the scalar; between two tiles the
// element types and layouts must match and shapes broadcast only along
// dimensions of size 1 (use convert_layout, broadcast and .to() otherwise).
// `pointer + offsets` advances pointers by elements (hd.addptr).
//
// Specialisations. Each distinct set of constants (and num_warps) is its own
// module, named by a key (copy.BLOCK_1024.layout_blocked_1f2e3d4c.w4); the
// key is in the IR text, so the runtime's kernel cache keeps them apart.
//
//===----------------------------------------------------------------------===//
#ifndef HADRON_BUILDER_BUILDER_H
#define HADRON_BUILDER_BUILDER_H

#include "hadron/Builder/Layout.h"
#include "hadron/Support/Result.h"

#include "mlir/IR/Value.h"

#include <array>
#include <functional>
#include <initializer_list>
#include <memory>
#include <optional>
#include <source_location>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

namespace mlir {
class MLIRContext;
class ModuleOp;
} // namespace mlir

namespace hadron::builder {

using SourceLoc = std::source_location;

//===----------------------------------------------------------------------===//
// Compile-time parameters
//===----------------------------------------------------------------------===//

/// A compile-time parameter: an int, a bool, a DType or a Layout, with an
/// optional name for the specialisation key. Converts to its value.
template <typename T> struct Constexpr {
  std::string name;
  T value;

  Constexpr(T v) : value(std::move(v)) {}
  /// From anything that converts to T (a Blocked for a Constexpr<Layout>).
  template <typename U, std::enable_if_t<std::is_convertible_v<U, T> &&
                                             !std::is_same_v<std::decay_t<U>, T>,
                                         int> = 0>
  Constexpr(U v) : value(T(std::move(v))) {}
  Constexpr(std::string n, T v) : name(std::move(n)), value(std::move(v)) {}
  operator const T &() const { return value; }
  const T &operator*() const { return value; }
  const T *operator->() const { return &value; }
};

/// Compile-time constants by name, the C++ form of the Python front end's
/// constexpr dict: for a kernel whose callable takes `const Constexprs &`,
/// so that a harness can hold a configuration as data.
///
///   auto fill = jit("fill", [](const Constexprs &c) {
///     Tensor offsets = arange(0, c.get<int>("BLOCK"), c.get<Layout>("layout"));
///     ...
///   });
///   fill.specialize({.numWarps = 4}, Constexprs{{"BLOCK", 1024}, {"layout", Blocked{...}}});
///
/// Entries are kept in name order: the specialisation key (name_value for
/// each, fill.BLOCK_1024.layout_blocked_....w4) does not depend on the order
/// they were given in, and each distinct map is its own module.
class Constexprs {
public:
  using Value = std::variant<int64_t, bool, DType, Layout>;

  Constexprs() = default;
  Constexprs(std::initializer_list<std::pair<std::string, Value>> entries);

  /// Sets `name`, replacing an earlier value.
  Constexprs &set(const std::string &name, Value value);
  bool contains(const std::string &name) const;
  const std::vector<std::pair<std::string, Value>> &entries() const { return entries_; }

  /// The value of `name` as T (an integer type, bool, DType or Layout).
  /// Inside a trace, a missing name or a value of another kind stops it with
  /// an error at the caller's location that names the constant and lists
  /// those given.
  template <typename T> T get(const std::string &name, SourceLoc loc = SourceLoc::current()) const {
    if constexpr (std::is_same_v<T, bool>)
      return std::get<bool>(lookup(name, 1, loc));
    else if constexpr (std::is_integral_v<T>)
      return static_cast<T>(std::get<int64_t>(lookup(name, 0, loc)));
    else if constexpr (std::is_same_v<T, DType>)
      return std::get<DType>(lookup(name, 2, loc));
    else
      return std::get<Layout>(lookup(name, 3, loc));
  }

private:
  /// The value of `name`, which must hold alternative `index` of Value.
  const Value &lookup(const std::string &name, size_t index, const SourceLoc &loc) const;

  std::vector<std::pair<std::string, Value>> entries_;
};

//===----------------------------------------------------------------------===//
// Values
//===----------------------------------------------------------------------===//

/// A value of the kernel being traced: a scalar or a distributed tile.
class Tensor {
public:
  Tensor() = default;
  explicit Tensor(mlir::Value v) : value_(v) {}

  mlir::Value value() const { return value_; }
  bool valid() const { return static_cast<bool>(value_); }
  /// True for a tile (a ranked tensor), false for a scalar.
  bool isTile() const;
  /// The tile's shape; empty for a scalar.
  std::vector<int64_t> shape() const;
  int rank() const { return static_cast<int>(shape().size()); }
  DType dtype() const;
  /// The tile's layout; empty for a scalar.
  Layout layout() const;
  /// "tensor<128xf32, #hd.blocked<...>>" or "i32", for messages.
  std::string typeStr() const;

  /// Converts the elements to `type` (ext/trunc, int <-> float).
  Tensor to(const DType &type, SourceLoc loc = SourceLoc::current()) const;
  /// Reinterprets the bits as `type` (same width).
  Tensor bitcast(const DType &type, SourceLoc loc = SourceLoc::current()) const;

private:
  mlir::Value value_;
};

/// An operand of an arithmetic operator or function: a Tensor or a C++
/// number (an integer becomes the other operand's integer type, i32 when
/// alone; a float the other operand's float type, f32 when alone). It
/// carries the source location of the expression it appears in.
class Operand {
public:
  Operand(const Tensor &t, SourceLoc loc = SourceLoc::current()) : tensor_(t), loc_(loc) {}
  template <typename T>
  Operand(const Constexpr<T> &c, SourceLoc loc = SourceLoc::current()) : Operand(c.value, loc) {}
  template <typename T, std::enable_if_t<std::is_arithmetic_v<T>, int> = 0>
  Operand(T v, SourceLoc loc = SourceLoc::current()) : loc_(loc) {
    if constexpr (std::is_same_v<T, bool>)
      kind_ = Kind::boolean, int_ = v;
    else if constexpr (std::is_integral_v<T>)
      kind_ = Kind::integer, int_ = static_cast<int64_t>(v);
    else
      kind_ = Kind::floating, float_ = static_cast<double>(v);
  }

  enum class Kind { tensor, integer, floating, boolean };
  Kind kind() const { return kind_; }
  const Tensor &tensor() const { return tensor_; }
  int64_t integer() const { return int_; }
  double floating() const { return float_; }
  const SourceLoc &loc() const { return loc_; }

private:
  Kind kind_ = Kind::tensor;
  Tensor tensor_;
  int64_t int_ = 0;
  double float_ = 0;
  SourceLoc loc_;
};

/// A C++ number or Tensor, or nothing (for optional operands such as a
/// load's `other`).
using OptionalOperand = std::optional<Operand>;

Tensor operator+(const Operand &a, const Operand &b);
Tensor operator-(const Operand &a, const Operand &b);
Tensor operator*(const Operand &a, const Operand &b);
/// Float division, or signed integer division rounding toward zero.
Tensor operator/(const Operand &a, const Operand &b);
/// Float remainder, or signed integer remainder.
Tensor operator%(const Operand &a, const Operand &b);
Tensor operator&(const Operand &a, const Operand &b);
Tensor operator|(const Operand &a, const Operand &b);
Tensor operator^(const Operand &a, const Operand &b);
Tensor operator<<(const Operand &a, const Operand &b);
/// Arithmetic (sign-extending) shift right.
Tensor operator>>(const Operand &a, const Operand &b);
// Comparisons give i1 values (signed for integers, ordered for floats; !=
// on floats is unordered, true when either is NaN).
Tensor operator<(const Operand &a, const Operand &b);
Tensor operator<=(const Operand &a, const Operand &b);
Tensor operator>(const Operand &a, const Operand &b);
Tensor operator>=(const Operand &a, const Operand &b);
Tensor operator==(const Operand &a, const Operand &b);
Tensor operator!=(const Operand &a, const Operand &b);
Tensor operator-(const Operand &a);

// The unsigned forms of the integer operators above, which read the
// operands' bits as unsigned numbers (Triton picks them from an unsigned
// element type; hd's integer types carry no sign, so they are named here).
Tensor udiv(const Operand &a, const Operand &b, SourceLoc loc = SourceLoc::current());
Tensor urem(const Operand &a, const Operand &b, SourceLoc loc = SourceLoc::current());
/// Logical (zero-filling) shift right.
Tensor ushr(const Operand &a, const Operand &b, SourceLoc loc = SourceLoc::current());
Tensor umax(const Operand &a, const Operand &b, SourceLoc loc = SourceLoc::current());
Tensor umin(const Operand &a, const Operand &b, SourceLoc loc = SourceLoc::current());
Tensor ult(const Operand &a, const Operand &b, SourceLoc loc = SourceLoc::current());
Tensor ule(const Operand &a, const Operand &b, SourceLoc loc = SourceLoc::current());
Tensor ugt(const Operand &a, const Operand &b, SourceLoc loc = SourceLoc::current());
Tensor uge(const Operand &a, const Operand &b, SourceLoc loc = SourceLoc::current());
/// Floats: true where either operand is NaN.
Tensor unordered(const Operand &a, const Operand &b, SourceLoc loc = SourceLoc::current());
/// Signed integer division rounding toward negative infinity (Python's
/// `//`) and toward positive infinity.
Tensor floordiv(const Operand &a, const Operand &b, SourceLoc loc = SourceLoc::current());
Tensor ceildiv(const Operand &a, const Operand &b, SourceLoc loc = SourceLoc::current());
/// The number of set bits of each integer element.
Tensor popcount(const Tensor &x, SourceLoc loc = SourceLoc::current());
/// x.to(type) with integers read or written as unsigned: zero-extends
/// (extui), converts unsigned integers to floats (uitofp) and floats to
/// unsigned integers (fptoui); narrowing and float-to-float as .to().
Tensor to_unsigned(const Tensor &x, const DType &type, SourceLoc loc = SourceLoc::current());

//===----------------------------------------------------------------------===//
// Kernel arguments and program ids
//===----------------------------------------------------------------------===//

struct ArgOptions {
  /// Promise that the pointer or integer is a multiple of this
  /// (hd.divisibility); 0: no promise.
  int divisibility = 0;
};

/// Appends an argument of `type` to the kernel and returns it.
Tensor arg(const DType &type, ArgOptions options = {}, SourceLoc loc = SourceLoc::current());

Tensor program_id(int axis, SourceLoc loc = SourceLoc::current());
Tensor num_programs(int axis, SourceLoc loc = SourceLoc::current());

//===----------------------------------------------------------------------===//
// Creating tiles
//===----------------------------------------------------------------------===//

/// start, ..., end - 1 as an i32 tile of `layout` (end - start a power of two).
Tensor arange(int start, int end, const Layout &layout, SourceLoc loc = SourceLoc::current());
/// A tile of `shape` with every element `value` (a number, or a scalar
/// Tensor of type `type`).
Tensor full(const std::vector<int64_t> &shape, const Operand &value, const DType &type,
            const Layout &layout, SourceLoc loc = SourceLoc::current());
/// A scalar constant of `type`.
Tensor constant(const Operand &value, const DType &type, SourceLoc loc = SourceLoc::current());

//===----------------------------------------------------------------------===//
// Global memory
//===----------------------------------------------------------------------===//

enum class CacheModifier { normal, cache_all, cache_global, streaming, no_cache, write_back,
                           write_through };
enum class EvictionPolicy { normal, evict_first, evict_last };

struct LoadOptions {
  CacheModifier cache = CacheModifier::normal;
  EvictionPolicy evict = EvictionPolicy::normal;
  bool isVolatile = false;
};
struct StoreOptions {
  CacheModifier cache = CacheModifier::normal;
  EvictionPolicy evict = EvictionPolicy::normal;
};

/// Loads through `pointer` (a pointer or a tile of pointers) where `mask`
/// is set; masked-off elements take `other` (a number or a Tensor).
Tensor load(const Tensor &pointer, const Tensor &mask = {}, const OptionalOperand &other = {},
            LoadOptions options = {}, SourceLoc loc = SourceLoc::current());
void store(const Tensor &pointer, const Operand &value, const Tensor &mask = {},
           StoreOptions options = {}, SourceLoc loc = SourceLoc::current());

enum class MemSemantic { relaxed, acquire, release, acq_rel };
enum class MemScope { cta, gpu, system };
struct AtomicOptions {
  MemSemantic sem = MemSemantic::acq_rel;
  MemScope scope = MemScope::gpu;
};

// Atomic read-modify-writes; each returns the old values. The float forms
// (fadd, fmax, fmin) are picked from the element type.
Tensor atomic_add(const Tensor &pointer, const Operand &value, const Tensor &mask = {},
                  AtomicOptions options = {}, SourceLoc loc = SourceLoc::current());
Tensor atomic_max(const Tensor &pointer, const Operand &value, const Tensor &mask = {},
                  AtomicOptions options = {}, SourceLoc loc = SourceLoc::current());
Tensor atomic_min(const Tensor &pointer, const Operand &value, const Tensor &mask = {},
                  AtomicOptions options = {}, SourceLoc loc = SourceLoc::current());
Tensor atomic_and(const Tensor &pointer, const Operand &value, const Tensor &mask = {},
                  AtomicOptions options = {}, SourceLoc loc = SourceLoc::current());
Tensor atomic_or(const Tensor &pointer, const Operand &value, const Tensor &mask = {},
                 AtomicOptions options = {}, SourceLoc loc = SourceLoc::current());
Tensor atomic_xor(const Tensor &pointer, const Operand &value, const Tensor &mask = {},
                  AtomicOptions options = {}, SourceLoc loc = SourceLoc::current());
Tensor atomic_xchg(const Tensor &pointer, const Operand &value, const Tensor &mask = {},
                   AtomicOptions options = {}, SourceLoc loc = SourceLoc::current());
/// Unsigned max/min: memory and value read as unsigned integers.
Tensor atomic_umax(const Tensor &pointer, const Operand &value, const Tensor &mask = {},
                   AtomicOptions options = {}, SourceLoc loc = SourceLoc::current());
Tensor atomic_umin(const Tensor &pointer, const Operand &value, const Tensor &mask = {},
                   AtomicOptions options = {}, SourceLoc loc = SourceLoc::current());
/// Where memory equals `cmp`, writes `value`; returns the old values.
Tensor atomic_cas(const Tensor &pointer, const Operand &cmp, const Operand &value,
                  AtomicOptions options = {}, SourceLoc loc = SourceLoc::current());

//===----------------------------------------------------------------------===//
// Elementwise functions
//===----------------------------------------------------------------------===//

/// Fast-math flags of the math functions and fdiv: `afn` lets the target
/// use its approximate forms (what Triton's softmax does).
enum class FastMath { none, afn };

Tensor where(const Operand &condition, const Operand &a, const Operand &b,
             SourceLoc loc = SourceLoc::current());
/// NaN-propagating for floats, signed for integers.
Tensor maximum(const Operand &a, const Operand &b, SourceLoc loc = SourceLoc::current());
Tensor minimum(const Operand &a, const Operand &b, SourceLoc loc = SourceLoc::current());
Tensor fdiv(const Operand &a, const Operand &b, FastMath fm = FastMath::none,
            SourceLoc loc = SourceLoc::current());
Tensor exp(const Tensor &x, FastMath fm = FastMath::none, SourceLoc loc = SourceLoc::current());
Tensor exp2(const Tensor &x, FastMath fm = FastMath::none, SourceLoc loc = SourceLoc::current());
/// exp and exp2 with `afn` that compute `polynomialShare` (0 to 1) of each
/// thread's registers with a polynomial on the FMA units instead of the
/// target's approximate instruction (`hd.polynomial_share`, docs/ir.md,
/// "Fast math"): a kernel bound by the special-function unit, as
/// attention's softmax is, spreads its exponentials over both units.
Tensor exp(const Tensor &x, FastMath fm, double polynomialShare,
           SourceLoc loc = SourceLoc::current());
Tensor exp2(const Tensor &x, FastMath fm, double polynomialShare,
            SourceLoc loc = SourceLoc::current());
Tensor log(const Tensor &x, FastMath fm = FastMath::none, SourceLoc loc = SourceLoc::current());
Tensor log2(const Tensor &x, FastMath fm = FastMath::none, SourceLoc loc = SourceLoc::current());
Tensor sqrt(const Tensor &x, FastMath fm = FastMath::none, SourceLoc loc = SourceLoc::current());
Tensor rsqrt(const Tensor &x, FastMath fm = FastMath::none, SourceLoc loc = SourceLoc::current());
Tensor sin(const Tensor &x, FastMath fm = FastMath::none, SourceLoc loc = SourceLoc::current());
Tensor cos(const Tensor &x, FastMath fm = FastMath::none, SourceLoc loc = SourceLoc::current());
Tensor abs(const Tensor &x, SourceLoc loc = SourceLoc::current());
/// IEEE 754 maxNum/minNum: a NaN operand gives the other one (either zero
/// may come out for -0 and +0).
Tensor maxnum(const Operand &a, const Operand &b, SourceLoc loc = SourceLoc::current());
Tensor minnum(const Operand &a, const Operand &b, SourceLoc loc = SourceLoc::current());
Tensor floor(const Tensor &x, SourceLoc loc = SourceLoc::current());
Tensor ceil(const Tensor &x, SourceLoc loc = SourceLoc::current());
/// Rounds toward zero; to the nearest integer, halves away from zero.
Tensor trunc(const Tensor &x, SourceLoc loc = SourceLoc::current());
Tensor round(const Tensor &x, SourceLoc loc = SourceLoc::current());
Tensor erf(const Tensor &x, FastMath fm = FastMath::none, SourceLoc loc = SourceLoc::current());
/// a raised to the float power b.
Tensor pow(const Operand &a, const Operand &b, FastMath fm = FastMath::none,
           SourceLoc loc = SourceLoc::current());
/// The angle of the point (x, y), y first as in C.
Tensor atan2(const Operand &y, const Operand &x, FastMath fm = FastMath::none,
             SourceLoc loc = SourceLoc::current());
/// The magnitude of a with the sign of b.
Tensor copysign(const Operand &a, const Operand &b, SourceLoc loc = SourceLoc::current());
Tensor tanh(const Tensor &x, FastMath fm = FastMath::none, SourceLoc loc = SourceLoc::current());
/// a * b + c, rounded once.
Tensor fma(const Operand &a, const Operand &b, const Operand &c,
           SourceLoc loc = SourceLoc::current());

//===----------------------------------------------------------------------===//
// Shapes and layouts
//===----------------------------------------------------------------------===//

/// Inserts a dimension of size 1 at `axis`; the operand's layout must be a
/// Slice along `axis`, whose parent becomes the result's layout.
Tensor expand_dims(const Tensor &x, int axis, SourceLoc loc = SourceLoc::current());
/// Repeats dimensions of size 1 up to `shape` (same layout).
Tensor broadcast(const Tensor &x, const std::vector<int64_t> &shape,
                 SourceLoc loc = SourceLoc::current());
/// Moves the elements to the threads `layout` assigns them to.
Tensor convert_layout(const Tensor &x, const Layout &layout, SourceLoc loc = SourceLoc::current());
/// The same elements in row-major order with another shape and layout.
Tensor reshape(const Tensor &x, const std::vector<int64_t> &shape, const Layout &layout,
               SourceLoc loc = SourceLoc::current());
/// Dimension i of the result is dimension order[i] of x.
Tensor permute(const Tensor &x, const std::vector<int> &order, const Layout &layout,
               SourceLoc loc = SourceLoc::current());
/// Stacks two tiles of one type along a new minor dimension of size 2
/// (result[..., 0] = a, result[..., 1] = b), in `layout`.
Tensor join(const Tensor &a, const Tensor &b, const Layout &layout,
            SourceLoc loc = SourceLoc::current());
/// The inverse of join: the halves of x's minor dimension (of size 2), each
/// in `layout`.
std::pair<Tensor, Tensor> split(const Tensor &x, const Layout &layout,
                                SourceLoc loc = SourceLoc::current());

//===----------------------------------------------------------------------===//
// Reductions and scans
//===----------------------------------------------------------------------===//

/// Combines an accumulator and a new element (or several of each, for a
/// multi-operand reduction) into the new accumulator.
using Combine = std::function<Tensor(Tensor, Tensor)>;
using CombineMany = std::function<std::vector<Tensor>(std::vector<Tensor>, std::vector<Tensor>)>;

/// Reduces along `axis`: a rank-1 tile gives a scalar, otherwise a tile
/// whose layout is Slice{axis, x.layout()}.
Tensor reduce(const Tensor &x, int axis, const Combine &combine,
              SourceLoc loc = SourceLoc::current());
std::vector<Tensor> reduce(const std::vector<Tensor> &xs, int axis, const CombineMany &combine,
                           SourceLoc loc = SourceLoc::current());
Tensor sum(const Tensor &x, int axis, SourceLoc loc = SourceLoc::current());
Tensor max(const Tensor &x, int axis, SourceLoc loc = SourceLoc::current());
Tensor min(const Tensor &x, int axis, SourceLoc loc = SourceLoc::current());
/// The index along `axis` (i32) of the largest element; the first one on
/// ties.
Tensor argmax(const Tensor &x, int axis, SourceLoc loc = SourceLoc::current());
Tensor argmin(const Tensor &x, int axis, SourceLoc loc = SourceLoc::current());

/// Inclusive prefix scan along `axis` (from the end when `reverse`).
Tensor associative_scan(const Tensor &x, int axis, const Combine &combine, bool reverse = false,
                        SourceLoc loc = SourceLoc::current());
Tensor cumsum(const Tensor &x, int axis, bool reverse = false,
              SourceLoc loc = SourceLoc::current());

//===----------------------------------------------------------------------===//
// Shared memory
//===----------------------------------------------------------------------===//

/// A tile in shared memory (an !hd.memdesc).
class SharedMemory {
public:
  SharedMemory() = default;
  explicit SharedMemory(mlir::Value v) : value_(v) {}
  mlir::Value value() const { return value_; }
  std::vector<int64_t> shape() const;
  DType dtype() const;
  Layout layout() const;

  /// Reads the tile into a distributed tile of `layout`.
  Tensor load(const Layout &layout, SourceLoc loc = SourceLoc::current()) const;
  /// Writes a tile of the same shape and element type.
  void store(const Tensor &value, SourceLoc loc = SourceLoc::current()) const;
  /// The view of element `i` along the leading dimension.
  SharedMemory index(const Operand &i, SourceLoc loc = SourceLoc::current()) const;
  /// A static sub-tile of `shape` at `offsets`.
  SharedMemory slice(const std::vector<int64_t> &offsets, const std::vector<int64_t> &shape,
                     SourceLoc loc = SourceLoc::current()) const;
  /// A view with dimension i = dimension order[i] of this one.
  SharedMemory permute(const std::vector<int> &order, SourceLoc loc = SourceLoc::current()) const;
  /// The whole allocation seen as a tile of another element type, shape or
  /// (shared) layout that needs no more bytes (hd.memdesc_reinterpret,
  /// Gluon's `_reinterpret`): a ring of stages reused as an epilogue's
  /// staging tile once nothing reads or writes the ring any more. This must
  /// be the allocation itself, not a view (index, slice) of it.
  SharedMemory reinterpret(const DType &type, const std::vector<int64_t> &shape,
                           const Layout &layout, SourceLoc loc = SourceLoc::current()) const;
  /// Ends the allocation's lifetime (optional: the allocator also ends it
  /// after its last use).
  void dealloc(SourceLoc loc = SourceLoc::current()) const;

private:
  mlir::Value value_;
};

/// Allocates a tile of `shape` in shared memory with a shared layout,
/// initialised from `value` when given.
SharedMemory allocate_shared_memory(const DType &type, const std::vector<int64_t> &shape,
                                    const Layout &layout, const Tensor &value = {},
                                    SourceLoc loc = SourceLoc::current());
/// Every thread of the CTA waits; orders shared-memory accesses.
void barrier(SourceLoc loc = SourceLoc::current());

/// Starts copying global memory at `pointer` into `dst`; returns a token.
Tensor async_copy(const Tensor &pointer, const SharedMemory &dst, const Tensor &mask = {},
                  const OptionalOperand &other = {}, SourceLoc loc = SourceLoc::current());
/// Closes the group of async copies started since the last commit (the
/// copies' tokens may be passed to say which); returns the group's token.
Tensor async_commit_group(const std::vector<Tensor> &copies = {},
                          SourceLoc loc = SourceLoc::current());
/// Waits until at most `pending` committed groups are in flight.
void async_wait_group(int pending, const std::vector<Tensor> &groups = {},
                      SourceLoc loc = SourceLoc::current());

//===----------------------------------------------------------------------===//
// Barriers in shared memory and bulk tensor copies
//===----------------------------------------------------------------------===//

/// A kernel argument standing for a global tensor of any shape and strides,
/// read in blocks of `block()` elements that land in shared memory laid out
/// as `layout()` (an !hd.tensor_desc; launched with an hd_tensor_desc).
class TensorDescriptor {
public:
  TensorDescriptor() = default;
  explicit TensorDescriptor(mlir::Value v) : value_(v) {}
  mlir::Value value() const { return value_; }
  std::vector<int64_t> block() const;
  DType dtype() const;
  Layout layout() const;
  /// Bytes one block copy brings (what mbarrier_expect announces).
  int64_t blockBytes() const;

private:
  mlir::Value value_;
};

/// Appends a tensor-descriptor argument to the kernel.
TensorDescriptor tensor_descriptor_arg(const DType &type, const std::vector<int64_t> &block,
                                       const Layout &sharedLayout,
                                       SourceLoc loc = SourceLoc::current());

/// `n` barriers (a [n, 1] i64 tile: index(i) is barrier i), uninitialised.
SharedMemory allocate_mbarriers(int n, SourceLoc loc = SourceLoc::current());
/// Every op below is run by the whole CTA (docs/ir.md, "Barriers and tensor
/// copies"). A barrier whose phase completes after `count` arrivals.
void mbarrier_init(const SharedMemory &barrier, int count, SourceLoc loc = SourceLoc::current());
/// Arrive once and expect `bytes` to land on the barrier (where `pred`).
void mbarrier_expect(const SharedMemory &barrier, int64_t bytes, const Tensor &pred = {},
                     SourceLoc loc = SourceLoc::current());
/// Arrive `count` times (where `pred`). With `perWarp`, each warp arrives
/// on its own once its threads are done, without waiting for the others:
/// a barrier initialised with the number of arriving warps completes when
/// the last has (how consumers hand a stage back to a producer partition).
/// With `rank` (i32), the arrival is on the barrier at the same place in
/// program `rank` of the cluster (Options::clusterDims).
void mbarrier_arrive(const SharedMemory &barrier, int count = 1, const Tensor &pred = {},
                     bool perWarp = false, const OptionalOperand &rank = {},
                     SourceLoc loc = SourceLoc::current());
/// Wait for the completion of the phase of parity `phase` (i32).
void mbarrier_wait(const SharedMemory &barrier, const Operand &phase,
                   SourceLoc loc = SourceLoc::current());
/// Start copying the block of `desc` at `coords` into `dst`, completing on
/// `barrier` (where `pred`). With `multicast` (an i32 mask of ranks in the
/// cluster), the block lands in `dst` and completes on `barrier` at the same
/// places in every program of the mask.
void async_tensor_copy(const TensorDescriptor &desc, const std::vector<Operand> &coords,
                       const SharedMemory &barrier, const SharedMemory &dst,
                       const Tensor &pred = {}, const OptionalOperand &multicast = {},
                       SourceLoc loc = SourceLoc::current());
/// Start copying `src` into the block of `desc` at `coords` (nothing is
/// written outside the tensor); `src` stays read until a wait retires it.
void async_tensor_store(const TensorDescriptor &desc, const std::vector<Operand> &coords,
                        const SharedMemory &src, SourceLoc loc = SourceLoc::current());
/// Wait until at most `pending` tensor stores still read their tiles (0:
/// all have completed).
void async_tensor_store_wait(int pending, SourceLoc loc = SourceLoc::current());
/// Order the CTA's plain shared-memory writes before asynchronous readers.
void fence_async_shared(SourceLoc loc = SourceLoc::current());
/// Every thread of every program of the cluster meets (hd.cluster_barrier):
/// after the barrier inits, before peers copy into or arrive on them, and
/// at the end of a kernel whose peers reach its shared memory.
void cluster_barrier(SourceLoc loc = SourceLoc::current());

//===----------------------------------------------------------------------===//
// Dot
//===----------------------------------------------------------------------===//

enum class InputPrecision { ieee, tf32 };

struct DotOptions {
  InputPrecision precision = InputPrecision::ieee;
  /// hd.dot {async}: a target whose matrix unit runs asynchronously (one
  /// that issues warpgroup-wide products from shared memory, say) may return
  /// before the product is complete. The result
  /// then goes through dot_wait before anything but another async dot (as
  /// its accumulator) reads it, and the shared memory the dot reads is not
  /// overwritten before a dot_wait has retired it. Elsewhere the dot
  /// completes at once (Gluon's `warpgroup_mma(..., is_async=True)`).
  bool async = false;
};

/// An operand of dot: a register tile (a Tensor in DotOperand{opIdx, L}) or
/// a tile in shared memory, which the dot reads where it stands.
class DotInput {
public:
  DotInput(const Tensor &t) : tensor_(t) {}
  DotInput(const SharedMemory &s) : shared_(s), isShared_(true) {}
  bool isShared() const { return isShared_; }
  const Tensor &tensor() const { return tensor_; }
  const SharedMemory &shared() const { return shared_; }

private:
  Tensor tensor_;
  SharedMemory shared_;
  bool isShared_ = false;
};

/// a (MxK, DotOperand{0, L}) * b (KxN, DotOperand{1, L}) + acc (MxN, L).
Tensor dot(const Tensor &a, const Tensor &b, const Tensor &acc,
           InputPrecision precision = InputPrecision::ieee, SourceLoc loc = SourceLoc::current());
/// The same with either operand (or both) in shared memory, as rank-2
/// tiles of the operands' element type: every target runs it (an FMA form
/// reads them into registers first); a target's matrix unit may read them
/// in place. An `Mma` accumulator whose instruction has no register
/// fragment for an operand (wgmma's B, and A unless the instruction text
/// gives `a`) needs that operand in shared memory, laid out as the unit
/// reads it (MatrixShared).
///
///   Tensor d = dot(aRing.index(s), bRing.index(s), acc, {.async = true});
///   acc = dot_wait(d, 1); // the previous step's dot has retired
Tensor dot(const DotInput &a, const DotInput &b, const Tensor &acc, DotOptions options = {},
           SourceLoc loc = SourceLoc::current());
/// Waits until at most `pending` async dots of the calling threads are
/// still running, the oldest retiring first, and returns `value` (an async
/// dot's result, or one derived from it), now safe to read (hd.dot_wait,
/// Gluon's `warpgroup_mma_wait(num_outstanding, deps=[value])`). Where dots
/// complete at once it returns `value` unchanged.
Tensor dot_wait(const Tensor &value, int pending, SourceLoc loc = SourceLoc::current());

//===----------------------------------------------------------------------===//
// Control flow
//===----------------------------------------------------------------------===//

using Values = std::vector<Tensor>;

/// for (i = begin; i < end; i += step), i an i32 scalar. `carried` enter the
/// first iteration; `body` returns their next values (same types); the
/// result is their values after the last iteration.
Values for_range(const Operand &begin, const Operand &end, const Operand &step,
                 const Values &carried, const std::function<Values(Tensor, Values)> &body,
                 SourceLoc loc = SourceLoc::current());
/// The same with one carried value.
Tensor for_range(const Operand &begin, const Operand &end, const Operand &step,
                 const Tensor &carried, const std::function<Tensor(Tensor, Tensor)> &body,
                 SourceLoc loc = SourceLoc::current());
/// The same with nothing carried.
void for_range(const Operand &begin, const Operand &end, const Operand &step,
               const std::function<void(Tensor)> &body, SourceLoc loc = SourceLoc::current());

namespace detail {
Values ifImpl(const Operand &condition, const std::function<Values()> &then,
              const std::function<Values()> &otherwise, const SourceLoc &loc);
template <typename F> std::function<Values()> asValues(F &f) {
  using R = std::invoke_result_t<F &>;
  if constexpr (std::is_void_v<R>)
    return [&f] { f(); return Values{}; };
  else if constexpr (std::is_same_v<std::decay_t<R>, Tensor>)
    return [&f] { return Values{f()}; };
  else
    return [&f] { return Values(f()); };
}
} // namespace detail

/// if (condition) then() else otherwise(). The branches return nothing, a
/// Tensor or Values, both the same types, which are the result. Without
/// `otherwise`, `then` must return nothing.
template <typename Then, typename Else = std::nullptr_t>
auto if_(const Operand &condition, Then &&then, Else &&otherwise = nullptr,
         SourceLoc loc = SourceLoc::current()) {
  using R = std::invoke_result_t<Then &>;
  std::function<Values()> other;
  if constexpr (!std::is_same_v<std::decay_t<Else>, std::nullptr_t>)
    other = detail::asValues(otherwise);
  Values results = detail::ifImpl(condition, detail::asValues(then), other, loc);
  if constexpr (std::is_same_v<std::decay_t<R>, Tensor>)
    return results.front();
  else if constexpr (!std::is_void_v<R>)
    return results;
}

/// while (condition(values)) values = body(values); returns the values.
Values while_(const Values &init, const std::function<Tensor(Values)> &condition,
              const std::function<Values(Values)> &body, SourceLoc loc = SourceLoc::current());

//===----------------------------------------------------------------------===//
// Warp specialisation
//===----------------------------------------------------------------------===//

/// A worker partition: its warps (a power of two) and the callable that
/// builds its region.
struct Partition {
  int numWarps = 1;
  std::function<void()> body;
  /// Registers a thread for this partition (hd.warp_specialize `regs`); 0:
  /// none asked for (then no region may ask).
  int numRegs = 0;
};

/// Runs regions at the same time on disjoint groups of warps
/// (hd.warp_specialize, Gluon's gl.warp_specialize): `defaultPartition` on
/// the kernel's num_warps warps, each worker on the next `numWarps` warps.
/// Each callable builds its region while it runs. Inside a region its warps
/// are the program as far as its ops can tell: layouts span num_warps()
/// warps (the region's), barrier() waits for the region's warps, and the
/// mbarrier and tensor-copy ops are the region's. Regions read scalars,
/// pointers and shared memory defined above; a worker never reads a tile
/// defined above (other warps hold it). They talk through shared memory
/// ordered by mbarriers, and all meet again after the call.
///
///   SharedMemory ring = allocate_shared_memory(float32, {2, 128}, shared);
///   SharedMemory full = allocate_mbarriers(2), empty = allocate_mbarriers(2);
///   ... mbarrier_init each stage's full (1) and empty (num_warps()) ...
///   warp_specialize(
///       [&] { /* consumer: wait full, read the stage, arrive per warp on empty */ },
///       {{1, [&] { /* producer: wait empty, fill the stage, arrive on full */ }}});
///
/// Targets need warps that run concurrently and a barrier per region; the
/// host (a program is one thread) and targets without barriers for groups
/// of warps reject the kernel when it is compiled, saying so.
/// Each worker's `numRegs` gives register budgets (every worker or none): a
/// producer that needs few gives them to consumers that need many;
/// `defaultNumRegs` is the default partition's, or 0 for what the workers
/// leave (the target computes it). The target checks them when the kernel
/// is compiled.
void warp_specialize(const std::function<void()> &defaultPartition,
                     const std::vector<Partition> &workers, int defaultNumRegs = 0,
                     SourceLoc loc = SourceLoc::current());

namespace detail {
void warpSpecialize(const std::function<void()> &defaultPartition,
                    const std::vector<std::function<void()>> &workers,
                    const std::vector<int> &workerNumWarps, const SourceLoc &loc,
                    const std::vector<int> &regs = {});
} // namespace detail

/// The same in Gluon's argument order: each partition is called with its
/// arguments (std::tuples, unpacked), the workers given as a std::tuple of
/// callables, one warp count each.
///
///   warp_specialize(std::tuple(ring, full, empty), consume,
///                   std::tuple(src, ring, full, empty), std::tuple(produce), {1});
template <typename DefaultArgs, typename DefaultFn, typename WorkerArgs, typename... WorkerFns>
void warp_specialize(const DefaultArgs &defaultArgs, DefaultFn &&defaultPartition,
                     const WorkerArgs &workerArgs, const std::tuple<WorkerFns...> &workerPartitions,
                     const std::vector<int> &workerNumWarps, SourceLoc loc = SourceLoc::current()) {
  std::vector<std::function<void()>> workers;
  std::apply(
      [&](const auto &...fn) {
        (workers.push_back([&fn, &workerArgs] { std::apply(fn, workerArgs); }), ...);
      },
      workerPartitions);
  detail::warpSpecialize([&] { std::apply(defaultPartition, defaultArgs); }, workers,
                         workerNumWarps, loc);
}

/// The warps of the region being built: the kernel's num_warps, or inside a
/// warp_specialize partition that partition's.
unsigned num_warps(SourceLoc loc = SourceLoc::current());

//===----------------------------------------------------------------------===//
// Debugging and hints
//===----------------------------------------------------------------------===//

void device_print(const std::string &prefix, const Values &values, bool hex = false,
                  SourceLoc loc = SourceLoc::current());
void device_assert(const Operand &condition, const std::string &message,
                   SourceLoc loc = SourceLoc::current());
/// Promises that each element of x is a multiple of divisors[d] along d.
Tensor multiple_of(const Tensor &x, const std::vector<int> &divisors,
                   SourceLoc loc = SourceLoc::current());
void assume(const Operand &condition, SourceLoc loc = SourceLoc::current());

//===----------------------------------------------------------------------===//
// Kernels, constants and specialisation
//===----------------------------------------------------------------------===//

/// What a specialisation is built for besides its constants.
struct Options {
  /// Warps per program: the module's hd.num_warps.
  unsigned numWarps = 4;
  /// Programs per cluster along x, y, z (hd.cluster_dims): programs of a
  /// cluster run at once and reach each other's shared memory (multicast
  /// copies, arrivals with a rank). {1, 1, 1}: no clusters.
  std::array<unsigned, 3> clusterDims{1, 1, 1};
};

/// One specialisation: an MLIR module holding the kernel, in a context of
/// its own.
class Module {
public:
  /// The specialisation key, also the module's symbol name.
  const std::string &key() const;
  /// The kernel function's name (the same for every specialisation).
  const std::string &kernelName() const;
  /// The IR text (what runtime::Device::loadIR takes).
  std::string str() const;
  mlir::ModuleOp op() const;

  struct State;
  explicit Module(std::shared_ptr<State> state) : state_(std::move(state)) {}

private:
  std::shared_ptr<State> state_;
};

namespace detail {
std::string keyPart(int v);
std::string keyPart(unsigned v);
std::string keyPart(int64_t v);
std::string keyPart(bool v);
std::string keyPart(const DType &v);
std::string keyPart(const Layout &v);
template <typename T> std::string keyPart(const Constexpr<T> &c) {
  std::string value = keyPart(c.value);
  return c.name.empty() ? value : c.name + "_" + value;
}
/// NAME_value for each entry, dot-separated.
std::string keyPart(const Constexprs &c);
/// Builds the module `key` for kernel `name` by running `body`.
Result<Module> trace(const std::string &name, const std::string &key, const Options &options,
                     const SourceLoc &definedAt, const std::function<void()> &body);
std::string specialisationKey(const std::string &name, const Options &options,
                              const std::vector<std::string> &parts);
} // namespace detail

/// A kernel definition: a name and a callable taking the constants.
template <typename F> class KernelDef {
public:
  KernelDef(std::string name, F fn, SourceLoc definedAt)
      : name_(std::move(name)), fn_(std::move(fn)), definedAt_(definedAt) {}

  const std::string &name() const { return name_; }

  /// Traces the callable with these constants (Constexpr<T> or plain
  /// values, converted to its parameters).
  template <typename... Cs> Result<Module> specialize(const Options &options, Cs &&...cs) const {
    std::string key = detail::specialisationKey(name_, options, {detail::keyPart(cs)...});
    return detail::trace(name_, key, options, definedAt_, [&] { fn_(cs...); });
  }

private:
  std::string name_;
  F fn_;
  SourceLoc definedAt_;
};

/// Defines a kernel: `fn` takes the constants and builds the body.
template <typename F>
KernelDef<std::decay_t<F>> jit(std::string name, F &&fn, SourceLoc loc = SourceLoc::current()) {
  return KernelDef<std::decay_t<F>>(std::move(name), std::forward<F>(fn), loc);
}

//===----------------------------------------------------------------------===//
// Front ends in other languages
//===----------------------------------------------------------------------===//
//
// The Python package (python/) drives these same functions from an
// interpreter. Its users' code is not C++, so the C++ caller's location
// means nothing to them; and a trace error must come back at the call that
// made it, so that the interpreter unwinds its own frames before the trace
// ends.

/// A location in the user's source, given as data.
struct UserLocation {
  std::string file; ///< Empty: none.
  unsigned line = 0;
  unsigned column = 0;
};

/// From now on, on this thread, builder calls report their errors at `loc`
/// and give the ops they build its location, instead of their C++ caller's;
/// a kernel traced while it is set is defined at it. An empty `loc.file`
/// goes back to the C++ callers' locations.
void set_user_location(UserLocation loc);

/// Runs `fn`, which makes builder calls inside a trace, and returns the
/// message of the trace error it stopped with ("file:line:col: error: ..."),
/// or nothing when it completed. The IR `fn` built before the error stays;
/// the caller is expected to end the trace.
std::optional<std::string> catch_trace_error(const std::function<void()> &fn);

} // namespace hadron::builder

#endif // HADRON_BUILDER_BUILDER_H
