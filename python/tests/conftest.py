"""Shared fixtures: fresh random inputs (the seed is printed on failure) and
poisoned outputs, so an element a kernel does not write fails the check."""

from __future__ import annotations

import os
import secrets
import shutil
import subprocess

import numpy as np
import pytest

import hadron


@pytest.fixture
def rng(request: pytest.FixtureRequest) -> np.random.Generator:
    seed = secrets.randbits(32)
    request.node.user_properties.append(("seed", seed))
    print(f"seed {seed}")
    return np.random.default_rng(seed)


def poisoned(shape, dtype=np.float32) -> np.ndarray:
    """An output no kernel computes: NaN for floats, 0x5A.. bytes for ints."""
    dtype = np.dtype(dtype)
    if dtype.kind == "f":
        return np.full(shape, np.nan, dtype)
    return np.full(shape, 0x5A5A5A5A5A5A5A5A & ((1 << (8 * dtype.itemsize - 1)) - 1), dtype)


@pytest.fixture(autouse=True)
def _host_by_default(monkeypatch: pytest.MonkeyPatch) -> None:
    if not os.environ.get("HADRON_DEVICE"):
        monkeypatch.setenv("HADRON_DEVICE", "host")


def nvidia_plugin() -> None:
    """Skips the test unless the NVIDIA plugin is built."""
    if "nvidia" not in hadron.runtime.context().plugins():
        pytest.skip("the NVIDIA plugin is not built")


def assembles(ptx: str, tmp_path) -> None:
    """ptxas -arch=sm_90a accepts `ptx` (when the CUDA toolkit is installed)."""
    ptxas = shutil.which("ptxas") or "/usr/local/cuda/bin/ptxas"
    if not os.access(ptxas, os.X_OK):
        return
    path = tmp_path / "kernel.ptx"
    path.write_text(ptx)
    p = subprocess.run([ptxas, "-arch=sm_90a", "-o", os.devnull, str(path)],
                       capture_output=True, text=True)
    assert p.returncode == 0, p.stdout + p.stderr
