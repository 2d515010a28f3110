"""hl.warp_specialize: partitions that run at the same time on disjoint warps.

A producer worker copies blocks of `src` into a ring of two shared stages;
the default partition (the kernel's warps) waits for each stage, adds it to
its sum and hands the stage back with per-warp arrivals. For NVIDIA sm_90a
it compiles to named barriers per region and a branch on the warp id, which
ptxas accepts; on an NVIDIA GPU the sums must equal numpy's (the test skips
without one). The host, whose program is one thread, refuses the kernel with
that reason; mistakes in the call are clear errors at the user's line."""

from __future__ import annotations

import re

import numpy as np
import pytest

import hadron
import hadron.language as hl
from conftest import assembles, nvidia_plugin, poisoned

BLOCK = 256
SHARED: hl.constexpr = hl.SwizzledSharedLayout(1, 1, 1, [1, 0])


@hadron.jit
def consume(ring, full, empty, out, nblocks, BLOCK: hl.constexpr):
    layout: hl.constexpr = hl.BlockedLayout([BLOCK // (32 * hl.num_warps())], [32],
                                            [hl.num_warps()], [0])
    acc = hl.zeros([BLOCK], hl.float32, layout)
    for j in range(nblocks):
        s = j % 2
        hl.mbarrier.wait(full.index(s), (j // 2) & 1)
        acc = acc + ring.index(s).load(layout)
        hl.mbarrier.arrive(empty.index(s), per_warp=True)
    hl.store(out + hl.program_id(0) * BLOCK + hl.arange(0, BLOCK, layout), acc)


@hadron.jit
def produce(ring, full, empty, src, nblocks, BLOCK: hl.constexpr):
    layout: hl.constexpr = hl.BlockedLayout([BLOCK // (32 * hl.num_warps())], [32],
                                            [hl.num_warps()], [0])
    first = src + hl.program_id(0) * nblocks * BLOCK
    for j in range(nblocks):
        s = j % 2
        # Parity 1 first: the phase before a barrier's first counts as complete.
        hl.mbarrier.wait(empty.index(s), ((j // 2) & 1) ^ 1)
        ring.index(s).store(hl.load(first + j * BLOCK + hl.arange(0, BLOCK, layout)))
        hl.mbarrier.arrive(full.index(s))


@hadron.jit
def ring_sum(src, out, nblocks, BLOCK: hl.constexpr, PRODUCER_WARPS: hl.constexpr):
    """out[p] = sum over j of src[p, j] (blocks of BLOCK floats)."""
    ring = hl.allocate_shared_memory(hl.float32, [2, BLOCK], SHARED)
    full = hl.allocate_mbarrier(batch=2)
    empty = hl.allocate_mbarrier(batch=2)
    for s in hl.static_range(2):
        hl.mbarrier.init(full.index(s), count=1)
        hl.mbarrier.init(empty.index(s), count=hl.num_warps())
    hl.warp_specialize((ring, full, empty, out, nblocks, BLOCK), consume,
                       (ring, full, empty, src, nblocks, BLOCK), [produce], [PRODUCER_WARPS])


@hadron.jit
def transpose_tile(src, out, region):
    """Each partition moves its own 32 x 32 tile through shared memory
    between two layouts, with a barrier of its own warps in between."""
    w: hl.constexpr = hl.num_warps()
    rows: hl.constexpr = hl.BlockedLayout([1, 4], [4, 8], [w, 1], [1, 0])
    cols: hl.constexpr = hl.BlockedLayout([4, 1], [8, 4], [1, w], [0, 1])
    base = region * 1024
    i = hl.arange(0, 32, hl.SliceLayout(1, rows))[:, None]
    j = hl.arange(0, 32, hl.SliceLayout(0, rows))[None, :]
    buf = hl.allocate_shared_memory(hl.int32, [32, 32], hl.SwizzledSharedLayout(4, 1, 8, [1, 0]))
    buf.store(hl.load(src + base + i * 32 + j))
    hl.thread_barrier()
    ic = hl.arange(0, 32, hl.SliceLayout(1, cols))[:, None]
    jc = hl.arange(0, 32, hl.SliceLayout(0, cols))[None, :]
    hl.store(out + base + ic * 32 + jc, buf.load(cols))


@hadron.jit
def three_regions(src, out):
    hl.warp_specialize((src, out, 0), transpose_tile, (src, out, 1), [transpose_tile],
                       [2])


RING_SIG = {"src": "*f32", "out": "*f32", "nblocks": "i32"}


def test_compiles_for_nvidia_with_a_barrier_per_region(tmp_path):
    nvidia_plugin()
    binary = hadron.compile(three_regions, {"src": "*i32", "out": "*i32"},
                            target="nvidia:sm_90a")
    ptx = binary.asm
    assert "hd.warp_specialize warps [2] default" in binary.ir
    # 4 + 2 warps launch; each region's hl.thread_barrier is a named barrier
    # for its own threads.
    assert ".reqntid 192" in ptx
    assert re.search(r"bar\.sync\s+1, 128;", ptx), ptx
    assert re.search(r"bar\.sync\s+2, 64;", ptx), ptx
    # The branch on the warp id: warps 0-3 (threads 0-127) run the default
    # region (LLVM compares the thread id).
    assert re.search(r"mov\.u32\s+(%r\d+), %tid\.x;", ptx), ptx
    assert re.search(r"setp\.(gt|ge|lt|le)\.u32\s+%p\d+, %r\d+, (3|4|127|128);", ptx), ptx
    assembles(ptx, tmp_path)

    ring = hadron.compile(ring_sum, RING_SIG, {"BLOCK": BLOCK, "PRODUCER_WARPS": 1},
                          target="nvidia:sm_90a")
    assert ".reqntid 160" in ring.asm
    assert "mbarrier.try_wait.parity" in ring.asm
    assembles(ring.asm, tmp_path)


def test_the_host_refuses_it_with_the_reason(rng):
    reason = ("'hd.warp_specialize' op needs its regions to run at the same time on "
              "different warps; host runs a CTA as one thread")
    with pytest.raises(hadron.RuntimeError, match=re.escape(reason)):
        hadron.compile(ring_sum, RING_SIG, {"BLOCK": BLOCK, "PRODUCER_WARPS": 1}, target="host")
    src = rng.uniform(-1, 1, (1, 2, BLOCK)).astype(np.float32)
    with pytest.raises(hadron.RuntimeError, match=re.escape(reason)):
        ring_sum[(1,)](src, poisoned(BLOCK), 2, BLOCK=BLOCK, PRODUCER_WARPS=1, device="host")


@pytest.mark.parametrize("producer_warps", [1, 2])
@pytest.mark.parametrize("nblocks", [1, 2, 7])
def test_ring_sums_on_an_nvidia_gpu(rng, producer_warps, nblocks):
    if not any(d.plugin == "nvidia" for d in hadron.runtime.devices()):
        pytest.skip("no NVIDIA GPU")
    programs = 3
    src = rng.uniform(-4, 4, (programs, nblocks, BLOCK)).astype(np.float32)
    out = poisoned(programs * BLOCK + 64)
    ring_sum[(programs,)](src, out, nblocks, BLOCK=BLOCK, PRODUCER_WARPS=producer_warps,
                          device="nvidia")
    want = np.zeros((programs, BLOCK), np.float32)
    for j in range(nblocks):  # the kernel's order of additions: exact
        want += src[:, j]
    np.testing.assert_array_equal(out[:programs * BLOCK].reshape(programs, BLOCK), want)
    assert np.isnan(out[programs * BLOCK:]).all()


@hadron.jit
def nothing(x):
    pass


@hadron.jit
def store_tile(out, tile):
    hl.store(out + hl.arange(0, 128, tile.layout), tile)


@hadron.jit
def returns_one(x):
    return 1


@hadron.jit
def bad_warps(out, WARPS: hl.constexpr):
    hl.warp_specialize((out,), nothing, (out,), [nothing], [WARPS])


@hadron.jit
def tile_to_worker(out):
    tile = hl.arange(0, 128, hl.BlockedLayout([1], [32], [4], [0]))
    hl.warp_specialize((out, tile), store_tile, (out, tile), [store_tile], [4])


@hadron.jit
def plain_function(out):
    hl.warp_specialize((out,), print, (out,), [nothing], [1])


@hadron.jit
def default_returns(out):
    hl.warp_specialize((out,), returns_one, (out,), [nothing], [1])


@hadron.jit
def counts_differ(out):
    hl.warp_specialize((out,), nothing, (out,), [nothing, nothing], [1])


@hadron.jit
def store_one(out):
    hl.store(out, 1)


@hadron.jit
def with_budgets(out):
    hl.warp_specialize((out,), store_one, (out,), [nothing], [4], worker_num_regs=[24],
                       default_num_regs=240)


@hadron.jit
def worker_budgets(out):
    hl.warp_specialize((out,), store_one, (out,), [nothing], [4], worker_num_regs=[24])


@hadron.jit
def default_budget_alone(out):
    hl.warp_specialize((out,), store_one, (out,), [nothing], [4], default_num_regs=240)


def test_register_budgets_reach_the_target(tmp_path):
    nvidia_plugin()
    binary = hadron.compile(with_budgets, {"out": "*i32"}, target="nvidia:sm_90a")
    assert "hd.warp_specialize warps [4] regs [240, 24] default" in binary.ir
    # 8 warps launch: ptxas's share is 248 a thread, so both budgets lower it.
    assert "setmaxnreg.dec.sync.aligned.u32 240;" in binary.asm
    assert "setmaxnreg.dec.sync.aligned.u32 24;" in binary.asm
    assembles(binary.asm, tmp_path)
    # Without default_num_regs the default partition gets what the worker
    # leaves: (65536 - 4 * 32 * 24) / (4 * 32), capped at 256.
    left = hadron.compile(worker_budgets, {"out": "*i32"}, target="nvidia:sm_90a")
    assert "hd.warp_specialize warps [4] regs [0, 24] default" in left.ir
    assert "setmaxnreg.inc.sync.aligned.u32 256;" in left.asm
    assert "setmaxnreg.dec.sync.aligned.u32 24;" in left.asm
    assembles(left.asm, tmp_path)
    assert "default_num_regs needs worker_num_regs" in error_of(default_budget_alone)


def error_of(kernel, constexprs=None) -> str:
    with pytest.raises(hadron.CompileError) as e:
        hadron.compile(kernel, {"out": "*i32"}, constexprs or {}, target="nvidia:sm_90a")
    return str(e.value)


def line_of(fn, text: str) -> int:
    import inspect
    lines, first = inspect.getsourcelines(fn.fn)
    return first + next(i for i, line in enumerate(lines) if text in line)


@pytest.mark.parametrize("warps", [3, 0])
def test_warp_counts_must_be_powers_of_two(warps):
    msg = error_of(bad_warps, {"WARPS": warps})
    assert f"partition 0 has {warps} warps; a partition runs a power of two of warps" in msg
    assert f"test_warp_specialize.py:{line_of(bad_warps, 'hl.warp_specialize')}:" in msg
    assert "func.func" not in msg and "\n" not in msg.strip()


def test_a_worker_takes_no_tensor_of_the_caller():
    msg = error_of(tile_to_worker)
    assert "in partition 0 of hd.warp_specialize reads a tile defined above it" in msg
    assert f"test_warp_specialize.py:{line_of(tile_to_worker, 'hl.warp_specialize')}:" in msg


def test_call_mistakes_are_clear():
    assert "default_partition must be a @hadron.jit function" in error_of(plain_function)
    assert "partitions return nothing" in error_of(default_returns)
    assert "2 worker partitions but 1 worker_num_warps" in error_of(counts_differ)
