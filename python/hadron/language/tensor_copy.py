"""Tensor descriptors, bulk copies into shared memory and the barriers they
complete on (Builder.h's "Barriers in shared memory and bulk tensor
copies"; docs/ir.md). Gluon's spellings are in ``hl.mbarrier`` and
``hl.tma``.

A kernel parameter launched with a ``hadron.TensorDescriptor`` is an
``hl.tensor_descriptor``. Its blocks are copied with ``async_tensor_copy``
into shared memory, completing on a barrier: ``mbarrier_expect`` announces
the bytes, ``mbarrier_wait`` waits for the phase they complete. Every
operation here is run by the whole program (CTA).
"""

from __future__ import annotations

from typing import Any, Optional, Sequence, Tuple

from .._lazy import builder as _builder
from .core import (MatrixSharedLayout, PaddedSharedLayout, SharedLinearLayout, SwizzledSharedLayout, _BY_TEXT,
                   _Layout, _TextLayout, _constexpr_int, _h, _ints, _unwrap, dtype, int1,
                   shared_memory_descriptor, tensor)

_SHARED = (SwizzledSharedLayout, PaddedSharedLayout, SharedLinearLayout, MatrixSharedLayout)


def default_layout(rank: int) -> _Layout:
    """The shared layout of a descriptor given none: unswizzled, the
    innermost dimension fastest."""
    return SwizzledSharedLayout(1, 1, 1, list(range(rank - 1, -1, -1)))


def descriptor_kind(elem: str, block_shape: Sequence[int], layout: _Layout) -> tuple:
    """A descriptor argument's part of a specialisation key: its element
    type, block and shared layout (its shape and strides are runtime
    values)."""
    return ("desc", elem, tuple(block_shape), layout)


def check_block(block_shape: Tuple[int, ...], rank: int, what: str) -> None:
    if len(block_shape) != rank:
        raise ValueError(f"{what}: block_shape {list(block_shape)} has rank {len(block_shape)}, "
                         f"the tensor has rank {rank}")
    for d in block_shape:
        if d <= 0 or d & (d - 1):
            raise ValueError(f"{what}: block_shape {list(block_shape)}: every dim must be a "
                             f"power of two, got {d}")


class tensor_descriptor_type:
    """The type of a descriptor argument: for ``hadron.compile``'s signature,
    and as a parameter's annotation, which then takes only descriptors of
    this element type, block and layout (default: ``default_layout``)."""

    __slots__ = ("element", "block_shape", "layout", "_kind")

    def __init__(self, element_ty: dtype, block_shape: Sequence[int],
                 layout: Optional[_Layout] = None) -> None:
        element_ty = _unwrap(element_ty)
        if not isinstance(element_ty, dtype) or element_ty._identity() not in _BY_TEXT:
            raise TypeError(f"tensor_descriptor_type: expected an element type (hl.float32, "
                            f"...), got {element_ty!r}")
        self.element = element_ty._identity()
        self.block_shape = tuple(_ints(block_shape, "tensor_descriptor_type: block_shape"))
        check_block(self.block_shape, len(self.block_shape), "tensor_descriptor_type")
        layout = _unwrap(layout)
        self.layout = default_layout(len(self.block_shape)) if layout is None else layout
        if not isinstance(self.layout, _SHARED):
            raise TypeError(f"tensor_descriptor_type: layout must be a shared layout "
                            f"(hl.SwizzledSharedLayout, ...), got {self.layout!r}")
        self._kind = descriptor_kind(self.element, self.block_shape, self.layout)

    def __repr__(self) -> str:
        return (f"tensor_descriptor_type({self.element}, {list(self.block_shape)}, "
                f"{self.layout!r})")


class _block_type:
    """``desc.block_type``: the block a copy brings (Gluon's spelling)."""

    __slots__ = ("shape", "element_ty", "nbytes")

    def __init__(self, shape: list, element_ty: dtype, nbytes: int) -> None:
        self.shape, self.element_ty, self.nbytes = shape, element_ty, nbytes


class tensor_descriptor:
    """A tensor-descriptor argument inside a kernel."""

    __slots__ = ("handle",)

    def __init__(self, handle: "_builder.TensorDescriptor") -> None:
        self.handle = handle

    @property
    def block_shape(self) -> list:
        return list(self.handle.block)

    @property
    def dtype(self) -> dtype:
        return dtype._from_c(self.handle.dtype)

    @property
    def layout(self) -> _Layout:
        return _TextLayout(str(self.handle.layout))

    @property
    def block_type(self) -> _block_type:
        return _block_type(self.block_shape, self.dtype, self.handle.block_bytes)

    @property
    def nbytes_per_block(self) -> int:
        return self.handle.block_bytes

    def __repr__(self) -> str:
        return f"tensor_descriptor<{self.block_shape}, {self.dtype}>"


def _barrier(v: Any, what: str) -> "_builder.SharedMemory":
    v = _unwrap(v)
    if not isinstance(v, shared_memory_descriptor):
        raise TypeError(f"{what}: expected a barrier (hl.allocate_mbarrier()), got {v!r}")
    return v.handle


