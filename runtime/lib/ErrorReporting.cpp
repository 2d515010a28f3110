//===- ErrorReporting.cpp - Filling hd_error ------------------------------===//

#include "ErrorReporting.h"

#include <cstdio>
#include <mutex>
#include <set>

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

void warnOnce(const std::string &message) {
  static std::mutex mutex;
  static std::set<std::string> said;
  std::lock_guard<std::mutex> lock(mutex);
  if (said.insert(message).second)
    std::fprintf(stderr, "hadron: warning: %s\n", message.c_str());
}

} // namespace hadron::runtime
