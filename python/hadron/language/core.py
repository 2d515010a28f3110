"""The kernel language: values, types, layouts and operations.

Everything here runs while a kernel is *traced* (hadron.jit turns the
kernel's AST into calls of these functions); each operation calls the C++
builder (hadron._builder, imported on the first trace), so the IR is built
by the same code as a C++ kernel's. Defining kernels, layouts and dtypes
needs no builder: a process that only launches kernels from the trace cache
never imports it. Names follow Gluon's (``triton.experimental.gluon.language``).
"""

from __future__ import annotations

import builtins
import threading
from dataclasses import dataclass
from typing import Any, Callable, Optional, Sequence, Union

from .._lazy import builder as _builder

# --------------------------------------------------------------------------
# Compile-time values
# --------------------------------------------------------------------------


class constexpr:
    """A compile-time value. As an annotation (``XBLOCK: hl.constexpr``) it
    makes a kernel parameter part of the specialisation; in a kernel
    ``hl.constexpr(v)`` is just ``v``."""

    def __init__(self, value: Any) -> None:
        self.value = value.value if isinstance(value, constexpr) else value

    def __repr__(self) -> str:
        return f"constexpr({self.value!r})"


def _unwrap(v: Any) -> Any:
    return v.value if isinstance(v, constexpr) else v


class static_range:
    """A loop unrolled at trace time: ``for i in hl.static_range(4)``."""

    def __init__(self, *args: int) -> None:
        args = tuple(_constexpr_int(a, "static_range") for a in args)
        self._range = range(*args)

    def __iter__(self):
        return iter(self._range)


# --------------------------------------------------------------------------
# Element types
# --------------------------------------------------------------------------


class dtype:
    """An element type (``hl.float32``); ``str()`` is its name. Its builder
    handle is made on first use, so dtypes exist without the builder."""

    def __init__(self, name: str, c: "_builder.DType" = None, text: Optional[str] = None,
                 make: Optional[Callable[[], "_builder.DType"]] = None) -> None:
        self.name = name
        self._handle = c
        # What identifies the type without the builder: its hd text, or for a
        # pointer its pointee's identity and address space.
        self._ident = text
        self._make = make

    @property
    def handle(self) -> "_builder.DType":
        if self._handle is None:
            self._handle = self._make() if self._make else _builder.DType.from_text(self._ident)
        return self._handle

    def _identity(self) -> str:
        if self._ident is None:
            self._ident = str(self._handle)
        return self._ident

    @staticmethod
    def _from_c(c: "_builder.DType") -> "dtype":
        text = str(c)
        known = _BY_TEXT.get(text)
        if known is not None:
            return known
        if c.is_pointer:
            return pointer_type(dtype._from_c(c.pointee))
        return dtype(text, c)

    def is_floating(self) -> bool:
        return self.handle.is_float

    def is_int(self) -> bool:
        return self.handle.is_integer

    def is_ptr(self) -> bool:
        return self.handle.is_pointer

    @property
    def primitive_bitwidth(self) -> int:
        return self.handle.bits

    @property
    def element_ty(self) -> "dtype":
        return dtype._from_c(self.handle.pointee)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, dtype) and self._identity() == other._identity()

    def __hash__(self) -> int:
        return hash(self._identity())

    def __str__(self) -> str:
        return self.name

    def __repr__(self) -> str:
        return f"hl.{self.name}"


def _dt(name: str, text: str) -> dtype:
    return dtype(name, text=text)


int1 = _dt("int1", "i1")
int8 = _dt("int8", "i8")
int16 = _dt("int16", "i16")
int32 = _dt("int32", "i32")
int64 = _dt("int64", "i64")
float16 = _dt("float16", "f16")
bfloat16 = _dt("bfloat16", "bf16")
float32 = _dt("float32", "f32")
float64 = _dt("float64", "f64")
_BY_TEXT = {t._ident: t for t in
            (int1, int8, int16, int32, int64, float16, bfloat16, float32, float64)}


def pointer_type(element_ty: dtype, address_space: str = "global") -> dtype:
    """A pointer to ``element_ty`` (``"global"``, ``"shared"`` or ``"generic"``)."""
    t = dtype(f"pointer<{element_ty.name}>",
              make=lambda: _builder.pointer_type(element_ty.handle, address_space))
    t._ident = f"ptr<{element_ty._identity()}, {address_space}>"
    return t


# --------------------------------------------------------------------------
# Layouts
# --------------------------------------------------------------------------


class _Layout:
    """A layout value; frozen, hashable, usable as a constexpr argument."""

    def _to_c(self) -> "_builder.Layout":
        raise NotImplementedError

    def __str__(self) -> str:
        return str(self._to_c())


