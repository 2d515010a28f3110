//===- Runner.cpp - Cases x targets ---------------------------------------===//

#include "Runner.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>

extern char **environ;

namespace hadron::conformance {

const char *outcomeName(Outcome o) {
  switch (o) {
  case Outcome::Pass: return "pass";
  case Outcome::Fail: return "fail";
  case Outcome::XFail: return "xfail";
  case Outcome::XPass: return "xpass";
  case Outcome::Unsupported: return "unsupported";
  case Outcome::CompileOnly: return "compile-only";
  case Outcome::NoDevice: return "no-device";
  }
  return "?";
}

bool failsRun(Outcome o) { return o == Outcome::Fail || o == Outcome::XPass; }

bool Summary::failed() const {
  return counts[static_cast<int>(Outcome::Fail)] || counts[static_cast<int>(Outcome::XPass)] ||
         differentialFailures;
}

std::string Summary::str() const {
  std::string s;
  for (int o = 0; o < 7; ++o)
    if (counts[o])
      s += (s.empty() ? "" : ", ") + std::to_string(counts[o]) + " " +
           outcomeName(static_cast<Outcome>(o));
  if (differentialFailures)
    s += ", " + std::to_string(differentialFailures) + " differential disagreement(s)";
  return s.empty() ? "nothing ran" : s;
}

namespace {

double msSince(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

/// FNV-1a: stable across builds and machines, unlike std::hash.
uint64_t fnv(const void *data, size_t n, uint64_t h = 0xcbf29ce484222325ull) {
  const auto *p = static_cast<const uint8_t *>(data);
  for (size_t i = 0; i < n; ++i)
    h = (h ^ p[i]) * 0x100000001b3ull;
  return h;
}

std::string env(const char *name) {
  const char *v = std::getenv(name);
  return v ? v : "";
}

std::string deviceDescription(const hd_device_info &i) {
  auto mib = [](uint64_t b) {
    std::ostringstream s;
    if (b >= (1ull << 30))
      s.precision(3), s << double(b) / double(1ull << 30) << " GiB";
    else if (b >= (1ull << 20))
      s << b / (1ull << 20) << " MiB";
    else
      s << b / 1024 << " KiB";
    return s.str();
  };
  std::string s = std::string(i.name) + ", arch " + i.arch + ", warp size " +
                  std::to_string(i.warp_size) + ", max threads/CTA " +
                  std::to_string(i.max_threads_per_cta) + ", compute units " +
                  std::to_string(i.compute_units) + ", shared/CTA " + mib(i.shared_bytes_per_cta) +
                  ", global " + mib(i.global_bytes);
  if (i.l2_bytes)
    s += ", L2 " + mib(i.l2_bytes);
  return s;
}

/// Captures what is written to fd 1 between start() and stop().
class StdoutCapture {
public:
  bool start() {
    std::fflush(stdout);
    file_ = std::tmpfile();
    if (!file_)
      return false;
    saved_ = dup(1);
    if (saved_ < 0 || dup2(fileno(file_), 1) < 0)
      return false;
    return true;
  }
  std::string stop() {
    std::fflush(stdout);
    if (saved_ >= 0) {
      dup2(saved_, 1);
      close(saved_);
      saved_ = -1;
    }
    std::string out;
    if (file_) {
      std::rewind(file_);
      char buf[4096];
      size_t n;
      while ((n = std::fread(buf, 1, sizeof buf, file_)) > 0 && out.size() < (1u << 20))
        out.append(buf, n);
      std::fclose(file_);
      file_ = nullptr;
    }
    return out;
  }
  ~StdoutCapture() {
    if (saved_ >= 0 || file_)
      stop();
  }

private:
  FILE *file_ = nullptr;
  int saved_ = -1;
};

std::string firstLines(const std::string &text, size_t maxLines) {
  std::istringstream in(text);
  std::string line, out;
  for (size_t n = 0; std::getline(in, line); ++n) {
    if (n == maxLines) {
      out += "...";
      break;
    }
    out += line + "\n";
  }
  return out;
}

std::string trimmed(std::string s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == ' '))
    s.pop_back();
  return s;
}

} // namespace

//===----------------------------------------------------------------------===//
// Comparisons
//===----------------------------------------------------------------------===//

