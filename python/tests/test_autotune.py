"""hadron.autotune and hadron.testing.do_bench."""

from __future__ import annotations

import json
import os

import numpy as np

import hadron
import hadron.language as hl
from conftest import poisoned

CONFIGS = [
    hadron.Config({"XBLOCK": 256}, num_warps=2),
    hadron.Config({"XBLOCK": 1024}, num_warps=4),
    # Its layout spans 4 warps: it does not compile with 8 and is skipped.
    hadron.Config({"XBLOCK": 2048}, num_warps=8),
]


def make_kernel():
    @hadron.autotune(configs=CONFIGS, key=["n"], warmup=1, rep=2)
    @hadron.jit
    def tuned_copy(src, dst, n, XBLOCK: hl.constexpr):
        layout: hl.constexpr = hl.BlockedLayout([4], [32], [4 if XBLOCK == 2048 else hl.num_warps()], [0])
        offs = hl.program_id(0) * XBLOCK + hl.arange(0, XBLOCK, layout)
        hl.store(dst + offs, hl.load(src + offs, offs < n), offs < n)
    return tuned_copy


def test_autotune_picks_caches_and_reloads(rng, tmp_path, monkeypatch):
    monkeypatch.setenv("HADRON_CACHE_DIR", str(tmp_path))
    kernel = make_kernel()
    n = int(rng.integers(5000, 9000))
    x = rng.standard_normal(n).astype(np.float32)
    y = poisoned(n)
    kernel[lambda m: (hadron.cdiv(n, m["XBLOCK"]),)](x, y, n)
    np.testing.assert_array_equal(y, x)
    (entry, timings), = kernel.timings.items()
    assert entry.startswith("host:0|n=")
    assert len(timings) == 2 and all(ms > 0 for ms in timings.values())

    files = os.listdir(tmp_path / "autotune")
    assert len(files) == 1 and "tuned_copy" in files[0]
    saved = json.loads((tmp_path / "autotune" / files[0]).read_text())
    assert saved[entry]["kwargs"]["XBLOCK"] in (256, 1024)

    # A new process (here: a new decorator) takes the choice from disk.
    again = make_kernel()
    z = poisoned(n)
    again[lambda m: (hadron.cdiv(n, m["XBLOCK"]),)](x, z, n)
    np.testing.assert_array_equal(z, x)
    assert again.timings == {} and entry in again.best


def test_do_bench_returns_the_median_ms(rng):
    n = 1 << 16
    x = hadron.to_device(rng.standard_normal(n).astype(np.float32))
    y = hadron.empty(n, np.float32)

    @hadron.jit
    def copy(src, dst, n, XBLOCK: hl.constexpr):
        layout: hl.constexpr = hl.BlockedLayout([4], [32], [4], [0])
        offs = hl.program_id(0) * XBLOCK + hl.arange(0, XBLOCK, layout)
        hl.store(dst + offs, hl.load(src + offs, offs < n), offs < n)

    ms = hadron.testing.do_bench(lambda: copy[(n // 1024,)](x, y, n, XBLOCK=1024), 2, 5)
    assert isinstance(ms, float) and ms > 0
    np.testing.assert_array_equal(y.numpy(), x.numpy())
