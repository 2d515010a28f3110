"""
Layouts: how a tile's elements are spread over registers, threads and warps
===========================================================================

A port of Gluon's second tutorial to Hadron (imports changed). A tensor in
a kernel is distributed: its layout says which thread holds which element.
``hl.BlockedLayout(size_per_thread, threads_per_warp, warps_per_cta, order)``
gives each thread ``size_per_thread`` contiguous elements, a warp a grid of
threads and the program a grid of warps; ``order`` lists dimensions from
the fastest. ``python3 02-layouts.py --device host`` runs the tests and
prints the figures (docs/tutorials/02-layouts.md).
"""

from __future__ import annotations

import argparse

import numpy as np

import hadron
import hadron.language as hl

# %%
# The memcpy of tutorial 01, vectorised: one tile of XBLOCK elements per
# program, its layout a parameter. With size_per_thread = 4, each thread
# loads 4 contiguous floats (16 bytes) at once.


@hadron.jit
def memcpy_1d_kernel(in_ptr, out_ptr, xnumel, XBLOCK: hl.constexpr,
                     layout: hl.constexpr):
    pid = hl.program_id(0)
    indices = hl.arange(0, XBLOCK, layout=layout)
    offsets = pid * XBLOCK + indices
    mask = offsets < xnumel
    value = hl.load(in_ptr + offsets, mask=mask)
    hl.store(out_ptr + offsets, value, mask=mask)


def get_layout(size_per_thread, num_warps, threads_per_warp=32):
    return hl.BlockedLayout([size_per_thread], [threads_per_warp], [num_warps], [0])


def memcpy_1d(input, output, XBLOCK, layout, num_warps, device=None):
    xnumel = input.shape[0]
    grid = (hadron.cdiv(xnumel, XBLOCK),)
    return memcpy_1d_kernel[grid](input, output, xnumel, XBLOCK, layout,
                                  num_warps=num_warps, device=device)


def test_memcpy_1d(device=None):
    rng = np.random.default_rng()
    for spt, XBLOCK in [(1, 128), (4, 1024), (8, 2048)]:
        xnumel = int(rng.integers(XBLOCK, 4 * XBLOCK))
        x = rng.standard_normal(xnumel).astype(np.float32)
        y = np.full(xnumel, np.nan, np.float32)
        memcpy_1d(x, y, XBLOCK, get_layout(spt, 4), 4, device)
        np.testing.assert_array_equal(y, x)


def bench_memcpy_1d(size_per_thread, XBLOCK, xnumel=1 << 22, device=None):
    x = hadron.to_device(np.random.default_rng().standard_normal(xnumel).astype(np.float32),
                         device)
    y = hadron.empty(xnumel, np.float32, device)
    layout = get_layout(size_per_thread, 4)
    ms = hadron.testing.do_bench(lambda: memcpy_1d(x, y, XBLOCK, layout, 4, device),
                                 device=device)
    np.testing.assert_array_equal(y.numpy(), x.numpy())
    return 2 * x.nbytes / ms * 1e-6


# %%
# Two dimensions. The row and column indices of a 2-D tile in layout L are
# 1-D tensors in ``hl.SliceLayout(1, L)`` and ``hl.SliceLayout(0, L)``:
# L with the other dimension removed. ``expand_dims`` (or ``[:, None]``)
# brings them back to L, where they broadcast to the tile.


@hadron.jit
def memcpy_2d_kernel(in_ptr, out_ptr, xnumel, ynumel, xstride_in, ystride_in, xstride_out,
                     ystride_out, layout: hl.constexpr, XBLOCK: hl.constexpr,
                     YBLOCK: hl.constexpr):
    pid_x = hl.program_id(0)
    pid_y = hl.program_id(1)
    start_x = pid_x * XBLOCK
    start_y = pid_y * YBLOCK
    indices_x = start_x + hl.arange(0, XBLOCK, layout=hl.SliceLayout(dim=1, parent=layout))
    indices_y = start_y + hl.arange(0, YBLOCK, layout=hl.SliceLayout(dim=0, parent=layout))
    in_offsets = xstride_in * indices_x[:, None] + ystride_in * indices_y[None, :]
    out_offsets = xstride_out * indices_x[:, None] + ystride_out * indices_y[None, :]
    mask = (indices_x[:, None] < xnumel) & (indices_y[None, :] < ynumel)
    value = hl.load(in_ptr + in_offsets, mask=mask)
    hl.store(out_ptr + out_offsets, value, mask=mask)


