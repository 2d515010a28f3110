#!/usr/bin/env bash
# Stages one tree for a whole H200 check, run in a single device call: the
# NVIDIA runtime tests, the plugin CTS, the e2e suite, the conformance suite and
# hadron-bench, with every kernel they load compiled here for sm_90a into one
# kernel cache (the H200 machine has no LLVM/MLIR).
#
#   scripts/stage-h200-all.sh [BUILD_DIR] [OUT_DIR]   # defaults: build/default build/h200
#
# then on the H200, from the repository root there (OUT_DIR.tgz carried and
# unpacked first: tar xzf build/h200.tgz -C build):
#
#   build/h200/run-all.sh            # logs and JSON into build/h200/out, and
#                                    # out.tgz of them into $OUT where it is set
#   build/h200/run-all.sh bench      # only the benchmarks
#
# run-all.sh runs each step under `timeout` so that one hang cannot use up the
# call; its summary lists each step's exit status.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${1:-$root/build/default}"
out="${2:-$root/build/h200}"
target=nvidia:sm_90a
cd "$root"

# The examples, and the inputs NvidiaRuntimeTest.cpp reads (input("...")).
inputs="$(grep -o 'input("[a-z_0-9]*\.mlir")' targets/nvidia/tests/NvidiaRuntimeTest.cpp |
  sed 's/input("\(.*\)")/targets\/nvidia\/tests\/Inputs\/\1/' | sort -u)"
ir="$(echo examples/*.mlir examples/nvidia/*.mlir $inputs | tr '\n' ' ')"
HADRON_STAGE_EXTRA_BINS="hadron NvidiaRuntimeTests hadron-bench" HADRON_STAGE_IR="$ir" \
  HADRON_PLUGIN_PATH="$build/lib/hadron/plugins" scripts/stage-gpu-run.sh "$target" "$build" "$out"

export HADRON_PLUGIN_PATH="$build/lib/hadron/plugins" HADRON_CACHE_DIR="$out/cache"
# The mma.sync and wgmma test kernels NvidiaRuntimeTests builds in-process.
mma="$(mktemp -d)"
"$build/bin/nvidia-mma-kernels" "$mma"
for f in "$mma"/*.mlir; do
  "$build/bin/hadron" compile "$f" --target "$target" -o /dev/null >/dev/null
done
rm -rf "$mma"
# The conformance kernels (the text does not depend on the seed).
"$build/bin/hadron" conformance --device none --target "$target" >"$out/conformance-compile.log" 2>&1 || {
  echo "stage-h200-all: conformance compile-only failed; see $out/conformance-compile.log" >&2
  exit 1
}
# Every kernel hadron-bench's GPU run loads, and the launch-overhead cubin.
"$build/bin/hadron-bench" --compile-only "$target" --cubin-out "$out/launch.cubin" \
  --only copy,add,softmax,matmul,attention,launch >"$out/bench-compile.log" 2>&1 || {
  echo "stage-h200-all: bench compile-only failed; see $out/bench-compile.log" >&2
  exit 1
}
cp bench/compare.py bench/attention_reference.py bench/gluon_matmul_reference.py "$out/"
ref=/work/shared/bench/triton_gluon_reference.py
[ -e "$ref" ] && cp "$ref" "$out/"

cat >"$out/run-all.sh" <<'RUN'
#!/usr/bin/env bash
# On the H200: the checks, then the benchmarks, each under a time limit.
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
. "$here/env.sh"
export HADRON_DEVICE=nvidia PYTHONUNBUFFERED=1
out="$here/out"
mkdir -p "$out"
summary=()
step() { # step NAME SECONDS COMMAND...
  local name=$1 limit=$2
  shift 2
  echo "=== $name: $*"
  local t0=$SECONDS
  timeout "$limit" "$@" >"$out/$name.log" 2>&1
  local rc=$?
  tail -n 4 "$out/$name.log"
  summary+=("$name rc=$rc $((SECONDS - t0))s")
}
bin="$here/bin"
if [ "${1:-all}" != bench ]; then
  step devices 30 "$bin/hadron" devices
  step runtime 240 "$bin/NvidiaRuntimeTests"
  step cts 60 "$bin/hadron-cts-nvidia"
  step e2e 240 "$bin/hadron-e2e"
  step conformance 240 "$bin/hadron" conformance --device nvidia
fi
if [ "${1:-all}" != check ]; then
  # cuBLAS for hadron-bench's own GEMM reference: torch's wheel, else the toolkit's.
  cublas="$(python3 -c 'import glob, site
print(next(iter(sorted(p for d in site.getsitepackages()
                       for p in glob.glob(d + "/nvidia/**/libcublas.so.1[23]", recursive=True))), ""))' \
    2>/dev/null)"
  [ -n "$cublas" ] || cublas="$(ls /usr/local/cuda/lib64/libcublas.so.1[23] 2>/dev/null | head -n 1)"
  step bench 300 "$bin/hadron-bench" --device nvidia --only matmul,attention \
    ${cublas:+--cublas "$cublas"} --json "$out/hadron.json"
  if python3 -c 'import torch, triton' 2>/dev/null; then
    [ -e "$here/triton_gluon_reference.py" ] &&
      step ref-matmul 300 python3 "$here/triton_gluon_reference.py" --only matmul --out "$out/ref.json"
    step ref-attention 300 python3 "$here/attention_reference.py" --out "$out/ref-attention.json"
    step ref-gluon 300 python3 "$here/gluon_matmul_reference.py" --out "$out/ref-gluon.json"
    refs=()
    for f in ref ref-attention ref-gluon; do [ -s "$out/$f.json" ] && refs+=("$out/$f.json"); done
    [ -s "$out/hadron.json" ] && [ ${#refs[@]} -gt 0 ] &&
      step compare 30 python3 "$here/compare.py" "$out/hadron.json" "${refs[@]}"
  fi
fi
printf '%s\n' "${summary[@]}" | tee "$out/summary.txt"
if [ -n "${OUT:-}" ]; then tar czf "$OUT/out.tgz" -C "$here" out; fi
RUN
chmod +x "$out/run-all.sh"
# A device call carries at most 64 MiB with the working tree: carry the
# tarball (about 8 MB: the cache entries hold PTX text, which compresses
# well), leaving room for variants compiled into the cache afterwards
# (then pack again: tar czf "$out.tgz" -C "$(dirname "$out")" "$(basename "$out")").
strip --strip-all "$out"/bin/*
rm -f "$out/compile-only.log"
tar czf "$out.tgz" -C "$(dirname "$out")" "$(basename "$out")"
size=$(du -sm "$out.tgz" | cut -f1)
echo "stage-h200-all: $out and $out.tgz (${size} MB; carry it and unpack it there)"
[ "$size" -le 48 ] || { echo "stage-h200-all: $out.tgz is over the 48 MB a device call has room for" >&2; exit 1; }