def _ints(v: Sequence[Any], what: str) -> list:
    v = _unwrap(v)
    if not isinstance(v, (list, tuple)):
        raise TypeError(f"{what} must be a list of ints, got {v!r}")
    return [_constexpr_int(x, what) for x in v]


@dataclass(frozen=True)
class BlockedLayout(_Layout):
    size_per_thread: Sequence[int]
    threads_per_warp: Sequence[int]
    warps_per_cta: Sequence[int]
    order: Sequence[int]

    def __post_init__(self) -> None:
        for f in ("size_per_thread", "threads_per_warp", "warps_per_cta", "order"):
            object.__setattr__(self, f, tuple(_ints(getattr(self, f), f"BlockedLayout.{f}")))
        ranks = {len(self.size_per_thread), len(self.threads_per_warp),
                 len(self.warps_per_cta), len(self.order)}
        if len(ranks) != 1:
            raise ValueError(
                "BlockedLayout: size_per_thread, threads_per_warp, warps_per_cta and order "
                f"must have one length, got {list(self.size_per_thread)}, "
                f"{list(self.threads_per_warp)}, {list(self.warps_per_cta)}, {list(self.order)}")

    def _to_c(self) -> "_builder.Layout":
        return _builder.Layout.blocked(list(self.size_per_thread), list(self.threads_per_warp),
                                 list(self.warps_per_cta), list(self.order))


@dataclass(frozen=True)
class SliceLayout(_Layout):
    dim: int
    parent: _Layout

    def _to_c(self) -> "_builder.Layout":
        return _builder.Layout.slice(self.dim, self.parent._to_c())


@dataclass(frozen=True)
class DistributedLinearLayout(_Layout):
    reg_bases: Sequence[Sequence[int]]
    lane_bases: Sequence[Sequence[int]]
    warp_bases: Sequence[Sequence[int]]
    block_bases: Sequence[Sequence[int]] = ()
    shape: Sequence[int] = ()

    def __post_init__(self) -> None:
        for f in ("reg_bases", "lane_bases", "warp_bases", "block_bases"):
            object.__setattr__(self, f, tuple(tuple(b) for b in getattr(self, f)))
        object.__setattr__(self, "shape", tuple(self.shape))

    def _to_c(self) -> "_builder.Layout":
        return _builder.Layout.linear([list(b) for b in self.reg_bases],
                                [list(b) for b in self.lane_bases],
                                [list(b) for b in self.warp_bases],
                                [list(b) for b in self.block_bases])


@dataclass(frozen=True)
class DotOperandLayout(_Layout):
    operand_index: int
    parent: _Layout
    k_width: int = 1

    def _to_c(self) -> "_builder.Layout":
        return _builder.Layout.dot_operand(self.operand_index, self.parent._to_c(), self.k_width)


@dataclass(frozen=True)
class MmaLayout(_Layout):
    """The accumulator layout of a dot on a matrix instruction (``#hd.mma``):
    ``instr`` is the ``#hd.matrix_instr<...>`` text a target's model declares
    (the core names none), ``warps_per_cta`` how the instruction's tiles
    spread over the warps. Its operands are ``DotOperandLayout(i, self)``,
    or shared memory where the instruction reads them from there."""
    instr: str
    warps_per_cta: Sequence[int]

    def __post_init__(self) -> None:
        object.__setattr__(self, "warps_per_cta",
                           tuple(_ints(self.warps_per_cta, "MmaLayout.warps_per_cta")))

    def _to_c(self) -> "_builder.Layout":
        return _builder.Layout.mma(self.instr, list(self.warps_per_cta))


@dataclass(frozen=True)
class AutoLayout(_Layout):
    def _to_c(self) -> "_builder.Layout":
        return _builder.Layout.auto()


@dataclass(frozen=True)
class CoalescedLayout(_Layout):
    def _to_c(self) -> "_builder.Layout":
        return _builder.Layout.coalesced()


@dataclass(frozen=True)
class SwizzledSharedLayout(_Layout):
    vec: int
    per_phase: int
    max_phase: int
    order: Sequence[int]

    def __post_init__(self) -> None:
        object.__setattr__(self, "order", tuple(self.order))

    def _to_c(self) -> "_builder.Layout":
        return _builder.Layout.swizzled(self.vec, self.per_phase, self.max_phase, list(self.order))


