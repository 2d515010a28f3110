//===- Debug.cpp - tests/e2e's assert and hint kernels, with the builder --===//

#include "Debug.h"
#include "Build.h"

namespace hadron::kernels {
namespace {

using L = Constexpr<hb::Layout>;

Tensor i32Arg() { return hb::arg(hb::pointer_type(hb::int32), {.divisibility = 16}); }

/// x + 1 stored, with `check` applied to x in between.
void plusOne(int block, const hb::Layout &layout, const std::function<void(Tensor)> &check) {
  Tensor in = i32Arg(), out = i32Arg(), n = hb::arg(hb::int32);
  Tensor offsets = hb::program_id(0) * block + hb::arange(0, block, layout);
  Tensor mask = offsets < n;
  Tensor x = hb::load(in + offsets, mask, 0);
  check(x);
  hb::store(out + offsets, x + 1, mask);
}

auto assertOk = hb::jit("assert_ok", [](int BLOCK, L layout) {
  plusOne(BLOCK, layout,
          [](Tensor x) { hb::device_assert(x < 1000, "hadron-e2e: x out of range"); });
});

auto assertFails = hb::jit("assert_fails", [](int BLOCK, L layout) {
  plusOne(BLOCK, layout, [](Tensor x) { hb::device_assert(x != 4242, e2eAssertMessage()); });
});

auto hints = hb::jit("hints", [](int BLOCK, L layout) {
  Tensor in = hb::arg(hb::pointer_type(hb::int32)), out = hb::arg(hb::pointer_type(hb::int32));
  Tensor n = hb::arg(hb::int32);
  hb::assume(n > 0);
  Tensor start = hb::multiple_of(hb::program_id(0) * BLOCK, {BLOCK});
  Tensor tile = hb::multiple_of(hb::full({BLOCK}, start, hb::int32, layout), {BLOCK});
  Tensor offsets = tile + hb::arange(0, BLOCK, layout);
  Tensor mask = offsets < n;
  Tensor inAligned = hb::multiple_of(in, {16}), outAligned = hb::multiple_of(out, {16});
  hb::store(outAligned + offsets, hb::load(inAligned + offsets, mask) + 1, mask);
});

Result<hb::Module> build(const KernelUse &use, unsigned lanes) {
  const hb::Options o = optionsOf(use);
  const hb::Layout layout = layoutOf(use.layout, lanes);
  const int block = use.ints[0];
  if (use.kernel == "assert_ok")
    return assertOk.specialize(o, block, layout);
  if (use.kernel == "assert_fails")
    return assertFails.specialize(o, block, layout);
  if (use.kernel == "hints")
    return hints.specialize(o, block, layout);
  return Error("no debug kernel '" + use.kernel + "' (tests/kernels/Debug.cpp)");
}

} // namespace

std::string addDebugKernels(BuiltKernels &out) {
  return addUses<KernelUse>(out, e2eDebugUses(), build);
}

} // namespace hadron::kernels
