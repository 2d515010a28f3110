//===- BuilderTest.cpp - IR checks and host runs for the builder tests ----===//

#include "BuilderTest.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <unistd.h>
#include <cmath>
#include <optional>

namespace hadron::builder::test {

::testing::AssertionResult containsInOrder(const std::string &ir,
                                           const std::vector<std::string> &checks) {
  size_t at = 0;
  for (const std::string &c : checks) {
    size_t found = ir.find(c, at);
    if (found == std::string::npos)
      return ::testing::AssertionFailure()
             << "expected `" << c << "` after offset " << at << " in:\n"
             << ir;
    at = found + c.size();
  }
  return ::testing::AssertionSuccess();
}

std::string irOf(const Result<Module> &m) {
  if (!m) {
    ADD_FAILURE() << "the kernel did not build: " << m.error();
    return "";
  }
  return m->str();
}

std::string errorOf(const Result<Module> &m) {
  if (m) {
    ADD_FAILURE() << "the kernel built, expected an error:\n" << m->str();
    return "";
  }
  return m.error();
}

std::string at(const char *file, int line) { return std::string(file) + ":" + std::to_string(line) + ":"; }

runtime::Context &context() {
  static std::optional<runtime::Context> ctx;
  if (!ctx) {
    auto c = runtime::Context::create();
    if (!c) {
      ADD_FAILURE() << "no runtime context: " << c.status().message();
      std::abort();
    }
    ctx.emplace(std::move(c).value());
  }
  return *ctx;
}

bool hasPlugin(const std::string &name) {
  for (const hd_plugin_info &p : context().plugins())
    if (name == p.name)
      return true;
  return false;
}

/// The PTX of `m` for sm_90a, or empty (with a failure recorded).
std::string ptxOf(const Module &m) {
  if (!hasPlugin("nvidia")) {
    ADD_FAILURE() << "no nvidia plugin";
    return "";
  }
  auto compiled = context().compile("nvidia:sm_90a", m.str());
  if (!compiled) {
    ADD_FAILURE() << compiled.status().message();
    return "";
  }
  const hd_compiled_module &cm = compiled->module();
  return cm.assembly ? cm.assembly : "";
}

/// ptxas -arch=sm_90a accepts `ptx`, when the CUDA toolkit is installed.
::testing::AssertionResult assembles(const std::string &ptx) {
  const char *ptxas = "/usr/local/cuda/bin/ptxas";
  if (access(ptxas, X_OK) != 0)
    return ::testing::AssertionSuccess() << "(no ptxas)";
  char path[] = "/tmp/hadron-builder-XXXXXX";
  int fd = mkstemp(path);
  if (fd < 0)
    return ::testing::AssertionFailure() << "mkstemp failed";
  ::close(fd);
  std::ofstream(path) << ptx;
  std::string cmd = std::string(ptxas) + " -arch=sm_90a -o /dev/null " + path + " 2>&1";
  FILE *p = popen(cmd.c_str(), "r");
  std::string output;
  char buf[512];
  while (p && fgets(buf, sizeof buf, p))
    output += buf;
  int status = p ? pclose(p) : -1;
  std::remove(path);
  if (status != 0)
    return ::testing::AssertionFailure() << "ptxas: " << output;
  return ::testing::AssertionSuccess();
}


runtime::Device &host() {
  static std::optional<runtime::Device> dev;
  if (!dev) {
    auto d = context().select("host");
    if (!d) {
      ADD_FAILURE() << "no host device: " << d.status().message();
      std::abort();
    }
    dev.emplace(std::move(d).value());
  }
  return *dev;
}

::testing::AssertionResult run(const Module &m, std::array<uint32_t, 3> grid,
                               const std::vector<Arg> &args) {
  runtime::Device &dev = host();
  auto module = dev.loadIR(m.str());
  if (!module)
    return ::testing::AssertionFailure() << "compiling " << m.key() << ": "
                                         << module.status().message();
  auto kernel = module->kernel(m.kernelName());
  if (!kernel)
    return ::testing::AssertionFailure() << kernel.status().message();
  std::vector<runtime::Buffer> buffers;
  std::vector<hd_arg> launchArgs;
  for (const Arg &a : args) {
    if (auto *s = std::get_if<hd_arg>(&a)) {
      launchArgs.push_back(*s);
      continue;
    }
    const Buffer &b = std::get<Buffer>(a);
    auto buf = dev.alloc(std::max<size_t>(b.bytes, 1));
    if (!buf)
      return ::testing::AssertionFailure() << buf.status().message();
    if (auto s = buf->copyFromHost(b.data, b.bytes); !s)
      return ::testing::AssertionFailure() << s.message();
    launchArgs.push_back(buf->arg());
    buffers.push_back(std::move(buf).value());
  }
  if (auto s = kernel->launch(grid, launchArgs); !s)
    return ::testing::AssertionFailure() << "launch: " << s.message();
  if (auto s = dev.synchronize(); !s)
    return ::testing::AssertionFailure() << "synchronize: " << s.message();
  size_t next = 0;
  for (const Arg &a : args) {
    const Buffer *b = std::get_if<Buffer>(&a);
    if (!b)
      continue;
    runtime::Buffer &buf = buffers[next++];
    if (b->output)
      if (auto s = buf.copyToHost(b->data, b->bytes); !s)
        return ::testing::AssertionFailure() << s.message();
  }
  return ::testing::AssertionSuccess();
}

std::mt19937_64 &rng() {
  static std::mt19937_64 r = [] {
    uint64_t seed = std::chrono::steady_clock::now().time_since_epoch().count();
    std::printf("builder tests: random seed %llu\n", static_cast<unsigned long long>(seed));
    return std::mt19937_64(seed);
  }();
  return r;
}

::testing::AssertionResult close(const std::vector<float> &got, const std::vector<float> &want,
                                 double atol, double rtol) {
  if (got.size() != want.size())
    return ::testing::AssertionFailure() << "sizes differ: " << got.size() << " vs "
                                         << want.size();
  size_t wrong = 0;
  std::string first;
  for (size_t i = 0; i < got.size(); ++i) {
    bool ok = std::isnan(want[i]) || std::isnan(got[i])
                  ? std::isnan(want[i]) && std::isnan(got[i])
                  : std::fabs(got[i] - want[i]) <= atol + rtol * std::fabs(want[i]);
    if (!ok && wrong++ == 0)
      first = "element " + std::to_string(i) + ": got " + std::to_string(got[i]) + ", want " +
              std::to_string(want[i]);
  }
  if (wrong)
    return ::testing::AssertionFailure() << wrong << " element(s) wrong, first " << first;
  return ::testing::AssertionSuccess();
}

} // namespace hadron::builder::test
