//===- BundleModule.cpp - Making bundles and loading their entries --------===//

#include "Bundle.h"
#include "ErrorReporting.h"
#include "Objects.h"

#include <algorithm>
#include <memory>
#include <new>

using namespace hadron::runtime;

/// A parsed bundle, its bytes, and the hd_compiled_module views that
/// hd_bundle_get_entry hands out.
struct hd_bundle {
  std::string bytes;
  std::vector<bundle::Entry> entries;
  std::vector<std::unique_ptr<cache::CompiledView>> views;
};

namespace {

struct TargetName {
  std::string plugin, arch; ///< arch empty: the plugin's default
};

std::string trim(const std::string &s) {
  size_t first = s.find_first_not_of(" \t");
  if (first == std::string::npos)
    return "";
  return s.substr(first, s.find_last_not_of(" \t") - first + 1);
}

hd_status parseTargets(const char *text, std::vector<TargetName> &out, hd_error *err) {
  const std::string list = text;
  for (size_t at = 0; at <= list.size();) {
    size_t comma = std::min(list.find(',', at), list.size());
    std::string item = trim(list.substr(at, comma - at));
    at = comma + 1;
    TargetName t;
    size_t colon = item.find(':');
    t.plugin = item.substr(0, colon);
    if (colon != std::string::npos)
      t.arch = item.substr(colon + 1);
    bool ok = !t.plugin.empty() && t.plugin[0] >= 'a' && t.plugin[0] <= 'z' &&
              t.plugin.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789_-") ==
                  std::string::npos &&
              (colon == std::string::npos || !t.arch.empty());
    if (!ok)
      return fail(err, HD_ERROR_INVALID_ARGUMENT,
                  "target '%s' in '%s' is not plugin[:arch] (host, nvidia:sm_90a, amd:gfx942)",
                  item.c_str(), text);
    out.push_back(std::move(t));
  }
  return HD_OK;
}

hd_status openBytes(std::string bytes, const std::string &where, hd_bundle **out,
                    hd_error *err) {
  Expected<std::vector<bundle::Entry>> entries = bundle::decode(bytes);
  if (!entries)
    return failWith(err, entries.status().code(), where + entries.status().message());
  auto b = std::make_unique<hd_bundle>();
  b->bytes = std::move(bytes);
  b->entries = std::move(entries).value();
  for (const bundle::Entry &e : b->entries) {
    cache::Entry view;
    view.binary = e.binary;
    view.kernels = e.kernels;
    b->views.push_back(std::make_unique<cache::CompiledView>(std::move(view)));
  }
  *out = b.release();
  return HD_OK;
}

hd_status loadBundle(hd_device *device, const hd_bundle &b, hd_module **out, hd_error *err) {
  const std::string &plugin = device->plugin->name;
  const std::string arch = device->info.arch;
  // The entry of the device's arch first, then the plugin's others in order.
  std::vector<const bundle::Entry *> candidates;
  for (const bundle::Entry &e : b.entries)
    if (e.plugin == plugin && e.arch == arch)
      candidates.push_back(&e);
  for (const bundle::Entry &e : b.entries)
    if (e.plugin == plugin && e.arch != arch)
      candidates.push_back(&e);

  std::string refusals;
  for (const bundle::Entry *e : candidates) {
    if (!e->cpu.empty() && e->cpu != cache::hostCpuIdentity()) {
      refusals += "\n  " + e->target() + ": compiled for the CPU that built it, not this one";
      continue;
    }
    std::shared_ptr<LoadedBinary> loaded;
    hd_error loadErr;
    if (loadOnDevice(device, e->binary.data(), e->binary.size(), loaded, &loadErr) != HD_OK) {
      refusals += "\n  " + e->target() + ": " + loadErr.message;
      continue;
    }
    std::vector<hd_kernel_signature> sigs = signaturesOf(e->kernels);
    return makeModule(device, std::move(loaded), sigs.data(), static_cast<uint32_t>(sigs.size()),
                      out, err);
  }
  std::string present;
  for (const bundle::Entry &e : b.entries)
    present += (present.empty() ? "" : ", ") + e.target();
  return failWith(err, HD_ERROR_UNSUPPORTED,
                  "no entry of the bundle fits " + device->name + " (plugin " + plugin +
                      ", arch " + arch + "); it holds " + present + refusals);
}

} // namespace

namespace hadron::runtime {

hd_status loadBundleBytes(hd_device *device, const void *bytes, uint64_t size, hd_module **out,
                          hd_error *err) {
  hd_bundle *b = nullptr;
  if (hd_status s = openBytes(std::string(static_cast<const char *>(bytes), size), "bundle: ",
                              &b, err))
    return s;
  std::unique_ptr<hd_bundle> owned(b);
  return loadBundle(device, *b, out, err);
}

} // namespace hadron::runtime