std::optional<Mismatch> compareOutput(const Buffer &b, const Array &got) {
  if (b.check)
    return b.check(got);
  return testkit::compare(b.name, b.want, got, b.tol, b.role == Buffer::Output);
}

std::optional<Mismatch> compareDevices(const Array &a, const Array &b, const Tolerance &tol) {
  const std::string what = "second device vs first";
  if (a.size() != b.size() || a.elem() != b.elem())
    return Mismatch{0, std::to_string(a.size()) + " elements",
                    std::to_string(b.size()) + " elements", 1, what};
  // Poison in the first device's output is a value to agree with here.
  return testkit::compare(what, a, b, tol, false);
}

//===----------------------------------------------------------------------===//
// Validation by the vendors' tools
//===----------------------------------------------------------------------===//

namespace {

std::string findTool(const std::vector<std::string> &names) {
  std::vector<std::string> dirs;
  std::stringstream path(env("PATH"));
  std::string d;
  while (std::getline(path, d, ':'))
    if (!d.empty())
      dirs.push_back(d);
  dirs.push_back("/usr/local/cuda/bin");
  dirs.push_back("/usr/lib/llvm-22/bin");
  for (const std::string &name : names)
    for (const std::string &dir : dirs) {
      std::string p = dir + "/" + name;
      if (access(p.c_str(), X_OK) == 0)
        return p;
    }
  return "";
}

/// A temporary file holding `data`; removed with the object.
struct TempFile {
  std::string path;
  explicit TempFile(const void *data, size_t size, const char *suffix) {
    const char *tmp = std::getenv("TMPDIR");
    std::string pattern = std::string(tmp && *tmp ? tmp : "/tmp") + "/hadron-conf-XXXXXX" + suffix;
    std::vector<char> buf(pattern.begin(), pattern.end());
    buf.push_back(0);
    int fd = mkstemps(buf.data(), static_cast<int>(std::strlen(suffix)));
    if (fd < 0)
      return;
    const char *p = static_cast<const char *>(data);
    size_t left = size;
    while (left > 0) {
      ssize_t w = write(fd, p, left);
      if (w <= 0)
        break;
      p += w;
      left -= static_cast<size_t>(w);
    }
    close(fd);
    path = buf.data();
  }
  ~TempFile() {
    if (!path.empty())
      unlink(path.c_str());
  }
};

/// Runs `argv`, returns the exit status (-1 when it cannot start) and its
/// stdout+stderr in `output`.
int runTool(const std::vector<std::string> &argv, std::string &output) {
  TempFile out("", 0, ".log");
  if (out.path.empty())
    return -1;
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, out.path.c_str(), O_WRONLY | O_TRUNC, 0);
  posix_spawn_file_actions_adddup2(&actions, 1, 2);
  std::vector<char *> args;
  for (const std::string &a : argv)
    args.push_back(const_cast<char *>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid;
  int rc = posix_spawn(&pid, args[0], &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0)
    return -1;
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  std::ifstream f(out.path);
  std::stringstream s;
  s << f.rdbuf();
  output = s.str();
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
}

uint16_t elfMachine(const hd_compiled_module &m) {
  const auto *b = static_cast<const uint8_t *>(m.binary);
  if (m.binary_size < 20 || std::memcmp(b, "\x7f" "ELF", 4) != 0)
    return 0;
  return static_cast<uint16_t>(b[18] | (b[19] << 8));
}

} // namespace

