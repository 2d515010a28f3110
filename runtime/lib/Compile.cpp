//===- Compile.cpp - Compiling IR through the kernel caches ---------------===//
//
// hd_module_load_ir, hd_context_compile and hd_context_matrix_instructions:
// each looks in the context's in-memory cache, then in the on-disk kernel
// cache (KernelCache.h), and only then loads the plugin's compiler part and
// compiles. What is compiled is written to both. One lock per key makes
// threads that ask for the same kernel at once compile it once; different
// kernels compile in parallel.
//
//===----------------------------------------------------------------------===//

#include "ErrorReporting.h"
#include "KernelCache.h"
#include "Objects.h"

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <new>
#include <optional>

using namespace hadron::runtime;

namespace hadron::runtime {

hd_compile_options completeOptions(const hd_compile_options *options) {
  hd_compile_options opts{};
  if (options)
    std::memcpy(&opts, options, std::min<size_t>(sizeof(opts), options->struct_size));
  else
    opts.opt_level = 3;
  opts.struct_size = sizeof(opts);
  return opts;
}

std::vector<hd_kernel_signature> signaturesOf(const std::vector<cache::KernelRecord> &kernels) {
  std::vector<hd_kernel_signature> sigs;
  for (const cache::KernelRecord &k : kernels)
    sigs.push_back({k.name.c_str(), static_cast<uint32_t>(k.args.size()), k.args.data(),
                    k.numWarps, k.warpSize, k.staticSharedBytes,
                    k.descs.empty() ? nullptr : k.descs.data()});
  return sigs;
}

} // namespace hadron::runtime

