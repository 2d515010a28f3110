//===- Selector.cpp - Parsing and matching device selectors ---------------===//

#include "Selector.h"

#include <algorithm>
#include <cctype>

namespace hadron::runtime {

const char kSelectorGrammar[] =
    "selector := term (';' term)*\n"
    "term     := 'auto' | vendor [':' which] | '!' vendor [':' which]\n"
    "which    := index | '*'\n"
    "vendor   := [a-z][a-z0-9_-]*   (a plugin name: host, nvidia, amd, intel, ...)\n"
    "index    := [0-9]+\n"
    "examples: auto, host, nvidia:1, amd:*, nvidia;amd;host, !intel";

namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front())))
    s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back())))
    s.remove_suffix(1);
  return s;
}

Status malformed(std::string_view text, const std::string &why) {
  return Status(HD_ERROR_INVALID_ARGUMENT, "malformed device selector '" + std::string(text) +
                                               "': " + why + "\ngrammar:\n" + kSelectorGrammar);
}

// Index 0 is reserved: candidates keep their list order after the ranked
// vendors, then host comes last.
int autoRank(const std::string &vendor) {
  if (vendor == "nvidia")
    return 0;
  if (vendor == "amd")
    return 1;
  if (vendor == "intel")
    return 2;
  if (vendor == "host")
    return 4;
  return 3;
}

bool matchesTerm(const SelectorTerm &term, const Candidate &c) {
  return c.vendor == term.vendor && (!term.index || *term.index == c.index);
}

} // namespace

bool isValidVendorName(std::string_view name) {
  if (name.empty() || !(name[0] >= 'a' && name[0] <= 'z') || name == "auto")
    return false;
  return std::all_of(name.begin(), name.end(), [](char ch) {
    return (ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') || ch == '_' || ch == '-';
  });
}

Expected<Selector> parseSelector(std::string_view text) {
  Selector selector;
  size_t pos = 0;
  unsigned termNo = 0;
  while (true) {
    size_t end = text.find(';', pos);
    std::string_view raw = text.substr(pos, end == std::string_view::npos ? end : end - pos);
    std::string_view term = trim(raw);
    ++termNo;
    std::string where = "term " + std::to_string(termNo);
    if (term.empty())
      return malformed(text, where + " is empty");

    bool exclude = term.front() == '!';
    if (exclude)
      term = trim(term.substr(1));

    std::string_view vendor = term, which;
    bool hasWhich = false;
    if (size_t colon = term.find(':'); colon != std::string_view::npos) {
      vendor = trim(term.substr(0, colon));
      which = trim(term.substr(colon + 1));
      hasWhich = true;
    }

    SelectorTerm parsed;
    if (vendor == "auto") {
      if (exclude)
        return malformed(text, where + ": 'auto' cannot be excluded");
      if (hasWhich)
        return malformed(text, where + ": 'auto' takes no device index");
      selector.choices.push_back(parsed);
    } else {
      if (!isValidVendorName(vendor))
        return malformed(text, where + ": '" + std::string(vendor) +
                                   "' is not a vendor name (a lowercase letter, then "
                                   "lowercase letters, digits, '_' or '-')");
      parsed.kind = SelectorTerm::Kind::Vendor;
      parsed.vendor = std::string(vendor);
      if (hasWhich && which != "*") {
        if (which.empty() || which.size() > 9 ||
            !std::all_of(which.begin(), which.end(),
                         [](char ch) { return ch >= '0' && ch <= '9'; }))
          return malformed(text, where + ": device '" + std::string(which) +
                                     "' is not an index (0..999999999) or '*'");
        parsed.index = static_cast<uint32_t>(std::stoul(std::string(which)));
      }
      (exclude ? selector.exclusions : selector.choices).push_back(parsed);
    }

    if (end == std::string_view::npos)
      break;
    pos = end + 1;
  }
  if (selector.choices.empty())
    selector.choices.push_back(SelectorTerm{});
  return selector;
}

std::optional<size_t> matchSelector(const Selector &selector,
                                    const std::vector<Candidate> &candidates) {
  std::vector<size_t> allowed;
  for (size_t i = 0; i < candidates.size(); ++i) {
    bool excluded = std::any_of(selector.exclusions.begin(), selector.exclusions.end(),
                                [&](const SelectorTerm &t) { return matchesTerm(t, candidates[i]); });
    if (!excluded)
      allowed.push_back(i);
  }

  for (const SelectorTerm &term : selector.choices) {
    std::optional<size_t> best;
    for (size_t i : allowed) {
      const Candidate &c = candidates[i];
      if (term.kind == SelectorTerm::Kind::Auto) {
        if (!best || autoRank(c.vendor) < autoRank(candidates[*best].vendor))
          best = i;
        continue;
      }
      if (matchesTerm(term, c) && (!best || c.index < candidates[*best].index))
        best = i;
    }
    if (best)
      return best;
  }
  return std::nullopt;
}

} // namespace hadron::runtime
