//===- PluginLoader.cpp - Finding and opening target plugins --------------===//

#include "PluginLoader.h"

#include "ErrorReporting.h"
#include "Selector.h"

#include "hadron/runtime/Status.hpp"

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <set>

#include <dirent.h>
#include <dlfcn.h>
#include <unistd.h>

namespace hadron::runtime {

namespace {

constexpr const char kPrefix[] = "libhadron-target-";
constexpr const char kSuffix[] = ".so";
constexpr const char kCompilerSuffix[] = "-compiler.so";

bool endsWith(const std::string &s, const char *suffix) {
  size_t n = std::strlen(suffix);
  return s.size() >= n && s.compare(s.size() - n, n, suffix) == 0;
}

bool isRuntimePartName(const std::string &file) {
  return file.rfind(kPrefix, 0) == 0 && file.size() > sizeof(kPrefix) - 1 + 3 &&
         endsWith(file, kSuffix) && !endsWith(file, kCompilerSuffix);
}

std::string directoryOf(const std::string &path) {
  size_t slash = path.rfind('/');
  if (slash == std::string::npos)
    return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

std::string realPath(const std::string &path) {
  char buf[PATH_MAX];
  return ::realpath(path.c_str(), buf) ? std::string(buf) : path;
}

std::string lastDlError() {
  const char *e = dlerror();
  return e ? e : "unknown dlopen error";
}

// Files of `dir` that look like runtime parts, in name order. Fails when
// the directory cannot be read for a reason other than not existing.
Status listRuntimeParts(const std::string &dir, std::vector<std::string> &files) {
  DIR *d = ::opendir(dir.c_str());
  if (!d) {
    if (errno == ENOENT || errno == ENOTDIR)
      return {};
    return Status(HD_ERROR_INVALID_ARGUMENT,
                  std::string("cannot read plugin directory: ") + std::strerror(errno));
  }
  while (dirent *entry = ::readdir(d)) {
    std::string name = entry->d_name;
    if (isRuntimePartName(name))
      files.push_back(name);
  }
  ::closedir(d);
  std::sort(files.begin(), files.end());
  return {};
}

// Reads and checks the descriptor of an opened runtime part. On success
// `plugin` is filled; otherwise `record` says why.
bool checkDescriptor(const hd_plugin_descriptor *desc, Plugin &plugin, LoadRecord &record) {
  if (!desc) {
    record.code = HD_ERROR_INVALID_ARGUMENT;
    record.reason = std::string(HADRON_PLUGIN_ENTRY_SYMBOL) + " returned a null descriptor";
    return false;
  }
  // struct_size, abi_major and abi_minor lead every ABI version.
  if (desc->struct_size < 3 * sizeof(uint32_t)) {
    record.code = HD_ERROR_INVALID_ARGUMENT;
    record.reason = "descriptor struct_size " + std::to_string(desc->struct_size) +
                    " is too small to hold an ABI version";
    return false;
  }
  if (desc->abi_major != HADRON_PLUGIN_ABI_MAJOR) {
    record.code = HD_ERROR_UNSUPPORTED;
    record.reason = "built for plugin ABI " + std::to_string(desc->abi_major) + "." +
                    std::to_string(desc->abi_minor) + ", this runtime speaks " +
                    std::to_string(HADRON_PLUGIN_ABI_MAJOR) + ".x";
    return false;
  }
  if (desc->struct_size < sizeof(hd_plugin_descriptor)) {
    record.code = HD_ERROR_INVALID_ARGUMENT;
    record.reason = "descriptor struct_size " + std::to_string(desc->struct_size) +
                    " is smaller than ABI " + std::to_string(HADRON_PLUGIN_ABI_MAJOR) +
                    ".0's " + std::to_string(sizeof(hd_plugin_descriptor));
    return false;
  }
  if (!desc->name || !isValidVendorName(desc->name)) {
    record.code = HD_ERROR_INVALID_ARGUMENT;
    record.reason = std::string("plugin name '") + (desc->name ? desc->name : "(null)") +
                    "' is not a valid selector vendor key ([a-z][a-z0-9_-]*, not 'auto')";
    return false;
  }
  record.plugin = desc->name;

  const hd_runtime_table *rt = desc->runtime;
  if (!rt || rt->struct_size < sizeof(hd_runtime_table)) {
    record.code = HD_ERROR_INVALID_ARGUMENT;
    record.reason = rt ? "runtime table struct_size " + std::to_string(rt->struct_size) +
                             " is smaller than " + std::to_string(sizeof(hd_runtime_table))
                       : std::string("descriptor has no runtime table");
    return false;
  }
  struct Required {
    const char *name;
    bool present;
  } required[] = {
      {"init", rt->init != nullptr},
      {"device_count", rt->device_count != nullptr},
      {"device_info", rt->device_info != nullptr},
      {"mem_alloc", rt->mem_alloc != nullptr},
      {"mem_free", rt->mem_free != nullptr},
      {"copy_to_device", rt->copy_to_device != nullptr},
      {"copy_to_host", rt->copy_to_host != nullptr},
      {"module_load", rt->module_load != nullptr},
      {"module_unload", rt->module_unload != nullptr},
      {"launch", rt->launch != nullptr},
      {"synchronize", rt->synchronize != nullptr},
      {"event_create", rt->event_create != nullptr},
      {"event_record", rt->event_record != nullptr},
      {"event_elapsed_ms", rt->event_elapsed_ms != nullptr},
      {"event_destroy", rt->event_destroy != nullptr},
  };
  for (const Required &r : required) {
    if (!r.present) {
      record.code = HD_ERROR_INVALID_ARGUMENT;
      record.reason = std::string("runtime table has no '") + r.name + "' function";
      return false;
    }
  }
  if (desc->compiler_library && std::strchr(desc->compiler_library, '/')) {
    record.code = HD_ERROR_INVALID_ARGUMENT;
    record.reason = std::string("compiler_library '") + desc->compiler_library +
                    "' must be a file name (it is resolved next to the runtime part)";
    return false;
  }

  plugin.name = desc->name;
  plugin.defaultArch = desc->default_arch ? desc->default_arch : "";
  for (const char *const *a = desc->archs; a && *a; ++a)
    plugin.archs.push_back(*a);
  for (const std::string &a : plugin.archs)
    plugin.archPtrs.push_back(a.c_str());
  plugin.archPtrs.push_back(nullptr);
  plugin.abiMajor = desc->abi_major;
  plugin.abiMinor = desc->abi_minor;
  plugin.runtime = rt;
  return true;
}

} // namespace

std::vector<std::string> pluginSearchDirs() {
  std::vector<std::string> dirs;
  if (const char *env = std::getenv("HADRON_PLUGIN_PATH")) {
    std::string path = env;
    size_t pos = 0;
    while (pos <= path.size()) {
      size_t end = path.find(':', pos);
      if (end == std::string::npos)
        end = path.size();
      // An empty entry would mean "." to a shell; plugins never come from
      // the current directory.
      if (end > pos)
        dirs.push_back(path.substr(pos, end - pos));
      pos = end + 1;
    }
  }
  Dl_info info;
  if (::dladdr(reinterpret_cast<void *>(&pluginSearchDirs), &info) && info.dli_fname &&
      std::strchr(info.dli_fname, '/'))
    dirs.push_back(realPath(directoryOf(info.dli_fname)) + "/hadron/plugins");
  return dirs;
}

LoadResult loadPlugins(const std::vector<std::string> &dirs) {
  LoadResult result;
  result.searchedDirs = dirs;
  std::set<std::string> seenFiles;

  for (const std::string &dir : dirs) {
    std::vector<std::string> files;
    if (Status listed = listRuntimeParts(dir, files); !listed) {
      result.report.push_back({dir, "", listed.code(), listed.message()});
      continue;
    }
    for (const std::string &file : files) {
      std::string path = dir + "/" + file;
      // The same file reached through two search entries is one plugin.
      if (!seenFiles.insert(realPath(path)).second)
        continue;

      LoadRecord record{path, "", HD_OK, ""};
      void *handle = ::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
      if (!handle) {
        record.code = HD_ERROR_INVALID_ARGUMENT;
        record.reason = "dlopen failed: " + lastDlError();
        result.report.push_back(record);
        continue;
      }
      auto entry =
          reinterpret_cast<hd_plugin_entry_fn>(::dlsym(handle, HADRON_PLUGIN_ENTRY_SYMBOL));
      if (!entry) {
        record.code = HD_ERROR_INVALID_ARGUMENT;
        record.reason = std::string("no symbol '") + HADRON_PLUGIN_ENTRY_SYMBOL +
                        "': not a Hadron target plugin";
        result.report.push_back(record);
        ::dlclose(handle);
        continue;
      }

      auto plugin = std::make_unique<Plugin>();
      plugin->path = path;
      const hd_plugin_descriptor *desc = entry();
      if (!checkDescriptor(desc, *plugin, record)) {
        result.report.push_back(record);
        ::dlclose(handle);
        continue;
      }
      auto same = std::find_if(result.plugins.begin(), result.plugins.end(),
                               [&](const auto &p) { return p->name == plugin->name; });
      if (same != result.plugins.end()) {
        record.code = HD_ERROR_INVALID_ARGUMENT;
        record.reason = "plugin '" + plugin->name + "' is already loaded from " +
                        (*same)->path + "; this file is ignored";
        result.report.push_back(record);
        ::dlclose(handle);
        continue;
      }
      if (desc->compiler_library)
        plugin->compilerPath = directoryOf(path) + "/" + desc->compiler_library;

      // The library stays mapped from here on: the ABI has no call that
      // would undo what init will do.
      result.plugins.push_back(std::move(plugin));
    }
  }
  return result;
}

void initPlugin(Plugin &plugin, std::vector<LoadRecord> &report) {
  LoadRecord record{plugin.path, plugin.name, HD_OK, ""};
  hd_error err;
  clearError(&err);
  plugin.initStatus = plugin.runtime->init(&err);
  if (plugin.initStatus != HD_OK) {
    record.code = plugin.initStatus;
    record.reason = err.message[0] ? std::string(err.message)
                                   : std::string("init returned ") +
                                         std::to_string(plugin.initStatus);
    report.push_back(record);
    return;
  }
  plugin.deviceCount = plugin.runtime->device_count();
  if (plugin.deviceCount == 0) {
    record.code = HD_ERROR_NO_DEVICE;
    record.reason = "initialised, but reports no device";
    report.push_back(record);
  }
}

hd_status loadCompilerPart(Plugin &plugin, hd_error *err) {
  if (plugin.compiler)
    return HD_OK;
  if (plugin.compilerPath.empty())
    return fail(err, HD_ERROR_UNSUPPORTED,
                "plugin '%s' (%s) has no compiler part; load a precompiled binary with "
                "hd_module_load_binary",
                plugin.name.c_str(), plugin.path.c_str());
  const char *path = plugin.compilerPath.c_str();
  if (::access(path, F_OK) != 0)
    return fail(err, HD_ERROR_UNSUPPORTED,
                "compiler part of plugin '%s' not found: %s (%s); compiling IR needs it, "
                "a precompiled binary does not",
                plugin.name.c_str(), path, std::strerror(errno));
  void *handle = ::dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!handle)
    return fail(err, HD_ERROR_UNSUPPORTED, "cannot load compiler part of plugin '%s': %s",
                plugin.name.c_str(), lastDlError().c_str());
  auto entry =
      reinterpret_cast<hd_compiler_entry_fn>(::dlsym(handle, HADRON_COMPILER_ENTRY_SYMBOL));
  const hd_compiler_table *table = entry ? entry() : nullptr;
  hd_status status = HD_OK;
  if (!entry)
    status = fail(err, HD_ERROR_UNSUPPORTED, "compiler part %s has no symbol '%s'", path,
                  HADRON_COMPILER_ENTRY_SYMBOL);
  else if (!table)
    status = fail(err, HD_ERROR_UNSUPPORTED, "%s in %s returned a null table",
                  HADRON_COMPILER_ENTRY_SYMBOL, path);
  else if (table->struct_size < 3 * sizeof(uint32_t) ||
           table->abi_major != HADRON_PLUGIN_ABI_MAJOR)
    status = fail(err, HD_ERROR_UNSUPPORTED,
                  "compiler part %s was built for plugin ABI %u.%u, this runtime speaks %u.x",
                  path, table->struct_size >= 3 * sizeof(uint32_t) ? table->abi_major : 0,
                  table->struct_size >= 3 * sizeof(uint32_t) ? table->abi_minor : 0,
                  HADRON_PLUGIN_ABI_MAJOR);
  // A table of an older minor is shorter: what it lacks is read as absent.
  else if (table->struct_size < HD_COMPILER_TABLE_SIZE_1_0 || !table->compile ||
           !table->release)
    status = fail(err, HD_ERROR_UNSUPPORTED,
                  "compiler part %s has an incomplete table (struct_size %u, expected at "
                  "least %zu, compile and release set)",
                  path, table->struct_size, HD_COMPILER_TABLE_SIZE_1_0);
  if (status != HD_OK) {
    ::dlclose(handle);
    return status;
  }
  plugin.compiler = table;
  return HD_OK;
}

} // namespace hadron::runtime
