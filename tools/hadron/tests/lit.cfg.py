# lit configuration for the hadron CLI tests.
import os
import lit.formats

config.name = "HadronCLI"
config.test_format = lit.formats.ShTest(not lit_config.isWindows)
config.suffixes = [".test"]
config.test_source_root = os.path.dirname(__file__)
config.excludes = ["CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py.in", "Inputs"]

# The LLVM 22 FileCheck/not/count, never the unversioned LLVM 14 ones.
config.environment["PATH"] = os.pathsep.join(
    [config.hadron_tools_dir, config.llvm_tools_dir, config.environment.get("PATH", "")])
for var in ("ASAN_OPTIONS", "UBSAN_OPTIONS", "LSAN_OPTIONS", "TMPDIR"):
    if var in os.environ:
        config.environment[var] = os.environ[var]
# The runtime finds the build's plugins next to libhadron-runtime.so; the
# tests must not see a selector or plugin path from the caller's shell.
for var in ("HADRON_DEVICE", "HADRON_PLUGIN_PATH"):
    config.environment.pop(var, None)

config.substitutions.append(("%examples", os.path.join(config.hadron_src_root, "examples")))
config.substitutions.append(("%inputs", os.path.join(os.path.dirname(__file__), "Inputs")))
config.substitutions.append(("%plugin_dir", config.hadron_plugin_dir))

# Tests that expect a vendor to be absent do not run where its plugin is built.
for vendor in ("nvidia", "amd", "intel"):
    if os.path.exists(os.path.join(config.hadron_plugin_dir, "libhadron-target-%s.so" % vendor)):
        config.available_features.add("plugin-" + vendor)
