#!/usr/bin/env bash
# Builds Hadron (preset `default`) and runs the demo: the example kernels
# written with the C++ builder (examples/cpp, their IR written by
# hadron-examples into build/default/examples), verified and printed by
# hadron-opt, then the devices the runtime finds and every example run on the
# best device (a GPU if there is one, else the host) and checked against a
# host reference.
set -euo pipefail
cd "$(dirname "$0")/.."
cmake --preset default >/dev/null
cmake --build --preset default
built=build/default/examples
for kernel in "${built}"/*.mlir; do
  echo "== ${kernel} (from examples/cpp/$(basename "${kernel}" .mlir).cpp)"
  ./build/default/bin/hadron-opt --canonicalize "${kernel}"
done
echo "== hadron devices"
./build/default/bin/hadron devices
echo "== hadron demo --examples ${built}"
./build/default/bin/hadron demo --examples "${built}"
