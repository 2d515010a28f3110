"""Devices, device arrays and how kernel arguments reach the device.

One runtime context per process. A device is picked by a selector (the
runtime's grammar: ``host``, ``nvidia:1``, ``nvidia;host``, ``auto``); the
default is ``HADRON_DEVICE``, else ``auto``.

Arguments. The runtime launches only with pointers into its own buffers, so:

- ``hadron.DeviceArray`` (``hadron.empty``, ``hadron.to_device``) lives on a
  device and is passed as it is: no copy.
- Host arrays (numpy, CPU torch tensors, anything with ``__dlpack__`` or
  ``__array_interface__``, or ``data_ptr()`` with ``dtype`` and ``shape``) are copied into a device buffer before the
  launch, and back after it for the arguments the kernel may store to
  (what its stores and atomics point into). That copy happens on the host
  device too. Tensors on a GPU (torch ``cuda``) go through host memory the
  same way.
"""

from __future__ import annotations

import ctypes
import os
from typing import Any, Dict, Optional, Sequence, Tuple

import numpy as np

from . import _runtime

_environ = os.environ
_context: Optional["_runtime.Context"] = None
_devices: Dict[str, "_runtime.Device"] = {}


def context() -> "_runtime.Context":
    global _context
    if _context is None:
        _context = _runtime.Context.create()
    return _context


def device(selector: Optional[str] = None) -> "_runtime.Device":
    """The device `selector` picks (None: ``HADRON_DEVICE``, else ``auto``).
    Raises hadron.RuntimeError naming the devices there are when none
    matches, and showing the grammar for a malformed selector."""
    if selector is None:
        selector = _environ.get("HADRON_DEVICE") or "auto"
    d = _devices.get(selector)
    if d is None:
        d = context().select(selector)
        _devices[selector] = d
    return d


def devices() -> list:
    """Every device of every plugin loaded."""
    return context().devices()


# hd element types of host arrays' dtypes (unsigned ints are their signless
# width, bools bytes).
_NP_TO_HD = {
    np.dtype(np.float32): "f32", np.dtype(np.float16): "f16", np.dtype(np.float64): "f64",
    np.dtype(np.int8): "i8", np.dtype(np.int16): "i16", np.dtype(np.int32): "i32",
    np.dtype(np.int64): "i64", np.dtype(np.uint8): "i8", np.dtype(np.uint16): "i16",
    np.dtype(np.uint32): "i32", np.dtype(np.uint64): "i64", np.dtype(np.bool_): "i8",
}


def hd_type_of(np_dtype: Any) -> str:
    t = _NP_TO_HD.get(np.dtype(np_dtype))
    if t is None:
        raise TypeError(f"no hadron element type for numpy dtype {np.dtype(np_dtype)}")
    return t


class DeviceArray:
    """An array in a device's memory; pass it to kernels without copies."""

    def __init__(self, shape: Sequence[int], dtype: Any, dev: "_runtime.Device") -> None:
        self.shape = tuple(int(s) for s in shape)
        self.dtype = np.dtype(dtype)
        self.hd_type = hd_type_of(self.dtype)
        self.kind = ("ptr", self.hd_type)  # its part of a specialisation key
        self.device = dev
        self.nbytes = int(np.prod(self.shape, dtype=np.int64)) * self.dtype.itemsize
        # A zero-byte buffer has no address to launch with.
        self.buffer = dev.alloc(max(self.nbytes, self.dtype.itemsize))
        self.buffer.element = self.hd_type

    def data_ptr(self) -> int:
        return self.buffer.ptr

    def copy_from(self, array: Any) -> "DeviceArray":
        a = np.ascontiguousarray(array, dtype=self.dtype)
        if a.nbytes != self.nbytes:
            raise ValueError(f"copy of {a.nbytes} bytes into a DeviceArray of {self.nbytes}")
        self.buffer.upload(a.__array_interface__["data"][0], a.nbytes)
        return self

    def numpy(self) -> np.ndarray:
        """A host copy (waits for the device's work first)."""
        out = np.empty(self.shape, self.dtype)
        self.device.synchronize()
        self.buffer.download(out.__array_interface__["data"][0], out.nbytes)
        return out

    def __repr__(self) -> str:
        return f"DeviceArray(shape={self.shape}, dtype={self.dtype}, device={self.device.name})"


def empty(shape: Any, dtype: Any = np.float32, device: Optional[str] = None) -> DeviceArray:
    shape = (shape,) if isinstance(shape, int) else shape
    return DeviceArray(shape, dtype, _device_of(device))


def to_device(array: Any, device: Optional[str] = None) -> DeviceArray:
    """A DeviceArray holding a copy of a host array."""
    host, _, _ = host_view(array)
    return DeviceArray(host.shape, host.dtype, _device_of(device)).copy_from(host)


def _device_of(d: Any) -> "_runtime.Device":
    if d is None or isinstance(d, str):
        return device(d)
    return d


