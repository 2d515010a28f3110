//===- Common.cpp - The elementwise frame ---------------------------------===//

#include "Common.h"

#include "kernels/BuiltKernels.h"

namespace hadron::conformance {

Plan builtPlan(const std::string &kernel, const std::string &key, int numWarps) {
  Plan p;
  p.kernel = kernel;
  p.ir = kernels::builtKernelIR(key);
  p.numWarps = numWarps;
  if (p.ir.empty())
    p.note = "no kernel " + key + " in the kernel library (tests/kernels)";
  return p;
}

Case unchecked(const std::string &name, const std::string &kernel, const std::string &file) {
  return {name, [=](Env &) {
            Plan p;
            p.kernel = kernel;
            p.note = "no reference for " + name + " in " + file;
            return p;
          }};
}

V defaultValue(Env &env, Elem e) {
  switch (e) {
  case Elem::I1: return I(env.uniformInt(0, 1));
  case Elem::I8: return I(env.uniformInt(INT8_MIN, INT8_MAX));
  case Elem::I16: return I(env.uniformInt(INT16_MIN, INT16_MAX));
  case Elem::I32: return I(env.uniformInt(INT32_MIN, INT32_MAX));
  case Elem::I64: return I(env.uniformInt(INT64_MIN, INT64_MAX));
  default: return F(env.uniform(-100, 100));
  }
}

V withSpecials(Env &env, Elem e) {
  switch (env.uniformInt(0, 15)) {
  case 0: return F(std::numeric_limits<double>::quiet_NaN());
  case 1: return F(0.0);
  case 2: return F(-0.0);
  case 3: return F(env.uniformInt(0, 1) ? INFINITY : -INFINITY);
  default: return F(roundTo(e, env.uniform(-4, 4)));
  }
}

namespace {

/// The inputs, the expected output and the launch of plan `p`, whose kernel
/// takes (in..., out, n) and a block of `block` elements a program.
Plan elementwiseData(Env &env, const Elementwise &op, const Blocked &layout, int block, Plan p) {
  const int count = env.tailSize(block, 4 * block);
  p.note = "n = " + std::to_string(count) + ", block " + std::to_string(block) + ", layout " +
           layout.name();
  std::vector<Array> in;
  for (size_t a = 0; a < op.ins.size(); ++a) {
    Array arr(op.ins[a], count);
    for (int i = 0; i < count; ++i) {
      V v = op.gen ? op.gen(env, static_cast<int>(a)) : defaultValue(env, op.ins[a]);
      if (isFloat(op.ins[a]))
        arr.setF(i, v.f);
      else
        arr.setI(i, v.i);
    }
    in.push_back(std::move(arr));
  }
  Array want(op.out, count);
  for (int i = 0; i < count; ++i) {
    std::vector<V> args;
    for (const Array &arr : in)
      args.push_back(isFloat(arr.elem()) ? F(arr.f(i)) : I(arr.i(i)));
    V r = op.ref(args);
    if (isFloat(op.out))
      want.setF(i, r.f);
    else
      want.setI(i, r.i);
  }
  for (size_t a = 0; a < in.size(); ++a) {
    int b = p.addInput("in" + std::to_string(a), std::move(in[a]));
    p.argBuffer(b);
  }
  p.argBuffer(p.addOutput("out", std::move(want), op.tol));
  p.argI32(count);
  p.grid = {static_cast<uint32_t>((count + block - 1) / block), 1, 1};
  return p;
}

} // namespace

Plan elementwisePlan(Env &env, const Elementwise &op, const kernels::ElementwiseUse &use) {
  Plan p = builtPlan(use.kernel, use.key(env.lanes), use.layout.numWarps());
  if (p.ir.empty())
    return p;
  return elementwiseData(env, op, use.layout, use.blockFor(env.lanes), std::move(p));
}

} // namespace hadron::conformance