def _pred(v: Any, what: str) -> Any:
    """A predicate: None or True (always), False, or an i1 tensor."""
    v = _unwrap(v)
    if v is None or v is True:
        return None
    if v is False:
        return _builder.constant(False, int1.handle)
    if not isinstance(v, tensor):
        raise TypeError(f"{what}: pred must be a bool or an i1 tensor, got {v!r}")
    return v.handle


def allocate_mbarrier(batch: Optional[int] = None) -> shared_memory_descriptor:
    """One barrier in shared memory, or ``batch`` of them (``.index(i)`` is
    barrier i); uninitialised until ``mbarrier_init``."""
    if _unwrap(batch) is None:
        return shared_memory_descriptor(_builder.allocate_mbarriers(1).index(0))
    n = _constexpr_int(batch, "allocate_mbarrier: batch")
    return shared_memory_descriptor(_builder.allocate_mbarriers(n))


def mbarrier_init(barrier: shared_memory_descriptor, count: int) -> None:
    """The barrier's phase completes after `count` arrivals."""
    _builder.mbarrier_init(_barrier(barrier, "mbarrier.init"),
                           _constexpr_int(count, "mbarrier.init: count"))


def mbarrier_expect(barrier: shared_memory_descriptor, bytes: int, pred: Any = True) -> None:
    """Arrive once and expect `bytes` to land on the barrier."""
    _builder.mbarrier_expect(_barrier(barrier, "mbarrier.expect"),
                             _constexpr_int(bytes, "mbarrier.expect: bytes"),
                             _pred(pred, "mbarrier.expect"))


def mbarrier_arrive(barrier: shared_memory_descriptor, count: int = 1, pred: Any = True,
                    per_warp: bool = False, rank: Any = None) -> None:
    """Arrive `count` times. With `per_warp`, each warp arrives on its own as
    soon as its threads are done (a barrier initialised with the number of
    arriving warps completes when the last has): how the consumers of a
    ring release a buffer to a producer partition (hl.warp_specialize).
    With `rank` (an int or i32 tensor), the arrival is on the barrier at the
    same place in program `rank` of the cluster (``@hadron.jit(cluster_dims=
    ...)``): a stage that peers fill is released to each of them."""
    per_warp = _unwrap(per_warp)
    if not isinstance(per_warp, bool):
        raise TypeError(f"mbarrier.arrive: per_warp must be a bool, got {per_warp!r}")
    rank = _unwrap(rank)
    _builder.mbarrier_arrive(_barrier(barrier, "mbarrier.arrive"),
                             _constexpr_int(count, "mbarrier.arrive: count"),
                             _pred(pred, "mbarrier.arrive"), per_warp,
                             None if rank is None else _h(rank))


def mbarrier_wait(barrier: shared_memory_descriptor, phase: Any) -> None:
    """Waits for the completion of the phase of parity `phase` (0 or 1; an
    int or an i32 tensor)."""
    _builder.mbarrier_wait(_barrier(barrier, "mbarrier.wait"), _h(phase))


def async_tensor_copy(desc: tensor_descriptor, coord: Sequence[Any],
                      barrier: shared_memory_descriptor, result: shared_memory_descriptor,
                      pred: Any = True, multicast: Any = None) -> None:
    """Starts copying the block of `desc` at element coordinates `coord`
    (ints or i32 tensors, one per dim) into `result`, completing on
    `barrier`. Elements outside the tensor read as zero. With `multicast`
    (an int or i32 tensor: a mask of ranks in the cluster, bit r for program
    r), the block lands in `result` and completes on `barrier` at the same
    places in every program of the mask (``@hadron.jit(cluster_dims=...)``):
    programs that need one block load a part each and share it."""
    desc = _unwrap(desc)
    if not isinstance(desc, tensor_descriptor):
        raise TypeError(f"async_tensor_copy: expected a tensor descriptor (a kernel argument "
                        f"launched with a hadron.TensorDescriptor), got {desc!r}")
    coord = _unwrap(coord)
    if isinstance(coord, (tensor, int)):
        coord = [coord]
    dst = _unwrap(result)
    if not isinstance(dst, shared_memory_descriptor):
        raise TypeError(f"async_tensor_copy: result must be shared memory "
                        f"(hl.allocate_shared_memory), got {dst!r}")
    multicast = _unwrap(multicast)
    _builder.async_tensor_copy(desc.handle, [_h(c) for c in coord],
                               _barrier(barrier, "async_tensor_copy"), dst.handle,
                               _pred(pred, "async_tensor_copy"),
                               None if multicast is None else _h(multicast))


def fence_async_shared() -> None:
    """Orders the program's plain shared-memory writes before asynchronous
    readers (a barrier's initialisation before the copies that use it)."""
    _builder.fence_async_shared()


def cluster_barrier() -> None:
    """Every thread of every program of the cluster meets
    (``hd.cluster_barrier``): barrier inits and shared-memory writes before
    it are visible to all of them after it. Put one after the inits, before
    peers copy into or arrive on them, and one at the end of a kernel whose
    peers reach its shared memory. Without clusters it is a barrier."""
    _builder.cluster_barrier()


__all__ = ["tensor_descriptor", "tensor_descriptor_type", "allocate_mbarrier", "mbarrier_init",
           "mbarrier_expect", "mbarrier_arrive", "mbarrier_wait", "async_tensor_copy",
           "fence_async_shared", "cluster_barrier"]
