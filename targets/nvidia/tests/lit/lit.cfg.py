# lit configuration for the NVIDIA target: what each hook emits, seen
# through `hadron compile --target nvidia:<arch> --emit=llvm|asm`.
import ctypes
import os
import lit.formats

config.name = "HadronNvidia"
config.test_format = lit.formats.ShTest(not lit_config.isWindows)
config.suffixes = [".test"]
config.test_source_root = os.path.dirname(__file__)
config.excludes = ["lit.cfg.py", "lit.site.cfg.py.in"]

# The LLVM 22 FileCheck/not, never the unversioned LLVM 14 ones.
config.environment["PATH"] = os.pathsep.join(
    [config.hadron_tools_dir, config.llvm_tools_dir, config.environment.get("PATH", "")])
for var in ("ASAN_OPTIONS", "UBSAN_OPTIONS", "LSAN_OPTIONS", "TMPDIR", "CUDA_HOME", "HOME"):
    if var in os.environ:
        config.environment[var] = os.environ[var]
# The runtime finds the build's plugins next to libhadron-runtime.so.
for var in ("HADRON_DEVICE", "HADRON_PLUGIN_PATH", "HADRON_NVIDIA_DRIVER"):
    config.environment.pop(var, None)

config.substitutions.append(("%examples", os.path.join(config.hadron_src_root, "examples")))
config.substitutions.append(("%inputs", config.nvidia_inputs))

try:
    ctypes.CDLL("libcuda.so.1")
    config.available_features.add("libcuda")
except OSError:
    pass

cuda_home = os.environ.get("CUDA_HOME") or "/usr/local/cuda"
if os.path.exists(os.path.join(cuda_home, "nvvm", "libdevice", "libdevice.10.bc")):
    config.available_features.add("libdevice")
