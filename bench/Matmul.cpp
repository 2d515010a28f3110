//===- Matmul.cpp - The bf16 GEMM on matrix instructions, timed -----------===//

#include "Matmul.h"

#include "CublasReference.h"
#include "DeviceTiming.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <optional>
#include <random>

namespace hadron::bench {
namespace rt = hadron::runtime;

namespace {

/// Hadron's and the reference's TFLOP/s on one shape (the reference's
/// negative where there is none).
struct Rates {
  double hadron = -1, reference = -1;
  double ratio = -1; ///< median over launch pairs of the reference's time / Hadron's
};

/// Checks C = A * B on 512 sampled elements against the host; "" or what
/// is wrong.
std::string checkSample(const std::vector<uint16_t> &a, const std::vector<uint16_t> &b,
                        const std::vector<uint16_t> &c, uint64_t m, uint64_t n, uint64_t k,
                        std::mt19937_64 &rng) {
  // Products of bf16 are exact in f32, the sums' error is at most
  // k * 2^-24 * sum |a b|, the store rounds to bf16.
  std::uniform_int_distribution<uint64_t> row(0, m - 1), col(0, n - 1);
  for (int t = 0; t < 512; ++t) {
    uint64_t i = row(rng), j = col(rng);
    double ref = 0, mag = 0;
    for (uint64_t q = 0; q < k; ++q) {
      double p = double(fromBf16(a[i * k + q])) * fromBf16(b[q * n + j]);
      ref += p;
      mag += std::fabs(p);
    }
    double got = fromBf16(c[i * n + j]);
    if (!(std::fabs(got - ref) <= k * 0x1p-24 * mag + 0x1p-8 * std::fabs(ref))) {
      char buf[160];
      std::snprintf(buf, sizeof buf, "wrong result: C[%llu][%llu] is %.6g, expected %.6g",
                    (unsigned long long)i, (unsigned long long)j, got, ref);
      return buf;
    }
  }
  return "";
}

/// Checks and times one kernel on one size, and the reference (when there
/// is one) on the same buffers with its launches interleaved with the
/// kernel's; the kernel's rate is negative after appending to `failures`.
Rates runOne(const rt::Device &dev, const MatmulKernel &mk, rt::Kernel &kernel,
             const std::array<uint32_t, 3> &shape, const MatmulOptions &o, std::mt19937_64 &rng,
             const std::string &key, CublasReference *reference,
             std::vector<std::string> &failures) {
  const uint64_t m = shape[0], n = shape[1], k = shape[2];
  auto fail = [&](const std::string &what) {
    failures.push_back(key + " " + mk.variant + ": " + what);
    return Rates{};
  };
  if (m % mk.tileM || n % mk.tileN)
    return fail("the kernel tiles C by " + std::to_string(mk.tileM) + "x" +
                std::to_string(mk.tileN) + "; the size must be a multiple of both");
  std::uniform_real_distribution<float> dist(-1.f, 1.f);
  std::vector<uint16_t> a(m * k), b(k * n), c(m * n, 0x7fc1); // C poisoned with NaN
  for (uint16_t &v : a)
    v = toBf16(dist(rng));
  for (uint16_t &v : b)
    v = toBf16(dist(rng));
  auto da = dev.alloc(a.size() * 2), db = dev.alloc(b.size() * 2), dc = dev.alloc(c.size() * 2);
  if (!da || !db || !dc)
    return fail("alloc: " + (!da ? da : !db ? db : dc).status().message());
  if (rt::Status s = da->upload(a); !s || !db->upload(b) || !dc->upload(c))
    return fail("upload failed");
  std::array<uint32_t, 3> grid{uint32_t(m / mk.tileM), uint32_t(n / mk.tileN), 1};
  const uint32_t units = std::max(1u, dev.info().compute_units);
  if (mk.persistent)
    grid = {std::min<uint32_t>(grid[0] * grid[1], units), 1, 1};
  std::vector<hd_arg> args{da->arg(), db->arg(), dc->arg(), rt::arg::i32(int32_t(m)),
                           rt::arg::i32(int32_t(n)), rt::arg::i32(int32_t(k))};
  // A split-tail kernel: a workspace slot per part and a zeroed counter per
  // split tile (the kernel leaves them at zero).
  std::optional<rt::Buffer> ws, cnt;
  if (mk.splitTail) {
    const uint32_t tiles = grid[0] * grid[1];
    auto [tail, splits] = splitTailPlan(tiles, units);
    auto w = dev.alloc(std::max<uint64_t>(uint64_t(tail) * splits, 1) * mk.tileM * mk.tileN * 4);
    auto ct = dev.alloc(std::max<uint64_t>(tail, 1) * 4);
    if (!w || !ct)
      return fail("alloc: " + (!w ? w : ct).status().message());
    if (!ct->upload(std::vector<int32_t>(std::max<uint32_t>(tail, 1), 0)))
      return fail("upload failed");
    ws.emplace(std::move(*w)), cnt.emplace(std::move(*ct));
    args.insert(args.end(), {ws->arg(), cnt->arg(), rt::arg::i32(int32_t(tail)),
                             rt::arg::i32(int32_t(splits))});
    grid = {tiles - tail + tail * splits, 1, 1};
  }
  if (mk.dynamicTiles) {
    auto ct = dev.alloc(8);
    if (!ct)
      return fail("alloc: " + ct.status().message());
    if (!ct->upload(std::vector<int32_t>{0, 0}))
      return fail("upload failed");
    cnt.emplace(std::move(*ct));
    args.push_back(cnt->arg());
  }
  // Row-major A (m x k), B (k x n) and C (m x n) as tensor descriptors.
  std::array<hd_tensor_desc, 3> descs{};
  const uint64_t rows[3] = {m, k, m}, cols[3] = {k, n, n};
  const rt::Buffer *bufs[3] = {&*da, &*db, &*dc};
  for (unsigned i = 0; i < mk.descriptors && i < 3; ++i) {
    hd_tensor_desc &d = descs[i];
    d.base = bufs[i]->devicePtr(), d.rank = 2, d.shape[0] = rows[i], d.shape[1] = cols[i];
    d.strides[0] = cols[i], d.strides[1] = 1;
    args[i].kind = HD_ARG_TENSOR_DESC;
    args[i].value.desc = &d;
  }
  rt::Status s = kernel.launch(grid, args);
  if (s)
    s = dev.synchronize();
  if (s)
    s = dc->download(c);
  if (!s)
    return fail(s.message());
  if (std::string wrong = checkSample(a, b, c, m, n, k, rng); !wrong.empty())
    return fail(wrong);
  const double flop = 2.0 * m * n * k;
  if (!reference) {
    auto ms = medianLaunchMs(dev, kernel, grid, args, o.warmup, o.reps);
    if (!ms)
      return fail(ms.status().message());
    return {flop / (*ms * 1e-3) / 1e12, -1};
  }
  // The reference: its own poisoned C, checked like the kernel's; then both
  // timed in turns.
  std::string why;
  Rates rates;
  auto dr = dev.alloc(c.size() * 2);
  std::vector<uint16_t> cr(m * n, 0x7fc1);
  const bool refReady = dr && dr->upload(cr) &&
                        reference->gemmBf16(da->devicePtr(), db->devicePtr(), dr->devicePtr(),
                                            int(m), int(n), int(k), why) &&
                        dev.synchronize() && dr->download(cr);
  if (!refReady) {
    std::printf("  cublas: %s\n", why.empty() ? "could not run" : why.c_str());
    reference = nullptr;
  } else if (std::string wrong = checkSample(a, b, cr, m, n, k, rng); !wrong.empty()) {
    std::printf("  cublas: %s (not timed)\n", wrong.c_str());
    reference = nullptr;
  }
  auto start = dev.createEvent(), stop = dev.createEvent();
  if (!start || !stop)
    return fail((!start ? start.status() : stop.status()).message());
  std::vector<double> mine, theirs;
  auto timeOne = [&](bool ours, std::vector<double> *into) -> bool {
    rt::Status st = start->record();
    if (st && ours)
      st = kernel.launch(grid, args);
    else if (st && !reference->gemmBf16(da->devicePtr(), db->devicePtr(), dr->devicePtr(), int(m),
                                        int(n), int(k), why))
      return false;
    if (st)
      st = stop->record();
    auto e = st ? start->elapsedMsUntil(*stop) : rt::Expected<float>(st);
    if (!e) {
      why = e.status().message();
      return false;
    }
    if (into)
      into->push_back(*e);
    return true;
  };
  for (unsigned i = 0; i < o.warmup; ++i)
    if (!timeOne(true, nullptr) || (reference && !timeOne(false, nullptr)))
      return fail(why);
  // Launch by launch in turns: each pair sees the same clock and
  // temperature, so the median of the pairs' ratios is the comparison that
  // the card's drift (several percent within a minute) does not enter.
  for (unsigned i = 0; i < o.reps; ++i) {
    if (!timeOne(true, &mine))
      return fail(why);
    if (reference && !timeOne(false, &theirs))
      return fail("cublas: " + why);
  }
  rates.hadron = flop / (median(mine) * 1e-3) / 1e12;
  if (!theirs.empty()) {
    rates.reference = flop / (median(theirs) * 1e-3) / 1e12;
    std::vector<double> pairs;
    for (size_t i = 0; i < mine.size(); ++i)
      pairs.push_back(theirs[i] / mine[i]);
    rates.ratio = median(pairs);
  }
  return rates;
}

} // namespace

std::array<uint32_t, 2> splitTailPlan(uint32_t tiles, uint32_t units) {
  const uint32_t tail = units ? tiles % units : 0;
  std::array<uint32_t, 2> best{0, 1};
  if (!tail)
    return best;
  // Rounds of a whole tile the tail takes, as a fraction best_num / best_den.
  uint64_t bestNum = 1, bestDen = 1;
  for (uint32_t s = 2; s <= 4; ++s) {
    uint64_t rounds = (uint64_t(tail) * s + units - 1) / units;
    if (rounds * bestDen < bestNum * s)
      bestNum = rounds, bestDen = s, best = {tail, s};
  }
  return best;
}

void benchMatmul(const rt::Device &dev, const MatmulOptions &o, JsonReport &json,
                 std::vector<std::string> &failures) {
  const std::vector<MatmulKernel> &kernels = o.kernels.empty() ? matmulKernels() : o.kernels;
  const std::string arch = dev.info().arch;
  struct Loaded {
    const MatmulKernel *mk;
    std::optional<rt::Module> module;
    std::optional<rt::Kernel> kernel;
  };
  std::vector<Loaded> loaded;
  for (const MatmulKernel &mk : kernels) {
    if (!mk.arch.empty() && mk.arch != arch) {
      std::printf("\nmatmul %s (%s): skipped, it needs %s and the device is %s\n",
                  mk.variant.c_str(), mk.label.c_str(), mk.arch.c_str(), arch.c_str());
      continue;
    }
    auto module = dev.loadIR(mk.ir);
    if (!module) {
      failures.push_back("matmul " + mk.variant + ": " + module.status().message());
      continue;
    }
    auto kernel = module->kernel(mk.name);
    if (!kernel) {
      failures.push_back("matmul " + mk.variant + ": " + kernel.status().message());
      continue;
    }
    loaded.push_back({&mk, std::move(*module), std::move(*kernel)});
  }
  // cuBLAS in this process, on NVIDIA devices, unless asked not to.
  std::unique_ptr<CublasReference> reference;
  if (!loaded.empty() && arch.rfind("sm_", 0) == 0 && o.cublas != "off") {
    std::string why;
    reference = CublasReference::open(o.cublas, why);
    if (reference)
      std::printf("\nmatmul reference: cuBLAS %s, timed in turns with each kernel\n",
                  reference->describe().c_str());
    else
      std::printf("\nmatmul reference: none (%s)\n", why.c_str());
  }
  std::mt19937_64 rng{std::random_device{}()};
  for (const std::array<uint32_t, 3> &shape : o.shapes) {
    std::string key = "matmul" + std::to_string(shape[0]) + "x" + std::to_string(shape[1]) + "x" +
                      std::to_string(shape[2]);
    std::printf("\n%s (bf16 in, f32 accumulate, bf16 out)\n", key.c_str());
    double best = -1;
    std::string bestVariant;
    for (Loaded &l : loaded) {
      Rates r = runOne(dev, *l.mk, *l.kernel, shape, o, rng, key, reference.get(), failures);
      double tflops = r.hadron;
      if (tflops < 0)
        continue;
      std::printf("  hadron  %-6s %-44s %9.1f TFLOP/s", l.mk->variant.c_str(),
                  l.mk->label.c_str(), tflops);
      if (r.reference > 0) {
        std::printf("   cublas %6.1f   ratio %.3f", r.reference, r.ratio);
        json.number(key + ".cublas_with_" + l.mk->variant + "_TFLOPs", r.reference);
        json.number(key + ".hadron_" + l.mk->variant + "_vs_cublas", r.ratio);
      }
      std::printf("\n");
      json.number(key + ".hadron_" + l.mk->variant + "_TFLOPs", tflops);
      if (tflops > best) {
        best = tflops;
        bestVariant = l.mk->variant;
      }
    }
    if (best > 0) {
      json.number(key + ".hadron_TFLOPs", best);
      json.string(key + ".hadron_best_kernel", bestVariant);
    }
  }
}

} // namespace hadron::bench
