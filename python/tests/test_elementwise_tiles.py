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
