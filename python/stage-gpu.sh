#!/usr/bin/env bash
# Stages the Python front end for a GPU machine that has no LLVM/MLIR (the
# H200 one): a directory to carry there, holding hadron's Python package with
# only hadron._runtime (no builder), libhadron-runtime, the GPU plugin's
# runtime part, the tutorials and bench/python_launch.py, and the trace and
# kernel caches filled here by running each of them with
# HADRON_COMPILE_ONLY=<target> (on the host; every kernel and autotune config
# they launch is also compiled for the target). docs/frontend-python.md,
# "On a machine without LLVM/MLIR".
#
#   python/stage-gpu.sh [--target nvidia:sm_90a] [BUILD_DIR] [OUT_DIR]
#       defaults: build/default build/gpu-python
#
# then on the GPU machine, from the carried directory:
#
#   ./run.sh                      # tutorials 01 and 02, bench/python_launch.py
#   . ./env.sh && python3 tutorials/01-intro.py --device nvidia
#
# hadron._runtime is built here for this machine's Python. Where the Python
# differs (another minor version), run.sh first rebuilds it from the carried
# sources with that machine's C++ compiler and Python headers
# (build-runtime-ext.sh, a few seconds); nothing else is compiled there.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(dirname "$here")"
target=nvidia:sm_90a
if [ "${1:-}" = "--target" ]; then
  target="$2"
  shift 2
fi
build="$(cd "${1:-$root/build/default}" && pwd)"
out="${2:-$root/build/gpu-python}"
plugin="${target%%:*}"
py=python3

need=(lib/libhadron-runtime.so "lib/hadron/plugins/libhadron-target-$plugin.so"
      "lib/hadron/plugins/libhadron-target-$plugin-compiler.so")
for f in "${need[@]}"; do
  [ -e "$build/$f" ] || {
    echo "stage-gpu: $build/$f is missing; build it first:" >&2
    echo "  cmake --build $build --target hadron-python hadron-target-$plugin" \
         "hadron-target-$plugin-compiler" >&2
    exit 1
  }
done
ext=$(ls "$build"/python/hadron/_runtime.*.so 2>/dev/null | head -n 1)
[ -n "$ext" ] && ls "$build"/python/hadron/_builder.*.so >/dev/null 2>&1 || {
  echo "stage-gpu: $build/python has no hadron._runtime/_builder; build hadron-python" >&2
  exit 1
}
nanobind="$(sed -n 's/^nanobind_DIR:[A-Z]*=//p' "$build/CMakeCache.txt")"
nanobind="$(dirname "$nanobind")"
[ -e "$nanobind/src/nb_combined.cpp" ] || {
  echo "stage-gpu: nanobind's sources not found (nanobind_DIR in $build/CMakeCache.txt)" >&2
  exit 1
}

rm -rf "$out"
mkdir -p "$out/python/hadron" "$out/lib/hadron/plugins" "$out/cache" "$out/tutorials" \
         "$out/bench" "$out/src"
out="$(cd "$out" && pwd)" # the steps below run from other directories