def host_view(obj: Any) -> Tuple[np.ndarray, str, Any]:
    """(a numpy array sharing obj's host memory, its hd element type, a
    function writing the array back into obj, or None when they share
    memory)."""
    if isinstance(obj, np.ndarray):
        return obj, hd_type_of(obj.dtype), None
    module = type(obj).__module__
    if module.startswith("torch"):
        t = obj.detach()
        host = t if t.device.type == "cpu" else t.cpu()
        if str(t.dtype) == "torch.bfloat16":
            arr, hd = host.view(_torch_int16()).numpy(), "bf16"
        else:
            arr = host.numpy()
            hd = hd_type_of(arr.dtype)
        writeback = None
        if host is not t:
            def writeback(a: np.ndarray, t=obj, host=host) -> None:
                t.copy_(host)
        return arr, hd, writeback
    if hasattr(obj, "data_ptr") and hasattr(obj, "dtype") and hasattr(obj, "shape"):
        return _from_data_ptr(obj), hd_type_of(_np_dtype(obj.dtype)), None
    if hasattr(obj, "__dlpack__"):
        arr = np.from_dlpack(obj)
        return arr, hd_type_of(arr.dtype), None
    if hasattr(obj, "__array_interface__") or hasattr(obj, "__array__"):
        arr = np.asarray(obj)
        return arr, hd_type_of(arr.dtype), None
    raise TypeError(f"{type(obj).__name__} is not an array (numpy, torch, __dlpack__, "
                    "__array_interface__, data_ptr()) nor a hadron.DeviceArray")


def _np_dtype(d: Any) -> np.dtype:
    """numpy's dtype for "float32", "torch.float32", np.float32, ..."""
    try:
        return np.dtype(d)
    except TypeError:
        return np.dtype(str(d).rsplit(".", 1)[-1])


def _from_data_ptr(obj: Any) -> np.ndarray:
    """A numpy view of a contiguous host array known by data_ptr(), dtype and
    shape (the memory must be the host's: a device address cannot be read
    here)."""
    device = getattr(obj, "device", None)
    if device is not None and str(getattr(device, "type", device)) not in ("cpu", "host"):
        raise TypeError(f"{type(obj).__name__} on {device}: only host memory can be passed "
                        "by data_ptr()")
    dtype = _np_dtype(obj.dtype)
    shape = tuple(int(s) for s in obj.shape)
    count = int(np.prod(shape, dtype=np.int64))
    buffer = (ctypes.c_char * (count * dtype.itemsize)).from_address(int(obj.data_ptr()))
    return np.frombuffer(buffer, dtype=dtype, count=count).reshape(shape)


def _torch_int16() -> Any:
    import torch
    return torch.int16


def is_array(obj: Any) -> bool:
    return isinstance(obj, (np.ndarray, DeviceArray)) or hasattr(obj, "data_ptr") or \
        hasattr(obj, "__dlpack__") or hasattr(obj, "__array_interface__")


class Staging:
    """Host arrays of one launch, in device buffers. An array passed twice
    (a kernel reading and writing one array) gets one buffer."""

    __slots__ = ("device", "entries", "by_address")

    def __init__(self, dev: "_runtime.Device") -> None:
        self.device = dev
        self.entries: list = []
        self.by_address: Dict[Tuple[int, int], int] = {}

    def add(self, arr: np.ndarray, writeback: Any) -> Any:
        if not arr.flags.c_contiguous:
            raise ValueError("hadron kernels take contiguous arrays (np.ascontiguousarray)")
        address = arr.__array_interface__["data"][0]
        key = (address, arr.nbytes)
        i = self.by_address.get(key)
        if i is None:
            buf = self.device.alloc(max(arr.nbytes, 1))
            buf.upload(address, arr.nbytes)
            i = len(self.entries)
            self.entries.append([arr, buf, writeback, False])
            self.by_address[key] = i
        return i

    def mark_written(self, i: int) -> None:
        self.entries[i][3] = True

    def buffer(self, i: int) -> "_runtime.Buffer":
        return self.entries[i][1]

    def finish(self) -> None:
        """Waits for the launch; copies written buffers back into their arrays."""
        if not any(e[3] for e in self.entries):
            return
        self.device.synchronize()
        for arr, buf, writeback, written in self.entries:
            if written and arr.flags.writeable:
                buf.download(arr.__array_interface__["data"][0], arr.nbytes)
                if writeback is not None:
                    writeback(arr)


def cache_dir() -> Optional[str]:
    """The runtime's cache directory (None when ``HADRON_CACHE_DIR=off``):
    ``HADRON_CACHE_DIR``, else ``$XDG_CACHE_HOME/hadron``, else
    ``~/.cache/hadron``, the rule of runtime.h."""
    d = os.environ.get("HADRON_CACHE_DIR", "")
    if d == "off":
        return None
    if d:
        return d
    xdg = os.environ.get("XDG_CACHE_HOME", "")
    return os.path.join(xdg, "hadron") if xdg else os.path.join(
        os.path.expanduser("~"), ".cache", "hadron")
