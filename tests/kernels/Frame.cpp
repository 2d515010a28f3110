//===- Frame.cpp - The 1-D frame kernels, with the builder ----------------===//

#include "Frame.h"
#include "Sources.h"

#include "hadron/Builder/Builder.h"

#include <functional>
#include <set>

namespace hadron::kernels {
namespace {

namespace hb = hadron::builder;
using hb::Tensor;
using hb::Values;

/// What a body sees: the loaded tile, the program id, the extra argument
/// (invalid without one), and the tile's place.
struct Tile {
  Tensor x, pid, extra, n, out, offsets, mask;
};

/// The frame every kernel shares: x loaded from `in` over this program's
/// masked block, `body(tile)` stored to `out` where x came from.
auto kernel(const char *name, bool extraArg, std::function<Tensor(const Tile &)> body) {
  return hb::jit(name, [extraArg, body](hb::Constexpr<int> BLOCK, hb::Constexpr<hb::Layout> L) {
    Tile t;
    Tensor in = hb::arg(hb::pointer_type(hb::int32));
    t.out = hb::arg(hb::pointer_type(hb::int32));
    t.n = hb::arg(hb::int32);
    t.extra = extraArg ? hb::arg(hb::int32) : Tensor();
    t.pid = hb::program_id(0);
    t.offsets = t.pid * BLOCK + hb::arange(0, BLOCK, L);
    t.mask = t.offsets < t.n;
    t.x = hb::load(in + t.offsets, t.mask);
    hb::store(t.out + t.offsets, body(t), t.mask);
  });
}

auto forLoop = kernel("for_loop", true, [](const Tile &t) {
  return hb::for_range(0, t.extra, 1, t.x, [&](Tensor i, Tensor acc) { return acc + t.x * i; });
});

auto ifElse = kernel("if_else", false, [](const Tile &t) {
  return hb::if_((t.pid & 1) == 0, [&] { return t.x * 3; }, [&] { return t.x - 7; });
});

auto whileLoop = kernel("while_loop", true, [](const Tile &t) {
  Tensor limit = t.pid % 5 + t.extra;
  return hb::while_(
      {t.x, hb::constant(0, hb::int32)}, [&](Values v) { return v[1] < limit; },
      [](Values v) { return Values{v[0] + v[0], v[1] + 1}; })[0];
});

auto nest = kernel("nest", true, [](const Tile &t) {
  return hb::for_range(0, t.extra, 1, t.x, [&](Tensor i, Tensor a0) {
    return hb::for_range(0, 3, 1, a0, [&](Tensor j, Tensor a1) {
      return hb::if_(((i + j) & 1) == 0, [&] { return a1 + t.x; }, [&] { return a1 - 1; });
    });
  });
});

auto storeInLoop = kernel("store_in_loop", true, [](const Tile &t) {
  hb::for_range(0, t.extra, 1, [&](Tensor i) { hb::store(t.out + t.offsets, t.x + i * 10, t.mask); });
  return t.x + (t.extra - 1) * 10;
});

auto plusOne = kernel("plus_one", false, [](const Tile &t) { return t.x + 1; });

auto print = kernel("print", false, [](const Tile &t) {
  hb::device_print("hadron-conformance print: x = ", {t.x});
  hb::device_print("hadron-conformance print: n = ", {t.n}, /*hex=*/true);
  return t.x + 1;
});

auto assertOk = kernel("assert_ok", false, [](const Tile &t) {
  hb::device_assert(t.x < 1001, "x out of range");
  return t.x + 1;
});

auto hints = kernel("hints", false, [](const Tile &t) {
  hb::assume(t.n > 0);
  hb::multiple_of(t.offsets, {1});
  return t.x + 1;
});

auto barrierOnly = kernel("barrier_only", false, [](const Tile &t) {
  hb::barrier();
  return t.x + 1;
});

auto manyArgs = hb::jit("many_args", [](hb::Constexpr<int> BLOCK, hb::Constexpr<hb::Layout> L) {
  constexpr int kPairs = 6;
  std::vector<Tensor> ins, outs;
  for (int j = 0; j < kPairs; ++j) {
    ins.push_back(hb::arg(hb::pointer_type(hb::int32)));
    outs.push_back(hb::arg(hb::pointer_type(hb::int32)));
  }
  Tensor n = hb::arg(hb::int32);
  Tensor offsets = hb::arange(0, BLOCK, L);
  Tensor mask = offsets < n;
  for (int j = 0; j < kPairs; ++j)
    hb::store(outs[j] + offsets, hb::load(ins[j] + offsets, mask) * (j + 1), mask);
});

Result<hb::Module> build(const std::string &kernel, hb::Options o, int block, hb::Layout L) {
  if (kernel == "for_loop")
    return forLoop.specialize(o, block, L);
  if (kernel == "if_else")
    return ifElse.specialize(o, block, L);
  if (kernel == "while_loop")
    return whileLoop.specialize(o, block, L);
  if (kernel == "nest")
    return nest.specialize(o, block, L);
  if (kernel == "store_in_loop")
    return storeInLoop.specialize(o, block, L);
  if (kernel == "plus_one")
    return plusOne.specialize(o, block, L);
  if (kernel == "print")
    return print.specialize(o, block, L);
  if (kernel == "assert_ok")
    return assertOk.specialize(o, block, L);
  if (kernel == "hints")
    return hints.specialize(o, block, L);
  if (kernel == "barrier_only")
    return barrierOnly.specialize(o, block, L);
  if (kernel == "many_args")
    return manyArgs.specialize(o, block, L);
  return Error("no frame kernel '" + kernel + "' (tests/kernels/Frame.cpp)");
}

} // namespace

std::string addFrameKernels(BuiltKernels &out) {
  std::vector<FrameUse> uses = e2eControlFlowUses();
  for (FrameUse &u : conformanceFrameUses())
    uses.push_back(std::move(u));
  std::set<std::string> done;
  for (unsigned lanes : testkit::kLaneCounts)
    for (const FrameUse &u : uses) {
      std::string key = u.key(lanes);
      if (!done.insert(key).second)
        continue;
      hb::Options options{.numWarps = static_cast<unsigned>(u.layout.numWarps())};
      auto m = build(u.kernel, options, u.blockFor(lanes), hb::Layout::fromText(u.layout.str(lanes)));
      if (!m)
        return key + ": " + m.error();
      out.push_back({key, m->str()});
    }
  return "";
}

} // namespace hadron::kernels
