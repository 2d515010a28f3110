"""``hadron.TensorDescriptor``: a global tensor a kernel copies in blocks.

A kernel parameter that receives a TensorDescriptor is a tensor descriptor
in the kernel (``hl.tensor_descriptor``; an ``!hd.tensor_desc`` argument of
the IR), specialised like a pointer is by its array: the element type, the
block shape and the shared layout blocks land in are part of the key, the
tensor's shape and strides are runtime values (an ``hd_tensor_desc``, which
the NVIDIA target encodes as a tensor map, the host as plain words).
Shapes and strides count elements, the innermost dimension last and
contiguous, as Triton's ``TensorDescriptor``:

    desc = hadron.TensorDescriptor.from_tensor(x, block_shape=[16, 32])
    kernel[grid](desc, out, ...)

The base is a ``hadron.DeviceArray`` (passed as it is) or a host array,
which a launch copies to the device for the kernel to read (descriptors
are read by bulk copies only, so it is not copied back; a torch tensor on
a GPU goes through host memory, copied when the descriptor is made).
"""

from __future__ import annotations

import ctypes
from typing import Any, Optional, Sequence, Tuple

import numpy as np

from . import _runtime
from . import runtime as rt
from .language import core as hl
from .language.tensor_copy import _SHARED, check_block, default_layout, descriptor_kind

_MAX_RANK = 5


def _int_list(v: Any, what: str) -> Tuple[int, ...]:
    if isinstance(v, (int, np.integer)):
        v = [v]
    try:
        out = tuple(int(x) for x in v)
    except TypeError:
        raise TypeError(f"TensorDescriptor: {what} must be a list of ints, got {v!r}") from None
    if any(isinstance(x, bool) for x in v):
        raise TypeError(f"TensorDescriptor: {what} must be a list of ints, got {v!r}")
    return out


class TensorDescriptor:
    """A tensor of ``shape`` and ``strides`` (elements) starting at ``base``
    (a DeviceArray or a host array), read in blocks of ``block_shape`` that
    land in shared memory laid out as ``layout`` (a shared layout; default:
    unswizzled, innermost dim fastest)."""

    __slots__ = ("base", "shape", "strides", "block_shape", "layout", "element", "_kind",
                 "_desc", "_host_span", "_host_array")

    def __init__(self, base: Any, shape: Sequence[int], strides: Sequence[int],
                 block_shape: Sequence[int], layout: Optional[hl._Layout] = None) -> None:
        shape, strides = _int_list(shape, "shape"), _int_list(strides, "strides")
        block_shape = _int_list(block_shape, "block_shape")
        if not 1 <= len(shape) <= _MAX_RANK:
            raise ValueError(f"TensorDescriptor: shape {list(shape)} has rank {len(shape)}; "
                             f"descriptors have 1 to {_MAX_RANK} dims")
        if len(strides) != len(shape):
            raise ValueError(f"TensorDescriptor: shape {list(shape)} has rank {len(shape)} but "
                             f"strides {list(strides)} has {len(strides)}")
        check_block(block_shape, len(shape), "TensorDescriptor")
        if strides[-1] != 1:
            raise ValueError(f"TensorDescriptor: the innermost dimension must be contiguous "
                             f"(stride 1), got strides {list(strides)}")
        if any(s <= 0 for s in strides) or any(d <= 0 for d in shape):
            raise ValueError(f"TensorDescriptor: shape {list(shape)} and strides "
                             f"{list(strides)} must be positive")
        layout = hl._unwrap(layout)
        if layout is None:
            layout = default_layout(len(shape))
        elif not isinstance(layout, _SHARED):
            raise TypeError(f"TensorDescriptor: layout must be a shared layout "
                            f"(hl.SwizzledSharedLayout, ...), got {layout!r}")

        self.base, self.shape, self.strides = base, shape, strides
        self.block_shape, self.layout = block_shape, layout
        self._desc = None       # a _runtime.TensorDesc when the base is a DeviceArray
        self._host_span = None  # else the host memory it spans, as a flat array,
        self._host_array = None  # of this array (a copy for a GPU torch tensor), kept alive
        if isinstance(base, rt.DeviceArray):
            self.element, itemsize, available = base.hd_type, base.dtype.itemsize, base.nbytes
        else:
            arr, self.element, _ = rt.host_view(base)
            itemsize = arr.dtype.itemsize
            available = _bytes_after(arr)
        span = (sum((d - 1) * s for d, s in zip(shape, strides)) + 1) * itemsize
        if span > available:
            raise ValueError(f"TensorDescriptor: shape {list(shape)} with strides "
                             f"{list(strides)} spans {span} bytes, its base has {available}")
        if isinstance(base, rt.DeviceArray):
            self._desc = _runtime.TensorDesc(base.buffer, list(shape), list(strides))
        else:
            address = arr.__array_interface__["data"][0]
            raw = (ctypes.c_char * span).from_address(address)
            self._host_span = np.frombuffer(raw, np.uint8)
            self._host_array = arr
        self._kind = descriptor_kind(self.element, block_shape, layout)

    @staticmethod
    def from_tensor(tensor: Any, block_shape: Sequence[int],
                    layout: Optional[hl._Layout] = None) -> "TensorDescriptor":
        """The descriptor of a whole array (a DeviceArray, or a host array
        whose innermost dimension is contiguous: a view of rows is fine)."""
        if isinstance(tensor, rt.DeviceArray):
            shape = tensor.shape
            strides = [int(np.prod(shape[i + 1:], dtype=np.int64)) for i in range(len(shape))]
        else:
            arr, _, _ = rt.host_view(tensor)
            shape = arr.shape
            if any(s % arr.dtype.itemsize for s in arr.strides):
                raise ValueError(f"TensorDescriptor: strides {arr.strides} (bytes) are not "
                                 f"multiples of the element size {arr.dtype.itemsize}")
            strides = [s // arr.dtype.itemsize for s in arr.strides]
        return TensorDescriptor(tensor, shape, strides, block_shape, layout)

    @property
    def block_bytes(self) -> int:
        """Bytes one block copy brings."""
        return int(np.prod(self.block_shape)) * hl._BY_TEXT[self.element].primitive_bitwidth // 8

    def __repr__(self) -> str:
        return (f"TensorDescriptor(shape={list(self.shape)}, strides={list(self.strides)}, "
                f"block_shape={list(self.block_shape)}, {self.element}, layout={self.layout!r})")


def _bytes_after(arr: np.ndarray) -> int:
    """Bytes of host memory from `arr`'s first element on: to the end of the
    contiguous array it views, else its own span."""
    owner = arr
    while isinstance(owner.base, np.ndarray):
        owner = owner.base
    if owner.flags.c_contiguous:
        return (owner.__array_interface__["data"][0] + owner.nbytes
                - arr.__array_interface__["data"][0])
    return sum((d - 1) * s for d, s in zip(arr.shape, arr.strides)) + arr.dtype.itemsize
