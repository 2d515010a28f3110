//===- Main.cpp - hadron-e2e: every hd op, end to end, on one device -----===//
//
// hadron-e2e compiles hd kernels (the kernel library's, tests/kernels,
// written with the C++ builder and built at build time for every warp size;
// a few as IR text) through libhadron-runtime, runs them on fresh
// random inputs into poisoned outputs and compares the results with plain
// C++ references: every op of the hd dialect, each with several layouts
// (sizePerThread / threadsPerWarp / warpsPerCTA / order, num_warps 1, 4, 8)
// and sizes that are not multiples of the tile. It links only the runtime
// and GoogleTest, so the same binary runs on a machine without LLVM/MLIR.
//
// Running it
// ----------
// On the host (the default device of this suite):
//
//   ninja -C build/<dir> hadron-e2e
//   ctest --test-dir build/<dir> -R hadron-e2e          # one process per test
//   build/<dir>/bin/hadron-e2e                           # all in one process
//
// On a GPU: the runtime's selector picks the device, e.g.
//
//   HADRON_DEVICE=nvidia build/<dir>/bin/hadron-e2e
//
// Layouts follow the device's warp size: threadsPerWarp multiplies to 32 on
// a 32-wide GPU and on the host (whose warp size 1 means "fold the threads
// into registers", so the GPU-shaped layouts run there unchanged), to 64 on
// a wave64 GPU. HADRON_E2E_WARP_SIZE=64 forces 64-lane layouts (the host
// runs those too).
//
// Compile only, for a target without a device here, or to run where no
// compiler exists:
//
//   export HADRON_CACHE_DIR=$PWD/kernel-cache
//   HADRON_E2E_COMPILE_ONLY=nvidia:sm_90a build/<dir>/bin/hadron-e2e
//
// compiles every kernel of every test through hd_context_compile for that
// plugin and arch (no device needed; a wave64 target also wants
// HADRON_E2E_WARP_SIZE=64) and skips the launches. That proves each kernel
// compiles for the target, and fills the kernel cache under exactly the keys
// hd_module_load_ir computes on a device of that arch (same IR text, same
// arch string, opt level 3, no dumps). Carry the cache directory to the GPU
// machine and run there with the same HADRON_CACHE_DIR and
// HADRON_DEVICE=nvidia: every kernel loads from the cache, and the compiler
// part is never needed. (ctest's hadron-e2e.aot.* tests do this round trip
// with the host target and a plugin directory holding only its runtime part.)
//
// Other settings
//   HADRON_E2E_DUMP_DIR=<dir>  writes every kernel's IR to <dir> as
//                         <Suite.Test>.<n>.mlir (the directory must exist)
//   HADRON_E2E_SEED=<n>   the seed of every test (each failure prints its
//                         seed and the command that replays it); unset: a
//                         fresh seed per test from the clock.
//
// Tests of ops whose lowering is in progress (shared memory, async copies,
// conversions and reductions across lanes and warps) probe first and skip
// with "not lowered yet: <compile error>" until the probe compiles; tests of
// known core bugs skip with "KNOWN CORE BUG: ...".
//
//===----------------------------------------------------------------------===//

#include "E2E.h"

#include <cstdio>

int main(int argc, char **argv) {
  ::testing::InitGoogleTest(&argc, argv);
  // Listing (what ctest's discovery does) needs no device, and any other
  // output would be read as a test name.
  if (GTEST_FLAG_GET(list_tests))
    return RUN_ALL_TESTS();
  hadron::e2e::Session &s = hadron::e2e::session();
  if (s.problem.empty())
    std::printf("hadron-e2e on %s\n", s.describe().c_str());
  else
    std::printf("hadron-e2e: %s\n", s.problem.c_str());
  return RUN_ALL_TESTS();
}