@dataclass(frozen=True)
class PaddedSharedLayout(_Layout):
    intervals: Sequence[int]
    paddings: Sequence[int]
    order: Sequence[int]

    def __post_init__(self) -> None:
        for f in ("intervals", "paddings", "order"):
            object.__setattr__(self, f, tuple(getattr(self, f)))

    def _to_c(self) -> "_builder.Layout":
        return _builder.Layout.padded(list(self.intervals), list(self.paddings), list(self.order))


@dataclass(frozen=True)
class SharedLinearLayout(_Layout):
    offset_bases: Sequence[Sequence[int]]

    def __post_init__(self) -> None:
        object.__setattr__(self, "offset_bases", tuple(tuple(b) for b in self.offset_bases))

    def _to_c(self) -> "_builder.Layout":
        return _builder.Layout.shared_linear([list(b) for b in self.offset_bases])


@dataclass(frozen=True)
class MatrixSharedLayout(_Layout):
    """The swizzled tiles matrix units and copy engines read (Gluon's
    NVMMASharedLayout): `swizzle_byte_width` 32, 64 or 128; `rank` counts
    stacked leading dims (a ring of stages) too."""
    swizzle_byte_width: int
    element_bitwidth: int
    transposed: bool = False
    rank: int = 2

    def _to_c(self) -> "_builder.Layout":
        return _builder.Layout.matrix_shared(self.swizzle_byte_width, self.element_bitwidth,
                                             self.transposed, self.rank)


@dataclass(frozen=True)
class _TextLayout(_Layout):
    """A layout known by its hd text (what ``tensor.layout`` returns)."""
    text: str

    def _to_c(self) -> "_builder.Layout":
        return _builder.Layout.from_text(self.text)


def _layout(v: Any, what: str) -> "_builder.Layout":
    v = _unwrap(v)
    if isinstance(v, _Layout):
        return v._to_c()
    raise TypeError(f"{what}: expected a layout (hl.BlockedLayout, ...), got {v!r}")


# --------------------------------------------------------------------------
# Trace state
# --------------------------------------------------------------------------


class _TraceState:
    """What one trace records besides the IR: the kernel's pointer arguments
    that stores and atomics may write (launches copy back only those)."""

    def __init__(self, num_warps: int) -> None:
        self.num_warps = num_warps
        self.written: set = set()
        self.writes_unknown = False


class _Traces(threading.local):
    """The traces running on this thread, innermost last (as the builder
    keeps its own per thread)."""

    def __init__(self) -> None:
        self.stack: list = []


_traces = _Traces()


def _tracing() -> list:
    return _traces.stack


def _current() -> _TraceState:
    stack = _traces.stack
    if not stack:
        raise RuntimeError("hadron.language functions run only inside a @hadron.jit kernel")
    return stack[-1]


def _mark_written(ptr: "tensor") -> None:
    st = _current()
    if ptr.roots:
        st.written |= ptr.roots
    else:
        st.writes_unknown = True


def num_warps() -> int:
    """The kernel's num_warps (a compile-time int)."""
    return _current().num_warps


# --------------------------------------------------------------------------
# Tensors
# --------------------------------------------------------------------------

Operand = Union["tensor", int, float, bool]


def _roots(*vals: Any) -> frozenset:
    out: frozenset = frozenset()
    for v in vals:
        if isinstance(v, tensor):
            out |= v.roots
    return out


def _wrap(handle: "_builder.Tensor", *sources: Any) -> "tensor":
    return tensor(handle, _roots(*sources))


def _h(v: Any) -> Any:
    """A builder operand: the handle of a tensor, a Python number as is."""
    v = _unwrap(v)
    if isinstance(v, tensor):
        return v.handle
    if isinstance(v, (bool, int, float)):
        return v
    raise TypeError(f"expected a tensor or a number, got {type(v).__name__} {v!r}")


def _common_type(a: dtype, b: dtype) -> Optional[dtype]:
    """The type two tensors of types `a` and `b` compute in, Triton's rules
    for signless types: a float wins over an int, f64 over f32 over the
    16-bit floats, f16 with bf16 is f32, the wider int wins (i1 is the
    narrowest). None for pointers: their operands are offsets."""
    if a.is_ptr() or b.is_ptr():
        return None
    af, bf = a.is_floating(), b.is_floating()
    if af and bf:
        if float64 in (a, b):
            return float64
        return float32  # f32 with anything narrower, or f16 with bf16
    if af or bf:
        return a if af else b
    return a if a.primitive_bitwidth >= b.primitive_bitwidth else b


def _promote(a: Any, b: Any) -> tuple:
    """`a` and `b` converted to their common type when both are tensors of
    different element types; Python numbers take the tensor's type later."""
    a, b = _unwrap(a), _unwrap(b)
    if isinstance(a, tensor) and isinstance(b, tensor):
        ta, tb = a.dtype, b.dtype
        if ta != tb:
            common = _common_type(ta, tb)
            if common is not None:
                a = a if ta == common else a.to(common)
                b = b if tb == common else b.to(common)
    return a, b


