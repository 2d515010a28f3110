"""Mistakes give clear messages; those in a kernel name its file and line."""

from __future__ import annotations

import inspect

import numpy as np
import pytest

import hadron
import hadron.language as hl
from conftest import poisoned

L1: hl.constexpr = hl.BlockedLayout([4], [32], [4], [0])


def line_of(fn, marker: str) -> int:
    """The file line of `fn`'s source holding `marker`."""
    lines, first = inspect.getsourcelines(fn.fn)
    for i, text in enumerate(lines):
        if marker in text:
            return first + i
    raise AssertionError(f"{marker} not in {fn.__name__}")


def expect_error(fn, marker: str, what: str, *args, **kwargs) -> str:
    with pytest.raises(hadron.CompileError) as info:
        fn[(1,)](*args, **kwargs)
    msg = str(info.value)
    assert msg.startswith(f"{__file__}:{line_of(fn, marker)}:"), msg
    assert what in msg, msg
    assert "func.func" not in msg, msg
    return msg


@hadron.jit
def shape_from_runtime(x, n):
    offs = hl.arange(0, n, L1)  # MARK
    hl.store(x + offs, 1.0)


def test_runtime_value_as_shape():
    expect_error(shape_from_runtime, "# MARK",
                 "arange: end: expected a compile-time int, got a runtime value (i32); "
                 "make it a hl.constexpr parameter", poisoned(8), 8)


@hadron.jit
def bad_layout(x, BLOCK: hl.constexpr):
    layout: hl.constexpr = hl.BlockedLayout([1], [24], [4], [0])
    offs = hl.arange(0, BLOCK, layout)  # MARK
    hl.store(x + offs, 1.0)


def test_bad_layout():
    expect_error(bad_layout, "# MARK", "is not a power of two", poisoned(128), BLOCK=128)


@hadron.jit
def layout_of_other_warps(x, BLOCK: hl.constexpr):
    offs = hl.arange(0, BLOCK, hl.BlockedLayout([1], [32], [8], [0]))  # MARK
    hl.store(x + offs, 1.0)


def test_layout_needs_other_num_warps():
    expect_error(layout_of_other_warps, "# MARK", "spans 8 warps, but the kernel runs "
                 "num_warps = 4", poisoned(256), BLOCK=256)


@hadron.jit
def shapes_differ(x):
    a = hl.arange(0, 128, L1)
    b = hl.arange(0, 256, L1)
    hl.store(x + a, (a + b).to(hl.float32))  # MARK


def test_shape_mismatch():
    expect_error(shapes_differ, "# MARK", "+: shapes [128] and [256] differ", poisoned(256))


@hadron.jit
def undefined_name(x):
    hl.store(x, nothing_here)  # MARK  # noqa: F821


def test_undefined_name():
    expect_error(undefined_name, "# MARK", "name `nothing_here` is not defined", poisoned(1))


@hadron.jit
def loop_changes_type(x, n):
    acc = 0
    for i in range(0, n):  # MARK
        acc = acc + hl.load(x + i)
    hl.store(x, acc)


def test_loop_carried_type_change():
    with pytest.raises(hadron.CompileError) as info:
        loop_changes_type[(1,)](poisoned(4), 4)
    assert "`acc` is i32 before an iteration but f32 after it" in str(info.value)
    assert f"{__file__}:{line_of(loop_changes_type, '# MARK')}:" in str(info.value)


def test_wrong_argument_count():
    with pytest.raises(TypeError, match=r"takes 2 arguments \(x, BLOCK: constexpr\), got 3"):
        bad_layout[(1,)](poisoned(4), 1, 2)
    with pytest.raises(TypeError, match="is missing BLOCK"):
        bad_layout[(1,)](poisoned(4))
    with pytest.raises(TypeError, match="has no parameter `BLOK`"):
        bad_layout[(1,)](poisoned(4), BLOK=4)


def test_calling_a_kernel_directly():
    with pytest.raises(TypeError, match=r"launch it as bad_layout\[grid\]"):
        bad_layout(poisoned(4), BLOCK=4)


def test_non_array_argument():
    with pytest.raises(TypeError, match="is not an array"):
        shapes_differ[(1,)]("not an array")


def test_missing_device():
    with pytest.raises(hadron.RuntimeError, match="HD_ERROR_NO_DEVICE"):
        shapes_differ[(1,)](poisoned(256), device="nosuchvendor")
    with pytest.raises(hadron.RuntimeError, match="grammar"):
        hadron.device("host:x")


def test_environment_selects_the_device(monkeypatch):
    monkeypatch.setenv("HADRON_DEVICE", "nosuchvendor")
    with pytest.raises(hadron.RuntimeError, match="nosuchvendor"):
        shapes_differ[(1,)](poisoned(256))

