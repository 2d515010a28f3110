#!/usr/bin/env bash
# Makes an OpenCL CPU device that takes SPIR-V available, so that the Intel
# target's SPIR-V runs on a machine without an Intel GPU (docs/targets/intel.md).
#
#   scripts/install-opencl-cpu.sh            Intel's CPU runtime, else PoCL
#   scripts/install-opencl-cpu.sh --pocl     PoCL only (the fallback path)
#   scripts/install-opencl-cpu.sh --check    says what is registered; installs nothing
#
# First choice: Intel's CPU OpenCL runtime from PyPI (intel-opencl-rt: OpenCL
# 3.0, clCreateProgramWithIL, Intel sub-groups), installed into its own
# virtual environment and registered with the ICD loader as
# /etc/OpenCL/vendors/hadron-intel-cpu.icd. Fallback, when PyPI or the
# package cannot be had: PoCL from Debian/Ubuntu, which takes SPIR-V only
# after llvm-spirv-15 turns it into SPIR bitcode (the plugin does that for
# devices without IL support).
#
# Idempotent: what is already there is left alone. Needs root or sudo for apt
# and /etc/OpenCL/vendors. Works on Debian 12 and Ubuntu 24.04, where pip
# refuses to install into the system Python (PEP 668): hence the venv.
set -euo pipefail

PREFIX="${HADRON_OPENCL_CPU_PREFIX:-/opt/hadron/intel-opencl-rt}"
ICD_DIR=/etc/OpenCL/vendors
ICD_FILE="$ICD_DIR/hadron-intel-cpu.icd"
# Pinned: the version the plugin's CI was validated with.
INTEL_VERSION="${HADRON_INTEL_OPENCL_RT_VERSION:-2026.2.0}"

say() { echo "install-opencl-cpu: $*"; }

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { say "run as root or install sudo" >&2; exit 1; }
  SUDO="sudo"
fi
export DEBIAN_FRONTEND=noninteractive