bool validateBinary(const hd_compiled_module &m, const std::string &kernel,
                    const std::string &arch, std::string &what) {
  const auto *b = static_cast<const uint8_t *>(m.binary);
  const uint16_t machine = elfMachine(m);
  const bool spirv = m.binary_size >= 4 && b[0] == 0x03 && b[1] == 0x02 && b[2] == 0x23 &&
                     b[3] == 0x07;
  const bool ptxText = m.binary_size > 8 && !machine && !spirv &&
                       std::string(reinterpret_cast<const char *>(b),
                                   std::min<size_t>(m.binary_size, 4096))
                               .find(".version") != std::string::npos;
  std::string output;
  if (machine == 190 /* EM_CUDA: a cubin */ || ptxText) {
    // ptxas again on the PTX: the binary must come from valid PTX for this
    // arch (the plugin ran ptxas already when it made a cubin).
    std::string ptxas = findTool({"ptxas"});
    if (ptxas.empty()) {
      what = "ptxas: not installed";
      return true;
    }
    const char *ptx = m.assembly ? m.assembly : reinterpret_cast<const char *>(b);
    size_t size = m.assembly ? std::strlen(m.assembly) : m.binary_size;
    TempFile in(ptx, size, ".ptx");
    TempFile out("", 0, ".cubin");
    int rc = runTool({ptxas, "-arch=" + arch, "-o", out.path, in.path}, output);
    if (rc != 0) {
      what = "ptxas -arch=" + arch + " failed (" + std::to_string(rc) + "): " + firstLines(output, 8);
      return false;
    }
    what = "ptxas: ok";
    if (ptx == m.assembly && std::string(ptx).find(".entry " + kernel) == std::string::npos &&
        std::string(ptx).find(".entry\t" + kernel) == std::string::npos) {
      what = "ptxas: the PTX has no .entry " + kernel;
      return false;
    }
    return true;
  }
  if (spirv) {
    std::string val = findTool({"spirv-val"});
    if (val.empty()) {
      what = "spirv-val: not installed";
      return true;
    }
    TempFile in(m.binary, m.binary_size, ".spv");
    int rc = runTool({val, in.path}, output);
    if (rc != 0) {
      what = "spirv-val failed: " + firstLines(output, 8);
      return false;
    }
    what = "spirv-val: ok";
    return true;
  }
  if (machine) {
    std::string readobj = findTool({"llvm-readobj-22", "llvm-readobj"});
    if (readobj.empty()) {
      what = "llvm-readobj: not installed";
      return true;
    }
    TempFile in(m.binary, m.binary_size, ".o");
    const bool amdgpu = machine == 224; // EM_AMDGPU: the code object's metadata note
    int rc = runTool({readobj, amdgpu ? "--notes" : "--dyn-symbols", in.path}, output);
    if (rc != 0) {
      what = "llvm-readobj failed: " + firstLines(output, 8);
      return false;
    }
    if (amdgpu && output.find("amdhsa.kernels") == std::string::npos) {
      what = "llvm-readobj --notes: no amdhsa.kernels metadata";
      return false;
    }
    if (output.find(kernel) == std::string::npos) {
      what = std::string("llvm-readobj ") + (amdgpu ? "--notes" : "--dyn-symbols") +
             ": no kernel '" + kernel + "'";
      return false;
    }
    what = std::string("llvm-readobj ") + (amdgpu ? "--notes" : "--dyn-symbols") + ": ok";
    return true;
  }
  what = "no validator for this binary format";
  return true;
}

//===----------------------------------------------------------------------===//
// The runner
//===----------------------------------------------------------------------===//

Runner::~Runner() { hd_context_destroy(ctx_); }

