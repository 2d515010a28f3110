//===- DemoCommand.cpp - hadron demo --------------------------------------===//
//
// Runs every example of DemoCases.h on one device: compile through the
// runtime, fresh random inputs, poisoned outputs, one launch checked against
// the host reference, then the median of several timed launches.
//
//===----------------------------------------------------------------------===//

#include "Cli.h"
#include "DemoCases.h"
#include "Timing.h"

#include <cmath>
#include <cstdio>
#include <random>

namespace hadron::cli {
namespace {

const char kUsage[] =
    "usage: hadron demo [--device SEL] [--seed S] [--repeat N] [--examples DIR]\n"
    "\n"
    "Runs the example kernels (vector_add, row_softmax, masked_copy, transpose,\n"
    "matmul) on a device with fresh random inputs and poisoned outputs, checks\n"
    "each against a host reference and prints whether it is correct (with the\n"
    "largest error), the median time of several launches and the throughput.\n"
    "Exits with 1 when any example is incorrect or fails.\n"
    "\n"
    "options:\n"
    "  --device SEL     device selector (default: $HADRON_DEVICE, else auto: the\n"
    "                   best GPU, else the host)\n"
    "  --seed S         seed of the inputs (default: fresh, printed)\n"
    "  --repeat N       timed launches per example (default 10)\n"
    "  --examples DIR   where the .mlir files are (default: the source tree's\n"
    "                   examples/)\n"
    "  -h, --help       show this help\n";

struct Check {
  bool correct = true;
  double maxError = 0;
  size_t wrong = 0;
  std::string firstWrong; ///< "out[12]: got nan, want 0.5"
};

/// Compares one output buffer against the reference's expectation.
void compare(const std::vector<float> &got, const std::vector<float> &want, double atol,
             double rtol, Check &check) {
  for (size_t i = 0; i < got.size(); ++i) {
    double g = got[i], w = want[i];
    bool ok;
    if (std::isnan(w) || std::isnan(g)) {
      ok = std::isnan(w) && std::isnan(g);
    } else {
      double error = std::fabs(g - w);
      check.maxError = std::max(check.maxError, error);
      ok = error <= atol + rtol * std::fabs(w);
    }
    if (ok)
      continue;
    if (check.wrong++ == 0) {
      char buf[128];
      std::snprintf(buf, sizeof(buf), "element %zu: got %.7g, want %.7g%s", i, g, w,
                    std::isnan(w) ? " (must stay unwritten)" : "");
      check.firstWrong = buf;
    }
    check.correct = false;
  }
}

struct Outcome {
  Check check;
  double ms = 0;
};

Expected<Outcome> runCase(const runtime::Device &device, const DemoCase &c,
                          const std::string &examplesDir, uint64_t seed, unsigned caseIndex,
                          unsigned repeat) {
  const std::string path = examplesDir + "/" + c.name + ".mlir";
  auto ir = readFile(path);
  if (!ir)
    return ir.status();
  auto module = device.loadIR(*ir);
  if (!module)
    return namingSource(module.status(), path);
  auto kernel = module->kernel(c.name);
  if (!kernel)
    return kernel.status();

  std::vector<std::vector<float>> host(c.buffers.size());
  std::vector<runtime::Buffer> buffers;
  for (size_t b = 0; b < c.buffers.size(); ++b) {
    host[b].resize(c.buffers[b].count, std::nanf(""));
    if (!c.buffers[b].output) {
      std::seed_seq seq{static_cast<uint32_t>(seed), static_cast<uint32_t>(seed >> 32), caseIndex,
                        static_cast<unsigned>(b)};
      std::mt19937_64 rng(seq);
      std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
      for (float &x : host[b])
        x = uniform(rng);
    }
    auto buffer = device.alloc(host[b].size() * sizeof(float));
    if (!buffer)
      return buffer.status();
    if (Status s = buffer->upload(host[b]); !s)
      return s;
    buffers.push_back(std::move(*buffer));
  }
  std::vector<hd_arg> args;
  for (const DemoArg &a : c.args)
    args.push_back(a.buffer >= 0 ? buffers[a.buffer].arg() : a.scalar);

  if (Status s = kernel->launch(c.grid, args); !s)
    return s;
  if (Status s = device.synchronize(); !s)
    return s;
  std::vector<std::vector<float>> expected = host;
  c.reference(expected);
  Outcome outcome;
  for (size_t b = 0; b < c.buffers.size(); ++b) {
    if (!c.buffers[b].output)
      continue;
    std::vector<float> got(host[b].size());
    if (Status s = buffers[b].download(got); !s)
      return s;
    compare(got, expected[b], c.atol, c.rtol, outcome.check);
  }
  auto ms = medianLaunchMs(device, *kernel, c.grid, args, repeat);
  if (!ms)
    return ms.status();
  outcome.ms = *ms;
  return outcome;
}

} // namespace

int demoCommand(const std::vector<std::string> &args) {
  int exitCode = kExitOk;
  auto parsed =
      parseCommand("demo", args, {{{"--device"}}, {{"--seed"}}, {{"--repeat"}}, {{"--examples"}}},
                   0, kUsage, exitCode);
  if (!parsed)
    return exitCode;
  auto repeat = parseUnsigned(parsed->get("--repeat", "10"), "--repeat", 1, 100000);
  if (!repeat)
    return reportUsage("demo", repeat.status(), kUsage);
  auto seed = seedOption(*parsed);
  if (!seed)
    return reportUsage("demo", seed.status(), kUsage);
  const std::string examplesDir = parsed->get("--examples", HADRON_EXAMPLES_DIR);

  auto ctx = runtime::Context::create();
  if (!ctx)
    return report("demo", ctx.status());
  auto device = ctx->select(parsed->get("--device"));
  if (!device)
    return report("demo", device.status());
  std::printf("hadron demo on %s (%s), seed %llu, median of %llu launches\n",
              device->name().c_str(), device->info().name, static_cast<unsigned long long>(*seed),
              static_cast<unsigned long long>(*repeat));

  std::vector<DemoCase> cases = demoCases();
  unsigned passed = 0;
  for (unsigned i = 0; i < cases.size(); ++i) {
    const DemoCase &c = cases[i];
    std::printf("  %-12s %-22s ", c.name.c_str(), c.shape.c_str());
    std::fflush(stdout);
    auto outcome = runCase(*device, c, examplesDir, *seed, i, static_cast<unsigned>(*repeat));
    if (!outcome) {
      std::printf("FAILED\n    %s\n", outcome.status().message().c_str());
      continue;
    }
    const Check &check = outcome->check;
    std::string rate =
        c.flops > 0 ? rateText(c.flops, outcome->ms, "FLOP") : rateText(c.bytes, outcome->ms, "B");
    std::printf("%-9s max err %-9.2g %9.3f ms %14s\n", check.correct ? "correct" : "INCORRECT",
                check.maxError, outcome->ms, rate.c_str());
    if (!check.correct)
      std::printf("    %zu element(s) wrong, first %s\n", check.wrong, check.firstWrong.c_str());
    passed += check.correct;
  }
  std::printf("%u of %zu examples correct\n", passed, cases.size());
  return passed == cases.size() ? kExitOk : kExitFailure;
}

} // namespace hadron::cli
