"""Kernels written with hadron.language, run and compared with numpy."""

from __future__ import annotations

import numpy as np
import pytest

import hadron
import hadron.language as hl
from conftest import poisoned


@hadron.jit
def copy_kernel(src, dst, n, XBLOCK: hl.constexpr, VEC: hl.constexpr):
    layout: hl.constexpr = hl.BlockedLayout([VEC], [32], [hl.num_warps()], [0])
    offs = hl.program_id(0) * XBLOCK + hl.arange(0, XBLOCK, layout)
    mask = offs < n
    hl.store(dst + offs, hl.load(src + offs, mask), mask)


@pytest.mark.parametrize("xblock,vec,num_warps", [(128, 1, 4), (1024, 4, 4), (512, 2, 8)])
def test_copy(rng, xblock, vec, num_warps):
    n = int(rng.integers(1000, 5000))
    x = rng.standard_normal(n).astype(np.float32)
    y = poisoned(n)
    copy_kernel[(hadron.cdiv(n, xblock),)](x, y, n, XBLOCK=xblock, VEC=vec, num_warps=num_warps)
    np.testing.assert_array_equal(y, x)


@hadron.jit
def axpy_kernel(x, y, out, a, n, BLOCK: hl.constexpr):
    layout: hl.constexpr = hl.BlockedLayout([4], [32], [4], [0])
    offs = hl.program_id(0) * BLOCK + hl.arange(0, BLOCK, layout)
    mask = offs < n
    v = a * hl.load(x + offs, mask) + hl.load(y + offs, mask)
    hl.store(out + offs, v, mask)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_axpy_scalar_and_grid_function(rng, dtype):
    n = int(rng.integers(100, 3000))
    x, y = rng.standard_normal(n).astype(dtype), rng.standard_normal(n).astype(dtype)
    out = poisoned(n, dtype)
    a = float(rng.standard_normal())
    axpy_kernel[lambda m: (hadron.cdiv(m["n"], m["BLOCK"]),)](x, y, out, a, n, BLOCK=512)
    # `a` is an f32 argument (Triton's rule for a float); with f64 arrays it
    # is promoted, the product computed in f64.
    np.testing.assert_allclose(out, dtype(np.float32(a)) * x + y, rtol=1e-6)


@hadron.jit
def rows_kernel(x_ptr, out_ptr, M, N: hl.constexpr, BM: hl.constexpr, REPS: hl.constexpr):
    L: hl.constexpr = hl.BlockedLayout([1, 4], [4, 8], [4, 1], [1, 0])
    rows = hl.program_id(0) * BM + hl.arange(0, BM, hl.SliceLayout(1, L))
    cols = hl.arange(0, N, hl.SliceLayout(0, L))
    offs = rows[:, None] * N + cols[None, :]
    x = hl.load(x_ptr + offs, hl.expand_dims(rows, 1) < M, other=0.0)
    s = hl.sum(x, 1)
    acc = hl.zeros([BM], hl.float32, hl.SliceLayout(1, L))
    k = 0
    while k < REPS:          # a runtime loop: k becomes an i32
        acc += s
        k += 1
    if M > 10:               # M is a runtime value: scf.if
        acc = acc + hl.max(x, 1)
    else:
        acc = acc - hl.max(x, 1)
    hl.store(out_ptr + rows, acc, rows < M)


@pytest.mark.parametrize("M", [7, 45])
def test_reductions_and_control_flow(rng, M):
    N = 64
    x = rng.random((M, N), dtype=np.float32)
    out = poisoned(M)
    rows_kernel[(hadron.cdiv(M, 16),)](x, out, M, N=N, BM=16, REPS=3)
    ref = 3 * x.sum(1) + (x.max(1) if M > 10 else -x.max(1))
    np.testing.assert_allclose(out, ref, rtol=1e-5)


@hadron.jit
def scalar_loop_kernel(in_ptr, out_ptr, xnumel, XBLOCK: hl.constexpr):
    pid = hl.program_id(0)
    start = pid * XBLOCK
    end = min(start + XBLOCK, xnumel)
    total = 0.0
    for i in range(start, end):
        value = hl.load(in_ptr + i)
        total += value
        hl.store(out_ptr + i, value * 2.0)
    hl.store(out_ptr + xnumel + pid, total)