runtime::Expected<std::unique_ptr<Runner>> Runner::create(const Options &options) {
  std::unique_ptr<Runner> r(new Runner());
  r->options_ = options;
  r->seed_ = options.seed.value_or(
      testkit::seedFromEnv("HADRON_CONFORMANCE_SEED").value_or(testkit::clockSeed()));
  hd_error err;
  if (hd_status s = hd_context_create(&r->ctx_, &err))
    return runtime::Status(s, std::string("hd_context_create failed: ") + err.message);
  const std::string dir = options.expectationsDir;
  auto loadExpectations = [&](Target &t) {
    return dir.empty() ? runtime::Status()
                       : Expectations::load(dir, t.plugin, t.arch, t.expectations);
  };
  auto wrong = [](const std::string &message) {
    return runtime::Status(HD_ERROR_INVALID_ARGUMENT, message);
  };

  // Devices.
  std::vector<hd_device *> picked;
  std::vector<std::string> pickedArchs; // per picked device; empty = its own
  const std::string sel = options.devices.empty() ? "all" : options.devices;
  if (sel == "all") {
    for (uint32_t i = 0, n = hd_context_device_count(r->ctx_); i < n; ++i) {
      hd_device *d = nullptr;
      if (hd_context_get_device(r->ctx_, i, &d, nullptr) == HD_OK)
        picked.push_back(d);
    }
  } else if (sel != "none") {
    std::stringstream s(sel);
    std::string term;
    while (std::getline(s, term, ',')) {
      // "selector@arch": the device, with kernels compiled for that arch.
      std::string arch;
      if (size_t at = term.find('@'); at != std::string::npos) {
        arch = term.substr(at + 1);
        term.resize(at);
        if (arch.empty())
          return wrong("--device '" + term + "@': no arch after '@'");
      }
      hd_device *d = nullptr;
      if (hd_status s = hd_context_select(r->ctx_, term.c_str(), &d, &err))
        return runtime::Status(s, "--device '" + term + "': " + err.message);
      picked.push_back(d);
      pickedArchs.push_back(arch);
    }
  }
  std::map<std::string, int> seen;
  for (size_t i = 0; i < picked.size(); ++i) {
    hd_device *d = picked[i];
    Target t;
    t.kind = Target::Device;
    t.device = d;
    t.plugin = hd_device_plugin_name(d);
    t.id = hd_device_name(d);
    t.compileArch = i < pickedArchs.size() ? pickedArchs[i] : "";
    if (!t.compileArch.empty()) {
      std::string archs;
      bool known = false;
      hd_plugin_info info{};
      for (uint32_t p = 0, n = hd_context_plugin_count(r->ctx_); p < n; ++p)
        if (hd_context_plugin_info(r->ctx_, p, &info, nullptr) == HD_OK && t.plugin == info.name)
          for (const char *const *a = info.archs; a && *a; ++a) {
            known |= t.compileArch == *a;
            archs += std::string(archs.empty() ? "" : ", ") + *a;
          }
      if (!known)
        return wrong("--device '" + t.id + "@" + t.compileArch + "': plugin '" + t.plugin +
                     "' has no arch '" + t.compileArch + "' (it has: " + archs + ")");
      t.id += "@" + t.compileArch;
    }
    // The same device twice (differential runs against itself) gets a suffix.
    if (int n = seen[t.id]++)
      t.id += "#" + std::to_string(n + 1);
    hd_device_get_info(d, &t.info, nullptr);
    t.arch = t.compileArch.empty() ? std::string(t.info.arch) : t.compileArch;
    t.lanes = t.info.warp_size > 1 ? t.info.warp_size : 32;
    t.description = deviceDescription(t.info);
    if (!t.compileArch.empty())
      t.description += ", kernels compiled for " + t.compileArch;
    if (runtime::Status s = loadExpectations(t); !s)
      return s;
    r->targets_.push_back(std::move(t));
  }

  // Compile-only targets.
  std::vector<std::string> pluginsWithTarget;
  for (const std::string &spec : options.compileTargets) {
    Target t;
    t.kind = Target::CompileOnly;
    size_t colon = spec.find(':');
    t.plugin = spec.substr(0, colon);
    t.arch = colon == std::string::npos ? "" : spec.substr(colon + 1);
    const hd_plugin_info *found = nullptr;
    hd_plugin_info info{};
    std::string loaded;
    for (uint32_t i = 0, n = hd_context_plugin_count(r->ctx_); i < n; ++i)
      if (hd_context_plugin_info(r->ctx_, i, &info, nullptr) == HD_OK) {
        loaded += std::string(loaded.empty() ? "" : ", ") + info.name;
        if (t.plugin == info.name) {
          found = &info;
          break;
        }
      }
    if (!found)
      return wrong("--target '" + spec + "': no plugin '" + t.plugin +
                   "' is loaded (loaded: " + (loaded.empty() ? "none" : loaded) + ")");
    if (t.arch.empty())
      t.arch = found->default_arch ? found->default_arch : "";
    bool known = false;
    std::string archs;
    for (const char *const *a = found->archs; a && *a; ++a) {
      known |= t.arch == *a;
      archs += std::string(archs.empty() ? "" : ", ") + *a;
    }
    if (!known)
      return wrong("--target '" + spec + "': plugin '" + t.plugin + "' has no arch '" + t.arch +
                   "' (it has: " + archs + ")");
    t.id = t.plugin + ":" + t.arch;
    t.description = "compile-only, plugin " + t.plugin + " arch " + t.arch;
    if (runtime::Status s = loadExpectations(t); !s)
      return s;
    t.lanes = t.expectations.lanes() ? t.expectations.lanes() : 32;
    t.description += ", layouts for " + std::to_string(t.lanes) + " lanes";
    pluginsWithTarget.push_back(t.plugin);
    r->targets_.push_back(std::move(t));
  }

  // Plugins with no device that were not asked to compile: say why.
  if (sel == "all") {
    for (uint32_t i = 0, n = hd_context_plugin_count(r->ctx_); i < n; ++i) {
      hd_plugin_info info{};
      if (hd_context_plugin_info(r->ctx_, i, &info, nullptr) != HD_OK || info.device_count > 0)
        continue;
      if (std::find(pluginsWithTarget.begin(), pluginsWithTarget.end(), info.name) !=
          pluginsWithTarget.end())
        continue;
      Target t;
      t.kind = Target::NoDevice;
      t.plugin = info.name;
      t.id = info.name;
      t.description = std::string("no device: ") + hd_status_name(info.init_status);
      for (uint32_t j = 0, m = hd_context_load_report_count(r->ctx_); j < m; ++j) {
        hd_load_record rec{};
        if (hd_context_load_report_get(r->ctx_, j, &rec, nullptr) == HD_OK && rec.plugin &&
            t.plugin == rec.plugin)
          t.description += std::string(": ") + rec.reason;
      }
      r->targets_.push_back(std::move(t));
    }
  }
  r->addMatrixInstructions();
  return r;
}

