//===- ControlFlow.cpp - The control-flow tests' kernels, with the builder ===//

#include "KernelSources.h"
#include "ControlFlowCases.h"

#include "hadron/Builder/Builder.h"

namespace hadron::e2e {
namespace {

namespace hb = hadron::builder;
using hb::Tensor;
using hb::Values;

/// The frame every kernel shares: x loaded from `in` over this program's
/// masked block, `body(x, pid, extra)` stored to `out` where x came from.
template <typename Body> auto kernel(const char *name, bool extraArg, Body body) {
  return hb::jit(name, [extraArg, body](hb::Constexpr<int> BLOCK, hb::Constexpr<hb::Layout> L) {
    Tensor in = hb::arg(hb::pointer_type(hb::int32));
    Tensor out = hb::arg(hb::pointer_type(hb::int32));
    Tensor n = hb::arg(hb::int32);
    Tensor extra = extraArg ? hb::arg(hb::int32) : Tensor();
    Tensor pid = hb::program_id(0);
    Tensor offsets = pid * BLOCK + hb::arange(0, BLOCK, L);
    Tensor mask = offsets < n;
    Tensor x = hb::load(in + offsets, mask);
    hb::store(out + offsets, body(x, pid, extra), mask);
  });
}

auto forLoop = kernel("for_loop", true, [](Tensor x, Tensor, Tensor trips) {
  return hb::for_range(0, trips, 1, x, [&](Tensor i, Tensor acc) { return acc + x * i; });
});

auto ifElse = kernel("if_else", false, [](Tensor x, Tensor pid, Tensor) {
  return hb::if_((pid & 1) == 0, [&] { return x * 3; }, [&] { return x - 7; });
});

auto whileLoop = kernel("while_loop", true, [](Tensor x, Tensor pid, Tensor base) {
  Tensor limit = pid % 5 + base;
  return hb::while_(
      {x, hb::constant(0, hb::int32)}, [&](Values v) { return v[1] < limit; },
      [](Values v) { return Values{v[0] + v[0], v[1] + 1}; })[0];
});

auto nest = kernel("nest", true, [](Tensor x, Tensor, Tensor a) {
  return hb::for_range(0, a, 1, x, [&](Tensor i, Tensor a0) {
    return hb::for_range(0, 3, 1, a0, [&](Tensor j, Tensor a1) {
      return hb::if_(((i + j) & 1) == 0, [&] { return a1 + x; }, [&] { return a1 - 1; });
    });
  });
});

} // namespace

std::string addControlFlowKernels(BuiltKernels &out) {
  for (unsigned lanes : kLaneCounts)
    for (const Layout1D &c : kControlFlowLayouts) {
      hb::Layout L = hb::Layout::fromText(c.layout.str(lanes));
      hb::Options options{.numWarps = static_cast<unsigned>(c.layout.numWarps())};
      for (const char *name : kControlFlowKernels) {
        std::string n = name;
        auto m = n == "for_loop"     ? forLoop.specialize(options, c.block, L)
                 : n == "if_else"    ? ifElse.specialize(options, c.block, L)
                 : n == "while_loop" ? whileLoop.specialize(options, c.block, L)
                                     : nest.specialize(options, c.block, L);
        if (!m)
          return controlFlowKey(name, c, lanes) + ": " + m.error();
        out.push_back({controlFlowKey(name, c, lanes), m->str()});
      }
    }
  return "";
}

} // namespace hadron::e2e