def _binary(op: str, a: Any, b: Any) -> "tensor":
    a, b = _promote(a, b)
    return _wrap(_builder.binary(op, _h(a), _h(b)), a, b)


def _is_int_tensor(v: Any) -> bool:
    return isinstance(v, tensor) and v.dtype.is_int()


class tensor:
    """A value of the kernel: a scalar or a distributed tile."""

    __slots__ = ("handle", "roots")

    def __init__(self, handle: "_builder.Tensor", roots: frozenset = frozenset()) -> None:
        self.handle = handle
        # Pointer arguments this value may point into (see _TraceState).
        self.roots = roots

    @property
    def shape(self) -> list:
        return list(self.handle.shape)

    @property
    def dtype(self) -> dtype:
        return dtype._from_c(self.handle.dtype)

    @property
    def type(self) -> str:
        return self.handle.type_str()

    @property
    def layout(self) -> Optional[_Layout]:
        if not self.handle.is_tile:
            return None
        return _TextLayout(str(self.handle.layout))

    @property
    def numel(self) -> int:
        n = 1
        for d in self.shape:
            n *= d
        return n

    def __repr__(self) -> str:
        return f"tensor({self.type})"

    def __bool__(self) -> bool:
        raise TypeError(
            f"a runtime value ({self.type}) has no Python truth value at trace time; "
            "use it in an `if`/`while` condition of its own, or hl.where")

    def __index__(self) -> int:
        raise TypeError(f"a runtime value ({self.type}) is not a compile-time int; "
                        "make it a hl.constexpr parameter")

    def __iter__(self):
        raise TypeError(f"a runtime value ({self.type}) cannot be iterated at trace time")

    def to(self, dtype: dtype, bitcast: bool = False) -> "tensor":
        dtype = _unwrap(dtype)
        if bitcast:
            return _wrap(self.handle.bitcast(dtype.handle), self)
        return _wrap(self.handle.to(dtype.handle), self)

    def __getitem__(self, index: Any) -> "tensor":
        """``x[None, :]``: a new dimension of size 1 where None stands."""
        index = index if isinstance(index, tuple) else (index,)
        out = self
        for axis, i in enumerate(index):
            if i is None:
                out = expand_dims(out, axis)
            elif not (isinstance(i, slice) and i == slice(None)):
                raise TypeError(f"tensor index {i!r}: only None and : are supported")
        return out

    # Arithmetic: the builder's operators (docs/frontend-cpp.md). `/` on
    # integers divides as floats (f32), as in Triton; `//` is integer division.
    def __add__(self, o): return _binary("+", self, o)
    def __radd__(self, o): return _binary("+", o, self)
    def __sub__(self, o): return _binary("-", self, o)
    def __rsub__(self, o): return _binary("-", o, self)
    def __mul__(self, o): return _binary("*", self, o)
    def __rmul__(self, o): return _binary("*", o, self)

    def __truediv__(self, o):
        a, b = self, o
        if _is_int_tensor(a) and (isinstance(b, int) or _is_int_tensor(b)):
            a = a.to(float32)
            b = b.to(float32) if isinstance(b, tensor) else float(b)
        return _binary("/", a, b)

    def __rtruediv__(self, o):
        a = self.to(float32) if _is_int_tensor(self) else self
        return _binary("/", float(o) if isinstance(o, int) else o, a)

    def __floordiv__(self, o): return _binary("/", self, o)
    def __rfloordiv__(self, o): return _binary("/", o, self)
    def __mod__(self, o): return _binary("%", self, o)
    def __rmod__(self, o): return _binary("%", o, self)
    def __and__(self, o): return _binary("&", self, o)
    def __rand__(self, o): return _binary("&", o, self)
    def __or__(self, o): return _binary("|", self, o)
    def __ror__(self, o): return _binary("|", o, self)
    def __xor__(self, o): return _binary("^", self, o)
    def __rxor__(self, o): return _binary("^", o, self)
    def __lshift__(self, o): return _binary("<<", self, o)
    def __rlshift__(self, o): return _binary("<<", o, self)
    def __rshift__(self, o): return _binary(">>", self, o)
    def __rrshift__(self, o): return _binary(">>", o, self)
    def __lt__(self, o): return _binary("<", self, o)
    def __le__(self, o): return _binary("<=", self, o)
    def __gt__(self, o): return _binary(">", self, o)
    def __ge__(self, o): return _binary(">=", self, o)
    def __eq__(self, o): return _binary("==", self, o)  # type: ignore[override]
    def __ne__(self, o): return _binary("!=", self, o)  # type: ignore[override]
    __hash__ = None  # type: ignore[assignment]

    def __neg__(self): return _wrap(_builder.neg(self.handle), self)
    def __pos__(self): return self

    def __invert__(self):
        return _binary("^", self, True if self.dtype == int1 else -1)


