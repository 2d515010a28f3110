//===- Ops.cpp - Arithmetic, memory, shape and reduction ops --------------===//
//
// Each function checks what a user gets wrong most (element types, shapes,
// layouts) and says it in the user's terms, then builds the op and runs its
// verifier, which catches the rest.
//
//===----------------------------------------------------------------------===//

#include "Trace.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"

#include <optional>

using namespace mlir;

namespace hadron::builder {

using detail::shapeStr;
using detail::str;
using detail::Trace;

namespace {

//===----------------------------------------------------------------------===//
// Operands: numbers become constants, scalars meet tiles
//===----------------------------------------------------------------------===//

bool isFloatType(Type t) { return isa<FloatType>(getElementTypeOrSelf(t)); }
bool isIntType(Type t) { return isa<IntegerType>(getElementTypeOrSelf(t)); }
bool isPtrType(Type t) { return isa<hd::PointerType>(getElementTypeOrSelf(t)); }

std::string describe(const Operand &o) {
  switch (o.kind()) {
  case Operand::Kind::tensor:
    return o.tensor().typeStr();
  case Operand::Kind::integer:
    return "the integer " + std::to_string(o.integer());
  case Operand::Kind::floating:
    return "the number " + std::to_string(o.floating());
  case Operand::Kind::boolean:
    return o.integer() ? "true" : "false";
  }
  return "?";
}

Value requireTensor(Trace &t, const Tensor &x, const SourceLoc &loc, const std::string &what) {
  if (!x.valid())
    t.fail(loc, what, "the operand is an empty Tensor (declared but never assigned)");
  return x.value();
}

/// The attribute of number `o` as an element of `elem`.
TypedAttr numberAttr(Trace &t, const Operand &o, Type elem, const SourceLoc &loc,
                     const std::string &what) {
  if (auto f = dyn_cast<FloatType>(elem)) {
    double v = o.kind() == Operand::Kind::floating ? o.floating() : double(o.integer());
    return FloatAttr::get(f, v);
  }
  if (auto i = dyn_cast<IntegerType>(elem)) {
    if (o.kind() == Operand::Kind::floating)
      t.fail(loc, what,
             describe(o) + " is not an integer, and the other operand is " + str(elem) +
                 "; write an integer or convert with .to(float32)");
    return IntegerAttr::get(i, o.integer());
  }
  t.fail(loc, what, describe(o) + " cannot be a " + str(elem) + " value");
}

/// A constant of `type` (a scalar type or a tile type) holding number `o`.
Value constantOf(Trace &t, const Operand &o, Type type, const SourceLoc &loc,
                 const std::string &what) {
  TypedAttr element = numberAttr(t, o, getElementTypeOrSelf(type), loc, what);
  TypedAttr attr = element;
  if (auto tile = dyn_cast<RankedTensorType>(type))
    attr = DenseElementsAttr::get(tile, element);
  return arith::ConstantOp::create(t.b, t.at(loc), attr).getResult();
}

/// Brings `v` (a scalar or a tile) to the shape and layout of tile type
/// `like` (keeping its element type): splats a scalar, broadcasts size-1
/// dimensions.
Value shapeLike(Trace &t, Value v, RankedTensorType like, const SourceLoc &loc,
                const std::string &what) {
  Type elem = getElementTypeOrSelf(v.getType());
  auto target = RankedTensorType::get(like.getShape(), elem, like.getEncoding());
  auto tile = dyn_cast<RankedTensorType>(v.getType());
  if (!tile)
    return t.checked(hd::SplatOp::create(t.b, t.at(loc), target, v), loc, what).getResult();
  if (tile.getShape() == like.getShape())
    return v;
  return t.checked(hd::BroadcastOp::create(t.b, t.at(loc), target, v), loc, what).getResult();
}

/// The common tile type of two values' shapes (scalars take the other's),
/// with `elem` as the element type; null when both are scalars.
RankedTensorType commonShape(Trace &t, Value a, Value b, const SourceLoc &loc,
                             const std::string &what) {
  auto ta = dyn_cast<RankedTensorType>(a.getType());
  auto tb = dyn_cast<RankedTensorType>(b.getType());
  if (!ta || !tb)
    return ta ? ta : tb;
  if (ta.getEncoding() != tb.getEncoding())
    t.fail(loc, what,
           "the operands' layouts differ: " + str(ta.getEncoding()) + " and " +
               str(tb.getEncoding()) + "; bring one to the other's with convert_layout");
  if (ta.getRank() != tb.getRank())
    t.fail(loc, what,
           "shapes " + shapeStr(ta.getShape()) + " and " + shapeStr(tb.getShape()) +
               " have different ranks");
  SmallVector<int64_t> shape;
  for (int64_t d = 0; d < ta.getRank(); ++d) {
    int64_t x = ta.getDimSize(d), y = tb.getDimSize(d);
    if (x != y && x != 1 && y != 1)
      t.fail(loc, what,
             "shapes " + shapeStr(ta.getShape()) + " and " + shapeStr(tb.getShape()) +
                 " differ (dimension " + std::to_string(d) + ": " + std::to_string(x) + " vs " +
                 std::to_string(y) + ")");
    shape.push_back(std::max(x, y));
  }
  return RankedTensorType::get(shape, ta.getElementType(), ta.getEncoding());
}

/// Both operands as values of one type: numbers take the other's element
/// type (i32 or f32 when both are numbers), scalars are splat to the other's
/// tile, size-1 dimensions broadcast.
std::pair<Value, Value> unify(Trace &t, const Operand &a, const Operand &b, const SourceLoc &loc,
                              const std::string &what) {
  bool ta = a.kind() == Operand::Kind::tensor, tb = b.kind() == Operand::Kind::tensor;
  Value va = ta ? requireTensor(t, a.tensor(), loc, what) : Value();
  Value vb = tb ? requireTensor(t, b.tensor(), loc, what) : Value();
  if (ta && tb) {
    Type ea = getElementTypeOrSelf(va.getType()), eb = getElementTypeOrSelf(vb.getType());
    if (ea != eb)
      t.fail(loc, what,
             "mismatched element types " + str(ea) + " and " + str(eb) +
                 "; convert one with .to(...)");
    if (RankedTensorType shape = commonShape(t, va, vb, loc, what))
      return {shapeLike(t, va, shape, loc, what), shapeLike(t, vb, shape, loc, what)};
    return {va, vb};
  }
  if (!ta && !tb) {
    bool isFloat = a.kind() == Operand::Kind::floating || b.kind() == Operand::Kind::floating;
    Type elem = isFloat ? Type(t.b.getF32Type()) : Type(t.b.getI32Type());
    return {constantOf(t, a, elem, loc, what), constantOf(t, b, elem, loc, what)};
  }
  Value known = ta ? va : vb;
  Value number = constantOf(t, ta ? b : a, known.getType(), loc, what);
  return ta ? std::make_pair(known, number) : std::make_pair(number, known);
}

/// Fails unless `v`'s elements are integers or floats (per `allowFloat`,
/// `allowInt`).
void requireKind(Trace &t, Value v, bool allowInt, bool allowFloat, const SourceLoc &loc,
                 const std::string &what) {
  Type e = getElementTypeOrSelf(v.getType());
  bool ok = (allowInt && isa<IntegerType>(e)) || (allowFloat && isa<FloatType>(e));
  if (!ok)
    t.fail(loc, what,
           std::string("needs ") +
               (allowInt && allowFloat ? "integer or float"
                : allowInt             ? "integer"
                                       : "float") +
               " operands, got " + str(v.getType()));
}

/// IntOp on integers, FloatOp on floats (void: integers only).
template <typename IntOp, typename FloatOp>
Tensor arith2(const Operand &a, const Operand &b, const std::string &what, const SourceLoc &loc) {
  Trace &t = Trace::current(loc);
  auto [x, y] = unify(t, a, b, loc, what);
  Location l = t.at(loc);
  if (isFloatType(x.getType())) {
    if constexpr (std::is_same_v<FloatOp, void>)
      t.fail(loc, what, "needs integer operands, got " + str(x.getType()));
    else
      return Tensor(t.checked(FloatOp::create(t.b, l, x, y), loc, what).getResult());
  }
  if (!isIntType(x.getType()))
    t.fail(loc, what, "needs integer or float operands, got " + str(x.getType()));
  return Tensor(t.checked(IntOp::create(t.b, l, x, y), loc, what).getResult());
}

Tensor compare(const Operand &a, const Operand &b, arith::CmpIPredicate ip,
               arith::CmpFPredicate fp, const std::string &what) {
  const SourceLoc &loc = a.loc();
  Trace &t = Trace::current(loc);
  auto [x, y] = unify(t, a, b, loc, what);
  Location l = t.at(loc);
  if (isFloatType(x.getType()))
    return Tensor(t.checked(arith::CmpFOp::create(t.b, l, fp, x, y), loc, what).getResult());
  requireKind(t, x, true, false, loc, what);
  return Tensor(t.checked(arith::CmpIOp::create(t.b, l, ip, x, y), loc, what).getResult());
}

/// ptr + offset, either side a scalar or a tile.
Tensor addptr(Trace &t, const Operand &ptrOperand, const Operand &offOperand,
              const SourceLoc &loc) {
  const std::string what = "+";
  Value ptr = requireTensor(t, ptrOperand.tensor(), loc, what);
  Value off;
  if (offOperand.kind() == Operand::Kind::tensor) {
    off = requireTensor(t, offOperand.tensor(), loc, what);
    if (!isIntType(off.getType()))
      t.fail(loc, what,
             "a pointer advances by integer offsets, got " + str(off.getType()));
  } else {
    off = constantOf(t, offOperand, t.b.getI32Type(), loc, what);
  }
  if (RankedTensorType shape = commonShape(t, ptr, off, loc, what)) {
    ptr = shapeLike(t, ptr, shape, loc, what);
    off = shapeLike(t, off, shape, loc, what);
  }
  return Tensor(
      t.checked(hd::AddPtrOp::create(t.b, t.at(loc), ptr.getType(), ptr, off), loc, what)
          .getResult());
}

bool isPointerOperand(const Operand &o) {
  return o.kind() == Operand::Kind::tensor && o.tensor().valid() &&
         isPtrType(o.tensor().value().getType());
}

} // namespace

//===----------------------------------------------------------------------===//
// Operators
//===----------------------------------------------------------------------===//

Tensor operator+(const Operand &a, const Operand &b) {
  if (isPointerOperand(a) || isPointerOperand(b)) {
    Trace &t = Trace::current(a.loc());
    if (isPointerOperand(a) && isPointerOperand(b))
      t.fail(a.loc(), "+", "cannot add two pointers");
    return isPointerOperand(a) ? addptr(t, a, b, a.loc()) : addptr(t, b, a, a.loc());
  }
  return arith2<arith::AddIOp, arith::AddFOp>(a, b, "+", a.loc());
}
Tensor operator-(const Operand &a, const Operand &b) {
  return arith2<arith::SubIOp, arith::SubFOp>(a, b, "-", a.loc());
}
Tensor operator*(const Operand &a, const Operand &b) {
  return arith2<arith::MulIOp, arith::MulFOp>(a, b, "*", a.loc());
}
Tensor operator/(const Operand &a, const Operand &b) {
  return arith2<arith::DivSIOp, arith::DivFOp>(a, b, "/", a.loc());
}
Tensor operator%(const Operand &a, const Operand &b) {
  return arith2<arith::RemSIOp, arith::RemFOp>(a, b, "%", a.loc());
}
Tensor operator&(const Operand &a, const Operand &b) {
  return arith2<arith::AndIOp, void>(a, b, "&", a.loc());
}
Tensor operator|(const Operand &a, const Operand &b) {
  return arith2<arith::OrIOp, void>(a, b, "|", a.loc());
}
Tensor operator^(const Operand &a, const Operand &b) {
  return arith2<arith::XOrIOp, void>(a, b, "^", a.loc());
}
Tensor operator<<(const Operand &a, const Operand &b) {
  return arith2<arith::ShLIOp, void>(a, b, "<<", a.loc());
}
Tensor operator>>(const Operand &a, const Operand &b) {
  return arith2<arith::ShRSIOp, void>(a, b, ">>", a.loc());
}
Tensor operator<(const Operand &a, const Operand &b) {
  return compare(a, b, arith::CmpIPredicate::slt, arith::CmpFPredicate::OLT, "<");
}
Tensor operator<=(const Operand &a, const Operand &b) {
  return compare(a, b, arith::CmpIPredicate::sle, arith::CmpFPredicate::OLE, "<=");
}
Tensor operator>(const Operand &a, const Operand &b) {
  return compare(a, b, arith::CmpIPredicate::sgt, arith::CmpFPredicate::OGT, ">");
}
Tensor operator>=(const Operand &a, const Operand &b) {
  return compare(a, b, arith::CmpIPredicate::sge, arith::CmpFPredicate::OGE, ">=");
}
Tensor operator==(const Operand &a, const Operand &b) {
  return compare(a, b, arith::CmpIPredicate::eq, arith::CmpFPredicate::OEQ, "==");
}
Tensor operator!=(const Operand &a, const Operand &b) {
  return compare(a, b, arith::CmpIPredicate::ne, arith::CmpFPredicate::UNE, "!=");
}

Tensor udiv(const Operand &a, const Operand &b, SourceLoc loc) {
  return arith2<arith::DivUIOp, void>(a, b, "udiv", loc);
}
Tensor urem(const Operand &a, const Operand &b, SourceLoc loc) {
  return arith2<arith::RemUIOp, void>(a, b, "urem", loc);
}
Tensor ushr(const Operand &a, const Operand &b, SourceLoc loc) {
  return arith2<arith::ShRUIOp, void>(a, b, "ushr", loc);
}
Tensor umax(const Operand &a, const Operand &b, SourceLoc loc) {
  return arith2<arith::MaxUIOp, void>(a, b, "umax", loc);
}
Tensor umin(const Operand &a, const Operand &b, SourceLoc loc) {
  return arith2<arith::MinUIOp, void>(a, b, "umin", loc);
}
Tensor floordiv(const Operand &a, const Operand &b, SourceLoc loc) {
  return arith2<arith::FloorDivSIOp, void>(a, b, "floordiv", loc);
}
Tensor ceildiv(const Operand &a, const Operand &b, SourceLoc loc) {
  return arith2<arith::CeilDivSIOp, void>(a, b, "ceildiv", loc);
}

namespace {

Tensor compareInt(const Operand &a, const Operand &b, arith::CmpIPredicate p,
                  const std::string &what, const SourceLoc &loc) {
  Trace &t = Trace::current(loc);
  auto [x, y] = unify(t, a, b, loc, what);
  requireKind(t, x, true, false, loc, what);
  return Tensor(t.checked(arith::CmpIOp::create(t.b, t.at(loc), p, x, y), loc, what).getResult());
}

} // namespace

Tensor ult(const Operand &a, const Operand &b, SourceLoc loc) {
  return compareInt(a, b, arith::CmpIPredicate::ult, "ult", loc);
}
Tensor ule(const Operand &a, const Operand &b, SourceLoc loc) {
  return compareInt(a, b, arith::CmpIPredicate::ule, "ule", loc);
}
Tensor ugt(const Operand &a, const Operand &b, SourceLoc loc) {
  return compareInt(a, b, arith::CmpIPredicate::ugt, "ugt", loc);
}
Tensor uge(const Operand &a, const Operand &b, SourceLoc loc) {
  return compareInt(a, b, arith::CmpIPredicate::uge, "uge", loc);
}
Tensor unordered(const Operand &a, const Operand &b, SourceLoc loc) {
  const std::string what = "unordered";
  Trace &t = Trace::current(loc);
  auto [x, y] = unify(t, a, b, loc, what);
  requireKind(t, x, false, true, loc, what);
  return Tensor(
      t.checked(arith::CmpFOp::create(t.b, t.at(loc), arith::CmpFPredicate::UNO, x, y), loc, what)
          .getResult());
}

Tensor operator-(const Operand &a) {
  const SourceLoc &loc = a.loc();
  Trace &t = Trace::current(loc);
  if (a.kind() != Operand::Kind::tensor)
    t.fail(loc, "-", "negate a number in C++, not in the kernel");
  Value x = requireTensor(t, a.tensor(), loc, "-");
  if (isFloatType(x.getType()))
    return Tensor(t.checked(arith::NegFOp::create(t.b, t.at(loc), x), loc, "-").getResult());
  return Operand(0, loc) - a;
}

//===----------------------------------------------------------------------===//
// Conversions
//===----------------------------------------------------------------------===//

Tensor Tensor::to(const DType &type, SourceLoc loc) const {
  Trace &t = Trace::current(loc);
  const std::string what = ".to(" + type.str() + ")";
  Value x = requireTensor(t, *this, loc, what);
  Type to = t.type(type, loc, what);
  Type from = getElementTypeOrSelf(x.getType());
  if (from == to)
    return *this;
  Type result = to;
  if (auto tile = dyn_cast<RankedTensorType>(x.getType()))
    result = RankedTensorType::get(tile.getShape(), to, tile.getEncoding());
  Location l = t.at(loc);
  Operation *op = nullptr;
  auto fi = dyn_cast<IntegerType>(from), ti = dyn_cast<IntegerType>(to);
  auto ff = dyn_cast<FloatType>(from), tf = dyn_cast<FloatType>(to);
  if (fi && ti)
    op = fi.getWidth() < ti.getWidth()
             ? (fi.getWidth() == 1 ? arith::ExtUIOp::create(t.b, l, result, x).getOperation()
                                   : arith::ExtSIOp::create(t.b, l, result, x).getOperation())
             : arith::TruncIOp::create(t.b, l, result, x).getOperation();
  else if (ff && tf)
    op = ff.getWidth() < tf.getWidth() ? arith::ExtFOp::create(t.b, l, result, x).getOperation()
                                       : arith::TruncFOp::create(t.b, l, result, x).getOperation();
  else if (fi && tf)
    op = fi.getWidth() == 1 ? arith::UIToFPOp::create(t.b, l, result, x).getOperation()
                            : arith::SIToFPOp::create(t.b, l, result, x).getOperation();
  else if (ff && ti)
    op = arith::FPToSIOp::create(t.b, l, result, x).getOperation();
  else
    t.fail(loc, what, "cannot convert " + str(from) + " to " + str(to));
  t.verify(op, loc, what);
  return Tensor(op->getResult(0));
}

Tensor to_unsigned(const Tensor &x, const DType &type, SourceLoc loc) {
  Trace &t = Trace::current(loc);
  const std::string what = "to_unsigned(" + type.str() + ")";
  Value v = requireTensor(t, x, loc, what);
  Type to = t.type(type, loc, what);
  Type from = getElementTypeOrSelf(v.getType());
  Type result = to;
  if (auto tile = dyn_cast<RankedTensorType>(v.getType()))
    result = RankedTensorType::get(tile.getShape(), to, tile.getEncoding());
  Location l = t.at(loc);
  auto fi = dyn_cast<IntegerType>(from), ti = dyn_cast<IntegerType>(to);
  Operation *op = nullptr;
  if (fi && ti && fi.getWidth() < ti.getWidth())
    op = arith::ExtUIOp::create(t.b, l, result, v);
  else if (fi && isa<FloatType>(to))
    op = arith::UIToFPOp::create(t.b, l, result, v);
  else if (isa<FloatType>(from) && ti)
    op = arith::FPToUIOp::create(t.b, l, result, v);
  else
    return x.to(type, loc);
  t.verify(op, loc, what);
  return Tensor(op->getResult(0));
}

Tensor Tensor::bitcast(const DType &type, SourceLoc loc) const {
  Trace &t = Trace::current(loc);
  const std::string what = ".bitcast(" + type.str() + ")";
  Value x = requireTensor(t, *this, loc, what);
  Type to = t.type(type, loc, what);
  Type from = getElementTypeOrSelf(x.getType());
  if (from.getIntOrFloatBitWidth() != to.getIntOrFloatBitWidth())
    t.fail(loc, what, str(from) + " and " + str(to) + " differ in width");
  Type result = to;
  if (auto tile = dyn_cast<RankedTensorType>(x.getType()))
    result = RankedTensorType::get(tile.getShape(), to, tile.getEncoding());
  return Tensor(
      t.checked(arith::BitcastOp::create(t.b, t.at(loc), result, x), loc, what).getResult());
}

//===----------------------------------------------------------------------===//
// Creating tiles
//===----------------------------------------------------------------------===//

Tensor arange(int start, int end, const Layout &layout, SourceLoc loc) {
  Trace &t = Trace::current(loc);
  const std::string what = "arange";
  if (end <= start)
    t.fail(loc, what, "end " + std::to_string(end) + " is not above start " + std::to_string(start));
  int64_t n = int64_t(end) - start;
  if (n & (n - 1))
    t.fail(loc, what,
           "end - start = " + std::to_string(n) + " is not a power of two (tile sizes are)");
  Attribute enc = t.layout(layout, loc, what);
  auto type = t.tileType({n}, t.b.getI32Type(), enc, loc, what);
  return Tensor(t.checked(hd::ArangeOp::create(t.b, t.at(loc), type, uint32_t(start),
                                               uint32_t(end)),
                          loc, what)
                    .getResult());
}

Tensor full(const std::vector<int64_t> &shape, const Operand &value, const DType &type,
            const Layout &layout, SourceLoc loc) {
  Trace &t = Trace::current(loc);
  const std::string what = "full";
  Type elem = t.type(type, loc, what);
  auto tile = t.tileType(shape, elem, t.layout(layout, loc, what), loc, what);
  if (value.kind() != Operand::Kind::tensor)
    return Tensor(constantOf(t, value, tile, loc, what));
  Value v = requireTensor(t, value.tensor(), loc, what);
  if (v.getType() != elem)
    t.fail(loc, what,
           "the value is " + str(v.getType()) + ", not a " + type.str() + " scalar");
  return Tensor(t.checked(hd::SplatOp::create(t.b, t.at(loc), tile, v), loc, what).getResult());
}

Tensor constant(const Operand &value, const DType &type, SourceLoc loc) {
  Trace &t = Trace::current(loc);
  if (value.kind() == Operand::Kind::tensor)
    t.fail(loc, "constant", "the value must be a C++ number");
  return Tensor(constantOf(t, value, t.type(type, loc, "constant"), loc, "constant"));
}

//===----------------------------------------------------------------------===//
// Global memory
//===----------------------------------------------------------------------===//

namespace {

Value pointerOperand(Trace &t, const Tensor &p, const SourceLoc &loc, const std::string &what) {
  Value v = requireTensor(t, p, loc, what);
  if (!isPtrType(v.getType()))
    t.fail(loc, what,
           "the pointer operand is " + str(v.getType()) +
               "; it must be a pointer or a tile of pointers (pointer + offsets)");
  return v;
}

Value maskFor(Trace &t, Value ptr, const Tensor &mask, const SourceLoc &loc,
              const std::string &what) {
  if (!mask.valid())
    return Value();
  Value m = mask.value();
  if (getElementTypeOrSelf(m.getType()) != t.b.getI1Type())
    t.fail(loc, what, "the mask is " + str(m.getType()) + "; it must hold i1 (a comparison)");
  auto pt = dyn_cast<RankedTensorType>(ptr.getType());
  auto mt = dyn_cast<RankedTensorType>(m.getType());
  if (pt && !mt)
    return shapeLike(t, m, pt, loc, what);
  if (!pt && mt)
    t.fail(loc, what, "a tile mask " + str(m.getType()) + " for a scalar pointer");
  if (pt && (pt.getShape() != mt.getShape() || pt.getEncoding() != mt.getEncoding()))
    t.fail(loc, what,
           "the mask " + str(m.getType()) + " does not match the pointers " + str(ptr.getType()) +
               " in shape and layout");
  return m;
}

/// `o` as a value of the pointee type shaped like `ptr`.
Value valueFor(Trace &t, Value ptr, const Operand &o, const SourceLoc &loc,
               const std::string &what, const std::string &role) {
  Type want = hd::getPointeeTypeLike(ptr.getType());
  if (o.kind() != Operand::Kind::tensor)
    return constantOf(t, o, want, loc, what);
  Value v = requireTensor(t, o.tensor(), loc, what);
  if (getElementTypeOrSelf(v.getType()) != getElementTypeOrSelf(want))
    t.fail(loc, what,
           role + " is " + str(v.getType()) + " but the pointers point to " +
               str(getElementTypeOrSelf(want)));
  if (auto pt = dyn_cast<RankedTensorType>(ptr.getType())) {
    auto vt = dyn_cast<RankedTensorType>(v.getType());
    if (vt && vt.getEncoding() != pt.getEncoding())
      t.fail(loc, what,
             role + " has layout " + str(vt.getEncoding()) + " but the pointers have " +
                 str(pt.getEncoding()) + "; convert_layout one of them");
    if (vt && vt.getShape() != pt.getShape() &&
        !(vt.getRank() == pt.getRank() && commonShape(t, v, ptr, loc, what).getShape() ==
                                              pt.getShape()))
      t.fail(loc, what,
             role + " has shape " + shapeStr(vt.getShape()) + " but the pointers have " +
                 shapeStr(pt.getShape()));
    return shapeLike(t, v, pt, loc, what);
  }
  if (isa<RankedTensorType>(v.getType()))
    t.fail(loc, what, role + " is a tile " + str(v.getType()) + " for a scalar pointer");
  return v;
}

} // namespace

Tensor load(const Tensor &pointer, const Tensor &mask, const OptionalOperand &other,
            LoadOptions options, SourceLoc loc) {
  Trace &t = Trace::current(loc);
  const std::string what = "load";
  Value ptr = pointerOperand(t, pointer, loc, what);
  Value m = maskFor(t, ptr, mask, loc, what);
  Value o;
  if (other) {
    if (!m)
      t.fail(loc, what, "`other` is given without a mask");
    o = valueFor(t, ptr, *other, loc, what, "`other`");
  }
  Type result = hd::getPointeeTypeLike(ptr.getType());
  auto op = hd::LoadOp::create(t.b, t.at(loc), result, ptr, m, o,
                               static_cast<hd::CacheModifier>(options.cache),
                               static_cast<hd::EvictionPolicy>(options.evict),
                               options.isVolatile);
  return Tensor(t.checked(op, loc, what).getResult());
}

void store(const Tensor &pointer, const Operand &value, const Tensor &mask, StoreOptions options,
           SourceLoc loc) {
  Trace &t = Trace::current(loc);
  const std::string what = "store";
  Value ptr = pointerOperand(t, pointer, loc, what);
  Value v = valueFor(t, ptr, value, loc, what, "the value");
  Value m = maskFor(t, ptr, mask, loc, what);
  t.checked(hd::StoreOp::create(t.b, t.at(loc), ptr, v, m,
                                static_cast<hd::CacheModifier>(options.cache),
                                static_cast<hd::EvictionPolicy>(options.evict)),
            loc, what);
}

namespace {

Tensor atomic(hd::AtomicRMWKind intKind, std::optional<hd::AtomicRMWKind> floatKind,
              const Tensor &pointer, const Operand &value, const Tensor &mask,
              AtomicOptions options, const SourceLoc &loc, const std::string &what) {
  Trace &t = Trace::current(loc);
  Value ptr = pointerOperand(t, pointer, loc, what);
  Value v = valueFor(t, ptr, value, loc, what, "the value");
  Value m = maskFor(t, ptr, mask, loc, what);
  hd::AtomicRMWKind kind = intKind;
  if (isFloatType(v.getType())) {
    if (!floatKind)
      t.fail(loc, what, "has no float form (the value is " + str(v.getType()) + ")");
    kind = *floatKind;
  }
  auto op = hd::AtomicRMWOp::create(t.b, t.at(loc), v.getType(), kind, ptr, v, m,
                                    static_cast<hd::MemSemantic>(options.sem),
                                    static_cast<hd::MemScope>(options.scope));
  return Tensor(t.checked(op, loc, what).getResult());
}

} // namespace

Tensor atomic_add(const Tensor &p, const Operand &v, const Tensor &m, AtomicOptions o,
                  SourceLoc loc) {
  return atomic(hd::AtomicRMWKind::add, hd::AtomicRMWKind::fadd, p, v, m, o, loc, "atomic_add");
}
Tensor atomic_umax(const Tensor &p, const Operand &v, const Tensor &m, AtomicOptions o,
                   SourceLoc loc) {
  return atomic(hd::AtomicRMWKind::umax, std::nullopt, p, v, m, o, loc, "atomic_umax");
}
Tensor atomic_umin(const Tensor &p, const Operand &v, const Tensor &m, AtomicOptions o,
                   SourceLoc loc) {
  return atomic(hd::AtomicRMWKind::umin, std::nullopt, p, v, m, o, loc, "atomic_umin");
}
Tensor atomic_max(const Tensor &p, const Operand &v, const Tensor &m, AtomicOptions o,
                  SourceLoc loc) {
  return atomic(hd::AtomicRMWKind::max, hd::AtomicRMWKind::fmax, p, v, m, o, loc, "atomic_max");
}
Tensor atomic_min(const Tensor &p, const Operand &v, const Tensor &m, AtomicOptions o,
                  SourceLoc loc) {
  return atomic(hd::AtomicRMWKind::min, hd::AtomicRMWKind::fmin, p, v, m, o, loc, "atomic_min");
}
Tensor atomic_and(const Tensor &p, const Operand &v, const Tensor &m, AtomicOptions o,
                  SourceLoc loc) {
  return atomic(hd::AtomicRMWKind::band, std::nullopt, p, v, m, o, loc, "atomic_and");
}
Tensor atomic_or(const Tensor &p, const Operand &v, const Tensor &m, AtomicOptions o,
                 SourceLoc loc) {
  return atomic(hd::AtomicRMWKind::bor, std::nullopt, p, v, m, o, loc, "atomic_or");
}
Tensor atomic_xor(const Tensor &p, const Operand &v, const Tensor &m, AtomicOptions o,
                  SourceLoc loc) {
  return atomic(hd::AtomicRMWKind::bxor, std::nullopt, p, v, m, o, loc, "atomic_xor");
}
Tensor atomic_xchg(const Tensor &p, const Operand &v, const Tensor &m, AtomicOptions o,
                   SourceLoc loc) {
  return atomic(hd::AtomicRMWKind::xchg, hd::AtomicRMWKind::xchg, p, v, m, o, loc,
                "atomic_xchg");
}

Tensor atomic_cas(const Tensor &pointer, const Operand &cmp, const Operand &value,
                  AtomicOptions options, SourceLoc loc) {
  Trace &t = Trace::current(loc);
  const std::string what = "atomic_cas";
  Value ptr = pointerOperand(t, pointer, loc, what);
  Value c = valueFor(t, ptr, cmp, loc, what, "`cmp`");
  Value v = valueFor(t, ptr, value, loc, what, "the value");
  auto op = hd::AtomicCASOp::create(t.b, t.at(loc), v.getType(), ptr, c, v,
                                    static_cast<hd::MemSemantic>(options.sem),
                                    static_cast<hd::MemScope>(options.scope));
  return Tensor(t.checked(op, loc, what).getResult());
}

//===----------------------------------------------------------------------===//
// Elementwise functions
//===----------------------------------------------------------------------===//

Tensor where(const Operand &condition, const Operand &a, const Operand &b, SourceLoc loc) {
  Trace &t = Trace::current(loc);
  const std::string what = "where";
  auto [x, y] = unify(t, a, b, loc, what);
  Value c;
  if (condition.kind() == Operand::Kind::tensor)
    c = requireTensor(t, condition.tensor(), loc, what);
  else
    c = constantOf(t, condition, t.b.getI1Type(), loc, what);
  if (getElementTypeOrSelf(c.getType()) != t.b.getI1Type())
    t.fail(loc, what, "the condition is " + str(c.getType()) + "; it must hold i1");
  if (RankedTensorType shape = commonShape(t, c, x, loc, what)) {
    c = shapeLike(t, c, shape, loc, what);
    x = shapeLike(t, x, shape, loc, what);
    y = shapeLike(t, y, shape, loc, what);
  }
  return Tensor(
      t.checked(arith::SelectOp::create(t.b, t.at(loc), c, x, y), loc, what).getResult());
}

Tensor maximum(const Operand &a, const Operand &b, SourceLoc loc) {
  return arith2<arith::MaxSIOp, arith::MaximumFOp>(a, b, "maximum", loc);
}

Tensor minimum(const Operand &a, const Operand &b, SourceLoc loc) {
  return arith2<arith::MinSIOp, arith::MinimumFOp>(a, b, "minimum", loc);
}

Tensor maxnum(const Operand &a, const Operand &b, SourceLoc loc) {
  Trace &t = Trace::current(loc);
  auto [x, y] = unify(t, a, b, loc, "maxnum");
  requireKind(t, x, false, true, loc, "maxnum");
  return Tensor(
      t.checked(arith::MaxNumFOp::create(t.b, t.at(loc), x, y), loc, "maxnum").getResult());
}

Tensor minnum(const Operand &a, const Operand &b, SourceLoc loc) {
  Trace &t = Trace::current(loc);
  auto [x, y] = unify(t, a, b, loc, "minnum");
  requireKind(t, x, false, true, loc, "minnum");
  return Tensor(
      t.checked(arith::MinNumFOp::create(t.b, t.at(loc), x, y), loc, "minnum").getResult());
}

namespace {

arith::FastMathFlags flags(FastMath fm) {
  return fm == FastMath::afn ? arith::FastMathFlags::afn : arith::FastMathFlags::none;
}

template <typename MathOp>
Tensor unaryFloat(const Tensor &x, FastMath fm, const SourceLoc &loc, const std::string &what,
                  std::optional<double> polynomialShare = std::nullopt) {
  Trace &t = Trace::current(loc);
  Value v = requireTensor(t, x, loc, what);
  requireKind(t, v, false, true, loc, what);
  auto op = MathOp::create(t.b, t.at(loc), v, flags(fm));
  if (polynomialShare)
    op->setAttr("hd.polynomial_share", t.b.getF32FloatAttr(float(*polynomialShare)));
  return Tensor(t.checked(op, loc, what).getResult());
}

} // namespace

Tensor fdiv(const Operand &a, const Operand &b, FastMath fm, SourceLoc loc) {
  Trace &t = Trace::current(loc);
  auto [x, y] = unify(t, a, b, loc, "fdiv");
  requireKind(t, x, false, true, loc, "fdiv");
  return Tensor(
      t.checked(arith::DivFOp::create(t.b, t.at(loc), x, y, flags(fm)), loc, "fdiv").getResult());
}

Tensor exp(const Tensor &x, FastMath fm, SourceLoc loc) {
  return unaryFloat<math::ExpOp>(x, fm, loc, "exp");
}
Tensor exp2(const Tensor &x, FastMath fm, SourceLoc loc) {
  return unaryFloat<math::Exp2Op>(x, fm, loc, "exp2");
}
Tensor exp(const Tensor &x, FastMath fm, double polynomialShare, SourceLoc loc) {
  return unaryFloat<math::ExpOp>(x, fm, loc, "exp", polynomialShare);
}
Tensor exp2(const Tensor &x, FastMath fm, double polynomialShare, SourceLoc loc) {
  return unaryFloat<math::Exp2Op>(x, fm, loc, "exp2", polynomialShare);
}
Tensor log(const Tensor &x, FastMath fm, SourceLoc loc) {
  return unaryFloat<math::LogOp>(x, fm, loc, "log");
}
Tensor log2(const Tensor &x, FastMath fm, SourceLoc loc) {
  return unaryFloat<math::Log2Op>(x, fm, loc, "log2");
}
Tensor sqrt(const Tensor &x, FastMath fm, SourceLoc loc) {
  return unaryFloat<math::SqrtOp>(x, fm, loc, "sqrt");
}
Tensor rsqrt(const Tensor &x, FastMath fm, SourceLoc loc) {
  return unaryFloat<math::RsqrtOp>(x, fm, loc, "rsqrt");
}
Tensor sin(const Tensor &x, FastMath fm, SourceLoc loc) {
  return unaryFloat<math::SinOp>(x, fm, loc, "sin");
}
Tensor cos(const Tensor &x, FastMath fm, SourceLoc loc) {
  return unaryFloat<math::CosOp>(x, fm, loc, "cos");
}

Tensor tanh(const Tensor &x, FastMath fm, SourceLoc loc) {
  return unaryFloat<math::TanhOp>(x, fm, loc, "tanh");
}
Tensor floor(const Tensor &x, SourceLoc loc) {
  return unaryFloat<math::FloorOp>(x, FastMath::none, loc, "floor");
}
Tensor ceil(const Tensor &x, SourceLoc loc) {
  return unaryFloat<math::CeilOp>(x, FastMath::none, loc, "ceil");
}

Tensor trunc(const Tensor &x, SourceLoc loc) {
  return unaryFloat<math::TruncOp>(x, FastMath::none, loc, "trunc");
}
Tensor round(const Tensor &x, SourceLoc loc) {
  return unaryFloat<math::RoundOp>(x, FastMath::none, loc, "round");
}
Tensor erf(const Tensor &x, FastMath fm, SourceLoc loc) {
  return unaryFloat<math::ErfOp>(x, fm, loc, "erf");
}

namespace {

template <typename MathOp>
Tensor binaryFloat(const Operand &a, const Operand &b, FastMath fm, const SourceLoc &loc,
                   const std::string &what) {
  Trace &t = Trace::current(loc);
  auto [x, y] = unify(t, a, b, loc, what);
  requireKind(t, x, false, true, loc, what);
  return Tensor(t.checked(MathOp::create(t.b, t.at(loc), x, y, flags(fm)), loc, what).getResult());
}

} // namespace

Tensor pow(const Operand &a, const Operand &b, FastMath fm, SourceLoc loc) {
  return binaryFloat<math::PowFOp>(a, b, fm, loc, "pow");
}
Tensor atan2(const Operand &y, const Operand &x, FastMath fm, SourceLoc loc) {
  return binaryFloat<math::Atan2Op>(y, x, fm, loc, "atan2");
}
Tensor copysign(const Operand &a, const Operand &b, SourceLoc loc) {
  return binaryFloat<math::CopySignOp>(a, b, FastMath::none, loc, "copysign");
}

Tensor popcount(const Tensor &x, SourceLoc loc) {
  Trace &t = Trace::current(loc);
  Value v = requireTensor(t, x, loc, "popcount");
  requireKind(t, v, true, false, loc, "popcount");
  return Tensor(
      t.checked(math::CtPopOp::create(t.b, t.at(loc), v), loc, "popcount").getResult());
}

Tensor abs(const Tensor &x, SourceLoc loc) {
  Trace &t = Trace::current(loc);
  Value v = requireTensor(t, x, loc, "abs");
  if (isFloatType(v.getType()))
    return Tensor(t.checked(math::AbsFOp::create(t.b, t.at(loc), v), loc, "abs").getResult());
  requireKind(t, v, true, false, loc, "abs");
  return Tensor(t.checked(math::AbsIOp::create(t.b, t.at(loc), v), loc, "abs").getResult());
}

Tensor fma(const Operand &a, const Operand &b, const Operand &c, SourceLoc loc) {
  Trace &t = Trace::current(loc);
  auto [x, y] = unify(t, a, b, loc, "fma");
  auto [xy, z] = unify(t, Operand(Tensor(x), loc), c, loc, "fma");
  if (xy != x) // c broadcast a and b further: bring y along
    y = shapeLike(t, y, cast<RankedTensorType>(xy.getType()), loc, "fma");
  requireKind(t, xy, false, true, loc, "fma");
  return Tensor(
      t.checked(math::FmaOp::create(t.b, t.at(loc), xy, y, z), loc, "fma").getResult());
}

//===----------------------------------------------------------------------===//
// Shapes and layouts
//===----------------------------------------------------------------------===//

namespace {

RankedTensorType tileOf(Trace &t, const Tensor &x, const SourceLoc &loc, const std::string &what) {
  Value v = requireTensor(t, x, loc, what);
  auto type = dyn_cast<RankedTensorType>(v.getType());
  if (!type)
    t.fail(loc, what, "needs a tile, got the scalar " + str(v.getType()));
  return type;
}

} // namespace

Tensor expand_dims(const Tensor &x, int axis, SourceLoc loc) {
  Trace &t = Trace::current(loc);
  const std::string what = "expand_dims";
  RankedTensorType type = tileOf(t, x, loc, what);
  if (axis < 0 || axis > type.getRank())
    t.fail(loc, what,
           "axis " + std::to_string(axis) + " is out of range for a tile of rank " +
               std::to_string(type.getRank()));
  auto slice = dyn_cast_or_null<hd::SliceLayoutAttr>(type.getEncoding());
  if (!slice || int(slice.getDim()) != axis)
    t.fail(loc, what,
           "along axis " + std::to_string(axis) + " the operand's layout must be Slice{" +
               std::to_string(axis) + ", parent}, got " + str(type.getEncoding()));
  SmallVector<int64_t> shape(type.getShape());
  shape.insert(shape.begin() + axis, 1);
  auto result = t.tileType(shape, type.getElementType(), slice.getParent(), loc, what);
  return Tensor(t.checked(hd::ExpandDimsOp::create(t.b, t.at(loc), result, x.value(),
                                                   uint32_t(axis)),
                          loc, what)
                    .getResult());
}

Tensor broadcast(const Tensor &x, const std::vector<int64_t> &shape, SourceLoc loc) {
  Trace &t = Trace::current(loc);
  const std::string what = "broadcast";
  RankedTensorType type = tileOf(t, x, loc, what);
  if (int64_t(shape.size()) != type.getRank())
    t.fail(loc, what,
           "cannot broadcast " + shapeStr(type.getShape()) + " to " + shapeStr(shape) +
               ": the ranks differ (expand_dims first)");
  for (size_t d = 0; d < shape.size(); ++d)
    if (type.getDimSize(d) != shape[d] && type.getDimSize(d) != 1)
      t.fail(loc, what,
             "cannot broadcast " + shapeStr(type.getShape()) + " to " + shapeStr(shape) +
                 ": dimension " + std::to_string(d) + " is neither 1 nor " +
                 std::to_string(shape[d]));
  auto result = t.tileType(shape, type.getElementType(), type.getEncoding(), loc, what);
  if (result == type)
    return x;
  return Tensor(
      t.checked(hd::BroadcastOp::create(t.b, t.at(loc), result, x.value()), loc, what)
          .getResult());
}

Tensor convert_layout(const Tensor &x, const Layout &layout, SourceLoc loc) {
  Trace &t = Trace::current(loc);
  const std::string what = "convert_layout";
  RankedTensorType type = tileOf(t, x, loc, what);
  Attribute enc = t.layout(layout, loc, what);
  auto result = t.tileType(type.getShape(), type.getElementType(), enc, loc, what);
  if (result == type)
    return x;
  return Tensor(
      t.checked(hd::ConvertLayoutOp::create(t.b, t.at(loc), result, x.value()), loc, what)
          .getResult());
}

Tensor reshape(const Tensor &x, const std::vector<int64_t> &shape, const Layout &layout,
               SourceLoc loc) {
  Trace &t = Trace::current(loc);
  const std::string what = "reshape";
  RankedTensorType type = tileOf(t, x, loc, what);
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  if (n != type.getNumElements())
    t.fail(loc, what,
           "cannot reshape " + shapeStr(type.getShape()) + " (" +
               std::to_string(type.getNumElements()) + " elements) to " + shapeStr(shape) + " (" +
               std::to_string(n) + ")");
  auto result =
      t.tileType(shape, type.getElementType(), t.layout(layout, loc, what), loc, what);
  return Tensor(
      t.checked(hd::ReshapeOp::create(t.b, t.at(loc), result, x.value()), loc, what).getResult());
}

Tensor permute(const Tensor &x, const std::vector<int> &order, const Layout &layout,
               SourceLoc loc) {
  Trace &t = Trace::current(loc);
  const std::string what = "permute";
  RankedTensorType type = tileOf(t, x, loc, what);
  if (int64_t(order.size()) != type.getRank())
    t.fail(loc, what, "the order has " + std::to_string(order.size()) +
                          " entries for a tile of rank " + std::to_string(type.getRank()));
  SmallVector<int64_t> shape;
  std::vector<bool> seen(order.size(), false);
  for (int d : order) {
    if (d < 0 || d >= int(order.size()) || seen[d])
      t.fail(loc, what, "the order is not a permutation of 0.." + std::to_string(order.size() - 1));
    seen[d] = true;
    shape.push_back(type.getDimSize(d));
  }
  auto result =
      t.tileType(shape, type.getElementType(), t.layout(layout, loc, what), loc, what);
  SmallVector<int32_t> o(order.begin(), order.end());
  return Tensor(t.checked(hd::PermuteOp::create(t.b, t.at(loc), result, x.value(), o), loc, what)
                    .getResult());
}

Tensor join(const Tensor &a, const Tensor &b, const Layout &layout, SourceLoc loc) {
  Trace &t = Trace::current(loc);
  const std::string what = "join";
  RankedTensorType ta = tileOf(t, a, loc, what), tb = tileOf(t, b, loc, what);
  if (ta != tb)
    t.fail(loc, what,
           "the operands' types differ: " + str(ta) + " and " + str(tb) +
               "; join takes two tiles of one type");
  SmallVector<int64_t> shape(ta.getShape());
  shape.push_back(2);
  auto result = t.tileType(shape, ta.getElementType(), t.layout(layout, loc, what), loc, what);
  return Tensor(
      t.checked(hd::JoinOp::create(t.b, t.at(loc), result, a.value(), b.value()), loc, what)
          .getResult());
}

std::pair<Tensor, Tensor> split(const Tensor &x, const Layout &layout, SourceLoc loc) {
  Trace &t = Trace::current(loc);
  const std::string what = "split";
  RankedTensorType type = tileOf(t, x, loc, what);
  if (type.getRank() < 2)
    t.fail(loc, what, "split needs a tile of rank 2 or more, got " + shapeStr(type.getShape()));
  if (type.getShape().back() != 2)
    t.fail(loc, what,
           "the minor dimension of " + shapeStr(type.getShape()) + " is " +
               std::to_string(type.getShape().back()) + "; split takes one of size 2");
  std::vector<int64_t> shape(type.getShape().begin(), type.getShape().end() - 1);
  auto half = t.tileType(shape, type.getElementType(), t.layout(layout, loc, what), loc, what);
  auto op = t.checked(hd::SplitOp::create(t.b, t.at(loc), half, half, x.value()), loc, what);
  return {Tensor(op.getLhs()), Tensor(op.getRhs())};
}

//===----------------------------------------------------------------------===//
// Reductions and scans
//===----------------------------------------------------------------------===//

namespace {

/// Builds the combine region of a reduce or scan: one block argument per
/// operand for the accumulators, then one per operand for the elements.
void buildCombine(Trace &t, Region &region, ValueRange srcs, const CombineMany &combine,
                  const SourceLoc &loc, const std::string &what) {
  SmallVector<Type> elems;
  for (Value s : srcs)
    elems.push_back(getElementTypeOrSelf(s.getType()));
  SmallVector<Type> argTypes(elems);
  argTypes.append(elems);
  SmallVector<Location> locs(argTypes.size(), t.at(loc));
  OpBuilder::InsertionGuard guard(t.b);
  Block *block = t.b.createBlock(&region, {}, argTypes, locs);
  std::vector<Tensor> acc, next;
  for (size_t i = 0; i < elems.size(); ++i) {
    acc.push_back(Tensor(block->getArgument(i)));
    next.push_back(Tensor(block->getArgument(i + elems.size())));
  }
  std::vector<Tensor> out = combine(acc, next);
  if (out.size() != elems.size())
    t.fail(loc, what,
           "the combine function returns " + std::to_string(out.size()) + " values for " +
               std::to_string(elems.size()) + " operands");
  SmallVector<Value> yielded;
  for (size_t i = 0; i < out.size(); ++i) {
    Value v = requireTensor(t, out[i], loc, what);
    if (v.getType() != elems[i])
      t.fail(loc, what,
             "the combine function returns " + str(v.getType()) + " for operand " +
                 std::to_string(i) + ", which holds " + str(elems[i]));
    yielded.push_back(v);
  }
  hd::YieldOp::create(t.b, t.at(loc), yielded);
}

SmallVector<Value> reduceOperands(Trace &t, const std::vector<Tensor> &xs, int axis,
                                  const SourceLoc &loc, const std::string &what) {
  if (xs.empty())
    t.fail(loc, what, "nothing to reduce");
  SmallVector<Value> srcs;
  for (const Tensor &x : xs) {
    RankedTensorType type = tileOf(t, x, loc, what);
    if (axis < 0 || axis >= type.getRank())
      t.fail(loc, what,
             "axis " + std::to_string(axis) + " is out of range for a tile of rank " +
                 std::to_string(type.getRank()));
    if (!srcs.empty()) {
      auto first = cast<RankedTensorType>(srcs.front().getType());
      if (first.getShape() != type.getShape() || first.getEncoding() != type.getEncoding())
        t.fail(loc, what,
               "the operands differ in shape or layout: " + str(first) + " and " + str(type));
    }
    srcs.push_back(x.value());
  }
  return srcs;
}

} // namespace

std::vector<Tensor> reduce(const std::vector<Tensor> &xs, int axis, const CombineMany &combine,
                           SourceLoc loc) {
  Trace &t = Trace::current(loc);
  const std::string what = "reduce";
  SmallVector<Value> srcs = reduceOperands(t, xs, axis, loc, what);
  // A rank-1 tile reduces to a scalar, others to the slice along `axis`.
  SmallVector<Type> results;
  for (Value src : srcs) {
    auto type = cast<RankedTensorType>(src.getType());
    if (type.getRank() == 1) {
      results.push_back(type.getElementType());
      continue;
    }
    auto parent = dyn_cast_or_null<hd::DistributedLayoutAttrInterface>(type.getEncoding());
    if (!parent)
      t.fail(loc, what, "the operand " + str(type) + " has no distributed layout");
    SmallVector<int64_t> shape(type.getShape());
    shape.erase(shape.begin() + axis);
    results.push_back(t.tileType(shape, type.getElementType(),
                                 hd::SliceLayoutAttr::get(t.ctx, axis, parent), loc, what));
  }
  auto op = hd::ReduceOp::create(t.b, t.at(loc), results, srcs, uint32_t(axis));
  buildCombine(t, op.getCombine(), srcs, combine, loc, what);
  t.verify(op, loc, what);
  std::vector<Tensor> out;
  for (Value r : op.getResults())
    out.push_back(Tensor(r));
  return out;
}

Tensor reduce(const Tensor &x, int axis, const Combine &combine, SourceLoc loc) {
  return reduce(
      std::vector<Tensor>{x}, axis,
      [&](std::vector<Tensor> a, std::vector<Tensor> b) {
        return std::vector<Tensor>{combine(a[0], b[0])};
      },
      loc)[0];
}

Tensor sum(const Tensor &x, int axis, SourceLoc loc) {
  return reduce(x, axis, [loc](Tensor a, Tensor b) { return Operand(a, loc) + Operand(b, loc); },
                loc);
}

Tensor max(const Tensor &x, int axis, SourceLoc loc) {
  return reduce(x, axis, [loc](Tensor a, Tensor b) { return maximum(a, b, loc); }, loc);
}

Tensor min(const Tensor &x, int axis, SourceLoc loc) {
  return reduce(x, axis, [loc](Tensor a, Tensor b) { return minimum(a, b, loc); }, loc);
}

namespace {

/// Reduces (value, index) pairs keeping the value `better` picks, and the
/// lower index on ties.
Tensor argReduce(const Tensor &x, int axis, bool wantMax, const SourceLoc &loc,
                 const std::string &what) {
  Trace &t = Trace::current(loc);
  RankedTensorType type = tileOf(t, x, loc, what);
  if (axis < 0 || axis >= type.getRank())
    t.fail(loc, what,
           "axis " + std::to_string(axis) + " is out of range for a tile of rank " +
               std::to_string(type.getRank()));
  // The index of each element along `axis`: an arange in the slice layout
  // of every other dimension, expanded and broadcast back.
  // The index of each element along `axis`: an arange in the layout with
  // every other dimension sliced away (highest first, so the lower ones keep
  // their numbers), expanded back lowest first and broadcast.
  Layout layout = Layout::fromText(str(type.getEncoding()));
  int rank = int(type.getRank());
  for (int d = rank - 1; d >= 0; --d)
    if (d != axis)
      layout = Slice{unsigned(d), layout};
  Tensor index = arange(0, int(type.getDimSize(axis)), layout, loc);
  for (int d = 0; d < rank; ++d)
    if (d != axis)
      index = expand_dims(index, d, loc);
  index = broadcast(index, std::vector<int64_t>(type.getShape().begin(), type.getShape().end()),
                    loc);
  bool isFloat = isFloatType(type);
  auto results = reduce(
      {x, index}, axis,
      [&](std::vector<Tensor> acc, std::vector<Tensor> next) {
        Operand av(acc[0], loc), nv(next[0], loc), ai(acc[1], loc), ni(next[1], loc);
        Tensor better = wantMax ? nv > av : nv < av;
        if (isFloat) // a NaN wins, as in maximumf
          better = better | ((nv != nv) & (av == av));
        Tensor tie = (nv == av) & (ni < ai);
        Tensor take = better | tie;
        return std::vector<Tensor>{where(take, nv, av, loc), where(take, ni, ai, loc)};
      },
      loc);
  return results[1];
}

} // namespace

Tensor argmax(const Tensor &x, int axis, SourceLoc loc) {
  return argReduce(x, axis, true, loc, "argmax");
}
Tensor argmin(const Tensor &x, int axis, SourceLoc loc) {
  return argReduce(x, axis, false, loc, "argmin");
}

Tensor associative_scan(const Tensor &x, int axis, const Combine &combine, bool reverse,
                        SourceLoc loc) {
  Trace &t = Trace::current(loc);
  const std::string what = "associative_scan";
  SmallVector<Value> srcs = reduceOperands(t, {x}, axis, loc, what);
  auto op = hd::ScanOp::create(t.b, t.at(loc), TypeRange{srcs[0].getType()}, srcs,
                               uint32_t(axis), reverse);
  buildCombine(
      t, op.getCombine(), srcs,
      [&](std::vector<Tensor> a, std::vector<Tensor> b) {
        return std::vector<Tensor>{combine(a[0], b[0])};
      },
      loc, what);
  t.verify(op, loc, what);
  return Tensor(op.getResult(0));
}

Tensor cumsum(const Tensor &x, int axis, bool reverse, SourceLoc loc) {
  return associative_scan(
      x, axis, [loc](Tensor a, Tensor b) { return Operand(a, loc) + Operand(b, loc); }, reverse,
      loc);
}

//===----------------------------------------------------------------------===//
// Shared memory
//===----------------------------------------------------------------------===//

namespace {
hd::MemDescType memdesc(Trace &t, const SharedMemory &s, const SourceLoc &loc,
                        const std::string &what) {
  if (!s.value())
    t.fail(loc, what, "the shared memory is empty (never allocated)");
  return cast<hd::MemDescType>(s.value().getType());
}

/// The type of a whole allocation of `shape` elements of `type` laid out as
/// `layout` (a shared layout).
hd::MemDescType allocationType(Trace &t, const DType &type, const std::vector<int64_t> &shape,
                               const Layout &layout, const SourceLoc &loc,
                               const std::string &what) {
  if (!layout.isShared())
    t.fail(loc, what,
           "needs a shared layout (Swizzled, Padded, SharedLinear, MatrixShared), got " +
               layout.str());
  Type elem = t.type(type, loc, what);
  auto enc = dyn_cast<hd::SharedLayoutAttrInterface>(t.layout(layout, loc, what));
  if (!enc)
    t.fail(loc, what, layout.str() + " is not a shared layout");
  t.takeDiagnostics();
  auto result = hd::MemDescType::getChecked([&] { return emitError(t.at(loc)); },
                                            ArrayRef<int64_t>(shape), elem, enc,
                                            ArrayRef<int64_t>(shape));
  if (!result)
    t.fail(loc, what, t.takeDiagnostics());
  return result;
}
} // namespace

SharedMemory allocate_shared_memory(const DType &type, const std::vector<int64_t> &shape,
                                    const Layout &layout, const Tensor &value, SourceLoc loc) {
  Trace &t = Trace::current(loc);
  const std::string what = "allocate_shared_memory";
  hd::MemDescType result = allocationType(t, type, shape, layout, loc, what);
  Type elem = result.getElementType();
  Value src;
  if (value.valid()) {
    RankedTensorType vt = tileOf(t, value, loc, what);
    if (vt.getShape() != ArrayRef<int64_t>(shape) || vt.getElementType() != elem)
      t.fail(loc, what,
             "the initial value " + str(vt) + " does not match the allocation " +
                 shapeStr(shape) + " of " + type.str());
    src = value.value();
  }
  auto op = hd::LocalAllocOp::create(t.b, t.at(loc), result, src);
  return SharedMemory(t.checked(op, loc, what).getResult());
}

Tensor SharedMemory::load(const Layout &layout, SourceLoc loc) const {
  Trace &t = Trace::current(loc);
  const std::string what = "SharedMemory::load";
  hd::MemDescType type = memdesc(t, *this, loc, what);
  if (layout.isShared())
    t.fail(loc, what, "needs a distributed layout for the registers, got " + layout.str());
  auto result = t.tileType(type.getShape(), type.getElementType(), t.layout(layout, loc, what),
                           loc, what);
  return Tensor(
      t.checked(hd::LocalLoadOp::create(t.b, t.at(loc), result, value_), loc, what).getResult());
}

void SharedMemory::store(const Tensor &value, SourceLoc loc) const {
  Trace &t = Trace::current(loc);
  const std::string what = "SharedMemory::store";
  hd::MemDescType type = memdesc(t, *this, loc, what);
  RankedTensorType vt = tileOf(t, value, loc, what);
  if (vt.getShape() != type.getShape())
    t.fail(loc, what,
           "the value's shape " + shapeStr(vt.getShape()) + " differs from the shared tile's " +
               shapeStr(type.getShape()));
  if (vt.getElementType() != type.getElementType())
    t.fail(loc, what,
           "the value holds " + str(vt.getElementType()) + ", the shared tile " +
               str(type.getElementType()));
  t.checked(hd::LocalStoreOp::create(t.b, t.at(loc), value.value(), value_), loc, what);
}

SharedMemory SharedMemory::index(const Operand &i, SourceLoc loc) const {
  Trace &t = Trace::current(loc);
  const std::string what = "SharedMemory::index";
  hd::MemDescType type = memdesc(t, *this, loc, what);
  if (type.getShape().size() < 2)
    t.fail(loc, what, "needs a shared tile of rank 2 or more, got " + str(type));
  Value idx = i.kind() == Operand::Kind::tensor ? requireTensor(t, i.tensor(), loc, what)
                                                : constantOf(t, i, t.b.getI32Type(), loc, what);
  if (idx.getType() != t.b.getI32Type())
    t.fail(loc, what, "the index is " + str(idx.getType()) + "; it must be an i32 scalar");
  auto result = hd::MemDescType::get(type.getShape().drop_front(), type.getElementType(),
                                     type.getEncoding(), type.getAllocShape());
  return SharedMemory(
      t.checked(hd::MemDescIndexOp::create(t.b, t.at(loc), result, value_, idx), loc, what)
          .getResult());
}

SharedMemory SharedMemory::slice(const std::vector<int64_t> &offsets,
                                 const std::vector<int64_t> &shape, SourceLoc loc) const {
  Trace &t = Trace::current(loc);
  const std::string what = "SharedMemory::slice";
  hd::MemDescType type = memdesc(t, *this, loc, what);
  if (offsets.size() != type.getShape().size() || shape.size() != type.getShape().size())
    t.fail(loc, what, "offsets and shape need one entry per dimension of " + str(type));
  auto result = hd::MemDescType::get(shape, type.getElementType(), type.getEncoding(),
                                     type.getAllocShape());
  return SharedMemory(
      t.checked(hd::MemDescSliceOp::create(t.b, t.at(loc), result, value_, offsets), loc, what)
          .getResult());
}

namespace {

/// The shared layout of a view whose dims are permuted by `order`: the same
/// memory, dims renumbered (a layout of the allocation's rank keeps its
/// leading dims).
hd::SharedLayoutAttrInterface permutedLayout(Trace &t, hd::SharedLayoutAttrInterface layout,
                                             ArrayRef<int> order, const SourceLoc &loc,
                                             const std::string &what) {
  auto renumber = [&](ArrayRef<unsigned> dims) {
    size_t lead = dims.size() - order.size();
    SmallVector<unsigned> newIndex(dims.size());
    for (size_t d = 0; d < lead; ++d)
      newIndex[d] = d;
    for (size_t i = 0; i < order.size(); ++i)
      newIndex[lead + order[i]] = lead + i;
    SmallVector<unsigned> out;
    for (unsigned d : dims)
      out.push_back(newIndex[d]);
    return out;
  };
  if (auto s = dyn_cast<hd::SwizzledSharedLayoutAttr>(layout))
    return hd::SwizzledSharedLayoutAttr::get(t.ctx, s.getVec(), s.getPerPhase(), s.getMaxPhase(),
                                             renumber(s.getOrder()));
  if (auto p = dyn_cast<hd::PaddedSharedLayoutAttr>(layout))
    return hd::PaddedSharedLayoutAttr::get(t.ctx, p.getIntervals(), p.getPaddings(),
                                           renumber(p.getOrder()));
  t.fail(loc, what, "cannot permute a view in " + str(layout) + " (Swizzled and Padded only)");
}

} // namespace

SharedMemory SharedMemory::permute(const std::vector<int> &order, SourceLoc loc) const {
  Trace &t = Trace::current(loc);
  const std::string what = "SharedMemory::permute";
  hd::MemDescType type = memdesc(t, *this, loc, what);
  size_t rank = type.getShape().size();
  std::vector<bool> seen(rank, false);
  if (order.size() != rank)
    t.fail(loc, what, "the order needs one entry per dimension of " + str(type));
  for (int d : order) {
    if (d < 0 || d >= int(rank) || seen[d])
      t.fail(loc, what, "the order is not a permutation of 0.." + std::to_string(rank - 1));
    seen[d] = true;
  }
  size_t lead = type.getAllocShape().size() - rank;
  SmallVector<int64_t> shape, alloc(type.getAllocShape().begin(),
                                    type.getAllocShape().begin() + lead);
  for (int d : order) {
    shape.push_back(type.getShape()[d]);
    alloc.push_back(type.getAllocShape()[lead + d]);
  }
  auto result = hd::MemDescType::get(
      shape, type.getElementType(),
      permutedLayout(t, type.getEncoding(), order, loc, what), alloc);
  SmallVector<int32_t> o(order.begin(), order.end());
  return SharedMemory(
      t.checked(hd::MemDescPermuteOp::create(t.b, t.at(loc), result, value_, o), loc, what)
          .getResult());
}

SharedMemory SharedMemory::reinterpret(const DType &type, const std::vector<int64_t> &shape,
                                       const Layout &layout, SourceLoc loc) const {
  Trace &t = Trace::current(loc);
  const std::string what = "SharedMemory::reinterpret";
  memdesc(t, *this, loc, what);
  hd::MemDescType result = allocationType(t, type, shape, layout, loc, what);
  return SharedMemory(
      t.checked(hd::MemDescReinterpretOp::create(t.b, t.at(loc), result, value_), loc, what)
          .getResult());
}

void SharedMemory::dealloc(SourceLoc loc) const {
  Trace &t = Trace::current(loc);
  memdesc(t, *this, loc, "SharedMemory::dealloc");
  t.checked(hd::LocalDeallocOp::create(t.b, t.at(loc), value_), loc, "SharedMemory::dealloc");
}

void barrier(SourceLoc loc) {
  Trace &t = Trace::current(loc);
  t.checked(hd::BarrierOp::create(t.b, t.at(loc)), loc, "barrier");
}

Tensor async_copy(const Tensor &pointer, const SharedMemory &dst, const Tensor &mask,
                  const OptionalOperand &other, SourceLoc loc) {
  Trace &t = Trace::current(loc);
  const std::string what = "async_copy";
  Value ptr = pointerOperand(t, pointer, loc, what);
  if (!isa<RankedTensorType>(ptr.getType()))
    t.fail(loc, what, "needs a tile of pointers, got " + str(ptr.getType()));
  memdesc(t, dst, loc, what);
  Value m = maskFor(t, ptr, mask, loc, what);
  Value o;
  if (other)
    o = valueFor(t, ptr, *other, loc, what, "`other`");
  auto op = hd::AsyncCopyOp::create(t.b, t.at(loc), hd::AsyncTokenType::get(t.ctx), ptr,
                                    dst.value(), m, o);
  return Tensor(t.checked(op, loc, what).getResult());
}

namespace {
SmallVector<Value> tokens(Trace &t, const std::vector<Tensor> &ts, const SourceLoc &loc,
                          const std::string &what) {
  SmallVector<Value> out;
  for (const Tensor &x : ts) {
    Value v = requireTensor(t, x, loc, what);
    if (!isa<hd::AsyncTokenType>(v.getType()))
      t.fail(loc, what, "expects async tokens, got " + str(v.getType()));
    out.push_back(v);
  }
  return out;
}
} // namespace

Tensor async_commit_group(const std::vector<Tensor> &copies, SourceLoc loc) {
  Trace &t = Trace::current(loc);
  const std::string what = "async_commit_group";
  auto op = hd::AsyncCommitGroupOp::create(t.b, t.at(loc), hd::AsyncTokenType::get(t.ctx),
                                           tokens(t, copies, loc, what));
  return Tensor(t.checked(op, loc, what).getResult());
}

void async_wait_group(int pending, const std::vector<Tensor> &groups, SourceLoc loc) {
  Trace &t = Trace::current(loc);
  const std::string what = "async_wait_group";
  if (pending < 0)
    t.fail(loc, what, "pending = " + std::to_string(pending) + " is negative");
  t.checked(hd::AsyncWaitOp::create(t.b, t.at(loc), hd::AsyncTokenType::get(t.ctx),
                                    tokens(t, groups, loc, what), uint32_t(pending)),
            loc, what);
}

//===----------------------------------------------------------------------===//
// Barriers in shared memory and bulk tensor copies
//===----------------------------------------------------------------------===//

namespace {
hd::TensorDescType descType(Trace &t, const TensorDescriptor &d, const SourceLoc &loc,
                            const std::string &what) {
  auto type = d.value() ? dyn_cast<hd::TensorDescType>(d.value().getType()) : nullptr;
  if (!type)
    t.fail(loc, what, "needs a TensorDescriptor (tensor_descriptor_arg)");
  return type;
}

Value barrierOf(Trace &t, const SharedMemory &bar, const SourceLoc &loc, const std::string &what) {
  hd::MemDescType type = memdesc(t, bar, loc, what);
  if (!hd::isBarrierMemDesc(type))
    t.fail(loc, what, "needs one barrier (a shared i64 tile of one element, e.g. "
                      "allocate_mbarriers(n).index(i)), got " + str(type));
  return bar.value();
}

Value predOf(Trace &t, const Tensor &pred, const SourceLoc &loc, const std::string &what) {
  if (!pred.valid())
    return Value();
  Value p = pred.value();
  if (!p.getType().isInteger(1))
    t.fail(loc, what, "the predicate is " + str(p.getType()) + "; it must be an i1 scalar");
  return p;
}
} // namespace

std::vector<int64_t> TensorDescriptor::block() const {
  auto type = cast<hd::TensorDescType>(value_.getType());
  return std::vector<int64_t>(type.getShape().begin(), type.getShape().end());
}

int64_t TensorDescriptor::blockBytes() const {
  auto type = cast<hd::TensorDescType>(value_.getType());
  int64_t n = type.getElementType().getIntOrFloatBitWidth() / 8;
  for (int64_t d : type.getShape())
    n *= d;
  return n;
}

TensorDescriptor tensor_descriptor_arg(const DType &type, const std::vector<int64_t> &block,
                                       const Layout &sharedLayout, SourceLoc loc) {
  Trace &t = Trace::current(loc);
  const std::string what = "tensor_descriptor_arg";
  if (!sharedLayout.isShared())
    t.fail(loc, what, "needs the shared layout blocks land in, got " + sharedLayout.str());
  Type elem = t.type(type, loc, what);
  auto enc = dyn_cast<hd::SharedLayoutAttrInterface>(t.layout(sharedLayout, loc, what));
  if (!enc)
    t.fail(loc, what, sharedLayout.str() + " is not a shared layout");
  t.takeDiagnostics();
  auto result = hd::TensorDescType::getChecked([&] { return emitError(t.at(loc)); }, t.ctx,
                                               ArrayRef<int64_t>(block), elem, enc);
  if (!result)
    t.fail(loc, what, t.takeDiagnostics());
  Block &entry = t.func.getBody().front();
  BlockArgument a = entry.addArgument(result, t.at(loc));
  t.divisibility.push_back(0);
  return TensorDescriptor(a);
}

SharedMemory allocate_mbarriers(int n, SourceLoc loc) {
  Trace &t = Trace::current(loc);
  if (n < 1)
    t.fail(loc, "allocate_mbarriers", std::to_string(n) + " barriers: at least one is needed");
  int64_t rows = 1;
  while (rows < n)
    rows *= 2;
  return allocate_shared_memory(int64, {rows, 1}, Swizzled{1, 1, 1, {1, 0}}, {}, loc);
}

void mbarrier_init(const SharedMemory &barrier, int count, SourceLoc loc) {
  Trace &t = Trace::current(loc);
  const std::string what = "mbarrier_init";
  Value bar = barrierOf(t, barrier, loc, what);
  if (count < 1)
    t.fail(loc, what, "count " + std::to_string(count) + " must be at least 1");
  t.checked(hd::MBarrierInitOp::create(t.b, t.at(loc), bar, uint32_t(count)), loc, what);
}

void mbarrier_expect(const SharedMemory &barrier, int64_t bytes, const Tensor &pred,
                     SourceLoc loc) {
  Trace &t = Trace::current(loc);
  const std::string what = "mbarrier_expect";
  Value bar = barrierOf(t, barrier, loc, what);
  if (bytes < 0 || bytes > INT32_MAX)
    t.fail(loc, what, std::to_string(bytes) + " bytes: must be 0 to 2^31 - 1");
  t.checked(hd::MBarrierExpectOp::create(t.b, t.at(loc), bar, uint32_t(bytes),
                                         predOf(t, pred, loc, what)),
            loc, what);
}

namespace {
/// An optional i32 scalar operand (a rank, a mask), or a null Value.
Value i32Of(Trace &t, const OptionalOperand &v, const SourceLoc &loc, const std::string &what,
            const std::string &name) {
  if (!v)
    return Value();
  Value x = v->kind() == Operand::Kind::tensor ? requireTensor(t, v->tensor(), loc, what)
                                               : constantOf(t, *v, t.b.getI32Type(), loc, what);
  if (x.getType() != t.b.getI32Type())
    t.fail(loc, what, "the " + name + " is " + str(x.getType()) + "; it must be an i32 scalar");
  return x;
}
} // namespace

void mbarrier_arrive(const SharedMemory &barrier, int count, const Tensor &pred, bool perWarp,
                     const OptionalOperand &rank, SourceLoc loc) {
  Trace &t = Trace::current(loc);
  const std::string what = "mbarrier_arrive";
  Value bar = barrierOf(t, barrier, loc, what);
  if (count < 1)
    t.fail(loc, what, "count " + std::to_string(count) + " must be at least 1");
  t.checked(hd::MBarrierArriveOp::create(t.b, t.at(loc), bar, uint32_t(count),
                                         predOf(t, pred, loc, what),
                                         i32Of(t, rank, loc, what, "rank"), perWarp),
            loc, what);
}

void mbarrier_wait(const SharedMemory &barrier, const Operand &phase, SourceLoc loc) {
  Trace &t = Trace::current(loc);
  const std::string what = "mbarrier_wait";
  Value bar = barrierOf(t, barrier, loc, what);
  Value p = phase.kind() == Operand::Kind::tensor
                ? requireTensor(t, phase.tensor(), loc, what)
                : constantOf(t, phase, t.b.getI32Type(), loc, what);
  if (p.getType() != t.b.getI32Type())
    t.fail(loc, what, "the phase is " + str(p.getType()) + "; it must be an i32 scalar");
  t.checked(hd::MBarrierWaitOp::create(t.b, t.at(loc), bar, p), loc, what);
}

namespace {
/// The i32 coordinates of a block of `type`.
SmallVector<Value> blockCoords(Trace &t, hd::TensorDescType type,
                               const std::vector<Operand> &coords, SourceLoc loc,
                               const std::string &what) {
  if (coords.size() != type.getShape().size())
    t.fail(loc, what, std::to_string(coords.size()) + " coordinates for blocks of rank " +
                          std::to_string(type.getShape().size()));
  SmallVector<Value> cs;
  for (const Operand &c : coords) {
    Value v = c.kind() == Operand::Kind::tensor ? requireTensor(t, c.tensor(), loc, what)
                                                : constantOf(t, c, t.b.getI32Type(), loc, what);
    if (v.getType() != t.b.getI32Type())
      t.fail(loc, what, "a coordinate is " + str(v.getType()) + "; it must be an i32 scalar");
    cs.push_back(v);
  }
  return cs;
}
} // namespace

void async_tensor_copy(const TensorDescriptor &desc, const std::vector<Operand> &coords,
                       const SharedMemory &barrier, const SharedMemory &dst, const Tensor &pred,
                       const OptionalOperand &multicast, SourceLoc loc) {
  Trace &t = Trace::current(loc);
  const std::string what = "async_tensor_copy";
  hd::TensorDescType type = descType(t, desc, loc, what);
  Value bar = barrierOf(t, barrier, loc, what);
  memdesc(t, dst, loc, what);
  SmallVector<Value> cs = blockCoords(t, type, coords, loc, what);
  t.checked(hd::AsyncTensorCopyOp::create(t.b, t.at(loc), desc.value(), cs, bar, dst.value(),
                                          predOf(t, pred, loc, what),
                                          i32Of(t, multicast, loc, what, "multicast mask")),
            loc, what);
}

void async_tensor_store(const TensorDescriptor &desc, const std::vector<Operand> &coords,
                        const SharedMemory &src, SourceLoc loc) {
  Trace &t = Trace::current(loc);
  const std::string what = "async_tensor_store";
  hd::TensorDescType type = descType(t, desc, loc, what);
  memdesc(t, src, loc, what);
  SmallVector<Value> cs = blockCoords(t, type, coords, loc, what);
  t.checked(hd::AsyncTensorStoreOp::create(t.b, t.at(loc), desc.value(), cs, src.value()), loc,
            what);
}

void async_tensor_store_wait(int pending, SourceLoc loc) {
  Trace &t = Trace::current(loc);
  const std::string what = "async_tensor_store_wait";
  if (pending < 0)
    t.fail(loc, what, "pending = " + std::to_string(pending) + "; it must be >= 0");
  t.checked(hd::AsyncTensorStoreWaitOp::create(t.b, t.at(loc), pending), loc, what);
}

void fence_async_shared(SourceLoc loc) {
  Trace &t = Trace::current(loc);
  t.checked(hd::FenceAsyncSharedOp::create(t.b, t.at(loc)), loc, "fence_async_shared");
}

void cluster_barrier(SourceLoc loc) {
  Trace &t = Trace::current(loc);
  t.checked(hd::ClusterBarrierOp::create(t.b, t.at(loc)), loc, "cluster_barrier");
}

//===----------------------------------------------------------------------===//
// Dot
//===----------------------------------------------------------------------===//

namespace {

/// What dot needs to know of an operand, whichever kind it is.
struct DotSide {
  Value value;
  ArrayRef<int64_t> shape;
  Type element;
  /// "a (shared memory)" or "a", for messages.
  std::string name;
};

DotSide dotSide(Trace &t, const DotInput &x, const char *name, const SourceLoc &loc,
                const std::string &what) {
  if (x.isShared()) {
    Value v = x.shared().value();
    if (!v)
      t.fail(loc, what, std::string(name) + " is an empty SharedMemory (never allocated)");
    auto type = cast<hd::MemDescType>(v.getType());
    if (type.getShape().size() != 2)
      t.fail(loc, what,
             std::string(name) + " is a shared-memory tile of shape " +
                 shapeStr(type.getShape()) + "; dot reads rank-2 tiles from shared memory" +
                 (type.getShape().size() > 2 ? " (take one with .index(i))" : ""));
    return {v, type.getShape(), type.getElementType(), std::string(name) + " (shared memory)"};
  }
  Value v = requireTensor(t, x.tensor(), loc, what);
  auto type = dyn_cast<RankedTensorType>(v.getType());
  if (!type)
    t.fail(loc, what,
           std::string(name) + " is the scalar " + str(v.getType()) +
               "; it must be a tile or a SharedMemory");
  return {v, type.getShape(), type.getElementType(), name};
}

} // namespace

Tensor dot(const Tensor &a, const Tensor &b, const Tensor &acc, InputPrecision precision,
           SourceLoc loc) {
  return dot(DotInput(a), DotInput(b), acc, DotOptions{precision, false}, loc);
}

Tensor dot(const DotInput &a, const DotInput &b, const Tensor &acc, DotOptions options,
           SourceLoc loc) {
  Trace &t = Trace::current(loc);
  const std::string what = "dot";
  DotSide sa = dotSide(t, a, "a", loc, what), sb = dotSide(t, b, "b", loc, what);
  Value c = requireTensor(t, acc, loc, what);
  auto tc = dyn_cast<RankedTensorType>(c.getType());
  if (!tc)
    t.fail(loc, what, "acc is the scalar " + str(c.getType()) + "; it must be a tile");
  if (sa.shape.size() != 2 || sb.shape.size() != 2 || tc.getRank() != 2)
    t.fail(loc, what,
           "needs rank-2 tiles, got " + shapeStr(sa.shape) + " * " + shapeStr(sb.shape) + " + " +
               shapeStr(tc.getShape()));
  if (sa.shape[1] != sb.shape[0] || sa.shape[0] != tc.getDimSize(0) ||
      sb.shape[1] != tc.getDimSize(1))
    t.fail(loc, what,
           "shapes do not chain: " + sa.name + " " + shapeStr(sa.shape) + " * " + sb.name + " " +
               shapeStr(sb.shape) + " + acc " + shapeStr(tc.getShape()) +
               " (need MxK * KxN + MxN)");
  if (sa.element != sb.element)
    t.fail(loc, what,
           sa.name + " holds " + str(sa.element) + " but " + sb.name + " holds " +
               str(sb.element) + "; the operands must have one element type");
  for (auto [i, input] : {std::pair{0, &a}, std::pair{1, &b}}) {
    if (input->isShared())
      continue;
    auto type = cast<RankedTensorType>(input->tensor().value().getType());
    auto op = dyn_cast_or_null<hd::DotOperandLayoutAttr>(type.getEncoding());
    if (!op || int(op.getOpIdx()) != i || op.getParent() != tc.getEncoding())
      t.fail(loc, what,
             std::string(i == 0 ? "a" : "b") + " must have layout DotOperand{" +
                 std::to_string(i) + ", <acc's layout>}, got " + str(type.getEncoding()) +
                 "; convert_layout it");
  }
  auto op = hd::DotOp::create(t.b, t.at(loc), tc, sa.value, sb.value, c,
                              static_cast<hd::InputPrecision>(options.precision), options.async);
  return Tensor(t.checked(op, loc, what).getResult());
}

Tensor dot_wait(const Tensor &value, int pending, SourceLoc loc) {
  Trace &t = Trace::current(loc);
  const std::string what = "dot_wait";
  RankedTensorType type = tileOf(t, value, loc, what);
  if (pending < 0)
    t.fail(loc, what,
           "pending = " + std::to_string(pending) +
               " must be >= 0 (how many async dots may still run)");
  auto op = hd::DotWaitOp::create(t.b, t.at(loc), type, value.value(),
                                  t.b.getI32IntegerAttr(pending));
  return Tensor(t.checked(op, loc, what).getResult());
}

//===----------------------------------------------------------------------===//
// Debugging and hints
//===----------------------------------------------------------------------===//

void device_print(const std::string &prefix, const Values &values, bool hex, SourceLoc loc) {
  Trace &t = Trace::current(loc);
  SmallVector<Value> args;
  for (const Tensor &v : values)
    args.push_back(requireTensor(t, v, loc, "device_print"));
  t.checked(hd::PrintOp::create(t.b, t.at(loc), prefix, hex, args), loc, "device_print");
}

void device_assert(const Operand &condition, const std::string &message, SourceLoc loc) {
  Trace &t = Trace::current(loc);
  const std::string what = "device_assert";
  Value c = condition.kind() == Operand::Kind::tensor
                ? requireTensor(t, condition.tensor(), loc, what)
                : constantOf(t, condition, t.b.getI1Type(), loc, what);
  if (getElementTypeOrSelf(c.getType()) != t.b.getI1Type())
    t.fail(loc, what, "the condition is " + str(c.getType()) + "; it must hold i1");
  t.checked(hd::AssertOp::create(t.b, t.at(loc), c, message), loc, what);
}

Tensor multiple_of(const Tensor &x, const std::vector<int> &divisors, SourceLoc loc) {
  Trace &t = Trace::current(loc);
  Value v = requireTensor(t, x, loc, "multiple_of");
  SmallVector<int32_t> d(divisors.begin(), divisors.end());
  return Tensor(
      t.checked(hd::MultipleOfOp::create(t.b, t.at(loc), v.getType(), v, d), loc, "multiple_of")
          .getResult());
}

void assume(const Operand &condition, SourceLoc loc) {
  Trace &t = Trace::current(loc);
  Value c = condition.kind() == Operand::Kind::tensor
                ? requireTensor(t, condition.tensor(), loc, "assume")
                : constantOf(t, condition, t.b.getI1Type(), loc, "assume");
  if (c.getType() != t.b.getI1Type())
    t.fail(loc, "assume", "the condition is " + str(c.getType()) + "; it must be an i1 scalar");
  t.checked(hd::AssumeOp::create(t.b, t.at(loc), c), loc, "assume");
}

} // namespace hadron::builder
