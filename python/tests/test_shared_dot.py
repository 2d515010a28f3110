"""hl.dot on shared memory, async dots and hl.dot_wait.

C = A @ B for 64 x 64 tiles of C, K walked in steps of 64 through a ring of
two shared stages: step i's dot reads stage i % 2 where it stands and is
async, hl.dot_wait(acc, 1) retires step i - 1's (the accumulator carried by
the loop), whose stage then takes step i + 1, and hl.dot_wait(acc, 0) ends
it. A comes from the ring too, or from registers (attention's P @ V). On the
host each runs against numpy with an FMA (blocked) accumulator and with the
wgmma one NVIDIA sm_90a runs on its matrix unit, whose PTX is checked."""

from __future__ import annotations

import importlib.util
import os
import re

import numpy as np
import pytest

import hadron
import hadron.language as hl
from conftest import assembles, nvidia_plugin, poisoned

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location(
    "matmul_tma", os.path.join(HERE, "..", "..", "examples", "python", "matmul_tma.py"))
matmul_tma = importlib.util.module_from_spec(spec)
spec.loader.exec_module(matmul_tma)

BM: hl.constexpr = 64
BN: hl.constexpr = 64
BK: hl.constexpr = 64
FMA: hl.constexpr = hl.BlockedLayout([1, 4], [4, 8], [4, 1], [1, 0])
SWIZZLED_RING: hl.constexpr = hl.SwizzledSharedLayout(8, 1, 8, [2, 1, 0])
MATRIX_RING: hl.constexpr = hl.MatrixSharedLayout(128, 16, rank=3)


def wgmma(a_in_registers: bool) -> hl.MmaLayout:
    return hl.MmaLayout(matmul_tma.wgmma_instr(BN, hl.float16, a_in_registers), [4, 1])


@hadron.jit
def ring_dot(a_ptr, b_ptr, c_ptr, steps, ACC: hl.constexpr, RING: hl.constexpr,
             A_IN_REGISTERS: hl.constexpr):
    """Rows 64 p to 64 p + 63 of C (f32) = A (M x 64 steps, f16) @ B (64
    steps x 64, f16)."""
    LOAD: hl.constexpr = hl.BlockedLayout([1, 8], [4, 8], [4, 1], [1, 0])
    k = steps * BK
    a_rows = a_ptr + hl.program_id(0) * BM * k
    a_offs = (hl.arange(0, BM, hl.SliceLayout(1, LOAD))[:, None] * k
              + hl.arange(0, BK, hl.SliceLayout(0, LOAD))[None, :])
    b_offs = (hl.arange(0, BK, hl.SliceLayout(1, LOAD))[:, None] * BN
              + hl.arange(0, BN, hl.SliceLayout(0, LOAD))[None, :])
    a_ring = hl.allocate_shared_memory(hl.float16, [2, BM, BK], RING)
    b_ring = hl.allocate_shared_memory(hl.float16, [2, BK, BN], RING)
    if not A_IN_REGISTERS:
        a_ring.index(0).store(hl.load(a_rows + a_offs))
    b_ring.index(0).store(hl.load(b_ptr + b_offs))
    acc = hl.zeros([BM, BN], hl.float32, ACC)
    for i in range(0, steps):
        if A_IN_REGISTERS:
            a = hl.convert_layout(hl.load(a_rows + a_offs + i * BK), hl.DotOperandLayout(0, ACC))
        else:
            a = a_ring.index(i % 2)
        acc = hl.dot(a, b_ring.index(i % 2), acc, is_async=True)
        acc = hl.dot_wait(acc, 1)  # step i - 1's stage is free: it takes step i + 1
        if i + 1 < steps:
            if not A_IN_REGISTERS:
                a_ring.index((i + 1) % 2).store(hl.load(a_rows + a_offs + (i + 1) * BK))
            b_ring.index((i + 1) % 2).store(hl.load(b_ptr + b_offs + (i + 1) * BK * BN))
    acc = hl.dot_wait(acc, 0)
    rows = hl.program_id(0) * BM + hl.arange(0, BM, hl.SliceLayout(1, ACC))
    cols = hl.arange(0, BN, hl.SliceLayout(0, ACC))
    hl.store(c_ptr + rows[:, None] * BN + cols[None, :], acc)


def small_ints(rng, shape) -> np.ndarray:
    """f16 values whose products and f32 sums are exact."""
    return rng.integers(-3, 4, shape).astype(np.float16)


