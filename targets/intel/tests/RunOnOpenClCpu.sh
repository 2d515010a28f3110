#!/usr/bin/env bash
# RunOnOpenClCpu.sh [--spirv-il] <hadron> <command> [args...]
#
# Runs <command> with the Intel plugin's OpenCL CPU devices listed
# (HADRON_INTEL_OPENCL_CPU=1) and HADRON_DEVICE=intel, after checking with
# `hadron devices` that one is there. Without one (no OpenCL CPU runtime
# that takes SPIR-V: scripts/install-opencl-cpu.sh installs Intel's) it
# exits 77, which ctest reports as skipped, with the plugin's reason.
# --spirv-il also skips when the device takes SPIR-V only through SPIR 1.2
# (PoCL), where no kernel that asks for its lane or sub-group builds.
set -u
spirv_il=0
if [ "${1:-}" = "--spirv-il" ]; then
  spirv_il=1
  shift
fi
hadron="$1"
shift
export HADRON_INTEL_OPENCL_CPU=1 HADRON_DEVICE=intel
report="$("$hadron" devices 2>&1)"
if ! grep -q "intel:0 .*(opencl cpu" <<<"$report"; then
  echo "SKIP: no OpenCL CPU device that takes SPIR-V (scripts/install-opencl-cpu.sh installs one):"
  grep -E "\[intel\]|intel " <<<"$report"
  exit 77
fi
if [ "$spirv_il" = 1 ] && grep -q "intel:0 .*through SPIR 1.2" <<<"$report"; then
  echo "SKIP: the OpenCL CPU device takes SPIR-V only through SPIR 1.2 (PoCL), which has no" \
       "sub-group builtins (docs/targets/intel.md):"
  grep -E "^  intel:" <<<"$report"
  exit 77
fi
grep -E "^  intel:" <<<"$report"
exec "$@"