void Runner::addMatrixInstructions() {
  cases_ = allCases();
  // Names by "plugin:arch"; each instruction once, as the first plugin and
  // arch that reported it wrote it.
  std::map<std::string, std::vector<std::string>> byArch;
  std::vector<MatrixInstr> instrs;
  std::map<std::string, std::string> textOf;
  for (uint32_t i = 0, n = hd_context_plugin_count(ctx_); i < n; ++i) {
    hd_plugin_info info{};
    if (hd_context_plugin_info(ctx_, i, &info, nullptr) != HD_OK)
      continue;
    for (const char *const *arch = info.archs; arch && *arch; ++arch) {
      const std::string where = std::string(info.name) + ":" + *arch;
      uint32_t count = 0;
      const char *const *texts = nullptr;
      hd_error err;
      if (hd_context_matrix_instructions(ctx_, info.name, *arch, &count, &texts, &err) != HD_OK) {
        notes_.push_back(where + ": matrix instructions unknown, so no dot.mma cases of them: " +
                         err.message);
        continue;
      }
      std::vector<std::string> &names = byArch[where];
      for (uint32_t t = 0; t < count; ++t) {
        runtime::Expected<MatrixInstr> mi = parseMatrixInstr(texts[t]);
        if (!mi) {
          notes_.push_back(where + ": " + mi.status().message());
          continue;
        }
        names.push_back(mi->name);
        auto [known, added] = textOf.emplace(mi->name, mi->attribute);
        if (added)
          instrs.push_back(*mi);
        else if (known->second != mi->attribute)
          notes_.push_back(where + ": matrix instruction " + mi->name +
                           " differs from the one of the same name another arch reported; "
                           "its case uses the first");
      }
    }
  }
  for (std::string &problem : addMatrixDotCases(cases_, instrs))
    notes_.push_back(std::move(problem));
  for (Target &t : targets_)
    if (auto found = byArch.find(t.plugin + ":" + t.arch); found != byArch.end())
      t.matrixInstrs = found->second;
}

std::vector<const Case *> Runner::cases() const {
  std::vector<const Case *> out;
  for (const Case &c : cases_)
    if (filterMatch(options_.filter, c.name))
      out.push_back(&c);
  return out;
}

uint64_t Runner::caseSeed(const std::string &caseName) const {
  return testkit::deriveSeed(seed_, caseName);
}

std::string Runner::replay(const std::string &caseName, const std::string &target) const {
  const Target *t = nullptr;
  for (const Target &x : targets_)
    if (x.id == target)
      t = &x;
  std::string where = !t ? "" : t->kind == Target::CompileOnly ? " --device none --target " + t->id
                                                               : " --device " + t->plugin + ":" +
                                                                     std::to_string(hd_device_index(t->device)) +
                                                                     (t->compileArch.empty() ? "" : "@" + t->compileArch);
  return "hadron conformance --seed " + std::to_string(seed_) + " --filter '" + caseName + "'" +
         where;
}

