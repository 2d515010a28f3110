//===- ErrorReporting.h - Filling hd_error ----------------------*- C++ -*-===//
#ifndef HADRON_RUNTIME_ERRORREPORTING_H
#define HADRON_RUNTIME_ERRORREPORTING_H

#include "hadron/plugin/plugin.h"

#include <string>

namespace hadron::runtime {

/// Writes `code` and the printf-formatted message into `err` (which may be
/// NULL) and returns `code`.
hd_status fail(hd_error *err, hd_status code, const char *format, ...)
    __attribute__((format(printf, 3, 4)));

/// Same, with a message already built.
hd_status failWith(hd_error *err, hd_status code, const std::string &message);

/// Marks `err` as a success: code HD_OK, empty message.
void clearError(hd_error *err);

} // namespace hadron::runtime

#endif // HADRON_RUNTIME_ERRORREPORTING_H
