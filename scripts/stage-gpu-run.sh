#!/usr/bin/env bash
# Stages a runtime-only Hadron tree for a GPU machine that has no LLVM/MLIR:
# every hadron-e2e kernel compiled ahead of time for TARGET (plugin:arch)
# into a kernel cache, plus the binaries that need only libhadron-runtime and
# the plugin's runtime part.
#
#   scripts/stage-gpu-run.sh nvidia:sm_90a build/default build/h200
#
# then, on the GPU machine, from the staged directory:
#
#   . ./env.sh && HADRON_DEVICE=nvidia bin/hadron-e2e   # the e2e suite, from the cache
#   . ./env.sh && bin/hadron-cts-nvidia                 # the plugin CTS
#
# The cache keys are what hd_module_load_ir computes on a device of that
# arch, so the compiler part is never needed there (docs/runtime.md).
set -euo pipefail
target="${1:?usage: stage-gpu-run.sh plugin:arch BUILD_DIR OUT_DIR [WARP_SIZE]}"
build="${2:?build dir}"
out="${3:?output dir}"
warp="${4:-32}"
plugin="${target%%:*}"

rm -rf "$out"
mkdir -p "$out/bin" "$out/lib/hadron/plugins" "$out/cache"
HADRON_E2E_COMPILE_ONLY="$target" HADRON_E2E_WARP_SIZE="$warp" HADRON_CACHE_DIR="$out/cache" \
  "$build/bin/hadron-e2e" >"$out/compile-only.log" 2>&1 || {
  echo "stage-gpu-run: compile-only run failed; see $out/compile-only.log" >&2
  exit 1
}
grep -c "compile-only:" "$out/compile-only.log" | sed 's/^/stage-gpu-run: tests compiled: /'
# HADRON_STAGE_IR="examples/*.mlir ...": kernels some other binary reads
# from a source tree (HADRON_SOURCE_DIR=$out/src there), copied under
# $out/src and compiled into the cache as the device would load them.
# The plugin CTS's kernels (plugins/cts) are always staged.
cts_ir="examples/vector_add.mlir examples/transpose.mlir examples/row_softmax.mlir"
for f in $cts_ir ${HADRON_STAGE_IR:-}; do
  mkdir -p "$out/src/$(dirname "$f")"
  cp "$f" "$out/src/$f"
  HADRON_CACHE_DIR="$out/cache" "$build/bin/hadron" compile "$f" --target "$target" \
    -o /dev/null >/dev/null || { echo "stage-gpu-run: $f does not compile" >&2; exit 1; }
done
cp "$build/lib/libhadron-runtime.so" "$out/lib/"
cp "$build/lib/hadron/plugins/libhadron-target-$plugin.so" "$out/lib/hadron/plugins/"
for b in hadron-e2e "hadron-cts-$plugin" ${HADRON_STAGE_EXTRA_BINS:-}; do
  [ -e "$build/bin/$b" ] && cp "$build/bin/$b" "$out/bin/"
done
# The build's other shared libraries a staged binary loads (the layout
# library the runtime tests link, for one); none of them may need LLVM/MLIR,
# which the GPU machine lacks.
for lib in $(ldd "$out"/bin/* 2>/dev/null | awk -v b="$build/lib/" 'index($3, b) == 1 { print $3 }' | sort -u); do
  if ldd "$lib" | grep -qiE 'libLLVM|libMLIR'; then
    echo "stage-gpu-run: $lib needs LLVM/MLIR, which the GPU machine does not have" >&2
    exit 1
  fi
  cp "$lib" "$out/lib/"
done
strip --strip-debug "$out"/bin/* "$out"/lib/*.so "$out"/lib/hadron/plugins/*.so
cat >"$out/env.sh" <<'ENV'
# Source this: the staged runtime, plugin and cache, whatever the directory.
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
export LD_LIBRARY_PATH="$here/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export HADRON_PLUGIN_PATH="$here/lib/hadron/plugins"
export HADRON_CACHE_DIR="$here/cache"
export HADRON_SOURCE_DIR="$here/src"
export HADRON_CTS_KERNEL_DIR="$here/src/examples"
ENV
echo "export HADRON_CTS_LIBRARY=\"\$here/lib/hadron/plugins/libhadron-target-$plugin.so\"" >>"$out/env.sh"
du -sh "$out"
