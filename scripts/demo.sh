#!/usr/bin/env bash
# Builds Hadron (preset `default`) and runs the demo: the example kernels
# parsed, verified against their target and printed by hadron-opt, then the
# devices the runtime finds and every example run on the best device (a GPU
# if there is one, else the host) and checked against a host reference.
set -euo pipefail
cd "$(dirname "$0")/.."
cmake --preset default >/dev/null
cmake --build --preset default
for kernel in examples/*.mlir; do
  echo "== ${kernel}"
  ./build/default/bin/hadron-opt --canonicalize "${kernel}"
done
echo "== hadron devices"
./build/default/bin/hadron devices
echo "== hadron demo"
./build/default/bin/hadron demo