@pytest.mark.parametrize("a_in_registers", [False, True], ids=["a_shared", "a_registers"])
@pytest.mark.parametrize("acc", ["fma", "wgmma"])
def test_dot_reads_shared_memory_on_the_host(rng, acc, a_in_registers):
    programs, steps = 2, 3
    a = small_ints(rng, (programs * BM, steps * BK))
    b = small_ints(rng, (steps * BK, BN))
    c = poisoned((programs * BM, BN))
    layouts = ({"ACC": FMA, "RING": SWIZZLED_RING} if acc == "fma"
               else {"ACC": wgmma(a_in_registers), "RING": MATRIX_RING})
    kernel = ring_dot[(programs,)](a, b, c, steps, **layouts, A_IN_REGISTERS=a_in_registers)
    np.testing.assert_array_equal(c, a.astype(np.float32) @ b.astype(np.float32))
    a_type = "tensor<64x64xf16" if a_in_registers else "!hd.memdesc<64x64xf16"
    assert re.search(r"hd\.dot %\S+, %\S+, %\S+ \{async\} : " + re.escape(a_type)
                     + r"[^*]* \* !hd\.memdesc<64x64xf16", kernel.ir), kernel.ir
    inside = kernel.ir.index("pending = 1 : tensor<64x64xf32")
    assert kernel.ir.index("pending = 0 : tensor<64x64xf32") > inside, kernel.ir


@pytest.mark.parametrize("a_in_registers", [False, True], ids=["a_shared", "a_registers"])
def test_sm90a_issues_async_wgmma(tmp_path, a_in_registers):
    nvidia_plugin()
    sig = {"a_ptr": "*f16", "b_ptr": "*f16", "c_ptr": "*f32", "steps": "i32"}
    binary = hadron.compile(ring_dot, sig, {"ACC": wgmma(a_in_registers), "RING": MATRIX_RING,
                                            "A_IN_REGISTERS": a_in_registers},
                            target="nvidia:sm_90a")
    ptx = binary.asm
    # Four k16 steps per stage of 64, A from 4 registers or a descriptor.
    issued = re.findall(r"wgmma\.mma_async\.sync\.aligned\.m64n64k16\.f32\.f16\.f16 \{[^}]*\}, "
                        r"(\{[^}]*\}|%rd\d+), %rd\d+", ptx)
    assert len(issued) == 4, ptx
    assert all(x.startswith("{") == a_in_registers for x in issued), issued
    # The group is left running: the first wait after it lets one run.
    waits = re.findall(r"wgmma\.(commit_group|wait_group)\.sync\.aligned( \d)?;", ptx)
    assert waits[:3] == [("commit_group", ""), ("wait_group", " 1"), ("wait_group", " 0")], waits
    assembles(ptx, tmp_path)


@hadron.jit
def gluon_names(a_ptr, b_ptr, c_ptr):
    """One dot in Gluon's words: warpgroup_mma(is_async) + warpgroup_mma_wait."""
    L: hl.constexpr = hl.BlockedLayout([1, 4], [4, 8], [4, 1], [1, 0])
    rows = hl.arange(0, 32, hl.SliceLayout(1, L))[:, None]
    cols = hl.arange(0, 32, hl.SliceLayout(0, L))[None, :]
    smem: hl.constexpr = hl.SwizzledSharedLayout(1, 1, 1, [1, 0])
    a = hl.allocate_shared_memory(hl.float32, [32, 32], smem, hl.load(a_ptr + rows * 32 + cols))
    b = hl.allocate_shared_memory(hl.float32, [32, 32], smem, hl.load(b_ptr + rows * 32 + cols))
    acc = hl.warpgroup_mma(a, b, hl.zeros([32, 32], hl.float32, L), is_async=True)
    acc = hl.warpgroup_mma_wait(num_outstanding=0, deps=[acc])
    hl.store(c_ptr + rows * 32 + cols, acc)


def test_gluon_names(rng):
    a, b = rng.standard_normal((32, 32), np.float32), rng.standard_normal((32, 32), np.float32)
    c = poisoned((32, 32))
    kernel = gluon_names[(1,)](a, b, c)
    np.testing.assert_allclose(c, a @ b, rtol=1e-5, atol=1e-5)
    assert "{async}" in kernel.ir and "pending = 0" in kernel.ir


# -- mistakes -----------------------------------------------------------------

STAGE: hl.constexpr = hl.SwizzledSharedLayout(1, 1, 1, [1, 0])
RING3: hl.constexpr = hl.SwizzledSharedLayout(1, 1, 1, [2, 1, 0])


