"""examples/python/matmul_tma.py: the TMA + mbarrier + async-dot GEMM of
examples/nvidia/matmul_tma_wgmma_bf16.mlir written in Python. On the host
(copies complete at once, dots are FMA loops) against numpy on random f16
inputs and poisoned outputs, with the small tiles and with sm_90a's own
128 x 256 x 64 tile on 8 warps; compiled for nvidia:sm_90a in bf16, the
PTX must hold its TMA copies, barrier waits and m64n256k16 wgmmas."""

from __future__ import annotations

import importlib.util
import os
import runpy

import numpy as np
import pytest

from conftest import assembles, nvidia_plugin, poisoned

HERE = os.path.dirname(os.path.abspath(__file__))
EXAMPLE = os.path.join(HERE, "..", "..", "examples", "python", "matmul_tma.py")
spec = importlib.util.spec_from_file_location("matmul_tma", EXAMPLE)
example = importlib.util.module_from_spec(spec)
spec.loader.exec_module(example)


@pytest.mark.parametrize("shape,tile,group_m", [
    ((256, 256, 192), (64, 64, 32, 4), 8),    # 6 K steps: the ring of 4 wraps
    ((320, 192, 224), (64, 64, 32, 4), 3),    # 5 rows of tiles: groups of 3 and 2
    ((128, 64, 32), (64, 64, 32, 4), 8),      # 1 K step: the copies ahead are predicated off
    ((256, 512, 384), (128, 256, 64, 8), 8),  # sm_90a's tile, 6 K steps
], ids=["wraps", "groups", "one_step", "sm90a_tile"])
def test_matches_numpy_on_the_host(rng, shape, tile, group_m):
    M, N, K = shape
    BM, BN, BK, num_warps = tile
    a = rng.standard_normal((M, K)).astype(np.float16)
    b = rng.standard_normal((K, N)).astype(np.float16)
    c = poisoned((M, N))
    kernel = example.matmul(a, b, c, BM, BN, BK, num_warps, group_m=group_m)
    np.testing.assert_allclose(c, a.astype(np.float32) @ b.astype(np.float32),
                               rtol=1e-4, atol=1e-4)
    for op in ("hd.async_tensor_copy", "hd.mbarrier_wait", "{async}", "pending = 1",
               "pending = 0", "hd.memdesc_reinterpret"):
        assert op in kernel.ir, op


def test_the_example_runs_as_a_script(capsys):
    runpy.run_path(EXAMPLE, run_name="__main__")
    assert "host: 256x256x192 f16 matches numpy" in capsys.readouterr().out


def test_compiles_to_tma_and_wgmma_for_sm90a(tmp_path):
    nvidia_plugin()
    binary = example.compile_sm90a()
    ptx = binary.asm
    assert ".reqntid 256" in ptx  # 8 warps: two warpgroups of 64 rows
    # Per K step of 64: 4 k16 steps in each warpgroup, left running.
    assert ptx.count("wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16") == 4, ptx
    assert "wgmma.wait_group.sync.aligned 1;" in ptx
    assert "cp.async.bulk.tensor.2d.shared::cluster.global" in ptx
    assert "mbarrier.try_wait.parity" in ptx
    assert binary.kernels == ["matmul_tma"]
    assembles(ptx, tmp_path)
