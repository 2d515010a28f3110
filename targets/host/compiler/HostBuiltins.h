//===- HostBuiltins.h - Conversion helpers every host binary carries -*- C++ -*-===//
#ifndef HADRON_TARGETS_HOST_HOSTBUILTINS_H
#define HADRON_TARGETS_HOST_HOSTBUILTINS_H

#include "hadron/Compiler/Backend.h"
#include "hadron/Support/Result.h"

#include <string>

namespace hadron::host {

/// An object file defining, with hidden visibility, the half/bfloat
/// conversion helpers that LLVM's back end calls where `machine`'s CPU has no
/// instruction for them (__truncsfbf2, __truncdfbf2, __truncsfhf2,
/// __truncdfhf2, __extendhfsf2). Linked into every host binary.
Result<std::string> builtinsObject(llvm::TargetMachine &machine);

} // namespace hadron::host

#endif
