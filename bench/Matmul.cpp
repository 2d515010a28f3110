//===- Matmul.cpp - The bf16 GEMM on matrix instructions, timed -----------===//

#include "Matmul.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>

namespace hadron::bench {
namespace rt = hadron::runtime;

namespace {

uint16_t toBf16(float v) {
  uint32_t u;
  std::memcpy(&u, &v, 4);
  return static_cast<uint16_t>((u + 0x7fffu + ((u >> 16) & 1)) >> 16);
}
float fromBf16(uint16_t h) {
  uint32_t u = uint32_t(h) << 16;
  float v;
  std::memcpy(&v, &u, 4);
  return v;
}

} // namespace

void benchMatmul(const rt::Device &dev, const MatmulOptions &o, JsonReport &json,
                 std::vector<std::string> &failures) {
  auto module = dev.loadIR(o.ir.empty() ? matmulIR() : o.ir);
  if (!module) {
    failures.push_back("matmul: " + module.status().message());
    return;
  }
  auto kernel = module->kernel(matmulKernelName());
  if (!kernel) {
    failures.push_back("matmul: " + kernel.status().message());
    return;
  }
  std::mt19937_64 rng{std::random_device{}()};
  std::uniform_real_distribution<float> dist(-1.f, 1.f);
  for (uint32_t size : o.sizes) {
    const uint64_t m = size, n = size, k = size;
    std::string key = "matmul" + std::to_string(m) + "x" + std::to_string(n) + "x" +
                      std::to_string(k);
    auto fail = [&](const std::string &what) { failures.push_back(key + ": " + what); };
    if (size % 128) {
      fail("the kernel tiles C by 128x128; the size must be a multiple of 128");
      continue;
    }
    std::vector<uint16_t> a(m * k), b(k * n), c(m * n, 0x7fc1); // C poisoned with NaN
    for (uint16_t &v : a)
      v = toBf16(dist(rng));
    for (uint16_t &v : b)
      v = toBf16(dist(rng));
    auto da = dev.alloc(a.size() * 2), db = dev.alloc(b.size() * 2), dc = dev.alloc(c.size() * 2);
    if (!da || !db || !dc) {
      fail("alloc: " + (!da ? da : !db ? db : dc).status().message());
      continue;
    }
    if (rt::Status s = da->upload(a); !s || !db->upload(b) || !dc->upload(c)) {
      fail("upload failed");
      continue;
    }
    std::array<uint32_t, 3> grid{uint32_t(m / 128), uint32_t(n / 128), 1};
    std::vector<hd_arg> args{da->arg(), db->arg(), dc->arg(), rt::arg::i32(int32_t(m)),
                             rt::arg::i32(int32_t(n)), rt::arg::i32(int32_t(k))};
    rt::Status s = kernel->launch(grid, args);
    if (s)
      s = dev.synchronize();
    if (s)
      s = dc->download(c);
    if (!s) {
      fail(s.message());
      continue;
    }
    // A sample of C against the host: products of bf16 are exact in f32, the
    // sums' error is at most k * 2^-24 * sum |a b|, the store rounds to bf16.
    std::uniform_int_distribution<uint64_t> row(0, m - 1), col(0, n - 1);
    std::string bad;
    for (int t = 0; t < 512 && bad.empty(); ++t) {
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
        bad = buf;
      }
    }
    if (!bad.empty()) {
      fail(bad);
      continue;
    }
    auto start = dev.createEvent(), stop = dev.createEvent();
    if (!start || !stop) {
      fail("events: " + (!start ? start : stop).status().message());
      continue;
    }
    for (unsigned i = 0; i < o.warmup && s; ++i)
      s = kernel->launch(grid, args);
    std::vector<double> ms;
    for (unsigned i = 0; i < o.reps && s; ++i) {
      s = start->record();
      if (s)
        s = kernel->launch(grid, args);
      if (s)
        s = stop->record();
      auto e = s ? start->elapsedMsUntil(*stop) : rt::Expected<float>(s);
      if (!e) {
        s = e.status();
        break;
      }
      ms.push_back(*e);
    }
    if (!s) {
      fail(s.message());
      continue;
    }
    double t = median(ms), tflops = 2.0 * m * n * k / (t * 1e-3) / 1e12;
    std::printf("\n%s (bf16 in, f32 accumulate, bf16 out)\n  hadron  %-40s %10.4f ms %9.1f "
                "TFLOP/s\n",
                key.c_str(), o.label.c_str(), t, tflops);
    json.number(key + ".hadron_TFLOPs", tflops);
    json.number(key + ".hadron_ms", t);
  }
}

} // namespace hadron::bench
