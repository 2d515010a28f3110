//===- Result.h - A value or an error message ------------------*- C++ -*-===//
//
// Hadron reports failures as values: a function that can fail returns
// Result<T>, which holds either a T or a human-readable message that names
// the offending input and the limit it broke. No exceptions, no aborts.
//
//===----------------------------------------------------------------------===//
#ifndef HADRON_SUPPORT_RESULT_H
#define HADRON_SUPPORT_RESULT_H

#include <cassert>
#include <optional>
#include <string>
#include <utility>

namespace hadron {

/// The error half of a Result: a message, implicitly convertible to any
/// Result<T>. Build one with `return Error("...")`.
struct Error {
  std::string message;
  explicit Error(std::string msg) : message(std::move(msg)) {}
};

template <typename T> class [[nodiscard]] Result {
public:
  Result(T value) : value_(std::move(value)) {}
  Result(Error error) : error_(std::move(error.message)) {}

  bool ok() const { return value_.has_value(); }
  explicit operator bool() const { return ok(); }

  /// The value; only valid when ok().
  const T &value() const & {
    assert(ok() && "Result::value() on an error");
    return *value_;
  }
  T &value() & {
    assert(ok() && "Result::value() on an error");
    return *value_;
  }
  T &&value() && {
    assert(ok() && "Result::value() on an error");
    return std::move(*value_);
  }
  const T &operator*() const & { return value(); }
  const T *operator->() const { return &value(); }

  /// The message; empty when ok().
  const std::string &error() const { return error_; }

private:
  std::optional<T> value_;
  std::string error_;
};

} // namespace hadron

#endif // HADRON_SUPPORT_RESULT_H
