//===- ControlFlow.cpp - for_range, if_ and while_ as scf ops -------------===//
//
// The user's body runs with the insertion point inside the region; what it
// returns is yielded. Every region is built inside its op, which is already
// in the function, so an error mid-body leaves no detached IR behind.
//
//===----------------------------------------------------------------------===//

#include "Trace.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;

namespace hadron::builder {

using detail::str;
using detail::Trace;

namespace {

Value scalarI32(Trace &t, const Operand &o, const SourceLoc &loc, const std::string &what,
                const std::string &role) {
  Value v;
  if (o.kind() == Operand::Kind::tensor) {
    if (!o.tensor().valid())
      t.fail(loc, what, role + " is an empty Tensor");
    v = o.tensor().value();
  } else if (o.kind() == Operand::Kind::integer) {
    v = arith::ConstantOp::create(t.b, t.at(loc), t.b.getI32IntegerAttr(int32_t(o.integer())));
  } else {
    t.fail(loc, what, role + " must be an integer");
  }
  if (v.getType() != t.b.getI32Type())
    t.fail(loc, what, role + " is " + str(v.getType()) + "; it must be an i32 scalar");
  return v;
}

SmallVector<Value> valuesOf(Trace &t, const Values &vs, const SourceLoc &loc,
                            const std::string &what, const std::string &role) {
  SmallVector<Value> out;
  for (size_t i = 0; i < vs.size(); ++i) {
    if (!vs[i].valid())
      t.fail(loc, what, role + " " + std::to_string(i) + " is an empty Tensor");
    out.push_back(vs[i].value());
  }
  return out;
}

/// Fails unless `got` has the types of `want` (a region's yield).
void requireTypes(Trace &t, ValueRange got, TypeRange want, const SourceLoc &loc,
                  const std::string &what, const std::string &role) {
  if (got.size() != want.size())
    t.fail(loc, what,
           role + " returns " + std::to_string(got.size()) + " values, expected " +
               std::to_string(want.size()));
  for (size_t i = 0; i < got.size(); ++i)
    if (got[i].getType() != want[i])
      t.fail(loc, what,
             role + " returns " + str(got[i].getType()) + " for value " + std::to_string(i) +
                 ", which is " + str(want[i]));
}

Values wrap(ValueRange vs) {
  Values out;
  for (Value v : vs)
    out.push_back(Tensor(v));
  return out;
}

} // namespace

Values for_range(const Operand &begin, const Operand &end, const Operand &step,
                 const Values &carried, const std::function<Values(Tensor, Values)> &body,
                 SourceLoc loc) {
  Trace &t = Trace::current(loc);
  const std::string what = "for_range";
  if (step.kind() == Operand::Kind::integer && step.integer() <= 0)
    t.fail(loc, what, "step " + std::to_string(step.integer()) + " is not positive");
  Location l = t.at(loc);
  // scf.for over index, as the lowering and AxisInfo expect; the body sees
  // an i32 induction variable.
  auto toIndex = [&](Value v) {
    return arith::IndexCastOp::create(t.b, l, t.b.getIndexType(), v).getResult();
  };
  Value lb = toIndex(scalarI32(t, begin, loc, what, "begin"));
  Value ub = toIndex(scalarI32(t, end, loc, what, "end"));
  Value st = toIndex(scalarI32(t, step, loc, what, "step"));
  SmallVector<Value> inits = valuesOf(t, carried, loc, what, "carried value");
  auto loop = scf::ForOp::create(t.b, l, lb, ub, st, inits);
  {
    OpBuilder::InsertionGuard guard(t.b);
    Block *bodyBlock = loop.getBody();
    if (!bodyBlock->empty())
      bodyBlock->getTerminator()->erase(); // the empty yield of a loop without values
    t.b.setInsertionPointToEnd(bodyBlock);
    Value iv =
        arith::IndexCastOp::create(t.b, l, t.b.getI32Type(), loop.getInductionVar()).getResult();
    Values next = body(Tensor(iv), wrap(loop.getRegionIterArgs()));
    SmallVector<Value> yielded = valuesOf(t, next, loc, what, "the body's value");
    requireTypes(t, yielded, TypeRange(ValueRange(inits)), loc, what, "the body");
    scf::YieldOp::create(t.b, l, yielded);
  }
  t.verify(loop, loc, what);
  return wrap(loop.getResults());
}

Tensor for_range(const Operand &begin, const Operand &end, const Operand &step,
                 const Tensor &carried, const std::function<Tensor(Tensor, Tensor)> &body,
                 SourceLoc loc) {
  return for_range(
      begin, end, step, Values{carried},
      [&](Tensor i, Values v) { return Values{body(i, v[0])}; }, loc)[0];
}

void for_range(const Operand &begin, const Operand &end, const Operand &step,
               const std::function<void(Tensor)> &body, SourceLoc loc) {
  for_range(
      begin, end, step, Values{},
      [&](Tensor i, Values) {
        body(i);
        return Values{};
      },
      loc);
}

namespace detail {

Values ifImpl(const Operand &condition, const std::function<Values()> &then,
              const std::function<Values()> &otherwise, const SourceLoc &loc) {
  Trace &t = Trace::current(loc);
  const std::string what = "if_";
  Location l = t.at(loc);
  Value cond;
  if (condition.kind() == Operand::Kind::tensor) {
    if (!condition.tensor().valid())
      t.fail(loc, what, "the condition is an empty Tensor");
    cond = condition.tensor().value();
  } else {
    cond = arith::ConstantOp::create(t.b, l, t.b.getBoolAttr(condition.integer() != 0));
  }
  if (cond.getType() != t.b.getI1Type())
    t.fail(loc, what,
           "the condition is " + str(cond.getType()) + "; it must be an i1 scalar (a comparison)");

  // The result types are known once the then branch has run: build both
  // branches in an op without results, then move them into one with.
  auto draft = scf::IfOp::create(t.b, l, TypeRange{}, cond, /*addThenBlock=*/true,
                                 /*addElseBlock=*/bool(otherwise));
  for (Region *r : {&draft.getThenRegion(), &draft.getElseRegion()})
    if (!r->empty() && !r->front().empty())
      r->front().getTerminator()->erase(); // the yields IfOp adds when it has no results
  SmallVector<Value> thenValues, elseValues;
  {
    OpBuilder::InsertionGuard guard(t.b);
    t.b.setInsertionPointToEnd(&draft.getThenRegion().front());
    thenValues = valuesOf(t, then(), loc, what, "the then branch's value");
    if (otherwise) {
      t.b.setInsertionPointToEnd(&draft.getElseRegion().front());
      elseValues = valuesOf(t, otherwise(), loc, what, "the else branch's value");
      requireTypes(t, elseValues, TypeRange(ValueRange(thenValues)), loc, what,
                   "the else branch");
    } else if (!thenValues.empty()) {
      t.fail(loc, what, "the then branch returns values, so an else branch must too");
    }
  }
  SmallVector<Type> types = llvm::to_vector(ValueRange(thenValues).getTypes());
  auto op = scf::IfOp::create(t.b, l, types, cond, /*addThenBlock=*/false,
                              /*addElseBlock=*/false);
  op.getThenRegion().takeBody(draft.getThenRegion());
  op.getElseRegion().takeBody(draft.getElseRegion());
  draft.erase();
  {
    OpBuilder::InsertionGuard guard(t.b);
    t.b.setInsertionPointToEnd(&op.getThenRegion().front());
    scf::YieldOp::create(t.b, l, thenValues);
    if (!op.getElseRegion().empty()) {
      t.b.setInsertionPointToEnd(&op.getElseRegion().front());
      scf::YieldOp::create(t.b, l, elseValues);
    }
  }
  t.verify(op, loc, what);
  return wrap(op.getResults());
}

} // namespace detail

Values while_(const Values &init, const std::function<Tensor(Values)> &condition,
              const std::function<Values(Values)> &body, SourceLoc loc) {
  Trace &t = Trace::current(loc);
  const std::string what = "while_";
  Location l = t.at(loc);
  SmallVector<Value> inits = valuesOf(t, init, loc, what, "initial value");
  SmallVector<Type> types = llvm::to_vector(ValueRange(inits).getTypes());
  SmallVector<Location> locs(types.size(), l);
  auto loop = scf::WhileOp::create(t.b, l, types, inits);
  {
    OpBuilder::InsertionGuard guard(t.b);
    Block *before = t.b.createBlock(&loop.getBefore(), {}, types, locs);
    Tensor c = condition(wrap(before->getArguments()));
    if (!c.valid() || c.value().getType() != t.b.getI1Type())
      t.fail(loc, what,
             "the condition returns " + c.typeStr() + "; it must be an i1 scalar (a comparison)");
    scf::ConditionOp::create(t.b, l, c.value(), before->getArguments());
    Block *after = t.b.createBlock(&loop.getAfter(), {}, types, locs);
    SmallVector<Value> next =
        valuesOf(t, body(wrap(after->getArguments())), loc, what, "the body's value");
    requireTypes(t, next, types, loc, what, "the body");
    scf::YieldOp::create(t.b, l, next);
  }
  t.verify(loop, loc, what);
  return wrap(loop.getResults());
}

} // namespace hadron::builder
