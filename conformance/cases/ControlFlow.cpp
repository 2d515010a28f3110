//===- ControlFlow.cpp - scf.for/if/while with loop-carried tiles, and the
//                       debugging ops -------------------------------------===//
//
// The kernels are the kernel library's frame kernels (tests/kernels/Frame.h,
// written with the C++ builder; the suite links no MLIR). cf.*: loops and
// branches carry tiles (and scalars) in their iter_args and results; trip
// counts are drawn per run and passed as arguments, so nothing folds away. misc.*: print (the kernel's output is captured and must hold
// the prefix), a passing assert, assume/multiple_of hints, a barrier without
// shared memory, 1 and 16 warps, many arguments. A failing assert is not a
// case: on a GPU it leaves the context unusable for the cases after it.
//
//===----------------------------------------------------------------------===//

#include "Common.h"

#include "kernels/Frame.h"

namespace hadron::conformance {

namespace {

using kernels::FrameUse;

/// The kernel library's frame kernel (tests/kernels/Frame.h) for `lanes`;
/// the plan's IR stays empty when it was not built for them, which fails
/// the case with the key.
Plan framePlan(const FrameUse &use, unsigned lanes) {
  return builtPlan(use.kernel, use.key(lanes), use.layout.numWarps());
}

/// x = in[tile] (masked), f(x) stored to out[tile]: inputs in [-1000, 1000],
/// the reference maps (x, element index, extra scalar) to the result.
Plan frame(Env &env, const FrameUse &use, bool hasExtra, int32_t extraValue,
           const std::function<int64_t(int64_t x, int i, int32_t extra)> &ref) {
  Plan p = framePlan(use, env.lanes);
  const int block = use.blockFor(env.lanes);
  const int count = env.tailSize(block, 4 * block);
  Array x(Elem::I32, count), want(Elem::I32, count);
  for (int i = 0; i < count; ++i) {
    x.setI(i, env.uniformInt(-1000, 1000));
    want.setI(i, wrapTo(Elem::I32, ref(x.i(i), i, extraValue)));
  }
  p.argBuffer(p.addInput("in", std::move(x)));
  p.argBuffer(p.addOutput("out", std::move(want)));
  p.argI32(count);
  if (hasExtra)
    p.argI32(extraValue);
  p.grid = {static_cast<uint32_t>((count + block - 1) / block), 1, 1};
  p.note += (p.note.empty() ? "" : "; ") + std::string("n = ") + std::to_string(count) +
            (hasExtra ? ", extra " + std::to_string(extraValue) : "");
  return p;
}

// acc = x; for i < trips: acc += x * i
Plan forLoop(Env &env, const Blocked &layout) {
  const int trips = static_cast<int>(env.uniformInt(0, 12));
  return frame(env, {"for_loop", layout}, true, trips,
               [](int64_t x, int, int32_t t) { return x * (1 + t * (t - 1) / 2); });
}

// Even programs take x * 3, odd ones x - 7.
Plan ifElse(Env &env, const Blocked &layout) {
  const int block = layout.tile(0, env.lanes);
  return frame(env, {"if_else", layout}, false, 0, [block](int64_t x, int i, int32_t) {
    return (i / block) % 2 == 0 ? x * 3 : x - 7;
  });
}

// while (count < pid % 5 + base) { t += t; ++count }
Plan whileLoop(Env &env, const Blocked &layout) {
  const int base = static_cast<int>(env.uniformInt(0, 3));
  const int block = layout.tile(0, env.lanes);
  return frame(env, {"while_loop", layout}, true, base, [block](int64_t x, int i, int32_t b) {
    return static_cast<int64_t>(static_cast<uint32_t>(x) << ((i / block) % 5 + b));
  });
}

// for i < a: for j < 3: acc = (i + j) even ? acc + x : acc - 1
Plan nested(Env &env, const Blocked &layout) {
  const int a = static_cast<int>(env.uniformInt(0, 5));
  return frame(env, {"nest", layout}, true, a, [](int64_t x, int, int32_t a) {
    int64_t acc = x;
    for (int ii = 0; ii < a; ++ii)
      for (int jj = 0; jj < 3; ++jj)
        acc = (ii + jj) % 2 == 0 ? acc + x : acc - 1;
    return acc;
  });
}

// A loop that stores every iteration: out = x + (trips - 1) * 10 after
// overwriting the same tile trips times (the last store wins).
Plan storeInLoop(Env &env, const Blocked &layout) {
  const int trips = static_cast<int>(env.uniformInt(1, 6));
  return frame(env, {"store_in_loop", layout}, true, trips,
               [](int64_t x, int, int32_t t) { return x + (t - 1) * 10; });
}

} // namespace

void addControlFlowCases(std::vector<Case> &cases) {
  const auto &l = layouts1d();
  for (size_t i = 0; i < l.size(); ++i) {
    Blocked b = l[i];
    cases.push_back({"cf.for.carried_tile." + b.name(), [b](Env &env) { return forLoop(env, b); }});
  }
  for (size_t i = 0; i < 2; ++i) {
    Blocked b = l[i];
    cases.push_back({"cf.if.both_branches." + b.name(), [b](Env &env) { return ifElse(env, b); }});
    cases.push_back({"cf.while.tile_and_counter." + b.name(), [b](Env &env) { return whileLoop(env, b); }});
  }
  cases.push_back({"cf.for.nested_with_if", [](Env &env) { return nested(env, layouts1d()[2]); }});
  cases.push_back({"cf.for.store_each_iteration", [](Env &env) { return storeInLoop(env, layouts1d()[0]); }});
}

//===----------------------------------------------------------------------===//
// misc
//===----------------------------------------------------------------------===//

namespace {

// out = x + 1, after what the kernel `kernel` adds before the store.
Plan plusOne(Env &env, const FrameUse &use, const std::string &expectStdout = "") {
  Plan p = frame(env, use, false, 0, [](int64_t x, int, int32_t) { return x + 1; });
  p.expectStdout = expectStdout;
  return p;
}

/// A kernel with 12 pointer arguments: out_j = in_j * (j + 1).
Plan manyArgs(Env &env) {
  const FrameUse use{"many_args", layouts1d()[2]};
  constexpr int kPairs = 6;
  Plan p = framePlan(use, env.lanes);
  const int block = use.blockFor(env.lanes);
  const int count = env.tailSize(block, block);
  for (int j = 0; j < kPairs; ++j) {
    Array x(Elem::I32, count), want(Elem::I32, count);
    for (int i = 0; i < count; ++i) {
      x.setI(i, env.uniformInt(-10000, 10000));
      want.setI(i, x.i(i) * (j + 1));
    }
    p.argBuffer(p.addInput("in" + std::to_string(j), std::move(x)));
    p.argBuffer(p.addOutput("out" + std::to_string(j), std::move(want)));
  }
  p.argI32(count);
  return p;
}

} // namespace

void addMiscCases(std::vector<Case> &cases) {
  const Blocked wide = layouts1d()[0];
  cases.push_back({"misc.print.values", [](Env &env) {
                     return plusOne(env, {"print", kernels::kOneWarp},
                                    "hadron-conformance print: x = ");
                   }});
  cases.push_back({"misc.assert.passing",
                   [wide](Env &env) { return plusOne(env, {"assert_ok", wide}); }});
  cases.push_back({"misc.hints.assume_multiple_of",
                   [wide](Env &env) { return plusOne(env, {"hints", wide}); }});
  cases.push_back({"misc.barrier.no_shared_memory",
                   [wide](Env &env) { return plusOne(env, {"barrier_only", wide}); }});
  cases.push_back({"misc.num_warps.1",
                   [](Env &env) { return plusOne(env, {"plus_one", kernels::kOneWarpOf8}); }});
  cases.push_back({"misc.num_warps.16",
                   [](Env &env) { return plusOne(env, {"plus_one", kernels::kSixteenWarps}); }});
  cases.push_back({"misc.many_arguments", manyArgs});
}

} // namespace hadron::conformance
