"""Tensor descriptors from Python: hadron.TensorDescriptor arguments, bulk
copies into shared memory completing on barriers, and the errors for bad
descriptors. On the host the copies complete at once; on the OpenCL CPU
device (python.tutorials.opencl-cpu) only the tests that launch no
descriptor kernel run (host_only says why)."""

from __future__ import annotations

import os

import numpy as np
import pytest

import hadron
import hadron.language as hl
from conftest import poisoned

ON_INTEL = os.environ.get("HADRON_DEVICE", "host").split(":")[0] == "intel"
# Not a refusal to test: the Intel runtime part would refuse descriptors
# (HD_ERROR_UNSUPPORTED), but building the program first aborts the process.
host_only = pytest.mark.skipif(
    ON_INTEL, reason="Intel's OpenCL CPU compiler dies on descriptor kernels (an internal "
    "compiler error that aborts the process) before the Intel runtime part refuses them; "
    "conformance/expectations/intel.txt")

ROWS, COLS, BLOCKS = 16, 32, 3
TILE: hl.constexpr = hl.BlockedLayout([1, 4], [4, 8], [4, 1], [1, 0])
STAGE: hl.constexpr = hl.SwizzledSharedLayout(4, 1, 8, [1, 0])
RING: hl.constexpr = hl.SwizzledSharedLayout(4, 1, 8, [2, 1, 0])
# What NVIDIA's copy engine writes: 128-byte swizzled rows of f32.
MATRIX: hl.constexpr = hl.MatrixSharedLayout(128, 32)
MATRIX_RING: hl.constexpr = hl.MatrixSharedLayout(128, 32, rank=3)


