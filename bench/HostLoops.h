//===- HostLoops.h - Plain C++ loops the host target is measured against --===//
//
// What a programmer would write without Hadron: straight loops over the
// data, split into one contiguous chunk per std::thread. HostLoops.cpp alone
// is compiled with -O3 -march=native (bench/CMakeLists.txt), so the compiler
// vectorises them for this CPU. They also serve as the host references the
// kernels' results are checked against.
//
//===----------------------------------------------------------------------===//
#ifndef HADRON_BENCH_HOSTLOOPS_H
#define HADRON_BENCH_HOSTLOOPS_H

#include <cstddef>

namespace hadron::bench {

void loopCopy(const float *src, float *dst, size_t n, unsigned threads);
void loopAdd(const float *a, const float *b, float *c, size_t n, unsigned threads);
/// Each row of `cols` floats: exp(x - max) / sum, in float like the kernel.
void loopSoftmax(const float *in, float *out, size_t rows, size_t cols, unsigned threads);

} // namespace hadron::bench

#endif // HADRON_BENCH_HOSTLOOPS_H
