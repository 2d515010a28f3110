#!/usr/bin/env python3
"""Gluon's tutorials 01 and 02, the benchmarked kernels, to run next to Hadron's ports.

python/tutorials/01-intro.py and 02-layouts.py are Gluon's tutorials with the imports
changed; this is the other direction: the same kernels and the same benchmark loops
(sizes, XBLOCK, layouts, num_warps) written with triton's Gluon and torch, timed with
triton.testing.do_bench, each result checked against its input. Run it in the same command
as the ports on a GPU machine (docs/tutorials/) and compare line by line:

    python3 bench/gluon_tutorials.py            # needs torch + triton with Gluon, a GPU
"""

import torch
import triton
from triton.experimental import gluon
from triton.experimental.gluon import language as gl


@gluon.jit
def memcpy_kernel(in_ptr, out_ptr, xnumel, XBLOCK: gl.constexpr):
    pid = gl.program_id(0)
    start = pid * XBLOCK
    end = min(start + XBLOCK, xnumel)
    for i in range(start, end):
        value = gl.load(in_ptr + i)
        gl.store(out_ptr + i, value)


@gluon.jit
def memcpy_1d_kernel(in_ptr, out_ptr, xnumel, XBLOCK: gl.constexpr, layout: gl.constexpr):
    pid = gl.program_id(0)
    indices = gl.arange(0, XBLOCK, layout=layout)
    offsets = pid * XBLOCK + indices
    mask = offsets < xnumel
    value = gl.load(in_ptr + offsets, mask=mask)
    gl.store(out_ptr + offsets, value, mask=mask)


@gluon.jit
def memcpy_2d_kernel(in_ptr, out_ptr, xnumel, ynumel, xstride_in, ystride_in, xstride_out,
                     ystride_out, layout: gl.constexpr, XBLOCK: gl.constexpr,
                     YBLOCK: gl.constexpr):
    pid_x = gl.program_id(0)
    pid_y = gl.program_id(1)
    start_x = pid_x * XBLOCK
    start_y = pid_y * YBLOCK
    indices_x = start_x + gl.arange(0, XBLOCK, layout=gl.SliceLayout(dim=1, parent=layout))
    indices_y = start_y + gl.arange(0, YBLOCK, layout=gl.SliceLayout(dim=0, parent=layout))
    in_offsets = xstride_in * indices_x[:, None] + ystride_in * indices_y[None, :]
    out_offsets = xstride_out * indices_x[:, None] + ystride_out * indices_y[None, :]
    mask = (indices_x[:, None] < xnumel) & (indices_y[None, :] < ynumel)
    value = gl.load(in_ptr + in_offsets, mask=mask)
    gl.store(out_ptr + out_offsets, value, mask=mask)


def gbps(x, ms):
    return 2 * x.numel() * x.element_size() / ms * 1e-6


def main():
    dev = torch.device("cuda")
    print(f"device: {torch.cuda.get_device_name()}  triton {triton.__version__}")
    print("01 memcpy (one element per iteration), 2^20 f32, num_warps=1:")
    x = torch.randn(1 << 20, device=dev)
    for XBLOCK in [2**i for i in range(8, 17, 2)]:
        y = torch.full_like(x, float("nan"))
        grid = (triton.cdiv(x.numel(), XBLOCK),)
        ms = triton.testing.do_bench(
            lambda: memcpy_kernel[grid](x, y, x.numel(), XBLOCK, num_warps=1))
        assert torch.equal(x, y)
        print(f"  XBLOCK={XBLOCK:<6} {gbps(x, ms):8.2f} GB/s")
    print("02 memcpy_1d, 2^22 f32, XBLOCK=2048, num_warps=4:")
    x = torch.randn(1 << 22, device=dev)
    for spt in (1, 2, 4, 8, 16):
        y = torch.full_like(x, float("nan"))
        layout = gl.BlockedLayout([spt], [32], [4], [0])
        grid = (triton.cdiv(x.numel(), 2048),)
        ms = triton.testing.do_bench(
            lambda: memcpy_1d_kernel[grid](x, y, x.numel(), 2048, layout, num_warps=4))
        assert torch.equal(x, y)
        print(f"  size_per_thread={spt:<3} {gbps(x, ms):8.2f} GB/s")
    print("02 memcpy_2d, 2048 x 2048 f32, 64 x 64 tiles:")
    x = torch.randn(2048, 2048, device=dev)
    for name, layout in (("row-major", gl.BlockedLayout([1, 4], [1, 32], [4, 1], [1, 0])),
                         ("column-major", gl.BlockedLayout([4, 1], [32, 1], [1, 4], [0, 1]))):
        y = torch.full_like(x, float("nan"))
        grid = (triton.cdiv(2048, 64), triton.cdiv(2048, 64))
        ms = triton.testing.do_bench(
            lambda: memcpy_2d_kernel[grid](x, y, 2048, 2048, 2048, 1, 2048, 1, layout, 64, 64,
                                           num_warps=4))
        assert torch.equal(x, y)
        print(f"  {name + ' layout':<19} {gbps(x, ms):8.2f} GB/s")


if __name__ == "__main__":
    main()
