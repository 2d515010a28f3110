//===- E2E.cpp - The end-to-end suite's shared machinery -----------------===//

#include "E2E.h"

#include <cctype>
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
  // Tests started in the same tick still get different seeds.
  return testkit::seedFromEnv("HADRON_E2E_SEED")
      .value_or(testkit::deriveSeed(testkit::clockSeed(), currentTestName()));
}

std::string seedMessage(uint64_t seed) {
  return "seed " + std::to_string(seed) + " (replay: HADRON_E2E_SEED=" + std::to_string(seed) +
         " hadron-e2e --gtest_filter='" + currentTestName() + "')";
}

std::string numbered(const std::string &text) {
  std::istringstream in(text);
  std::string line, out;
  for (int n = 1; std::getline(in, line); ++n)
    out += (n < 10 ? "   " : n < 100 ? "  " : " ") + std::to_string(n) + "  " + line + "\n";
  return out;
}

//===----------------------------------------------------------------------===//
// Programs
//===----------------------------------------------------------------------===//

int Program::add(const KernelBuilder &kernel) { return add(kernel.str(), kernel.name()); }

int Program::addBuilt(const std::string &key, const std::string &kernel) {
  std::string ir = builtKernelIR(key);
  if (ir.empty())
    ADD_FAILURE() << "no built kernel " << key << " (tests/kernels)";
  return add(ir, kernel);
}

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
  std::string bt = tensor({32, 32}, "f32", b);
  std::string ptrs = k.pointers(in, "f32", t.offsets, {32, 32}, b);
  std::string x = k.let("hd.load " + ptrs + " : " + tensor({32, 32}, "!hd.ptr<f32>", b));
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
                            tensor({32, 32}, "!hd.ptr<f32>", b) + " -> " + md);
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
    std::string ct = tensor({32, 32}, "f32", c);
    std::string z = k.let("hd.convert_layout " + x + " : " + bt + " -> " + ct);
    y = k.let("hd.convert_layout " + z + " : " + ct + " -> " + bt);
    break;
  }
  case Feature::CrossWarpReduce: {
    // #b spreads dim 0 over lanes and warps.
    std::string cl = k.layout("b_c", slice(0, b));
    std::string rt = tensor({32}, "f32", cl);
    std::string a = k.fresh(), bb = k.fresh();
    std::string r = k.let("hd.reduce(" + x + ") axis = 0 : (" + bt + ") -> " + rt + " {");
    k.line("^bb0(" + a + ": f32, " + bb + ": f32):");
    std::string s = k.let("arith.addf " + a + ", " + bb + " : f32");
    k.line("hd.yield " + s + " : f32");
    k.line("}");
    std::string e = k.let("hd.expand_dims " + r + " axis = 0 : " + rt + " -> " +
                          tensor({1, 32}, "f32", b));
    y = k.let("hd.broadcast " + e + " : " + tensor({1, 32}, "f32", b) + " -> " + bt);
    break;
  }
  }
  std::string optrs = k.pointers(out, "f32", t.offsets, {32, 32}, b);
  k.line("hd.store " + optrs + ", " + y + " : " + tensor({32, 32}, "!hd.ptr<f32>", b));
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

void expectMatches(const testkit::Array &got, const testkit::Array &want,
                   const testkit::Tolerance &tol, const std::string &what) {
  if (auto m = testkit::compare(what, want, got, tol, false))
    ADD_FAILURE() << what << ": " << m->count << " of " << want.size() << " elements wrong ("
                  << tol.str() << "); first [" << m->index << "]: got " << m->got << ", want "
                  << m->expected;
}

std::string identifier(const std::string &text) {
  std::string s;
  for (char c : text)
    s += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  return s;
}

} // namespace hadron::e2e
