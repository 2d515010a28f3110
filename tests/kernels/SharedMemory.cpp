//===- SharedMemory.cpp - tests/e2e's shared-memory kernels, with the builder ===//

#include "SharedMemory.h"
#include "Build.h"
#include "Memory.h"

namespace hadron::kernels {
namespace {

Result<hb::Module> build(const SharedUse &use, unsigned lanes) {
  const hb::Layout rows = layoutOf(layouts2d()[0], lanes);
  const hb::Layout cols = layoutOf({{4, 1}, {8, 4}, {1, 4}, {0, 1}}, lanes);
  const hb::Layout sh = hb::Layout::fromText(use.shared.layout);
  auto kernel = hb::jit(use.kernel, [&] {
    Tensor in = hb::arg(hb::pointer_type(hb::float32)), out = hb::arg(hb::pointer_type(hb::float32));
    Tensor in2 = use.kernel == "store_load" || use.kernel == "stages"
                     ? hb::arg(hb::pointer_type(hb::float32))
                     : Tensor();
    Tensor base = hb::program_id(0) * 1024;
    auto at = [&](const hb::Layout &l) { return base + tile2d(32, 32, l, 32).offsets; };
    Tensor x = hb::load(in + at(rows));
    Tensor result;
    if (use.kernel == "alloc_load") {
      hb::SharedMemory m = hb::allocate_shared_memory(hb::float32, {32, 32}, sh, x);
      result = m.load(cols);
      m.dealloc();
    } else if (use.kernel == "store_load") {
      hb::SharedMemory m = hb::allocate_shared_memory(hb::float32, {32, 32}, sh);
      m.store(x);
      hb::barrier();
      Tensor first = m.load(cols);
      hb::barrier();
      m.store(hb::load(in2 + at(cols)));
      hb::barrier();
      Tensor second = hb::convert_layout(m.load(rows), cols);
      result = first + (second + second);
      m.dealloc();
    } else if (use.kernel == "slices") {
      hb::SharedMemory m = hb::allocate_shared_memory(hb::float32, {32, 32}, sh, x);
      Tensor top = m.slice({0, 0}, {16, 32}).load(rows);
      Tensor bottom = m.slice({16, 0}, {16, 32}).load(rows);
      // Bottom half to rows 0..15, top half to rows 16..31.
      for (int part = 0; part < 2; ++part)
        hb::store(out + (base + tile2d(16, 32, rows, 32, part * 16).offsets), part ? top : bottom);
      m.dealloc();
      return;
    } else {
      hb::SharedMemory bufs = hb::allocate_shared_memory(hb::float32, {2, 32, 32}, sh);
      hb::SharedMemory b0 = bufs.index(0);
      hb::SharedMemory b1 = bufs.index(hb::constant(3, hb::int32) - 2);
      Tensor y = hb::load(in2 + at(rows));
      b0.store(x);
      b1.store(y);
      hb::barrier();
      Tensor r0 = b0.load(cols), r1 = b1.load(cols);
      result = (r1 + r1) + r0;
      bufs.dealloc();
    }
    hb::store(out + at(cols), result);
  });
  return kernel.specialize({.numWarps = 4});
}

} // namespace

std::string addSharedMemoryKernels(BuiltKernels &out) {
  return addUses<SharedUse>(out, e2eSharedUses(), build);
}

} // namespace hadron::kernels