class shared_memory_descriptor:
    """A tile in shared memory (``hl.allocate_shared_memory``)."""

    __slots__ = ("handle",)

    def __init__(self, handle: "_builder.SharedMemory") -> None:
        self.handle = handle

    @property
    def shape(self) -> list:
        return list(self.handle.shape)

    @property
    def dtype(self) -> dtype:
        return dtype._from_c(self.handle.dtype)

    @property
    def layout(self) -> _Layout:
        return _TextLayout(str(self.handle.layout))

    def load(self, layout: _Layout) -> tensor:
        return tensor(self.handle.load(_layout(layout, "load")))

    def store(self, value: tensor) -> None:
        self.handle.store(_tensor(value, "store").handle)

    def index(self, index: Operand) -> "shared_memory_descriptor":
        return shared_memory_descriptor(self.handle.index(_h(index)))

    def slice(self, start: int, length: int, dim: int = 0) -> "shared_memory_descriptor":
        start, length, dim = (_constexpr_int(v, "slice") for v in (start, length, dim))
        shape = self.shape
        offsets = [0] * len(shape)
        offsets[dim] = start
        shape[dim] = length
        return shared_memory_descriptor(self.handle.slice(offsets, shape))

    def permute(self, order: Sequence[int]) -> "shared_memory_descriptor":
        return shared_memory_descriptor(self.handle.permute(_ints(order, "permute")))

    def reinterpret(self, dtype: "dtype", shape: Sequence[int],
                    layout: _Layout) -> "shared_memory_descriptor":
        """The whole allocation seen as a tile of another dtype, shape or
        shared layout that needs no more bytes: a ring of stages reused as
        an epilogue's staging tile once nothing reads or writes the ring."""
        return shared_memory_descriptor(self.handle.reinterpret(
            _dtype(dtype, "reinterpret").handle, _shape(shape, "reinterpret"),
            _layout(layout, "reinterpret")))

    _reinterpret = reinterpret  # Gluon's name

    def _keep_alive(self) -> None:
        pass

    def dealloc(self) -> None:
        self.handle.dealloc()


# --------------------------------------------------------------------------
# Checks on arguments
# --------------------------------------------------------------------------


def _constexpr_int(v: Any, what: str) -> int:
    v = _unwrap(v)
    if isinstance(v, tensor):
        raise TypeError(
            f"{what}: expected a compile-time int, got a runtime value ({v.type}); "
            "make it a hl.constexpr parameter")
    if isinstance(v, bool) or not isinstance(v, int):
        raise TypeError(f"{what}: expected a compile-time int, got {v!r}")
    return v


def _tensor(v: Any, what: str) -> tensor:
    v = _unwrap(v)
    if not isinstance(v, tensor):
        raise TypeError(f"{what}: expected a tensor, got {type(v).__name__} {v!r}")
    return v


def _opt_tensor(v: Any, what: str) -> Any:
    v = _unwrap(v)
    return None if v is None else _tensor(v, what).handle


def _dtype(v: Any, what: str) -> dtype:
    v = _unwrap(v)
    if not isinstance(v, dtype):
        raise TypeError(f"{what}: expected an element type (hl.float32, ...), got {v!r}")
    return v


def _shape(v: Any, what: str) -> list:
    v = _unwrap(v)
    if isinstance(v, (int, tensor)):
        v = [v]
    return _ints(v, f"{what}: shape")


def _axis(v: Any, what: str) -> int:
    return _constexpr_int(v, f"{what}: axis")


# --------------------------------------------------------------------------
# Operations
# --------------------------------------------------------------------------


def program_id(axis: int) -> tensor:
    return tensor(_builder.program_id(_axis(axis, "program_id")))


def num_programs(axis: int) -> tensor:
    return tensor(_builder.num_programs(_axis(axis, "num_programs")))


def arange(start: int, end: int, layout: Optional[_Layout] = None) -> tensor:
    start = _constexpr_int(start, "arange: start")
    end = _constexpr_int(end, "arange: end")
    if layout is None:
        raise TypeError("arange: a layout is required (layout=hl.BlockedLayout(...))")
    return tensor(_builder.arange(start, end, _layout(layout, "arange")))


