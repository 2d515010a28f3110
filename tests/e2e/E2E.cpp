//===- E2E.cpp - The end-to-end suite's shared machinery -----------------===//

#include "E2E.h"

#include <cctype>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <mutex>

namespace hadron::e2e {

//===----------------------------------------------------------------------===//
// The session
//===----------------------------------------------------------------------===//

namespace {

std::string env(const char *name) {
  const char *v = std::getenv(name);
  return v ? v : "";
}

bool isPowerOfTwo(long v) { return v > 0 && (v & (v - 1)) == 0; }

void initSession(Session &s) {
  auto ctx = runtime::Context::create();
  if (!ctx) {
    s.problem = "hd_context_create failed: " + ctx.status().message();
    return;
  }
  s.context.emplace(std::move(ctx).value());

  std::string lanes = env("HADRON_E2E_WARP_SIZE");
  if (!lanes.empty()) {
    char *end = nullptr;
    long v = std::strtol(lanes.c_str(), &end, 10);
    if (*end || !isPowerOfTwo(v) || v < 8 || v > 64) {
      s.problem = "HADRON_E2E_WARP_SIZE='" + lanes + "' is not 8, 16, 32 or 64";
      return;
    }
    s.lanes = static_cast<unsigned>(v);
  }

  std::string compileOnly = env("HADRON_E2E_COMPILE_ONLY");
  if (!compileOnly.empty()) {
    s.compileOnly = true;
    size_t colon = compileOnly.find(':');
    s.plugin = compileOnly.substr(0, colon);
    s.arch = colon == std::string::npos ? "" : compileOnly.substr(colon + 1);
    const hd_plugin_info *found = nullptr;
    std::vector<hd_plugin_info> plugins = s.context->plugins();
    std::string loaded;
    for (const hd_plugin_info &p : plugins) {
      loaded += std::string(loaded.empty() ? "" : ", ") + p.name;
      if (s.plugin == p.name)
        found = &p;
    }
    if (!found) {
      s.problem = "HADRON_E2E_COMPILE_ONLY='" + compileOnly + "': no plugin '" + s.plugin +
                  "' is loaded (loaded: " + (loaded.empty() ? "none" : loaded) +
                  "); the form is <plugin>:<arch>, e.g. nvidia:sm_90a";
      return;
    }
    // The arch is always passed explicitly, as the device run resolves it.
    if (s.arch.empty() && found->default_arch)
      s.arch = found->default_arch;
    return;
  }

  std::string selector = env("HADRON_DEVICE");
  if (selector.empty())
    selector = "host";
  auto device = s.context->select(selector);
  if (!device) {
    s.problem = "HADRON_DEVICE='" + selector + "': " + device.status().message();
    s.skipAll = device.status().code() == HD_ERROR_NO_DEVICE;
    return;
  }
  s.device.emplace(*device);
  s.info = device->info();
  if (lanes.empty() && s.info.warp_size > 1)
    s.lanes = s.info.warp_size;
}

} // namespace

std::string Session::describe() const {
  if (compileOnly)
    return "compile-only " + plugin + ":" + arch + ", " + std::to_string(lanes) +
           " threads per warp";
  if (!device)
    return "no device";
  return device->name() + " (" + info.name + ", arch " + info.arch + ", warp size " +
         std::to_string(info.warp_size) + "), layouts for " + std::to_string(lanes) +
         " threads per warp";
}

Session &session() {
  static Session s;
  static std::once_flag once;
  std::call_once(once, [] { initSession(s); });
  return s;
}

//===----------------------------------------------------------------------===//
// Seeds
//===----------------------------------------------------------------------===//

namespace {

std::string currentTestName() {
  const ::testing::TestInfo *info = ::testing::UnitTest::GetInstance()->current_test_info();
  return info ? std::string(info->test_suite_name()) + "." + info->name() : "";
}

} // namespace

uint64_t testSeed() {
  std::string fixed = env("HADRON_E2E_SEED");
  if (!fixed.empty())
    return std::strtoull(fixed.c_str(), nullptr, 0);
  uint64_t t = static_cast<uint64_t>(
      std::chrono::system_clock::now().time_since_epoch().count());
  // Tests started in the same tick still get different seeds.
  return (t ^ (std::hash<std::string>()(currentTestName()) * 0x9e3779b97f4a7c15ull)) %
         1000000000000ull;
}

std::string seedMessage(uint64_t seed) {
  return "seed " + std::to_string(seed) + " (replay: HADRON_E2E_SEED=" + std::to_string(seed) +
         " hadron-e2e --gtest_filter='" + currentTestName() + "')";
}

//===----------------------------------------------------------------------===//
// Layouts
//===----------------------------------------------------------------------===//

namespace {

int log2i(long v) {
  int k = 0;
  while ((1L << k) < v)
    ++k;
  return k;
}

} // namespace

std::string sliceOf(int dim, const std::string &parent) {
  return "#hd.slice<{dim = " + std::to_string(dim) + ", parent = " + parent + "}>";
}

std::string linearLayout(const std::vector<int> &shape, unsigned lanes, int numWarps,
                         const std::vector<int> &perm) {
  const int rank = static_cast<int>(shape.size());
  // Bit p of the row-major index is bit (p - low[d]) of coordinate d.
  std::vector<int> low(rank), bits(rank);
  int total = 0;
  for (int d = rank - 1; d >= 0; --d) {
    low[d] = total;
    bits[d] = log2i(shape[d]);
    total += bits[d];
  }
  auto basis = [&](int p) {
    std::vector<int> c(rank, 0);
    for (int d = 0; d < rank; ++d)
      if (p >= low[d] && p < low[d] + bits[d])
        c[d] = 1 << (p - low[d]);
    return listInts(c);
  };
  std::vector<int> zero(rank, 0);
  const int laneBits = log2i(lanes), warpBits = log2i(numWarps);
  const int regBits = std::max(0, total - laneBits - warpBits);
  std::vector<std::string> reg, lane, warp;
  size_t next = 0;
  for (int i = 0; i < regBits; ++i)
    reg.push_back(basis(perm[next++]));
  for (int i = 0; i < laneBits; ++i)
    lane.push_back(next < perm.size() ? basis(perm[next++]) : listInts(zero));
  for (int i = 0; i < warpBits; ++i)
    warp.push_back(next < perm.size() ? basis(perm[next++]) : listInts(zero));
  auto bases = [](const std::vector<std::string> &b) {
    std::string s = "[";
    for (size_t i = 0; i < b.size(); ++i)
      s += (i ? ", " : "") + b[i];
    return s + "]";
  };
  return "#hd.linear<{register = " + bases(reg) + ", lane = " + bases(lane) +
         ", warp = " + bases(warp) + ", block = []}>";
}

//===----------------------------------------------------------------------===//
// Building IR
//===----------------------------------------------------------------------===//

std::string shapeStr(const std::vector<int> &shape) { return joinInts(shape, "x"); }

std::string tensorType(const std::vector<int> &shape, const std::string &elem,
                       const std::string &layout) {
  return "tensor<" + shapeStr(shape) + "x" + elem + ", " + layout + ">";
}

std::string KernelBuilder::layout(const std::string &alias, const std::string &definition) {
  std::string name = alias[0] == '#' ? alias : "#" + alias;
  for (const auto &[n, d] : layouts_)
    if (n == name)
      return name;
  layouts_.emplace_back(name, definition);
  return name;
}

std::string KernelBuilder::arg(const std::string &type, const std::string &attrs) {
  std::string name = "%arg" + std::to_string(args_.size());
  args_.push_back(name + ": " + type + (attrs.empty() ? "" : " " + attrs));
  return name;
}

std::string KernelBuilder::fresh() { return "%v" + std::to_string(next_++); }

std::string KernelBuilder::let(const std::string &rhs) {
  std::string name = fresh();
  body_.push_back(name + " = " + rhs);
  return name;
}

std::vector<std::string> KernelBuilder::letMany(int count, const std::string &rhs) {
  std::string name = fresh();
  body_.push_back(name + ":" + std::to_string(count) + " = " + rhs);
  std::vector<std::string> names;
  for (int i = 0; i < count; ++i)
    names.push_back(name + "#" + std::to_string(i));
  return names;
}

void KernelBuilder::line(const std::string &text) { body_.push_back(text); }

std::string KernelBuilder::pointers(const std::string &base, const std::string &elem,
                                    const std::string &offsets, const std::vector<int> &shape,
                                    const std::string &layout) {
  std::string ptrType = tensorType(shape, "!hd.ptr<" + elem + ">", layout);
  std::string p = splat(base, ptrType);
  return let("hd.addptr " + p + ", " + offsets + " : " + ptrType + ", " +
             tensorType(shape, "i32", layout));
}

KernelBuilder::Tile KernelBuilder::tile1d(int n, const std::string &layout,
                                          const std::string &start, const std::string &limit) {
  std::string t = tensorType({n}, "i32", layout);
  std::string range = let("hd.arange 0 to " + std::to_string(n) + " : " + t);
  std::string offs = range;
  if (!start.empty())
    offs = let("arith.addi " + splat(start, t) + ", " + range + " : " + t);
  std::string mask;
  if (!limit.empty())
    mask = let("arith.cmpi slt, " + offs + ", " + splat(limit, t) + " : " + t);
  return {offs, mask};
}

KernelBuilder::Tile KernelBuilder::tile2d(const std::vector<int> &shape,
                                          const std::string &layout, const std::string &row0,
                                          const std::string &col0, const std::string &ld,
                                          const std::string &rows, const std::string &cols) {
  const int m = shape[0], n = shape[1];
  std::string rl = this->layout(layout + "_r", sliceOf(1, layout));
  std::string cl = this->layout(layout + "_c", sliceOf(0, layout));
  Tile r = tile1d(m, rl, row0, rows);
  Tile c = tile1d(n, cl, col0, cols);
  std::string rt = tensorType({m}, "i32", rl), ct = tensorType({n}, "i32", cl);
  std::string full = tensorType(shape, "i32", layout);
  std::string rowStart = let("arith.muli " + r.offsets + ", " + splat(ld, rt) + " : " + rt);
  std::string r2 = let("hd.expand_dims " + rowStart + " axis = 1 : " + rt + " -> " +
                       tensorType({m, 1}, "i32", layout));
  std::string c2 = let("hd.expand_dims " + c.offsets + " axis = 0 : " + ct + " -> " +
                       tensorType({1, n}, "i32", layout));
  std::string rb = let("hd.broadcast " + r2 + " : " + tensorType({m, 1}, "i32", layout) +
                       " -> " + full);
  std::string cb = let("hd.broadcast " + c2 + " : " + tensorType({1, n}, "i32", layout) +
                       " -> " + full);
  std::string offs = let("arith.addi " + rb + ", " + cb + " : " + full);
  std::string mask;
  if (!rows.empty() && !cols.empty()) {
    std::string rm2 = let("hd.expand_dims " + r.mask + " axis = 1 : " +
                          tensorType({m}, "i1", rl) + " -> " + tensorType({m, 1}, "i1", layout));
    std::string cm2 = let("hd.expand_dims " + c.mask + " axis = 0 : " +
                          tensorType({n}, "i1", cl) + " -> " + tensorType({1, n}, "i1", layout));
    std::string fullMask = tensorType(shape, "i1", layout);
    std::string rmb = let("hd.broadcast " + rm2 + " : " + tensorType({m, 1}, "i1", layout) +
                          " -> " + fullMask);
    std::string cmb = let("hd.broadcast " + cm2 + " : " + tensorType({1, n}, "i1", layout) +
                          " -> " + fullMask);
    mask = let("arith.andi " + rmb + ", " + cmb + " : " + fullMask);
  }
  return {offs, mask};
}

std::string KernelBuilder::str() const {
  std::string s;
  for (const auto &[name, def] : layouts_)
    s += name + " = " + def + "\n";
  s += "module attributes {hd.num_warps = " + std::to_string(numWarps_) + " : i32} {\n";
  s += "  func.func @" + name_ + "(";
  for (size_t i = 0; i < args_.size(); ++i)
    s += (i ? ", " : "") + args_[i];
  s += ") attributes {hd.kernel} {\n";
  for (const std::string &l : body_)
    s += "    " + l + "\n";
  s += "    return\n  }\n}\n";
  return s;
}

std::string numbered(const std::string &text) {
  std::istringstream in(text);
  std::string line, out;
  for (int n = 1; std::getline(in, line); ++n)
    out += (n < 10 ? "   " : n < 100 ? "  " : " ") + std::to_string(n) + "  " + line + "\n";
  return out;
}

//===----------------------------------------------------------------------===//
// Half precision
//===----------------------------------------------------------------------===//

Half toHalf(float f) {
  uint32_t x;
  std::memcpy(&x, &f, 4);
  const uint16_t sign = static_cast<uint16_t>((x >> 16) & 0x8000);
  const uint32_t a = x & 0x7fffffff;
  if (a >= 0x7f800000) // infinity or NaN (kept quiet, payload's top bits kept)
    return Half{static_cast<uint16_t>(sign | 0x7c00 |
                                      (a > 0x7f800000 ? 0x200 | ((a >> 13) & 0x3ff) : 0))};
  if (a >= 0x477ff000) // 65520 and up round to infinity
    return Half{static_cast<uint16_t>(sign | 0x7c00)};
  if (a < 0x38800000) { // below 2^-14: a subnormal half, in units of 2^-24
    float v;
    std::memcpy(&v, &a, 4);
    return Half{static_cast<uint16_t>(sign | static_cast<uint16_t>(std::nearbyint(v * 16777216.0f)))};
  }
  uint32_t h = ((((a >> 23) - 127 + 15) << 10) | ((a & 0x7fffff) >> 13));
  uint32_t rest = a & 0x1fff;
  if (rest > 0x1000 || (rest == 0x1000 && (h & 1)))
    ++h; // round to nearest even; a carry moves into the exponent correctly
  return Half{static_cast<uint16_t>(sign | h)};
}

float fromHalf(Half h) {
  const uint32_t sign = uint32_t(h.bits & 0x8000) << 16;
  const uint32_t e = (h.bits >> 10) & 0x1f, m = h.bits & 0x3ff;
  uint32_t bits;
  if (e == 0) {
    float v = std::ldexp(static_cast<float>(m), -24);
    return sign ? -v : v;
  }
  if (e == 31)
    bits = sign | 0x7f800000 | (m << 13);
  else
    bits = sign | ((e - 15 + 127) << 23) | (m << 13);
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

//===----------------------------------------------------------------------===//
// Programs
//===----------------------------------------------------------------------===//

int Program::add(const KernelBuilder &kernel) { return add(kernel.str(), kernel.name()); }

int Program::add(const std::string &ir, const std::string &kernel) {
  Session &s = session();
  auto entry = std::make_unique<Entry>();
  entry->name = kernel;
  std::string error;
  // HADRON_E2E_DUMP_DIR=<dir>: every kernel's IR as <dir>/<test>.<n>.mlir,
  // to inspect or recompile one by hand (docs: Main.cpp).
  static const std::string dumpDir = env("HADRON_E2E_DUMP_DIR");
  if (!dumpDir.empty()) {
    const ::testing::TestInfo *test = ::testing::UnitTest::GetInstance()->current_test_info();
    std::string file = test ? std::string(test->test_suite_name()) + "." + test->name() : "global";
    for (char &ch : file)
      if (!std::isalnum(static_cast<unsigned char>(ch)) && ch != '.' && ch != '_' && ch != '-')
        ch = '_';
    file = dumpDir + "/" + file + "." + std::to_string(kernels_.size()) + ".mlir";
    if (FILE *f = std::fopen(file.c_str(), "w")) {
      std::fwrite(ir.data(), 1, ir.size(), f);
      std::fclose(f);
    }
  }
  if (s.compileOnly) {
    hd_compile_options options{sizeof(options), s.arch.c_str(), 3, nullptr};
    hd_compiled *compiled = nullptr;
    hd_error err;
    hd_status status = hd_context_compile(s.context->get(), s.plugin.c_str(), ir.data(),
                                          ir.size(), &options, &compiled, &err);
    if (status != HD_OK) {
      error = err.message;
    } else {
      const hd_compiled_module *m = hd_compiled_get(compiled);
      bool found = false;
      for (uint32_t i = 0; i < m->num_kernels; ++i)
        found |= kernel == m->kernels[i].name;
      if (!found)
        error = "compiled, but the module has no kernel '" + kernel + "'";
      hd_compiled_destroy(compiled);
    }
  } else {
    auto module = s.device->loadIR(ir);
    if (!module) {
      error = module.status().message();
    } else {
      auto k = module->kernel(kernel);
      if (!k)
        error = k.status().message();
      else
        entry->kernel.emplace(*k);
      entry->module.emplace(std::move(module).value());
    }
  }
  if (!error.empty()) {
    // What core's distribute lowering says for a cross-thread move it has
    // no plan for yet (shuffles and shared-memory round trips are being
    // added).
    static const char kMoveNotLowered[] =
        "the elements move between threads, which this lowering does only through shuffles or "
        "shared memory (not available";
    ++failedKernels_;
    failedMoves_ += error.find(kMoveNotLowered) != std::string::npos;
    if (firstError_.empty())
      firstError_ = error;
    errors_ += "kernel " + kernel + " does not compile for " + s.describe() + ":\n" + error +
               "\n--- IR ---\n" + numbered(ir);
  }
  kernels_.push_back(std::move(entry));
  return static_cast<int>(kernels_.size()) - 1;
}

bool Program::movesNotLoweredYet() const {
  return failedKernels_ > 0 && failedMoves_ == failedKernels_;
}

std::string Program::compileOnlySummary() const {
  return "compile-only: " + std::to_string(kernels_.size()) + " kernel(s) compiled for " +
         session().plugin + ":" + session().arch;
}

const hd_kernel_signature *Program::signature(int k) const {
  if (k < 0 || k >= static_cast<int>(kernels_.size()) || !kernels_[k]->kernel)
    return nullptr;
  return &kernels_[k]->kernel->signature();
}

Status Program::launch(int k, std::array<uint32_t, 3> grid, const std::vector<hd_arg> &args,
                       std::vector<AnyBuf> outputs) {
  if (k < 0 || k >= static_cast<int>(kernels_.size()) || !kernels_[k]->kernel)
    return Status(HD_ERROR_INVALID_ARGUMENT, "kernel " + std::to_string(k) + " was not compiled");
  for (AnyBuf &b : outputs)
    if (Status s = b.poison(); !s)
      return s;
  const std::string &name = kernels_[k]->name;
  if (Status s = kernels_[k]->kernel->launch(grid, args); !s)
    return Status(s.code(), "launch of " + name + ": " + s.message());
  if (Status s = session().device->synchronize(); !s)
    return Status(s.code(), "synchronize after " + name + ": " + s.message());
  for (AnyBuf &b : outputs)
    if (Status s = b.download(); !s)
      return s;
  return Status();
}

//===----------------------------------------------------------------------===//
// Probes of the features being lowered
//===----------------------------------------------------------------------===//

namespace {

// A 32x32 f32 tile loaded from %in in #b (rows fastest-varying order [1, 0])
// and what the probe does with it; the result goes to %out in #b.
std::string probe(Feature feature) {
  const unsigned lanes = session().lanes;
  KernelBuilder k("probe", 4);
  std::string b = k.layout("b", Blocked{{1, 4}, {4, 8}, {4, 1}, {1, 0}}.str(lanes));
  std::string c = k.layout("c", Blocked{{4, 1}, {8, 4}, {1, 4}, {0, 1}}.str(lanes));
  std::string sw = k.layout("sw", "#hd.swizzled<{vec = 4, perPhase = 1, maxPhase = 8, order = [1, 0]}>");
  std::string in = k.arg("!hd.ptr<f32>"), out = k.arg("!hd.ptr<f32>");
  std::string c32 = k.constI32(32), c0 = k.constI32(0);
  auto t = k.tile2d({32, 32}, b, c0, c0, c32, "", "");
  std::string bt = tensorType({32, 32}, "f32", b);
  std::string ptrs = k.pointers(in, "f32", t.offsets, {32, 32}, b);
  std::string x = k.let("hd.load " + ptrs + " : " + tensorType({32, 32}, "!hd.ptr<f32>", b));
  std::string md = "!hd.memdesc<32x32xf32, " + sw + ">";
  std::string y = x;
  switch (feature) {
  case Feature::SharedMemory: {
    std::string m = k.let("hd.local_alloc " + x + " : " + bt + " -> " + md);
    std::string z = k.let("hd.local_load " + m + " : " + md + " -> " + bt);
    std::string e = k.let("hd.local_alloc -> " + md);
    k.line("hd.local_store " + z + ", " + e + " : " + bt + " -> " + md);
    y = k.let("hd.local_load " + e + " : " + md + " -> " + bt);
    k.line("hd.local_dealloc " + e + " : " + md);
    k.line("hd.local_dealloc " + m + " : " + md);
    break;
  }
  case Feature::MemdescViews: {
    std::string sw3 = k.layout("sw3", "#hd.swizzled<{vec = 4, perPhase = 1, maxPhase = 8, order = [2, 1, 0]}>");
    std::string md3 = "!hd.memdesc<2x32x32xf32, " + sw3 + ">";
    std::string bufs = k.let("hd.local_alloc -> " + md3);
    std::string one = k.constI32(1);
    std::string view = "!hd.memdesc<32x32xf32, " + sw3 + ", alloc = 2x32x32>";
    std::string v = k.let("hd.memdesc_index " + bufs + "[" + one + "] : " + md3 + " -> " + view);
    k.line("hd.local_store " + x + ", " + v + " : " + bt + " -> " + view);
    std::string m = k.let("hd.local_alloc " + x + " : " + bt + " -> " + md);
    std::string swT = k.layout("sw_t", "#hd.swizzled<{vec = 4, perPhase = 1, maxPhase = 8, order = [0, 1]}>");
    std::string mdT = "!hd.memdesc<32x32xf32, " + swT + ">";
    std::string tr = k.let("hd.memdesc_permute " + m + ", [1, 0] : " + md + " -> " + mdT);
    std::string half = k.let("hd.memdesc_slice " + m + " [16, 0] : " + md +
                             " -> !hd.memdesc<16x32xf32, " + sw + ", alloc = 32x32>");
    (void)half;
    y = k.let("hd.local_load " + tr + " : " + mdT + " -> " + bt);
    k.line("hd.local_dealloc " + m + " : " + md);
    k.line("hd.local_dealloc " + bufs + " : " + md3);
    break;
  }
  case Feature::AsyncCopy: {
    std::string m = k.let("hd.local_alloc -> " + md);
    std::string tok = k.let("hd.async_copy " + ptrs + ", " + m + " : " +
                            tensorType({32, 32}, "!hd.ptr<f32>", b) + " -> " + md);
    std::string g = k.let("hd.async_commit_group " + tok);
    k.let("hd.async_wait " + g + " pending = 0");
    y = k.let("hd.local_load " + m + " : " + md + " -> " + bt);
    k.line("hd.local_dealloc " + m + " : " + md);
    break;
  }
  case Feature::Barrier: {
    std::string m = k.let("hd.local_alloc -> " + md);
    k.line("hd.local_store " + x + ", " + m + " : " + bt + " -> " + md);
    k.line("hd.barrier");
    y = k.let("hd.local_load " + m + " : " + md + " -> " + bt);
    k.line("hd.local_dealloc " + m + " : " + md);
    break;
  }
  case Feature::CrossLaneConvert: {
    std::string ct = tensorType({32, 32}, "f32", c);
    std::string z = k.let("hd.convert_layout " + x + " : " + bt + " -> " + ct);
    y = k.let("hd.convert_layout " + z + " : " + ct + " -> " + bt);
    break;
  }
  case Feature::CrossWarpReduce: {
    // #b spreads dim 0 over lanes and warps.
    std::string cl = k.layout("b_c", sliceOf(0, b));
    std::string rt = tensorType({32}, "f32", cl);
    std::string a = k.fresh(), bb = k.fresh();
    std::string r = k.let("hd.reduce(" + x + ") axis = 0 : (" + bt + ") -> " + rt + " {");
    k.line("^bb0(" + a + ": f32, " + bb + ": f32):");
    std::string s = k.let("arith.addf " + a + ", " + bb + " : f32");
    k.line("hd.yield " + s + " : f32");
    k.line("}");
    std::string e = k.let("hd.expand_dims " + r + " axis = 0 : " + rt + " -> " +
                          tensorType({1, 32}, "f32", b));
    y = k.let("hd.broadcast " + e + " : " + tensorType({1, 32}, "f32", b) + " -> " + bt);
    break;
  }
  }
  std::string optrs = k.pointers(out, "f32", t.offsets, {32, 32}, b);
  k.line("hd.store " + optrs + ", " + y + " : " + tensorType({32, 32}, "!hd.ptr<f32>", b));
  return k.str();
}

} // namespace

bool lowered(Feature feature, std::string *why) {
  static std::mutex mutex;
  static std::map<Feature, std::string> results; // empty = compiles
  std::lock_guard<std::mutex> lock(mutex);
  auto found = results.find(feature);
  if (found == results.end()) {
    Program p;
    p.add(probe(feature), "probe");
    found = results.emplace(feature, p.firstError()).first;
  }
  if (why)
    *why = found->second;
  return found->second.empty();
}

//===----------------------------------------------------------------------===//
// Comparisons and odds and ends
//===----------------------------------------------------------------------===//

void expectAll(size_t n, const std::function<std::optional<std::string>(size_t)> &check,
               const std::string &what) {
  size_t bad = 0;
  std::string shown;
  for (size_t i = 0; i < n; ++i) {
    std::optional<std::string> problem = check(i);
    if (!problem)
      continue;
    if (++bad <= 10)
      shown += "\n  [" + std::to_string(i) + "] " + *problem;
  }
  if (bad)
    ADD_FAILURE() << what << ": " << bad << " of " << n << " elements wrong" << shown
                  << (bad > 10 ? "\n  ..." : "");
}

int64_t ulpDistance(double a, double b, bool single) {
  auto ordered = [single](double v) -> int64_t {
    if (single) {
      float f = static_cast<float>(v);
      int32_t i;
      std::memcpy(&i, &f, 4);
      return i < 0 ? -int64_t(i & 0x7fffffff) : i;
    }
    int64_t i;
    std::memcpy(&i, &v, 8);
    return i < 0 ? -(i & 0x7fffffffffffffffll) : i;
  };
  int64_t d = ordered(a) - ordered(b);
  return d < 0 ? -d : d;
}

int tailSize(std::mt19937_64 &rng, int tile, int max) {
  std::uniform_int_distribution<int> d(1, max);
  if (max < tile)
    return d(rng);
  for (;;) {
    int n = d(rng);
    if (n % tile != 0)
      return n;
  }
}

std::string identifier(const std::string &text) {
  std::string s;
  for (char c : text)
    s += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  return s;
}

} // namespace hadron::e2e
