//===- SpirTranslation.h - SPIR-V for OpenCL devices without IL -*- C++ -*-===//
//
// The fallback for OpenCL devices that take no SPIR-V but SPIR 1.2 bitcode
// (cl_khr_spir; PoCL 3.1 from Debian is one): the module is translated with
// the llvm-spirv-15 tool (`-r`), after rewriting what that translator
// rejects: LLVM 22 emits OpConstantNull for scalars, which llvm-spirv 15
// takes only for composites and pointers, so scalar nulls become
// OpConstant 0 / OpConstantFalse. Chosen only for devices without IL
// support; the runtime part links no LLVM for it (it runs the tool).
//
//===----------------------------------------------------------------------===//
#ifndef HADRON_TARGETS_INTEL_RUNTIME_SPIRTRANSLATION_H
#define HADRON_TARGETS_INTEL_RUNTIME_SPIRTRANSLATION_H

#include <cstdint>
#include <string>

namespace hadron::intel {

/// The translator: $HADRON_INTEL_LLVM_SPIRV, else llvm-spirv-15 on PATH;
/// "" when there is none.
std::string spirTranslator();

/// `spirv` with every scalar OpConstantNull replaced by OpConstant 0 (or
/// OpConstantFalse). Returns "" with `why` when the words do not parse.
std::string rewriteScalarNulls(const std::string &spirv, std::string &why);

/// SPIR 1.2 bitcode for `spirv`, or "" with `why` (the translator's output).
std::string translateToSpir(const std::string &spirv, std::string &why);

} // namespace hadron::intel

#endif // HADRON_TARGETS_INTEL_RUNTIME_SPIRTRANSLATION_H
