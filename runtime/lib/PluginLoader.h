//===- PluginLoader.h - Finding and opening target plugins ------*- C++ -*-===//
//
// Searches HADRON_PLUGIN_PATH, then the install's plugin directory, for
// runtime parts and checks each descriptor against this runtime's ABI;
// initPlugin initialises one (its driver) when devices are first needed.
// Every failure becomes a LoadRecord; none is dropped.
//
//===----------------------------------------------------------------------===//
#ifndef HADRON_RUNTIME_PLUGINLOADER_H
#define HADRON_RUNTIME_PLUGINLOADER_H

#include "hadron/plugin/plugin.h"

#include <memory>
#include <string>
#include <vector>

namespace hadron::runtime {

struct LoadRecord {
  std::string path;
  std::string plugin; ///< Empty when the descriptor could not be read.
  hd_status code;
  std::string reason;
};

/// A runtime part that passed the ABI checks. Its library stays mapped for
/// the life of the process.
struct Plugin {
  std::string path;
  std::string name;
  std::string defaultArch;
  std::vector<std::string> archs;
  std::vector<const char *> archPtrs; ///< NULL-terminated view of archs.
  std::string compilerPath;           ///< Empty when there is no compiler part.
  uint32_t abiMajor = 0, abiMinor = 0;
  const hd_runtime_table *runtime = nullptr;
  hd_status initStatus = HD_OK;
  uint32_t deviceCount = 0;

  /// The compiler part, loaded on first use under the context's mutex.
  const hd_compiler_table *compiler = nullptr;
};

struct LoadResult {
  std::vector<std::unique_ptr<Plugin>> plugins;
  std::vector<LoadRecord> report;
  std::vector<std::string> searchedDirs;
};

/// The directories to search, in order: HADRON_PLUGIN_PATH's entries, then
/// `<directory of libhadron-runtime.so>/hadron/plugins`.
std::vector<std::string> pluginSearchDirs();

/// Loads every plugin found in `dirs` (their runtime parts' init has not
/// run: initPlugin, once devices are asked for).
LoadResult loadPlugins(const std::vector<std::string> &dirs);

/// Runs `plugin`'s init (which opens its driver) and counts its devices; a
/// failure or no device is added to `report`.
void initPlugin(Plugin &plugin, std::vector<LoadRecord> &report);

/// Loads `plugin`'s compiler part if it is not loaded yet. The caller holds
/// the lock that guards `plugin.compiler`.
hd_status loadCompilerPart(Plugin &plugin, hd_error *err);

} // namespace hadron::runtime

#endif // HADRON_RUNTIME_PLUGINLOADER_H
