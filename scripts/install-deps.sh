#!/usr/bin/env bash
# Installs what Hadron needs to build and test on Debian 12 or Ubuntu 24.04.
# Idempotent: packages already present are left alone, and apt runs only when
# something is missing. Needs root or sudo.
set -euo pipefail

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "install-deps: run as root or install sudo" >&2; exit 1; }
  SUDO="sudo"
fi
export DEBIAN_FRONTEND=noninteractive

PACKAGES=(
  build-essential cmake ninja-build ccache git python3 pkg-config file
  llvm-22 llvm-22-dev llvm-22-tools libmlir-22-dev mlir-22-tools lld-22 clang-22
  libgtest-dev libgmock-dev python3-venv
  # The Python package (python/): headers to build hadron._C, numpy and pytest
  # for its tests; nanobind is pip-installed by the configure (python/CMakeLists.txt)
  python3-dev python3-numpy python3-pytest
  # AMD: device libraries (ockl/ocml bitcode) and the HIP runtime (dlopen'ed)
  rocm-device-libs libamdhip64-5
  # Intel: SPIR-V validation, the Level Zero and OpenCL ICD loaders (dlopen'ed)
  spirv-tools libze1 libze-dev ocl-icd-libopencl1 ocl-icd-opencl-dev clinfo
  # Conformance report rendered in a real browser
  chromium
)
HERE="$(cd "$(dirname "$0")" && pwd)"

# The Python tests run under the `python3` the build finds first on PATH.
# Debian's gets numpy and pytest from apt (below); another one (pyenv, a
# virtual environment) gets them from pip, or python.pytest would not be
# added to the suite.
python_test_deps() {
  local py
  py="$(command -v python3 || true)"
  [ -n "$py" ] || return 0
  "$py" -c "import numpy, pytest" 2>/dev/null && return 0
  case "$(readlink -f "$py")" in
    /usr/bin/*) return 0 ;; # apt's python3-numpy and python3-pytest
  esac
  echo "install-deps: pip install numpy pytest for $py"
  "$py" -m pip install --quiet numpy pytest
}

missing=()
for p in "${PACKAGES[@]}"; do
  [[ "$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null)" == *"install ok installed"* ]] || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: every package is installed"
  python_test_deps
  # An OpenCL CPU device that takes SPIR-V (the Intel target's CI executor).
  "$HERE/install-opencl-cpu.sh"
  exit 0
fi
echo "install-deps: installing ${missing[*]}"

$SUDO apt-get update -qq
# Whether apt can install package $1. (Not `apt-cache | grep -q` under
# pipefail: grep exits at the first match, apt-cache dies of SIGPIPE and the
# pipeline reads as failed.)
has_candidate() {
  local policy
  policy="$(apt-cache policy "$1" 2>/dev/null)"
  [[ "$policy" =~ Candidate:\ [0-9] ]]
}
# LLVM 22 is in Debian 12's security archive; Ubuntu 24.04 gets it from
# apt.llvm.org.
if ! has_candidate llvm-22-dev; then
  . /etc/os-release
  codename="${VERSION_CODENAME:-noble}"
  echo "install-deps: adding apt.llvm.org for ${codename}"
  $SUDO apt-get install -y -qq curl gnupg ca-certificates >/dev/null
  curl -fsSL https://apt.llvm.org/llvm-snapshot.gpg.key | $SUDO gpg --dearmor --yes -o /usr/share/keyrings/llvm.gpg
  echo "deb [signed-by=/usr/share/keyrings/llvm.gpg] http://apt.llvm.org/${codename}/ llvm-toolchain-${codename}-22 main" |
    $SUDO tee /etc/apt/sources.list.d/llvm-22.list >/dev/null
  $SUDO apt-get update -qq
fi
# Optional packages some releases lack (Ubuntu ships chromium as a snap, and
# names its ROCm bitcode package differently) are skipped with a warning: the
# tests that need them skip and say why.
OPTIONAL=" rocm-device-libs libamdhip64-5 chromium clinfo "
install=()
for p in "${missing[@]}"; do
  if [[ "$OPTIONAL" == *" $p "* ]] && ! has_candidate "$p"; then
    echo "install-deps: warning: $p is not available here; tests that need it will skip" >&2
    continue
  fi
  install+=("$p")
done
$SUDO apt-get install -y -qq --no-install-recommends "${install[@]}"
python_test_deps
"$HERE/install-opencl-cpu.sh"
echo "install-deps: done"
