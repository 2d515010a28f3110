//===- Atomic.cpp - The atomic kernels, with the builder ------------------===//

#include "Atomic.h"
#include "Build.h"

namespace hadron::kernels {
namespace {

using L = Constexpr<hb::Layout>;
using T = Constexpr<hb::DType>;
using Rmw = Tensor (*)(const Tensor &, const hb::Operand &, const Tensor &, hb::AtomicOptions,
                       hb::SourceLoc);

/// The builder function of an rmw kind; the float kinds are the same
/// functions on f32 values.
Rmw rmwOf(const std::string &kind) {
  if (kind == "add" || kind == "fadd")
    return hb::atomic_add;
  if (kind == "max" || kind == "fmax")
    return hb::atomic_max;
  if (kind == "min" || kind == "fmin")
    return hb::atomic_min;
  if (kind == "umax")
    return hb::atomic_umax;
  if (kind == "umin")
    return hb::atomic_umin;
  if (kind == "and")
    return hb::atomic_and;
  if (kind == "or")
    return hb::atomic_or;
  if (kind == "xor")
    return hb::atomic_xor;
  if (kind == "xchg")
    return hb::atomic_xchg;
  return nullptr;
}

Result<hb::Module> buildRmw(const KernelUse &use, unsigned lanes) {
  Rmw rmw = rmwOf(use.variant);
  if (!rmw)
    return Error("no atomic kind '" + use.variant + "' (tests/kernels/Atomic.cpp)");
  const hb::AtomicOptions options =
      use.ints[0] ? hb::AtomicOptions{hb::MemSemantic::relaxed, hb::MemScope::cta}
                  : hb::AtomicOptions{};
  auto kernel = hb::jit("rmw", [&](int BLOCK, L layout, T type) {
    Tensor vals = hb::arg(hb::pointer_type(type)), bins = hb::arg(hb::pointer_type(type));
    Tensor olds = hb::arg(hb::pointer_type(type)), n = hb::arg(hb::int32);
    Tensor offsets = hb::program_id(0) * BLOCK + hb::arange(0, BLOCK, layout);
    Tensor mask = offsets < n;
    Tensor v = type->isFloat() ? hb::load(vals + offsets, mask, 1048577.0)
                               : hb::load(vals + offsets, mask, 1048577);
    Tensor old = rmw(bins + offsets % kAtomicBins, v, mask, options, hb::SourceLoc::current());
    hb::store(olds + offsets, old, mask);
  });
  const int block = use.ints.size() > 1 ? use.ints[1] : use.layout.tile(0, lanes);
  return kernel.specialize(optionsOf(use), block, layoutOf(use.layout, lanes), dtypeOf(use.elem));
}

auto cas = hb::jit("cas", [](int BLOCK, L layout, T type) {
  Tensor bins = hb::arg(hb::pointer_type(type)), olds = hb::arg(hb::pointer_type(type));
  Tensor n = hb::arg(hb::int32);
  Tensor offsets = hb::program_id(0) * BLOCK + hb::arange(0, BLOCK, layout);
  Tensor mask = offsets < n;
  Tensor cmp = hb::where(mask, hb::full({BLOCK}, 0, type, layout), hb::full({BLOCK}, -5, type, layout));
  Tensor old = hb::atomic_cas(bins + offsets % kAtomicBins, cmp, (offsets + 1).to(type));
  hb::store(olds + offsets, old, mask);
});

auto histogram = hb::jit("histogram", [](int BLOCK, L layout) {
  Tensor in = hb::arg(hb::pointer_type(hb::int32)), hist = hb::arg(hb::pointer_type(hb::int32));
  Tensor n = hb::arg(hb::int32);
  Tensor offsets = hb::program_id(0) * BLOCK + hb::arange(0, BLOCK, layout);
  Tensor mask = offsets < n;
  hb::atomic_add(hist + (hb::load(in + offsets, mask) & 15), 1, mask,
                 {.sem = hb::MemSemantic::relaxed});
});

auto ticket = hb::jit("ticket", [] {
  Tensor counter = hb::arg(hb::pointer_type(hb::int32));
  Tensor tickets = hb::arg(hb::pointer_type(hb::int32));
  hb::store(tickets + hb::program_id(0), hb::atomic_add(counter, 1));
});

auto casWinner = hb::jit("cas_winner", [](int BLOCK, L layout) {
  Tensor slot = hb::arg(hb::pointer_type(hb::int32)), seen = hb::arg(hb::pointer_type(hb::int32));
  Tensor offsets = hb::program_id(0) * BLOCK + hb::arange(0, BLOCK, layout);
  Tensor slots = hb::full({BLOCK}, slot, hb::pointer_type(hb::int32), layout);
  hb::store(seen + offsets, hb::atomic_cas(slots, 0, offsets + 1));
});

auto casEach = hb::jit("cas_each", [](int BLOCK, L layout, T type) {
  Tensor mem = hb::arg(hb::pointer_type(type)), cmp = hb::arg(hb::pointer_type(type));
  Tensor val = hb::arg(hb::pointer_type(type)), olds = hb::arg(hb::pointer_type(type));
  Tensor n = hb::arg(hb::int32);
  Tensor offsets = hb::program_id(0) * BLOCK + hb::arange(0, BLOCK, layout);
  Tensor mask = offsets < n;
  Tensor c = hb::load(cmp + offsets, mask), v = hb::load(val + offsets, mask);
  Tensor old = hb::atomic_cas(mem + hb::where(mask, offsets, 0), hb::where(mask, c, -7777777), v);
  hb::store(olds + offsets, old, mask);
});

Result<hb::Module> build(const KernelUse &use, unsigned lanes) {
  const hb::Layout layout = layoutOf(use.layout, lanes);
  const int block = use.layout.tile(0, lanes);
  if (use.kernel == "rmw")
    return buildRmw(use, lanes);
  if (use.kernel == "cas")
    return cas.specialize(optionsOf(use), block, layout, dtypeOf(use.elem));
  if (use.kernel == "histogram")
    return histogram.specialize(optionsOf(use), block, layout);
  if (use.kernel == "ticket")
    return ticket.specialize(optionsOf(use));
  if (use.kernel == "cas_winner")
    return casWinner.specialize(optionsOf(use), use.ints[0], layout);
  if (use.kernel == "cas_each")
    return casEach.specialize(optionsOf(use), use.ints[0], layout, dtypeOf(use.elem));
  return Error("no atomic kernel '" + use.kernel + "' (tests/kernels/Atomic.cpp)");
}

} // namespace

std::string addAtomicKernels(BuiltKernels &out) {
  std::vector<KernelUse> uses = atomicUses();
  for (KernelUse &u : e2eAtomicUses())
    uses.push_back(std::move(u));
  return addUses<KernelUse>(out, uses, build);
}

} // namespace hadron::kernels