Result Runner::run(const Case &c, Target &t) {
  Result r;
  r.caseName = c.name;
  r.target = t.id;
  r.seed = caseSeed(c.name);
  if (t.kind == Target::NoDevice) {
    r.outcome = Outcome::NoDevice;
    r.message = t.description;
    return r;
  }
  const bool foldsWarps = t.kind == Target::Device && t.info.warp_size == 1;
  if (!c.matrixInstr.empty() && !foldsWarps &&
      std::find(t.matrixInstrs.begin(), t.matrixInstrs.end(), c.matrixInstr) ==
          t.matrixInstrs.end()) {
    std::string has;
    for (const std::string &name : t.matrixInstrs)
      has += (has.empty() ? "" : ", ") + name;
    r.outcome = Outcome::Unsupported;
    r.message = t.plugin + " arch " + t.arch + " has no matrix instruction " + c.matrixInstr +
                " (its compiler part reports " + (has.empty() ? "none" : has) + ")";
    return r;
  }
  const Expectation *e = t.expectations.find(c.name);
  if (e && e->kind == Expectation::Unsupported) {
    r.outcome = Outcome::Unsupported;
    r.message = e->reason + " (" + e->file + ")";
    return r;
  }
  std::mt19937_64 rng(r.seed);
  Env envr;
  envr.lanes = t.lanes;
  envr.rng = &rng;
  Plan plan = c.build(envr);
  r.note = plan.note;
  uint64_t h = fnv(plan.ir.data(), 0);
  for (const Buffer &b : plan.buffers)
    if (b.role != Buffer::Output)
      h = fnv(b.init.data(), b.init.bytes(), h);
  r.inputHash = h;

  if (t.kind == Target::CompileOnly)
    r = compileOnly(c, t, plan, std::move(r));
  else
    r = runOnDevice(c, t, plan, std::move(r));

  if (!e)
    return r;
  const std::string why = e->reason + " (" + e->file + ")";
  const bool failed = r.outcome == Outcome::Fail;
  if (e->kind == Expectation::XFailCompile) {
    // Expected not to compile: a failure to compile is the xfail, compiling is XPASS.
    if (!r.compiled) {
      r.outcome = Outcome::XFail;
      r.message = why + "; got: " + firstLines(r.message, 3);
    } else {
      r.message = "XPASS: expected not to compile (" + why + "), but it compiled" +
                  (failed ? "; then: " + r.message : std::string());
      r.outcome = Outcome::XPass;
    }
    return r;
  }
  // xfail: any failure.
  if (failed) {
    r.outcome = Outcome::XFail;
    r.message = why + "; got: " + firstLines(r.message, 3);
  } else if (r.outcome == Outcome::Pass) {
    r.outcome = Outcome::XPass;
    r.message = "XPASS: expected to fail (" + why + "), but it passed: remove the entry";
  } else if (r.outcome == Outcome::CompileOnly) {
    r.message = "compiles; xfail at run time (" + why + ") is not checked without a device";
  }
  return r;
}

Result Runner::compileOnly(const Case &c, Target &t, Plan &plan, Result r) {
  hd_compile_options options{sizeof(options), t.arch.c_str(), 3, nullptr};
  hd_compiled *compiled = nullptr;
  hd_error err;
  auto t0 = std::chrono::steady_clock::now();
  hd_status s = hd_context_compile(ctx_, t.plugin.c_str(), plan.ir.data(), plan.ir.size(),
                                   &options, &compiled, &err);
  r.compileMs = msSince(t0);
  if (s != HD_OK) {
    r.outcome = Outcome::Fail;
    r.message = std::string("compile failed: ") + hd_status_name(s) + ": " + err.message;
    return r;
  }
  r.compiled = true;
  const hd_compiled_module *m = hd_compiled_get(compiled);
  bool found = false;
  for (uint32_t i = 0; i < m->num_kernels; ++i)
    found |= plan.kernel == m->kernels[i].name;
  if (!found) {
    r.outcome = Outcome::Fail;
    r.message = "compiled, but the module has no kernel '" + plan.kernel + "'";
  } else {
    // The validation's time is the cell's "run" time.
    auto t1 = std::chrono::steady_clock::now();
    const bool valid = validateBinary(*m, plan.kernel, t.arch, r.validation);
    r.runMs = msSince(t1);
    r.outcome = valid ? Outcome::CompileOnly : Outcome::Fail;
    if (!valid)
      r.message = "binary rejected: " + r.validation;
  }
  hd_compiled_destroy(compiled);
  (void)c;
  return r;
}

