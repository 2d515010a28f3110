//===- CublasReference.h - cuBLAS's bf16 GEMM, dlopen'ed, as a reference ---===//
//
// The GEMM benchmark times Hadron's kernels next to the vendor library in the
// same process, on the same device buffers, with the same device events and
// launches interleaved, so that clock and power drift between processes (a
// torch run a minute earlier) does not enter the ratio. libcublas is
// resolved with dlopen and never linked: the benchmark starts where there is
// no CUDA at all, and without the library it says why and times Hadron
// alone. cuBLAS runs in device 0's primary context on the legacy default
// stream, as the nvidia plugin does, so Hadron buffers are valid for it and
// Hadron events time it.
//
//===----------------------------------------------------------------------===//
#ifndef HADRON_BENCH_CUBLASREFERENCE_H
#define HADRON_BENCH_CUBLASREFERENCE_H

#include <cstdint>
#include <memory>
#include <string>

namespace hadron::bench {

class CublasReference {
public:
  /// Loads `path` (a libcublas.so), or with an empty path libcublas.so.13
  /// then .12 from the loader's search path, and creates a handle. Null with
  /// `why` saying which step failed.
  static std::unique_ptr<CublasReference> open(const std::string &path, std::string &why);
  /// Whether `path` loads and has the entry points used, without creating a
  /// handle (no device needed): how a --cublas naming the wrong file is
  /// refused before anything runs.
  static bool loadable(const std::string &path, std::string &why);

  /// C = A * B, all row-major bf16 device pointers (A m x k, B k x n,
  /// C m x n), f32 accumulation: cublasGemmEx on the column-major
  /// transposes (C^T = B^T A^T), the library's default algorithm.
  bool gemmBf16(uint64_t a, uint64_t b, uint64_t c, int m, int n, int k, std::string &why);

  /// What was loaded (the path dlopen resolved and the library version).
  const std::string &describe() const { return description_; }

  ~CublasReference();

  struct Api;

private:
  CublasReference() = default;
  std::unique_ptr<Api> api_;
  void *lib_ = nullptr;
  void *handle_ = nullptr;
  std::string description_;
};

} // namespace hadron::bench

#endif // HADRON_BENCH_CUBLASREFERENCE_H
