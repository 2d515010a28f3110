"""kernel[grid](...) of a specialisation launched before runs in C++
(python/src/Launcher.cpp); everything else must still reach JITFunction.run
and behave as it did."""

from __future__ import annotations

import numpy as np
import pytest

import hadron
import hadron.language as hl
from conftest import poisoned


@hadron.jit
def scale_kernel(src, dst, n, a, XBLOCK: hl.constexpr, L: hl.constexpr,
                 TWICE: hl.constexpr = False):
    offs = hl.program_id(0) * XBLOCK + hl.arange(0, XBLOCK, L)
    mask = offs < n
    v = hl.load(src + offs, mask) * a
    if TWICE:
        v = v * 2.0
    hl.store(dst + offs, v, mask)


L4 = hl.BlockedLayout([4], [32], [4], [0])


def arrays(rng, n, dtype=np.float32):
    x = rng.standard_normal(n).astype(dtype)
    dx = hadron.to_device(x)
    dy = hadron.empty(n, dtype)
    dy.copy_from(poisoned(n, dtype))
    return x, dx, dy


def python_path_forbidden(monkeypatch, kernel):
    def run(*args, **kwargs):
        raise AssertionError("this launch should not have reached JITFunction.run")
    monkeypatch.setattr(kernel, "run", run)


def test_second_launch_stays_in_cpp(rng, monkeypatch):
    n = int(rng.integers(1000, 3000))
    x, dx, dy = arrays(rng, n)
    first = scale_kernel[(hadron.cdiv(n, 512),)](dx, dy, n, 1.5, XBLOCK=512, L=L4)
    np.testing.assert_array_equal(dy.numpy(), x * np.float32(1.5))
    assert scale_kernel._launcher.specialisations >= 1

    python_path_forbidden(monkeypatch, scale_kernel)
    x, dx, dy = arrays(rng, n)
    again = scale_kernel[(hadron.cdiv(n, 512),)](dx, dy, n, 2.5, XBLOCK=512, L=L4)
    assert again is first
    np.testing.assert_array_equal(dy.numpy(), x * np.float32(2.5))
    # Keywords in another order, the default spelled out, a grid function,
    # an equal layout that is another object, the device given.
    x, dx, dy = arrays(rng, n)
    same_layout = hl.BlockedLayout([4], [32], [4], [0])
    again = scale_kernel[lambda m: (hadron.cdiv(m["n"], m["XBLOCK"]),)](
        dx, dy, n=n, L=same_layout, a=0.5, XBLOCK=512, TWICE=False, num_warps=4,
        device=hadron.device())
    assert again is first
    np.testing.assert_array_equal(dy.numpy(), x * np.float32(0.5))


def test_what_the_key_holds_selects_the_specialisation(rng):
    n = 1000
    grid = (hadron.cdiv(n, 256),)
    x, dx, dy = arrays(rng, n)
    base = scale_kernel[grid](dx, dy, n, 1.0, XBLOCK=256, L=L4)
    others = {
        "constexpr value": lambda: scale_kernel[grid](dx, dy, n, 1.0, XBLOCK=256, L=L4,
                                                       TWICE=True),
        "num_warps": lambda: scale_kernel[grid](
            dx, dy, n, 1.0, XBLOCK=256, L=hl.BlockedLayout([4], [32], [2], [0]), num_warps=2),
        # (all masked off: nothing is read or written)
        "i64 scalar": lambda: scale_kernel[grid](dx, dy, n - 2 ** 40, 1.0, XBLOCK=256, L=L4),
    }
    for what, launch in others.items():
        k = launch()
        assert k is not base, what
        assert launch() is k, what  # and remembered
    # The element type of a DeviceArray is part of the key.
    x64, dx64, dy64 = arrays(rng, n, np.float64)
    k64 = scale_kernel[grid](dx64, dy64, n, 3.0, XBLOCK=256, L=L4)
    assert k64 is not base and "!hd.ptr<f64>" in k64.ir
    np.testing.assert_array_equal(dy64.numpy(), x64 * np.float32(3.0))
    assert scale_kernel[grid](dx, dy, n, 1.0, XBLOCK=256, L=L4) is base


def test_host_arrays_still_copied_in_and_out(rng):
    n = 700
    x = rng.standard_normal(n).astype(np.float32)
    _, dx, dy = arrays(rng, n)
    scale_kernel[(1,)](dx, dy, n, 2.0, XBLOCK=1024, L=L4)  # remembered
    y = poisoned(n)
    scale_kernel[(1,)](x, y, n, 2.0, XBLOCK=1024, L=L4)
    np.testing.assert_array_equal(y, x * 2)


def test_mistakes_after_a_remembered_launch_name_kernel_and_argument(rng):
    n = 512
    _, dx, dy = arrays(rng, n)
    launch = scale_kernel[(1,)]
    launch(dx, dy, n, 1.0, XBLOCK=512, L=L4)
    with pytest.raises(TypeError, match=r"scale_kernel\(\) takes 7 arguments .* got 8"):
        launch(dx, dy, n, 1.0, 512, L4, False, 3)
    with pytest.raises(TypeError, match=r"scale_kernel\(\) is missing a"):
        launch(dx, dy, n, XBLOCK=512, L=L4)
    with pytest.raises(TypeError, match=r"scale_kernel\(\) has no parameter `XBLOK`"):
        launch(dx, dy, n, 1.0, XBLOK=512, L=L4)
    with pytest.raises(TypeError, match=r"scale_kernel\(\) got two values for `n`"):
        launch(dx, dy, n, 1.0, XBLOCK=512, L=L4, n=3)
    with pytest.raises(TypeError, match=r"scale_kernel: argument `n`: str is not an array"):
        launch(dx, dy, "512", 1.0, XBLOCK=512, L=L4)
    with pytest.raises(TypeError, match=r"scale_kernel: argument `dst` is None"):
        launch(dx, None, n, 1.0, XBLOCK=512, L=L4)
    with pytest.raises(ValueError, match=r"grid \(1, 1, 1, 1\): 1 to 3 dimensions"):
        scale_kernel[(1, 1, 1, 1)](dx, dy, n, 1.0, XBLOCK=512, L=L4)
    # The runtime's refusal, from the launch itself.
    with pytest.raises(hadron.RuntimeError, match="grid dimension 0 is 2147483648"):
        scale_kernel[(2 ** 31,)](dx, dy, n, 1.0, XBLOCK=512, L=L4)


def test_device_follows_the_environment(rng, monkeypatch):
    n = 256
    _, dx, dy = arrays(rng, n)
    scale_kernel[(1,)](dx, dy, n, 1.0, XBLOCK=256, L=L4)
    monkeypatch.setenv("HADRON_DEVICE", "nosuchvendor")
    with pytest.raises(hadron.RuntimeError, match="nosuchvendor"):
        scale_kernel[(1,)](dx, dy, n, 1.0, XBLOCK=256, L=L4)
    monkeypatch.setenv("HADRON_DEVICE", "host")
    scale_kernel[(1,)](dx, dy, n, 1.0, XBLOCK=256, L=L4)


def test_bound_launch_is_made_by_indexing_only():
    launch = scale_kernel[(4,)]
    assert "scale_kernel" in repr(launch) and "(4,)" in repr(launch)
    with pytest.raises(TypeError):
        type(launch)()
