//===- ErrorReporting.h - Filling hd_error ----------------------*- C++ -*-===//
#ifndef HADRON_RUNTIME_ERRORREPORTING_H
#define HADRON_RUNTIME_ERRORREPORTING_H

#include "hadron/plugin/RuntimeTable.h"
#include "hadron/plugin/plugin.h"

#include <string>

namespace hadron::runtime {

/// fail(err, code, format, ...): the runtime writes errors as plugins do.
using plugin::fail;

/// fail() with a message already built.
hd_status failWith(hd_error *err, hd_status code, const std::string &message);

/// Marks `err` as a success: code HD_OK, empty message.
void clearError(hd_error *err);

/// Prints "hadron: warning: <message>" on stderr, the first time this
/// process is told that message: for what the runtime recovers from but the
/// user should hear of (a damaged kernel cache entry), without a flood when
/// it recurs.
void warnOnce(const std::string &message);

} // namespace hadron::runtime

#endif // HADRON_RUNTIME_ERRORREPORTING_H
