//===- MatrixInstr.cpp - Reading #hd.matrix_instr texts -------------------===//

#include "MatrixInstr.h"

#include <cctype>
#include <cstdlib>

namespace hadron::conformance {

namespace {

bool isWordChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

/// Where the value of `key = ` starts at or after `from` (the key a whole
/// word: "aType" is not found inside "accType"), or npos.
size_t valueOf(const std::string &text, const std::string &key, size_t from = 0) {
  for (size_t at = text.find(key + " = ", from); at != std::string::npos;
       at = text.find(key + " = ", at + 1))
    if (at == 0 || !isWordChar(text[at - 1]))
      return at + key.size() + 3;
  return std::string::npos;
}

std::string wordAt(const std::string &text, size_t at) {
  size_t end = at;
  while (end < text.size() && isWordChar(text[end]))
    ++end;
  return text.substr(at, end - at);
}

/// The number of elements of the list `[[..], [..]]` starting at `at`.
int listLength(const std::string &text, size_t at) {
  if (at >= text.size() || text[at] != '[')
    return -1;
  int depth = 0, count = 0;
  for (size_t i = at; i < text.size(); ++i) {
    if (text[i] == '[' && ++depth == 2)
      ++count;
    if (text[i] == ']' && --depth == 0)
      return count;
  }
  return -1;
}

} // namespace

runtime::Expected<MatrixInstr> parseMatrixInstr(const std::string &text) {
  auto lacks = [&](const std::string &what) {
    return runtime::Status(HD_ERROR_INVALID_ARGUMENT, "matrix instruction '" + text + "': " + what);
  };
  if (text.rfind("#hd.matrix_instr<{", 0) != 0)
    return lacks("not an #hd.matrix_instr attribute");
  MatrixInstr mi;
  mi.attribute = text;
  size_t at = valueOf(text, "name");
  size_t close = at == std::string::npos ? at : text.find('"', at + 1);
  if (at == std::string::npos || text[at] != '"' || close == std::string::npos)
    return lacks("no name = \"...\"");
  mi.name = text.substr(at + 1, close - at - 1);

  at = valueOf(text, "shape");
  if (at == std::string::npos || text[at] != '[')
    return lacks("no shape = [m, n, k]");
  char *end = nullptr;
  const char *p = text.c_str() + at + 1;
  int *dims[] = {&mi.m, &mi.n, &mi.k};
  for (int d = 0; d < 3; ++d) {
    long v = std::strtol(p, &end, 10);
    if (end == p || v <= 0 || v > 4096)
      return lacks("shape must be three sizes in [1, 4096]");
    *dims[d] = static_cast<int>(v);
    p = end;
    while (*p == ',' || *p == ' ')
      ++p;
  }
  if (*p != ']')
    return lacks("shape must be three sizes in [1, 4096]");

  std::string *types[] = {&mi.aType, &mi.bType, &mi.accType};
  const char *keys[] = {"aType", "bType", "accType"};
  for (int t = 0; t < 3; ++t) {
    at = valueOf(text, keys[t]);
    if (at == std::string::npos || (*types[t] = wordAt(text, at)).empty())
      return lacks(std::string("no ") + keys[t]);
  }

  at = valueOf(text, "acc");
  if (at == std::string::npos)
    return lacks("no acc = {register = ..., lane = ...}");
  int laneBits = listLength(text, valueOf(text, "lane", at));
  if (laneBits < 0 || laneBits > 10)
    return lacks("the accumulator's lane bases are not a list of at most 10");
  mi.lanes = 1u << laneBits;
  return mi;
}

} // namespace hadron::conformance
