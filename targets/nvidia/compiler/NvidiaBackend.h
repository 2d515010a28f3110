//===- NvidiaBackend.h - LLVM IR to PTX and cubin ---------------*- C++ -*-===//
//
// The NVIDIA steps of the back half (NvidiaCompiler.cpp runs them in
// TargetCompiler's flow):
//
//   LLVM IR -> math intrinsics NVPTX cannot select become libdevice calls
//           -> libdevice linked (only what is used, internalized)
//           -> (base) O0..O3 with NVPTX's cost model (and NVVMReflect)
//           -> no unresolved extern left, else an error naming it
//           -> (base) NVPTX backend -> PTX -> ptxas -> cubin (when ptxas is found)
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
#include "hadron/Support/Status.h"

#include <map>
#include <string>
#include <vector>

namespace llvm {
class Module;
} // namespace llvm

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

/// Registers LLVM's NVPTX backend (MachineSpec::initializeBackend).
void initializeNvptxBackend();

/// Replaces every call of a math intrinsic NVPTX cannot select (it would
/// abort code generation) with calls of its libdevice function, lane by lane
/// for vectors; f16 and bf16 are computed in f32. Returns the libdevice
/// functions the module now declares, each with the intrinsic it came from
/// (for messages).
std::map<std::string, std::string> useLibdeviceForMath(llvm::Module &module);

/// NVPTX has no predicated vector load or store: it turns llvm.masked.load
/// and .store into one branch and one scalar access per element. Where the
/// whole vector is enabled, which is every vector but a tile's ragged edge,
/// a plain vector access (ld.global.v4 / st.global.v4) does the same, so
/// each masked access becomes
///   all(mask) ? vector access : the masked access (scalarized).
void splitMaskedAccesses(llvm::Module &module);

/// Links libdevice, only what the kernels call and internalized, when
/// `calls` (from useLibdeviceForMath) is not empty; without libdevice in
/// the toolkit that is an error naming the first call and where it looked.
Status linkLibdevice(llvm::Module &module, const CudaToolkit &toolkit,
                     const std::map<std::string, std::string> &calls);

/// The first function or global the module uses without defining that
/// neither PTX nor the driver provide, as a message; "" when none.
std::string unresolvedExtern(const llvm::Module &module);

/// The cubin ptxas makes of `ptx` for `arch` at -O`optLevel`.
Result<std::string> runPtxas(const CudaToolkit &toolkit, const std::string &arch,
                             const std::string &ptx, unsigned optLevel);

} // namespace hadron::nvidia

#endif // HADRON_TARGETS_NVIDIA_COMPILER_NVIDIABACKEND_H
