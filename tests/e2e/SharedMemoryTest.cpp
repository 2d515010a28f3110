//===- SharedMemoryTest.cpp - local memory, views, barriers, async copies -===//
//
// Tiles through shared memory in every shared layout kind (swizzled,
// padded, linear), written in one distributed layout and read in another;
// views (slice, index, permute); store / barrier / load; asynchronous copies
// with commit groups and waits. These lowerings are being written now: each
// test probes first and skips with "not lowered yet: <compile error>" until
// the probe compiles (E2E_REQUIRE), after which it must pass.
//
// The kernels are the kernel library's (tests/kernels/SharedMemory.h,
// written with the C++ builder), but two that stay IR text here, as that
// header says why: PermuteTransposes and SharedAsyncCopy.
//
//===----------------------------------------------------------------------===//

#include "E2E.h"
#include "kernels/SharedMemory.h"

#include <map>

namespace hadron::e2e {
namespace {

using runtime::arg::i32;

const Blocked kRows{{1, 4}, {4, 8}, {4, 1}, {1, 0}};
const Blocked kCols{{4, 1}, {8, 4}, {1, 4}, {0, 1}};

struct SharedCase {
  std::string label, layout; ///< the shared layout, as written in IR
  /// The same memory seen with its two dimensions swapped: what
  /// memdesc_permute [1, 0] of a tile in `layout` gives.
  std::string transposed;
  std::string name() const { return label; }
};

/// The library's shared layouts, with the transposed form of the views'
/// (what memdesc_permute [1, 0] gives, which PermuteTransposes writes).
std::vector<SharedCase> sharedCases(const std::vector<kernels::SharedLayout> &layouts) {
  static const std::map<std::string, std::string> transposed = {
      {"row_major", "#hd.swizzled<{vec = 1, perPhase = 1, maxPhase = 1, order = [0, 1]}>"},
      {"swizzle_v4_p1_m8", "#hd.swizzled<{vec = 4, perPhase = 1, maxPhase = 8, order = [0, 1]}>"},
      {"padded_32_4", "#hd.padded<{intervals = [32], paddings = [4], order = [0, 1]}>"},
      {"shared_linear",
       "#hd.shared_linear<{offset = [[1, 0], [2, 0], [4, 0], [8, 0], [16, 0], [4, 1], [8, 2], "
       "[0, 4], [0, 8], [0, 16]]}>"},
  };
  std::vector<SharedCase> cases;
  for (const kernels::SharedLayout &l : layouts) {
    auto t = transposed.find(l.label);
    cases.push_back({l.label, l.layout, t == transposed.end() ? "" : t->second});
  }
  return cases;
}

/// The library's kernel `kernel` over shared layout `c` for this session's
/// lane count.
int addKernel(Program &p, const std::string &kernel, const SharedCase &c) {
  kernels::SharedUse use{kernel, {c.label, c.layout}};
  return p.addBuilt(use.key(session().lanes), kernel);
}

/// PermuteTransposes' text kernel frame, 32 x 32 f32: program q loads `x`, elements q * 1024 ..
/// q * 1024 + 1023 of %in (row-major, ld 32), in #a; stores go to %out.
struct Frame {
  KernelBuilder k;
  std::string a, b, sh, x, base, in, out;
};

std::string tile(KernelBuilder &k, const std::string &layout) {
  return tensor({32, 32}, "f32", layout);
}

/// Offsets base + r * 32 + c of a 32 x 32 tile in `layout`.
std::string offsets(Frame &f, const std::string &layout) {
  KernelBuilder &k = f.k;
  auto t = k.tile2d({32, 32}, layout, k.constI32(0), k.constI32(0), k.constI32(32), "", "");
  std::string it = tensor({32, 32}, "i32", layout);
  return k.let("arith.addi " + t.offsets + ", " + k.splat(f.base, it) + " : " + it);
}

std::string load(Frame &f, const std::string &ptr, const std::string &layout) {
  KernelBuilder &k = f.k;
  return k.let("hd.load " + k.pointers(ptr, "f32", offsets(f, layout), {32, 32}, layout) + " : " +
               tensor({32, 32}, "!hd.ptr<f32>", layout));
}

void store(Frame &f, const std::string &ptr, const std::string &value, const std::string &layout) {
  KernelBuilder &k = f.k;
  k.line("hd.store " + k.pointers(ptr, "f32", offsets(f, layout), {32, 32}, layout) + ", " + value +
         " : " + tensor({32, 32}, "!hd.ptr<f32>", layout));
}

Frame frame(const std::string &name, const std::string &shared, int extraInputs = 0) {
  Frame f{KernelBuilder(name, 4), "", "", "", "", "", "", ""};
  KernelBuilder &k = f.k;
  const unsigned lanes = session().lanes;
  f.a = k.layout("a", kRows.str(lanes));
  f.b = k.layout("b", kCols.str(lanes));
  f.sh = k.layout("sh", shared);
  f.in = k.arg("!hd.ptr<f32>");
  f.out = k.arg("!hd.ptr<f32>");
  for (int i = 0; i < extraInputs; ++i)
    k.arg("!hd.ptr<f32>");
  f.base = k.let("arith.muli " + k.let("hd.program_id 0") + ", " + k.constI32(1024) + " : i32");
  f.x = load(f, f.in, f.a);
  return f;
}

/// Runs `kernel` over `programs` tiles of inputs and compares the output
/// with `ref(inputs...)` for each element.
void run(Program &p, int kid, std::mt19937_64 &rng, int inputs,
         const std::function<float(const std::vector<std::vector<float>> &, int)> &ref) {
  const uint32_t programs = 3;
  const int n = programs * 1024;
  std::vector<std::vector<float>> host;
  std::vector<Buf<float>> bufs;
  for (int i = 0; i < inputs; ++i) {
    host.push_back(randomVector<float>(rng, n, -100, 100));
    bufs.push_back(p.input(host.back()));
  }
  auto out = p.output<float>(n);
  std::vector<hd_arg> args{bufs[0].arg(), out.arg()};
  for (int i = 1; i < inputs; ++i)
    args.push_back(bufs[i].arg());
  E2E_LAUNCH(p, kid, {programs, 1, 1}, args, {io(out)});
  std::vector<float> want(n);
  for (int i = 0; i < n; ++i)
    want[i] = ref(host, i);
  expectExact(out.host(), want, "result");
}

/// Element (r, c) of program q's tile is element q * 1024 + r * 32 + c.
int transposed(int i) {
  int q = i / 1024, r = (i % 1024) / 32, c = i % 32;
  return q * 1024 + c * 32 + r;
}

class SharedMemory : public ::testing::TestWithParam<SharedCase> {};

// local_alloc initialised from x in #a, local_load into #b: elements keep
// their coordinates through every shared layout.
TEST_P(SharedMemory, AllocLoadInAnotherLayout) {
  E2E_BEGIN();
  E2E_REQUIRE(SharedMemory);
  Program p;
  int kid = addKernel(p, "alloc_load", GetParam());
  E2E_READY(p);
  run(p, kid, rng, 1, [](auto &in, int i) { return in[0][i]; });
}

// local_store x, barrier, local_load; local_store y over it, barrier,
// local_load: out = first + second * 2 proves each load saw its store.
TEST_P(SharedMemory, StoreBarrierLoadTwice) {
  E2E_BEGIN();
  E2E_REQUIRE(Barrier);
  Program p;
  int kid = addKernel(p, "store_load", GetParam());
  E2E_READY(p);
  run(p, kid, rng, 2, [](auto &in, int i) { return in[0][i] + (in[1][i] + in[1][i]); });
}

INSTANTIATE_TEST_SUITE_P(Layouts, SharedMemory,
                         ::testing::ValuesIn(sharedCases(kernels::e2eSharedLayouts())),
                         ::testing::PrintToStringParamName());

class SharedViews : public ::testing::TestWithParam<SharedCase> {};

// memdesc_slice: the two 16 x 32 halves of the tile read separately and
// written back swapped.
TEST_P(SharedViews, SliceHalvesSwapped) {
  E2E_BEGIN();
  E2E_REQUIRE(MemdescViews);
  Program p;
  int kid = addKernel(p, "slices", GetParam());
  E2E_READY(p);
  run(p, kid, rng, 1, [](auto &in, int i) {
    int q = i / 1024, r = (i % 1024) / 32, c = i % 32;
    return in[0][q * 1024 + ((r + 16) % 32) * 32 + c];
  });
}

// memdesc_permute: the tile read through a [1, 0] view is its transpose.
TEST_P(SharedViews, PermuteTransposes) {
  E2E_BEGIN();
  E2E_REQUIRE(MemdescViews);
  Frame f = frame("permute", GetParam().layout);
  KernelBuilder &k = f.k;
  std::string md = "!hd.memdesc<32x32xf32, " + f.sh + ">";
  std::string shT = k.layout("sh_t", GetParam().transposed);
  std::string mdT = "!hd.memdesc<32x32xf32, " + shT + ">";
  std::string m = k.let("hd.local_alloc " + f.x + " : " + tile(k, f.a) + " -> " + md);
  std::string tr = k.let("hd.memdesc_permute " + m + ", [1, 0] : " + md + " -> " + mdT);
  std::string y = k.let("hd.local_load " + tr + " : " + mdT + " -> " + tile(k, f.b));
  k.line("hd.local_dealloc " + m + " : " + md);
  store(f, f.out, y, f.b);
  Program p;
  int kid = p.add(f.k);
  E2E_READY(p);
  run(p, kid, rng, 1, [](auto &in, int i) { return in[0][transposed(i)]; });
}

INSTANTIATE_TEST_SUITE_P(Layouts, SharedViews,
                         ::testing::ValuesIn(sharedCases(kernels::e2eSharedViewLayouts())),
                         ::testing::PrintToStringParamName());

// memdesc_index over a 2 x 32 x 32 allocation: x into buffer 0, y into
// buffer s (= 1, a run-time index), read back crosswise: out = buf[1] * 2 +
// buf[0] = y * 2 + x.
TEST(SharedMultiBuffer, IndexSelectsTheStage) {
  E2E_BEGIN();
  E2E_REQUIRE(MemdescViews);
  Program p;
  int kid = addKernel(p, "stages", {"stages", kernels::kStagesLayout, ""});
  E2E_READY(p);
  run(p, kid, rng, 2, [](auto &in, int i) { return (in[1][i] + in[1][i]) + in[0][i]; });
}

// async_copy of a masked tile (elements past `n` take `other`) into shared
// memory, in two groups: wait until at most one is pending, then none.
TEST(SharedAsyncCopy, TwoGroupsWithMaskAndOther) {
  E2E_BEGIN();
  E2E_REQUIRE(AsyncCopy);
  KernelBuilder k("async_copy", 4);
  std::string a = k.layout("a", kRows.str(S.lanes)), b = k.layout("b", kCols.str(S.lanes));
  std::string sh = k.layout("sh", kernels::e2eSharedLayouts()[1].layout);
  std::string in0 = k.arg("!hd.ptr<f32>"), out = k.arg("!hd.ptr<f32>"), in1 = k.arg("!hd.ptr<f32>");
  std::string n = k.arg("i32");
  std::string base = k.let("arith.muli " + k.let("hd.program_id 0") + ", " + k.constI32(1024) + " : i32");
  auto ta = k.tile2d({32, 32}, a, k.constI32(0), k.constI32(0), k.constI32(32), "", "");
  std::string it = tensor({32, 32}, "i32", a);
  std::string offs = k.let("arith.addi " + ta.offsets + ", " + k.splat(base, it) + " : " + it);
  std::string mask = k.let("arith.cmpi slt, " + offs + ", " + k.splat(n, it) + " : " + it);
  std::string ft = tensor({32, 32}, "f32", a), pt = tensor({32, 32}, "!hd.ptr<f32>", a);
  std::string other = k.let("arith.constant dense<-5.0> : " + ft);
  std::string md = "!hd.memdesc<32x32xf32, " + sh + ">";
  std::string m0 = k.let("hd.local_alloc -> " + md), m1 = k.let("hd.local_alloc -> " + md);
  std::string c0 = k.let("hd.async_copy " + k.pointers(in0, "f32", offs, {32, 32}, a) + ", " + m0 +
                         " mask " + mask + " other " + other + " : " + pt + " -> " + md);
  std::string g0 = k.let("hd.async_commit_group " + c0);
  std::string c1 = k.let("hd.async_copy " + k.pointers(in1, "f32", offs, {32, 32}, a) + ", " + m1 +
                         " mask " + mask + " other " + other +
                         " {cache = #hd.cache<cache_global>} : " + pt + " -> " + md);
  std::string g1 = k.let("hd.async_commit_group " + c1);
  k.let("hd.async_wait " + g0 + " pending = 1");
  std::string x0 = k.let("hd.local_load " + m0 + " : " + md + " -> " + tensor({32, 32}, "f32", b));
  k.let("hd.async_wait " + g1 + " pending = 0");
  std::string x1 = k.let("hd.local_load " + m1 + " : " + md + " -> " + tensor({32, 32}, "f32", b));
  std::string bt = tensor({32, 32}, "f32", b);
  std::string d = k.let("arith.subf " + x0 + ", " + k.let("arith.addf " + x1 + ", " + x1 + " : " + bt) +
                        " : " + bt);
  auto tb = k.tile2d({32, 32}, b, k.constI32(0), k.constI32(0), k.constI32(32), "", "");
  std::string ib = tensor({32, 32}, "i32", b);
  std::string ob = k.let("arith.addi " + tb.offsets + ", " + k.splat(base, ib) + " : " + ib);
  k.line("hd.store " + k.pointers(out, "f32", ob, {32, 32}, b) + ", " + d + " : " +
         tensor({32, 32}, "!hd.ptr<f32>", b));
  k.line("hd.local_dealloc " + m1 + " : " + md);
  k.line("hd.local_dealloc " + m0 + " : " + md);
  Program p;
  int kid = p.add(k);
  E2E_READY(p);
  const uint32_t programs = 3;
  const int total = programs * 1024, count = tailSize(rng, 1024, total);
  std::vector<float> h0 = randomVector<float>(rng, total, -100, 100);
  std::vector<float> h1 = randomVector<float>(rng, total, -100, 100);
  auto b0 = p.input(h0), b1 = p.input(h1);
  auto bo = p.output<float>(total);
  E2E_LAUNCH(p, kid, {programs, 1, 1}, {b0.arg(), bo.arg(), b1.arg(), i32(count)}, {io(bo)});
  std::vector<float> want(total);
  for (int i = 0; i < total; ++i)
    want[i] = i < count ? h0[i] - (h1[i] + h1[i]) : -5.0f - (-5.0f + -5.0f);
  expectExact(bo.host(), want, "x0 - 2 * x1 (other = -5 past n)");
}

} // namespace
} // namespace hadron::e2e
