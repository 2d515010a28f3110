//===- WarpSpecializeTest.cpp - warp_specialize from the C++ builder ------===//
//
// A producer worker of one warp hands blocks to the default region's four
// warps through a ring of two shared stages and mbarriers (the consumers
// release a stage with per-warp arrivals), and a kernel whose three regions
// each synchronise with hd.barrier. The built IR must verify and survive a
// print/parse round trip; the Gluon-ordered overload must build the same IR
// as the lambda form; mistakes (warp counts, a worker reading a tile from
// above, a layout of the wrong warps, nesting) must stop the trace with the
// verifier's or the builder's message at the user's line.
//
// Then the targets: the host refuses the kernel with its reason, as do
// targets without barriers for groups of warps (AMD, Intel); for NVIDIA
// sm_90a it compiles (each region's named barrier, the branch on the warp
// id, and ptxas accepts the PTX), and on an NVIDIA GPU, when there is one,
// the ring's result must equal a C++ reference.
//
//===----------------------------------------------------------------------===//

#include "BuilderTest.h"

#include "hadron/IR/Dialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <optional>
#include <unistd.h>

namespace hadron::builder::test {
namespace {

constexpr int kBlock = 256, kStages = 2;
const Layout kShared = Swizzled{1, 1, 1, {1, 0}};

Layout blockLayout(unsigned warps) {
  return Blocked{{kBlock / (32 * warps)}, {32}, {warps}, {0}};
}

int line = 0;

/// One program's ring: out[p * kBlock + e] = sum over j of
/// in[(p * nblocks + j) * kBlock + e], blocks handed from a one-warp
/// producer to the default region.
struct Ring {
  Tensor in, out, nblocks, pid;
  SharedMemory stages, full, empty;
};

Ring ringArgs() {
  Ring r;
  r.in = arg(pointer_type(float32), {.divisibility = 16});
  r.out = arg(pointer_type(float32), {.divisibility = 16});
  r.nblocks = arg(int32);
  r.pid = program_id(0);
  r.stages = allocate_shared_memory(float32, {kStages, kBlock}, kShared);
  r.full = allocate_mbarriers(kStages);
  r.empty = allocate_mbarriers(kStages);
  for (int s = 0; s < kStages; ++s) {
    mbarrier_init(r.full.index(s), 1);
    mbarrier_init(r.empty.index(s), int(num_warps()));
  }
  return r;
}

// [doc]
void consume(const Ring &r) {
  Layout layout = blockLayout(num_warps());
  Tensor zero = full({kBlock}, 0.0, float32, layout);
  Tensor acc = for_range(0, r.nblocks, 1, zero, [&](Tensor j, Tensor acc) {
    Tensor s = j % kStages;
    mbarrier_wait(r.full.index(s), (j / kStages) & 1);
    Tensor block = r.stages.index(s).load(layout);
    mbarrier_arrive(r.empty.index(s), 1, {}, /*perWarp=*/true);
    return acc + block;
  });
  store(r.out + (r.pid * kBlock + arange(0, kBlock, layout)), acc);
}

void produce(const Ring &r) {
  Layout layout = blockLayout(num_warps());
  for_range(0, r.nblocks, 1, [&](Tensor j) {
    Tensor s = j % kStages;
    // Parity 1 first: the phase before a barrier's first counts as complete.
    mbarrier_wait(r.empty.index(s), ((j / kStages) & 1) ^ 1);
    Tensor offsets = (r.pid * r.nblocks + j) * kBlock + arange(0, kBlock, layout);
    r.stages.index(s).store(load(r.in + offsets));
    mbarrier_arrive(r.full.index(s));
  });
}

auto ringSum = jit("ring_sum", [] {
  Ring r = ringArgs();
  warp_specialize([&] { consume(r); }, {{1, [&] { produce(r); }}});
});

// The same kernel through the overload in Gluon's argument order.
auto ringSumGluonOrder = jit("ring_sum", [] {
  Ring r = ringArgs();
  auto consumer = [](const Ring &r) { consume(r); };
  auto producer = [](const Ring &r) { produce(r); };
  warp_specialize(std::tuple(r), consumer, std::tuple(r), std::tuple(producer), {1});
});
// [doc]

// Each region moves a 32 x 32 tile of its own between two layouts through
// shared memory, with hd.barrier between the writes and the reads.
auto regionBarriers = jit("region_barriers", [] {
  Tensor in = arg(pointer_type(int32), {.divisibility = 16});
  Tensor out = arg(pointer_type(int32), {.divisibility = 16});
  auto region = [&](int r) {
    return [&, r] {
      const unsigned w = num_warps();
      Layout rows = Blocked{{1, 4}, {4, 8}, {w, 1}, {1, 0}};
      Layout cols = Blocked{{4, 1}, {8, 4}, {1, w}, {0, 1}};
      auto at = [&](const Layout &l) {
        Tensor i = expand_dims(arange(0, 32, Slice{1, l}), 1);
        Tensor j = expand_dims(arange(0, 32, Slice{0, l}), 0);
        return (program_id(0) * 3 + r) * 1024 + broadcast(i * 32, {32, 32}) +
               broadcast(j, {32, 32});
      };
      SharedMemory buf = allocate_shared_memory(int32, {32, 32}, Swizzled{4, 1, 8, {1, 0}});
      buf.store(load(in + at(rows)));
      barrier();
      store(out + at(cols), buf.load(cols) + r);
    };
  };
  warp_specialize(region(0), {{2, region(1)}, {1, region(2)}});
});

TEST(WarpSpecialize, BuildsVerifiedIRThatRoundTrips) {
  auto mod = ringSum.specialize({.numWarps = 4});
  std::string ir = irOf(mod);
  ASSERT_TRUE(mod);
  EXPECT_TRUE(containsInOrder(
      ir, {"hd.mbarrier_init", "hd.warp_specialize warps [1] default {", "hd.mbarrier_wait",
           "hd.local_load", "hd.mbarrier_arrive", "{per_warp}", "hd.warp_return",
           "} partitions {", "hd.mbarrier_wait", "hd.local_store", "hd.mbarrier_arrive",
           "hd.warp_return"}));

  mlir::MLIRContext ctx;
  ctx.loadDialect<hd::HadronDialect, mlir::arith::ArithDialect, mlir::math::MathDialect,
                  mlir::scf::SCFDialect, mlir::func::FuncDialect>();
  auto parsed = mlir::parseSourceString<mlir::ModuleOp>(ir, &ctx);
  ASSERT_TRUE(parsed) << "the printed IR does not parse";
  ASSERT_TRUE(mlir::succeeded(mlir::verify(*parsed)));
  std::string again;
  llvm::raw_string_ostream os(again);
  parsed->print(os);
  EXPECT_EQ(again, ir);
}

TEST(WarpSpecialize, NumWarpsIsTheRegions) {
  unsigned seen[3] = {0, 0, 0};
  auto k = jit("k", [&] {
    seen[0] = num_warps();
    warp_specialize([&] { seen[1] = num_warps(); }, {{2, [&] { seen[2] = num_warps(); }}});
  });
  ASSERT_TRUE(k.specialize({.numWarps = 8}));
  EXPECT_EQ(seen[0], 8u) << "the kernel";
  EXPECT_EQ(seen[1], 8u) << "the default region";
  EXPECT_EQ(seen[2], 2u) << "the worker";
}

TEST(WarpSpecialize, GluonOrderBuildsTheSameIR) {
  auto lambdas = ringSum.specialize({.numWarps = 4});
  auto gluon = ringSumGluonOrder.specialize({.numWarps = 4});
  EXPECT_EQ(irOf(gluon), irOf(lambdas));
}

TEST(WarpSpecialize, RegionsWithBarriersVerify) {
  auto mod = regionBarriers.specialize({.numWarps = 4});
  EXPECT_TRUE(containsInOrder(irOf(mod), {"hd.warp_specialize warps [2, 1] default {",
                                          "hd.barrier", "hd.warp_return", "} partitions {",
                                          "hd.barrier", "hd.warp_return", "}, {", "hd.barrier",
                                          "hd.warp_return"}));
}

TEST(WarpSpecialize, ThePageQuotesTheTestedSource) {
  std::ifstream pageFile(std::string(HADRON_SOURCE_DIR) + "/docs/frontend-cpp.md");
  std::ifstream selfFile(std::string(HADRON_SOURCE_DIR) + "/tests/builder/WarpSpecializeTest.cpp");
  std::string page((std::istreambuf_iterator<char>(pageFile)), std::istreambuf_iterator<char>());
  std::string self((std::istreambuf_iterator<char>(selfFile)), std::istreambuf_iterator<char>());
  const std::string marker = "// [doc]\n";
  size_t begin = self.find(marker), end = self.find(marker, begin + 1);
  ASSERT_NE(end, std::string::npos);
  std::string quoted = self.substr(begin + marker.size(), end - begin - marker.size());
  EXPECT_NE(page.find(quoted), std::string::npos)
      << "docs/frontend-cpp.md does not quote WarpSpecializeTest.cpp's ring:\n"
      << quoted;
}

/// The error of `kernel`, checked to start at `line` of this file, to hold
/// `what`, and to be one line without IR.
template <typename K> void expectError(const K &kernel, const std::string &what) {
  line = 0;
  std::string error = errorOf(kernel.specialize({.numWarps = 4}));
  ASSERT_NE(line, 0) << "the kernel did not reach the mistake";
  EXPECT_EQ(error.rfind(at(__FILE__, line), 0), 0u)
      << "the error does not start at " << at(__FILE__, line) << ": " << error;
  EXPECT_NE(error.find(what), std::string::npos) << "expected `" << what << "` in: " << error;
  EXPECT_EQ(error.find("func.func"), std::string::npos) << "an IR dump: " << error;
  EXPECT_EQ(error.find('\n'), std::string::npos) << "one line expected: " << error;
}

TEST(WarpSpecialize, WarpCountsMustBePowersOfTwo) {
  bool ran = false;
  auto three = jit("k", [&] {
    line = __LINE__; warp_specialize([] {}, {{3, [&] { ran = true; }}});
  });
  expectError(three, "partition 0 has 3 warps; a partition runs a power of two of warps");
  EXPECT_FALSE(ran) << "a partition was built despite its warp count";
  auto zero = jit("k", [] {
    line = __LINE__; warp_specialize([] {}, {{1, [] {}}, {0, [] {}}});
  });
  expectError(zero, "partition 1 has 0 warps; a partition runs a power of two of warps");
}

TEST(WarpSpecialize, NeedsAWorkerAndOneWarpCountEach) {
  auto none = jit("k", [] {
    line = __LINE__; warp_specialize([] {}, {});
  });
  expectError(none, "needs at least one partition besides the default region");
  auto counts = jit("k", [] {
    auto f = [] {};
    line = __LINE__; warp_specialize(std::tuple(), f, std::tuple(), std::tuple(f, f), {1});
  });
  expectError(counts, "warp_specialize: 2 worker partitions but 1 warp counts");
  auto empty = jit("k", [] {
    line = __LINE__; warp_specialize([] {}, {{1, nullptr}});
  });
  expectError(empty, "worker partition 0 is an empty function");
}

TEST(WarpSpecialize, AWorkerReadingATileFromAboveIsRefused) {
  auto k = jit("k", [] {
    Tensor out = arg(pointer_type(int32));
    Tensor offsets = arange(0, 128, blockLayout(4) /* 4 warps, as the worker */);
    line = __LINE__; warp_specialize([] {}, {{4, [&] { store(out + offsets, offsets); }}});
  });
  expectError(k, "in partition 0 of hd.warp_specialize reads a tile defined above it");
}

TEST(WarpSpecialize, LayoutsInsideAWorkerSpanItsWarps) {
  auto k = jit("k", [] {
    warp_specialize([] {}, {{2, [] {
      line = __LINE__; arange(0, 256, blockLayout(4));
    }}});
  });
  expectError(k, "spans 4 warps, but worker partition 0 of warp_specialize runs 2 warps");
  auto dflt = jit("k", [] {
    warp_specialize([] {
      line = __LINE__; arange(0, 256, blockLayout(1));
    }, {{1, [] {}}});
  });
  expectError(dflt, "spans 1 warps, but the kernel runs num_warps = 4");
}

TEST(WarpSpecialize, DoesNotNest) {
  auto k = jit("k", [] {
    warp_specialize([] {}, {{1, [] {
      line = __LINE__; warp_specialize([] {}, {{1, [] {}}});
    }}});
  });
  expectError(k, "inside a partition of another warp_specialize; they do not nest");
}

//===----------------------------------------------------------------------===//
// Targets
//===----------------------------------------------------------------------===//

TEST(WarpSpecialize, TheHostRefusesItWithTheReason) {
  auto mod = ringSum.specialize({.numWarps = 4});
  ASSERT_TRUE(mod);
  auto module = host().loadIR(mod->str());
  ASSERT_FALSE(module) << "the host compiled a warp-specialised kernel";
  EXPECT_NE(module.status().message().find(
                "needs its regions to run at the same time on different warps"),
            std::string::npos)
      << module.status().message();
}

TEST(WarpSpecialize, TargetsWithoutBarriersForGroupsOfWarpsRefuseIt) {
  auto mod = regionBarriers.specialize({.numWarps = 4});
  ASSERT_TRUE(mod);
  int tried = 0;
  // Archs whose warps may have 32 lanes, as the kernel's layouts do.
  for (const char *target : {"amd:gfx1100", "intel:pvc"}) {
    std::string plugin(target, std::strchr(target, ':'));
    if (!hasPlugin(plugin))
      continue;
    ++tried;
    auto compiled = context().compile(target, mod->str());
    ASSERT_FALSE(compiled) << target << " compiled a warp-specialised kernel";
    EXPECT_NE(compiled.status().message().find("needs a barrier for each of its 3 regions"),
              std::string::npos)
        << target << ": " << compiled.status().message();
    EXPECT_NE(compiled.status().message().find("0 barriers for groups of warps"),
              std::string::npos)
        << target << ": " << compiled.status().message();
  }
  if (!tried)
    GTEST_SKIP() << "neither the AMD nor the Intel plugin is built";
}

TEST(WarpSpecialize, CompilesForNvidiaSm90a) {
  if (!hasPlugin("nvidia"))
    GTEST_SKIP() << "the NVIDIA plugin is not built";
  auto barriers = regionBarriers.specialize({.numWarps = 4});
  ASSERT_TRUE(barriers);
  std::string ptx = ptxOf(*barriers);
  ASSERT_FALSE(ptx.empty());
  // All 7 warps launch; each region's barrier is a named one for its threads.
  EXPECT_NE(ptx.find(".reqntid 224"), std::string::npos) << ptx;
  for (const char *bar : {"bar.sync \t1, 128;", "bar.sync \t2, 64;", "bar.sync \t3, 32;"})
    EXPECT_NE(ptx.find(bar), std::string::npos) << "no `" << bar << "` in\n" << ptx;
  EXPECT_TRUE(assembles(ptx));

  auto ring = ringSum.specialize({.numWarps = 4});
  ASSERT_TRUE(ring);
  ptx = ptxOf(*ring);
  ASSERT_FALSE(ptx.empty());
  EXPECT_NE(ptx.find(".reqntid 160"), std::string::npos) << ptx;
  EXPECT_NE(ptx.find("mbarrier.try_wait.parity"), std::string::npos) << ptx;
  EXPECT_NE(ptx.find("mbarrier.arrive"), std::string::npos) << ptx;
  EXPECT_TRUE(assembles(ptx));
}

// Register budgets: every region's or none; on NVIDIA sm_90a each region
// starts with setmaxnreg, growing the consumers and shrinking the producer.
TEST(WarpSpecialize, RegisterBudgetsReachTheTarget) {
  auto budgets = jit("budgets", [] {
    Tensor out = arg(pointer_type(int32));
    warp_specialize([&] { store(out, constant(1, int32)); },
                    {{4, [] {}, /*numRegs=*/24}}, /*defaultNumRegs=*/240);
  });
  auto mod = budgets.specialize({.numWarps = 8});
  ASSERT_TRUE(mod);
  EXPECT_NE(irOf(mod).find("hd.warp_specialize warps [4] regs [240, 24]"), std::string::npos)
      << irOf(mod);
  if (hasPlugin("nvidia")) {
    std::string ptx = ptxOf(*mod);
    EXPECT_NE(ptx.find("setmaxnreg.inc.sync.aligned.u32 240;"), std::string::npos) << ptx;
    EXPECT_NE(ptx.find("setmaxnreg.dec.sync.aligned.u32 24;"), std::string::npos) << ptx;
    EXPECT_TRUE(assembles(ptx));
  }
  // Without defaultNumRegs the default partition gets what the worker
  // leaves: (65536 - 4 * 32 * 24) / (8 * 32) = 244, in steps of 8: 240.
  auto left = jit("left", [] {
    Tensor out = arg(pointer_type(int32));
    warp_specialize([&] { store(out, constant(1, int32)); }, {{4, [] {}, /*numRegs=*/24}});
  });
  auto leftMod = left.specialize({.numWarps = 8});
  ASSERT_TRUE(leftMod);
  EXPECT_NE(irOf(leftMod).find("hd.warp_specialize warps [4] regs [0, 24]"), std::string::npos)
      << irOf(leftMod);
  if (hasPlugin("nvidia")) {
    std::string ptx = ptxOf(*leftMod);
    EXPECT_NE(ptx.find("setmaxnreg.inc.sync.aligned.u32 240;"), std::string::npos) << ptx;
    EXPECT_TRUE(assembles(ptx));
  }
  auto some = jit("k", [] {
    line = __LINE__; warp_specialize([] {}, {{4, [] {}, 24}, {4, [] {}}});
  });
  expectError(some, "some regions have a register budget and some do not");
  auto defaultOnly = jit("k", [] {
    line = __LINE__; warp_specialize([] {}, {{4, [] {}}}, /*defaultNumRegs=*/240);
  });
  expectError(defaultOnly, "some regions have a register budget and some do not");
}

// CSE would merge the worker's tiles with the identical ones above it (the
// worker has the kernel's warps, so the same layout): the compiler must
// keep them the worker's.
TEST(WarpSpecialize, AWorkerMayComputeTheTilesOfTheCodeAroundIt) {
  if (!hasPlugin("nvidia"))
    GTEST_SKIP() << "the NVIDIA plugin is not built";
  auto k = jit("same_tiles", [] {
    Tensor out = arg(pointer_type(int32));
    store(out + arange(0, 128, blockLayout(4)), arange(0, 128, blockLayout(4)) * 2);
    warp_specialize([] {}, {{4, [&] {
      store(out + (128 + arange(0, 128, blockLayout(4))), arange(0, 128, blockLayout(4)) * 2);
    }}});
  });
  auto mod = k.specialize({.numWarps = 4});
  ASSERT_TRUE(mod);
  EXPECT_TRUE(assembles(ptxOf(*mod)));
}

TEST(WarpSpecialize, RingMatchesTheReferenceOnAnNvidiaGpu) {
  auto dev = context().select("nvidia");
  if (!dev)
    GTEST_SKIP() << "no NVIDIA GPU: " << dev.status().message();
  auto mod = ringSum.specialize({.numWarps = 4});
  ASSERT_TRUE(mod);
  auto module = dev->loadIR(mod->str());
  ASSERT_TRUE(module) << module.status().message();
  auto kernel = module->kernel(mod->kernelName());
  ASSERT_TRUE(kernel) << kernel.status().message();
  for (int nblocks : {1, 2, 5, 16}) {
    SCOPED_TRACE(std::to_string(nblocks) + " blocks");
    const int programs = 3;
    std::vector<float> in = randomF32(size_t(programs) * nblocks * kBlock, -4, 4);
    const size_t slack = 64;
    std::vector<float> got = poisoned<float>(size_t(programs) * kBlock + slack);
    auto din = dev->alloc(in.size() * 4), dout = dev->alloc(got.size() * 4);
    ASSERT_TRUE(din && dout);
    ASSERT_TRUE(din->copyFromHost(in.data(), in.size() * 4));
    ASSERT_TRUE(dout->copyFromHost(got.data(), got.size() * 4));
    auto st = kernel->launch({programs, 1, 1}, {din->arg(), dout->arg(), runtime::arg::i32(nblocks)});
    ASSERT_TRUE(st) << st.message();
    ASSERT_TRUE(dev->synchronize());
    ASSERT_TRUE(dout->copyToHost(got.data(), got.size() * 4));
    std::vector<float> want(size_t(programs) * kBlock, 0.f);
    for (int p = 0; p < programs; ++p)
      for (int j = 0; j < nblocks; ++j)
        for (int e = 0; e < kBlock; ++e)
          want[size_t(p) * kBlock + e] += in[(size_t(p) * nblocks + j) * kBlock + e];
    std::vector<float> head(got.begin(), got.begin() + want.size());
    // The same additions in the same order: exact.
    EXPECT_TRUE(close(head, want, 0, 0));
    for (size_t i = want.size(); i < got.size(); ++i)
      ASSERT_TRUE(std::isnan(got[i])) << "element " << i << " past the output was written";
  }
}

} // namespace
} // namespace hadron::builder::test
