//===- Attention.cpp - Flash attention forward, timed ---------------------===//

#include "Attention.h"

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

/// Checks and times one kernel on one shape; returns TFLOP/s or a negative
/// value after appending to `failures`.
double runOne(const rt::Device &dev, const AttentionKernel &ak, rt::Kernel &kernel,
              uint32_t heads, uint32_t nCtx, const AttentionOptions &o, std::mt19937_64 &rng,
              const std::string &key, std::vector<std::string> &failures) {
  auto fail = [&](const std::string &what) {
    failures.push_back(key + ": " + what);
    return -1.0;
  };
  if (nCtx % 128)
    return fail("n_ctx must be a multiple of 128");
  const uint64_t d = ak.headDim, count = uint64_t(heads) * nCtx * d;
  std::normal_distribution<float> dist(0.f, 1.f);
  std::vector<uint16_t> q(count), k(count), v(count), out(count, 0x7fc1); // NaN
  for (auto *x : {&q, &k, &v})
    for (uint16_t &e : *x)
      e = toBf16(dist(rng));
  auto dq = dev.alloc(count * 2), dk = dev.alloc(count * 2), dv = dev.alloc(count * 2),
       dout = dev.alloc(count * 2);
  if (!dq || !dk || !dv || !dout)
    return fail("alloc: " + (!dq ? dq : !dk ? dk : !dv ? dv : dout).status().message());
  if (!dq->upload(q) || !dk->upload(k) || !dv->upload(v) || !dout->upload(out))
    return fail("upload failed");
  const float scale = 1.f / std::sqrt(float(d));
  std::array<uint32_t, 3> grid{(nCtx + ak.blockM - 1) / ak.blockM, heads, 1};
  std::vector<hd_arg> args{dq->arg(),          dk->arg(),
                           dv->arg(),          dout->arg(),
                           rt::arg::f32(scale), rt::arg::i32(int32_t(nCtx))};
  // A kernel fed by the copy engine takes q, k and v as descriptors over
  // [heads * n_ctx, d].
  hd_tensor_desc descs[3] = {};
  if (kernel.signature().num_args > 0 && kernel.signature().args[0] == HD_ARG_TENSOR_DESC)
    for (int i = 0; i < 3; ++i) {
      descs[i].base = args[i].value.ptr, descs[i].rank = 2;
      descs[i].shape[0] = uint64_t(heads) * nCtx, descs[i].shape[1] = d;
      descs[i].strides[0] = d, descs[i].strides[1] = 1;
      args[i].kind = HD_ARG_TENSOR_DESC;
      args[i].value.desc = &descs[i];
    }
  rt::Status s = kernel.launch(grid, args);
  if (s)
    s = dev.synchronize();
  if (s)
    s = dout->download(out);
  if (!s)
    return fail(s.message());
  // A sample of rows against a double reference: P is rounded to bf16
  // before P V and O is stored as bf16 (2^-9 relative each), exp2 is
  // approximate; |v| is at most a few units, so 2^-7 (1 + |O|) is ample and
  // catches any misplaced row, column or block.
  std::uniform_int_distribution<uint64_t> pick(0, uint64_t(heads) * nCtx - 1);
  std::vector<double> sc(nCtx), ref(d);
  // The first row of the second head and the last row overall are always
  // among them: a program whose rows run past n_ctx must not have written
  // the next head's rows, nor left its last rows unwritten.
  for (int t = 0; t < 24; ++t) {
    uint64_t row = t == 0   ? uint64_t(heads > 1 ? nCtx : 0)
                   : t == 1 ? uint64_t(heads) * nCtx - 1
                            : pick(rng);
    uint64_t head = row / nCtx;
    const uint16_t *qr = &q[row * d];
    double mx = -INFINITY;
    for (uint32_t j = 0; j < nCtx; ++j) {
      const uint16_t *kr = &k[(head * nCtx + j) * d];
      double dot = 0;
      for (uint64_t x = 0; x < d; ++x)
        dot += double(fromBf16(qr[x])) * fromBf16(kr[x]);
      sc[j] = dot * scale;
      mx = std::max(mx, sc[j]);
    }
    double sum = 0;
    std::fill(ref.begin(), ref.end(), 0.0);
    for (uint32_t j = 0; j < nCtx; ++j) {
      double p = std::exp(sc[j] - mx);
      sum += p;
      const uint16_t *vr = &v[(head * nCtx + j) * d];
      for (uint64_t x = 0; x < d; ++x)
        ref[x] += p * fromBf16(vr[x]);
    }
    for (uint64_t x = 0; x < d; ++x) {
      double want = ref[x] / sum, got = fromBf16(out[row * d + x]);
      if (!(std::fabs(got - want) <= 0x1p-7 * (1 + std::fabs(want)))) {
        char buf[160];
        std::snprintf(buf, sizeof buf, "wrong result: O[%llu][%llu] is %.6g, expected %.6g",
                      (unsigned long long)row, (unsigned long long)x, got, want);
        return fail(buf);
      }
    }
  }
  auto ms = medianLaunchMs(dev, kernel, grid, args, o.warmup, o.reps);
  if (!ms)
    return fail(ms.status().message());
  double flop = 4.0 * heads * double(nCtx) * nCtx * d;
  return flop / (*ms * 1e-3) / 1e12;
}

} // namespace

void benchAttention(const rt::Device &dev, const AttentionOptions &o, JsonReport &json,
                    std::vector<std::string> &failures) {
  const std::vector<AttentionKernel> &kernels =
      o.kernels.empty() ? attentionKernels() : o.kernels;
  const std::string arch = dev.info().arch;
  std::mt19937_64 rng{std::random_device{}()};
  const uint32_t heads = o.batch * o.heads;
  for (const AttentionKernel &ak : kernels) {
    if (!ak.arch.empty() && ak.arch != arch) {
      std::printf("\nattention hd%u (%s): skipped, it needs %s and the device is %s\n",
                  ak.headDim, ak.label.c_str(), ak.arch.c_str(), arch.c_str());
      continue;
    }
    auto module = dev.loadIR(ak.ir);
    if (!module) {
      failures.push_back("attention " + ak.label + ": " + module.status().message());
      continue;
    }
    auto kernel = module->kernel(ak.name);
    if (!kernel) {
      failures.push_back("attention " + ak.label + ": " + kernel.status().message());
      continue;
    }
    std::printf("\nattention forward, head dim %u, batch %u x %u heads (bf16, non-causal): %s\n",
                ak.headDim, o.batch, o.heads, ak.label.c_str());
    for (uint32_t nCtx : o.contexts) {
      std::string key = "attention_z" + std::to_string(o.batch) + "h" + std::to_string(o.heads) +
                        "_ctx" + std::to_string(nCtx) + "_hd" + std::to_string(ak.headDim);
      double tflops = runOne(dev, ak, *kernel, heads, nCtx, o, rng, key, failures);
      if (tflops < 0)
        continue;
      std::printf("  hadron  n_ctx %-6u %9.1f TFLOP/s\n", nCtx, tflops);
      json.number(key + ".hadron" + (ak.variant.empty() ? "" : "_" + ak.variant) + "_TFLOPs",
                  tflops);
    }
  }
}

} // namespace hadron::bench
