//===- Sources.h - The kernel library's families, for the generator -------===//
//
// The suites link no MLIR, so the kernels they take from the C++ builder
// are built at build time by hadron-test-kernels (Generate.cpp) and
// compiled into them as a table (BuiltKernels.h). Each family appends its
// kernels for every lane count.
//
//===----------------------------------------------------------------------===//
#ifndef HADRON_TESTS_KERNELS_SOURCES_H
#define HADRON_TESTS_KERNELS_SOURCES_H

#include <string>
#include <utility>
#include <vector>

namespace hadron::kernels {

/// (key, IR) of each kernel.
using BuiltKernels = std::vector<std::pair<std::string, std::string>>;

/// Appends the frame kernels (Frame.h) of every use; returns "" or what
/// failed to build.
std::string addFrameKernels(BuiltKernels &out);
/// The elementwise and conversion kernels (Elementwise.h) of every use.
std::string addElementwiseKernels(BuiltKernels &out);
/// The global-memory kernels (Memory.h).
std::string addMemoryKernels(BuiltKernels &out);
/// The shape kernels (Shape.h).
std::string addShapeKernels(BuiltKernels &out);
/// The reduction and scan kernels (ReduceScan.h).
std::string addReduceScanKernels(BuiltKernels &out);
/// The atomic kernels (Atomic.h).
std::string addAtomicKernels(BuiltKernels &out);
/// The layout-conversion and shared-memory kernels (Layout.h).
std::string addLayoutKernels(BuiltKernels &out);
/// The dot kernels (Dot.h).
std::string addDotKernels(BuiltKernels &out);
/// tests/e2e's shared-memory kernels (SharedMemory.h).
std::string addSharedMemoryKernels(BuiltKernels &out);
/// tests/e2e's assert and hint kernels (Debug.h).
std::string addDebugKernels(BuiltKernels &out);
/// The warp-specialised kernels (WarpSpecialize.h).
std::string addWarpSpecializeKernels(BuiltKernels &out);

} // namespace hadron::kernels

#endif // HADRON_TESTS_KERNELS_SOURCES_H
