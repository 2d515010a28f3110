//===- Main.cpp - hadron-bench: bandwidth and launch-overhead benchmarks --===//
//
// hadron-bench links only libhadron-runtime: the kernels are textual hd IR
// (Kernels.h) loaded through hd_module_load_ir, so on a machine without a
// compiler they come from a kernel cache filled ahead of time with
// --compile-only. docs/performance.md describes the method and the figures.
//
//   hadron-bench --device host                 copy, add, softmax vs C++ loops
//   hadron-bench --device host --quick         tiny sizes: correctness only
//   hadron-bench --device nvidia --json h.json copy/add 2^28, softmax
//   hadron-bench --device nvidia --only launch --cubin k.cubin
//   hadron-bench --compile-only nvidia:sm_90a --cubin-out k.cubin
//
//===----------------------------------------------------------------------===//

#include "Bench.h"
#include "CublasReference.h"
#include "HostLoops.h"
#include "Kernels.h"
#include "Attention.h"
#include "Matmul.h"
#include "RawCuda.h"

#include "hadron/runtime/Runtime.hpp"

#include <algorithm>
#include <array>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <set>
#include <sstream>
#include <thread>

using namespace hadron::bench;
namespace rt = hadron::runtime;

namespace {

using Clock = std::chrono::steady_clock;

double msSince(Clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

struct Options {
  std::string device = "host";
  std::set<std::string> only = {"copy", "add", "softmax"};
  uint64_t n = 0; ///< 0: the mode's default
  std::vector<std::pair<uint32_t, uint32_t>> shapes;
  std::vector<Config> configs; ///< --config; empty: the mode's sweep
  std::vector<std::array<uint32_t, 3>> matmulShapes; ///< --matmul; empty: 4096³, 8192³
  std::string matmulIR;              ///< --matmul-ir FILE[:BMxBN]; empty: the examples
  std::string cublas;                ///< --cublas PATH|off; empty: libcublas by name
  std::vector<uint32_t> attentionContexts; ///< --attention; empty: 4096, 16384
  std::string attentionIR;                 ///< --attention-ir FILE; empty: the examples
  unsigned reps = 0; ///< 0: the mode's default
  unsigned warmup = 3;
  unsigned threads = std::max(1u, std::thread::hardware_concurrency());
  unsigned launches = 20000;
  bool quick = false;
  std::string json;
  std::string compileOnly; ///< plugin:arch
  std::string cubinOut;
  std::string cubin;
};

const char kUsage[] =
    "usage: hadron-bench [--device SELECTOR] [--only LIST] [--n N] [--softmax RxC[,RxC...]]\n"
    "                    [--reps K] [--warmup K] [--threads T] [--quick] [--json FILE]\n"
    "                    [--config B:S:W[,...]] [--cubin FILE] [--launches N]\n"
    "                    [--matmul SIZES] [--matmul-ir FILE] [--cublas PATH|off]\n"
    "       hadron-bench --compile-only PLUGIN:ARCH [--cubin-out FILE] [--only LIST] ...\n"
    "  --device     runtime selector: host (default), nvidia, nvidia:1, ...\n"
    "  --only       comma list of copy, add, softmax, matmul, attention, launch (default\n"
    "               copy,add,softmax)\n"
    "  --matmul     GEMM sizes (square) or MxNxK shapes, multiples of 256 (default\n"
    "               4096,8192): the bf16 kernels of examples/nvidia side by side\n"
    "               (mma.sync on sm_80+, wgmma on sm_90a)\n"
    "  --matmul-ir  FILE[:BMxBN] a GEMM kernel to time instead: its first kernel\n"
    "               (a, b, c, m, n, k) on BMxBN tiles of C (default 128x128), grid\n"
    "               (m/BM, n/BN), as the examples; a kernel whose name holds\n"
    "               'persistent' gets one program per compute unit (so does one\n"
    "               ending in '_dynamic', with a zeroed tile counter), one whose name\n"
    "               ends in '_tail' a workspace and its last partial wave split\n"
    "               along K (examples/nvidia/matmul_tma_ws_tail_bf16.mlir)\n"
    "  --cublas     PATH|off  the GEMMs' reference on NVIDIA devices: cuBLAS (dlopen'ed:\n"
    "               PATH, else libcublas.so.13 or .12 by name) on the same buffers,\n"
    "               its launches in turns with each kernel's; 'off' times Hadron alone\n"
    "  --attention  n_ctx values, multiples of 128 (default 4096,16384): the flash attention\n"
    "               forward examples (head dim 64 and 128, sm_90a) on 4 x 32 heads\n"
    "  --attention-ir FILE[:ROWS] an attention kernel to time instead: its first\n"
    "               kernel (q, k, v, out, sm_scale, n_ctx) named ..._hdD for head dim\n"
    "               D, ROWS query rows a program (default 128), grid (ceil(n_ctx/ROWS),\n"
    "               heads)\n"
    "  --n          floats for copy/add (default: host 64Mi, GPU 2^28; a multiple of 16)\n"
    "  --softmax    row shapes (default: host 8192x1024, GPU 32768x1024,8192x8192;\n"
    "               columns a multiple of 16)\n"
    "  --config     configs to try instead of the sweep, block:spt:warps each (softmax\n"
    "               takes spt:warps and its own row tile)\n"
    "  --reps       timed launches per config (default: host 15, GPU 50)\n"
    "  --threads    std::threads of the host loops (default: all cores)\n"
    "  --quick      tiny sizes and 2 reps: checks every kernel, times nothing that counts\n"
    "  --json       write the figures as a flat JSON object (bench/compare.py reads it)\n"
    "  launch       launch overhead vs cuLaunchKernel of --cubin (nvidia only)\n"
    "  --launches   launches per launch-overhead measurement (default 20000)\n"
    "  --compile-only  compile every kernel the device run of these options would load,\n"
    "               into HADRON_CACHE_DIR, without a device; --cubin-out writes the\n"
    "               launch-overhead kernel's binary\n";

bool parseUnsigned(const std::string &s, uint64_t &out) {
  if (s.empty() || s.find_first_not_of("0123456789") != std::string::npos)
    return false;
  errno = 0;
  out = std::strtoull(s.c_str(), nullptr, 10);
  return errno == 0;
}

std::vector<std::string> splitList(const std::string &s) {
  std::vector<std::string> out;
  std::stringstream in(s);
  for (std::string item; std::getline(in, item, ',');)
    if (!item.empty())
      out.push_back(item);
  return out;
}

/// Parses argv into `o`; false with `why` on a bad flag.
bool parseArgs(int argc, char **argv, Options &o, std::string &why) {
  for (int i = 1; i < argc; ++i) {
    std::string flag = argv[i];
    auto value = [&](std::string &out) {
      if (i + 1 >= argc) {
        why = flag + " needs a value";
        return false;
      }
      out = argv[++i];
      return true;
    };
    auto number = [&](uint64_t &out, uint64_t lo, uint64_t hi) {
      std::string v;
      if (!value(v))
        return false;
      if (!parseUnsigned(v, out) || out < lo || out > hi) {
        why = flag + " '" + v + "' is not a whole number in [" + std::to_string(lo) + ", " +
              std::to_string(hi) + "]";
        return false;
      }
      return true;
    };
    uint64_t u = 0;
    std::string v;
    if (flag == "--help" || flag == "-h") {
      std::fputs(kUsage, stdout);
      std::exit(0);
    } else if (flag == "--device") {
      if (!value(o.device))
        return false;
    } else if (flag == "--only") {
      if (!value(v))
        return false;
      o.only.clear();
      for (const std::string &item : splitList(v)) {
        if (item != "copy" && item != "add" && item != "softmax" && item != "launch" &&
            item != "matmul" && item != "attention") {
          why = "--only: unknown benchmark '" + item +
                "' (copy, add, softmax, matmul, attention, launch)";
          return false;
        }
        o.only.insert(item);
      }
    } else if (flag == "--n") {
      if (!number(o.n, kCountMultiple, std::numeric_limits<int32_t>::max()))
        return false;
      if (o.n % kCountMultiple) {
        why = "--n " + std::to_string(o.n) + " is not a multiple of " +
              std::to_string(kCountMultiple) + " (the kernels promise that, Kernels.h)";
        return false;
      }
    } else if (flag == "--softmax") {
      if (!value(v))
        return false;
      o.shapes.clear();
      for (const std::string &item : splitList(v)) {
        size_t x = item.find('x');
        uint64_t r = 0, c = 0;
        if (x == std::string::npos || !parseUnsigned(item.substr(0, x), r) ||
            !parseUnsigned(item.substr(x + 1), c) || r == 0 || c == 0) {
          why = "--softmax: '" + item + "' is not ROWSxCOLS";
          return false;
        }
        if (c % kCountMultiple || c > (1u << 16) ||
            r * c > uint64_t(std::numeric_limits<int32_t>::max())) {
          why = "--softmax " + item + ": columns must be a multiple of " +
                std::to_string(kCountMultiple) + " up to 65536, and rows*cols below 2^31";
          return false;
        }
        o.shapes.emplace_back(static_cast<uint32_t>(r), static_cast<uint32_t>(c));
      }
    } else if (flag == "--config") {
      if (!value(v))
        return false;
      o.configs.clear();
      for (const std::string &item : splitList(v)) {
        uint64_t f[3] = {0, 0, 0};
        size_t at = 0, field = 0;
        for (; field < 3; ++field) {
          size_t end = item.find(':', at);
          if (!parseUnsigned(item.substr(at, end - at), f[field]) || f[field] == 0 ||
              f[field] > 65536)
            break;
          if (end == std::string::npos) {
            ++field;
            break;
          }
          at = end + 1;
        }
        bool pow2 = (f[0] & (f[0] - 1)) == 0 && (f[1] & (f[1] - 1)) == 0 &&
                    (f[2] & (f[2] - 1)) == 0;
        if (field != 3 || item.find(':', at) != std::string::npos || !pow2 ||
            f[1] * 32 * f[2] > f[0]) {
          why = "--config '" + item + "' is not block:spt:warps, powers of two with "
                "spt*32*warps <= block";
          return false;
        }
        o.configs.push_back({static_cast<uint32_t>(f[0]), static_cast<uint32_t>(f[1]),
                             static_cast<uint32_t>(f[2])});
      }
    } else if (flag == "--matmul") {
      if (!value(v))
        return false;
      for (const std::string &item : splitList(v)) {
        // SIZE (square) or MxNxK.
        std::vector<std::string> parts;
        for (size_t at = 0;;) {
          size_t x = item.find('x', at);
          parts.push_back(item.substr(at, x == std::string::npos ? x : x - at));
          if (x == std::string::npos)
            break;
          at = x + 1;
        }
        std::array<uint32_t, 3> shape{};
        bool ok = parts.size() == 1 || parts.size() == 3;
        for (size_t d = 0; d < parts.size() && ok; ++d) {
          uint64_t size = 0;
          ok = parseUnsigned(parts[d], size) && size && size % 256 == 0 && size <= 32768;
          shape[d] = static_cast<uint32_t>(size);
        }
        if (parts.size() == 1)
          shape[1] = shape[2] = shape[0];
        if (!ok) {
          why = "--matmul: '" + item +
                "' is not a size or an MxNxK shape of multiples of 256 up to 32768";
          return false;
        }
        o.matmulShapes.push_back(shape);
      }
    } else if (flag == "--attention") {
      if (!value(v))
        return false;
      for (const std::string &item : splitList(v)) {
        uint64_t ctx = 0;
        if (!parseUnsigned(item, ctx) || ctx == 0 || ctx % 128 || ctx > 131072) {
          why = "--attention: '" + item + "' is not an n_ctx that is a multiple of 128 up to 131072";
          return false;
        }
        o.attentionContexts.push_back(static_cast<uint32_t>(ctx));
      }
    } else if (flag == "--attention-ir") {
      if (!value(o.attentionIR))
        return false;
    } else if (flag == "--matmul-ir") {
      if (!value(o.matmulIR))
        return false;
    } else if (flag == "--cublas") {
      if (!value(o.cublas))
        return false;
    } else if (flag == "--reps") {
      if (!number(u, 1, 100000))
        return false;
      o.reps = static_cast<unsigned>(u);
    } else if (flag == "--warmup") {
      if (!number(u, 0, 1000))
        return false;
      o.warmup = static_cast<unsigned>(u);
    } else if (flag == "--threads") {
      if (!number(u, 1, 4096))
        return false;
      o.threads = static_cast<unsigned>(u);
    } else if (flag == "--launches") {
      if (!number(u, 10, 10000000))
        return false;
      o.launches = static_cast<unsigned>(u);
    } else if (flag == "--quick") {
      o.quick = true;
    } else if (flag == "--json") {
      if (!value(o.json))
        return false;
    } else if (flag == "--compile-only") {
      if (!value(o.compileOnly))
        return false;
    } else if (flag == "--cubin-out") {
      if (!value(o.cubinOut))
        return false;
    } else if (flag == "--cubin") {
      if (!value(o.cubin))
        return false;
    } else {
      why = "unknown argument '" + flag + "'";
      return false;
    }
  }
  if (o.quick) {
    o.reps = o.reps ? o.reps : 2;
    o.warmup = std::min(o.warmup, 1u);
    o.launches = std::min(o.launches, 200u);
  }
  return true;
}

//===----------------------------------------------------------------------===//
// The plan: workloads and configs
//===----------------------------------------------------------------------===//

/// softmax configs for a row tile: per warp count, each spt of `spts` whose
/// layout tile fits the row tile, else the one spt that fills it.
std::vector<Config> softmaxConfigs(uint32_t block, const std::vector<uint32_t> &warps,
                                   const std::vector<uint32_t> &spts) {
  std::vector<Config> out;
  for (uint32_t w : warps) {
    size_t before = out.size();
    for (uint32_t s : spts)
      if (uint64_t(s) * 32 * w <= block)
        out.push_back({block, s, w});
    if (out.size() == before && block >= 32 * w)
      out.push_back({block, block / (32 * w), w});
  }
  return out;
}

/// The host's copy/add configs: blocks of 64 and 128 with the spt that fit
/// one warp, then 256 to 4096 with spt 4, 8, 16 and 1, 4 or 8 warps.
std::vector<Config> hostSweep() {
  std::vector<Config> configs = sweep({64, 128}, {2, 4}, {1});
  for (const Config &c : sweep({256, 512, 1024, 2048, 4096}, {4, 8, 16}, {1, 4, 8}))
    configs.push_back(c);
  return configs;
}

/// What a run with these options measures on a GPU (`gpu`) or the host.
/// The compile-only mode compiles exactly these kernels.
/// The host folds a program's whole tile into one thread's registers, so its
/// code grows with the block: blocks stop at 4096 there (16384 took 7 minutes
/// to compile on the 2-core build machine). They start at 64: a program
/// loads its whole tile before it stores any of it unless the host fuses
/// its chunk loops (tiles whose loops O3 does not unroll whole: 1024 floats
/// and more with AVX-512; only where the stored range misses the loaded
/// ones), and the smaller that burst, the closer
/// copy and add come to a loop's interleaved loads and stores
/// (docs/performance.md, "Host copy and add against the loops").
std::vector<Workload> plan(const Options &o, bool gpu) {
  uint64_t n = o.n ? o.n : o.quick ? 10000 : gpu ? (1ull << 28) : (1ull << 26);
  std::vector<std::pair<uint32_t, uint32_t>> shapes = o.shapes;
  if (shapes.empty())
    shapes = o.quick ? std::vector<std::pair<uint32_t, uint32_t>>{{37, 1008}, {5, 80}}
             : gpu   ? std::vector<std::pair<uint32_t, uint32_t>>{{32768, 1024}, {8192, 8192}}
                     : std::vector<std::pair<uint32_t, uint32_t>>{{8192, 1024}};
  std::vector<Config> flat =
      o.quick ? std::vector<Config>{{1024, 4, 4}, {512, 4, 1}, {256, 1, 8}, {64, 2, 1}}
      : gpu   ? sweep({1024, 2048, 4096, 8192}, {4, 8}, {4, 8, 16})
              : hostSweep();
  std::vector<uint32_t> warps = o.quick ? std::vector<uint32_t>{1, 4}
                                : gpu   ? std::vector<uint32_t>{4, 8, 16}
                                        : std::vector<uint32_t>{1, 4, 8};
  std::vector<uint32_t> spts = o.quick ? std::vector<uint32_t>{1, 4} : std::vector<uint32_t>{4, 8};
  if (!o.configs.empty())
    flat = o.configs;

  std::vector<Workload> out;
  for (Op op : {Op::Copy, Op::Add}) {
    if (!o.only.count(opName(op)))
      continue;
    Workload w;
    w.op = op;
    w.n = n;
    w.configs = flat;
    out.push_back(w);
  }
  if (o.only.count("softmax"))
    for (auto [rows, cols] : shapes) {
      Workload w;
      w.op = Op::Softmax;
      w.rows = rows;
      w.cols = cols;
      uint32_t block = std::max(32u, nextPowerOfTwo(cols));
      if (o.configs.empty()) {
        w.configs = softmaxConfigs(block, warps, spts);
      } else {
        for (const Config &c : o.configs)
          if (uint64_t(c.spt) * 32 * c.warps <= block)
            w.configs.push_back({block, c.spt, c.warps});
      }
      out.push_back(w);
    }
  return out;
}

/// The launch-overhead kernel: a copy of one 128-float block, one CTA.
const Config kLaunchConfig{128, 1, 4};
constexpr uint32_t kLaunchElements = 128;

//===----------------------------------------------------------------------===//
// Inputs and checks
//===----------------------------------------------------------------------===//

/// Uniform floats in [lo, hi), a fresh stream per seed (splitmix64).
void randomFill(std::vector<float> &v, uint64_t seed, float lo, float hi) {
  uint64_t s = seed;
  for (float &x : v) {
    uint64_t z = (s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    z ^= z >> 31;
    x = lo + (hi - lo) * static_cast<float>(z >> 40) * (1.0f / 16777216.0f);
  }
}

/// The first element of `got` that misses `want`, or "" when none does.
/// Exact for copy and add; for softmax within 1e-6 + 1e-4 * |want|.
std::string firstMismatch(const std::vector<float> &got, const std::vector<float> &want,
                          bool exact) {
  for (size_t i = 0; i < got.size(); ++i) {
    float g = got[i], w = want[i];
    bool ok = exact ? (g == w) : std::fabs(g - w) <= 1e-6f + 1e-4f * std::fabs(w);
    if (!ok) {
      char buf[160];
      std::snprintf(buf, sizeof buf, "element %zu is %.9g, expected %.9g", i, g, w);
      return buf;
    }
  }
  return "";
}

/// Softmax in double, rounded to float: the reference the kernels and the
/// loops are checked against.
std::vector<float> softmaxReference(const std::vector<float> &x, uint32_t rows, uint32_t cols) {
  std::vector<float> y(x.size());
  for (size_t r = 0; r < rows; ++r) {
    const float *row = &x[r * cols];
    double max = -INFINITY, sum = 0;
    for (size_t j = 0; j < cols; ++j)
      max = std::max<double>(max, row[j]);
    for (size_t j = 0; j < cols; ++j)
      sum += std::exp(row[j] - max);
    for (size_t j = 0; j < cols; ++j)
      y[r * cols + j] = static_cast<float>(std::exp(row[j] - max) / sum);
  }
  return y;
}

uint64_t seedFromClock() {
  return static_cast<uint64_t>(Clock::now().time_since_epoch().count());
}

//===----------------------------------------------------------------------===//
// Running one workload on a device
//===----------------------------------------------------------------------===//

struct Measured {
  Config config;
  double ms = 0;
};

struct Outcome {
  Workload workload;
  std::vector<Measured> runs; ///< configs that passed, timed
  double loopMs = -1;         ///< host loops; < 0 when not run
  /// The best config and the loops timed in alternation (host): the medians
  /// the Hadron/loop ratio comes from, so that a change in the load of a
  /// shared machine hits both alike.
  double pairHadronMs = -1, pairLoopMs = -1;
  std::vector<std::string> failures;
  const Measured *best() const {
    const Measured *b = nullptr;
    for (const Measured &m : runs)
      if (!b || m.ms < b->ms)
        b = &m;
    return b;
  }
};

/// The median of `reps` launches timed with the device's events, after
/// `warmup` untimed ones.
rt::Expected<double> timeLaunches(const rt::Device &dev, const rt::Kernel &k,
                                  std::array<uint32_t, 3> grid, const std::vector<hd_arg> &args,
                                  unsigned warmup, unsigned reps) {
  auto start = dev.createEvent();
  auto stop = dev.createEvent();
  if (!start)
    return start.status();
  if (!stop)
    return stop.status();
  for (unsigned i = 0; i < warmup; ++i)
    if (rt::Status s = k.launch(grid, args); !s)
      return s;
  std::vector<double> ms;
  for (unsigned i = 0; i < reps; ++i) {
    if (rt::Status s = start->record(); !s)
      return s;
    if (rt::Status s = k.launch(grid, args); !s)
      return s;
    if (rt::Status s = stop->record(); !s)
      return s;
    auto e = start->elapsedMsUntil(*stop);
    if (!e)
      return e.status();
    ms.push_back(*e);
  }
  if (rt::Status s = dev.synchronize(); !s)
    return s;
  return median(ms);
}

/// The median of `reps` runs of `body` (after one warm-up), steady clock.
template <typename Body> double timeLoop(unsigned reps, const Body &body) {
  body();
  std::vector<double> ms;
  for (unsigned i = 0; i < reps; ++i) {
    auto t0 = Clock::now();
    body();
    ms.push_back(msSince(t0));
  }
  return median(ms);
}

Outcome runWorkload(const rt::Device &dev, const Workload &w, const Options &o, bool hostLoops) {
  Outcome out;
  out.workload = w;
  auto fail = [&](const std::string &what) {
    out.failures.push_back(w.describe() + ": " + what);
    return out;
  };
  uint64_t seed = seedFromClock();
  size_t count = w.elements();
  std::vector<float> a(count), b(w.op == Op::Add ? count : 0);
  randomFill(a, seed, w.op == Op::Softmax ? -8.f : -1.f, w.op == Op::Softmax ? 8.f : 1.f);
  randomFill(b, seed + 1, -1.f, 1.f);
  std::vector<float> want;
  if (w.op == Op::Copy)
    want = a;
  else if (w.op == Op::Add) {
    want.resize(count);
    for (size_t i = 0; i < count; ++i)
      want[i] = a[i] + b[i];
  } else {
    want = softmaxReference(a, w.rows, w.cols);
  }
  const bool exact = w.op != Op::Softmax;

  uint64_t bytes = count * sizeof(float);
  auto inA = dev.alloc(bytes);
  if (!inA)
    return fail("alloc: " + inA.status().message());
  auto inB = dev.alloc(w.op == Op::Add ? bytes : 0);
  if (!inB)
    return fail("alloc: " + inB.status().message());
  auto outC = dev.alloc(bytes);
  if (!outC)
    return fail("alloc: " + outC.status().message());
  if (rt::Status s = inA->upload(a); !s)
    return fail("upload: " + s.message());
  if (w.op == Op::Add)
    if (rt::Status s = inB->upload(b); !s)
      return fail("upload: " + s.message());

  std::vector<float> got(count);
  std::optional<rt::Module> bestModule;
  std::optional<rt::Kernel> bestKernel;
  std::vector<hd_arg> bestArgs;
  std::array<uint32_t, 3> bestGrid{};
  const float poison = std::numeric_limits<float>::quiet_NaN();
  for (const Config &c : w.configs) {
    std::string where = c.describe();
    auto module = dev.loadIR(kernelIR(w.op, c));
    if (!module) {
      out.failures.push_back(w.describe() + " " + where + ": " + module.status().message());
      continue;
    }
    auto kernel = module->kernel(kernelName(w.op));
    if (!kernel) {
      out.failures.push_back(w.describe() + " " + where + ": " + kernel.status().message());
      continue;
    }
    std::vector<hd_arg> args;
    args.push_back(inA->arg());
    if (w.op == Op::Add)
      args.push_back(inB->arg());
    args.push_back(outC->arg());
    args.push_back(rt::arg::i32(static_cast<int32_t>(w.op == Op::Softmax ? w.cols : w.n)));
    std::array<uint32_t, 3> grid{w.grid(c), 1, 1};

    std::fill(got.begin(), got.end(), poison);
    rt::Status s = outC->upload(got);
    if (s)
      s = kernel->launch(grid, args);
    if (s)
      s = dev.synchronize();
    if (s)
      s = outC->download(got);
    if (!s) {
      out.failures.push_back(w.describe() + " " + where + ": " + s.message());
      continue;
    }
    if (std::string bad = firstMismatch(got, want, exact); !bad.empty()) {
      out.failures.push_back(w.describe() + " " + where + ": wrong result: " + bad);
      continue;
    }
    auto ms = timeLaunches(dev, *kernel, grid, args, o.warmup, o.reps);
    if (!ms) {
      out.failures.push_back(w.describe() + " " + where + ": " + ms.status().message());
      continue;
    }
    if (!out.best() || *ms < out.best()->ms) {
      bestKernel.emplace(*kernel);
      bestModule.emplace(std::move(module).value());
      bestArgs = args;
      bestGrid = grid;
    }
    out.runs.push_back({c, *ms});
  }

  if (hostLoops) {
    std::fill(got.begin(), got.end(), poison);
    std::function<void()> loop;
    if (w.op == Op::Copy)
      loop = [&] { loopCopy(a.data(), got.data(), count, o.threads); };
    else if (w.op == Op::Add)
      loop = [&] { loopAdd(a.data(), b.data(), got.data(), count, o.threads); };
    else
      loop = [&] { loopSoftmax(a.data(), got.data(), w.rows, w.cols, o.threads); };
    out.loopMs = timeLoop(o.reps, loop);
    if (std::string bad = firstMismatch(got, want, exact); !bad.empty())
      out.failures.push_back(w.describe() + " C++ loop: wrong result: " + bad);
    if (bestKernel) {
      std::vector<double> hadronMs, loopMs;
      for (unsigned i = 0; i < o.reps; ++i) {
        auto t0 = Clock::now();
        rt::Status s = bestKernel->launch(bestGrid, bestArgs);
        if (s)
          s = dev.synchronize();
        if (!s) {
          out.failures.push_back(w.describe() + " best config: " + s.message());
          break;
        }
        hadronMs.push_back(msSince(t0));
        t0 = Clock::now();
        loop();
        loopMs.push_back(msSince(t0));
      }
      out.pairHadronMs = median(hadronMs);
      out.pairLoopMs = median(loopMs);
    }
  }
  return out;
}

void printOutcome(const Outcome &r, bool hostLoops) {
  const Workload &w = r.workload;
  std::printf("\n%s  (%.1f MB moved per launch)\n", w.describe().c_str(), w.bytes() / 1e6);
  std::printf("  %-8s %-28s %12s %10s\n", "impl", "config", "median ms", "GB/s");
  const Measured *best = r.best();
  for (const Measured &m : r.runs)
    std::printf("  %-8s %-28s %12.4f %10.1f%s\n", "hadron", m.config.describe().c_str(), m.ms,
                gbps(w.bytes(), m.ms), &m == best ? "  <- best" : "");
  if (hostLoops && r.loopMs >= 0) {
    std::printf("  %-8s %-28s %12.4f %10.1f\n", "loop", "C++ -O3 -march=native, threads",
                r.loopMs, gbps(w.bytes(), r.loopMs));
    if (best && r.pairHadronMs > 0)
      std::printf("  best config and loop alternating, %s: Hadron %.4f ms, loop %.4f ms, "
                  "Hadron/loop %.2fx (bandwidth)\n",
                  best->config.describe().c_str(), r.pairHadronMs, r.pairLoopMs,
                  r.pairLoopMs / r.pairHadronMs);
  }
}

void report(JsonReport &json, const Outcome &r, bool hostLoops) {
  const Workload &w = r.workload;
  std::string k = w.key();
  for (const Measured &m : r.runs)
    json.number(k + ".hadron." + m.config.tag() + "_GBps", gbps(w.bytes(), m.ms));
  if (const Measured *best = r.best()) {
    json.number(k + ".hadron_best_GBps", gbps(w.bytes(), best->ms));
    json.number(k + ".hadron_best_ms", best->ms);
    json.string(k + ".hadron_best_config", best->config.describe());
  }
  if (hostLoops && r.loopMs > 0) {
    json.number(k + ".loop_GBps", gbps(w.bytes(), r.loopMs));
    json.number(k + ".loop_ms", r.loopMs);
  }
  if (r.pairHadronMs > 0) {
    json.number(k + ".pair_hadron_ms", r.pairHadronMs);
    json.number(k + ".pair_loop_ms", r.pairLoopMs);
    json.number(k + ".hadron_over_loop", r.pairLoopMs / r.pairHadronMs);
  }
  json.number(k + ".elements", static_cast<double>(w.elements()));
}

//===----------------------------------------------------------------------===//
// Launch overhead
//===----------------------------------------------------------------------===//

bool readFile(const std::string &path, std::string &out) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return false;
  std::ostringstream s;
  s << in.rdbuf();
  out = s.str();
  return true;
}

/// Per-launch figures in microseconds.
struct LaunchFigures {
  double call = 0;      ///< median duration of one launch call, no sync
  double batch = 0;     ///< (N launches + one sync) / N
  double withSync = 0;  ///< median of launch + synchronize
};

/// Measures `launch` and `sync` as LaunchFigures: `n` timed calls each way.
template <typename Launch, typename Sync>
bool measureLaunches(unsigned n, const Launch &launch, const Sync &sync, LaunchFigures &f) {
  std::vector<double> us;
  us.reserve(n);
  for (unsigned i = 0; i < n / 10 + 1; ++i) // warm-up
    if (!launch())
      return false;
  if (!sync())
    return false;
  for (unsigned i = 0; i < n; ++i) {
    auto t0 = Clock::now();
    bool ok = launch();
    us.push_back(msSince(t0) * 1e3);
    if (!ok)
      return false;
  }
  if (!sync())
    return false;
  f.call = median(us);
  auto t0 = Clock::now();
  for (unsigned i = 0; i < n; ++i)
    if (!launch())
      return false;
  if (!sync())
    return false;
  f.batch = msSince(t0) * 1e3 / n;
  us.clear();
  unsigned m = std::max(10u, n / 10);
  for (unsigned i = 0; i < m; ++i) {
    auto t1 = Clock::now();
    if (!launch() || !sync())
      return false;
    us.push_back(msSince(t1) * 1e3);
  }
  f.withSync = median(us);
  return true;
}

/// 0 when measured or when there is no libcuda (it says so), 1 on failure.
int launchOverhead(rt::Context &ctx, const Options &o, JsonReport &json) {
  std::printf("\nlaunch overhead: Hadron (C++ API) vs cuLaunchKernel of the same cubin\n");
  std::string why;
  bool missing = false;
  std::string image;
  if (o.cubin.empty()) {
    std::fprintf(stderr, "hadron-bench: launch needs --cubin FILE (made by --compile-only "
                         "nvidia:ARCH --cubin-out FILE)\n");
    return 1;
  }
  auto dev = ctx.select(o.device);
  std::unique_ptr<RawCuda> cuda;
  if (dev && dev->pluginName() == "nvidia")
    cuda = RawCuda::open(static_cast<int>(hd_device_index(dev->get())), why, missing);
  else
    cuda = RawCuda::open(0, why, missing);
  if (!cuda && missing) {
    std::printf("  skipped: %s; this machine cannot run the CUDA baseline\n", why.c_str());
    return 0;
  }
  if (!cuda) {
    std::fprintf(stderr, "hadron-bench: launch: %s\n", why.c_str());
    return 1;
  }
  if (!dev || dev->pluginName() != "nvidia") {
    std::fprintf(stderr, "hadron-bench: launch: --device '%s' is no NVIDIA device: %s\n",
                 o.device.c_str(), dev ? dev->name().c_str() : dev.status().message().c_str());
    return 1;
  }
  if (!readFile(o.cubin, image)) {
    std::fprintf(stderr, "hadron-bench: launch: cannot read --cubin %s\n", o.cubin.c_str());
    return 1;
  }
  auto module = dev->loadIR(kernelIR(Op::Copy, kLaunchConfig));
  if (!module) {
    std::fprintf(stderr, "hadron-bench: launch kernel: %s\n", module.status().message().c_str());
    return 1;
  }
  auto kernel = module->kernel(kernelName(Op::Copy));
  if (!kernel || !cuda->loadKernel(image, kernelName(Op::Copy), why)) {
    std::fprintf(stderr, "hadron-bench: launch kernel: %s\n",
                 kernel ? why.c_str() : kernel.status().message().c_str());
    return 1;
  }
  const hd_kernel_signature &sig = kernel->signature();
  uint32_t block = sig.num_warps * sig.warp_size;
  uint32_t shared = static_cast<uint32_t>(sig.static_shared_bytes);

  std::vector<float> src(kLaunchElements), got(kLaunchElements);
  randomFill(src, seedFromClock(), -1.f, 1.f);
  auto in = dev->alloc(kLaunchElements * sizeof(float));
  auto out = dev->alloc(kLaunchElements * sizeof(float));
  if (!in || !out || !in->upload(src)) {
    std::fprintf(stderr, "hadron-bench: launch: buffers failed\n");
    return 1;
  }
  std::vector<hd_arg> args{in->arg(), out->arg(), rt::arg::i32(kLaunchElements)};
  uint64_t srcPtr = in->devicePtr(), dstPtr = out->devicePtr();
  uint32_t n32 = kLaunchElements;
  void *params[] = {&srcPtr, &dstPtr, &n32};
  std::array<uint32_t, 3> grid{1, 1, 1};
  std::string cudaError;
  auto hadronLaunch = [&] { return kernel->launch(grid, args).ok(); };
  auto hadronSync = [&] { return dev->synchronize().ok(); };
  auto rawLaunch = [&] { return cuda->launch(1, block, shared, params, cudaError); };
  auto rawSync = [&] { return cuda->synchronize(cudaError); };

  // Both paths must write the right result before they are timed.
  const float poison = std::numeric_limits<float>::quiet_NaN();
  for (int path = 0; path < 2; ++path) {
    std::fill(got.begin(), got.end(), poison);
    bool ok = out->upload(got).ok() && (path ? rawLaunch() && rawSync()
                                             : hadronLaunch() && hadronSync()) &&
              out->download(got).ok();
    std::string bad = ok ? firstMismatch(got, src, true) : "launch failed " + cudaError;
    if (!bad.empty()) {
      std::fprintf(stderr, "hadron-bench: launch kernel via %s: %s\n",
                   path ? "cuLaunchKernel" : "Hadron", bad.c_str());
      return 1;
    }
  }

  LaunchFigures h, c;
  if (!measureLaunches(o.launches, hadronLaunch, hadronSync, h) ||
      !measureLaunches(o.launches, rawLaunch, rawSync, c)) {
    std::fprintf(stderr, "hadron-bench: launch: a timed launch failed %s\n", cudaError.c_str());
    return 1;
  }
  std::printf("  kernel: copy of %u floats, 1 CTA of %u threads; %u launches per figure\n",
              kLaunchElements, block, o.launches);
  std::printf("  %-34s %12s %12s %8s\n", "microseconds per launch", "Hadron", "cuLaunch", "ratio");
  auto row = [](const char *what, double hv, double cv) {
    std::printf("  %-34s %12.3f %12.3f %7.2fx\n", what, hv, cv, cv > 0 ? hv / cv : 0);
  };
  row("launch call, no sync (median)", h.call, c.call);
  row("N launches + 1 sync, mean", h.batch, c.batch);
  row("launch + synchronize (median)", h.withSync, c.withSync);
  json.number("launch.hadron_call_us", h.call);
  json.number("launch.cuda_call_us", c.call);
  json.number("launch.hadron_batch_us", h.batch);
  json.number("launch.cuda_batch_us", c.batch);
  json.number("launch.hadron_sync_us", h.withSync);
  json.number("launch.cuda_sync_us", c.withSync);
  json.number("launch.call_ratio", h.call / c.call);
  json.number("launch.batch_ratio", h.batch / c.batch);
  json.number("launch.sync_ratio", h.withSync / c.withSync);
  return 0;
}

//===----------------------------------------------------------------------===//
// Compile only
//===----------------------------------------------------------------------===//

/// Reads the kernel file that `option` (--matmul-ir, --attention-ir) names:
/// its text and the name of its first func.func, which is the kernel run.
bool readKernelFile(const char *option, const std::string &path, std::string &ir,
                    std::string &name, std::string &why) {
  if (!readFile(path, ir)) {
    why = std::string("cannot read ") + option + " " + path;
    return false;
  }
  size_t at = ir.find("func.func @");
  if (at == std::string::npos) {
    why = std::string(option) + " " + path + " holds no func.func";
    return false;
  }
  at += 11;
  name = ir.substr(at, ir.find_first_of("( ", at) - at);
  return true;
}

/// The GEMMs to run: the embedded examples, or `spec` = FILE[:BMxBN], whose
/// first func.func is the kernel.
bool matmulKernelsFor(const std::string &spec, std::vector<MatmulKernel> &out, std::string &why) {
  if (spec.empty()) {
    out = matmulKernels();
    return true;
  }
  MatmulKernel k;
  k.variant = "custom";
  std::string path = spec;
  size_t colon = spec.rfind(':');
  if (colon != std::string::npos && spec.find('x', colon) != std::string::npos) {
    path = spec.substr(0, colon);
    unsigned bm = 0, bn = 0;
    char tail = 0;
    if (std::sscanf(spec.c_str() + colon + 1, "%ux%u%c", &bm, &bn, &tail) != 2 || !bm || !bn ||
        (bm & (bm - 1)) || (bn & (bn - 1))) {
      why = "--matmul-ir " + spec + ": the tile after ':' is BMxBN, powers of two";
      return false;
    }
    k.tileM = bm;
    k.tileN = bn;
  }
  k.label = path;
  if (!readKernelFile("--matmul-ir", path, k.ir, k.name, why))
    return false;
  const size_t end = k.ir.find("func.func @" + k.name) + 11 + k.name.size();
  // A persistent kernel (one program per compute unit) says so in its name.
  k.persistent = k.name.find("persistent") != std::string::npos;
  // So does one that splits its last partial wave along K.
  k.splitTail = k.name.size() > 5 && k.name.compare(k.name.size() - 5, 5, "_tail") == 0;
  // And one that takes its tiles from a counter (one program per compute
  // unit as well).
  k.dynamicTiles = k.name.size() > 8 && k.name.compare(k.name.size() - 8, 8, "_dynamic") == 0;
  k.persistent = k.persistent || k.dynamicTiles;
  // A, B (and C) as tensor descriptors when the signature says so.
  size_t body = k.ir.find("attributes", end);
  std::string signature =
      k.ir.substr(end, body == std::string::npos ? std::string::npos : body - end);
  k.descriptors = 0;
  for (size_t at = signature.find("!hd.tensor_desc"); at != std::string::npos;
       at = signature.find("!hd.tensor_desc", at + 1))
    ++k.descriptors;
  out = {k};
  return true;
}

/// The attention kernels to run: the embedded examples, or `spec` =
/// FILE[:ROWS], whose first func.func is the kernel, named _hdD for head dim
/// D, with ROWS query rows a program (default 128).
bool attentionKernelsFor(const std::string &spec, std::vector<AttentionKernel> &out,
                         std::string &why) {
  if (spec.empty()) {
    out = attentionKernels();
    return true;
  }
  AttentionKernel k;
  std::string path = spec;
  size_t colon = spec.rfind(':');
  if (colon != std::string::npos && colon + 1 < spec.size() &&
      spec.find_first_not_of("0123456789", colon + 1) == std::string::npos) {
    path = spec.substr(0, colon);
    unsigned long rows = std::strtoul(spec.c_str() + colon + 1, nullptr, 10);
    if (rows == 0 || rows % 64 || rows > 1024) {
      why = "--attention-ir " + spec + ": the rows after ':' are a multiple of 64 up to 1024";
      return false;
    }
    k.blockM = static_cast<uint32_t>(rows);
  }
  k.label = path;
  if (!readKernelFile("--attention-ir", path, k.ir, k.name, why))
    return false;
  size_t hd = k.name.rfind("_hd");
  unsigned dim = 0;
  if (hd == std::string::npos || std::sscanf(k.name.c_str() + hd + 3, "%u", &dim) != 1 ||
      (dim != 64 && dim != 128)) {
    why = "--attention-ir " + path + ": kernel '" + k.name +
          "' does not end in _hd64 or _hd128 (its head dim)";
    return false;
  }
  k.headDim = dim;
  k.arch = "sm_90a";
  out = {k};
  return true;
}

int compileOnly(rt::Context &ctx, const Options &o) {
  std::string target = o.compileOnly;
  size_t colon = target.find(':');
  std::string plugin = target.substr(0, colon);
  std::string arch = colon == std::string::npos ? "" : target.substr(colon + 1);
  const hd_plugin_info *found = nullptr;
  std::vector<hd_plugin_info> plugins = ctx.plugins();
  std::string loaded;
  for (const hd_plugin_info &p : plugins) {
    loaded += std::string(loaded.empty() ? "" : ", ") + p.name;
    if (plugin == p.name)
      found = &p;
  }
  if (!found) {
    std::fprintf(stderr,
                 "hadron-bench: --compile-only '%s': no plugin '%s' is loaded (loaded: %s); the "
                 "form is PLUGIN:ARCH, e.g. nvidia:sm_90a\n",
                 target.c_str(), plugin.c_str(), loaded.empty() ? "none" : loaded.c_str());
    return 1;
  }
  // The device run resolves the arch to the device's; pass it explicitly.
  if (arch.empty() && found->default_arch)
    arch = found->default_arch;
  hd_compile_options options{sizeof(options), arch.c_str(), 3, nullptr};

  struct Job {
    std::string what, ir, kernel;
    bool launchKernel;
  };
  std::vector<Job> jobs;
  for (const Workload &w : plan(o, plugin != "host"))
    for (const Config &c : w.configs)
      jobs.push_back({w.describe() + " " + c.describe(), kernelIR(w.op, c), kernelName(w.op),
                      false});
  jobs.push_back({"launch kernel " + kLaunchConfig.describe(), kernelIR(Op::Copy, kLaunchConfig),
                  kernelName(Op::Copy), true});
  if (o.only.count("matmul")) {
    std::vector<MatmulKernel> gemms;
    std::string why;
    if (!matmulKernelsFor(o.matmulIR, gemms, why)) {
      std::fprintf(stderr, "hadron-bench: %s\n", why.c_str());
      return 1;
    }
    for (const MatmulKernel &g : gemms)
      if (g.arch.empty() || g.arch == arch)
        jobs.push_back({"matmul " + g.variant, g.ir, g.name, false});
  }

  if (o.only.count("attention")) {
    std::vector<AttentionKernel> kernels;
    std::string why;
    if (!attentionKernelsFor(o.attentionIR, kernels, why)) {
      std::fprintf(stderr, "hadron-bench: %s\n", why.c_str());
      return 1;
    }
    for (const AttentionKernel &k : kernels)
      if (k.arch.empty() || k.arch == arch)
        jobs.push_back({"attention hd" + std::to_string(k.headDim), k.ir, k.name, false});
  }

  auto t0 = Clock::now();
  int failed = 0;
  for (const Job &job : jobs) {
    hd_compiled *compiled = nullptr;
    hd_error err;
    hd_status s = hd_context_compile(ctx.get(), plugin.c_str(), job.ir.data(), job.ir.size(),
                                     &options, &compiled, &err);
    if (s != HD_OK) {
      std::fprintf(stderr, "hadron-bench: %s does not compile for %s:%s: %s\n", job.what.c_str(),
                   plugin.c_str(), arch.c_str(), err.message);
      ++failed;
      continue;
    }
    const hd_compiled_module *m = hd_compiled_get(compiled);
    bool has = false;
    for (uint32_t i = 0; i < m->num_kernels; ++i)
      has |= job.kernel == m->kernels[i].name;
    if (!has) {
      std::fprintf(stderr, "hadron-bench: %s compiled without a kernel '%s'\n", job.what.c_str(),
                   job.kernel.c_str());
      ++failed;
    } else if (job.launchKernel && !o.cubinOut.empty()) {
      std::ofstream f(o.cubinOut, std::ios::binary);
      f.write(static_cast<const char *>(m->binary), static_cast<std::streamsize>(m->binary_size));
      if (!f) {
        std::fprintf(stderr, "hadron-bench: cannot write --cubin-out %s\n", o.cubinOut.c_str());
        ++failed;
      } else {
        std::printf("compile-only: wrote %s (%llu bytes)\n", o.cubinOut.c_str(),
                    static_cast<unsigned long long>(m->binary_size));
      }
    }
    hd_compiled_destroy(compiled);
  }
  const char *cache = std::getenv("HADRON_CACHE_DIR");
  std::printf("compile-only: %zu kernel(s) compiled for %s:%s in %.1f s (%d failed), cache %s\n",
              jobs.size() - failed, plugin.c_str(), arch.c_str(), msSince(t0) / 1e3, failed,
              cache && *cache ? cache : "(default directory)");
  return failed ? 1 : 0;
}

} // namespace

int main(int argc, char **argv) {
  // Line by line into a pipe too (run-bench.sh tees a run of minutes).
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
  Options o;
  std::string why;
  if (!parseArgs(argc, argv, o, why)) {
    std::fprintf(stderr, "hadron-bench: %s\n%s", why.c_str(), kUsage);
    return 2;
  }
  // A cuBLAS named on the command line must be one: refused before anything
  // runs (loading it needs no device; without --cublas a missing library
  // only means no reference column).
  if (!o.cublas.empty() && o.cublas != "off" && !CublasReference::loadable(o.cublas, why)) {
    std::fprintf(stderr, "hadron-bench: --cublas %s: %s\n", o.cublas.c_str(), why.c_str());
    return 2;
  }
  auto ctx = rt::Context::create();
  if (!ctx) {
    std::fprintf(stderr, "hadron-bench: %s\n", ctx.status().message().c_str());
    return 1;
  }
  if (!o.compileOnly.empty())
    return compileOnly(*ctx, o);

  JsonReport json;
  int rc = 0;
  std::vector<Workload> work;
  bool hostLoops = false;
  if (o.only.size() > o.only.count("launch")) {
    auto dev = ctx->select(o.device);
    if (!dev) {
      std::fprintf(stderr, "hadron-bench: --device '%s': %s\n", o.device.c_str(),
                   dev.status().message().c_str());
      return 1;
    }
    hd_device_info info = dev->info();
    bool gpu = dev->pluginName() != "host";
    hostLoops = !gpu;
    std::printf("hadron-bench on %s (%s, arch %s, %u compute units); %u reps, median; %s\n",
                dev->name().c_str(), info.name, info.arch, info.compute_units,
                o.reps ? o.reps : gpu ? 50 : 15,
                hostLoops ? ("loops on " + std::to_string(o.threads) + " std::threads").c_str()
                          : "timed with runtime events");
    if (!o.reps)
      o.reps = gpu ? 50 : 15;
    json.string("device", info.name);
    json.string("arch", info.arch);
    json.number("reps", o.reps);
    if (hostLoops)
      json.number("loop_threads", o.threads);
    std::vector<std::string> failures;
    for (const Workload &w : plan(o, gpu)) {
      Outcome r = runWorkload(*dev, w, o, hostLoops);
      printOutcome(r, hostLoops);
      report(json, r, hostLoops);
      failures.insert(failures.end(), r.failures.begin(), r.failures.end());
    }
    if (o.only.count("matmul")) {
      // The GEMMs are examples/nvidia's matrix-instruction kernels: a host
      // compiles them (HostCompilerTest runs them) but runs them as FMAs, far
      // too slowly for 4096^3.
      if (!gpu) {
        std::printf("\nmatmul: skipped on %s; it runs where the kernel's matrix instruction "
                    "does\n", dev->name().c_str());
      } else {
        MatmulOptions mo;
        mo.shapes = o.matmulShapes.empty()
                        ? std::vector<std::array<uint32_t, 3>>{{4096, 4096, 4096},
                                                                {8192, 8192, 8192}}
                        : o.matmulShapes;
        mo.warmup = o.warmup;
        mo.reps = o.reps;
        mo.cublas = o.cublas;
        std::string why;
        if (!matmulKernelsFor(o.matmulIR, mo.kernels, why)) {
          std::fprintf(stderr, "hadron-bench: %s\n", why.c_str());
          return 1;
        }
        benchMatmul(*dev, mo, json, failures);
      }
    }
    if (o.only.count("attention")) {
      if (!gpu) {
        std::printf("\nattention: skipped on %s; it runs where the kernel's matrix "
                    "instructions do\n", dev->name().c_str());
      } else {
        AttentionOptions ao;
        ao.contexts = o.attentionContexts.empty() ? std::vector<uint32_t>{4096, 16384}
                                                  : o.attentionContexts;
        ao.warmup = o.warmup;
        ao.reps = std::min(o.reps, 20u);
        std::string why;
        if (!attentionKernelsFor(o.attentionIR, ao.kernels, why)) {
          std::fprintf(stderr, "hadron-bench: %s\n", why.c_str());
          return 1;
        }
        benchAttention(*dev, ao, json, failures);
      }
    }
    for (const std::string &f : failures)
      std::fprintf(stderr, "FAIL %s\n", f.c_str());
    if (!failures.empty())
      rc = 1;
  }
  if (o.only.count("launch"))
    rc |= launchOverhead(*ctx, o, json);
  if (!o.json.empty()) {
    if (!json.write(o.json, why)) {
      std::fprintf(stderr, "hadron-bench: %s\n", why.c_str());
      return 1;
    }
    std::printf("\nwrote %s\n", o.json.c_str());
  }
  return rc;
}
