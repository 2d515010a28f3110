"""Elementwise kernels over every tile size the host fuses (256-4096 floats):
two loads with different masks, a select, a store, on fresh random inputs
with ragged ends, against numpy. On the host these run as one loop per tile
that takes each chunk from load to store, with an unmasked copy of the body
for chunks whose lanes are all on. (Outputs over inputs need device
pointers that alias, which numpy arrays handed to a launch are not:
HostCompilerTest.VectorAddOverlappingItsInputs covers those.) Any device
runs them."""

from __future__ import annotations

import numpy as np
import pytest

import hadron
import hadron.language as hl


@hadron.jit
def blend(a, b, out, n, nb, XBLOCK: hl.constexpr, SPT: hl.constexpr, OP: hl.constexpr):
    layout: hl.constexpr = hl.BlockedLayout([SPT], [32], [hl.num_warps()], [0])
    offs = hl.program_id(0) * XBLOCK + hl.arange(0, XBLOCK, layout=layout)
    mask = offs < n
    x = hl.load(a + offs, mask=mask, other=1.0)
    y = hl.load(b + offs, mask=offs < nb, other=2.0)
    if OP == 0:
        r = x + y
    elif OP == 1:
        r = hl.where(x > y, x * 2.0, y - x)
    else:
        r = x * y + 3.0
    hl.store(out + offs, r, mask=mask)


def reference(x: np.ndarray, y: np.ndarray, op: int) -> np.ndarray:
    if op == 0:
        return x + y
    if op == 1:
        return np.where(x > y, x * np.float32(2), y - x)
    return x * y + np.float32(3)


CONFIGS = [  # block, size per thread, warps, op
    (256, 2, 4, 0), (256, 8, 1, 1), (512, 4, 4, 2), (512, 16, 1, 0),
    (1024, 4, 8, 1), (2048, 8, 4, 2), (4096, 16, 8, 0), (4096, 4, 1, 1),
]


@pytest.mark.parametrize("block,spt,warps,op", CONFIGS)
def test_apart(rng: np.random.Generator, block: int, spt: int, warps: int, op: int) -> None:
    for n in (1, block - 3, block, 2 * block + 17):
        nb = int(rng.integers(0, n + 40))
        a = rng.standard_normal(n).astype(np.float32)
        b = rng.standard_normal(n).astype(np.float32)
        out = np.full(n + 64, np.nan, np.float32)
        blend[(hadron.cdiv(n, block),)](a, b, out, n, nb, XBLOCK=block, SPT=spt, OP=op,
                                        num_warps=warps)
        y = np.where(np.arange(n) < nb, b, np.float32(2))
        np.testing.assert_allclose(out[:n], reference(a, y, op), rtol=1e-6, atol=1e-6,
                                   err_msg=f"n = {n}, nb = {nb}")
        assert np.isnan(out[n:]).all(), f"written past n = {n}"


@hadron.jit
def exp_share(x_ptr, out, n, XBLOCK: hl.constexpr, SHARE: hl.constexpr, BASE2: hl.constexpr):
    layout: hl.constexpr = hl.BlockedLayout([4], [32], [hl.num_warps()], [0])
    offs = hl.program_id(0) * XBLOCK + hl.arange(0, XBLOCK, layout=layout)
    x = hl.load(x_ptr + offs, mask=offs < n, other=0.0)
    if BASE2:
        r = hl.exp2(x, fast=True, polynomial_share=SHARE)
    else:
        r = hl.exp(x, fast=True, polynomial_share=SHARE)
    hl.store(out + offs, r, mask=offs < n)


@pytest.mark.parametrize("share,base2", [(1.0, True), (0.5, False), (0.25, True)])
def test_exp_polynomial_share(rng: np.random.Generator, share: float, base2: bool) -> None:
    """hd.polynomial_share: within its documented bound (relative 1.02e-4,
    absolute 2^-126), on fresh inputs over exp2's whole range."""
    n = 4096 + 37
    lo, hi = (-150.0, 130.0) if base2 else (-10.0, 10.0)
    x = rng.uniform(lo, hi, n).astype(np.float32)
    x[:4] = [0.0, -np.inf, 3.0, -127.0]
    out = np.full(n + 16, np.nan, np.float32)
    exp_share[(hadron.cdiv(n, 1024),)](x, out, n, XBLOCK=1024, SHARE=share, BASE2=base2)
    with np.errstate(over="ignore"):
        want = np.exp2(x.astype(np.float64)) if base2 else np.exp(x.astype(np.float64))
        finite = np.isfinite(want.astype(np.float32))  # 2^128 and up: inf in f32
    got = out[:n].astype(np.float64)
    want[~finite] = np.inf
    assert (got[~finite] == want[~finite]).all()
    np.testing.assert_allclose(got[finite], want[finite], rtol=1.03e-4 + 1.2e-7 * 12,
                               atol=2.0**-126)
    assert got[0] == 1.0 and got[1] == 0.0
    assert np.isnan(out[n:]).all()


def test_exp_polynomial_share_checked() -> None:
    """Out of [0, 1], or without fast (afn), the verifier names the attribute."""
    x = np.ones(1024, np.float32)
    with pytest.raises(hadron.CompileError, match="hd.polynomial_share"):
        exp_share[(1,)](x, np.empty_like(x), 1024, XBLOCK=1024, SHARE=1.5, BASE2=True)
    with pytest.raises(hadron.CompileError, match="fastmath<afn>"):
        exp_unflagged[(1,)](x, np.empty_like(x), 1024, XBLOCK=1024)


@hadron.jit
def exp_unflagged(x_ptr, out, n, XBLOCK: hl.constexpr):
    layout: hl.constexpr = hl.BlockedLayout([4], [32], [hl.num_warps()], [0])
    offs = hl.program_id(0) * XBLOCK + hl.arange(0, XBLOCK, layout=layout)
    hl.store(out + offs, hl.exp2(hl.load(x_ptr + offs), polynomial_share=0.5))
