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
#   ./run-e2e.sh                      # the e2e suite on the GPU, from the cache
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
cp "$build/lib/libhadron-runtime.so" "$out/lib/"
cp "$build/lib/hadron/plugins/libhadron-target-$plugin.so" "$out/lib/hadron/plugins/"
for b in hadron-e2e ${HADRON_STAGE_EXTRA_BINS:-}; do
  [ -e "$build/bin/$b" ] && cp "$build/bin/$b" "$out/bin/"
done
strip --strip-debug "$out"/bin/* "$out"/lib/*.so "$out"/lib/hadron/plugins/*.so
cat >"$out/env.sh" <<'ENV'
# Source this: the staged runtime, plugin and cache, whatever the directory.
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
export LD_LIBRARY_PATH="$here/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export HADRON_PLUGIN_PATH="$here/lib/hadron/plugins"
export HADRON_CACHE_DIR="$here/cache"
ENV
du -sh "$out"
