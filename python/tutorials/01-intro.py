"""
Introduction: copying memory, the effect of XBLOCK, autotuning
==============================================================

A port of Gluon's first tutorial to Hadron: the imports change
(``hadron`` for ``triton``/``gluon``, ``hadron.language`` for
``gluon.language``), the kernels do not. Each section is a kernel, a test
that checks it against numpy, and a benchmark; ``python3 01-intro.py
--device host`` runs them all and prints the figures
(docs/tutorials/01-intro.md shows them).
"""

from __future__ import annotations

import argparse

import numpy as np

import hadron
import hadron.language as hl

# %%
# A kernel is a Python function decorated with ``@hadron.jit``. Launched on a
# grid of programs, each runs the body once. This one copies one value:
# ``in_ptr`` and ``out_ptr`` are pointers to the arrays' first elements.


@hadron.jit
def copy_scalar_kernel(in_ptr, out_ptr):
    value = hl.load(in_ptr)
    hl.store(out_ptr, value)


def copy_scalar(input, output, device=None):
    copy_scalar_kernel[(1,)](input, output, num_warps=1, device=device)


def test_copy_scalar(device=None):
    rng = np.random.default_rng()
    x = rng.standard_normal(1).astype(np.float32)
    y = np.full(1, np.nan, np.float32)
    copy_scalar(x, y, device)
    np.testing.assert_array_equal(y, x)


# %%
# Parameters annotated ``hl.constexpr`` are compile-time constants: each
# value gives a kernel of its own, compiled once and cached. Here every
# program copies XBLOCK elements, one at a time, in a loop that runs in the
# kernel (``range`` on runtime values becomes an scf.for).


@hadron.jit
def memcpy_kernel(in_ptr, out_ptr, xnumel, XBLOCK: hl.constexpr):
    pid = hl.program_id(0)
    start = pid * XBLOCK
    end = min(start + XBLOCK, xnumel)
    for i in range(start, end):
        value = hl.load(in_ptr + i)
        hl.store(out_ptr + i, value)


def memcpy(input, output, XBLOCK, device=None):
    xnumel = input.shape[0]
    grid = (hadron.cdiv(xnumel, XBLOCK),)
    memcpy_kernel[grid](input, output, xnumel, XBLOCK, num_warps=1, device=device)


def test_memcpy(device=None):
    rng = np.random.default_rng()
    for xnumel, XBLOCK in [(200, 128), (1000, 256), (4096, 1024)]:
        x = rng.standard_normal(xnumel).astype(np.float32)
        y = np.full(xnumel, np.nan, np.float32)
        memcpy(x, y, XBLOCK, device)
        np.testing.assert_array_equal(y, x)


# %%
# The effect of XBLOCK. Few large blocks leave cores idle; many small ones
# pay each program's start-up. ``hadron.testing.do_bench`` times launches
# with the device's events and returns the median in ms. Device arrays
# (``hadron.to_device``) keep host copies out of the timing.


def bench_memcpy(XBLOCK, xnumel=1 << 20, device=None):
    x = hadron.to_device(np.random.default_rng().standard_normal(xnumel).astype(np.float32),
                         device)
    y = hadron.empty(xnumel, np.float32, device)
    ms = hadron.testing.do_bench(lambda: memcpy(x, y, XBLOCK, device), device=device)
    np.testing.assert_array_equal(y.numpy(), x.numpy())
    return 2 * x.nbytes / ms * 1e-6  # GB/s


# %%
# Autotuning: ``hadron.autotune`` times every config on the first launch for
# a new key (here the size) and keeps the fastest, in memory and on disk
# under the runtime's cache directory.


@hadron.autotune(
    configs=[hadron.Config({"XBLOCK": 2**i}, num_warps=1) for i in range(8, 15, 2)],
    key=["xnumel"],
)
@hadron.jit
def memcpy_kernel_autotune(in_ptr, out_ptr, xnumel, XBLOCK: hl.constexpr):
    memcpy_kernel(in_ptr, out_ptr, xnumel, XBLOCK)


def memcpy_autotune(input, output, device=None):
    xnumel = input.shape[0]

    def grid(META):
        return (hadron.cdiv(xnumel, META["XBLOCK"]),)

    memcpy_kernel_autotune[grid](input, output, xnumel, device=device)


def test_memcpy_autotune(device=None):
    x = np.random.default_rng().standard_normal(3000).astype(np.float32)
    y = np.full(3000, np.nan, np.float32)
    memcpy_autotune(x, y, device)
    np.testing.assert_array_equal(y, x)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[1])
    parser.add_argument("--device", default=None, help="a device selector (default: "
                        "HADRON_DEVICE, else auto)")
    parser.add_argument("--xnumel", type=int, default=1 << 20)
    args = parser.parse_args()
    test_copy_scalar(args.device)
    test_memcpy(args.device)
    test_memcpy_autotune(args.device)
    print(f"device: {hadron.device(args.device).info['name']}")
    print("memcpy, one element per loop iteration:")
    for XBLOCK in [2**i for i in range(8, 17, 2)]:
        print(f"  XBLOCK={XBLOCK:<6} {bench_memcpy(XBLOCK, args.xnumel, args.device):8.2f} GB/s")
    x = hadron.to_device(np.zeros(args.xnumel, np.float32), args.device)
    y = hadron.empty(args.xnumel, np.float32, args.device)
    memcpy_autotune(x, y, args.device)
    print(f"autotune picked {list(memcpy_kernel_autotune.best.values())[0]}")


if __name__ == "__main__":
    main()
