//===- SpirTranslation.cpp - SPIR-V for OpenCL devices without IL ---------===//

#include "SpirTranslation.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

namespace hadron::intel {
namespace {

constexpr uint32_t kOpTypeBool = 20, kOpTypeInt = 21, kOpTypeFloat = 22;
constexpr uint32_t kOpConstantFalse = 42, kOpConstant = 43, kOpConstantNull = 46;

bool executable(const std::string &path) {
  struct stat st{};
  return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) && ::access(path.c_str(), X_OK) == 0;
}

std::string readAll(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

} // namespace

std::string spirTranslator() {
  if (const char *env = std::getenv("HADRON_INTEL_LLVM_SPIRV"); env && *env)
    return executable(env) ? env : "";
  const char *path = std::getenv("PATH");
  std::string dirs = path ? path : "/usr/bin:/bin";
  size_t start = 0;
  while (start <= dirs.size()) {
    size_t end = dirs.find(':', start);
    std::string dir = dirs.substr(start, end == std::string::npos ? std::string::npos : end - start);
    if (!dir.empty() && executable(dir + "/llvm-spirv-15"))
      return dir + "/llvm-spirv-15";
    if (end == std::string::npos)
      break;
    start = end + 1;
  }
  return "";
}

std::string rewriteScalarNulls(const std::string &spirv, std::string &why) {
  if (spirv.size() < 20 || spirv.size() % 4) {
    why = "not a SPIR-V module";
    return "";
  }
  std::vector<uint32_t> words(spirv.size() / 4);
  std::memcpy(words.data(), spirv.data(), spirv.size());
  std::vector<uint32_t> out(words.begin(), words.begin() + 5);
  std::map<uint32_t, uint32_t> scalarWidth; // result id of a scalar type -> bits
  std::set<uint32_t> bools;
  for (size_t i = 5; i < words.size();) {
    uint32_t count = words[i] >> 16, op = words[i] & 0xffff;
    if (count == 0 || i + count > words.size()) {
      why = "malformed instruction at word " + std::to_string(i);
      return "";
    }
    if ((op == kOpTypeInt || op == kOpTypeFloat) && count >= 3)
      scalarWidth[words[i + 1]] = words[i + 2];
    if (op == kOpTypeBool && count >= 2)
      bools.insert(words[i + 1]);
    if (op == kOpConstantNull && count == 3 &&
        (scalarWidth.count(words[i + 1]) || bools.count(words[i + 1]))) {
      uint32_t type = words[i + 1], id = words[i + 2];
      if (bools.count(type)) {
        out.insert(out.end(), {(3u << 16) | kOpConstantFalse, type, id});
      } else {
        uint32_t valueWords = scalarWidth[type] > 32 ? 2 : 1;
        out.insert(out.end(), {((3u + valueWords) << 16) | kOpConstant, type, id});
        out.insert(out.end(), valueWords, 0u);
      }
    } else {
      out.insert(out.end(), words.begin() + i, words.begin() + i + count);
    }
    i += count;
  }
  std::string result(out.size() * 4, '\0');
  std::memcpy(result.data(), out.data(), result.size());
  return result;
}

std::string translateToSpir(const std::string &spirv, std::string &why) {
  std::string tool = spirTranslator();
  if (tool.empty()) {
    why = "llvm-spirv-15 not found (PATH or HADRON_INTEL_LLVM_SPIRV)";
    return "";
  }
  std::string fixed = rewriteScalarNulls(spirv, why);
  if (fixed.empty())
    return "";
  char dir[] = "/tmp/hadron-intel-spir-XXXXXX";
  if (!::mkdtemp(dir)) {
    why = std::string("mkdtemp: ") + std::strerror(errno);
    return "";
  }
  std::string in = std::string(dir) + "/k.spv", outPath = std::string(dir) + "/k.bc",
              log = std::string(dir) + "/log";
  {
    std::ofstream f(in, std::ios::binary);
    f.write(fixed.data(), static_cast<std::streamsize>(fixed.size()));
  }
  std::string command = "'" + tool + "' -r '" + in + "' -o '" + outPath + "' > '" + log + "' 2>&1";
  int rc = std::system(command.c_str());
  std::string bitcode;
  if (rc == 0)
    bitcode = readAll(outPath);
  else
    why = tool + " -r failed (" +
          (WIFEXITED(rc) ? "exit " + std::to_string(WEXITSTATUS(rc))
                         : "signal " + std::to_string(WTERMSIG(rc))) +
          "): " + readAll(log);
  ::unlink(in.c_str());
  ::unlink(outPath.c_str());
  ::unlink(log.c_str());
  ::rmdir(dir);
  if (rc == 0 && bitcode.empty())
    why = tool + " -r wrote no bitcode";
  return bitcode;
}

} // namespace hadron::intel
