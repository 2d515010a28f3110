//===- Expectations.h - Known failures per target, as data ------*- C++ -*-===//
//
// conformance/expectations/<plugin>.txt (every arch of the plugin) and
// <plugin>-<arch>.txt (one arch) hold, one per line:
//
//   lanes N                          threads per warp of the layouts in
//                                    compile-only runs (default 32)
//   unsupported CASE-GLOB REASON     permanent: the case is not run
//   xfail CASE-GLOB REASON           temporary: the case must fail; a pass
//                                    is XPASS and fails the run
//   xfail-compile CASE-GLOB REASON   temporary: the case must fail to
//                                    compile; compiling is XPASS, also in
//                                    compile-only runs
//
// '#' starts a comment; the glob is fnmatch(3)'s over the case name. The
// first entry that matches a case decides. docs/conformance.md has examples.
//
//===----------------------------------------------------------------------===//
#ifndef HADRON_CONFORMANCE_EXPECTATIONS_H
#define HADRON_CONFORMANCE_EXPECTATIONS_H

#include "hadron/runtime/Status.hpp"

#include <string>
#include <vector>

namespace hadron::conformance {

struct Expectation {
  enum Kind { Unsupported, XFail, XFailCompile };
  Kind kind;
  std::string glob, reason;
  std::string file; ///< "amd.txt:12"
  mutable bool used = false;
};

class Expectations {
public:
  /// Reads `<dir>/<plugin>.txt` and `<dir>/<plugin>-<arch>.txt` (each
  /// optional; arch-specific entries are consulted first). A malformed line
  /// is HD_ERROR_INVALID_ARGUMENT, naming the file and line.
  static runtime::Status load(const std::string &dir, const std::string &plugin,
                              const std::string &arch, Expectations &out);
  /// Parses one file's text; `file` names it in messages.
  runtime::Status parse(const std::string &text, const std::string &file);

  const Expectation *find(const std::string &caseName) const;
  const std::vector<Expectation> &entries() const { return entries_; }
  /// From `lanes N`, 0 when absent.
  unsigned lanes() const { return lanes_; }
  /// Files that were read.
  const std::vector<std::string> &files() const { return files_; }

private:
  std::vector<Expectation> entries_;
  unsigned lanes_ = 0;
  std::vector<std::string> files_;
};

bool globMatch(const std::string &glob, const std::string &name);
/// Any of the comma-separated globs matches.
bool filterMatch(const std::string &filter, const std::string &name);

} // namespace hadron::conformance

#endif // HADRON_CONFORMANCE_EXPECTATIONS_H