Result Runner::runOnDevice(const Case &c, Target &t, Plan &plan, Result r) {
  (void)c;
  hd_error err;
  hd_module *module = nullptr;
  auto t0 = std::chrono::steady_clock::now();
  hd_compile_options options{sizeof(options), t.compileArch.c_str(), 3, nullptr};
  hd_status s = hd_module_load_ir(t.device, plan.ir.data(), plan.ir.size(),
                                  t.compileArch.empty() ? nullptr : &options, &module, &err);
  r.compileMs = msSince(t0);
  if (s != HD_OK) {
    r.outcome = Outcome::Fail;
    r.message = std::string("compile failed: ") + hd_status_name(s) + ": " + err.message;
    return r;
  }
  struct Cleanup {
    hd_module *m;
    std::vector<hd_buffer *> bufs;
    ~Cleanup() {
      for (hd_buffer *b : bufs)
        hd_buffer_free(b, nullptr);
      hd_module_destroy(m, nullptr);
    }
  } cleanup{module, {}};
  r.compiled = true;
  auto fail = [&](const std::string &what) {
    r.outcome = Outcome::Fail;
    r.message = what;
    return r;
  };
  hd_kernel *kernel = nullptr;
  if (hd_module_get_kernel(module, plan.kernel.c_str(), &kernel, &err) != HD_OK)
    return fail(std::string("compiled, but: ") + err.message);

  std::vector<hd_buffer *> &bufs = cleanup.bufs;
  for (Buffer &b : plan.buffers) {
    hd_buffer *db = nullptr;
    if (hd_buffer_alloc(t.device, std::max<uint64_t>(1, b.init.bytes()), &db, &err) != HD_OK)
      return fail("allocating " + b.name + ": " + err.message);
    bufs.push_back(db);
    if (b.role == Buffer::Output)
      b.init.fillPoison();
    if (b.init.bytes() && hd_buffer_copy_from_host(db, 0, b.init.data(), b.init.bytes(), &err) != HD_OK)
      return fail("uploading " + b.name + ": " + err.message);
  }
  std::vector<hd_arg> args;
  std::vector<hd_tensor_desc> descs(plan.args.size());
  for (const Arg &a : plan.args)
    args.push_back(a.buffer >= 0 ? hd_arg{HD_ARG_PTR, {}} : a.scalar);
  for (size_t i = 0; i < plan.args.size(); ++i) {
    if (plan.args[i].buffer < 0)
      continue;
    args[i].value.ptr = hd_buffer_device_ptr(bufs[plan.args[i].buffer]);
    if (plan.args[i].desc) {
      descs[i] = *plan.args[i].desc;
      descs[i].base = args[i].value.ptr;
      args[i].kind = HD_ARG_TENSOR_DESC;
      args[i].value.desc = &descs[i];
    }
  }

  StdoutCapture capture;
  const bool capturing = !plan.expectStdout.empty() && capture.start();
  auto t1 = std::chrono::steady_clock::now();
  s = hd_launch(kernel, plan.grid.data(), args.data(), static_cast<uint32_t>(args.size()), 0, &err);
  if (s == HD_OK)
    s = hd_synchronize(t.device, &err);
  r.runMs = msSince(t1);
  std::string printed = capturing ? capture.stop() : "";
  if (s != HD_OK)
    return fail(std::string("launch failed: ") + hd_status_name(s) + ": " + err.message);
  if (!plan.expectStdout.empty() && printed.find(plan.expectStdout) == std::string::npos)
    return fail("the kernel's output lacks '" + plan.expectStdout + "'; it printed: " +
                (printed.empty() ? "nothing" : firstLines(printed, 4)));

  std::vector<Array> downloaded(plan.buffers.size());
  for (size_t i = 0; i < plan.buffers.size(); ++i) {
    Buffer &b = plan.buffers[i];
    if (b.role == Buffer::Input)
      continue;
    Array got(b.init.elem(), b.init.size());
    if (got.bytes() && hd_buffer_copy_to_host(bufs[i], 0, got.data(), got.bytes(), &err) != HD_OK)
      return fail("downloading " + b.name + ": " + err.message);
    std::optional<Mismatch> m = compareOutput(b, got);
    downloaded[i] = got;
    r.outputs.push_back(got);
    r.tolerances.push_back(b.tol);
    if (m && !r.mismatch) {
      r.mismatch = m;
      r.outcome = Outcome::Fail;
      r.message = b.name + ": " + std::to_string(m->count) + " element(s) wrong, first [" +
                  std::to_string(m->index) + "] expected " + m->expected + ", got " + m->got +
                  " (" + b.tol.str() + ")";
    }
  }
  if (!r.mismatch && plan.check) {
    if (std::optional<Mismatch> m = plan.check(downloaded)) {
      r.mismatch = m;
      r.outcome = Outcome::Fail;
      r.message = m->what + ": first [" + std::to_string(m->index) + "] expected " + m->expected +
                  ", got " + m->got;
    }
  }
  if (!r.mismatch)
    r.outcome = Outcome::Pass;
  return r;
}

