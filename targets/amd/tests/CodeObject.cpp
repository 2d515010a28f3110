//===- CodeObject.cpp - What the tests read back from an HSACO ------------===//
//
// The metadata YAML llvm-readobj prints has a fixed shape:
//
//   amdhsa.kernels:
//     - .agpr_count:     0          <- a kernel starts ("  - ")
//       .args:                      <- a list of maps
//         - .offset:         0      <- an arg starts ("      - .")
//           .size:           8
//       .reqd_workgroup_size:       <- a list of scalars ("      - 256")
//         - 256
//       .name:           vector_add
//   amdhsa.target:   amdgcn-amd-amdhsa--gfx942
//
//===----------------------------------------------------------------------===//

#include "CodeObject.h"

#include <array>
#include <cstdio>
#include <sstream>
#include <sys/wait.h>

namespace hadron::amd::test {
namespace {

std::string trim(const std::string &s) {
  size_t b = s.find_first_not_of(" \t'\""), e = s.find_last_not_of(" \t'\"");
  return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

size_t indentOf(const std::string &line) { return line.find_first_not_of(' '); }

/// "key: value" -> {key, value}; value may be empty (a nested block).
std::pair<std::string, std::string> keyValue(const std::string &text) {
  size_t colon = text.find(':');
  if (colon == std::string::npos)
    return {trim(text), ""};
  return {trim(text.substr(0, colon)), trim(text.substr(colon + 1))};
}

} // namespace

CodeObjectMetadata parseNotes(const std::string &output) {
  CodeObjectMetadata md;
  std::istringstream in(output);
  std::string line;
  bool inKernels = false;
  std::string listKey; // the kernel key whose list is being read
  while (std::getline(in, line)) {
    size_t indent = indentOf(line);
    if (indent == std::string::npos)
      continue;
    std::string body = line.substr(indent);
    if (body.rfind("amdhsa.target:", 0) == 0) {
      md.target = keyValue(body).second;
      inKernels = false;
      continue;
    }
    if (body.rfind("amdhsa.kernels:", 0) == 0) {
      inKernels = true;
      continue;
    }
    if (body.rfind("amdhsa.", 0) == 0 || body == "...")
      inKernels = false;
    if (!inKernels)
      continue;
    if (indent == 2 && body.rfind("- ", 0) == 0) {
      md.kernels.emplace_back();
      body = body.substr(2);
      indent = 4;
    }
    if (md.kernels.empty())
      continue;
    KernelMetadata &k = md.kernels.back();
    if (indent == 4) {
      auto [key, value] = keyValue(body);
      listKey = value.empty() ? key : "";
      if (!value.empty())
        k.fields[key] = value;
      continue;
    }
    if (listKey == ".args") {
      if (body.rfind("- ", 0) == 0) {
        k.args.emplace_back();
        body = body.substr(2);
      }
      if (k.args.empty())
        continue;
      auto [key, value] = keyValue(body);
      if (key == ".offset")
        k.args.back().offset = std::stoull(value);
      else if (key == ".size")
        k.args.back().size = std::stoull(value);
      else if (key == ".value_kind")
        k.args.back().valueKind = value;
      continue;
    }
    if (!listKey.empty() && body.rfind("- ", 0) == 0)
      k.lists[listKey].push_back(trim(body.substr(2)));
  }
  return md;
}

std::vector<DynamicSymbol> parseDynamicSymbols(const std::string &output) {
  std::vector<DynamicSymbol> symbols;
  std::istringstream in(output);
  std::string line;
  while (std::getline(in, line)) {
    std::string body = trim(line);
    if (body == "Symbol {") {
      symbols.emplace_back();
    } else if (!symbols.empty() && body.rfind("Name:", 0) == 0) {
      std::string name = trim(body.substr(5));
      symbols.back().name = trim(name.substr(0, name.rfind('(')));
    } else if (!symbols.empty() && body.rfind("Section:", 0) == 0) {
      std::string section = trim(body.substr(8));
      symbols.back().section = trim(section.substr(0, section.rfind('(')));
    }
  }
  // Entry 0 of every ELF symbol table is the null symbol.
  if (!symbols.empty() && symbols.front().name.empty())
    symbols.erase(symbols.begin());
  return symbols;
}

std::string runCommand(const std::string &command, int &status) {
  std::string out;
  FILE *pipe = ::popen(command.c_str(), "r");
  if (!pipe) {
    status = -1;
    return out;
  }
  std::array<char, 4096> buffer;
  size_t n;
  while ((n = std::fread(buffer.data(), 1, buffer.size(), pipe)) > 0)
    out.append(buffer.data(), n);
  int raw = ::pclose(pipe);
  status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
  return out;
}

} // namespace hadron::amd::test
