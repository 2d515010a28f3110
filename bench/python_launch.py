#!/usr/bin/env python3
"""Cold compile and cached launch overhead of a @hadron.jit kernel, from Python.

    PYTHONPATH=build/default/python python3 bench/python_launch.py --device host
    PYTHONPATH=<staged>/python python3 bench/python_launch.py --device nvidia \
        --cache "$HADRON_CACHE_DIR"          # a machine without the builder

Measures, for the copy kernel of docs/frontend-python.md:
- cold compile: the first launch of a specialisation with an empty kernel
  cache (a fresh HADRON_CACHE_DIR): trace the AST through the builder,
  compile (the first one also loads the plugin's compiler part), load,
  launch; the runtime's context is made beforehand and timed apart (plugin
  loading); then a second specialisation, with the compiler part loaded;
- warm first call: the same kernel launched from a new @hadron.jit object
  with the disk caches now warm (the trace cache's IR, the kernel cache's
  binary), what a second process pays;
- with --cache DIR (caches filled ahead of time, e.g. by
  HADRON_COMPILE_ONLY=nvidia:sm_90a on the build machine, which is how this
  runs where there is no builder or compiler part): the "cold" calls are
  the first calls served by those caches;
- cached launch: kernel[grid](...) of an already compiled specialisation on
  hadron.DeviceArray arguments, wall clock per call over --launches calls
  (then one synchronize); the same through the bare C++ launch binding
  (Kernel.launch, the arguments converted from a list); both on an empty
  grid (0,), which goes through everything but the device's own launch
  (the runtime checks the arguments and returns): what the front end adds;
  and the Python path (JITFunction.run: first launches, host arrays), which
  every cached launch took before python/src/Launcher.cpp.
  With numpy arguments (copied to the device and back each launch) for
  comparison.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time

import numpy as np


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--device", default=None, help="device selector (default: "
                        "HADRON_DEVICE, else auto)")
    parser.add_argument("--launches", type=int, default=20000)
    parser.add_argument("--n", type=int, default=1024, help="elements copied per launch")
    parser.add_argument("--repeats", type=int, default=5, help="launch loops; the median")
    parser.add_argument("--cache", default=None, help="a cache directory filled ahead of time "
                        "(default: a fresh one, so the first calls compile)")
    args = parser.parse_args()

    cache = args.cache or tempfile.mkdtemp(prefix="hadron-bench-cache-")
    os.environ["HADRON_CACHE_DIR"] = cache
    cold = "first call, caches filled ahead" if args.cache else "cold compile (first call, empty cache)"
    import hadron
    import hadron.language as hl

    def define():
        @hadron.jit
        def copy(src, dst, n, XBLOCK: hl.constexpr):
            layout: hl.constexpr = hl.BlockedLayout([4], [32], [hl.num_warps()], [0])
            offs = hl.program_id(0) * XBLOCK + hl.arange(0, XBLOCK, layout)
            mask = offs < n
            hl.store(dst + offs, hl.load(src + offs, mask), mask)
        return copy

    t0 = time.perf_counter()
    dev = hadron.device(args.device)
    t_context = time.perf_counter() - t0

    n = args.n
    x_host = np.random.default_rng().standard_normal(n).astype(np.float32)
    x = hadron.to_device(x_host, dev)
    y = hadron.empty(n, np.float32, dev)
    y.copy_from(np.full(n, np.nan, np.float32))
    block = 1024
    grid = (hadron.cdiv(n, block),)

    copy = define()
    t0 = time.perf_counter()
    compiled = copy[grid](x, y, n, XBLOCK=block, device=dev)
    dev.synchronize()
    t_cold = time.perf_counter() - t0
    if not np.array_equal(y.numpy(), x_host):
        print("FAIL: the copy is wrong", file=sys.stderr)
        return 1

    # Another specialisation: the compiler part is loaded by now.
    t0 = time.perf_counter()
    copy[grid](x, y, n, XBLOCK=block // 2, device=dev)
    dev.synchronize()
    t_cold2 = time.perf_counter() - t0

    # A new kernel object traces again; the runtime finds the binary in its
    # cache (memory and disk).
    again = define()
    t0 = time.perf_counter()
    again[grid](x, y, n, XBLOCK=block, device=dev)
    dev.synchronize()
    t_warm = time.perf_counter() - t0

    def per_call_us(fn) -> float:
        times = []
        for _ in range(args.repeats):
            t = time.perf_counter()
            for _ in range(args.launches):
                fn()
            dev.synchronize()
            times.append((time.perf_counter() - t) / args.launches * 1e6)
        return statistics.median(times)

    us_python = per_call_us(lambda: copy[grid](x, y, n, XBLOCK=block, device=dev))
    kernel, launch_args = compiled.kernel, [x.buffer, y.buffer, n]
    us_binding = per_call_us(lambda: kernel.launch(grid[0], 1, 1, launch_args))
    empty = (0,)
    us_layer = per_call_us(lambda: copy[empty](x, y, n, XBLOCK=block, device=dev))
    us_binding_empty = per_call_us(lambda: kernel.launch(0, 1, 1, launch_args))
    us_run_empty = per_call_us(lambda: copy.run(x, y, n, XBLOCK=block, device=dev, grid=empty))
    launcher = copy[grid]
    yn = np.empty(n, np.float32)
    saved = args.launches
    args.launches = max(1, saved // 10)
    us_numpy = per_call_us(lambda: launcher(x_host, yn, n, XBLOCK=block, device=dev))
    args.launches = saved

    info = dev.info
    print(f"device: {dev.name} ({info['name']}, {info['arch']}); n = {n}, XBLOCK = {block}, "
          f"num_warps = 4, {grid[0]} program(s)")
    print(f"runtime context + device selection: {t_context * 1e3:8.1f} ms")
    print(f"{cold}:   {t_cold * 1e3:8.1f} ms")
    print(f"{cold}, 2nd specialisation (XBLOCK = {block // 2}): {t_cold2 * 1e3:8.1f} ms")
    print(f"first call of a new kernel object, cache warm: {t_warm * 1e3:8.1f} ms")
    print(f"cached launch, kernel[grid](...) on DeviceArrays: {us_python:8.2f} us/call")
    print(f"cached launch, C++ binding only:                  {us_binding:8.2f} us/call")
    print(f"kernel[(0,)](...): all but the device's launch:   {us_layer:8.2f} us/call")
    print(f"C++ binding only, grid (0,):                      {us_binding_empty:8.2f} us/call")
    print(f"the Python path (JITFunction.run), grid (0,):     {us_run_empty:8.2f} us/call")
    print(f"cached launch, numpy arguments (copied):          {us_numpy:8.2f} us/call")
    return 0


if __name__ == "__main__":
    sys.exit(main())