apt_updated=0
apt_install() {
  local missing=()
  for p in "$@"; do
    [[ "$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null)" == *"install ok installed"* ]] || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  if [ $apt_updated -eq 0 ]; then
    $SUDO apt-get update -qq
    apt_updated=1
  fi
  say "apt-get install ${missing[*]}"
  $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

# The ICD loader (libOpenCL.so.1, which the plugin dlopens), clinfo for a
# look at the devices, spirv-tools for the tests' spirv-val.
base_packages() {
  apt_install ocl-icd-libopencl1 clinfo spirv-tools ca-certificates
}

# Prints the path of libintelocl.so under $PREFIX, or nothing. Only a
# library whose dependencies all resolve counts (intel-opencl-rt needs
# libimf/libsvml/libirng/libintlc from intel-cmplr-lib-rt, which its
# metadata does not require).
find_intelocl() {
  [ -d "$PREFIX" ] || return 0
  local lib
  lib="$(find "$PREFIX" -name 'libintelocl.so' \( -type f -o -type l \) 2>/dev/null | head -n 1)"
  [ -n "$lib" ] || return 0
  if [[ "$(ldd "$lib" 2>/dev/null)" == *"not found"* ]]; then
    return 0
  fi
  echo "$lib"
}

find_python() {
  for py in python3 /usr/bin/python3; do
    if command -v "$py" >/dev/null 2>&1; then
      command -v "$py"
      return 0
    fi
  done
  return 1
}

install_intel() {
  local lib
  lib="$(find_intelocl)"
  if [ -z "$lib" ]; then
    local py
    if ! py="$(find_python)"; then
      apt_install python3
      py="$(find_python)"
    fi
    if ! "$py" -m venv --help >/dev/null 2>&1 || ! "$py" -c 'import ensurepip' >/dev/null 2>&1; then
      # Debian's python3 needs python3-venv for ensurepip.
      apt_install python3-venv || true
    fi
    $SUDO mkdir -p "$(dirname "$PREFIX")"
    if [ ! -x "$PREFIX/bin/pip" ]; then
      $SUDO rm -rf "$PREFIX"
      if ! $SUDO "$py" -m venv "$PREFIX"; then
        say "python3 -m venv failed; trying pip --target" >&2
        $SUDO rm -rf "$PREFIX"
        $SUDO mkdir -p "$PREFIX"
        $SUDO "$py" -m pip install --quiet --disable-pip-version-check --break-system-packages \
          --prefix "$PREFIX" "intel-opencl-rt==$INTEL_VERSION" "intel-cmplr-lib-rt==$INTEL_VERSION" ||
          $SUDO "$py" -m pip install --quiet --disable-pip-version-check \
            --prefix "$PREFIX" "intel-opencl-rt==$INTEL_VERSION" "intel-cmplr-lib-rt==$INTEL_VERSION" || return 1
      fi
    fi
    if [ -x "$PREFIX/bin/pip" ]; then
      say "pip install intel-opencl-rt==$INTEL_VERSION into $PREFIX"
      # Tried twice: the wheels are 300 MB.
      local tries
      for tries in 1 2; do
        $SUDO "$PREFIX/bin/pip" install --quiet --disable-pip-version-check --retries 5 \
          "intel-opencl-rt==$INTEL_VERSION" "intel-cmplr-lib-rt==$INTEL_VERSION" && break
        [ "$tries" -eq 2 ] && return 1
      done
    fi
    lib="$(find_intelocl)"
    [ -n "$lib" ] || { say "intel-opencl-rt installed no libintelocl.so under $PREFIX" >&2; return 1; }
  fi
  local libdir
  libdir="$(dirname "$(readlink -f "$lib")")"
  # libintelocl.so finds its compiler, builtins, TBB and the compiler
  # runtime through its RUNPATH ($ORIGIN): pip puts every wheel's lib/ into
  # the one $PREFIX/lib.
  $SUDO mkdir -p "$ICD_DIR"
  if [ ! -f "$ICD_FILE" ] || [ "$(cat "$ICD_FILE")" != "$libdir/libintelocl.so" ]; then
    echo "$libdir/libintelocl.so" | $SUDO tee "$ICD_FILE" >/dev/null
    say "registered $libdir/libintelocl.so in $ICD_FILE"
  fi
  return 0
}

install_pocl() {
  apt_install pocl-opencl-icd llvm-spirv-15
  say "PoCL and llvm-spirv-15 installed (SPIR-V runs through llvm-spirv-15 -r)"
}

# True when the ICD loader lists a CPU device of the platform named $1.
has_platform() {
  command -v clinfo >/dev/null || return 1
  local platforms
  platforms="$(clinfo -l 2>/dev/null)"
  [[ "${platforms,,}" == *"${1,,}"* ]]
}

check() {
  local ok=1
  if [ -f "$ICD_FILE" ]; then
    say "Intel CPU runtime: $(cat "$ICD_FILE")"
    [ -f "$(cat "$ICD_FILE")" ] || { say "  ... but that file is missing" >&2; ok=0; }
  else
    say "Intel CPU runtime: not registered ($ICD_FILE absent)"
    ok=0
  fi
  if command -v clinfo >/dev/null; then
    clinfo -l 2>/dev/null || true
  fi
  [ $ok -eq 1 ]
}

mode="${1:-}"
case "$mode" in
  --check) check; exit $? ;;
  --pocl) base_packages; install_pocl; exit 0 ;;
  "") ;;
  *) say "unknown option '$mode' (use --check or --pocl)" >&2; exit 2 ;;
esac

base_packages
if install_intel; then
  if has_platform "Intel"; then
    say "Intel CPU OpenCL runtime ready"
  else
    say "Intel CPU runtime registered; clinfo does not list it yet:" >&2
    clinfo -l >&2 || true
  fi
else
  say "Intel's CPU runtime could not be installed; falling back to PoCL" >&2
  install_pocl
fi
