//===- Selector.h - Parsing and matching device selectors -------*- C++ -*-===//
//
// A selector names the device a program wants ("nvidia;amd;host", "!intel").
// The grammar is in runtime.h and kSelectorGrammar. Parsing and matching are
// pure functions over a list of candidates, so they are tested without any
// plugin loaded.
//
//===----------------------------------------------------------------------===//
#ifndef HADRON_RUNTIME_SELECTOR_H
#define HADRON_RUNTIME_SELECTOR_H

#include "hadron/runtime/Status.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace hadron::runtime {

/// The grammar, as shown in the message of a malformed selector.
extern const char kSelectorGrammar[];

struct SelectorTerm {
  enum class Kind { Auto, Vendor };
  Kind kind = Kind::Auto;
  std::string vendor;            ///< Empty for Auto.
  std::optional<uint32_t> index; ///< None: any device of the vendor.
};

struct Selector {
  std::vector<SelectorTerm> choices;    ///< In priority order; never empty.
  std::vector<SelectorTerm> exclusions; ///< Vendor terms only.
};

/// Parses `text`; the error (HD_ERROR_INVALID_ARGUMENT) names the offending
/// term and shows the grammar.
Expected<Selector> parseSelector(std::string_view text);

/// Whether `name` may be a plugin's name, i.e. a selector vendor key.
bool isValidVendorName(std::string_view name);

/// A device as the matcher sees it.
struct Candidate {
  std::string vendor;
  uint32_t index = 0;
};

/// The position in `candidates` of the device `selector` picks, or none.
std::optional<size_t> matchSelector(const Selector &selector,
                                    const std::vector<Candidate> &candidates);

} // namespace hadron::runtime

#endif // HADRON_RUNTIME_SELECTOR_H