def compile_error(fn, match: str, **constexprs) -> str:
    with pytest.raises(hadron.CompileError, match=match) as info:
        hadron.compile(fn, {"out": "*f32"}, constexprs, target="host")
    return str(info.value)


@hadron.jit
def dot_of(out, A_SHAPE: hl.constexpr, A_LAYOUT: hl.constexpr, B_DTYPE: hl.constexpr,
           ASYNC: hl.constexpr, PENDING: hl.constexpr):
    a = hl.allocate_shared_memory(hl.float16, A_SHAPE, A_LAYOUT)
    b = hl.allocate_shared_memory(B_DTYPE, [16, 32], STAGE)
    acc = hl.dot(a, b, hl.zeros([32, 32], hl.float32, FMA), is_async=ASYNC)
    hl.store(out, hl.sum(hl.sum(hl.dot_wait(acc, PENDING), 1), 0))


def test_mistakes_in_a_dot_name_the_operand():
    ok = {"A_SHAPE": [32, 16], "A_LAYOUT": STAGE, "B_DTYPE": hl.float16, "ASYNC": True,
          "PENDING": 0}
    assert "hd.dot_wait" in hadron.compile(dot_of, {"out": "*f32"}, ok, target="host").ir
    msg = compile_error(dot_of, r"dot: a is a shared-memory tile of shape \[2, 32, 16\]; dot "
                        r"reads rank-2 tiles from shared memory \(take one with \.index\(i\)\)",
                        **{**ok, "A_SHAPE": [2, 32, 16], "A_LAYOUT": RING3})
    assert re.match(r".*test_shared_dot\.py:\d+:\d+: error: ", msg), msg
    compile_error(dot_of, r"dot: a \(shared memory\) holds f16 but b \(shared memory\) holds "
                  r"f32; the operands must have one element type", **{**ok, "B_DTYPE": hl.float32})
    compile_error(dot_of, r"dot: shapes do not chain: a \(shared memory\) \[32, 8\] \* b "
                  r"\(shared memory\) \[16, 32\]", **{**ok, "A_SHAPE": [32, 8]})
    compile_error(dot_of, "dot: is_async must be a compile-time bool, got 1", **{**ok, "ASYNC": 1})
    compile_error(dot_of, r"dot_wait: pending = -1 must be >= 0", **{**ok, "PENDING": -1})


@hadron.jit
def wait_for_runtime_count(out, n):
    hl.store(out, hl.sum(hl.sum(hl.dot_wait(hl.zeros([32, 32], hl.float32, FMA), n), 1), 0))


@hadron.jit
def dot_of_a_number(out):
    b = hl.allocate_shared_memory(hl.float16, [16, 32], STAGE)
    hl.dot(1.0, b, hl.zeros([32, 32], hl.float32, FMA))


@hadron.jit
def wait_without_deps(out):
    hl.warpgroup_mma_wait(1)


def test_mistakes_in_a_wait_and_its_operands():
    with pytest.raises(hadron.CompileError, match="dot_wait: pending: expected a compile-time "
                                                  "int, got a runtime value"):
        hadron.compile(wait_for_runtime_count, {"out": "*f32", "n": "i32"}, target="host")
    compile_error(dot_of_a_number, "dot: a must be a tensor or a shared_memory_descriptor, got "
                  "float 1.0")
    compile_error(wait_without_deps, r"warpgroup_mma_wait: deps must be given")


@hadron.jit
def staged(out, SHAPE: hl.constexpr, LAYOUT: hl.constexpr):
    ring = hl.allocate_shared_memory(hl.float16, [2, 32, 32], SWIZZLED_RING)
    stage = ring._reinterpret(hl.float32, SHAPE, LAYOUT)
    stage.store(hl.full(SHAPE, 2.0, hl.float32, FMA))
    hl.store(out, hl.sum(hl.sum(stage.load(FMA), 1), 0))


def test_reinterpret_refuses_more_bytes_and_distributed_layouts():
    out = poisoned(1)
    staged[(1,)](out, SHAPE=[32, 32], LAYOUT=STAGE)  # 4 KiB of the ring's 4 KiB
    assert out[0] == 2.0 * 32 * 32
    compile_error(staged, r"'hd\.memdesc_reinterpret' op result '!hd\.memdesc<32x64xf32.*' "
                  r"needs 8192 bytes, more than the 4096 of '!hd\.memdesc<2x32x32xf16",
                  SHAPE=[32, 64], LAYOUT=STAGE)
    compile_error(staged, r"reinterpret: needs a shared layout", SHAPE=[32, 32], LAYOUT=FMA)