namespace {

// Loads `plugin`'s compiler part under the context's lock.
hd_status compilerOf(hd_context *ctx, Plugin &plugin, const hd_compiler_table **out,
                     hd_error *err) {
  std::lock_guard<std::mutex> lock(ctx->mutex);
  if (hd_status s = loadCompilerPart(plugin, err))
    return s;
  *out = plugin.compiler;
  return HD_OK;
}

// Runs the compiler; `who` names the device or plugin in the messages.
hd_status runCompiler(const hd_compiler_table *compiler, const std::string &who, const char *ir,
                      uint64_t size, const hd_compile_options &opts,
                      hd_compiled_module **out, hd_error *err) {
  hd_error compileErr;
  clearError(&compileErr);
  hd_status status = compiler->compile(ir, size, &opts, out, &compileErr);
  if (status != HD_OK)
    return fail(err, status, "%s: compile failed: %s", who.c_str(),
                compileErr.message[0] ? compileErr.message : "(no message)");
  if (!*out)
    return fail(err, HD_ERROR_INTERNAL, "%s: compiler returned success and no module",
                who.c_str());
  return HD_OK;
}

// Where a compilation's result is cached. `use` false: not at all (stage
// dumps were asked for, and they are written only by a compilation that
// runs). `dir` empty: in memory only (HADRON_CACHE_DIR=off, or no directory
// can be named).
struct CacheSlot {
  bool use = false;
  std::string dir;
  cache::Digest key{};
};

// `opts.arch` NULL means the compiler's default, which is the plugin's
// default arch: hd_context_compile passes that one explicitly, so a kernel
// compiled ahead of time for a plugin's default arch gets the same key as a
// JIT of the same IR on a device of that arch.
//
// The SHA-256 of a few kilobytes of IR is most of what a load from memory
// costs, so the context remembers each key by its inputs' bytes: a repeated
// load compares bytes instead of hashing them.
CacheSlot cacheSlotFor(hd_context &ctx, const Plugin &plugin, const hd_compile_options &opts,
                       const char *ir, uint64_t size) {
  CacheSlot slot;
  if (opts.dump_dir && *opts.dump_dir)
    return slot;
  slot.use = true;
  slot.dir = cache::directory();
  cache::KeyInputs inputs;
  inputs.plugin = plugin.name;
  inputs.abiMajor = plugin.abiMajor;
  inputs.abiMinor = plugin.abiMinor;
  inputs.arch = opts.arch ? std::string_view(opts.arch) : std::string_view(plugin.defaultArch);
  inputs.optLevel = opts.opt_level;
  inputs.ir = std::string_view(ir, size);

  std::string memo = plugin.name;
  memo += '\0';
  memo += inputs.arch;
  memo += '\0';
  memo += std::to_string(inputs.optLevel);
  memo += '\0';
  memo.append(ir, size);
  {
    std::lock_guard<std::mutex> lock(ctx.cacheMutex);
    auto known = ctx.keysByInput.find(memo);
    if (known != ctx.keysByInput.end()) {
      slot.key = known->second;
      return slot;
    }
  }
  slot.key = cache::computeKey(inputs);
  std::lock_guard<std::mutex> lock(ctx.cacheMutex);
  ctx.keysByInput.emplace(std::move(memo), slot.key);
  return slot;
}

// The usable on-disk entry of `slot`, if any. An unreadable, corrupt or
// foreign file is a miss (the compilation that follows overwrites it),
// reported once as a warning. An entry made by another compiler build is
// used only when no compiler part can be loaded here: a rebuilt compiler
// never runs stale code, and a machine with only the runtime still runs
// what was compiled for it. When the compiler part file is absent, or the
// entry was made by the build it holds, the compiler part is not loaded.
std::optional<cache::Entry> lookupOnDisk(hd_context *ctx, Plugin &plugin, const CacheSlot &slot) {
  if (slot.dir.empty())
    return std::nullopt;
  Expected<std::optional<cache::Entry>> loaded = cache::load(slot.dir, slot.key);
  if (!loaded) {
    warnOnce("ignoring kernel cache entry " + loaded.status().message() +
             "; it is compiled again");
    return std::nullopt;
  }
  std::optional<cache::Entry> entry = std::move(loaded).value();
  if (!entry)
    return std::nullopt;
  cache::Digest current = cache::compilerIdentity(plugin.compilerPath);
  if (cache::isZero(current) || entry->compilerIdentity == current)
    return entry;
  const hd_compiler_table *compiler = nullptr;
  hd_error ignored;
  if (compilerOf(ctx, plugin, &compiler, &ignored) != HD_OK)
    return entry;
  return std::nullopt;
}

// Records a compilation on disk. A directory that cannot be written only
// means that nothing is cached there.
void storeOnDisk(const CacheSlot &slot, const cache::Entry &entry) {
  if (!slot.dir.empty())
    (void)cache::store(slot.dir, slot.key, entry);
}

//===----------------------------------------------------------------------===//
// The in-memory cache (hd_context::kernelCache)
//===----------------------------------------------------------------------===//

std::shared_ptr<std::mutex> keyLock(hd_context &ctx, const cache::Digest &key) {
  std::lock_guard<std::mutex> lock(ctx.cacheMutex);
  std::shared_ptr<std::mutex> &m = ctx.keyLocks[key];
  if (!m)
    m = std::make_shared<std::mutex>();
  return m;
}

std::shared_ptr<const cache::Entry> memoryEntry(hd_context &ctx, const cache::Digest &key) {
  std::lock_guard<std::mutex> lock(ctx.cacheMutex);
  auto found = ctx.kernelCache.find(key);
  return found == ctx.kernelCache.end() ? nullptr : found->second.entry;
}

std::shared_ptr<LoadedBinary> memoryLoaded(hd_context &ctx, const cache::Digest &key,
                                           const hd_device *device) {
  std::lock_guard<std::mutex> lock(ctx.cacheMutex);
  auto found = ctx.kernelCache.find(key);
  if (found == ctx.kernelCache.end())
    return nullptr;
  auto loaded = found->second.loaded.find(device);
  return loaded == found->second.loaded.end() ? nullptr : loaded->second.lock();
}

// Keeps `entry` under `key`, and `loaded` as its binary on `device` when
// given.
void remember(hd_context &ctx, const cache::Digest &key,
              std::shared_ptr<const cache::Entry> entry, const hd_device *device = nullptr,
              std::shared_ptr<LoadedBinary> loaded = nullptr) {
  std::lock_guard<std::mutex> lock(ctx.cacheMutex);
  CachedKernel &cached = ctx.kernelCache[key];
  if (cached.entry != entry) {
    cached.entry = std::move(entry);
    cached.loaded.clear();
  }
  if (device && loaded)
    cached.loaded[device] = loaded;
}

void forget(hd_context &ctx, const cache::Digest &key) {
  std::lock_guard<std::mutex> lock(ctx.cacheMutex);
  ctx.kernelCache.erase(key);
}

hd_status moduleOf(hd_device *device, std::shared_ptr<LoadedBinary> loaded,
                   const cache::Entry &entry, hd_module **out, hd_error *err) {
  std::vector<hd_kernel_signature> sigs = signaturesOf(entry.kernels);
  return makeModule(device, std::move(loaded), sigs.data(), static_cast<uint32_t>(sigs.size()),
                    out, err);
}

// hd_module_load_ir once the options are complete: memory, then disk, then
// the compiler.
hd_status loadIR(hd_device *device, const char *ir, uint64_t size, const hd_compile_options &opts,
                 hd_module **out, hd_error *err) {
  hd_context &ctx = *device->context;
  Plugin &plugin = *device->plugin;
  CacheSlot slot = cacheSlotFor(ctx, plugin, opts, ir, size);
  std::shared_ptr<std::mutex> lockOfKey;
  std::unique_lock<std::mutex> held;
  if (slot.use) {
    lockOfKey = keyLock(ctx, slot.key);
    held = std::unique_lock<std::mutex>(*lockOfKey);
    std::shared_ptr<const cache::Entry> entry = memoryEntry(ctx, slot.key);
    if (entry) {
      if (std::shared_ptr<LoadedBinary> loaded = memoryLoaded(ctx, slot.key, device))
        return moduleOf(device, std::move(loaded), *entry, out, err);
    } else if (std::optional<cache::Entry> onDisk = lookupOnDisk(&ctx, plugin, slot)) {
      entry = std::make_shared<const cache::Entry>(std::move(*onDisk));
    }
    if (entry) {
      std::shared_ptr<LoadedBinary> loaded;
      hd_error loadErr;
      hd_status status =
          loadOnDevice(device, entry->binary.data(), entry->binary.size(), loaded, &loadErr);
      if (status == HD_OK) {
        remember(ctx, slot.key, entry, device, loaded);
        return moduleOf(device, std::move(loaded), *entry, out, err);
      }
      // A cached binary the device refuses is recompiled when a compiler can
      // be loaded; otherwise the refusal is the answer.
      forget(ctx, slot.key);
      const hd_compiler_table *compiler = nullptr;
      if (compilerOf(&ctx, plugin, &compiler, nullptr) != HD_OK)
        return failWith(err, status, loadErr.message);
      warnOnce("ignoring kernel cache entry " + cache::entryPath(slot.dir, slot.key) + ": " +
               loadErr.message + "; it is compiled again");
    }
  }

  const hd_compiler_table *compiler = nullptr;
  if (hd_status s = compilerOf(&ctx, plugin, &compiler, err))
    return s;
  hd_compiled_module *compiled = nullptr;
  if (hd_status s = runCompiler(compiler, device->name, ir, size, opts, &compiled, err))
    return s;
  std::shared_ptr<const cache::Entry> entry;
  try {
    entry = std::make_shared<const cache::Entry>(
        cache::Entry::fromCompiled(*compiled, cache::compilerIdentity(plugin.compilerPath)));
  } catch (const std::bad_alloc &) {
    compiler->release(compiled);
    throw;
  }
  compiler->release(compiled);
  std::shared_ptr<LoadedBinary> loaded;
  if (hd_status s = loadOnDevice(device, entry->binary.data(), entry->binary.size(), loaded, err))
    return s;
  if (slot.use) {
    storeOnDisk(slot, *entry);
    remember(ctx, slot.key, entry, device, loaded);
  }
  return moduleOf(device, std::move(loaded), *entry, out, err);
}

// Why no plugin called `name` is loaded: its load-report entries, or where
// no file declared it.
std::string whyNoPlugin(const hd_context &ctx, const std::string &name) {
  ensureDevices(ctx); // the report then holds every runtime part's init
  std::string loaded, reasons;
  for (const auto &p : ctx.plugins)
    loaded += (loaded.empty() ? "" : ", ") + p->name;
  for (const LoadRecord &r : ctx.report)
    if (r.plugin == name || r.path.find("libhadron-target-" + name + ".so") != std::string::npos)
      reasons += "\n  " + r.path + ": " + r.reason;
  if (reasons.empty()) {
    std::string dirs;
    for (const std::string &d : ctx.searchedDirs)
      dirs += (dirs.empty() ? "" : ", ") + d;
    reasons = "\n  no libhadron-target-" + name + ".so in " +
              (dirs.empty() ? "any search directory (none given)" : dirs);
  }
  return "no plugin '" + name + "' is loaded (loaded: " + (loaded.empty() ? "none" : loaded) +
         ")" + reasons;
}

/// The loaded plugin called `name`, or null.
Plugin *findPlugin(hd_context &ctx, const std::string &name) {
  auto found = std::find_if(ctx.plugins.begin(), ctx.plugins.end(),
                            [&](const auto &p) { return p->name == name; });
  return found == ctx.plugins.end() ? nullptr : found->get();
}

/// An error listing `target`'s archs when `arch` is not one of them.
hd_status checkArch(const Plugin &target, const char *arch, hd_error *err) {
  if (std::find(target.archs.begin(), target.archs.end(), arch) != target.archs.end())
    return HD_OK;
  std::string listed;
  for (const std::string &a : target.archs)
    listed += (listed.empty() ? "" : ", ") + a;
  return fail(err, HD_ERROR_INVALID_ARGUMENT, "plugin '%s' does not compile for arch '%s'; it lists: %s",
              target.name.c_str(), arch, listed.empty() ? "no archs" : listed.c_str());
}

// The compiler part's matrix instructions for `arch`. A table older than
// ABI 1.2, or one without the function, has none.
hd_status askMatrixInstructions(const hd_compiler_table &compiler, const Plugin &plugin,
                                const char *arch, std::vector<std::string> &texts,
                                hd_error *err) {
  const size_t end = offsetof(hd_compiler_table, matrix_instructions) +
                     sizeof(compiler.matrix_instructions);
  if (compiler.struct_size < end || !compiler.matrix_instructions)
    return HD_OK;
  const char *const *list = nullptr;
  hd_error pluginErr;
  clearError(&pluginErr);
  if (hd_status s = compiler.matrix_instructions(arch, &list, &pluginErr))
    return fail(err, s, "%s:%s: matrix_instructions failed: %s", plugin.name.c_str(), arch,
                pluginErr.message[0] ? pluginErr.message : "(no message)");
  for (; list && *list; ++list)
    texts.push_back(*list);
  return HD_OK;
}

// A cache entry's binary must not be empty: the answer is stored after a
// header line, one attribute text a line. Texts with a newline (legal in
// MLIR, written by no plugin today) are not cached.
constexpr const char kMatrixInstructionsHeader[] = "matrix-instructions\n";

std::optional<std::string> encodeMatrixInstructions(const std::vector<std::string> &texts) {
  std::string s = kMatrixInstructionsHeader;
  for (const std::string &t : texts) {
    if (t.find('\n') != std::string::npos)
      return std::nullopt;
    s += t + "\n";
  }
  return s;
}

std::optional<std::vector<std::string>> decodeMatrixInstructions(const std::string &binary) {
  if (binary.rfind(kMatrixInstructionsHeader, 0) != 0)
    return std::nullopt;
  std::vector<std::string> texts;
  size_t at = std::strlen(kMatrixInstructionsHeader);
  for (size_t nl; (nl = binary.find('\n', at)) != std::string::npos; at = nl + 1)
    texts.push_back(binary.substr(at, nl - at));
  return texts;
}

} // namespace

