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
#include <string>
#include <utility>
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

//===----------------------------------------------------------------------===//
// tests/e2e's memory kernels
//===----------------------------------------------------------------------===//
//
//   ids (ids, tile: i32)             scalar stores of program_id(0..2) and
//                                    num_programs(0..2) at ids[lin * 8], lin
//                                    = pid0 + num0 * (pid1 + num1 * pid2),
//                                    and lin * 1000 + arange(128) at
//                                    tile[lin * 128]; the layout's warps are
//                                    the kernel's
//   masked_copy (src, dst, n, n_out, fill: elem)
//                                    ints {block}, variant: the cache hints
//                                    (e2eCacheHints; "" for none).
//                                    dst[i] = src[i] (other: fill) for
//                                    i < n_out; src and dst 16-divisible
//   copy2d (in, out: i32, rows, cols, ld_in, ld_out)
//                                    ints {m, n}: out = 2 * in + row over
//                                    m x n tiles with row and column masks
//   gather (in, out: f32, n)         ints {block}: out[n - 1 - i] =
//                                    in[(i * 7 + 3) % n], through chained
//                                    and negative pointer offsets
//   copy64 (in, out: i32, n: i64)    ints {block}: a copy with i64 offsets
//   scalars (a, b, out: f32, k)      out[pid * 64 + i] = a[pid] +
//                                    (pid < k ? b[pid] : -1), scalar loads

/// The 1-D layouts and blocks of tests/e2e's MaskedCopy and AddPtr tests.
inline const std::vector<std::pair<Blocked, int>> &e2eMemoryLayouts() {
  static const std::vector<std::pair<Blocked, int>> l = {
      {{{1}, {32}, {1}, {0}}, 256},  // one warp, the tile repeats 8 times
      {{{4}, {32}, {4}, {0}}, 1024}, // 16-byte vectors per thread
      {{{2}, {32}, {8}, {0}}, 512},  // exactly one CTA tile
      {{{8}, {32}, {2}, {0}}, 1024}, // wide registers
      {{{1}, {32}, {8}, {0}}, 128},  // smaller than the CTA tile: replicated
  };
  return l;
}
/// The 2-D layouts and tiles of tests/e2e's Copy2D test.
inline const std::vector<std::pair<Blocked, std::vector<int>>> &e2eCopy2dLayouts() {
  static const std::vector<std::pair<Blocked, std::vector<int>>> l = {
      {{{1, 4}, {4, 8}, {4, 1}, {1, 0}}, {16, 64}},  // rows of 16-byte vectors
      {{{4, 1}, {8, 4}, {1, 4}, {0, 1}}, {32, 16}},  // column-major threads
      {{{2, 2}, {2, 16}, {2, 4}, {1, 0}}, {8, 128}}, // 8 warps, 2x4
      {{{1, 1}, {32, 1}, {1, 1}, {0, 1}}, {64, 8}},  // one warp down the rows
      {{{1, 4}, {1, 32}, {8, 1}, {1, 0}}, {8, 128}}, // a warp per row
      {{{2, 1}, {4, 8}, {1, 1}, {0, 1}}, {16, 16}},  // tile smaller than a warp's reach
  };
  return l;
}
/// The cache hints of tests/e2e's CacheHints test (load__store), on
/// e2eMemoryLayouts()[1]: what each means is in Memory.cpp's hintsOf().
inline const std::vector<std::string> &e2eCacheHints() {
  static const std::vector<std::string> h = {
      "cache_all__write_back",       "cache_global__write_through",
      "streaming_evict_first__both", "no_cache__evict_last",
      "evict_last__cache_global",    "volatile_load"};
  return h;
}
/// The element types of tests/e2e's MaskedCopy tests.
inline const std::vector<Elem> &e2eMaskedCopyElems() {
  static const std::vector<Elem> e = {Elem::F32, Elem::I64, Elem::F16, Elem::I8, Elem::F64};
  return e;
}
/// The (grid, warps) cases of tests/e2e's ProgramIds test use these warps.
inline const std::vector<int> &e2eProgramIdWarps() {
  static const std::vector<int> w = {1, 4, 8};
  return w;
}

namespace e2ememory {
inline KernelUse ids(int warps) { return {"ids", {{1}, {32}, {warps}, {0}}, Elem::I32}; }
inline KernelUse maskedCopy(const Blocked &l, int block, Elem e, const std::string &hints = "") {
  return {"masked_copy", l, e, {}, {block}, hints};
}
inline KernelUse copy2d(const Blocked &l, const std::vector<int> &tile) {
  return {"copy2d", l, Elem::I32, {}, tile};
}
inline KernelUse gather(const Blocked &l, int block) { return {"gather", l, Elem::F32, {}, {block}}; }
inline KernelUse copy64(const Blocked &l, int block) { return {"copy64", l, Elem::I32, {}, {block}}; }
inline KernelUse scalars() { return {"scalars", {{2}, {32}, {4}, {0}}}; }
} // namespace e2ememory

/// What tests/e2e's memory tests take.
inline std::vector<KernelUse> e2eMemoryUses() {
  std::vector<KernelUse> u;
  for (int w : e2eProgramIdWarps())
    u.push_back(e2ememory::ids(w));
  for (const auto &[l, block] : e2eMemoryLayouts()) {
    for (Elem e : e2eMaskedCopyElems())
      u.push_back(e2ememory::maskedCopy(l, block, e));
    u.push_back(e2ememory::gather(l, block));
    u.push_back(e2ememory::copy64(l, block));
  }
  for (const std::string &h : e2eCacheHints())
    u.push_back(e2ememory::maskedCopy(e2eMemoryLayouts()[1].first, e2eMemoryLayouts()[1].second,
                                      Elem::F32, h));
  for (const auto &[l, tile] : e2eCopy2dLayouts())
    u.push_back(e2ememory::copy2d(l, tile));
  u.push_back(e2ememory::scalars());
  return u;
}

} // namespace hadron::kernels

#endif // HADRON_TESTS_KERNELS_MEMORY_H