def test_runtime_for_loop_with_carried_value(rng):
    n, xblock = int(rng.integers(200, 700)), 64
    programs = hadron.cdiv(n, xblock)
    x = rng.standard_normal(n).astype(np.float32)
    out = poisoned(n + programs)
    scalar_loop_kernel[(programs,)](x, out, n, XBLOCK=xblock)
    np.testing.assert_array_equal(out[:n], 2 * x)
    sums = [x[p * xblock:(p + 1) * xblock].sum() for p in range(programs)]
    np.testing.assert_allclose(out[n:], sums, rtol=1e-5, atol=1e-5)


@hadron.jit
def clamp(v, lo, hi):
    return hl.minimum(hl.maximum(v, lo), hi)


@hadron.jit
def where_kernel(x_ptr, out_ptr, n, BLOCK: hl.constexpr, NEG: hl.constexpr):
    layout: hl.constexpr = hl.BlockedLayout([2], [32], [4], [0])
    offs = hl.program_id(0) * BLOCK + hl.arange(0, BLOCK, layout)
    x = hl.load(x_ptr + offs, offs < n, other=0.0)
    if NEG:                  # a constexpr: only one branch is traced
        y = hl.where(x < 0.0, -x, hl.full([BLOCK], 0.5, hl.float32, layout))
    else:
        y = x
    hl.store(out_ptr + offs, clamp(y, 0.25, 1.0) + (offs % 3).to(hl.float32) // 1.0, offs < n)


def test_where_full_inline_call_and_constexpr_if(rng):
    n = 1000
    x = rng.standard_normal(n).astype(np.float32)
    for neg in (True, False):
        out = poisoned(n)
        where_kernel[(hadron.cdiv(n, 256),)](x, out, n, BLOCK=256, NEG=neg)
        y = np.where(x < 0, -x, 0.5).astype(np.float32) if neg else x
        ref = np.clip(y, 0.25, 1.0) + (np.arange(n) % 3)
        np.testing.assert_allclose(out, ref, rtol=1e-6)


@hadron.jit
def transpose_kernel(x_ptr, out_ptr, N: hl.constexpr):
    rows_l: hl.constexpr = hl.BlockedLayout([1, 4], [8, 4], [4, 1], [1, 0])
    cols_l: hl.constexpr = hl.BlockedLayout([4, 1], [4, 8], [1, 4], [0, 1])
    r = hl.arange(0, N, hl.SliceLayout(1, rows_l))
    c = hl.arange(0, N, hl.SliceLayout(0, rows_l))
    x = hl.load(x_ptr + r[:, None] * N + c[None, :])
    smem = hl.allocate_shared_memory(hl.float32, [N, N],
                                     hl.SwizzledSharedLayout(1, 1, 1, [1, 0]), x)
    y = hl.convert_layout(smem.load(rows_l), cols_l)
    r2 = hl.arange(0, N, hl.SliceLayout(1, cols_l))
    c2 = hl.arange(0, N, hl.SliceLayout(0, cols_l))
    hl.store(out_ptr + c2[None, :] * N + r2[:, None], y * 3.0)


def test_shared_memory_and_convert_layout(rng):
    N = 32
    x = rng.standard_normal((N, N)).astype(np.float32)
    out = poisoned((N, N))
    transpose_kernel[(1,)](x, out, N=N)
    np.testing.assert_array_equal(out, 3 * x.T)


@hadron.jit
def int_kernel(x_ptr, out_ptr, n, d, BLOCK: hl.constexpr):
    layout: hl.constexpr = hl.BlockedLayout([1], [32], [4], [0])
    offs = hl.program_id(0) * BLOCK + hl.arange(0, BLOCK, layout)
    x = hl.load(x_ptr + offs, offs < n)
    hl.store(out_ptr + offs, (x // d) * 3 + (x % d) - (x >> 1), offs < n)


def test_integer_ops_and_i64_scalars(rng):
    n = 700
    x = rng.integers(0, 1 << 40, n, dtype=np.int64)
    out = poisoned(n, np.int64)
    d = int(rng.integers(3, 100)) + (1 << 33)  # does not fit i32: an i64 argument
    k = int_kernel[(hadron.cdiv(n, 128),)](x, out, n, d, BLOCK=128)
    assert "%arg3: i64" in k.ir
    np.testing.assert_array_equal(out, (x // d) * 3 + (x % d) - (x >> 1))


def test_specialisations_compiled_once(rng):
    n = 4096
    x = rng.standard_normal(n).astype(np.float32)
    y = poisoned(n)
    a = copy_kernel[(4,)](x, y, n, XBLOCK=1024, VEC=4)
    b = copy_kernel[(4,)](x, y, n + 0, XBLOCK=1024, VEC=4)
    c = copy_kernel[(8,)](x, y, n, XBLOCK=512, VEC=4)
    assert a is b and a is not c
    assert a.key != c.key and "XBLOCK_1024" in a.key


def test_device_arrays_skip_copies(rng):
    n = 3000
    x = rng.standard_normal(n).astype(np.float32)
    dx = hadron.to_device(x)
    dy = hadron.empty(n, np.float32)
    dy.copy_from(poisoned(n))
    copy_kernel[(hadron.cdiv(n, 1024),)](dx, dy, n, XBLOCK=1024, VEC=4)
    np.testing.assert_array_equal(dy.numpy(), x)


class ArrayInterfaceOnly:
    """An array that only exposes __array_interface__ (as many libraries do)."""

    def __init__(self, a: np.ndarray) -> None:
        self.a = a
        self.__array_interface__ = a.__array_interface__


def test_dlpack_and_array_interface_arguments(rng):
    n = 2000
    x = rng.standard_normal(n).astype(np.float32)
    y = poisoned(n)
    wrapped_out = ArrayInterfaceOnly(y)
    copy_kernel[(hadron.cdiv(n, 512),)](x, wrapped_out, n, XBLOCK=512, VEC=4)
    np.testing.assert_array_equal(y, x)

    class DLPackOnly:
        def __init__(self, a: np.ndarray) -> None:
            self.a = a

        def __dlpack__(self, **kwargs):
            return self.a.__dlpack__(**kwargs)

        def __dlpack_device__(self):
            return self.a.__dlpack_device__()

    z = poisoned(n)
    copy_kernel[(hadron.cdiv(n, 512),)](DLPackOnly(x), z, n, XBLOCK=512, VEC=4)
    np.testing.assert_array_equal(z, x)


class DataPtrOnly:
    """A host array known by data_ptr(), dtype and shape (as torch's API has it)."""

    def __init__(self, a: np.ndarray) -> None:
        self.a, self.dtype, self.shape = a, "float32", a.shape

    def data_ptr(self) -> int:
        return self.a.__array_interface__["data"][0]


def test_data_ptr_arguments(rng):
    n = 1000
    x = rng.standard_normal(n).astype(np.float32)
    y = poisoned(n)
    copy_kernel[(hadron.cdiv(n, 512),)](DataPtrOnly(x), DataPtrOnly(y), n, XBLOCK=512, VEC=4)
    np.testing.assert_array_equal(y, x)


def test_torch_tensors(rng):
    torch = pytest.importorskip("torch")
    n = 1500
    x = torch.from_numpy(rng.standard_normal(n).astype(np.float32))
    y = torch.full((n,), float("nan"))
    copy_kernel[(hadron.cdiv(n, 512),)](x, y, n, XBLOCK=512, VEC=4)
    assert torch.equal(x, y)


def test_inputs_are_not_written_back(rng):
    n = 512
    x = rng.standard_normal(n).astype(np.float32)
    x.setflags(write=False)  # a read-only input is fine: it is never copied back
    y = poisoned(n)
    k = copy_kernel[(1,)](x, y, n, XBLOCK=512, VEC=4)
    assert k.written == {1} and not k.writes_unknown
    np.testing.assert_array_equal(y, x)


@hadron.jit
def histogram_kernel(x_ptr, hist_ptr, best_ptr, n, BLOCK: hl.constexpr):
    layout: hl.constexpr = hl.BlockedLayout([1], [32], [4], [0])
    offs = hl.program_id(0) * BLOCK + hl.arange(0, BLOCK, layout)
    x = hl.load(x_ptr + offs, offs < n, other=0)
    hl.atomic_add(hist_ptr + x, 1, mask=offs < n)
    hl.atomic_max(best_ptr, hl.max(hl.where(offs < n, x, -1), 0))


def test_atomics(rng):
    n, bins = 5000, 16
    x = rng.integers(0, bins, n, dtype=np.int32)
    hist = np.zeros(bins, np.int32)    # a histogram starts at zero: the counts are the check
    best = np.full(1, -7, np.int32)
    histogram_kernel[(hadron.cdiv(n, 128),)](x, hist, best, n, BLOCK=128)
    np.testing.assert_array_equal(hist, np.bincount(x, minlength=bins))
    assert best[0] == x.max()


@hadron.jit
def add_pair(a, b):
    return a + b


@hadron.jit
def scans_kernel(x_ptr, cum_ptr, arg_ptr, prod_ptr, BLOCK: hl.constexpr):
    layout: hl.constexpr = hl.BlockedLayout([2], [32], [4], [0])
    offs = hl.arange(0, BLOCK, layout)
    x = hl.load(x_ptr + offs)
    hl.store(cum_ptr + offs, hl.cumsum(x, 0))
    hl.store(arg_ptr, hl.argmax(x, 0))
    hl.store(prod_ptr, hl.reduce(x, 0, add_pair))
    hl.store(cum_ptr + BLOCK + offs, hl.associative_scan(x, 0, add_pair))


def test_scans_argmax_and_custom_reduce(rng):
    B = 256
    x = rng.standard_normal(B).astype(np.float32)
    cum, arg, total = poisoned(2 * B), poisoned(1, np.int32), poisoned(1)
    scans_kernel[(1,)](x, cum, arg, total, BLOCK=B)
    np.testing.assert_allclose(cum[:B], np.cumsum(x), rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(cum[B:], np.cumsum(x), rtol=1e-4, atol=1e-4)
    assert arg[0] == np.argmax(x)
    np.testing.assert_allclose(total[0], x.sum(), rtol=1e-4, atol=1e-4)


def test_launches_from_threads(rng):
    import threading
    n = 2048
    xs = [rng.standard_normal(n).astype(np.float32) for _ in range(4)]
    ys = [poisoned(n) for _ in range(4)]
    errors = []

    def work(i: int) -> None:
        try:  # each thread its own specialisation: traces run at once
            copy_kernel[(hadron.cdiv(n, 128 << i),)](xs[i], ys[i], n, XBLOCK=128 << i, VEC=1)
        except Exception as e:  # reported below, with the thread's index
            errors.append((i, e))

    threads = [threading.Thread(target=work, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    for x, y in zip(xs, ys):
        np.testing.assert_array_equal(y, x)


@hadron.jit
def promote_kernel(a_ptr, b_ptr, out_ptr, sel_ptr, n, OUT: hl.constexpr, BLOCK: hl.constexpr):
    layout: hl.constexpr = hl.BlockedLayout([2], [32], [4], [0])
    offs = hl.program_id(0) * BLOCK + hl.arange(0, BLOCK, layout)
    mask = offs < n
    a = hl.load(a_ptr + offs, mask)
    b = hl.load(b_ptr + offs, mask)
    v = a * b + a
    assert v.dtype == OUT
    hl.store(out_ptr + offs, v, mask)
    hl.store(sel_ptr + offs, hl.where(a > b, a, b), mask)


@pytest.mark.parametrize("ta,tb,common", [
    (np.float32, np.int32, np.float32), (np.int32, np.float32, np.float32),
    (np.float16, np.float32, np.float32), (np.int8, np.int32, np.int32),
    (np.int32, np.float64, np.float64), (np.int64, np.int16, np.int64),
])
def test_type_promotion_between_tensors(rng, ta, tb, common):
    n = int(rng.integers(500, 2000))

    def values(t):
        if np.issubdtype(t, np.integer):
            return rng.integers(-100, 100, n).astype(t)
        return rng.standard_normal(n).astype(t)

    a, b = values(ta), values(tb)
    out, sel = poisoned(n, common), poisoned(n, common)
    hd = {np.float32: hl.float32, np.float64: hl.float64, np.int32: hl.int32,
          np.int64: hl.int64}[common]
    promote_kernel[(hadron.cdiv(n, 256),)](a, b, out, sel, n, OUT=hd, BLOCK=256)
    ac, bc = a.astype(common), b.astype(common)
    np.testing.assert_allclose(out, ac * bc + ac, rtol=1e-6)
    np.testing.assert_array_equal(sel, np.where(ac > bc, ac, bc))