def memcpy_2d(input, output, layout, XBLOCK, YBLOCK, num_warps, device=None):
    xnumel, ynumel = input.shape
    grid = (hadron.cdiv(xnumel, XBLOCK), hadron.cdiv(ynumel, YBLOCK))
    # numpy strides are in bytes; the kernel counts elements.
    s_in = [s // input.itemsize for s in input.strides]
    s_out = [s // output.itemsize for s in output.strides]
    memcpy_2d_kernel[grid](input, output, xnumel, ynumel, *s_in, *s_out, layout, XBLOCK,
                           YBLOCK, num_warps=num_warps, device=device)


# Rows contiguous in memory: the fast dimension is 1 (order [1, 0]), each
# thread holds 4 neighbours along it, a warp covers 1 x 128 elements.
ROW_MAJOR = hl.BlockedLayout([1, 4], [1, 32], [4, 1], [1, 0])
# The same threads walking down columns: every thread's 4 elements are a
# row apart, so no access is contiguous.
COL_MAJOR = hl.BlockedLayout([4, 1], [32, 1], [1, 4], [0, 1])


def test_memcpy_2d(device=None):
    rng = np.random.default_rng()
    for layout in (ROW_MAJOR, COL_MAJOR):
        x = rng.standard_normal((100, 300)).astype(np.float32)
        y = np.full_like(x, np.nan)
        memcpy_2d(x, y, layout, 64, 64, 4, device)
        np.testing.assert_array_equal(y, x)


def bench_memcpy_2d(layout, shape=(2048, 2048), device=None):
    x_host = np.random.default_rng().standard_normal(shape).astype(np.float32)
    x = hadron.to_device(x_host, device)
    y = hadron.empty(shape, np.float32, device)
    xnumel, ynumel = shape
    grid = (hadron.cdiv(xnumel, 64), hadron.cdiv(ynumel, 64))

    def run():
        memcpy_2d_kernel[grid](x, y, xnumel, ynumel, ynumel, 1, ynumel, 1, layout, 64, 64,
                               num_warps=4, device=device)

    ms = hadron.testing.do_bench(run, device=device)
    np.testing.assert_array_equal(y.numpy(), x_host)
    return 2 * x.nbytes / ms * 1e-6


# %%
# Changing a tensor's layout: ``hl.convert_layout`` moves elements between
# threads (registers, warp shuffles, or a round trip through shared memory,
# whichever the two layouts need). Here a tile is loaded row-major and
# stored transposed, each access contiguous in its own layout.


@hadron.jit
def transpose_kernel(in_ptr, out_ptr, N: hl.constexpr, load_layout: hl.constexpr,
                     store_layout: hl.constexpr):
    r = hl.arange(0, N, hl.SliceLayout(1, load_layout))
    c = hl.arange(0, N, hl.SliceLayout(0, load_layout))
    tile = hl.load(in_ptr + r[:, None] * N + c[None, :])
    tile = hl.convert_layout(tile, store_layout)
    r2 = hl.arange(0, N, hl.SliceLayout(1, store_layout))
    c2 = hl.arange(0, N, hl.SliceLayout(0, store_layout))
    hl.store(out_ptr + c2[None, :] * N + r2[:, None], tile)


def test_transpose(device=None):
    N = 64
    x = np.random.default_rng().standard_normal((N, N)).astype(np.float32)
    y = np.full_like(x, np.nan)
    transpose_kernel[(1,)](x, y, N, ROW_MAJOR, COL_MAJOR, num_warps=4, device=device)
    np.testing.assert_array_equal(y, x.T)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[1])
    parser.add_argument("--device", default=None)
    parser.add_argument("--xnumel", type=int, default=1 << 22)
    args = parser.parse_args()
    test_memcpy_1d(args.device)
    test_memcpy_2d(args.device)
    test_transpose(args.device)
    print(f"device: {hadron.device(args.device).info['name']}")
    print("memcpy_1d, XBLOCK=2048, num_warps=4:")
    for spt in (1, 2, 4, 8, 16):
        print(f"  size_per_thread={spt:<3} "
              f"{bench_memcpy_1d(spt, 2048, args.xnumel, args.device):8.2f} GB/s")
    print("memcpy_2d, 2048 x 2048 f32, 64 x 64 tiles:")
    print(f"  row-major layout    {bench_memcpy_2d(ROW_MAJOR, device=args.device):8.2f} GB/s")
    print(f"  column-major layout {bench_memcpy_2d(COL_MAJOR, device=args.device):8.2f} GB/s")


if __name__ == "__main__":
    main()
