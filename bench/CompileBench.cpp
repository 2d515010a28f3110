//===- CompileBench.cpp - hadron-compile-bench: what a JIT call costs -----===//
//
// The compilation service's figures (docs/performance.md), for the copy
// kernel of bench/Kernels.cpp (block 1024, spt 4, 4 warps):
//   cold       the first hd_module_load_ir in a fresh process with an empty
//              kernel cache: the compiler part is loaded, the IR compiled,
//              the binary loaded. Each run is a child process (fork), so
//              every run is a true first call.
//   cold, compiler loaded
//              the first load of another kernel in that process: compile
//              and load only.
//   disk hit   the first load in a new context of a kernel the disk cache
//              holds (read, checksum, load the binary).
//   memory hit hd_module_load_ir of a kernel the context holds.
//   launch     hd_launch of the loaded kernel on one CTA (1024 floats), and
//              of a zero grid (the runtime's checks, no device work).
//   load+launch
//              what a front end that calls the service at every launch pays.
// Every kernel's result is checked once against its input (poisoned output).
//
//   hadron-compile-bench [--device host] [--runs N] [--calls N]
//
//===----------------------------------------------------------------------===//

#include "Kernels.h"

#include "hadron/runtime/Runtime.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

namespace rt = hadron::runtime;
using hadron::bench::Config;
using hadron::bench::Op;

