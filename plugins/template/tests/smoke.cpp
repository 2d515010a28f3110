//===- smoke.cpp - The template target, loaded through the runtime --------===//
//
//   template-smoke <kernel.mlir>     (vector_add: x, y, out, n)
//
// Run with HADRON_PLUGIN_PATH pointing at the plugins this project built.
// Checks that the "template" plugin loaded with one device, compiles the
// kernel on it through hd_module_load_ir, runs it on random inputs into a
// poisoned output and compares with a host reference; then the same for a
// copy with a barrier, which the template lowers with its own pattern.
// Exit code 0 = pass.
//
//===----------------------------------------------------------------------===//

#include "hadron/runtime/Runtime.hpp"

#include <cmath>
#include <cstdio>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

using namespace hadron::runtime;

namespace {

/// out[i] = x[i] for 64 elements, with an hd.barrier between load and store.
constexpr const char *kBarrierCopy = R"mlir(
#b = #hd.blocked<{sizePerThread = [1], threadsPerWarp = [1], warpsPerCTA = [1], order = [0]}>
module attributes {hd.num_warps = 1 : i32} {
  func.func @barrier_copy(%x: !hd.ptr<f32>, %out: !hd.ptr<f32>) attributes {hd.kernel} {
    %i = hd.arange 0 to 64 : tensor<64xi32, #b>
    %xs = hd.splat %x : tensor<64x!hd.ptr<f32>, #b>
    %xp = hd.addptr %xs, %i : tensor<64x!hd.ptr<f32>, #b>, tensor<64xi32, #b>
    %v = hd.load %xp : tensor<64x!hd.ptr<f32>, #b>
    hd.barrier
    %os = hd.splat %out : tensor<64x!hd.ptr<f32>, #b>
    %op = hd.addptr %os, %i : tensor<64x!hd.ptr<f32>, #b>, tensor<64xi32, #b>
    hd.store %op, %v : tensor<64x!hd.ptr<f32>, #b>
    return
  }
}
)mlir";

int failed(const std::string &what) {
  std::fprintf(stderr, "template-smoke: FAIL: %s\n", what.c_str());
  return 1;
}

} // namespace

int main(int argc, char **argv) {
  if (argc != 2)
    return failed("usage: template-smoke <vector_add.mlir>");
  std::ifstream in(argv[1]);
  std::stringstream ir;
  ir << in.rdbuf();
  if (!in)
    return failed(std::string("cannot read ") + argv[1]);

  auto ctx = Context::create();
  if (!ctx)
    return failed(ctx.status().message());
  for (const auto &r : ctx->loadReport())
    std::fprintf(stderr, "load report: %s: %s\n", r.path.c_str(), r.reason.c_str());

  bool pluginListed = false, deviceListed = false;
  for (const hd_plugin_info &p : ctx->plugins()) {
    std::printf("plugin %s: %s (%u device(s))\n", p.name, p.path, p.device_count);
    pluginListed |= std::string(p.name) == "template" && p.device_count == 1;
  }
  for (const Device &d : ctx->devices())
    deviceListed |= d.name() == "template:0";
  if (!pluginListed || !deviceListed)
    return failed("the 'template' plugin or its device template:0 is not listed");
  auto dev = ctx->select("template");
  if (!dev)
    return failed(dev.status().message());
  std::printf("device %s: %s\n", dev->name().c_str(), dev->info().name);

  auto module = dev->loadIR(ir.str());
  if (!module)
    return failed(module.status().message());
  auto add = module->kernel("vector_add");
  if (!add)
    return failed(add.status().message());

  const int32_t n = 3 * 1024 + 45, slack = 7;
  std::mt19937 rng(std::random_device{}());
  std::uniform_real_distribution<float> dist(-1e3f, 1e3f);
  std::vector<float> x(n), y(n), out(n + slack, std::nanf(""));
  for (int32_t i = 0; i < n; ++i) {
    x[i] = dist(rng);
    y[i] = dist(rng);
  }
  auto dx = dev->alloc(n * sizeof(float)), dy = dev->alloc(n * sizeof(float)),
       dout = dev->alloc(out.size() * sizeof(float));
  if (!dx || !dy || !dout)
    return failed("alloc failed");
  if (!dx->upload(x) || !dy->upload(y) || !dout->upload(out))
    return failed("upload failed");
  Status s = add->launch({(n + 1023) / 1024, 1, 1},
                         {dx->arg(), dy->arg(), dout->arg(), arg::i32(n)});
  if (!s)
    return failed(s.message());
  if (!dout->download(out))
    return failed("download failed");
  for (int32_t i = 0; i < n; ++i)
    if (out[i] != x[i] + y[i])
      return failed("element " + std::to_string(i) + " is " + std::to_string(out[i]) +
                    ", expected " + std::to_string(x[i] + y[i]));
  for (int32_t i = n; i < n + slack; ++i)
    if (!std::isnan(out[i]))
      return failed("element " + std::to_string(i) + " past n was written");

  // hd.barrier goes through the template's own pattern (TemplatePatterns.cpp).
  auto barrierModule = dev->loadIR(kBarrierCopy);
  if (!barrierModule)
    return failed(barrierModule.status().message());
  auto copy = barrierModule->kernel("barrier_copy");
  if (!copy)
    return failed(copy.status().message());
  std::vector<float> copied(64, std::nanf(""));
  if (!dout->upload(copied))
    return failed("upload failed");
  s = copy->launch({1, 1, 1}, {dx->arg(), dout->arg()});
  if (!s)
    return failed(s.message());
  if (!dout->download(copied))
    return failed("download failed");
  for (int32_t i = 0; i < 64; ++i)
    if (copied[i] != x[i])
      return failed("barrier_copy: element " + std::to_string(i) + " is " +
                    std::to_string(copied[i]) + ", expected " + std::to_string(x[i]));
  std::printf("template-smoke: PASS (vector_add, n = %d; barrier_copy)\n", n);
  return 0;
}