def full(shape: Sequence[int], value: Operand, dtype: dtype, layout: _Layout) -> tensor:
    return _wrap(_builder.full(_shape(shape, "full"), _h(value), _dtype(dtype, "full").handle,
                         _layout(layout, "full")), value)


def zeros(shape: Sequence[int], dtype: dtype, layout: _Layout) -> tensor:
    return full(shape, 0, dtype, layout)


def _broadcast_all(*vals: Any) -> list:
    """Tiles of one rank broadcast along their size-1 dimensions to a common
    shape (as arithmetic does); scalars and None pass through."""
    vals = [_unwrap(v) for v in vals]
    tiles = [v for v in vals if isinstance(v, tensor) and v.handle.is_tile]
    if len(tiles) < 2:
        return vals
    shape = tiles[0].shape
    for t in tiles[1:]:
        s = t.shape
        if len(s) != len(shape):
            return vals  # the builder names the mismatch
        shape = [a if b == 1 else b for a, b in zip(shape, s)]
    return [broadcast(v, shape) if isinstance(v, tensor) and v.handle.is_tile and v.shape != shape
            else v for v in vals]


def load(pointer: tensor, mask: Optional[tensor] = None, other: Optional[Operand] = None,
         cache_modifier: str = "", eviction_policy: str = "", volatile: bool = False) -> tensor:
    pointer, mask, other = _broadcast_all(_tensor(pointer, "load"), mask, other)
    return tensor(_builder.load(pointer.handle, _opt_tensor(mask, "load: mask"),
                          None if other is None else _h(other), cache_modifier,
                          eviction_policy, bool(volatile)))


def store(pointer: tensor, value: Operand, mask: Optional[tensor] = None,
          cache_modifier: str = "", eviction_policy: str = "") -> None:
    pointer, value, mask = _broadcast_all(_tensor(pointer, "store"), value, mask)
    _builder.store(pointer.handle, _h(value), _opt_tensor(mask, "store: mask"), cache_modifier,
             eviction_policy)
    _mark_written(pointer)


def _atomic(op: str) -> Callable[..., tensor]:
    def fn(pointer: tensor, val: Operand, mask: Optional[tensor] = None,
           sem: str = "acq_rel", scope: str = "gpu") -> tensor:
        pointer = _tensor(pointer, f"atomic_{op}")
        out = tensor(_builder.atomic(op, pointer.handle, _h(val), _opt_tensor(mask, "mask"),
                               sem, scope))
        _mark_written(pointer)
        return out
    fn.__name__ = f"atomic_{op}"
    fn.__doc__ = f"Atomic {op} through `pointer`; returns the old values."
    return fn


atomic_add = _atomic("add")
atomic_max = _atomic("max")
atomic_min = _atomic("min")
atomic_and = _atomic("and")
atomic_or = _atomic("or")
atomic_xor = _atomic("xor")
atomic_xchg = _atomic("xchg")


def atomic_cas(pointer: tensor, cmp: Operand, val: Operand, sem: str = "acq_rel",
               scope: str = "gpu") -> tensor:
    pointer = _tensor(pointer, "atomic_cas")
    out = tensor(_builder.atomic_cas(pointer.handle, _h(cmp), _h(val), sem, scope))
    _mark_written(pointer)
    return out


def where(condition: Operand, x: Operand, y: Operand) -> tensor:
    x, y = _promote(x, y)
    condition, x, y = _broadcast_all(condition, x, y)
    return _wrap(_builder.where(_h(condition), _h(x), _h(y)), x, y)


def maximum(x: Operand, y: Operand) -> tensor:
    return _binary("maximum", x, y)


def minimum(x: Operand, y: Operand) -> tensor:
    return _binary("minimum", x, y)


def fdiv(x: Operand, y: Operand, ieee_rounding: bool = True) -> tensor:
    return tensor(_builder.fdiv(_h(x), _h(y), not ieee_rounding))


def fma(x: Operand, y: Operand, z: Operand) -> tensor:
    return tensor(_builder.fma(_h(x), _h(y), _h(z)))


def _math(name: str) -> Callable[..., tensor]:
    def fn(x: tensor, fast: bool = False) -> tensor:
        return tensor(_builder.math(name, _tensor(x, name).handle, bool(fast)))
    fn.__name__ = name
    fn.__doc__ = f"Elementwise {name} (fast=True: the target's approximate form)."
    return fn


