//===- TensorCopyTest.cpp - Tensor descriptors, bulk copies, barriers -----===//
//
// A kernel that streams blocks of a strided 2-D tensor through a ring of two
// shared stages with hd.async_tensor_copy and one barrier per stage, waiting
// on each stage's phase parity, as a pipelined GEMM does. On the host the
// copies complete at once and the barriers count arrivals in shared memory:
// the blocks (with zeros where they reach outside the tensor) must equal a
// C++ reference. The runtime's checks of descriptor arguments, and a wait
// that no arrival can complete, must fail with clear messages.
//
//===----------------------------------------------------------------------===//

#include "BuilderTest.h"

#include <cstring>
#include <fstream>
#include <sstream>

namespace hadron::builder::test {
namespace {

constexpr int kRows = 16, kCols = 32, kBlocks = 3;
const Layout kTile = Blocked{{1, 4}, {4, 8}, {4, 1}, {1, 0}};
// An XOR-swizzled stage: the copy must place every element where a
// local_load of that layout looks for it.
const Layout kStage = Swizzled{4, 1, 8, {1, 0}};

// Block i starts at (row0 + 16 i, col0); it is copied into stage i % 2 and
// read back after a wait on phase (i / 2) & 1 of that stage's barrier.
auto streamBlocks = jit("stream_blocks", [] {
  TensorDescriptor src = tensor_descriptor_arg(float32, {kRows, kCols}, kStage);
  Tensor out = arg(pointer_type(float32), {.divisibility = 16});
  Tensor row0 = arg(int32), col0 = arg(int32);
  SharedMemory ring = allocate_shared_memory(float32, {2, kRows, kCols}, Swizzled{4, 1, 8, {2, 1, 0}});
  SharedMemory bars = allocate_mbarriers(2);
  mbarrier_init(bars.index(0), 1);
  mbarrier_init(bars.index(1), 1);
  Tensor rows = expand_dims(arange(0, kRows, Slice{1, kTile}), 1);
  Tensor cols = expand_dims(arange(0, kCols, Slice{0, kTile}), 0);
  Tensor offsets = broadcast(rows * kCols, {kRows, kCols}) + broadcast(cols, {kRows, kCols});
  for (int i = 0; i < kBlocks; ++i) {
    SharedMemory bar = bars.index(i % 2), stage = ring.index(i % 2);
    mbarrier_expect(bar, src.blockBytes());
    async_tensor_copy(src, {row0 + i * kRows, col0}, bar, stage);
    mbarrier_wait(bar, (i / 2) & 1);
    store(out + (offsets + i * kRows * kCols), stage.load(kTile));
  }
});

// The other way: block i (read from `in`, kBlocks blocks one after the
// other) is staged in ring stage i % 2 and stored with hd.async_tensor_store
// at (row0 + 16 i, col0) of the tensor `dst` describes; a stage is written
// again only after the store that read it has been retired.
auto storeBlocks = jit("store_blocks", [] {
  TensorDescriptor dst = tensor_descriptor_arg(float32, {kRows, kCols}, kStage);
  Tensor in = arg(pointer_type(float32), {.divisibility = 16});
  Tensor row0 = arg(int32), col0 = arg(int32);
  SharedMemory ring = allocate_shared_memory(float32, {2, kRows, kCols}, Swizzled{4, 1, 8, {2, 1, 0}});
  Tensor rows = expand_dims(arange(0, kRows, Slice{1, kTile}), 1);
  Tensor cols = expand_dims(arange(0, kCols, Slice{0, kTile}), 0);
  Tensor offsets = broadcast(rows * kCols, {kRows, kCols}) + broadcast(cols, {kRows, kCols});
  for (int i = 0; i < kBlocks; ++i) {
    SharedMemory stage = ring.index(i % 2);
    async_tensor_store_wait(1);
    stage.store(load(in + (offsets + i * kRows * kCols)));
    async_tensor_store(dst, {row0 + i * kRows, col0}, stage);
  }
  async_tensor_store_wait(0);
});

// Waits for phase 0 twice: the second wait has nothing left to arrive.
auto waitTwice = jit("wait_twice", [] {
  Tensor out = arg(pointer_type(int32));
  SharedMemory bar = allocate_mbarriers(1).index(0);
  mbarrier_init(bar, 1);
  mbarrier_arrive(bar);
  mbarrier_wait(bar, 0);
  store(out, constant(1, int32));
  mbarrier_wait(bar, 1);
  store(out, constant(2, int32));
});

// The cluster forms. A block is copied with multicast mask `mask` into a
// stage filled with -7 first; an arrival with a rank completes a second
// barrier. Without clusters (a cluster of one program) bit 0 of the mask
// says whether the block lands here, and rank 0 is this program.
// (Unswizzled row-major, a layout every copy engine moves.)
auto clusterForms = jit("cluster_forms", [] {
  const Layout plain = Swizzled{1, 1, 1, {1, 0}};
  TensorDescriptor src = tensor_descriptor_arg(float32, {kRows, kCols}, plain);
  Tensor out = arg(pointer_type(float32), {.divisibility = 16});
  Tensor mask = arg(int32);
  SharedMemory stage = allocate_shared_memory(float32, {kRows, kCols}, plain);
  SharedMemory bars = allocate_mbarriers(2);
  mbarrier_init(bars.index(0), 1);
  mbarrier_init(bars.index(1), 1);
  stage.store(full({kRows, kCols}, -7.0, float32, kTile));
  cluster_barrier();
  mbarrier_expect(bars.index(0), src.blockBytes());
  async_tensor_copy(src, {0, 0}, bars.index(0), stage, {}, mask);
  mbarrier_wait(bars.index(0), 0);
  mbarrier_arrive(bars.index(1), 1, {}, false, /*rank=*/0);
  mbarrier_wait(bars.index(1), 0);
  Tensor rows = expand_dims(arange(0, kRows, Slice{1, kTile}), 1);
  Tensor cols = expand_dims(arange(0, kCols, Slice{0, kTile}), 0);
  store(out + (broadcast(rows * kCols, {kRows, kCols}) + broadcast(cols, {kRows, kCols})),
        stage.load(kTile));
  cluster_barrier();
});

struct Strided {
  int64_t rows, cols, stride;
  std::vector<float> data;
};

/// A 2-D row-major descriptor over `base`, and the launch argument that
/// points to it (which lives as long as the descriptor).
struct Desc2d {
  hd_tensor_desc desc{};
  hd_arg arg{};
  Desc2d(uint64_t base, int64_t rows, int64_t cols, int64_t stride) {
    desc.base = base, desc.rank = 2;
    desc.shape[0] = uint64_t(rows), desc.shape[1] = uint64_t(cols);
    desc.strides[0] = uint64_t(stride), desc.strides[1] = 1;
    arg.kind = HD_ARG_TENSOR_DESC;
    arg.value.desc = &desc;
  }
  Desc2d(const Desc2d &) = delete;
};

Strided randomTensor(int64_t rows, int64_t cols, int64_t stride) {
  Strided t{rows, cols, stride, random<float>(size_t(rows * stride), -8.f, 8.f)};
  return t;
}

TEST(TensorCopy, RingOfStagesMatchesTheHostReference) {
  auto mod = streamBlocks.specialize({.numWarps = 4});
  EXPECT_TRUE(containsInOrder(irOf(mod), {"!hd.tensor_desc<16x32xf32", "hd.mbarrier_init",
                                          "hd.mbarrier_expect", "hd.async_tensor_copy",
                                          "hd.mbarrier_wait"}));
  ASSERT_TRUE(mod);
  runtime::Device &dev = host();
  auto module = dev.loadIR(mod->str());
  ASSERT_TRUE(module) << module.status().message();
  auto kernel = module->kernel(mod->kernelName());
  ASSERT_TRUE(kernel) << kernel.status().message();

  // Inside, straddling every edge, and wholly outside.
  const std::array<int32_t, 2> origins[] = {{0, 0}, {-5, 30}, {30, -20}, {100, 0}, {7, 3}};
  for (auto [row0, col0] : origins) {
    SCOPED_TRACE("origin " + std::to_string(row0) + "," + std::to_string(col0));
    Strided t = randomTensor(40, 50, 64);
    auto in = dev.alloc(t.data.size() * 4);
    ASSERT_TRUE(in);
    ASSERT_TRUE(in->copyFromHost(t.data.data(), t.data.size() * 4));
    const size_t n = size_t(kBlocks) * kRows * kCols, slack = 32;
    std::vector<float> got = poisoned<float>(n + slack);
    auto out = dev.alloc(got.size() * 4);
    ASSERT_TRUE(out);
    ASSERT_TRUE(out->copyFromHost(got.data(), got.size() * 4));
    Desc2d d(in->devicePtr(), t.rows, t.cols, t.stride);
    auto st = kernel->launch({1, 1, 1}, {d.arg, out->arg(), runtime::arg::i32(row0),
                                         runtime::arg::i32(col0)});
    ASSERT_TRUE(st) << st.message();
    ASSERT_TRUE(dev.synchronize());
    ASSERT_TRUE(out->copyToHost(got.data(), got.size() * 4));
    for (int i = 0; i < kBlocks; ++i)
      for (int y = 0; y < kRows; ++y)
        for (int x = 0; x < kCols; ++x) {
          int64_t r = row0 + i * kRows + y, c = col0 + x;
          float want = r >= 0 && r < t.rows && c >= 0 && c < t.cols ? t.data[r * t.stride + c]
                                                                   : 0.f;
          ASSERT_EQ(got[(i * kRows + y) * kCols + x], want)
              << "block " << i << " element (" << y << ", " << x << ")";
        }
    for (size_t i = n; i < n + slack; ++i)
      ASSERT_TRUE(std::isnan(got[i])) << "element " << i << " past the blocks was written";
  }
}

TEST(TensorCopy, StoresOfStagedBlocksLandInsideTheTensorOnly) {
  auto mod = storeBlocks.specialize({.numWarps = 4});
  ASSERT_TRUE(mod);
  EXPECT_TRUE(containsInOrder(irOf(mod), {"hd.async_tensor_store_wait pending = 1",
                                          "hd.local_store", "hd.async_tensor_store",
                                          "hd.async_tensor_store_wait pending = 0"}));
  runtime::Device &dev = host();
  auto module = dev.loadIR(mod->str());
  ASSERT_TRUE(module) << module.status().message();
  auto kernel = module->kernel(mod->kernelName());
  ASSERT_TRUE(kernel) << kernel.status().message();

  const std::array<int32_t, 2> origins[] = {{0, 0}, {-5, 30}, {30, -20}, {100, 0}, {7, 3}};
  for (auto [row0, col0] : origins) {
    SCOPED_TRACE("origin " + std::to_string(row0) + "," + std::to_string(col0));
    const int64_t rows = 40, cols = 50, stride = 64;
    std::vector<float> blocks = random<float>(size_t(kBlocks) * kRows * kCols, -8.f, 8.f);
    auto in = dev.alloc(blocks.size() * 4);
    ASSERT_TRUE(in);
    ASSERT_TRUE(in->copyFromHost(blocks.data(), blocks.size() * 4));
    const size_t slack = 32;
    std::vector<float> got = poisoned<float>(size_t(rows * stride) + slack);
    auto out = dev.alloc(got.size() * 4);
    ASSERT_TRUE(out);
    ASSERT_TRUE(out->copyFromHost(got.data(), got.size() * 4));
    Desc2d d(out->devicePtr(), rows, cols, stride);
    auto st = kernel->launch({1, 1, 1}, {d.arg, in->arg(), runtime::arg::i32(row0),
                                         runtime::arg::i32(col0)});
    ASSERT_TRUE(st) << st.message();
    ASSERT_TRUE(dev.synchronize());
    ASSERT_TRUE(out->copyToHost(got.data(), got.size() * 4));
    // What each element of the tensor (and past it) must hold.
    std::vector<float> want(got.size(), std::nanf(""));
    for (int i = 0; i < kBlocks; ++i)
      for (int y = 0; y < kRows; ++y)
        for (int x = 0; x < kCols; ++x) {
          int64_t r = row0 + i * kRows + y, c = col0 + x;
          if (r >= 0 && r < rows && c >= 0 && c < cols)
            want[r * stride + c] = blocks[(i * kRows + y) * kCols + x];
        }
    for (size_t i = 0; i < got.size(); ++i) {
      if (std::isnan(want[i]))
        ASSERT_TRUE(std::isnan(got[i])) << "element " << i << " (row " << i / stride << ", col "
                                        << i % stride << ") is outside every block, was written";
      else
        ASSERT_EQ(got[i], want[i]) << "row " << i / stride << ", col " << i % stride;
    }
  }
}

TEST(TensorCopy, BadDescriptorsAreRefusedNamingTheArgument) {
  auto mod = streamBlocks.specialize({.numWarps = 4});
  ASSERT_TRUE(mod);
  runtime::Device &dev = host();
  auto module = dev.loadIR(mod->str());
  ASSERT_TRUE(module) << module.status().message();
  auto kernel = module->kernel(mod->kernelName());
  ASSERT_TRUE(kernel);
  auto in = dev.alloc(40 * 64 * 4), out = dev.alloc(kBlocks * kRows * kCols * 4);
  ASSERT_TRUE(in && out);
  auto launch = [&](hd_tensor_desc *d) {
    hd_arg a{};
    a.kind = HD_ARG_TENSOR_DESC;
    a.value.desc = d;
    auto st = kernel->launch({1, 1, 1}, {a, out->arg(), runtime::arg::i32(0), runtime::arg::i32(0)});
    EXPECT_FALSE(st);
    return st.message();
  };
  const hd_tensor_desc good = Desc2d(in->devicePtr(), 40, 50, 64).desc;

  EXPECT_NE(launch(nullptr).find("argument 0 of stream_blocks is a NULL tensor descriptor"),
            std::string::npos);
  hd_tensor_desc d = good;
  d.rank = 3;
  EXPECT_NE(launch(&d).find("the tensor descriptor has rank 3, the kernel reads blocks of rank 2"),
            std::string::npos);
  d = good;
  d.strides[1] = 2;
  EXPECT_NE(launch(&d).find("innermost stride is 2 (must be 1)"), std::string::npos);
  d = good;
  d.shape[0] = 41; // one row past the buffer
  EXPECT_NE(launch(&d).find("reaches 10440 bytes past its base, its buffer has 10240"),
            std::string::npos);
  d = good;
  d.base = 0x10;
  EXPECT_NE(launch(&d).find("is not inside a live buffer"), std::string::npos);
  d = good;
  d.shape[1] = 0;
  EXPECT_NE(launch(&d).find("dim 1 has 0 elements"), std::string::npos);
  // A pointer where the kernel takes a descriptor.
  auto st = kernel->launch({1, 1, 1}, {in->arg(), out->arg(), runtime::arg::i32(0),
                                       runtime::arg::i32(0)});
  ASSERT_FALSE(st);
  EXPECT_NE(st.message().find("argument 0 of stream_blocks is tensor_desc, got ptr"),
            std::string::npos)
      << st.message();
}

TEST(TensorCopy, ClustersOfOneProgramRunOnTheHost) {
  auto mod = clusterForms.specialize({.numWarps = 4});
  ASSERT_TRUE(mod);
  EXPECT_TRUE(containsInOrder(irOf(mod), {"hd.cluster_barrier", "multicast",
                                          "hd.mbarrier_arrive", "rank", "hd.cluster_barrier"}));
  runtime::Device &dev = host();
  auto module = dev.loadIR(mod->str());
  ASSERT_TRUE(module) << module.status().message();
  auto kernel = module->kernel(mod->kernelName());
  ASSERT_TRUE(kernel) << kernel.status().message();
  Strided t = randomTensor(kRows, kCols, kCols);
  auto in = dev.alloc(t.data.size() * 4);
  ASSERT_TRUE(in && in->copyFromHost(t.data.data(), t.data.size() * 4));
  Desc2d d(in->devicePtr(), kRows, kCols, kCols);
  for (int32_t mask : {1, 3, 2, 0}) {
    SCOPED_TRACE("mask " + std::to_string(mask));
    std::vector<float> got = poisoned<float>(kRows * kCols);
    auto out = dev.alloc(got.size() * 4);
    ASSERT_TRUE(out && out->copyFromHost(got.data(), got.size() * 4));
    auto st = kernel->launch({1, 1, 1}, {d.arg, out->arg(), runtime::arg::i32(mask)});
    ASSERT_TRUE(st) << st.message();
    ASSERT_TRUE(dev.synchronize());
    ASSERT_TRUE(out->copyToHost(got.data(), got.size() * 4));
    for (int i = 0; i < kRows * kCols; ++i)
      ASSERT_EQ(got[i], mask & 1 ? t.data[i] : -7.f) << "element " << i;
  }
}

// Clusters of two: the module says so, NVIDIA sm_90a makes cluster
// instructions of it, and a target without clusters refuses it by name.
TEST(TensorCopy, ClustersOfTwoReachTheTargets) {
  auto mod = clusterForms.specialize({.numWarps = 4, .clusterDims = {2, 1, 1}});
  ASSERT_TRUE(mod);
  EXPECT_NE(mod->key().find(".c2x1x1"), std::string::npos) << mod->key();
  EXPECT_NE(irOf(mod).find("hd.cluster_dims = array<i32: 2, 1, 1>"), std::string::npos)
      << irOf(mod);
  auto onHost = host().loadIR(mod->str());
  ASSERT_FALSE(onHost);
  EXPECT_NE(onHost.status().message().find("groups 2 programs into a cluster; host has no "
                                           "clusters"),
            std::string::npos)
      << onHost.status().message();
  if (!hasPlugin("nvidia"))
    GTEST_SKIP() << "the NVIDIA plugin is not built";
  std::string ptx = ptxOf(*mod);
  EXPECT_NE(ptx.find(".reqnctapercluster 2, 1, 1"), std::string::npos) << ptx;
  EXPECT_NE(ptx.find(".multicast::cluster"), std::string::npos) << ptx;
  EXPECT_NE(ptx.find("mbarrier.arrive.shared::cluster.b64"), std::string::npos) << ptx;
  EXPECT_NE(ptx.find("barrier.cluster.wait"), std::string::npos) << ptx;
  EXPECT_TRUE(assembles(ptx));
}

TEST(TensorCopy, AWaitNoArrivalCanCompleteFailsOnTheHost) {
  auto mod = waitTwice.specialize({.numWarps = 1});
  ASSERT_TRUE(mod);
  std::vector<int32_t> out = poisoned<int32_t>(1);
  auto r = run(*mod, {1, 1, 1}, {output(out)});
  ASSERT_FALSE(r);
  EXPECT_NE(std::string(r.message()).find("hd.mbarrier_wait: the awaited phase has not completed"),
            std::string::npos)
      << r.message();
}

uint16_t bf16OfInt(int v) {
  float f = float(v);
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return uint16_t(u >> 16); // small integers are exact in bf16
}

// examples/nvidia/matmul_tma_dynamic_bf16.mlir (the persistent GEMM whose
// tiles come from a counter, its loader several tiles ahead when K has fewer
// steps than the loader's lead, C stored in chunks by the tensor store) on
// the host: copies complete at once, products are FMAs, integer inputs keep
// every sum exact, so C is compared bit for bit; each shape is launched
// twice, and the counters must be back at zero after each launch.
TEST(TensorCopy, TheDynamicTileGemmExampleRunsOnTheHost) {
  std::ifstream in(std::string(HADRON_SOURCE_DIR) + "/examples/nvidia/matmul_tma_dynamic_bf16.mlir");
  std::stringstream text;
  text << in.rdbuf();
  ASSERT_FALSE(text.str().empty());
  runtime::Device &dev = host();
  auto module = dev.loadIR(text.str());
  ASSERT_TRUE(module) << module.status().message();
  auto kernel = module->kernel("matmul_tma_dynamic");
  ASSERT_TRUE(kernel) << kernel.status().message();
  struct Case {
    int m, n, k, programs;
  };
  // 4 tiles of 3 K steps on 3 programs; 6 tiles of 1 K step (the loader
  // 3 tiles ahead) on 2; 1 tile on 3 programs (two take none).
  for (Case c : {Case{256, 512, 192, 3}, Case{384, 512, 64, 2}, Case{128, 256, 128, 3}}) {
    SCOPED_TRACE(std::to_string(c.m) + "x" + std::to_string(c.n) + "x" + std::to_string(c.k) +
                 " on " + std::to_string(c.programs) + " programs");
    std::vector<int32_t> ai = random<int32_t>(size_t(c.m) * c.k, -2, 2),
                         bi = random<int32_t>(size_t(c.k) * c.n, -2, 2);
    std::vector<uint16_t> a(ai.size()), b(bi.size());
    for (size_t i = 0; i < a.size(); ++i)
      a[i] = bf16OfInt(ai[i]);
    for (size_t i = 0; i < b.size(); ++i)
      b[i] = bf16OfInt(bi[i]);
    auto da = dev.alloc(a.size() * 2), db = dev.alloc(b.size() * 2),
         dc = dev.alloc(size_t(c.m) * c.n * 2), cnt = dev.alloc(8);
    ASSERT_TRUE(da && db && dc && cnt);
    ASSERT_TRUE(da->upload(a) && db->upload(b) && cnt->upload(std::vector<int32_t>{0, 0}));
    Desc2d ad(da->devicePtr(), c.m, c.k, c.k), bd(db->devicePtr(), c.k, c.n, c.n),
        cd(dc->devicePtr(), c.m, c.n, c.n);
    for (int launch = 0; launch < 2; ++launch) {
      std::vector<uint16_t> got(size_t(c.m) * c.n, 0x7fc1); // bf16 NaN
      ASSERT_TRUE(dc->upload(got));
      auto st = kernel->launch({uint32_t(c.programs), 1, 1},
                               {ad.arg, bd.arg, cd.arg, runtime::arg::i32(c.m),
                                runtime::arg::i32(c.n), runtime::arg::i32(c.k), cnt->arg()});
      ASSERT_TRUE(st) << st.message();
      ASSERT_TRUE(dev.synchronize());
      ASSERT_TRUE(dc->download(got));
      std::vector<int32_t> counts(2, -1);
      ASSERT_TRUE(cnt->download(counts));
      EXPECT_EQ(counts[0], 0) << "tile counter not reset after launch " << launch;
      EXPECT_EQ(counts[1], 0) << "finished-programs counter not reset after launch " << launch;
      for (int i = 0; i < c.m; ++i)
        for (int j = 0; j < c.n; ++j) {
          int sum = 0;
          for (int t = 0; t < c.k; ++t)
            sum += ai[size_t(i) * c.k + t] * bi[size_t(t) * c.n + j];
          ASSERT_EQ(got[size_t(i) * c.n + j], bf16OfInt(sum))
              << "C[" << i << "][" << j << "] after launch " << launch;
        }
    }
  }
}

} // namespace
} // namespace hadron::builder::test
