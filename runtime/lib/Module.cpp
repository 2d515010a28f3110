//===- Module.cpp - Loading binaries and compiling IR ---------------------===//

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

void releaseModule(hd_module *module) {
  hd_error ignored;
  module->device->plugin->runtime->module_unload(module->loaded, &ignored);
  delete module;
}

} // namespace hadron::runtime

namespace {

bool isKnownKind(hd_arg_kind kind) { return kind >= HD_ARG_PTR && kind <= HD_ARG_F64; }

// Deep-copies and checks the signatures into `module`.
hd_status copySignatures(hd_module &module, const hd_kernel_signature *kernels,
                         uint32_t numKernels, hd_error *err) {
  if (numKernels > 0 && !kernels)
    return fail(err, HD_ERROR_INVALID_ARGUMENT, "%u kernel signatures announced, kernels is NULL",
                numKernels);
  for (uint32_t k = 0; k < numKernels; ++k) {
    const hd_kernel_signature &sig = kernels[k];
    if (!sig.name || !*sig.name)
      return fail(err, HD_ERROR_INVALID_ARGUMENT, "kernel signature %u has no name", k);
    if (sig.num_args > 0 && !sig.args)
      return fail(err, HD_ERROR_INVALID_ARGUMENT, "kernel %s: %u arguments announced, args is NULL",
                  sig.name, sig.num_args);
    for (const auto &existing : module.kernels)
      if (existing->name == sig.name)
        return fail(err, HD_ERROR_INVALID_ARGUMENT, "kernel %s is listed twice", sig.name);
    auto kernel = std::make_unique<hd_kernel>();
    kernel->module = &module;
    kernel->name = sig.name;
    for (uint32_t a = 0; a < sig.num_args; ++a) {
      if (!isKnownKind(sig.args[a]))
        return fail(err, HD_ERROR_INVALID_ARGUMENT, "kernel %s: argument %u has unknown kind %d",
                    sig.name, a, static_cast<int>(sig.args[a]));
      kernel->args.push_back(sig.args[a]);
    }
    kernel->signature = sig;
    kernel->signature.name = kernel->name.c_str();
    kernel->signature.args = kernel->args.data();
    module.kernels.push_back(std::move(kernel));
  }
  return HD_OK;
}

hd_status loadBinary(hd_device *device, const void *binary, uint64_t size,
                     const hd_kernel_signature *kernels, uint32_t numKernels, hd_module **out,
                     hd_error *err) {
  auto module = std::make_unique<hd_module>();
  module->device = device;
  if (hd_status s = copySignatures(*module, kernels, numKernels, err))
    return s;
  hd_error pluginErr;
  clearError(&pluginErr);
  hd_status status =
      device->plugin->runtime->module_load(device->index, binary, size, &module->loaded, &pluginErr);
  if (status != HD_OK)
    return forwardPluginError(err, device, "module_load", pluginErr, status);
  hd_context *ctx = device->context;
  {
    std::lock_guard<std::mutex> lock(ctx->mutex);
    ctx->modules.insert(module.get());
  }
  *out = module.release();
  return HD_OK;
}

// Copies `options` (whatever its struct_size) into a full-size struct; no
// options means opt level 3.
hd_compile_options completeOptions(const hd_compile_options *options) {
  hd_compile_options opts{};
  if (options)
    std::memcpy(&opts, options, std::min<size_t>(sizeof(opts), options->struct_size));
  else
    opts.opt_level = 3;
  opts.struct_size = sizeof(opts);
  return opts;
}

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

// Where a compilation's cache entry lives; an empty `dir` means it is not
// cached: the cache is off, or stage dumps were asked for (they are written
// only by a compilation that runs).
struct CacheSlot {
  std::string dir;
  cache::Digest key{};
};

// `opts.arch` NULL means the compiler's default, which is the plugin's
// default arch: hd_context_compile passes that one explicitly, so a kernel
// compiled ahead of time for a plugin's default arch gets the same key as a
// JIT of the same IR on a device of that arch.
CacheSlot cacheSlotFor(const Plugin &plugin, const hd_compile_options &opts, const char *ir,
                       uint64_t size) {
  CacheSlot slot;
  if (opts.dump_dir && *opts.dump_dir)
    return slot;
  slot.dir = cache::directory();
  if (slot.dir.empty())
    return slot;
  cache::KeyInputs inputs;
  inputs.plugin = plugin.name;
  inputs.abiMajor = plugin.abiMajor;
  inputs.abiMinor = plugin.abiMinor;
  inputs.arch = opts.arch ? std::string_view(opts.arch) : std::string_view(plugin.defaultArch);
  inputs.optLevel = opts.opt_level;
  inputs.ir = std::string_view(ir, size);
  slot.key = cache::computeKey(inputs);
  return slot;
}

// The usable cache entry of `slot`, if any. An unreadable, corrupt or
// foreign file is a miss (the compilation that follows overwrites it). An
// entry made by another compiler build is used only when no compiler part
// can be loaded here: a rebuilt compiler never runs stale code, and a
// machine with only the runtime still runs what was compiled for it. When
// the compiler part file is absent, or the entry was made by the build it
// holds, the compiler part is not loaded at all.
std::optional<cache::Entry> lookupCached(hd_context *ctx, Plugin &plugin, const CacheSlot &slot) {
  if (slot.dir.empty())
    return std::nullopt;
  std::optional<cache::Entry> entry = cache::load(slot.dir, slot.key, nullptr);
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

// Records a compilation. A directory that cannot be written only means that
// nothing is cached.
void storeCached(const Plugin &plugin, const CacheSlot &slot, const hd_compiled_module &module) {
  if (slot.dir.empty())
    return;
  cache::store(slot.dir, slot.key,
               cache::Entry::fromCompiled(module, cache::compilerIdentity(plugin.compilerPath)),
               nullptr);
}

// Why no plugin called `name` is loaded: its load-report entries, or where
// no file declared it.
std::string whyNoPlugin(const hd_context &ctx, const std::string &name) {
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

hd_status hd_module_load_binary(hd_device *device, const void *binary, uint64_t size,
                                const hd_kernel_signature *kernels, uint32_t num_kernels,
                                hd_module **out, hd_error *err) {
  clearError(err);
  if (!device || !out)
    return fail(err, HD_ERROR_INVALID_ARGUMENT, "hd_module_load_binary: NULL argument");
  *out = nullptr;
  if (!binary || size == 0)
    return fail(err, HD_ERROR_INVALID_ARGUMENT, "hd_module_load_binary: empty binary");
  try {
    return loadBinary(device, binary, size, kernels, num_kernels, out, err);
  } catch (const std::bad_alloc &) {
    return fail(err, HD_ERROR_OUT_OF_MEMORY, "hd_module_load_binary: out of host memory");
  }
}

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

    CacheSlot slot = cacheSlotFor(plugin, opts, ir, size);
    if (std::optional<cache::Entry> entry = lookupCached(device->context, plugin, slot)) {
      cache::CompiledView view(std::move(*entry));
      const hd_compiled_module &m = view.module();
      hd_error loadErr;
      hd_status status =
          loadBinary(device, m.binary, m.binary_size, m.kernels, m.num_kernels, out, &loadErr);
      if (status == HD_OK)
        return HD_OK;
      // A cached binary the device refuses is recompiled when a compiler can
      // be loaded; otherwise the refusal is the answer.
      const hd_compiler_table *compiler = nullptr;
      if (compilerOf(device->context, plugin, &compiler, nullptr) != HD_OK)
        return failWith(err, status, loadErr.message);
    }

    const hd_compiler_table *compiler = nullptr;
    if (hd_status s = compilerOf(device->context, plugin, &compiler, err))
      return s;
    hd_compiled_module *compiled = nullptr;
    hd_status status = runCompiler(compiler, device->name, ir, size, opts, &compiled, err);
    if (status != HD_OK)
      return status;
    try {
      status = loadBinary(device, compiled->binary, compiled->binary_size, compiled->kernels,
                          compiled->num_kernels, out, err);
      if (status == HD_OK)
        storeCached(plugin, slot, *compiled);
    } catch (const std::bad_alloc &) {
      status = fail(err, HD_ERROR_OUT_OF_MEMORY, "hd_module_load_ir: out of host memory");
    }
    compiler->release(compiled);
    return status;
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
    CacheSlot slot = cacheSlotFor(target, opts, ir, size);
    if (std::optional<cache::Entry> entry = lookupCached(ctx, target, slot)) {
      result->cached = std::make_unique<cache::CompiledView>(std::move(*entry));
      *out = result.release();
      return HD_OK;
    }

    const hd_compiler_table *compiler = nullptr;
    if (hd_status s = compilerOf(ctx, target, &compiler, err))
      return s;
    result->compiler = compiler;
    if (hd_status s = runCompiler(compiler, target.name, ir, size, opts, &result->module, err))
      return s;
    storeCached(target, slot, *result->module);
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
    slot.dir = cache::directory();
    slot.key = cache::computeQueryKey("matrix-instructions", target.name, target.abiMajor,
                                      target.abiMinor, resolved);
    std::optional<std::vector<std::string>> texts;
    if (std::optional<cache::Entry> entry = lookupCached(ctx, target, slot))
      texts = decodeMatrixInstructions(entry->binary);
    if (!texts) {
      const hd_compiler_table *compiler = nullptr;
      if (hd_status s = compilerOf(ctx, target, &compiler, err))
        return s;
      texts.emplace();
      if (hd_status s = askMatrixInstructions(*compiler, target, resolved.c_str(), *texts, err))
        return s;
      std::optional<std::string> encoded = encodeMatrixInstructions(*texts);
      if (!slot.dir.empty() && encoded) {
        cache::Entry entry;
        entry.compilerIdentity = cache::compilerIdentity(target.compilerPath);
        entry.binary = std::move(*encoded);
        cache::store(slot.dir, slot.key, entry, nullptr);
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

hd_status hd_module_destroy(hd_module *module, hd_error *err) {
  clearError(err);
  if (!module)
    return HD_OK;
  hd_device *device = module->device;
  {
    std::lock_guard<std::mutex> lock(device->context->mutex);
    device->context->modules.erase(module);
  }
  hd_error pluginErr;
  clearError(&pluginErr);
  hd_status status = device->plugin->runtime->module_unload(module->loaded, &pluginErr);
  delete module;
  return status == HD_OK ? HD_OK
                         : forwardPluginError(err, device, "module_unload", pluginErr, status);
}

uint32_t hd_module_kernel_count(const hd_module *module) {
  return module ? static_cast<uint32_t>(module->kernels.size()) : 0;
}

hd_kernel *hd_module_kernel_at(const hd_module *module, uint32_t index) {
  if (!module || index >= module->kernels.size())
    return nullptr;
  return module->kernels[index].get();
}

hd_status hd_module_get_kernel(const hd_module *module, const char *name, hd_kernel **out,
                               hd_error *err) {
  clearError(err);
  if (!module || !name || !out)
    return fail(err, HD_ERROR_INVALID_ARGUMENT, "hd_module_get_kernel: NULL argument");
  *out = nullptr;
  std::string available;
  for (const auto &k : module->kernels) {
    if (k->name == name) {
      *out = k.get();
      return HD_OK;
    }
    available += (available.empty() ? "" : ", ") + k->name;
  }
  return fail(err, HD_ERROR_INVALID_ARGUMENT, "no kernel '%s' in module; it has: %s", name,
              available.empty() ? "no kernels" : available.c_str());
}

const hd_kernel_signature *hd_kernel_get_signature(const hd_kernel *kernel) {
  return kernel ? &kernel->signature : nullptr;
}

} // extern "C"
