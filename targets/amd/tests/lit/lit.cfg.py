# lit configuration for the AMD target: what each hook emits (ROCDL after
# distribute, LLVM IR, the code object's metadata), through `hadron compile`.
import ctypes
import os
import lit.formats

config.name = "HadronAMD"
config.test_format = lit.formats.ShTest(not lit_config.isWindows)
config.suffixes = [".mlir", ".test"]
config.test_source_root = os.path.dirname(__file__)
config.excludes = ["lit.cfg.py", "lit.site.cfg.py.in", "Inputs"]

# The LLVM 22 FileCheck/not/llvm-readobj, never the unversioned LLVM 14 ones.
config.environment["PATH"] = os.pathsep.join(
    [config.hadron_tools_dir, config.llvm_tools_dir, config.environment.get("PATH", "")])
for var in ("ASAN_OPTIONS", "UBSAN_OPTIONS", "LSAN_OPTIONS", "TMPDIR"):
    if var in os.environ:
        config.environment[var] = os.environ[var]
# The build's plugins, the default device libraries and HIP; nothing from
# the caller's shell.
for var in ("HADRON_DEVICE", "HADRON_PLUGIN_PATH", "HADRON_AMD_DEVICE_LIBS",
            "HADRON_AMD_HIP_LIBRARY"):
    config.environment.pop(var, None)
config.substitutions.append(("%examples", os.path.join(config.hadron_src_root, "examples")))


def hip_reports_no_device():
    """HIP is installed and says hipErrorNoDevice (a CI machine)."""
    for name in ("libamdhip64.so", "libamdhip64.so.7", "libamdhip64.so.6", "libamdhip64.so.5"):
        try:
            hip = ctypes.CDLL(name)
        except OSError:
            continue
        count = ctypes.c_int(0)
        return hip.hipGetDeviceCount(ctypes.byref(count)) == 100
    return False


if hip_reports_no_device():
    config.available_features.add("hip-no-device")
for d in ("/usr/lib/x86_64-linux-gnu/amdgcn/bitcode", "/opt/rocm/amdgcn/bitcode"):
    if os.path.exists(os.path.join(d, "ocml.bc")):
        config.available_features.add("rocm-device-libs")
