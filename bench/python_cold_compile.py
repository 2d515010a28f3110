#!/usr/bin/env python3
"""Cold compile of a copy kernel, Hadron's Python front end against Gluon, on one CPU.

Each figure is the median over --runs fresh processes, each with empty caches (a new
HADRON_CACHE_DIR, a new TRITON_CACHE_DIR): what the first call of a kernel costs in a new
process. The kernels are Gluon tutorial 01's `memcpy_kernel` (a loop of scalar copies) and
the blocked copy of docs/frontend-python.md (block 1024, 4 per thread, 4 warps), the same
source for both front ends but for `gl`/`hl`. Gluon compiles for GPUTarget("cuda", 90, 32)
with `triton.compile` (no GPU needed; triton's own ptxas makes the cubin); Hadron with
`hadron.compile(kernel, signature, constexprs, target=...)` for nvidia:sm_90a (its cubin, by
CUDA's ptxas) and for the host. Import time is counted apart from the compile; "in steps"
times apart what hadron.compile does on the way (the runtime's context, the builder's
import). It asserts nothing but that a binary came out. Figures: docs/performance.md, "Cold
compile against Gluon".

    PYTHONPATH=build/default/python python3 bench/python_cold_compile.py \\
        --triton-python <venv with triton>/bin/python --runs 9

A child (--child ...) runs one measurement and prints it as JSON.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time

KERNELS = ("memcpy", "blocked")


def _gluon_child(kernel: str) -> dict:
    t0 = time.perf_counter()
    import triton
    from triton.backends.compiler import GPUTarget
    from triton.experimental import gluon
    from triton.experimental.gluon import language as gl
    from triton.experimental.gluon._runtime import GluonASTSource
    t1 = time.perf_counter()

    @gluon.jit
    def memcpy_kernel(in_ptr, out_ptr, xnumel, XBLOCK: gl.constexpr):
        pid = gl.program_id(0)
        start = pid * XBLOCK
        end = min(start + XBLOCK, xnumel)
        for i in range(start, end):
            value = gl.load(in_ptr + i)
            gl.store(out_ptr + i, value)

    @gluon.jit
    def copy_kernel(src, dst, n, XBLOCK: gl.constexpr):
        layout: gl.constexpr = gl.BlockedLayout([4], [32], [4], [0])
        offsets = gl.program_id(0) * XBLOCK + gl.arange(0, XBLOCK, layout=layout)
        mask = offsets < n
        gl.store(dst + offsets, gl.load(src + offsets, mask=mask), mask=mask)

    fn = memcpy_kernel if kernel == "memcpy" else copy_kernel
    names = fn.arg_names
    signature = {names[0]: "*fp32", names[1]: "*fp32", names[2]: "i32", "XBLOCK": "constexpr"}
    # What a launch on 16-byte aligned tensors specialises.
    attrs = {(0,): [["tt.divisibility", 16]], (1,): [["tt.divisibility", 16]]}
    src = GluonASTSource(fn, signature, {"XBLOCK": 1024}, attrs)
    compiled = triton.compile(src, target=GPUTarget("cuda", 90, 32), options={"num_warps": 4})
    t2 = time.perf_counter()
    assert len(compiled.asm["cubin"]) > 0
    return {"import_ms": (t1 - t0) * 1e3, "compile_ms": (t2 - t1) * 1e3,
            "binary_bytes": len(compiled.asm["cubin"])}


def _hadron_child(kernel: str, target: str, steps: bool) -> dict:
    """hadron.compile as a user calls it; with `steps`, what it does first
    (the runtime's context, the builder's import) is done, and timed, apart."""
    t0 = time.perf_counter()
    import hadron
    import hadron.language as hl
    t1 = time.perf_counter()
    if steps:
        hadron.runtime.context()  # the runtime and the plugins' runtime parts
    t2 = time.perf_counter()
    if steps:
        import hadron._builder  # noqa: F401  (the builder: libMLIR/libLLVM)
    t3 = time.perf_counter()

    @hadron.jit
    def memcpy_kernel(in_ptr, out_ptr, xnumel, XBLOCK: hl.constexpr):
        pid = hl.program_id(0)
        start = pid * XBLOCK
        end = min(start + XBLOCK, xnumel)
        for i in range(start, end):
            value = hl.load(in_ptr + i)
            hl.store(out_ptr + i, value)

    @hadron.jit
    def copy_kernel(src, dst, n, XBLOCK: hl.constexpr):
        layout: hl.constexpr = hl.BlockedLayout([4], [32], [4], [0])
        offsets = hl.program_id(0) * XBLOCK + hl.arange(0, XBLOCK, layout=layout)
        mask = offsets < n
        hl.store(dst + offsets, hl.load(src + offsets, mask=mask), mask=mask)

    fn = memcpy_kernel if kernel == "memcpy" else copy_kernel
    names = fn.arg_names
    signature = {names[0]: "*f32", names[1]: "*f32", names[2]: "i32"}
    t4 = time.perf_counter()
    binary = hadron.compile(fn, signature, {"XBLOCK": 1024}, target=target, num_warps=4)
    t5 = time.perf_counter()
    assert binary.binary_size > 0
    times = {"import_ms": (t1 - t0) * 1e3, "compile_ms": (t5 - t1) * 1e3 - (t4 - t3) * 1e3,
             "binary_bytes": binary.binary_size}
    if steps:
        times.update(context_ms=(t2 - t1) * 1e3, builder_import_ms=(t3 - t2) * 1e3,
                     trace_compile_ms=(t5 - t4) * 1e3)
    return times


def _child(args: argparse.Namespace) -> None:
    front, kernel = args.child, args.kernel
    out = _gluon_child(kernel) if front == "gluon" else _hadron_child(kernel, args.target,
                                                                       args.steps)
    print(json.dumps(out))


def _run_fresh(python: str, argv: list) -> dict:
    with tempfile.TemporaryDirectory(prefix="cold-compile-") as cache:
        env = dict(os.environ, HADRON_CACHE_DIR=os.path.join(cache, "hadron"),
                   TRITON_CACHE_DIR=os.path.join(cache, "triton"),
                   TRITON_DEFAULT_FP_FUSION="1")
        t0 = time.perf_counter()
        p = subprocess.run([python, os.path.abspath(__file__), *argv], env=env,
                           capture_output=True, text=True)
        wall = (time.perf_counter() - t0) * 1e3
    if p.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} failed:\n{p.stderr[-3000:]}")
    result = json.loads(p.stdout.strip().splitlines()[-1])
    result["process_ms"] = wall
    return result


def _cpu() -> str:
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return f"{line.split(':', 1)[1].strip()}, {os.cpu_count()} cores"
    except OSError:
        pass
    return platform.processor() or "unknown CPU"


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--runs", type=int, default=9)
    p.add_argument("--triton-python", default=sys.executable,
                   help="an interpreter that imports triton (a virtualenv's); '' skips Gluon")
    p.add_argument("--targets", default="nvidia:sm_90a,host")
    p.add_argument("--kernels", default=",".join(KERNELS))
    p.add_argument("--child", choices=("gluon", "hadron"), help=argparse.SUPPRESS)
    p.add_argument("--kernel", choices=KERNELS, help=argparse.SUPPRESS)
    p.add_argument("--target", help=argparse.SUPPRESS)
    p.add_argument("--steps", action="store_true", help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.child:
        _child(args)
        return

    try:
        load = os.getloadavg()[0]
    except OSError:
        load = float("nan")
    print(f"# {_cpu()}; load average {load:.1f}; median of {args.runs} fresh processes, "
          "empty caches; ms")
    cases = []
    for kernel in args.kernels.split(","):
        if args.triton_python:
            cases.append((f"gluon {kernel} cuda:90", args.triton_python,
                          ["--child", "gluon", "--kernel", kernel]))
        for target in args.targets.split(","):
            argv = ["--child", "hadron", "--kernel", kernel, "--target", target]
            cases.append((f"hadron {kernel} {target}", sys.executable, argv))
            cases.append((f"  {kernel} {target} in steps", sys.executable, argv + ["--steps"]))
    fields = ("import_ms", "context_ms", "builder_import_ms", "trace_compile_ms", "compile_ms",
              "process_ms")
    print(f"{'case':32s} " + " ".join(f"{f[:-3]:>15s}" for f in fields))
    # Cases alternate within each round, so that a change in the machine's
    # load falls on all of them.
    runs: dict = {name: [] for name, _, _ in cases}
    for _ in range(args.runs):
        for name, python, argv in cases:
            runs[name].append(_run_fresh(python, argv))
    results = {}
    for name, _, _ in cases:
        med = {f: statistics.median(r[f] for r in runs[name]) for f in fields
               if f in runs[name][0]}
        results[name.strip()] = med
        print(f"{name:32s} " + " ".join(f"{med[f]:15.1f}" if f in med else f"{'':>15s}"
                                        for f in fields))
    print(json.dumps(results))


if __name__ == "__main__":
    main()
