# lit configuration for Hadron's IR tests.
import os
import lit.formats

config.name = "Hadron"
config.test_format = lit.formats.ShTest(not lit_config.isWindows)
config.suffixes = [".mlir", ".test"]
config.test_source_root = os.path.dirname(__file__)
config.excludes = ["CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py.in", "Inputs"]

# The LLVM 22 FileCheck/not/count, never the unversioned LLVM 14 ones.
config.environment["PATH"] = os.pathsep.join(
    [config.hadron_tools_dir, config.llvm_tools_dir, config.environment.get("PATH", "")])
for var in ("ASAN_OPTIONS", "UBSAN_OPTIONS", "LSAN_OPTIONS"):
    if var in os.environ:
        config.environment[var] = os.environ[var]
config.substitutions.append(("%hadron_src", config.hadron_src_root))
