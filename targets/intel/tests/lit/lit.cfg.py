# lit configuration for the Intel target: what each hook emits (LLVM IR and
# the SPIR-V disassembly), error messages and `hadron devices`, through the
# hadron CLI.
import ctypes
import os
import subprocess
import lit.formats

config.name = "HadronIntel"
config.test_format = lit.formats.ShTest(not lit_config.isWindows)
config.suffixes = [".mlir", ".test"]
config.test_source_root = os.path.dirname(__file__)
config.excludes = ["lit.cfg.py", "lit.site.cfg.py.in", "Inputs"]

# The LLVM 22 FileCheck/not, never the unversioned LLVM 14 ones; spirv-dis
# and spirv-val from SPIRV-Tools.
config.environment["PATH"] = os.pathsep.join(
    [config.hadron_tools_dir, config.llvm_tools_dir, config.spirv_tools_dir,
     config.environment.get("PATH", "")])
for var in ("ASAN_OPTIONS", "UBSAN_OPTIONS", "LSAN_OPTIONS", "TMPDIR", "OCL_ICD_VENDORS",
            "OCL_ICD_FILENAMES"):
    if var in os.environ:
        config.environment[var] = os.environ[var]
# The build's plugins and the machine's drivers; nothing from the caller's
# shell.
for var in ("HADRON_DEVICE", "HADRON_PLUGIN_PATH", "HADRON_INTEL_OPENCL_CPU",
            "HADRON_INTEL_DRIVER", "HADRON_INTEL_ZE_LIBRARY", "HADRON_INTEL_OPENCL_LIBRARY",
            "HADRON_CACHE_DIR"):
    config.environment.pop(var, None)
config.substitutions.append(("%examples", os.path.join(config.hadron_src_root, "examples")))


def level_zero_uninitialized():
    """The Level Zero loader is installed and zeInit says 0x78000001 (no GPU driver)."""
    try:
        ze = ctypes.CDLL("libze_loader.so.1")
    except OSError:
        return False
    return ze.zeInit(1) == 0x78000001


def opencl_cpu_device():
    """hadron lists an Intel OpenCL CPU device (scripts/install-opencl-cpu.sh)."""
    env = dict(config.environment)
    env["HADRON_INTEL_OPENCL_CPU"] = "1"
    try:
        out = subprocess.run([os.path.join(config.hadron_tools_dir, "hadron"), "devices"],
                             env=env, capture_output=True, text=True, timeout=120).stdout
    except (OSError, subprocess.SubprocessError):
        return False
    return "(opencl cpu" in out


if level_zero_uninitialized():
    config.available_features.add("ze-no-device")
if opencl_cpu_device():
    config.available_features.add("opencl-cpu")
