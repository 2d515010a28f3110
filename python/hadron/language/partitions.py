"""``hl.warp_specialize``: regions of a kernel that run at the same time on
disjoint groups of warps (Gluon's ``gl.warp_specialize``; docs/ir.md,
"Warp specialisation").

The default partition runs on the kernel's ``num_warps`` warps, each worker
partition on ``worker_num_warps[i]`` more warps of its own. Partitions are
@hadron.jit functions, traced where they are called as any @hadron.jit
helper is, each with its arguments. Inside one, ``hl.num_warps()`` is its
warps, layouts span them, ``hl.thread_barrier()`` waits for them only, and
the mbarrier and bulk-copy operations are the partition's. Partitions talk
through shared memory ordered by mbarriers (``hl.mbarrier_arrive(...,
per_warp=True)`` releases a buffer from each warp as it is done); a worker
takes no tensor of the caller (other warps hold it), only scalars, pointers,
descriptors and shared memory.
"""

from __future__ import annotations

from typing import Any, Optional, Sequence

from .._lazy import builder as _builder
from .core import _constexpr_int, _current, _unwrap


def _partition(fn: Any, what: str) -> Any:
    from ..jit import JITFunction  # the package's jit imports this module

    fn = _unwrap(fn)
    if not isinstance(fn, JITFunction):
        raise TypeError(f"warp_specialize: {what} must be a @hadron.jit function, got {fn!r}")
    return fn


def _region(fn: Any, args: Sequence[Any], warps: int, what: str) -> Any:
    """The builder's callback for one partition: calls `fn(*args)` with
    hl.num_warps() answering `warps`."""

    def build() -> None:
        state = _current()
        outer = state.num_warps
        state.num_warps = warps
        try:
            result = fn(*args)
        finally:
            state.num_warps = outer
        if result is not None:
            raise TypeError(f"warp_specialize: {what} {fn.__name__} returns {result!r}; "
                            "partitions return nothing (hd.warp_specialize has no results: "
                            "store what they compute, or pass it through shared memory)")

    return build


def warp_specialize(default_args: Sequence[Any], default_partition: Any,
                    worker_args: Sequence[Any], worker_partitions: Sequence[Any],
                    worker_num_warps: Sequence[int],
                    worker_num_regs: Optional[Sequence[int]] = None,
                    default_num_regs: Optional[int] = None) -> None:
    """Runs ``default_partition(*default_args)`` on the kernel's warps and each
    ``worker_partitions[i](*worker_args)`` on ``worker_num_warps[i]`` warps of
    its own (a power of two), all at the same time; they meet again after it.

    ``worker_num_regs`` (one per worker) gives each worker a register budget
    a thread (``hd.warp_specialize regs``): a producer that needs few gives
    them to consumers that need many. ``default_num_regs`` is the default
    partition's; left out, it gets what the workers leave, as the target
    computes it (NVIDIA sm_90a: the register file's 64 Ki less the workers',
    at most 256). The target checks them when the kernel is compiled
    (NVIDIA sm_90a: ``setmaxnreg``, whole warpgroups, 24 to 256 in steps
    of 8).

    Targets whose program is one thread (the host) or that have no barriers
    for groups of warps reject the kernel when it is compiled, saying so."""
    if worker_num_regs is None and default_num_regs is not None:
        raise TypeError("warp_specialize: default_num_regs needs worker_num_regs (budgets come "
                        "from the workers; the default partition's alone means nothing)")
    default = _partition(default_partition, "default_partition")
    workers = [_partition(w, f"worker_partitions[{i}]")
               for i, w in enumerate(_unwrap(worker_partitions))]
    warps = [_constexpr_int(w, f"warp_specialize: worker_num_warps[{i}]")
             for i, w in enumerate(_unwrap(worker_num_warps))]
    if len(warps) != len(workers):
        raise ValueError(f"warp_specialize: {len(workers)} worker partitions but "
                         f"{len(warps)} worker_num_warps; give one per partition")
    regs = []
    if worker_num_regs is not None:
        # 0: what the workers leave, as the target computes it.
        regs = [0 if default_num_regs is None else
                _constexpr_int(default_num_regs, "warp_specialize: default_num_regs")]
        regs += [_constexpr_int(r, f"warp_specialize: worker_num_regs[{i}]")
                 for i, r in enumerate(_unwrap(worker_num_regs))]
        if len(regs) != len(workers) + 1:
            raise ValueError(f"warp_specialize: {len(workers)} worker partitions but "
                             f"{len(regs) - 1} worker_num_regs; give one per partition")
    default_args = tuple(_unwrap(default_args))
    worker_args = tuple(_unwrap(worker_args))
    _builder.warp_specialize(
        _region(default, default_args, _current().num_warps, "default_partition"),
        [_region(w, worker_args, n, f"worker_partitions[{i}]")
         for i, (w, n) in enumerate(zip(workers, warps))],
        warps, regs)


__all__ = ["warp_specialize"]
