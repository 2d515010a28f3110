//===- ErrorReporting.cpp - Filling hd_error ------------------------------===//

#include "ErrorReporting.h"

namespace hadron::runtime {

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