@hadron.jit
def stream_blocks(src, out, row0, col0, NUM_BLOCKS: hl.constexpr, RING_LAYOUT: hl.constexpr = RING):
    """Block i of src at (row0 + 16 i, col0) goes through stage i % 2 of a
    ring (laid out as the descriptor's blocks) into out[i]."""
    R: hl.constexpr = src.block_shape[0]
    C: hl.constexpr = src.block_shape[1]
    ring = hl.allocate_shared_memory(src.dtype, [2, R, C], RING_LAYOUT)
    bars = hl.allocate_mbarrier(batch=2)
    hl.mbarrier.init(bars.index(0), count=1)
    hl.mbarrier.init(bars.index(1), count=1)
    hl.fence_async_shared()
    rows = hl.arange(0, R, hl.SliceLayout(1, TILE))[:, None]
    cols = hl.arange(0, C, hl.SliceLayout(0, TILE))[None, :]
    for i in hl.static_range(NUM_BLOCKS):
        bar = bars.index(i % 2)
        stage = ring.index(i % 2)
        hl.mbarrier.expect(bar, src.block_type.nbytes)
        hl.tma.async_copy_global_to_shared(src, [row0 + i * R, col0], bar, stage)
        hl.mbarrier.wait(bar, (i // 2) & 1)
        hl.store(out + i * R * C + rows * C + cols, stage.load(TILE))


def expected_blocks(t: np.ndarray, row0: int, col0: int) -> np.ndarray:
    want = np.zeros((BLOCKS, ROWS, COLS), t.dtype)
    for i in range(BLOCKS):
        for y in range(ROWS):
            r = row0 + i * ROWS + y
            for x in range(COLS):
                c = col0 + x
                if 0 <= r < t.shape[0] and 0 <= c < t.shape[1]:
                    want[i, y, x] = t[r, c]
    return want


@host_only
@pytest.mark.parametrize("origin", [(0, 0), (-5, 30), (30, -20), (100, 0), (7, 3)])
@pytest.mark.parametrize("layouts", [(STAGE, RING), (MATRIX, MATRIX_RING)])
def test_ring_of_stages_from_a_strided_host_view(rng, origin, layouts):
    # Rows of 64 of which the descriptor sees 50: a view, strides (64, 1).
    storage = rng.uniform(-8, 8, (40, 64)).astype(np.float32)
    t = storage[:, :50]
    desc = hadron.TensorDescriptor.from_tensor(t, [ROWS, COLS], layouts[0])
    assert desc.strides == (64, 1) and desc.shape == (40, 50)
    out = poisoned((BLOCKS + 1, ROWS, COLS))  # a block past the end stays NaN
    stream_blocks[(1,)](desc, out, *origin, NUM_BLOCKS=BLOCKS, RING_LAYOUT=layouts[1])
    np.testing.assert_array_equal(out[:BLOCKS], expected_blocks(t, *origin))
    assert np.isnan(out[BLOCKS]).all()


@host_only
def test_device_arrays_take_the_cpp_launch_path(rng, monkeypatch):
    x = rng.integers(-1000, 1000, (48, 32)).astype(np.int32)
    dx = hadron.to_device(x)
    desc = hadron.TensorDescriptor.from_tensor(dx, [ROWS, COLS], STAGE)
    out = hadron.to_device(poisoned((BLOCKS, ROWS, COLS), np.int32))
    first = stream_blocks[(1,)](desc, out, 0, 0, NUM_BLOCKS=BLOCKS)
    np.testing.assert_array_equal(out.numpy(), x.reshape(BLOCKS, ROWS, COLS))
    assert stream_blocks._launcher.specialisations >= 1
    known = stream_blocks._launcher.specialisations

    y = rng.integers(-1000, 1000, (48, 32)).astype(np.int32)
    dy = hadron.to_device(y)
    with monkeypatch.context() as m:  # Launcher.cpp launches it, not run()
        m.setattr(stream_blocks, "run", lambda *a, **k: pytest.fail("took the Python path"))
        again = stream_blocks[(1,)](hadron.TensorDescriptor.from_tensor(dy, [ROWS, COLS], STAGE),
                                    out, 0, 0, NUM_BLOCKS=BLOCKS)
    assert again is first and stream_blocks._launcher.specialisations == known
    np.testing.assert_array_equal(out.numpy(), y.reshape(BLOCKS, ROWS, COLS))

    # Another block shape is another specialisation.
    half = hadron.TensorDescriptor.from_tensor(dy, [ROWS // 2, COLS], STAGE)
    other = stream_blocks[(1,)](half, out, 0, 0, NUM_BLOCKS=BLOCKS)
    assert other is not first and "!hd.tensor_desc<8x32xi32" in other.ir
    np.testing.assert_array_equal(out.numpy().reshape(-1)[:BLOCKS * ROWS // 2 * COLS],
                                  y[:BLOCKS * ROWS // 2].reshape(-1))


@hadron.jit
def matmul_tma(a_desc, b_desc, c_ptr, M, N, K):
    """C = A @ B, A and B fed by descriptors through a two-stage ring: the
    copy of step k + 1 is in flight while step k is computed."""
    BM: hl.constexpr = a_desc.block_shape[0]
    BK: hl.constexpr = a_desc.block_shape[1]
    BN: hl.constexpr = b_desc.block_shape[1]
    L: hl.constexpr = hl.BlockedLayout([1, 4], [4, 8], [hl.num_warps(), 1], [1, 0])
    a_ring = hl.allocate_shared_memory(a_desc.dtype, [2, BM, BK], hl.SwizzledSharedLayout(1, 1, 1, [2, 1, 0]))
    b_ring = hl.allocate_shared_memory(b_desc.dtype, [2, BK, BN], hl.SwizzledSharedLayout(1, 1, 1, [2, 1, 0]))
    bars = hl.allocate_mbarrier(batch=2)
    hl.mbarrier_init(bars.index(0), 1)
    hl.mbarrier_init(bars.index(1), 1)
    hl.fence_async_shared()
    row0 = hl.program_id(0) * BM
    col0 = hl.program_id(1) * BN
    nbytes: hl.constexpr = a_desc.nbytes_per_block + b_desc.nbytes_per_block
    steps = (K + BK - 1) // BK

    hl.mbarrier_expect(bars.index(0), nbytes)
    hl.async_tensor_copy(a_desc, [row0, 0], bars.index(0), a_ring.index(0))
    hl.async_tensor_copy(b_desc, [0, col0], bars.index(0), b_ring.index(0))
    acc = hl.zeros([BM, BN], hl.float32, L)
    for k in range(0, steps):
        nxt = (k + 1) % 2
        more = k + 1 < steps
        hl.mbarrier_expect(bars.index(nxt), nbytes, pred=more)
        hl.async_tensor_copy(a_desc, [row0, (k + 1) * BK], bars.index(nxt), a_ring.index(nxt),
                             pred=more)
        hl.async_tensor_copy(b_desc, [(k + 1) * BK, col0], bars.index(nxt), b_ring.index(nxt),
                             pred=more)
        hl.mbarrier_wait(bars.index(k % 2), (k // 2) & 1)
        a = a_ring.index(k % 2).load(hl.DotOperandLayout(0, L))
        b = b_ring.index(k % 2).load(hl.DotOperandLayout(1, L))
        acc = hl.dot(a, b, acc)
        hl.barrier()  # every read of stage k % 2 before step k + 1 refills it
    rows = row0 + hl.arange(0, BM, hl.SliceLayout(1, L))[:, None]
    cols = col0 + hl.arange(0, BN, hl.SliceLayout(0, L))[None, :]
    hl.store(c_ptr + rows * N + cols, acc, mask=(rows < M) & (cols < N))


@host_only
@pytest.mark.parametrize("shape", [(70, 50, 40), (32, 32, 16), (5, 9, 100)])
def test_tiled_matmul_fed_by_descriptors(rng, shape):
    M, N, K = shape
    BM, BN, BK = 32, 32, 16
    a = rng.standard_normal((M, K), dtype=np.float32)
    b = rng.standard_normal((K, N), dtype=np.float32)
    c = poisoned((M, N))
    a_desc = hadron.TensorDescriptor.from_tensor(a, [BM, BK])
    b_desc = hadron.TensorDescriptor.from_tensor(b, [BK, BN])
    grid = (hadron.cdiv(M, BM), hadron.cdiv(N, BN))
    matmul_tma[grid](a_desc, b_desc, c, M, N, K)
    np.testing.assert_allclose(c, a @ b, rtol=1e-4, atol=1e-4)


# -- bad descriptors ----------------------------------------------------------

def test_a_block_of_another_rank_is_refused():
    x = np.zeros((40, 64), np.float32)
    with pytest.raises(ValueError, match=r"block_shape \[16\] has rank 1, the tensor has rank 2"):
        hadron.TensorDescriptor.from_tensor(x, [16])


def test_a_non_contiguous_innermost_dim_is_refused():
    x = np.zeros((40, 64), np.float32)
    with pytest.raises(ValueError, match=r"innermost dimension must be contiguous \(stride 1\), "
                                         r"got strides \[64, 2\]"):
        hadron.TensorDescriptor.from_tensor(x[:, ::2], [16, 16])


def test_blocks_must_be_powers_of_two_and_fit_the_base():
    x = np.zeros((40, 64), np.float32)
    with pytest.raises(ValueError, match="every dim must be a power of two, got 24"):
        hadron.TensorDescriptor.from_tensor(x, [16, 24])
    with pytest.raises(ValueError, match=r"spans 10440 bytes, its base has 10240"):
        hadron.TensorDescriptor(x, [41, 50], [64, 1], [16, 32])
    with pytest.raises(TypeError, match="layout must be a shared layout"):
        hadron.TensorDescriptor.from_tensor(x, [16, 32], TILE)


@hadron.jit
def pinned(src: hl.tensor_descriptor_type(hl.float32, [16, 32]), out):
    bar = hl.allocate_mbarrier()
    hl.mbarrier.init(bar, 1)
    stage = hl.allocate_shared_memory(hl.float32, [16, 32], hl.SwizzledSharedLayout(1, 1, 1, [1, 0]))
    hl.mbarrier.expect(bar, 16 * 32 * 4)
    hl.async_tensor_copy(src, [0, 0], bar, stage)
    hl.mbarrier.wait(bar, 0)
    rows = hl.arange(0, 16, hl.SliceLayout(1, TILE))[:, None]
    cols = hl.arange(0, 32, hl.SliceLayout(0, TILE))[None, :]
    hl.store(out + rows * 32 + cols, stage.load(TILE))


def test_an_annotated_parameter_refuses_another_block_and_non_descriptors():
    x = np.zeros((40, 64), np.float32)
    out = poisoned((16, 32))
    with pytest.raises(TypeError, match=r"pinned: argument `src` takes blocks of \[16, 32\] f32 "
                                        r"in .*, got a descriptor of blocks of \[32, 32\] f32"):
        pinned[(1,)](hadron.TensorDescriptor.from_tensor(x, [32, 32]), out)
    with pytest.raises(TypeError, match=r"argument `src` is annotated tensor_descriptor_type"
                                        r".*, got ndarray; pass a hadron.TensorDescriptor"):
        pinned[(1,)](x, out)


def test_a_parameter_annotated_as_any_descriptor_refuses_a_pointer():
    @hadron.jit
    def any_block(src: hl.tensor_descriptor, out):
        hl.store(out, 1.0)

    with pytest.raises(TypeError, match=r"any_block: argument `src` is annotated "
                                        r"hl.tensor_descriptor, got '\*f32'"):
        hadron.compile(any_block, {"src": "*f32", "out": "*f32"}, target="host")
    sig = {"src": "tensordesc<f32[8]>", "out": "*f32"}
    assert "!hd.tensor_desc<8xf32" in hadron.compile(any_block, sig, target="host").ir


@host_only
def test_an_annotated_parameter_takes_its_kind(rng):
    x = rng.standard_normal((40, 64), dtype=np.float32)
    out = poisoned((16, 32))
    pinned[(1,)](hadron.TensorDescriptor.from_tensor(x, [16, 32]), out)
    np.testing.assert_array_equal(out, x[:16, :32])


def test_a_descriptor_op_on_a_pointer_is_a_compile_error():
    @hadron.jit
    def wrong(src, out):
        bar = hl.allocate_mbarrier()
        stage = hl.allocate_shared_memory(hl.float32, [16], hl.SwizzledSharedLayout(1, 1, 1, [0]))
        hl.async_tensor_copy(src, [0], bar, stage)

    with pytest.raises(hadron.CompileError, match=r"test_tensor_descriptors.py:\d+:\d+: error: "
                                                  r"async_tensor_copy: expected a tensor "
                                                  r"descriptor"):
        hadron.compile(wrong, {"src": "*f32", "out": "*f32"}, target="host")


def test_compile_takes_descriptor_types_for_any_target():
    sig = {"src": hl.tensor_descriptor_type(hl.float32, [16, 32], STAGE), "out": "*f32",
           "row0": "i32", "col0": "i32"}
    host = hadron.compile(stream_blocks, sig, {"NUM_BLOCKS": 2}, target="host")
    assert "!hd.tensor_desc<16x32xf32" in host.ir and host.binary_size > 0
    # Triton's spelling takes the default layout, which `pinned` copies into.
    triton = hadron.compile(pinned, {"src": "tensordesc<fp32[16, 32]>", "out": "*f32"},
                            target="host")
    # The annotation gives the type when the signature leaves it out.
    assert hadron.compile(pinned, {"out": "*f32"}, target="host").ir == triton.ir
    with pytest.raises(TypeError, match=r"pinned: argument `src` takes blocks of \[16, 32\]"):
        hadron.compile(pinned, {"src": "tensordesc<f32[16, 16]>", "out": "*f32"}, target="host")


def test_compile_for_nvidia_encodes_tensor_maps():
    if "nvidia" not in hadron.runtime.context().plugins():
        pytest.skip("no NVIDIA plugin in this build")
    sig = {"src": hl.tensor_descriptor_type(hl.float32, [16, 32], MATRIX), "out": "*f32",
           "row0": "i32", "col0": "i32"}
    binary = hadron.compile(stream_blocks, sig, {"NUM_BLOCKS": 3, "RING_LAYOUT": MATRIX_RING},
                            target="nvidia:sm_90a")
    assert binary.binary_size > 0 and binary.kernels == ["stream_blocks"]
    a = hl.tensor_descriptor_type(hl.float32, [32, 16])
    b = hl.tensor_descriptor_type(hl.float32, [16, 32])
    gemm = hadron.compile(matmul_tma, {"a_desc": a, "b_desc": b, "c_ptr": "*f32", "M": "i32",
                                       "N": "i32", "K": "i32"}, target="nvidia:sm_90a")
    assert gemm.binary_size > 0


def test_compile_for_intel_takes_descriptors():
    sig = {"src": hl.tensor_descriptor_type(hl.float32, [16, 32], STAGE), "out": "*f32",
           "row0": "i32", "col0": "i32"}
    assert hadron.compile(stream_blocks, sig, {"NUM_BLOCKS": 3}, target="intel").binary_size > 0



def shared_block(src, out, mask):
    """The cluster forms: the block at (0, 0) is copied with multicast mask
    `mask` into a stage filled with -7; an arrival on rank 0 completes a
    second barrier."""
    R: hl.constexpr = src.block_shape[0]
    C: hl.constexpr = src.block_shape[1]
    stage = hl.allocate_shared_memory(src.dtype, [R, C], src.layout)
    bars = hl.allocate_mbarrier(batch=2)
    hl.mbarrier.init(bars.index(0), count=1)
    hl.mbarrier.init(bars.index(1), count=1)
    stage.store(hl.full([R, C], -7.0, hl.float32, TILE))
    hl.cluster_barrier()
    hl.mbarrier.expect(bars.index(0), src.block_type.nbytes)
    hl.async_tensor_copy(src, [0, 0], bars.index(0), stage, multicast=mask)
    hl.mbarrier.wait(bars.index(0), 0)
    hl.mbarrier.arrive(bars.index(1), rank=0)
    hl.mbarrier.wait(bars.index(1), 0)
    rows = hl.arange(0, R, hl.SliceLayout(1, TILE))[:, None]
    cols = hl.arange(0, C, hl.SliceLayout(0, TILE))[None, :]
    hl.store(out + rows * C + cols, stage.load(TILE))
    hl.cluster_barrier()


solo_block = hadron.jit(shared_block)
pair_block = hadron.jit(cluster_dims=(2,))(shared_block)
PLAIN: hl.constexpr = hl.SwizzledSharedLayout(1, 1, 1, [1, 0])


@host_only
@pytest.mark.parametrize("mask", [1, 3, 2, 0])
def test_without_clusters_a_multicast_lands_where_bit_0_says(rng, mask):
    t = rng.standard_normal((ROWS, COLS)).astype(np.float32)
    out = poisoned((ROWS, COLS), np.float32)
    solo_block[(1,)](hadron.TensorDescriptor.from_tensor(t, [ROWS, COLS], PLAIN), out, mask)
    np.testing.assert_array_equal(out, t if mask & 1 else np.full_like(t, -7))


def test_clusters_of_two_reach_the_targets():
    sig = {"src": hl.tensor_descriptor_type(hl.float32, [ROWS, COLS], PLAIN), "out": "*f32",
           "mask": "i32"}
    with pytest.raises(hadron.RuntimeError, match="groups 2 programs into a cluster; host has "
                                                  "no clusters"):
        hadron.compile(pair_block, sig, target="host")
    with pytest.raises(TypeError, match="cluster_dims is 1 to 3 positive ints"):
        hadron.jit(cluster_dims=(2, 0))(shared_block)
    if "nvidia" not in hadron.runtime.context().plugins():
        pytest.skip("no NVIDIA plugin in this build")
    binary = hadron.compile(pair_block, sig, target="nvidia:sm_90a")
    assert "hd.cluster_dims = array<i32: 2, 1, 1>" in binary.ir
    assert ".reqnctapercluster 2, 1, 1" in binary.asm
    assert ".multicast::cluster" in binary.asm
    assert "mbarrier.arrive.shared::cluster.b64" in binary.asm
