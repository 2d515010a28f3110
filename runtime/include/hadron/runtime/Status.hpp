//===- Status.hpp - Success, or an hd_status code and its message -*- C++ -*-===//
//
// The error values of the C++ built on the runtime (its C++ layer, the
// runtime's own helpers such as the selector parser, the conformance runner,
// the hadron CLI): a Status is HD_OK or a code of plugin.h's hd_status with a
// message naming the offending input and the limit it broke; an Expected<T>
// is a T or the Status that says why there is none. A Status carries what
// the C API's hd_status + hd_error pair does (Status::fromError). Header-only
// and free of LLVM; it needs nothing but plugin.h.
//
//===----------------------------------------------------------------------===//
#ifndef HADRON_RUNTIME_STATUS_HPP
#define HADRON_RUNTIME_STATUS_HPP

#include "hadron/plugin/plugin.h"

#include <optional>
#include <string>
#include <utility>

namespace hadron::runtime {

/// The outcome of a call: HD_OK, or a code with its message.
class [[nodiscard]] Status {
public:
  Status() = default;
  Status(hd_status code, std::string message) : code_(code), message_(std::move(message)) {}
  static Status fromError(hd_status code, const hd_error &err) {
    return Status(code, err.message);
  }

  bool ok() const { return code_ == HD_OK; }
  explicit operator bool() const { return ok(); }
  hd_status code() const { return code_; }
  const std::string &message() const { return message_; }

private:
  hd_status code_ = HD_OK;
  std::string message_;
};

/// A T, or the Status that says why there is none.
template <typename T> class [[nodiscard]] Expected {
public:
  Expected(T value) : value_(std::move(value)) {}
  Expected(Status status) : status_(std::move(status)) {}

  bool ok() const { return value_.has_value(); }
  explicit operator bool() const { return ok(); }
  const Status &status() const { return status_; }

  /// Only valid when ok().
  T &value() & { return *value_; }
  const T &value() const & { return *value_; }
  T &&value() && { return std::move(*value_); }
  T *operator->() { return &*value_; }
  const T *operator->() const { return &*value_; }
  T &operator*() & { return *value_; }

private:
  std::optional<T> value_;
  Status status_;
};

} // namespace hadron::runtime

#endif // HADRON_RUNTIME_STATUS_HPP