extern "C" {

hd_status hd_context_compile_bundle(hd_context *ctx, const char *targets, const char *ir,
                                    uint64_t size, const hd_compile_options *options,
                                    hd_bundle **out, hd_error *err) {
  clearError(err);
  if (!ctx || !targets || !ir || !out)
    return fail(err, HD_ERROR_INVALID_ARGUMENT, "hd_context_compile_bundle: NULL argument");
  *out = nullptr;
  const hd_compile_options base = completeOptions(options);
  if (base.arch)
    return fail(err, HD_ERROR_INVALID_ARGUMENT,
                "hd_context_compile_bundle: options->arch is '%s'; each target names its arch "
                "(plugin:arch)",
                base.arch);
  try {
    std::vector<TargetName> names;
    if (hd_status s = parseTargets(targets, names, err))
      return s;
    std::vector<bundle::Entry> entries;
    for (const TargetName &t : names) {
      hd_compile_options opts = base;
      opts.arch = t.arch.empty() ? nullptr : t.arch.c_str();
      hd_compiled *compiled = nullptr;
      hd_error compileErr;
      hd_status s = hd_context_compile(ctx, t.plugin.c_str(), ir, size, &opts, &compiled,
                                       &compileErr);
      const std::string named = t.plugin + (t.arch.empty() ? "" : ":" + t.arch);
      if (s != HD_OK)
        return failWith(err, s, named + ": " + compileErr.message);
      std::unique_ptr<hd_compiled, void (*)(hd_compiled *)> owned(compiled, hd_compiled_destroy);
      bundle::Entry e;
      e.plugin = t.plugin;
      e.arch = t.arch;
      if (e.arch.empty())
        for (const auto &p : ctx->plugins)
          if (p->name == t.plugin)
            e.arch = p->defaultArch;
      if (e.arch == "native")
        e.cpu = cache::hostCpuIdentity();
      for (const bundle::Entry &earlier : entries)
        if (earlier.target() == e.target())
          return fail(err, HD_ERROR_INVALID_ARGUMENT, "target %s is named twice in '%s'",
                      e.target().c_str(), targets);
      cache::Entry copied = cache::Entry::fromCompiled(*hd_compiled_get(compiled), {});
      e.binary = std::move(copied.binary);
      e.kernels = std::move(copied.kernels);
      entries.push_back(std::move(e));
    }
    return openBytes(bundle::encode(entries), "", out, err);
  } catch (const std::bad_alloc &) {
    return fail(err, HD_ERROR_OUT_OF_MEMORY, "hd_context_compile_bundle: out of host memory");
  }
}

hd_status hd_bundle_open(const void *bytes, uint64_t size, hd_bundle **out, hd_error *err) {
  clearError(err);
  if (!out || (!bytes && size > 0))
    return fail(err, HD_ERROR_INVALID_ARGUMENT, "hd_bundle_open: NULL argument");
  *out = nullptr;
  try {
    return openBytes(std::string(static_cast<const char *>(bytes), size), "bundle: ", out, err);
  } catch (const std::bad_alloc &) {
    return fail(err, HD_ERROR_OUT_OF_MEMORY, "hd_bundle_open: out of host memory");
  }
}

hd_status hd_bundle_open_file(const char *path, hd_bundle **out, hd_error *err) {
  clearError(err);
  if (!path || !out)
    return fail(err, HD_ERROR_INVALID_ARGUMENT, "hd_bundle_open_file: NULL argument");
  *out = nullptr;
  try {
    Expected<std::optional<std::string>> bytes = cache::readFile(path);
    if (!bytes)
      return failWith(err, bytes.status().code(), bytes.status().message());
    if (!*bytes)
      return failWith(err, HD_ERROR_INVALID_ARGUMENT, std::string(path) + ": no such file");
    return openBytes(std::move(**bytes), std::string(path) + ": ", out, err);
  } catch (const std::bad_alloc &) {
    return fail(err, HD_ERROR_OUT_OF_MEMORY, "hd_bundle_open_file: out of host memory");
  }
}

const void *hd_bundle_data(const hd_bundle *bundle, uint64_t *size) {
  if (size)
    *size = bundle ? bundle->bytes.size() : 0;
  return bundle ? bundle->bytes.data() : nullptr;
}

hd_status hd_bundle_write_file(const hd_bundle *bundle, const char *path, hd_error *err) {
  clearError(err);
  if (!bundle || !path)
    return fail(err, HD_ERROR_INVALID_ARGUMENT, "hd_bundle_write_file: NULL argument");
  Status written = cache::writeFileAtomically(path, bundle->bytes, 0666);
  if (!written)
    return failWith(err, written.code(), written.message());
  return HD_OK;
}

uint32_t hd_bundle_entry_count(const hd_bundle *bundle) {
  return bundle ? static_cast<uint32_t>(bundle->entries.size()) : 0;
}

hd_status hd_bundle_get_entry(const hd_bundle *bundle, uint32_t index, hd_bundle_entry *out,
                              hd_error *err) {
  clearError(err);
  if (!bundle || !out)
    return fail(err, HD_ERROR_INVALID_ARGUMENT, "hd_bundle_get_entry: NULL argument");
  if (index >= bundle->entries.size())
    return fail(err, HD_ERROR_INVALID_ARGUMENT, "bundle entry %u out of range (%zu entries)",
                index, bundle->entries.size());
  out->plugin = bundle->entries[index].plugin.c_str();
  out->arch = bundle->entries[index].arch.c_str();
  out->module = &bundle->views[index]->module();
  return HD_OK;
}

void hd_bundle_destroy(hd_bundle *bundle) { delete bundle; }

hd_status hd_module_load_bundle(hd_device *device, const hd_bundle *bundle, hd_module **out,
                                hd_error *err) {
  clearError(err);
  if (!device || !bundle || !out)
    return fail(err, HD_ERROR_INVALID_ARGUMENT, "hd_module_load_bundle: NULL argument");
  *out = nullptr;
  try {
    return loadBundle(device, *bundle, out, err);
  } catch (const std::bad_alloc &) {
    return fail(err, HD_ERROR_OUT_OF_MEMORY, "hd_module_load_bundle: out of host memory");
  }
}

} // extern "C"
