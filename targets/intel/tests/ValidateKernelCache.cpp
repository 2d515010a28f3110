// intel-validate-kernel-cache <spirv-val> <cache dir>...
//
// Runs spirv-val over the SPIR-V binary of every kernel-cache entry in the
// given directories (what hadron-e2e's compile-only mode filled), so that
// every kernel the e2e suite compiles for an Intel arch is validated.
// Entries are read as runtime/lib/KernelCache.h lays them out; a file that
// is not an entry, or an entry whose binary is not SPIR-V, fails the run.
// Prints "N passed, M failed" and exits 0 only when all pass and N > 0.

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dirent.h>
#include <fstream>
#include <sstream>
#include <string>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

namespace {

bool readAll(const std::string &path, std::string &out) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return false;
  std::stringstream ss;
  ss << in.rdbuf();
  out = ss.str();
  return true;
}

template <typename T> bool take(const std::string &data, size_t &at, T &value) {
  if (at + sizeof(T) > data.size())
    return false;
  std::memcpy(&value, data.data() + at, sizeof(T));
  at += sizeof(T);
  return true;
}

/// The binary of a cache entry, or "" with `why`.
std::string binaryOf(const std::string &data, std::string &why) {
  if (data.size() < 8 || data.compare(0, 8, "HDKCACHE") != 0) {
    why = "not a kernel-cache entry (no HDKCACHE magic)";
    return "";
  }
  size_t at = 8 + 4 + 4 + 32 + 32;
  uint64_t binarySize = 0, asmSize = 0, irSize = 0;
  uint32_t kernels = 0;
  if (!take(data, at, binarySize) || !take(data, at, asmSize) || !take(data, at, irSize) ||
      !take(data, at, kernels)) {
    why = "truncated header";
    return "";
  }
  for (uint32_t k = 0; k < kernels; ++k) {
    uint32_t nameSize = 0, argCount = 0;
    if (!take(data, at, nameSize))
      break;
    at += nameSize;
    if (!take(data, at, argCount))
      break;
    at += 4ull * argCount + 4 + 4 + 8;
    // Format 3: a flag, then with it one tensor-descriptor spec per
    // argument (rank, element bytes, swizzle, native, 5 block dims).
    uint32_t hasDescs = 0;
    if (!take(data, at, hasDescs))
      break;
    if (hasDescs)
      at += 4ull * 9 * argCount;
  }
  if (at + binarySize > data.size()) {
    why = "truncated entry";
    return "";
  }
  return data.substr(at, binarySize);
}

void listFiles(const std::string &dir, std::vector<std::string> &out) {
  DIR *d = ::opendir(dir.c_str());
  if (!d)
    return;
  while (dirent *e = ::readdir(d)) {
    std::string name = e->d_name;
    if (name == "." || name == "..")
      continue;
    std::string path = dir + "/" + name;
    struct stat st{};
    if (::stat(path.c_str(), &st) != 0)
      continue;
    if (S_ISDIR(st.st_mode))
      listFiles(path, out);
    else if (S_ISREG(st.st_mode))
      out.push_back(path);
  }
  ::closedir(d);
}

} // namespace

int main(int argc, char **argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: %s <spirv-val> <kernel cache dir>...\n", argv[0]);
    return 2;
  }
  std::vector<std::string> files;
  for (int i = 2; i < argc; ++i)
    listFiles(argv[i], files);
  char tmpl[] = "/tmp/hadron-intel-spv-XXXXXX";
  int fd = ::mkstemp(tmpl);
  if (fd < 0) {
    std::perror("mkstemp");
    return 2;
  }
  ::close(fd);
  unsigned passed = 0, failed = 0;
  for (const std::string &file : files) {
    std::string data, why;
    if (!readAll(file, data)) {
      std::printf("FAIL %s: cannot read\n", file.c_str());
      ++failed;
      continue;
    }
    std::string spirv = binaryOf(data, why);
    uint32_t magic = 0;
    if (spirv.size() >= 4)
      std::memcpy(&magic, spirv.data(), 4);
    if (spirv.empty() || magic != 0x07230203u) {
      std::printf("FAIL %s: %s\n", file.c_str(), why.empty() ? "binary is not SPIR-V" : why.c_str());
      ++failed;
      continue;
    }
    {
      std::ofstream out(tmpl, std::ios::binary | std::ios::trunc);
      out.write(spirv.data(), static_cast<std::streamsize>(spirv.size()));
    }
    std::string command = std::string(argv[1]) + " " + tmpl + " 2>&1";
    FILE *p = ::popen(command.c_str(), "r");
    std::string output;
    char buf[512];
    while (p && std::fgets(buf, sizeof(buf), p))
      output += buf;
    int rc = p ? ::pclose(p) : -1;
    if (rc == 0) {
      ++passed;
    } else {
      std::printf("FAIL %s: spirv-val:\n%s\n", file.c_str(), output.c_str());
      ++failed;
    }
  }
  ::unlink(tmpl);
  std::printf("spirv-val over %zu kernel-cache entries: %u passed, %u failed\n", files.size(),
              passed, failed);
  return failed == 0 && passed > 0 ? 0 : 1;
}
