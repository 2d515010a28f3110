//===- DevicesCommand.cpp - hadron devices --------------------------------===//
//
// Everything the runtime found and everything it could not load: the
// search directories, each plugin (with its compiler part), each device's
// properties and every load-report entry with its reason.
//
//===----------------------------------------------------------------------===//

#include "Cli.h"

#include <cstdio>
#include <string>
#include <sys/stat.h>
#include <unistd.h>

namespace hadron::cli {
namespace {

const char kUsage[] =
    "usage: hadron devices [--json]\n"
    "\n"
    "Lists the plugin search directories, the plugins found (name, file, ABI,\n"
    "archs, default arch, compiler part), the devices with their properties, and\n"
    "every entry of the load report (each plugin that failed to load or has no\n"
    "device, with the reason). HADRON_PLUGIN_PATH adds directories.\n"
    "\n"
    "options:\n"
    "  --json       print one JSON object instead of text\n"
    "  -h, --help   show this help\n";

bool isDirectory(const std::string &path) {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

bool exists(const std::string &path) { return ::access(path.c_str(), F_OK) == 0; }

/// 1048576 -> "1 MiB"; exact multiples only, else bytes.
std::string bytesText(uint64_t bytes) {
  if (bytes == 0)
    return "unknown";
  const char *units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  int unit = 0;
  double value = static_cast<double>(bytes);
  while (value >= 1024 && unit < 4) {
    value /= 1024;
    ++unit;
  }
  char buf[32];
  std::snprintf(buf, sizeof(buf), value == static_cast<uint64_t>(value) ? "%.0f %s" : "%.1f %s",
                value, units[unit]);
  return buf;
}

struct Snapshot {
  std::vector<std::string> dirs;
  std::vector<hd_plugin_info> plugins;
  std::vector<runtime::Device> devices;
  std::vector<runtime::LoadRecord> report;
};

Snapshot snapshot(const runtime::Context &ctx) {
  Snapshot s;
  for (uint32_t i = 0, n = hd_context_search_dir_count(ctx.get()); i < n; ++i)
    s.dirs.push_back(hd_context_search_dir(ctx.get(), i));
  s.plugins = ctx.plugins();
  s.devices = ctx.devices();
  s.report = ctx.loadReport();
  return s;
}

std::vector<std::string> archsOf(const hd_plugin_info &p) {
  std::vector<std::string> out;
  for (const char *const *a = p.archs; a && *a; ++a)
    out.push_back(*a);
  return out;
}

std::string join(const std::vector<std::string> &items, const char *sep) {
  std::string out;
  for (const std::string &item : items)
    out += (out.empty() ? "" : sep) + item;
  return out;
}

void printText(const Snapshot &s) {
  std::printf("search directories:\n");
  for (const std::string &d : s.dirs)
    std::printf("  %s%s\n", d.c_str(), isDirectory(d) ? "" : " (missing)");

  std::printf("plugins: %zu\n", s.plugins.size());
  for (const hd_plugin_info &p : s.plugins) {
    std::printf("  %s  %s\n", p.name, p.path);
    std::printf("    ABI %u.%u, archs: %s (default %s)\n", p.abi_major, p.abi_minor,
                join(archsOf(p), ", ").c_str(), p.default_arch ? p.default_arch : "none");
    if (p.compiler_library)
      std::printf("    compiler part: %s%s\n", p.compiler_library,
                  exists(p.compiler_library) ? "" : " (missing)");
    else
      std::printf("    compiler part: none\n");
    std::printf("    init: %s, %u device(s)\n", hd_status_name(p.init_status), p.device_count);
  }

  std::printf("devices: %zu\n", s.devices.size());
  for (const runtime::Device &d : s.devices) {
    hd_device_info info = d.info();
    std::printf("  %s  %s\n", d.name().c_str(), info.name);
    std::printf("    arch %s, warp size %u, max threads/CTA %u, compute units %u\n", info.arch,
                info.warp_size, info.max_threads_per_cta, info.compute_units);
    std::printf("    shared/CTA %s, global %s, L1 %s, L2 %s\n",
                bytesText(info.shared_bytes_per_cta).c_str(), bytesText(info.global_bytes).c_str(),
                bytesText(info.l1_bytes).c_str(), bytesText(info.l2_bytes).c_str());
  }

  std::printf("load report: %zu\n", s.report.size());
  for (const runtime::LoadRecord &r : s.report)
    std::printf("  %s%s%s: %s: %s\n", r.path.c_str(), r.plugin.empty() ? "" : " [",
                r.plugin.empty() ? "" : (r.plugin + "]").c_str(), hd_status_name(r.code),
                r.reason.c_str());
}

void printJson(const Snapshot &s) {
  auto list = [](const std::vector<std::string> &items) {
    std::string out = "[";
    for (size_t i = 0; i < items.size(); ++i)
      out += (i ? ", " : "") + jsonString(items[i]);
    return out + "]";
  };
  std::printf("{\n  \"search_dirs\": [");
  for (size_t i = 0; i < s.dirs.size(); ++i)
    std::printf("%s\n    {\"path\": %s, \"exists\": %s}", i ? "," : "",
                jsonString(s.dirs[i]).c_str(), isDirectory(s.dirs[i]) ? "true" : "false");
  std::printf("\n  ],\n  \"plugins\": [");
  for (size_t i = 0; i < s.plugins.size(); ++i) {
    const hd_plugin_info &p = s.plugins[i];
    std::printf("%s\n    {\"name\": %s, \"path\": %s, \"abi\": \"%u.%u\", \"archs\": %s, "
                "\"default_arch\": %s, \"compiler_library\": %s, \"compiler_present\": %s, "
                "\"init_status\": \"%s\", \"device_count\": %u}",
                i ? "," : "", jsonString(p.name).c_str(), jsonString(p.path).c_str(), p.abi_major,
                p.abi_minor, list(archsOf(p)).c_str(),
                p.default_arch ? jsonString(p.default_arch).c_str() : "null",
                p.compiler_library ? jsonString(p.compiler_library).c_str() : "null",
                p.compiler_library && exists(p.compiler_library) ? "true" : "false",
                hd_status_name(p.init_status), p.device_count);
  }
  std::printf("\n  ],\n  \"devices\": [");
  for (size_t i = 0; i < s.devices.size(); ++i) {
    hd_device_info info = s.devices[i].info();
    std::printf("%s\n    {\"id\": %s, \"plugin\": %s, \"name\": %s, \"arch\": %s, "
                "\"warp_size\": %u, \"max_threads_per_cta\": %u, \"shared_bytes_per_cta\": %llu, "
                "\"global_bytes\": %llu, \"compute_units\": %u, \"l1_bytes\": %llu, "
                "\"l2_bytes\": %llu}",
                i ? "," : "", jsonString(s.devices[i].name()).c_str(),
                jsonString(s.devices[i].pluginName()).c_str(), jsonString(info.name).c_str(),
                jsonString(info.arch).c_str(), info.warp_size, info.max_threads_per_cta,
                static_cast<unsigned long long>(info.shared_bytes_per_cta),
                static_cast<unsigned long long>(info.global_bytes), info.compute_units,
                static_cast<unsigned long long>(info.l1_bytes),
                static_cast<unsigned long long>(info.l2_bytes));
  }
  std::printf("\n  ],\n  \"load_report\": [");
  for (size_t i = 0; i < s.report.size(); ++i) {
    const runtime::LoadRecord &r = s.report[i];
    std::printf("%s\n    {\"path\": %s, \"plugin\": %s, \"code\": \"%s\", \"reason\": %s}",
                i ? "," : "", jsonString(r.path).c_str(),
                r.plugin.empty() ? "null" : jsonString(r.plugin).c_str(), hd_status_name(r.code),
                jsonString(r.reason).c_str());
  }
  std::printf("\n  ]\n}\n");
}

} // namespace

int devicesCommand(const std::vector<std::string> &args) {
  int exitCode = kExitOk;
  auto parsed = parseCommand("devices", args, {{{"--json"}, false}}, 0, kUsage, exitCode);
  if (!parsed)
    return exitCode;
  auto ctx = runtime::Context::create();
  if (!ctx)
    return report("devices", ctx.status());
  Snapshot s = snapshot(*ctx);
  if (parsed->has("--json"))
    printJson(s);
  else
    printText(s);
  return kExitOk;
}

} // namespace hadron::cli
