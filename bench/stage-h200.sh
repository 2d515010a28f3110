#!/usr/bin/env bash
# Stages hadron-bench for an H200 machine that has no LLVM/MLIR: the runtime,
# the nvidia plugin's runtime part, a stripped hadron-bench, a kernel cache
# holding every kernel the nvidia run loads (compiled here for sm_90a), the
# launch-overhead kernel's cubin, env.sh and run-bench.sh.
#
#   bench/stage-h200.sh [BUILD_DIR] [OUT_DIR]     # defaults: build/bench build/h200-bench
#
# then on the H200, from the staged directory:
#
#   ./run-bench.sh            # hadron.json (+ ref.json and the ratio table when
#                             # triton_gluon_reference.py and torch are there)
#
# The cache keys are what hd_module_load_ir computes on an sm_90a device for
# the same IR, so the compiler part is never needed there (docs/runtime.md).
# Run with the default sizes: other --n / --softmax values make other kernels
# (softmax) or none at all in the cache.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(dirname "$here")"
build="${1:-$root/build/bench}"
out="${2:-$root/build/h200-bench}"
target=nvidia:sm_90a

for f in bin/hadron-bench lib/libhadron-runtime.so lib/hadron/plugins/libhadron-target-nvidia.so \
         lib/hadron/plugins/libhadron-target-nvidia-compiler.so; do
  [ -e "$build/$f" ] || {
    echo "stage-h200: $build/$f is missing; build it first:" >&2
    echo "  ninja -C $build hadron-bench hadron-target-nvidia hadron-target-nvidia-compiler" >&2
    exit 1
  }
done

rm -rf "$out"
mkdir -p "$out/bin" "$out/lib/hadron/plugins" "$out/cache"
# The plugin directory of the build tree holds the compiler part the
# compile-only run needs; the staged tree gets only the runtime part.
HADRON_PLUGIN_PATH="$build/lib/hadron/plugins" HADRON_CACHE_DIR="$out/cache" \
  "$build/bin/hadron-bench" --compile-only "$target" --cubin-out "$out/launch.cubin" \
  >"$out/compile-only.log" 2>&1 || {
  echo "stage-h200: compile-only run failed; see $out/compile-only.log" >&2
  exit 1
}
tail -n 1 "$out/compile-only.log" | sed 's/^/stage-h200: /'
cp "$build/bin/hadron-bench" "$out/bin/"
cp "$build/lib/libhadron-runtime.so" "$out/lib/"
cp "$build/lib/hadron/plugins/libhadron-target-nvidia.so" "$out/lib/hadron/plugins/"
cp "$here/compare.py" "$out/"
ref=/work/shared/bench/triton_gluon_reference.py
[ -e "$ref" ] && cp "$ref" "$out/"
strip --strip-debug "$out/bin/hadron-bench" "$out"/lib/*.so "$out"/lib/hadron/plugins/*.so
if ldd "$out/bin/hadron-bench" | grep -Eq 'libLLVM|libMLIR'; then
  echo "stage-h200: hadron-bench links LLVM/MLIR, it would not start on the H200" >&2
  exit 1
fi

cat >"$out/env.sh" <<'ENV'
# Source this: the staged runtime, plugin and cache, whatever the directory.
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
export LD_LIBRARY_PATH="$here/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export HADRON_PLUGIN_PATH="$here/lib/hadron/plugins"
export HADRON_CACHE_DIR="$here/cache"
ENV
cat >"$out/run-bench.sh" <<'RUN'
#!/usr/bin/env bash
# On the H200: Hadron's figures, then the torch/Triton/Gluon reference in the
# same command (same card, same clocks), then the ratio table.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"
. ./env.sh
out="${OUT:-.}"
./bin/hadron-bench --device nvidia --only copy,add,softmax,launch --cubin launch.cubin \
  --json "$out/hadron.json" "$@" | tee "$out/hadron.txt"
rc=${PIPESTATUS[0]}
if [ -e triton_gluon_reference.py ] && python3 -c 'import torch, triton' 2>/dev/null; then
  python3 triton_gluon_reference.py --only copy,add,softmax --out "$out/ref.json" >"$out/ref.txt" 2>&1 &&
    python3 compare.py "$out/hadron.json" "$out/ref.json" | tee "$out/compare.txt"
fi
exit $rc
RUN
chmod +x "$out/run-bench.sh"
size=$(du -sm "$out" | cut -f1)
echo "stage-h200: $out, ${size} MB"
[ "$size" -lt 20 ] || { echo "stage-h200: over the 20 MB budget" >&2; exit 1; }
