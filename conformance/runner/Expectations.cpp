//===- Expectations.cpp - Known failures per target -----------------------===//

#include "Expectations.h"

#include <fnmatch.h>

#include <fstream>
#include <sstream>

namespace hadron::conformance {

bool globMatch(const std::string &glob, const std::string &name) {
  return fnmatch(glob.c_str(), name.c_str(), 0) == 0;
}

bool filterMatch(const std::string &filter, const std::string &name) {
  if (filter.empty())
    return true;
  std::stringstream s(filter);
  std::string g;
  while (std::getline(s, g, ','))
    if (!g.empty() && globMatch(g, name))
      return true;
  return false;
}

runtime::Status Expectations::parse(const std::string &text, const std::string &file) {
  std::istringstream in(text);
  std::string line;
  for (int n = 1; std::getline(in, line); ++n) {
    if (size_t hash = line.find('#'); hash != std::string::npos)
      line.erase(hash);
    std::istringstream words(line);
    std::string kind, glob;
    if (!(words >> kind))
      continue;
    const std::string where = file + ":" + std::to_string(n);
    auto malformed = [&where](const std::string &what) {
      return runtime::Status(HD_ERROR_INVALID_ARGUMENT, where + ": " + what);
    };
    if (kind == "lanes") {
      unsigned v = 0;
      if (!(words >> v) || (v != 8 && v != 16 && v != 32 && v != 64))
        return malformed("'lanes' takes 8, 16, 32 or 64");
      lanes_ = v;
      continue;
    }
    Expectation e;
    if (kind == "unsupported")
      e.kind = Expectation::Unsupported;
    else if (kind == "xfail")
      e.kind = Expectation::XFail;
    else if (kind == "xfail-compile")
      e.kind = Expectation::XFailCompile;
    else
      return malformed("unknown entry '" + kind +
                       "' (expected lanes, unsupported, xfail or xfail-compile)");
    if (!(words >> glob))
      return malformed("'" + kind + "' needs a case glob and a reason");
    std::getline(words, e.reason);
    size_t start = e.reason.find_first_not_of(" \t");
    e.reason = start == std::string::npos ? "" : e.reason.substr(start);
    if (e.reason.empty())
      return malformed("'" + kind + " " + glob + "' has no reason");
    e.glob = glob;
    e.file = where;
    entries_.push_back(std::move(e));
  }
  return {};
}

runtime::Status Expectations::load(const std::string &dir, const std::string &plugin,
                                   const std::string &arch, Expectations &out) {
  std::vector<std::string> names;
  if (!arch.empty())
    names.push_back(plugin + "-" + arch + ".txt");
  names.push_back(plugin + ".txt");
  for (const std::string &name : names) {
    std::ifstream f(dir + "/" + name);
    if (!f)
      continue;
    std::stringstream text;
    text << f.rdbuf();
    unsigned lanesBefore = out.lanes_;
    if (runtime::Status s = out.parse(text.str(), name); !s)
      return s;
    // The arch-specific file's lanes win over the plugin's.
    if (lanesBefore)
      out.lanes_ = lanesBefore;
    out.files_.push_back(dir + "/" + name);
  }
  return {};
}

const Expectation *Expectations::find(const std::string &caseName) const {
  for (const Expectation &e : entries_)
    if (globMatch(e.glob, caseName)) {
      e.used = true;
      return &e;
    }
  return nullptr;
}

} // namespace hadron::conformance
