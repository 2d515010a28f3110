"""Shared fixtures: fresh random inputs (the seed is printed on failure) and
poisoned outputs, so an element a kernel does not write fails the check."""

from __future__ import annotations

import os
import secrets

import numpy as np
import pytest


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
