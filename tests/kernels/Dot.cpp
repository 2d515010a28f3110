//===- Dot.cpp - The dot kernel, with the builder -------------------------===//

#include "Dot.h"
#include "Build.h"
#include "Elementwise.h"

namespace hadron::kernels {
namespace {

Result<hb::Module> build(const KernelUse &use, unsigned lanes) {
  const int bm = use.ints[0], bn = use.ints[1], bk = use.ints[2];
  const int warps = use.layout.numWarps();
  const hb::DType in = dtypeOf(use.elem), accType = dtypeOf(elemNamed(use.variant));
  const hb::Layout acc = layoutOf(use.layout, lanes);
  const hb::Layout al = layoutOf(dotLoadA(warps), lanes), bl = layoutOf(dotLoadB(warps), lanes);
  return hb::jit("matmul", [&] {
           Tensor A = hb::arg(hb::pointer_type(in)), B = hb::arg(hb::pointer_type(in));
           Tensor C = hb::arg(hb::pointer_type(accType)), D = hb::arg(hb::pointer_type(accType));
           Tensor m = hb::arg(hb::int32), n = hb::arg(hb::int32), k = hb::arg(hb::int32);
           Tensor m0 = hb::program_id(0) * bm, n0 = hb::program_id(1) * bn;
           Tile2d tc = tile2d(bm, bn, acc, n, m0, n0, m, n);
           Tensor c = hb::load(C + tc.offsets, tc.mask, 0);
           Tensor d = hb::for_range(0, k, bk, c, [&](Tensor k0, Tensor carried) {
             Tile2d ta = tile2d(bm, bk, al, k, m0, k0, m, k);
             Tile2d tb = tile2d(bk, bn, bl, n, k0, n0, k, n);
             Tensor a = hb::convert_layout(hb::load(A + ta.offsets, ta.mask, 0), hb::DotOperand{0, acc});
             Tensor b = hb::convert_layout(hb::load(B + tb.offsets, tb.mask, 0), hb::DotOperand{1, acc});
             return hb::dot(a, b, carried);
           });
           hb::store(D + tc.offsets, d, tc.mask);
         }).specialize({.numWarps = static_cast<unsigned>(warps)});
}

} // namespace

std::string addDotKernels(BuiltKernels &out) {
  std::vector<KernelUse> uses = dotUses();
  for (KernelUse &u : e2eDotUses())
    uses.push_back(std::move(u));
  return addUses<KernelUse>(out, uses, build);
}

} // namespace hadron::kernels
