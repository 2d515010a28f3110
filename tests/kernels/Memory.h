//===- Memory.h - The global-memory kernels and their uses ------*- C++ -*-===//
//
// The kernels of the conformance suite's mem.* cases (program pid's block is
// pid * block + arange(block), block the layout's tile; n masks it):
//   masked_load_other (in, out, n)   out = load(in, mask, other -7 / -7.5),
//                                    stored unmasked over whole blocks
//   program_ids (out: i32)           scalar stores of program_id(0..2) and
//                                    num_programs(0..2) at out[linear pid * 6]
//   copy2d (in, out: f32, rows, cols) 2 * in over copy2dTile() tiles of a
//                                    row-major rows x cols matrix, row and
//                                    column masks, 2-D grid (x: columns)
//   copy3d (in, out: i32)            in + program_id(2) over a 3-D grid, one
//                                    block per program in linear order
//   gather (in, out: f32, n, stride) out[i] = in[(i * stride) % n]
//   large_grid (out: i32)            every element of a block = program_id(0)
//   zero_size (in, out: f32, n)      out = in, masked
//   scalar_access (in, params, out: f32, n)
//                                    out = in * params[0] + params[1]
//
//===----------------------------------------------------------------------===//
#ifndef HADRON_TESTS_KERNELS_MEMORY_H
#define HADRON_TESTS_KERNELS_MEMORY_H

#include "kernels/Frame.h"
#include "kernels/KernelUse.h"

#include <algorithm>
#include <vector>

namespace hadron::kernels {

/// The 2-D layouts (row-major, column-major, warps along columns) the
/// conformance suite rotates through.
inline const std::vector<Blocked> &layouts2d() {
  static const std::vector<Blocked> l = {
      {{1, 4}, {4, 8}, {4, 1}, {1, 0}},
      {{4, 1}, {8, 4}, {1, 4}, {0, 1}},
      {{2, 2}, {2, 16}, {1, 2}, {1, 0}},
  };
  return l;
}

/// copy2d's tile: the layout's, at least 16 x 16.
inline std::vector<int> copy2dTile(const Blocked &layout, unsigned lanes) {
  return {std::max(layout.tile(0, lanes), 16), std::max(layout.tile(1, lanes), 16)};
}

namespace memory {
inline KernelUse maskedLoadOther(Elem e, const Blocked &layout) {
  return {"masked_load_other", layout, e};
}
// Four warps, as the other cases; no tile.
inline KernelUse programIds() { return {"program_ids", frameLayouts()[0], Elem::I32}; }
inline KernelUse copy2d(const Blocked &layout) { return {"copy2d", layout}; }
inline KernelUse copy3d() { return {"copy3d", {{2}, {32}, {2}, {0}}, Elem::I32}; }
inline KernelUse gather() { return {"gather", {{4}, {32}, {2}, {0}}}; }
inline KernelUse largeGrid() { return {"large_grid", kOneWarp, Elem::I32}; }
inline KernelUse zeroSize() { return {"zero_size", frameLayouts()[0]}; }
inline KernelUse scalarAccess() { return {"scalar_access", frameLayouts()[2]}; }
} // namespace memory

/// What the conformance suite's mem.* cases take.
inline std::vector<KernelUse> memoryUses() {
  std::vector<KernelUse> uses;
  size_t rot = 0;
  for (Elem e : {Elem::F32, Elem::I8, Elem::F16, Elem::I64, Elem::BF16})
    uses.push_back(memory::maskedLoadOther(e, frameLayouts()[rot++ % 3]));
  for (const Blocked &l : layouts2d())
    uses.push_back(memory::copy2d(l));
  for (KernelUse u : {memory::programIds(), memory::copy3d(), memory::gather(),
                      memory::largeGrid(), memory::zeroSize(), memory::scalarAccess()})
    uses.push_back(u);
  return uses;
}

} // namespace hadron::kernels

#endif // HADRON_TESTS_KERNELS_MEMORY_H
