//===- Status.h - Success, or an error message ------------------*- C++ -*-===//
//
// The Result (Result.h) of a step that yields nothing: `return {};` on
// success, `return Error("...")` otherwise. Header-only and free of LLVM.
//
//===----------------------------------------------------------------------===//
#ifndef HADRON_SUPPORT_STATUS_H
#define HADRON_SUPPORT_STATUS_H

#include "hadron/Support/Result.h"

#include <string>
#include <utility>

namespace hadron {

class [[nodiscard]] Status {
public:
  Status() = default;
  Status(Error error) : failed(true), message(std::move(error.message)) {}

  bool ok() const { return !failed; }
  explicit operator bool() const { return ok(); }

  /// The message; empty when ok().
  const std::string &error() const { return message; }

private:
  bool failed = false;
  std::string message;
};

} // namespace hadron

#endif // HADRON_SUPPORT_STATUS_H
