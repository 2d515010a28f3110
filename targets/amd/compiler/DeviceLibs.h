//===- DeviceLibs.h - Math, printf and the ROCm device libraries -*- C++ -*-===//
//
// Between translation to LLVM IR and code generation, an AMD module goes
// through these steps, in order:
//
//   expandPrintf           the hooks' printf placeholder -> hostcall printf
//                          (__ockl_printf_*), as HIP's printf
//   useOcmlForMath         math intrinsics the AMDGPU backend cannot select
//                          (f64 exp/log/sin/..., every tan/asin/atan/sinh/...)
//                          or selects inaccurately (f32 sin/cos) -> __ocml_*
//   linkDeviceLibraries    ocml.bc / ockl.bc, only when the module calls them,
//                          with the __oclc_* control constants defined here
//   findUnresolvedCall     an error for any call nothing defines, before the
//                          backend (which would abort on some) or the linker
//
// The Debian package rocm-device-libs (5.2.3) lacks oclc_isa_version files
// for gfx942, gfx950 and gfx1100, so every __oclc_* constant is generated
// from the arch model instead of linked; they are one-line constants.
//
//===----------------------------------------------------------------------===//
#ifndef HADRON_TARGETS_AMD_COMPILER_DEVICELIBS_H
#define HADRON_TARGETS_AMD_COMPILER_DEVICELIBS_H

#include "AmdModel.h"
#include "hadron/Support/Result.h"

#include <string>
#include <vector>

namespace llvm {
class Module;
} // namespace llvm

namespace hadron::amd {

/// Replaces every call to AmdHooks::kPrintfName by a hostcall printf.
void expandPrintf(llvm::Module &module);

/// Replaces calls of math intrinsics the backend lacks by __ocml_* calls
/// (vectors element by element, bf16 through f32).
void useOcmlForMath(llvm::Module &module);

/// Where the device libraries are looked for: $HADRON_AMD_DEVICE_LIBS
/// alone when set, else the Debian and ROCm install directories.
std::vector<std::string> deviceLibrarySearchPath();

/// Links ocml.bc and ockl.bc from the first directory of `searchPath` that
/// holds them, each only when the module calls into it, defines the
/// __oclc_* constants for `arch`, and internalises what was linked. The
/// module's triple and data layout must be set. Returns the files linked
/// (empty when none was needed); an error names the missing file, the
/// function that needed it and the directories searched.
Result<std::vector<std::string>> linkDeviceLibraries(llvm::Module &module, const ArchModel &arch,
                                                     const std::vector<std::string> &searchPath);

/// "" when every called function and used global is defined (or is an
/// intrinsic); otherwise a message naming the first one that is not.
std::string findUnresolvedCall(const llvm::Module &module);

} // namespace hadron::amd

#endif // HADRON_TARGETS_AMD_COMPILER_DEVICELIBS_H