namespace {

using Clock = std::chrono::steady_clock;

double microsSince(Clock::time_point start) {
  return std::chrono::duration<double, std::micro>(Clock::now() - start).count();
}

/// CPU time of this process (all threads), in microseconds: on a shared
/// machine it says what a call costs when the wall clock also counts others.
double cpuMicros() {
  rusage u;
  ::getrusage(RUSAGE_SELF, &u);
  return (u.ru_utime.tv_sec + u.ru_stime.tv_sec) * 1e6 + u.ru_utime.tv_usec + u.ru_stime.tv_usec;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[v.size() / 2];
}

struct Options {
  std::string device = "host";
  unsigned runs = 5;
  unsigned calls = 20000;
};

const Config kCopy{1024, 4, 4};
const Config kOther{512, 4, 4};
constexpr int32_t kN = 1024;

/// One copy of kN random floats over a poisoned output, by programs of
/// `block` elements; false with a message when an element differs.
bool check(const rt::Device &dev, const rt::Module &module, std::string &why,
           uint32_t block = kCopy.block) {
  auto k = module.kernel(hadron::bench::kernelName(Op::Copy));
  if (!k) {
    why = k.status().message();
    return false;
  }
  std::mt19937 rng(std::random_device{}());
  std::uniform_real_distribution<float> dist(-1, 1);
  std::vector<float> in(kN), out(kN, std::nanf(""));
  for (float &x : in)
    x = dist(rng);
  auto src = dev.alloc(kN * 4), dst = dev.alloc(kN * 4);
  if (!src || !dst || !src->upload(in) || !dst->upload(out)) {
    why = "allocation or upload failed";
    return false;
  }
  const uint32_t programs = (kN + block - 1) / block;
  if (rt::Status s = k->launch({programs, 1, 1}, {src->arg(), dst->arg(), rt::arg::i32(kN)}); !s) {
    why = s.message();
    return false;
  }
  if (!dst->download(out)) {
    why = "download failed";
    return false;
  }
  for (int32_t i = 0; i < kN; ++i)
    if (!(out[i] == in[i])) {
      why = "element " + std::to_string(i) + " is wrong";
      return false;
    }
  return true;
}

/// In a child: the first load (cold, compiler part not loaded yet), then
/// another kernel's (compiler loaded), each checked. Writes their wall and
/// CPU times in microseconds to `fd`.
int coldChild(const Options &o, const std::string &cacheDir, int fd) {
  ::setenv("HADRON_CACHE_DIR", cacheDir.c_str(), 1);
  auto ctx = rt::Context::create();
  if (!ctx)
    return std::fprintf(stderr, "%s\n", ctx.status().message().c_str()), 1;
  auto dev = ctx->select(o.device);
  if (!dev)
    return std::fprintf(stderr, "%s\n", dev.status().message().c_str()), 1;
  double figures[4];
  int i = 0;
  for (const Config &c : {kCopy, kOther}) {
    const std::string ir = hadron::bench::kernelIR(Op::Copy, c);
    const double cpu = cpuMicros();
    auto start = Clock::now();
    auto m = dev->loadIR(ir);
    figures[i++] = microsSince(start);
    figures[i++] = cpuMicros() - cpu;
    std::string why;
    if (!m || !check(*dev, *m, why, c.block))
      return std::fprintf(stderr, "cold load: %s\n",
                          m ? why.c_str() : m.status().message().c_str()),
             1;
  }
  return ::write(fd, figures, sizeof(figures)) == sizeof(figures) ? 0 : 1;
}

int run(const Options &o) {
  char pattern[] = "/tmp/hadron-compile-bench-XXXXXX";
  if (!::mkdtemp(pattern))
    return std::perror("mkdtemp"), 1;
  const std::string root = pattern;

  std::vector<double> cold, coldLoaded, coldCpu, coldLoadedCpu;
  for (unsigned r = 0; r < o.runs; ++r) {
    const std::string cacheDir = root + "/cold-" + std::to_string(r);
    int fds[2];
    if (::pipe(fds) != 0)
      return std::perror("pipe"), 1;
    std::fflush(nullptr);
    pid_t child = ::fork();
    if (child == 0) {
      ::close(fds[0]);
      ::_exit(coldChild(o, cacheDir, fds[1]));
    }
    ::close(fds[1]);
    double figures[4] = {0, 0, 0, 0};
    bool got = ::read(fds[0], figures, sizeof(figures)) == sizeof(figures);
    ::close(fds[0]);
    int status = 0;
    ::waitpid(child, &status, 0);
    if (!got || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
      return std::fprintf(stderr, "cold run %u failed\n", r), 1;
    cold.push_back(figures[0]);
    coldCpu.push_back(figures[1]);
    coldLoaded.push_back(figures[2]);
    coldLoadedCpu.push_back(figures[3]);
  }

  // The warm figures in this process, over the cache the last child filled.
  ::setenv("HADRON_CACHE_DIR", (root + "/cold-" + std::to_string(o.runs - 1)).c_str(), 1);
  const std::string ir = hadron::bench::kernelIR(Op::Copy, kCopy);
  std::vector<double> diskHit;
  for (unsigned r = 0; r < o.runs; ++r) {
    auto ctx = rt::Context::create();
    auto dev = ctx ? ctx->select(o.device) : rt::Expected<rt::Device>(ctx.status());
    if (!dev)
      return std::fprintf(stderr, "%s\n", dev.status().message().c_str()), 1;
    auto start = Clock::now();
    auto m = dev->loadIR(ir);
    diskHit.push_back(microsSince(start));
    std::string why;
    if (!m || !check(*dev, *m, why))
      return std::fprintf(stderr, "disk hit: %s\n", m ? why.c_str() : m.status().message().c_str()),
             1;
  }

  auto ctx = rt::Context::create();
  auto dev = ctx ? ctx->select(o.device) : rt::Expected<rt::Device>(ctx.status());
  if (!dev)
    return std::fprintf(stderr, "%s\n", dev.status().message().c_str()), 1;
  auto module = dev->loadIR(ir);
  std::string why;
  if (!module || !check(*dev, *module, why))
    return std::fprintf(stderr, "%s\n", module ? why.c_str() : module.status().message().c_str()),
           1;
  auto kernel = module->kernel(hadron::bench::kernelName(Op::Copy));
  auto src = dev->alloc(kN * 4), dst = dev->alloc(kN * 4);
  if (!kernel || !src || !dst)
    return std::fprintf(stderr, "setup failed\n"), 1;
  const std::vector<hd_arg> args = {src->arg(), dst->arg(), rt::arg::i32(kN)};

  std::vector<double> memoryHit, launch, checksOnly, loadLaunch;
  for (unsigned i = 0; i < o.calls; ++i) {
    auto start = Clock::now();
    auto m = dev->loadIR(ir);
    memoryHit.push_back(microsSince(start));
    if (!m)
      return std::fprintf(stderr, "%s\n", m.status().message().c_str()), 1;
  }
  for (unsigned i = 0; i < o.calls; ++i) {
    auto start = Clock::now();
    rt::Status s = kernel->launch({1, 1, 1}, args);
    launch.push_back(microsSince(start));
    if (!s)
      return std::fprintf(stderr, "%s\n", s.message().c_str()), 1;
  }
  // A grid with a zero dimension is checked like any launch and then does
  // nothing: the runtime's share of a launch, without the device's.
  for (unsigned i = 0; i < o.calls; ++i) {
    auto start = Clock::now();
    rt::Status s = kernel->launch({0, 1, 1}, args);
    checksOnly.push_back(microsSince(start));
    if (!s)
      return std::fprintf(stderr, "%s\n", s.message().c_str()), 1;
  }
  for (unsigned i = 0; i < o.calls; ++i) {
    auto start = Clock::now();
    auto m = dev->loadIR(ir);
    auto k = m ? m->kernel(hadron::bench::kernelName(Op::Copy))
               : rt::Expected<rt::Kernel>(m.status());
    rt::Status s = k ? k->launch({1, 1, 1}, args) : k.status();
    loadLaunch.push_back(microsSince(start));
    if (!s)
      return std::fprintf(stderr, "%s\n", s.message().c_str()), 1;
  }
  (void)std::system(("rm -rf '" + root + "'").c_str());

  std::printf("copy kernel (%s), on %s; medians\n", kCopy.describe().c_str(),
              dev->name().c_str());
  std::printf("  cold: first load_ir in a process, empty cache    %9.1f ms  (CPU %.1f ms; %u runs)\n",
              median(cold) / 1000, median(coldCpu) / 1000, o.runs);
  std::printf("  cold, compiler part already loaded               %9.1f ms  (CPU %.1f ms)\n",
              median(coldLoaded) / 1000, median(coldLoadedCpu) / 1000);
  std::printf("  disk hit: first load_ir in a new context         %9.1f us\n", median(diskHit));
  std::printf("  memory hit: load_ir of a kernel the context has  %9.2f us  (%u calls)\n",
              median(memoryHit), o.calls);
  std::printf("  launch, 1 CTA of 1024 floats                     %9.2f us\n", median(launch));
  std::printf("  of which the runtime's checks (a zero grid)      %9.2f us\n", median(checksOnly));
  std::printf("  load_ir (memory hit) + kernel lookup + launch    %9.2f us\n", median(loadLaunch));
  return 0;
}

} // namespace

int main(int argc, char **argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto value = [&]() -> const char * { return i + 1 < argc ? argv[++i] : nullptr; };
    const char *v = nullptr;
    if (a == "--device" && (v = value()))
      o.device = v;
    else if (a == "--runs" && (v = value()))
      o.runs = static_cast<unsigned>(std::max(1L, std::strtol(v, nullptr, 10)));
    else if (a == "--calls" && (v = value()))
      o.calls = static_cast<unsigned>(std::max(1L, std::strtol(v, nullptr, 10)));
    else {
      std::fprintf(stderr, "usage: hadron-compile-bench [--device SEL] [--runs N] [--calls N]\n");
      return a == "-h" || a == "--help" ? 0 : 2;
    }
  }
  return run(o);
}
