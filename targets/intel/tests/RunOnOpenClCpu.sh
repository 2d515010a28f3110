#!/usr/bin/env bash
# RunOnOpenClCpu.sh <hadron> <command> [args...]
#
# Runs <command> with the Intel plugin's OpenCL CPU devices listed
# (HADRON_INTEL_OPENCL_CPU=1) and HADRON_DEVICE=intel, after checking with
# `hadron devices` that one is there. Without one (no OpenCL CPU runtime
# that takes SPIR-V: scripts/install-opencl-cpu.sh installs Intel's) it
# exits 77, which ctest reports as skipped, with the plugin's reason.
set -u
hadron="$1"
shift
export HADRON_INTEL_OPENCL_CPU=1 HADRON_DEVICE=intel
report="$("$hadron" devices 2>&1)"
if ! grep -q "intel:0 .*(opencl cpu" <<<"$report"; then
  echo "SKIP: no OpenCL CPU device that takes SPIR-V (scripts/install-opencl-cpu.sh installs one):"
  grep -E "\[intel\]|intel " <<<"$report"
  exit 77
fi
grep -E "^  intel:" <<<"$report"
exec "$@"
