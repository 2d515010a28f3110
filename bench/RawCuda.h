//===- RawCuda.h - The CUDA driver, dlopen'ed, for the launch baseline ----===//
//
// The launch-overhead benchmark compares a Hadron launch with a bare
// cuLaunchKernel of the same cubin in the same process. The driver is
// resolved with dlopen("libcuda.so.1") and never linked (the binary must
// start where there is no CUDA at all). It uses the primary context of
// device 0 and the legacy default stream, as the nvidia plugin does, so
// device pointers of Hadron buffers are valid here too.
//
//===----------------------------------------------------------------------===//
#ifndef HADRON_BENCH_RAWCUDA_H
#define HADRON_BENCH_RAWCUDA_H

#include <cstdint>
#include <memory>
#include <string>

namespace hadron::bench {

class RawCuda {
public:
  /// Loads the driver, initialises it and makes device `ordinal`'s primary
  /// context current. Null with `why` set when any step fails; `missing`
  /// is set when the reason is that libcuda.so.1 is not there.
  static std::unique_ptr<RawCuda> open(int ordinal, std::string &why, bool &missing);

  /// Loads a cubin (or PTX) image and finds `kernel` in it.
  bool loadKernel(const std::string &image, const std::string &kernel, std::string &why);
  /// One launch of the loaded kernel on the default stream.
  bool launch(uint32_t gridX, uint32_t blockX, uint32_t sharedBytes, void **params,
              std::string &why);
  bool synchronize(std::string &why);

  ~RawCuda();

  struct Api; ///< The resolved entry points (RawCuda.cpp).

private:
  RawCuda() = default;
  std::unique_ptr<Api> api_;
  void *handle_ = nullptr;
  int device_ = 0;
  void *context_ = nullptr;
  void *module_ = nullptr;
  void *function_ = nullptr;
};

} // namespace hadron::bench

#endif // HADRON_BENCH_RAWCUDA_H
