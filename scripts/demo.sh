#!/usr/bin/env bash
# Builds Hadron (preset `default`) and runs the demo: the example kernels
# parsed, verified against their target and printed by hadron-opt.
set -euo pipefail
cd "$(dirname "$0")/.."
cmake --preset default >/dev/null
cmake --build --preset default
for kernel in examples/*.mlir; do
  echo "== ${kernel}"
  ./build/default/bin/hadron-opt --canonicalize "${kernel}"
done
