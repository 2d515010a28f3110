//===- Constexprs.cpp - Compile-time constants by name --------------------===//

#include "Trace.h"

#include <algorithm>

namespace hadron::builder {

namespace {

const char *kindName(size_t index) {
  static const char *names[] = {"an integer", "a bool", "a DType", "a Layout"};
  return index < 4 ? names[index] : "?";
}

} // namespace

Constexprs::Constexprs(std::initializer_list<std::pair<std::string, Value>> entries) {
  for (const auto &[name, value] : entries)
    set(name, value);
}

Constexprs &Constexprs::set(const std::string &name, Value value) {
  auto it = std::lower_bound(entries_.begin(), entries_.end(), name,
                             [](const auto &e, const std::string &n) { return e.first < n; });
  if (it != entries_.end() && it->first == name)
    it->second = std::move(value);
  else
    entries_.insert(it, {name, std::move(value)});
  return *this;
}

bool Constexprs::contains(const std::string &name) const {
  return std::any_of(entries_.begin(), entries_.end(),
                     [&](const auto &e) { return e.first == name; });
}

const Constexprs::Value &Constexprs::lookup(const std::string &name, size_t index,
                                            const SourceLoc &loc) const {
  for (const auto &[n, value] : entries_) {
    if (n != name)
      continue;
    if (value.index() != index)
      detail::Trace::current(loc).fail(loc, "constexpr",
                                       "`" + name + "` is " + kindName(value.index()) +
                                           ", not " + kindName(index));
    return value;
  }
  std::string given;
  for (const auto &e : entries_)
    given += (given.empty() ? "" : ", ") + e.first;
  detail::Trace::current(loc).fail(loc, "constexpr",
                                   "`" + name + "` is not given (the specialisation has " +
                                       (given.empty() ? "none" : given) + ")");
}

namespace detail {

std::string keyPart(const Constexprs &c) {
  std::string key;
  for (const auto &[name, value] : c.entries()) {
    key += key.empty() ? "" : ".";
    key += name + "_" + std::visit([](const auto &v) { return keyPart(v); }, value);
  }
  return key;
}

} // namespace detail
} // namespace hadron::builder