def _exp(name: str) -> Callable[..., tensor]:
    def fn(x: tensor, fast: bool = False, polynomial_share: float = 0.0) -> tensor:
        x = _tensor(x, name)
        share = float(_unwrap(polynomial_share))
        if share == 0.0:
            return tensor(_builder.math(name, x.handle, bool(fast)))
        return tensor(_builder.exp_polynomial(name, x.handle, bool(fast), share))
    fn.__name__ = name
    fn.__doc__ = (f"Elementwise {name} (fast=True: the target's approximate form; "
                  "polynomial_share=S with fast: share S of each thread's registers by a "
                  "polynomial on the FMA units, docs/ir.md 'Fast math').")
    return fn


exp = _exp("exp")
exp2 = _exp("exp2")
log = _math("log")
log2 = _math("log2")
sqrt = _math("sqrt")
rsqrt = _math("rsqrt")
sin = _math("sin")
cos = _math("cos")
abs = _math("abs")


def cast(x: tensor, dtype: dtype, bitcast: bool = False) -> tensor:
    return _tensor(x, "cast").to(_dtype(dtype, "cast"), bitcast)


def expand_dims(input: tensor, axis: Union[int, Sequence[int]]) -> tensor:
    input = _tensor(input, "expand_dims")
    axes = _unwrap(axis)
    axes = list(axes) if isinstance(axes, (list, tuple)) else [axes]
    out = input
    for a in axes:
        a = _axis(a, "expand_dims")
        out = _wrap(_builder.expand_dims(out.handle, a + out.handle.shape.__len__() + 1 if a < 0 else a),
                    input)
    return out


def broadcast(input: tensor, other: Union[tensor, Sequence[int]]) -> tensor:
    """``input`` repeated along its size-1 dimensions to ``other``'s shape
    (a tensor, or a shape)."""
    input = _tensor(input, "broadcast")
    shape = other.shape if isinstance(other, tensor) else _shape(other, "broadcast")
    return _wrap(_builder.broadcast(input.handle, shape), input)


def convert_layout(value: tensor, layout: _Layout) -> tensor:
    value = _tensor(value, "convert_layout")
    return _wrap(_builder.convert_layout(value.handle, _layout(layout, "convert_layout")), value)


def reshape(input: tensor, shape: Sequence[int], layout: _Layout) -> tensor:
    input = _tensor(input, "reshape")
    return _wrap(_builder.reshape(input.handle, _shape(shape, "reshape"),
                            _layout(layout, "reshape")), input)


def permute(input: tensor, dims: Sequence[int], layout: _Layout) -> tensor:
    input = _tensor(input, "permute")
    return _wrap(_builder.permute(input.handle, _ints(dims, "permute: dims"),
                            _layout(layout, "permute")), input)


def _reduction(name: str) -> Callable[..., tensor]:
    def fn(input: tensor, axis: int) -> tensor:
        return tensor(_builder.reduction(name, _tensor(input, name).handle, _axis(axis, name)))
    fn.__name__ = name
    fn.__doc__ = (f"{name} along `axis`: a scalar for a rank-1 tile, else a tile in "
                  "SliceLayout(axis, input's layout).")
    return fn


sum = _reduction("sum")
max = _reduction("max")
min = _reduction("min")
argmax = _reduction("argmax")
argmin = _reduction("argmin")


def reduce(input: Union[tensor, Sequence[tensor]], axis: int,
           combine_fn: Callable[..., Any]) -> Any:
    """Reduces along ``axis`` with ``combine_fn(a0, ..., b0, ...)`` (a
    @hadron.jit function or a Python one) over one tensor or a tuple."""
    single = isinstance(_unwrap(input), tensor)
    inputs = [_tensor(input, "reduce")] if single else [_tensor(x, "reduce") for x in input]

    def combine(acc: list, cur: list) -> list:
        out = combine_fn(*[tensor(h) for h in acc], *[tensor(h) for h in cur])
        out = out if isinstance(out, (tuple, list)) else (out,)
        return [_tensor(o, "reduce: combine_fn's result").handle for o in out]

    results = [tensor(h) for h in _builder.reduce([x.handle for x in inputs],
                                             _axis(axis, "reduce"), combine)]
    return results[0] if single else tuple(results)


def associative_scan(input: tensor, axis: int, combine_fn: Callable[..., Any],
                     reverse: bool = False) -> tensor:
    def combine(a: Any, b: Any) -> Any:
        return _tensor(combine_fn(tensor(a), tensor(b)), "associative_scan").handle

    return tensor(_builder.associative_scan(_tensor(input, "associative_scan").handle,
                                      _axis(axis, "associative_scan"), combine, bool(reverse)))


def cumsum(input: tensor, axis: int = 0, reverse: bool = False) -> tensor:
    return tensor(_builder.cumsum(_tensor(input, "cumsum").handle, _axis(axis, "cumsum"),
                            bool(reverse)))