void Runner::differential(const Case &c, const std::vector<size_t> &cells) {
  const Result *first = nullptr;
  for (size_t i : cells) {
    const Result &r = results_[i];
    bool ran = r.outcome == Outcome::Pass || r.outcome == Outcome::Fail ||
               r.outcome == Outcome::XFail || r.outcome == Outcome::XPass;
    if (!ran || r.outputs.empty())
      continue;
    if (!first) {
      first = &r;
      continue;
    }
    DiffResult d;
    d.caseName = c.name;
    d.first = first->target;
    d.second = r.target;
    if (first->inputHash != r.inputHash || first->outputs.size() != r.outputs.size()) {
      d.comparable = false;
      d.message = "not comparable: the two targets' plans differ (other lane counts)";
    } else {
      for (size_t k = 0; k < r.outputs.size() && d.agree; ++k)
        if (auto m = compareDevices(first->outputs[k], r.outputs[k], first->tolerances[k])) {
          d.agree = false;
          d.message = "output " + std::to_string(k) + ": first difference at [" +
                      std::to_string(m->index) + "]: " + d.first + " " + m->expected + ", " +
                      d.second + " " + m->got;
        }
      if (d.agree)
        d.message = "agree";
    }
    diffs_.push_back(d);
  }
}

void Runner::runAll(FILE *progress) {
  std::vector<const Case *> selected = cases();
  const size_t total = selected.size() * targets_.size();
  size_t done = 0;
  for (const Case *c : selected) {
    std::vector<size_t> cells;
    for (Target &t : targets_) {
      Result r = run(*c, t);
      if (!options_.differential) {
        r.outputs.clear();
        r.outputs.shrink_to_fit();
      }
      ++done;
      const bool quiet = r.outcome == Outcome::Pass || r.outcome == Outcome::CompileOnly ||
                         r.outcome == Outcome::Unsupported || r.outcome == Outcome::NoDevice;
      if (progress && (options_.verbose || !quiet)) {
        std::fprintf(progress, "[%4zu/%zu] %-12s %-52s %-12s %7.1f ms + %6.1f ms%s%s\n", done,
                     total, t.id.c_str(), c->name.c_str(), outcomeName(r.outcome), r.compileMs,
                     r.runMs, r.message.empty() ? "" : "\n    ",
                     trimmed(firstLines(r.message, 4)).c_str());
        if (failsRun(r.outcome))
          std::fprintf(progress, "    seed %llu, replay: %s\n",
                       static_cast<unsigned long long>(r.seed), replay(c->name, t.id).c_str());
      } else if (progress && done % 25 == 0) {
        std::fprintf(progress, "[%4zu/%zu] ...\n", done, total);
      }
      std::fflush(progress);
      cells.push_back(results_.size());
      results_.push_back(std::move(r));
    }
    if (options_.differential)
      differential(*c, cells);
    if (options_.differential)
      for (size_t i : cells) {
        results_[i].outputs.clear();
        results_[i].outputs.shrink_to_fit();
      }
  }
}

Summary Runner::summary() const {
  Summary s;
  for (const Result &r : results_)
    ++s.counts[static_cast<int>(r.outcome)];
  for (const DiffResult &d : diffs_)
    s.differentialFailures += d.comparable && !d.agree;
  return s;
}

std::vector<std::string> Runner::unusedExpectations() const {
  std::vector<std::string> out;
  for (const Target &t : targets_)
    for (const Expectation &e : t.expectations.entries())
      if (!e.used)
        out.push_back(t.id + ": " + e.file + ": " + e.glob + " matches no case that ran");
  return out;
}

} // namespace hadron::conformance
