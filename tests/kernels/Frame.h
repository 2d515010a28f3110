//===- Frame.h - The 1-D frame kernels, their uses and keys -----*- C++ -*-===//
//
// The kernels both suites take from the kernel library whose body maps one
// loaded tile to the tile it stores. Each takes (in: !hd.ptr<i32>, out:
// !hd.ptr<i32>, n: i32[, extra: i32]); program pid loads x from
// in[pid * block + arange(block)] where that is < n and stores f(x) there:
//
//   for_loop      (extra = trips) acc = x; for i < trips: acc += x * i
//   if_else       even programs x * 3, odd ones x - 7
//   while_loop    (extra = base) x doubled (pid % 5) + base times
//   nest          (extra = a) for i < a: for j < 3: acc = (i + j) even ? acc + x : acc - 1
//   store_in_loop (extra = trips) stores x + i * 10 on each iteration i, then
//                 x + (trips - 1) * 10 after the loop (the last store wins)
//   plus_one      x + 1; print, assert_ok, hints and barrier_only also x + 1,
//                 after a print of x and of n in hex, a passing assert
//                 x < 1001, assume(n > 0) and multiple_of, a barrier
//   many_args     six (in_j, out_j) pairs, then n: out_j = in_j * (j + 1),
//                 one program of `block` elements
//
// Plain C++: the suites (runtime only) compute the keys; the generator
// (tests/kernels/Generate.cpp, with the C++ builder) builds every use below.
//
//===----------------------------------------------------------------------===//
#ifndef HADRON_TESTS_KERNELS_FRAME_H
#define HADRON_TESTS_KERNELS_FRAME_H

#include "testkit/Layouts.h"

#include <string>
#include <vector>

namespace hadron::kernels {

using testkit::Blocked;

/// The 1-D layouts the frame kernels run with (4, 1 and 2 elements per
/// thread; 4, 8 and 1 warps), the conformance suite's first 1-D layouts.
inline const std::vector<Blocked> &frameLayouts() {
  static const std::vector<Blocked> l = {
      {{4}, {32}, {4}, {0}},
      {{1}, {32}, {8}, {0}},
      {{2}, {32}, {1}, {0}},
  };
  return l;
}
/// One warp of one element a thread, and one warp of eight.
inline const Blocked kOneWarp{{1}, {32}, {1}, {0}};
inline const Blocked kOneWarpOf8{{8}, {32}, {1}, {0}};
inline const Blocked kSixteenWarps{{1}, {32}, {16}, {0}};

/// One specialisation: a kernel, its layout and the elements a program
/// takes (0: the layout's tile for the lane count).
struct FrameUse {
  std::string kernel;
  Blocked layout;
  int block = 0;

  int blockFor(unsigned lanes) const { return block ? block : layout.tile(0, lanes); }
  /// The key of the kernel built for `lanes` (kernels::builtKernelIR).
  std::string key(unsigned lanes) const {
    return "frame." + kernel + "." + layout.name() + "_b" + std::to_string(blockFor(lanes)) +
           ".lanes" + std::to_string(lanes);
  }
};

/// The control-flow kernels, each with a fixed block, as tests/e2e runs them.
inline std::vector<FrameUse> e2eControlFlowUses() {
  std::vector<FrameUse> uses;
  const int blocks[] = {512, 256, 64};
  for (const char *kernel : {"for_loop", "if_else", "while_loop", "nest"})
    for (size_t i = 0; i < frameLayouts().size(); ++i)
      uses.push_back({kernel, frameLayouts()[i], blocks[i]});
  return uses;
}

/// What the conformance suite's cf.* and misc.* cases take (a block of
/// one tile).
inline std::vector<FrameUse> conformanceFrameUses() {
  const auto &l = frameLayouts();
  return {
      {"for_loop", l[0]},      {"for_loop", l[1]},       {"for_loop", l[2]},
      {"if_else", l[0]},       {"if_else", l[1]},        {"while_loop", l[0]},
      {"while_loop", l[1]},    {"nest", l[2]},           {"store_in_loop", l[0]},
      {"print", kOneWarp},     {"assert_ok", l[0]},      {"hints", l[0]},
      {"barrier_only", l[0]},  {"plus_one", kOneWarpOf8}, {"plus_one", kSixteenWarps},
      {"many_args", l[2]},
  };
}

} // namespace hadron::kernels

#endif // HADRON_TESTS_KERNELS_FRAME_H