# Fill the caches: each script runs here as it will there, on the host, and
# every specialisation it traces is compiled for the target as well.
fill() {
  local log="$out/compile-only.log"
  echo "== $*" >>"$log"
  (cd "$out" && HADRON_COMPILE_ONLY="$target" HADRON_CACHE_DIR="$out/cache" HADRON_DEVICE=host \
     PYTHONPATH="$build/python" "$py" "$@") >>"$log" 2>&1 || {
    echo "stage-gpu: '$*' failed on the host; see $log" >&2
    exit 1
  }
  local summary
  summary=$(grep "^hadron compile-only: .* compiled for" "$log" | tail -n 1)
  echo "stage-gpu: $1: ${summary#hadron compile-only: }"
  case "$summary" in
    *", 0 failed"*) ;;
    *) echo "stage-gpu: kernels that do not compile for $target; see $log" >&2; exit 1 ;;
  esac
}
cp "$root"/python/tutorials/*.py "$out/tutorials/"
cp "$root/bench/python_launch.py" "$out/bench/"
for t in "$out"/tutorials/*.py; do
  fill "tutorials/$(basename "$t")"
done
fill bench/python_launch.py --cache "$out/cache" --launches 100 --repeats 1
# The host's autotune choices are no use there: the GPU tunes on itself.
rm -rf "$out/cache/autotune"

# The package without the builder, the runtime and the plugin's runtime part.
(cd "$build/python" && find hadron -name '*.py' -exec cp --parents {} "$out/python/" \;)
cp "$ext" "$out/python/hadron/"
cp "$build/lib/libhadron-runtime.so" "$out/lib/"
cp "$build/lib/hadron/plugins/libhadron-target-$plugin.so" "$out/lib/hadron/plugins/"
strip --strip-debug "$out"/lib/*.so "$out"/lib/hadron/plugins/*.so "$out"/python/hadron/*.so
for f in "$out"/python/hadron/*.so "$out"/lib/*.so "$out"/lib/hadron/plugins/*.so; do
  if readelf -d "$f" | grep -Eq 'NEEDED.*lib(LLVM|MLIR)'; then
    echo "stage-gpu: $f links LLVM/MLIR, it would not load there" >&2
    exit 1
  fi
done

# What rebuilding hadron._runtime for another Python needs.
mkdir -p "$out/src/python" "$out/src/include"
cp "$root"/python/src/{Bindings.h,RuntimeObjects.h,RuntimeBindings.cpp,RuntimeModule.cpp,Launcher.cpp} \
   "$out/src/python/"
cp -r "$root/runtime/include/hadron" "$out/src/include/"
cp -r "$root/plugins/include/hadron/plugin" "$out/src/include/hadron/"
mkdir -p "$out/src/nanobind"
cp -r "$nanobind"/{include,src,ext} "$out/src/nanobind/"
version="$(PYTHONPATH="$build/python" "$py" -c 'import hadron._runtime as r; print(r.version)')"

cat >"$out/build-runtime-ext.sh" <<EOF
#!/usr/bin/env bash
# Builds hadron._runtime for this machine's python3 (\${PYTHON:-python3})
# from the carried sources, against lib/libhadron-runtime.so: no LLVM/MLIR.
set -euo pipefail
cd "\$(dirname "\${BASH_SOURCE[0]}")"
py="\${PYTHON:-python3}"
include="\$("\$py" -c 'import sysconfig; print(sysconfig.get_paths()["include"])')"
suffix="\$("\$py" -c 'import sysconfig; print(sysconfig.get_config_var("EXT_SUFFIX"))')"
[ -e "\$include/Python.h" ] || { echo "build-runtime-ext: no Python.h in \$include" >&2; exit 1; }
nb=src/nanobind
\${CXX:-g++} -std=c++20 -O2 -shared -fPIC -fvisibility=hidden -fno-strict-aliasing \\
  -DHADRON_VERSION='"$version"' -DNB_COMPACT_ASSERTIONS -DNDEBUG \\
  -I"\$include" -I\$nb/include -I\$nb/ext/robin_map/include -Isrc/include \\
  src/python/RuntimeModule.cpp src/python/RuntimeBindings.cpp src/python/Launcher.cpp \\
  \$nb/src/nb_combined.cpp \\
  -Llib -lhadron-runtime -Wl,-rpath,'\$ORIGIN/../../lib' \\
  -o "python/hadron/_runtime\$suffix"
echo "build-runtime-ext: python/hadron/_runtime\$suffix"
EOF
chmod +x "$out/build-runtime-ext.sh"

cat >"$out/env.sh" <<'EOF'
# Source this: the staged package, runtime, plugin and caches, wherever the
# directory is. No builder: a kernel the caches lack is an error naming it.
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
export PYTHONPATH="$here/python${PYTHONPATH:+:$PYTHONPATH}"
export LD_LIBRARY_PATH="$here/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export HADRON_PLUGIN_PATH="$here/lib/hadron/plugins"
export HADRON_CACHE_DIR="$here/cache"
EOF

cat >"$out/run.sh" <<EOF
#!/usr/bin/env bash
# On the GPU machine: the tutorials and the launch benchmark on the GPU.
#   ./run.sh [DEVICE]        (default: $plugin)
set -uo pipefail
cd "\$(dirname "\${BASH_SOURCE[0]}")"
. ./env.sh
device="\${1:-$plugin}"
py="\${PYTHON:-python3}"
if ! "\$py" -c 'import hadron' 2>/dev/null; then
  echo "run: hadron._runtime was built for another Python; rebuilding it for \$("\$py" -V)"
  ./build-runtime-ext.sh || exit 1
fi
rc=0
for t in tutorials/*.py; do
  echo "== \$t --device \$device"
  "\$py" "\$t" --device "\$device" || rc=1
done
echo "== bench/python_launch.py --device \$device"
"\$py" bench/python_launch.py --device "\$device" --cache "\$HADRON_CACHE_DIR" || rc=1
exit \$rc
EOF
chmod +x "$out/run.sh"

size=$(du -sm "$out" | cut -f1)
echo "stage-gpu: $out for $target, ${size} MB (the carry limit is 64 MB)"
[ "$size" -lt 64 ] || { echo "stage-gpu: over the 64 MB carry limit" >&2; exit 1; }
