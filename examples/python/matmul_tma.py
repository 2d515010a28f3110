#!/usr/bin/env python3
"""C = A @ B with tensor descriptors, barriers and async dots: the Python
front end's form of examples/nvidia/matmul_tma_wgmma_bf16.mlir (written by
examples/nvidia/gen_matmul_tma.py), Gluon's Hopper GEMM in Hadron's words.

- A (M x K) and B (K x N) arrive as tensor descriptors; hl.async_tensor_copy
  brings a BM x BK and a BK x BN block into a stage of a STAGES-deep ring,
  completing on that stage's barrier (mbarrier_expect announces the bytes);
- step i waits for its stage's phase parity ((i // STAGES) & 1), issues
  ``hl.dot(a_stage, b_stage, acc, is_async=True)``, which reads both blocks
  where they stand, and ``hl.dot_wait(acc, 1)`` retires step i - 1's dot,
  whose stage is then refilled with step i + STAGES - 1 (predicated off past
  the last step);
- programs take tiles in groups of GROUP_M rows of tiles walking down the
  columns (L2 reuse); the result goes through shared memory (the B ring,
  reinterpreted as the staging tile once every dot has retired) to be
  stored BLOCKED-wise, 16 bytes a thread.

M, N and K must be multiples of BM, BN and BK. On NVIDIA sm_90a the copies
are TMA (cp.async.bulk.tensor), the barriers mbarriers and the dots
wgmma.mma_async with the accumulator in ``ACC`` (an hl.MmaLayout of wgmma);
on the host (no copy engine, no matrix unit) the copies complete at once, the
barriers count arrivals, and the dots are FMA loops: same results.

    python3 examples/python/matmul_tma.py     # host check against numpy,
                                              # and sm_90a's PTX if built
"""

from __future__ import annotations

import numpy as np

import hadron
import hadron.language as hl


