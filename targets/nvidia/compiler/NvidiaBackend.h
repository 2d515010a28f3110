//===- NvidiaBackend.h - LLVM IR to PTX and cubin ---------------*- C++ -*-===//
//
// The back half of an NVIDIA compilation:
//
//   LLVM IR -> math intrinsics NVPTX cannot select become libdevice calls
//           -> libdevice linked (only what is used, internalized)
//           -> O0..O3 with NVPTX's cost model (and NVVMReflect)
//           -> no unresolved extern left, else an error naming it
//           -> NVPTX backend -> PTX -> ptxas -> cubin (when ptxas is found)
//
// The CUDA toolkit is found at compile time: $CUDA_HOME when set (and only
// there: pointing it at a directory without a toolkit compiles without
// one), else /usr/local/cuda, else the toolkit around the first ptxas on
// PATH. Without libdevice, a kernel that needs it is an error; without
// ptxas the binary is the PTX itself, which the driver JIT-compiles.
//
//===----------------------------------------------------------------------===//
#ifndef HADRON_TARGETS_NVIDIA_COMPILER_NVIDIABACKEND_H
#define HADRON_TARGETS_NVIDIA_COMPILER_NVIDIABACKEND_H

#include "hadron/Support/Result.h"

#include <memory>
#include <string>
#include <vector>

namespace llvm {
class Module;
class TargetMachine;
} // namespace llvm

namespace hadron {
struct PipelineOptions;
}

namespace hadron::nvidia {

/// Where the CUDA toolkit's pieces are; a path is empty when absent.
struct CudaToolkit {
  std::string ptxas;
  std::string libdevice;
  /// The directories looked in, for messages ("CUDA_HOME=/x", "/usr/local/cuda").
  std::vector<std::string> searched;

  static CudaToolkit find();
  std::string describeSearch() const;
};

/// An NVPTX TargetMachine for `arch` ("sm_90a"), codegen at `optLevel`.
Result<std::unique_ptr<llvm::TargetMachine>> createNvptxTargetMachine(const std::string &arch,
                                                                      unsigned optLevel);

/// The compiled code.
struct NvptxCode {
  std::string llvmIR; ///< after linking and optimisation
  std::string ptx;
  std::string binary; ///< the cubin, or the PTX when no ptxas was found
  bool isCubin = false;
};

/// Runs the back half on `module` (changed in place).
Result<NvptxCode> compileToPtx(llvm::Module &module, llvm::TargetMachine &machine,
                               const std::string &arch, const CudaToolkit &toolkit,
                               const PipelineOptions &options);

} // namespace hadron::nvidia

#endif // HADRON_TARGETS_NVIDIA_COMPILER_NVIDIABACKEND_H