/// A compilation result: from the compiler part (`compiler` and `module`
/// set), or from the kernel cache (`cached` set).
struct hd_compiled {
  const hd_compiler_table *compiler = nullptr; ///< Stays mapped for the process.
  hd_compiled_module *module = nullptr;
  std::unique_ptr<cache::CompiledView> cached;
};

extern "C" {

hd_status hd_module_load_ir(hd_device *device, const char *ir, uint64_t size,
                            const hd_compile_options *options, hd_module **out, hd_error *err) {
  clearError(err);
  if (!device || !out || !ir)
    return fail(err, HD_ERROR_INVALID_ARGUMENT, "hd_module_load_ir: NULL argument");
  *out = nullptr;
  Plugin &plugin = *device->plugin;
  try {
    hd_compile_options opts = completeOptions(options);
    if (!opts.arch) {
      auto listed = std::find(plugin.archs.begin(), plugin.archs.end(), device->info.arch);
      if (listed != plugin.archs.end())
        opts.arch = listed->c_str();
    }
    return loadIR(device, ir, size, opts, out, err);
  } catch (const std::bad_alloc &) {
    return fail(err, HD_ERROR_OUT_OF_MEMORY, "hd_module_load_ir: out of host memory");
  }
}

hd_status hd_context_compile(hd_context *ctx, const char *plugin, const char *ir, uint64_t size,
                             const hd_compile_options *options, hd_compiled **out,
                             hd_error *err) {
  clearError(err);
  if (!ctx || !plugin || !ir || !out)
    return fail(err, HD_ERROR_INVALID_ARGUMENT, "hd_context_compile: NULL argument");
  *out = nullptr;
  try {
    Plugin *found = findPlugin(*ctx, plugin);
    if (!found)
      return failWith(err, HD_ERROR_UNSUPPORTED, whyNoPlugin(*ctx, plugin));
    Plugin &target = *found;

    hd_compile_options opts = completeOptions(options);
    if (opts.arch) {
      if (hd_status s = checkArch(target, opts.arch, err))
        return s;
    } else if (!target.defaultArch.empty()) {
      opts.arch = target.defaultArch.c_str();
    }

    auto result = std::make_unique<hd_compiled>();
    CacheSlot slot = cacheSlotFor(*ctx, target, opts, ir, size);
    std::shared_ptr<std::mutex> lockOfKey;
    std::unique_lock<std::mutex> held;
    if (slot.use) {
      lockOfKey = keyLock(*ctx, slot.key);
      held = std::unique_lock<std::mutex>(*lockOfKey);
      std::shared_ptr<const cache::Entry> entry = memoryEntry(*ctx, slot.key);
      if (!entry)
        if (std::optional<cache::Entry> onDisk = lookupOnDisk(ctx, target, slot)) {
          entry = std::make_shared<const cache::Entry>(std::move(*onDisk));
          remember(*ctx, slot.key, entry);
        }
      if (entry) {
        result->cached = std::make_unique<cache::CompiledView>(*entry);
        *out = result.release();
        return HD_OK;
      }
    }

    const hd_compiler_table *compiler = nullptr;
    if (hd_status s = compilerOf(ctx, target, &compiler, err))
      return s;
    result->compiler = compiler;
    if (hd_status s = runCompiler(compiler, target.name, ir, size, opts, &result->module, err))
      return s;
    if (slot.use) {
      auto entry = std::make_shared<const cache::Entry>(cache::Entry::fromCompiled(
          *result->module, cache::compilerIdentity(target.compilerPath)));
      storeOnDisk(slot, *entry);
      remember(*ctx, slot.key, std::move(entry));
    }
    *out = result.release();
    return HD_OK;
  } catch (const std::bad_alloc &) {
    return fail(err, HD_ERROR_OUT_OF_MEMORY, "hd_context_compile: out of host memory");
  }
}

const hd_compiled_module *hd_compiled_get(const hd_compiled *compiled) {
  if (!compiled)
    return nullptr;
  return compiled->cached ? &compiled->cached->module() : compiled->module;
}

void hd_compiled_destroy(hd_compiled *compiled) {
  if (!compiled)
    return;
  if (compiled->compiler && compiled->module)
    compiled->compiler->release(compiled->module);
  delete compiled;
}

hd_status hd_context_matrix_instructions(hd_context *ctx, const char *plugin, const char *arch,
                                         uint32_t *count, const char *const **out,
                                         hd_error *err) {
  clearError(err);
  if (!ctx || !plugin || !count || !out)
    return fail(err, HD_ERROR_INVALID_ARGUMENT, "hd_context_matrix_instructions: NULL argument");
  *count = 0;
  *out = nullptr;
  try {
    Plugin *found = findPlugin(*ctx, plugin);
    if (!found)
      return failWith(err, HD_ERROR_UNSUPPORTED, whyNoPlugin(*ctx, plugin));
    Plugin &target = *found;
    std::string resolved = arch ? arch : target.defaultArch;
    if (hd_status s = checkArch(target, resolved.c_str(), err))
      return s;

    const std::string memo = target.name + ":" + resolved;
    auto answer = [&](const hd_context::MatrixInstructions &m) {
      *count = static_cast<uint32_t>(m.texts.size());
      *out = m.pointers.data();
      return HD_OK;
    };
    {
      std::lock_guard<std::mutex> lock(ctx->mutex);
      auto known = ctx->matrixInstructions.find(memo);
      if (known != ctx->matrixInstructions.end())
        return answer(*known->second);
    }

    CacheSlot slot;
    slot.use = true;
    slot.dir = cache::directory();
    slot.key = cache::computeQueryKey("matrix-instructions", target.name, target.abiMajor,
                                      target.abiMinor, resolved);
    std::optional<std::vector<std::string>> texts;
    if (std::optional<cache::Entry> entry = lookupOnDisk(ctx, target, slot))
      texts = decodeMatrixInstructions(entry->binary);
    if (!texts) {
      const hd_compiler_table *compiler = nullptr;
      if (hd_status s = compilerOf(ctx, target, &compiler, err))
        return s;
      texts.emplace();
      if (hd_status s = askMatrixInstructions(*compiler, target, resolved.c_str(), *texts, err))
        return s;
      std::optional<std::string> encoded = encodeMatrixInstructions(*texts);
      if (encoded) {
        cache::Entry entry;
        entry.compilerIdentity = cache::compilerIdentity(target.compilerPath);
        entry.binary = std::move(*encoded);
        storeOnDisk(slot, entry);
      }
    }

    auto made = std::make_unique<hd_context::MatrixInstructions>();
    made->texts = std::move(*texts);
    for (const std::string &t : made->texts)
      made->pointers.push_back(t.c_str());
    std::lock_guard<std::mutex> lock(ctx->mutex);
    // A thread that asked at the same time may have stored it first.
    auto stored = ctx->matrixInstructions.try_emplace(memo, std::move(made)).first;
    return answer(*stored->second);
  } catch (const std::bad_alloc &) {
    return fail(err, HD_ERROR_OUT_OF_MEMORY, "hd_context_matrix_instructions: out of host memory");
  }
}

} // extern "C"
