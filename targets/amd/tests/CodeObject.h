//===- CodeObject.h - What the tests read back from an HSACO ----*- C++ -*-===//
//
// The compiler tests validate the code objects they compile the way a
// loader would see them: llvm-readobj --notes gives the AMDGPU metadata
// (YAML text of the msgpack note), llvm-readobj --dyn-syms the dynamic
// symbol table. This header parses just enough of both.
//
//===----------------------------------------------------------------------===//
#ifndef HADRON_TARGETS_AMD_TESTS_CODEOBJECT_H
#define HADRON_TARGETS_AMD_TESTS_CODEOBJECT_H

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace hadron::amd::test {

/// One entry of a kernel's .args.
struct KernelArg {
  uint64_t offset = 0, size = 0;
  std::string valueKind;
  bool hidden() const { return valueKind.rfind("hidden_", 0) == 0; }
};

/// One entry of amdhsa.kernels: its scalar fields by key (".name",
/// ".wavefront_size", ...), its args, and its scalar lists
/// (".reqd_workgroup_size").
struct KernelMetadata {
  std::map<std::string, std::string> fields;
  std::vector<KernelArg> args;
  std::map<std::string, std::vector<std::string>> lists;

  std::string get(const std::string &key) const {
    auto it = fields.find(key);
    return it == fields.end() ? "" : it->second;
  }
  uint64_t number(const std::string &key) const { return std::stoull(get(key)); }
};

struct CodeObjectMetadata {
  std::string target; ///< amdhsa.target
  std::vector<KernelMetadata> kernels;
  const KernelMetadata *kernel(const std::string &name) const {
    for (const KernelMetadata &k : kernels)
      if (k.get(".name") == name)
        return &k;
    return nullptr;
  }
};

/// Parses the "AMDGPU Metadata:" YAML of `llvm-readobj --notes` output.
CodeObjectMetadata parseNotes(const std::string &readobjOutput);

struct DynamicSymbol {
  std::string name, section;
};

/// Parses `llvm-readobj --dyn-syms` output (the null symbol is dropped).
std::vector<DynamicSymbol> parseDynamicSymbols(const std::string &readobjOutput);

/// Runs `command` through the shell and returns what it printed on stdout;
/// `status` gets its exit status.
std::string runCommand(const std::string &command, int &status);

} // namespace hadron::amd::test

#endif // HADRON_TARGETS_AMD_TESTS_CODEOBJECT_H