def allocate_shared_memory(element_ty: dtype, shape: Sequence[int], layout: _Layout,
                           value: Optional[tensor] = None) -> shared_memory_descriptor:
    return shared_memory_descriptor(_builder.allocate_shared_memory(
        _dtype(element_ty, "allocate_shared_memory").handle,
        _shape(shape, "allocate_shared_memory"),
        _layout(layout, "allocate_shared_memory"),
        _opt_tensor(value, "allocate_shared_memory: value")))


def barrier() -> None:
    """Every thread of the program waits (orders shared-memory accesses)."""
    _builder.barrier()


thread_barrier = barrier


def _dot_operand(v: Any, name: str) -> Any:
    v = _unwrap(v)
    if isinstance(v, (tensor, shared_memory_descriptor)):
        return v.handle
    raise TypeError(f"dot: {name} must be a tensor or a shared_memory_descriptor, got "
                    f"{type(v).__name__} {v!r}")


def dot(a: Union[tensor, shared_memory_descriptor], b: Union[tensor, shared_memory_descriptor],
        acc: tensor, input_precision: str = "ieee", is_async: bool = False) -> tensor:
    """a @ b + acc, acc in a layout L: ``a`` a tensor in DotOperandLayout(0, L)
    or a 2-D shared_memory_descriptor, ``b`` likewise (operand 1), which the
    dot reads where it stands. ``is_async=True``: a target whose matrix unit
    runs asynchronously may return before the product is complete; pass the
    result through ``dot_wait`` before anything but another async dot (as
    its accumulator) reads it, and do not overwrite the shared memory it
    reads until a ``dot_wait`` has retired it."""
    is_async = _unwrap(is_async)
    if not isinstance(is_async, bool):
        raise TypeError(f"dot: is_async must be a compile-time bool, got {is_async!r}")
    return tensor(_builder.dot(_dot_operand(a, "a"), _dot_operand(b, "b"),
                               _tensor(acc, "dot: acc").handle, _unwrap(input_precision),
                               is_async))


dot_fma = dot


def dot_wait(value: tensor, pending: int) -> tensor:
    """Waits until at most ``pending`` async dots are still running (the
    oldest retire first) and returns ``value``, an async dot's result, now
    safe to read. Where dots complete at once it returns ``value``."""
    return tensor(_builder.dot_wait(_tensor(value, "dot_wait").handle,
                                    _constexpr_int(pending, "dot_wait: pending")))


def warpgroup_mma(a: Union[tensor, shared_memory_descriptor],
                  b: Union[tensor, shared_memory_descriptor], acc: tensor, *,
                  is_async: bool = False, precision: Optional[str] = None) -> tensor:
    """Gluon's name for ``dot(a, b, acc, is_async=...)``."""
    return dot(a, b, acc, input_precision=precision or "ieee", is_async=is_async)


def warpgroup_mma_wait(num_outstanding: int = 0, deps: Optional[Sequence[tensor]] = None) -> Any:
    """Gluon's name for ``dot_wait``: each of ``deps`` through
    ``dot_wait(d, num_outstanding)``; one tensor for one dep, else a tuple."""
    if deps is None:
        raise ValueError("warpgroup_mma_wait: deps must be given (the async dots' results)")
    out = tuple(dot_wait(d, num_outstanding) for d in deps)
    return out[0] if len(out) == 1 else out


def device_print(prefix: str, *args: tensor, hex: bool = False) -> None:
    _builder.device_print(prefix, [_tensor(a, "device_print").handle for a in args], hex)


def device_assert(cond: Operand, msg: str = "") -> None:
    _builder.device_assert(_h(cond), msg)


def multiple_of(input: tensor, values: Union[int, Sequence[int]]) -> tensor:
    input = _tensor(input, "multiple_of")
    values = _unwrap(values)
    values = [values] * builtins.max(1, len(input.shape)) if isinstance(values, int) else values
    return _wrap(_builder.multiple_of(input.handle, _ints(values, "multiple_of")), input)


def assume(cond: Operand) -> None:
    _builder.assume(_h(cond))


def static_assert(cond: Any, msg: str = "") -> None:
    if isinstance(cond, tensor):
        raise TypeError("static_assert: the condition is a runtime value")
    if not cond:
        raise AssertionError(f"static_assert failed: {msg}" if msg else "static_assert failed")


def static_print(*args: Any) -> None:
    print(*args)


def cdiv(a: int, b: int) -> Any:
    """Ceiling division, of compile-time ints or runtime values."""
    return (a + b - 1) // b
