//===- ErrorReporting.cpp - Filling hd_error ------------------------------===//

#include "ErrorReporting.h"

#include <cstdarg>
#include <cstdio>

namespace hadron::runtime {

hd_status fail(hd_error *err, hd_status code, const char *format, ...) {
  if (err) {
    err->code = code;
    va_list ap;
    va_start(ap, format);
    std::vsnprintf(err->message, sizeof(err->message), format, ap);
    va_end(ap);
  }
  return code;
}

hd_status failWith(hd_error *err, hd_status code, const std::string &message) {
  return fail(err, code, "%s", message.c_str());
}

void clearError(hd_error *err) {
  if (err) {
    err->code = HD_OK;
    err->message[0] = '\0';
  }
}

} // namespace hadron::runtime
