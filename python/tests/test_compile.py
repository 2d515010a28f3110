"""hadron.compile: one specialisation by its constexprs and argument types,
for a device or a target, each its own cached binary."""

from __future__ import annotations

import os

import numpy as np
import pytest

import hadron
import hadron.language as hl
from conftest import poisoned


@hadron.jit
def fill_kernel(dst, value, n, BLOCK: hl.constexpr, L: hl.constexpr,
                PLUS_ONE: hl.constexpr = 0):
    offs = hl.program_id(0) * BLOCK + hl.arange(0, BLOCK, L)
    hl.store(dst + offs, hl.full([BLOCK], value + PLUS_ONE, hl.float32, L), mask=offs < n)


SIGNATURE = {"dst": "*f32", "value": "f32", "n": "i32"}
L4 = hl.BlockedLayout([4], [32], [4], [0])


def cache_entries(cache) -> set:
    d = os.path.join(cache, "kernels")
    return set(os.listdir(d)) if os.path.isdir(d) else set()


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("HADRON_CACHE_DIR", str(tmp_path))
    return str(tmp_path)


def test_each_constexpr_dict_is_its_own_binary(cache, rng):
    targets = [{"BLOCK": 512, "L": L4}, {"BLOCK": 1024, "L": L4},
               {"BLOCK": 512, "L": L4, "PLUS_ONE": 1}]
    keys, entries = [], []
    for constexprs in targets:
        k = hadron.compile(fill_kernel, SIGNATURE, constexprs, target="host")
        assert isinstance(k, hadron.CompiledBinary) and k.binary_size > 0
        assert k.kernels == ["fill_kernel"] and k.target == "host"
        keys.append(k.key)
        entries.append(cache_entries(cache))
    assert len(set(keys)) == 3 and "BLOCK_1024" in keys[1] and "PLUS_ONE_1" in keys[2]
    assert [len(e) for e in entries] == [1, 2, 3]
    # Again, with the dict in another order and pointer types as hl dtypes:
    # the same key, no new entry.
    again = hadron.compile(fill_kernel, {"n": hl.int32, "value": hl.float32,
                                         "dst": hl.pointer_type(hl.float32)},
                           {"L": hl.BlockedLayout([4], [32], [4], [0]), "BLOCK": 1024},
                           target="host")
    assert again.key == keys[1] and again.ir == hadron.compile(
        fill_kernel, SIGNATURE, targets[1], target="host").ir
    assert cache_entries(cache) == entries[-1]


def test_compiled_on_a_device_is_what_the_launch_uses(cache, rng):
    compiled = hadron.compile(fill_kernel, SIGNATURE, {"BLOCK": 256, "L": L4}, num_warps=4)
    assert isinstance(compiled, hadron.CompiledKernel)
    assert compiled.key.startswith("fill_kernel.BLOCK_256.L_") and compiled.key.endswith(".w4")
    # A launch specialises an int divisible by 16 (as Triton does), and the
    # signature above says plain i32: keep n off the multiples of 16.
    n = int(rng.integers(300, 2000))
    n += n % 16 == 0
    dst = hadron.empty(n, np.float32)
    dst.copy_from(poisoned(n))
    v = float(rng.standard_normal())
    launched = fill_kernel[(hadron.cdiv(n, 256),)](dst, v, n, BLOCK=256, L=L4)
    assert launched is compiled
    np.testing.assert_array_equal(dst.numpy(), np.full(n, np.float32(v)))
    # The Triton spelling of the signature names the same specialisation.
    triton_style = {"dst": "*fp32", "value": "fp32", "n": "i32"}
    assert hadron.compile(fill_kernel, triton_style, {"BLOCK": 256, "L": L4}) is compiled


def test_mistakes_name_the_kernel_and_the_parameter(cache):
    with pytest.raises(TypeError, match="fill_kernel: constexpr `BLOCK` has no value"):
        hadron.compile(fill_kernel, SIGNATURE, {"L": L4})
    with pytest.raises(TypeError, match="fill_kernel: argument `n` has no type"):
        hadron.compile(fill_kernel, {"dst": "*f32", "value": "f32"}, {"BLOCK": 64, "L": L4})
    with pytest.raises(TypeError, match=r"fill_kernel\(\) has no constexpr `BLOK`"):
        hadron.compile(fill_kernel, SIGNATURE, {"BLOCK": 64, "BLOK": 1, "L": L4})
    with pytest.raises(TypeError, match=r"fill_kernel\(\) has no runtime argument `m`"):
        hadron.compile(fill_kernel, {**SIGNATURE, "m": "i32"}, {"BLOCK": 64, "L": L4})
    with pytest.raises(TypeError, match="argument `dst` has type 'pointer'"):
        hadron.compile(fill_kernel, {**SIGNATURE, "dst": "pointer"}, {"BLOCK": 64, "L": L4})
    with pytest.raises(ValueError, match="a device or a target, not both"):
        hadron.compile(fill_kernel, SIGNATURE, {"BLOCK": 64, "L": L4}, device="host",
                       target="host")
    with pytest.raises(hadron.RuntimeError, match="nosuchvendor"):
        hadron.compile(fill_kernel, SIGNATURE, {"BLOCK": 64, "L": L4}, target="nosuchvendor")