@hadron.jit
def matmul_tma(a_desc, b_desc, c_ptr, M, N, K, ACC: hl.constexpr, RING: hl.constexpr,
               C_SMEM: hl.constexpr, C_LAYOUT: hl.constexpr, STAGES: hl.constexpr,
               GROUP_M: hl.constexpr):
    BM: hl.constexpr = a_desc.block_shape[0]
    BK: hl.constexpr = a_desc.block_shape[1]
    BN: hl.constexpr = b_desc.block_shape[1]
    AHEAD: hl.constexpr = STAGES - 1
    STAGE_BYTES: hl.constexpr = a_desc.nbytes_per_block + b_desc.nbytes_per_block

    # Tile order: groups of GROUP_M rows of tiles walk down the columns.
    npm = hl.num_programs(0)
    pid = hl.program_id(1) * npm + hl.program_id(0)
    per_group = GROUP_M * hl.num_programs(1)
    first_m = (pid // per_group) * GROUP_M
    group_size = hl.minimum(npm - first_m, GROUP_M)
    in_group = pid % per_group
    m0 = (first_m + in_group % group_size) * BM
    n0 = (in_group // group_size) * BN
    steps = K // BK

    a_ring = hl.allocate_shared_memory(a_desc.dtype, [STAGES, BM, BK], RING)
    b_ring = hl.allocate_shared_memory(b_desc.dtype, [STAGES, BK, BN], RING)
    bars = hl.allocate_mbarrier(batch=STAGES)
    for s in hl.static_range(STAGES):
        hl.mbarrier.init(bars.index(s), count=1)
    # The first AHEAD steps (where K has them).
    for s in hl.static_range(AHEAD):
        go = s < steps
        hl.mbarrier.expect(bars.index(s), STAGE_BYTES, pred=go)
        hl.tma.async_copy_global_to_shared(a_desc, [m0, s * BK], bars.index(s), a_ring.index(s),
                                           pred=go)
        hl.tma.async_copy_global_to_shared(b_desc, [s * BK, n0], bars.index(s), b_ring.index(s),
                                           pred=go)

    acc = hl.zeros([BM, BN], hl.float32, ACC)
    for i in range(0, steps):
        cur = i % STAGES
        hl.mbarrier.wait(bars.index(cur), (i // STAGES) & 1)
        acc = hl.dot(a_ring.index(cur), b_ring.index(cur), acc, is_async=True)
        # Step i - 1's dot has retired: its stage takes step i + AHEAD.
        acc = hl.dot_wait(acc, 1)
        j = i + AHEAD
        go = j < steps
        nxt = j % STAGES
        hl.mbarrier.expect(bars.index(nxt), STAGE_BYTES, pred=go)
        hl.tma.async_copy_global_to_shared(a_desc, [m0, j * BK], bars.index(nxt),
                                           a_ring.index(nxt), pred=go)
        hl.tma.async_copy_global_to_shared(b_desc, [j * BK, n0], bars.index(nxt),
                                           b_ring.index(nxt), pred=go)
    acc = hl.dot_wait(acc, 0)

    c_stage = b_ring._reinterpret(c_ptr.dtype.element_ty, [BM, BN], C_SMEM)
    c_stage.store(acc.to(c_ptr.dtype.element_ty))
    c = c_stage.load(C_LAYOUT)
    rows = m0 + hl.arange(0, BM, hl.SliceLayout(1, C_LAYOUT))
    cols = n0 + hl.arange(0, BN, hl.SliceLayout(0, C_LAYOUT))
    hl.store(c_ptr + rows[:, None] * N + cols[None, :], c)


_HD_NAME = {hl.float16: "f16", hl.bfloat16: "bf16"}


def wgmma_instr(n: int, dtype: hl.dtype, a_in_registers: bool = False) -> str:
    """The NVIDIA model's declaration of wgmma.m64n<n>k16 on f16 or bf16
    with f32 accumulation (targets/nvidia/model, matrixInstrAttribute): the
    accumulator of a warpgroup's 64 x n tile; B comes from shared memory,
    and A too unless ``a_in_registers`` (then its register fragment is
    declared, and the dot takes A as a DotOperandLayout(0, ...) tensor)."""
    t = _HD_NAME[dtype]
    lanes = [[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]]
    warps = [[16, 0], [32, 0]]

    def bases(v):
        return "[" + ", ".join(f"[{r}, {c}]" for r, c in v) + "]"

    def fragment(registers):
        return "{register = %s, lane = %s, warp = %s}" % (bases(registers), bases(lanes),
                                                          bases(warps))

    acc = [[0, 1], [8, 0]] + [[0, c] for c in (8 << i for i in range(16)) if c < n]
    a = f"a = {fragment([[0, 1], [8, 0], [0, 8]])}, " if a_in_registers else ""
    return (f'#hd.matrix_instr<{{name = "wgmma.m64n{n}k16.{t}", shape = [64, {n}, 16], '
            f"aType = {t}, bType = {t}, accType = f32, {a}acc = {fragment(acc)}}}>")


def config(BM: int, BN: int, BK: int, dtype: hl.dtype, num_warps: int, stages: int = 4,
           group_m: int = 8) -> tuple:
    """(block layout, constexprs) of a BM x BN x BK tile with num_warps warps
    (BM = 16 * num_warps: warpgroups of 64 rows stacked)."""
    swizzle = min(128, BK * dtype.primitive_bitwidth // 8)
    per_thread = 128 // dtype.primitive_bitwidth  # 16 bytes
    lanes_n = min(32, BN // per_thread)
    constexprs = {
        "ACC": hl.MmaLayout(wgmma_instr(BN, dtype), [num_warps, 1]),
        "RING": hl.MatrixSharedLayout(swizzle, dtype.primitive_bitwidth, rank=3),
        "C_SMEM": hl.SwizzledSharedLayout(8, 1, 8, [1, 0]),
        "C_LAYOUT": hl.BlockedLayout([1, per_thread], [32 // lanes_n, lanes_n],
                                     [num_warps, 1], [1, 0]),
        "STAGES": stages, "GROUP_M": group_m,
    }
    return hl.MatrixSharedLayout(swizzle, dtype.primitive_bitwidth), constexprs


def matmul(a: np.ndarray, b: np.ndarray, c: np.ndarray, BM: int = 64, BN: int = 64,
           BK: int = 32, num_warps: int = 4, group_m: int = 8) -> hadron.CompiledKernel:
    """c = a @ b for f16 numpy arrays a, b (c f32 or f16), on HADRON_DEVICE's
    device; BM = 16 * num_warps."""
    M, K = a.shape
    N = b.shape[1]
    block_layout, constexprs = config(BM, BN, BK, hl.float16, num_warps, group_m=group_m)
    a_desc = hadron.TensorDescriptor.from_tensor(a, [BM, BK], block_layout)
    b_desc = hadron.TensorDescriptor.from_tensor(b, [BK, BN], block_layout)
    grid = (M // BM, N // BN)
    return matmul_tma[grid](a_desc, b_desc, c, M, N, K, **constexprs, num_warps=num_warps)


def compile_sm90a(BM: int = 128, BN: int = 256, BK: int = 64, num_warps: int = 8):
    """The bf16 kernel of matmul_tma_wgmma_bf16.mlir compiled for nvidia:sm_90a."""
    block_layout, constexprs = config(BM, BN, BK, hl.bfloat16, num_warps)
    sig = {"a_desc": hl.tensor_descriptor_type(hl.bfloat16, [BM, BK], block_layout),
           "b_desc": hl.tensor_descriptor_type(hl.bfloat16, [BK, BN], block_layout),
           "c_ptr": "*bf16", "M": "i32", "N": "i32", "K": "i32"}
    return hadron.compile(matmul_tma, sig, constexprs, target="nvidia:sm_90a",
                          num_warps=num_warps)


if __name__ == "__main__":
    rng = np.random.default_rng()
    M, N, K = 256, 256, 192
    a = rng.standard_normal((M, K)).astype(np.float16)
    b = rng.standard_normal((K, N)).astype(np.float16)
    c = np.full((M, N), np.nan, np.float32)
    matmul(a, b, c)
    want = a.astype(np.float32) @ b.astype(np.float32)
    np.testing.assert_allclose(c, want, rtol=1e-3, atol=1e-3)
    print(f"host: {M}x{N}x{K} f16 matches numpy")
    if "nvidia" in hadron.runtime.context().plugins():
        ptx = compile_sm90a().asm
        print(f"nvidia:sm_90a: {ptx.count('wgmma.mma_async')} wgmma.mma_async, "
              f"{ptx.count('cp.async.bulk.tensor')} cp.async.bulk.tensor")
