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

} // namespace hadron::runtime

#endif // HADRON_RUNTIME_ERRORREPORTING_H
