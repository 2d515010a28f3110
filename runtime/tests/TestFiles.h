//===- TestFiles.h - Whole files in and out, for the runtime tests -*- C++ -*-===//
//
// The tests' own way to read and write files, independent of the runtime's
// (KernelCache.h's readFile and writeFileAtomically are what they test).
//
//===----------------------------------------------------------------------===//
#ifndef HADRON_RUNTIME_TESTS_TESTFILES_H
#define HADRON_RUNTIME_TESTS_TESTFILES_H

#include <fstream>
#include <sstream>
#include <string>

namespace hadron::runtime::tests {

/// The file's bytes; "" when it cannot be read.
inline std::string readFile(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

inline void writeFile(const std::string &path, const std::string &bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << bytes;
}

} // namespace hadron::runtime::tests

#endif // HADRON_RUNTIME_TESTS_TESTFILES_H
