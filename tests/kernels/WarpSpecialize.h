//===- WarpSpecialize.h - The warp-specialised kernels ----------*- C++ -*-===//
//
// The kernels of the conformance suite's ws.* cases, each an
// hd.warp_specialize whose default region runs the kernel's 4 warps:
//
//   ring (in, out: i32, nblocks)
//        one side fills a ring of `stages` shared buffers of kRingBlock
//        elements, the other drains it. Program p's block j is
//        in[(p * nblocks + j) * kRingBlock ...]; the producer waits for
//        stage j % stages to be empty (parity ((j / stages) & 1) ^ 1: the
//        phase before the first counts as complete), loads the block, stores
//        it into the stage and arrives once on the stage's "full" barrier
//        (count 1); the consumer waits for "full" (parity (j / stages) & 1),
//        reads the stage, arrives on "empty" per warp (a count of its warps)
//        and folds acc = 3 * acc + block (i32, wrapping: the order of the
//        blocks matters), then stores acc at out[p * kRingBlock ...].
//        `producerIsWorker`: a worker of `workerWarps` warps produces and
//        the default region consumes; otherwise the default region produces
//        and the worker consumes (and stores).
//   barriers (in, out: i32)
//        the default region and workers of 2 and 1 warps each take one
//        32 x 32 block (program p, region r: block 3 p + r, row-major at
//        in[1024 (3 p + r)]), x, into a shared buffer of their own from a
//        row-major layout, hd.barrier, read it into a column-major layout
//        (first); hd.barrier, store 2 * x + r over it from the column-major
//        layout, hd.barrier, read it back in the row-major one (second); out
//        = first + second at the block's place. Each region's barriers must
//        wait for its own warps only, while the others run theirs.
//
//===----------------------------------------------------------------------===//
#ifndef HADRON_TESTS_KERNELS_WARPSPECIALIZE_H
#define HADRON_TESTS_KERNELS_WARPSPECIALIZE_H

#include <string>
#include <vector>

namespace hadron::kernels {

/// Elements of one ring block; the kernels' default region has 4 warps.
constexpr int kRingBlock = 256;
constexpr int kWsNumWarps = 4;

struct WarpSpecializeUse {
  /// "ring" or "barriers".
  std::string kernel;
  bool producerIsWorker = true;
  int workerWarps = 1;
  int stages = 2;

  /// The conformance case's name, after "ws.".
  std::string name() const {
    if (kernel == "barriers")
      return "barriers.regions_w4_w2_w1";
    return std::string("ring.") + (producerIsWorker ? "producer_w" : "consumer_w") +
           std::to_string(workerWarps) + ".stages" + std::to_string(stages);
  }
  std::string key(unsigned lanes) const {
    return "ws." + name() + ".lanes" + std::to_string(lanes);
  }
};

inline std::vector<WarpSpecializeUse> warpSpecializeUses() {
  return {
      {"ring", true, 1, 2},
      {"ring", true, 2, 4},
      {"ring", false, 2, 2},
      {"barriers"},
  };
}

} // namespace hadron::kernels

#endif // HADRON_TESTS_KERNELS_WARPSPECIALIZE_H
