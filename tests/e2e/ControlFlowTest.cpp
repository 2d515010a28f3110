//===- ControlFlowTest.cpp - scf.for / if / while with tiles as loop values ===//
//
// Tiles carried through loops with run-time trip counts, yielded from both
// branches of an scf.if (each program takes one of them), carried with a
// counter through an scf.while, and a loop nest with a branch inside.
// The kernels are the kernel library's frame kernels (tests/kernels/Frame.h),
// written with the C++ builder and built at build time for every warp size.
//
//===----------------------------------------------------------------------===//

#include "E2E.h"
#include "kernels/Frame.h"

namespace hadron::e2e {
namespace {

using runtime::arg::i32;

/// The layouts of the library's control-flow uses for tests/e2e.
std::vector<Layout1D> layouts() {
  std::vector<Layout1D> l;
  for (const kernels::FrameUse &u : kernels::e2eControlFlowUses())
    if (u.kernel == "for_loop")
      l.push_back({u.layout, u.block});
  return l;
}

/// Adds the built kernel `name` for this session's lane count.
int addKernel(Program &p, const char *name, const Layout1D &c) {
  return p.addBuilt(kernels::FrameUse{name, c.layout, c.block}.key(session().lanes), name);
}

/// Launches the kernel over `count` random elements and compares with
/// `ref(x, i)` for element i.
void runAndCheck(Program &p, int kid, const Layout1D &c, std::mt19937_64 &rng,
                 const std::vector<hd_arg> &extraArgs,
                 const std::function<int32_t(int32_t, int)> &ref) {
  const int count = tailSize(rng, c.block, 4 * c.block);
  std::vector<int32_t> hx = randomVector<int32_t>(rng, count, -1000, 1000);
  auto bi = p.input(hx);
  auto bo = p.output<int32_t>(count + 8);
  std::vector<hd_arg> args{bi.arg(), bo.arg(), i32(count)};
  args.insert(args.end(), extraArgs.begin(), extraArgs.end());
  E2E_LAUNCH(p, kid, {ceilDiv(count, c.block), 1, 1}, args, {io(bo)});
  std::vector<int32_t> want(count);
  for (int i = 0; i < count; ++i)
    want[i] = ref(hx[i], i);
  expectExact(bo.host(), want, "result");
  expectPoisoned(bo.host(), count, bo.size(), "past n");
}

class ControlFlow : public ::testing::TestWithParam<Layout1D> {};

// acc = x; for i in [0, trips): acc = acc + x * i  =>  x * (1 + trips * (trips - 1) / 2)
TEST_P(ControlFlow, ForCarriesATile) {
  E2E_BEGIN();
  const Layout1D &c = GetParam();
  Program p;
  int kid = addKernel(p, "for_loop", c);
  E2E_READY(p);
  const int trips = std::uniform_int_distribution<int>(0, 12)(rng);
  SCOPED_TRACE(std::to_string(trips) + " trips");
  runAndCheck(p, kid, c, rng, {i32(trips)},
              [&](int32_t x, int) { return x * (1 + trips * (trips - 1) / 2); });
}

// Even programs take the then-branch (x * 3), odd ones the else-branch
// (x - 7), each yielding a tile.
TEST_P(ControlFlow, IfYieldsTilesFromBothBranches) {
  E2E_BEGIN();
  const Layout1D &c = GetParam();
  Program p;
  int kid = addKernel(p, "if_else", c);
  E2E_READY(p);
  runAndCheck(p, kid, c, rng, {}, [&](int32_t x, int i) {
    return (i / c.block) % 2 == 0 ? x * 3 : x - 7;
  });
}

// Program p doubles its tile (p % 5) + limit0 times in an scf.while that
// carries the tile and a counter.
TEST_P(ControlFlow, WhileCarriesATileAndACounter) {
  E2E_BEGIN();
  const Layout1D &c = GetParam();
  Program p;
  int kid = addKernel(p, "while_loop", c);
  E2E_READY(p);
  const int base = std::uniform_int_distribution<int>(0, 3)(rng);
  runAndCheck(p, kid, c, rng, {i32(base)}, [&](int32_t x, int i) {
    int times = (i / c.block) % 5 + base;
    return static_cast<int32_t>(static_cast<uint32_t>(x) << times);
  });
}

// for i < a: for j < b: acc = (i + j) even ? acc + x : acc - 1, with the
// branch's condition a scalar of the nest.
TEST_P(ControlFlow, NestedLoopsWithABranch) {
  E2E_BEGIN();
  const Layout1D &c = GetParam();
  Program p;
  int kid = addKernel(p, "nest", c);
  E2E_READY(p);
  const int a = std::uniform_int_distribution<int>(0, 5)(rng);
  runAndCheck(p, kid, c, rng, {i32(a)}, [&](int32_t x, int) {
    int32_t acc = x;
    for (int ii = 0; ii < a; ++ii)
      for (int jj = 0; jj < 3; ++jj)
        acc = (ii + jj) % 2 == 0 ? acc + x : acc - 1;
    return acc;
  });
}

INSTANTIATE_TEST_SUITE_P(Layouts, ControlFlow, ::testing::ValuesIn(layouts()),
                         ::testing::PrintToStringParamName());

} // namespace
} // namespace hadron::e2e
