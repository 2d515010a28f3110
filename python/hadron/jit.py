"""``@hadron.jit``: kernels written in Python, specialised, cached, launched.

``kernel[grid](*args, XBLOCK=1024, num_warps=4, device=None)``:

1. binds the arguments to the kernel's parameters; those annotated
   ``hl.constexpr`` are compile-time values, the others runtime arguments;
2. looks the specialisation up: the device, num_warps, the constexprs'
   values and each runtime argument's type (Triton's rules: a pointer to the
   array's element type; an int i32 when it fits, else i64; a float f32; a
   bool i1; a hadron.TensorDescriptor its element type, block and shared
   layout). A miss takes the IR from the trace cache (hadron.trace_cache),
   else traces the kernel (hadron.compiler, the builder) and stores it there,
   then compiles the module through the runtime, whose kernel cache (in
   memory and on disk, keyed by the IR) makes a specialisation compiled
   before, in this process or another, a cache hit. Under
   HADRON_COMPILE_ONLY it is also compiled for those targets
   (hadron.compile_only);
3. launches on the grid (a tuple, or a function of the bound arguments).

``kernel[grid]`` is a ``hadron._runtime.BoundLaunch``: a launch of a
specialisation launched before, on DeviceArrays and Python numbers, does all
three steps in C++ (python/src/Launcher.cpp) without running Python; any
other call (a first launch, host arrays, a mistake) comes to ``run`` below.
"""

from __future__ import annotations

import inspect
import numbers
import re
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

import numpy as np

from . import _runtime, compile_only, trace_cache
from . import runtime as rt
from ._errors import CompileError
from ._lazy import builder as _builder, builder_import_error
from .compiler import ParsedFunction, call_inline
from .language import core as hl
from .language import tensor_copy as hl_copy
from .tensor_descriptor import TensorDescriptor

_MISSING = object()
_INT32 = (-(2 ** 31), 2 ** 31)
_RESERVED = ("num_warps", "device", "num_stages", "num_ctas")


def _is_constexpr_annotation(a: Any) -> bool:
    if a is hl.constexpr:
        return True
    return isinstance(a, str) and (a == "constexpr" or a.endswith(".constexpr"))


def _descriptor_annotation(a: Any, fn: Callable[..., Any]) -> Any:
    """What a parameter's annotation says of descriptors: None (nothing),
    hl.tensor_descriptor (any descriptor) or an hl.tensor_descriptor_type
    (only descriptors of that kind). A string annotation (``from __future__
    import annotations``) naming one is evaluated in the kernel's globals."""
    if isinstance(a, str) and "tensor_descriptor" in a:
        try:
            a = eval(a, fn.__globals__)  # noqa: S307  (the kernel's own annotation)
        except Exception as e:
            raise TypeError(f"{fn.__qualname__}: annotation {a!r}: {e}") from None
    if a is hl_copy.tensor_descriptor or isinstance(a, hl_copy.tensor_descriptor_type):
        return a
    return None


# Triton's signature spelling of a descriptor: "tensordesc<fp16[64, 64]>".
_TENSORDESC = re.compile(r"tensordesc<\s*(\w+)\s*\[([\d,\s]+)\]\s*>$")


def _key_of(v: Any) -> Any:
    if isinstance(v, (hl._Layout, hl.dtype)):
        return (type(v).__name__, repr(v))
    try:
        hash(v)
        return v
    except TypeError:
        return repr(v)


def _mangle(v: Any) -> str:
    if isinstance(v, hl._Layout):
        return v._to_c().mangle()
    s = str(v)
    return "".join(c if c.isalnum() else "_" for c in s)[:32]


def _int_kind(v: int) -> str:
    """An integer argument's kind: i32 or i64, specialised as Triton does
    when it is 1 (the body sees the constant: a unit stride makes accesses
    contiguous) or a multiple of 16 (known divisible: aligned vectors).
    python/src/Launcher.cpp's classify makes the same choice."""
    kind = "i32" if _INT32[0] <= v < _INT32[1] else "i64"
    if v == 1:
        return kind + "=1"
    if v % 16 == 0:
        return kind + "%16"
    return kind


class CompiledKernel:
    """One specialisation loaded on one device."""

    __slots__ = ("kernel", "key", "ir", "written", "writes_unknown", "device")

    def __init__(self, kernel: Any, key: str, ir: str, written: set, unknown: bool,
                 device: Any) -> None:
        self.kernel = kernel
        self.key = key
        self.ir = ir
        self.written = written
        self.writes_unknown = unknown
        self.device = device


class CompiledBinary:
    """A specialisation compiled for a target without loading it
    (hadron.compile(..., target=...)); the runtime's kernel cache holds the
    binary, which a device of that arch loads for the same IR."""

    __slots__ = ("key", "ir", "target", "kernels", "binary_size", "asm")

    def __init__(self, key: str, ir: str, target: str, kernels: List[str],
                 binary_size: int, asm: Optional[str] = None) -> None:
        self.key = key
        self.ir = ir
        self.target = target
        self.kernels = kernels
        self.binary_size = binary_size
        # The target's textual assembly (PTX for NVIDIA), None where it has none.
        self.asm = asm

    def __repr__(self) -> str:
        return f"CompiledBinary({self.key} for {self.target}, {self.binary_size} bytes)"


# Triton's spellings of element types, beside hd's.
_TRITON_TYPES = {"fp16": "f16", "bf16": "bf16", "fp32": "f32", "fp64": "f64", "i1": "i1",
                 "i8": "i8", "i16": "i16", "i32": "i32", "i64": "i64", "u8": "i8", "u16": "i16",
                 "u32": "i32", "u64": "i64"}


def _signature_kind(kernel: str, name: str, t: Any) -> Any:
    """A runtime argument's part of the key, from its type in a signature:
    an hl dtype (``hl.int32``, ``hl.pointer_type(hl.float32)``) or a string
    (``"i32"``, ``"f32"``, ``"*f32"``, Triton's ``"*fp32"``), or a
    descriptor's: an ``hl.tensor_descriptor_type``, a ``TensorDescriptor``
    or ``"tensordesc<f32[16, 32]>"`` (the default shared layout)."""
    if isinstance(t, (hl_copy.tensor_descriptor_type, TensorDescriptor)):
        return t._kind
    if isinstance(t, str) and t.startswith("tensordesc<"):
        m = _TENSORDESC.match(t.replace(" ", ""))
        elem = m and (m.group(1) if m.group(1) in hl._BY_TEXT else _TRITON_TYPES.get(m.group(1)))
        if elem:
            block = [int(d) for d in m.group(2).split(",") if d]
            return hl_copy.tensor_descriptor_type(hl._BY_TEXT[elem], block)._kind
    if isinstance(t, hl.dtype):
        text = t._identity()
        if text.startswith("ptr<") and text.endswith(", global>"):
            return ("ptr", text[4:-len(", global>")])
        if text in hl._BY_TEXT:
            return text
    elif isinstance(t, str):
        pointer = t.startswith("*")
        elem = t[1:] if pointer else t
        elem = elem if elem in hl._BY_TEXT else _TRITON_TYPES.get(elem, "")
        if elem:
            return ("ptr", elem) if pointer else elem
    raise TypeError(f"{kernel}: argument `{name}` has type {t!r}; give an hl dtype "
                    "(hl.int32, hl.pointer_type(hl.float32)), a string (\"i32\", \"*f32\", "
                    "\"tensordesc<f32[16, 32]>\") or an hl.tensor_descriptor_type")


class JITFunction:
    """A kernel; ``kernel[grid](...)`` launches it."""

    def __init__(self, fn: Callable[..., Any], cluster_dims: Sequence[int] = (1, 1, 1)) -> None:
        self.fn = fn
        self.cluster_dims = _cluster_dims(fn, cluster_dims)
        self.__name__ = fn.__name__
        self.__qualname__ = fn.__qualname__
        self.__doc__ = fn.__doc__
        self.__module__ = fn.__module__
        sig = inspect.signature(fn)
        self.arg_names: List[str] = []
        self.constexpr: List[bool] = []
        self.defaults: List[Any] = []
        self.descriptors: List[Any] = []  # per parameter: _descriptor_annotation's
        for p in sig.parameters.values():
            if p.kind not in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY):
                raise TypeError(f"{fn.__qualname__}: *args and **kwargs are not supported")
            self.arg_names.append(p.name)
            self.constexpr.append(_is_constexpr_annotation(p.annotation))
            self.descriptors.append(_descriptor_annotation(p.annotation, fn))
            default = _MISSING if p.default is p.empty else hl._unwrap(p.default)
            self.defaults.append(default)
        self.index = {n: i for i, n in enumerate(self.arg_names)}
        self._annotated = any(d is not None for d in self.descriptors)
        self._parsed: Optional[ParsedFunction] = None
        self._cache: Dict[Any, CompiledKernel] = {}
        # kernel[grid](...) of a specialisation launched before, in C++
        # (python/src/Launcher.cpp); the rest comes back to run().
        self._launcher = _runtime.Launcher(
            self.arg_names, self.constexpr, self.defaults, _MISSING, rt.DeviceArray, _key_of,
            rt._device_of, (hl._Layout, hl.dtype), TensorDescriptor)

    @property
    def parsed(self) -> ParsedFunction:
        if self._parsed is None:
            self._parsed = ParsedFunction(self.fn)
        return self._parsed

    def __repr__(self) -> str:
        return f"JITFunction({self.__module__}:{self.__qualname__})"

    def _signature(self) -> str:
        return ", ".join(f"{n}: constexpr" if c else n
                         for n, c in zip(self.arg_names, self.constexpr))

    def _check_descriptor(self, i: int, kind: Any, got: str) -> None:
        """A parameter annotated as a descriptor takes one (of its kind);
        `got` names what it was given."""
        want = self.descriptors[i]
        name = f"{self.__name__}: argument `{self.arg_names[i]}`"
        if not (isinstance(kind, tuple) and kind[0] == "desc"):
            raise TypeError(f"{name} is annotated {_annotation_text(want)}, got {got}; pass "
                            "a hadron.TensorDescriptor")
        if isinstance(want, hl_copy.tensor_descriptor_type) and kind != want._kind:
            raise TypeError(f"{name} takes blocks of {list(want.block_shape)} {want.element} in "
                            f"{want.layout!r}, got a descriptor of blocks of "
                            f"{list(kind[2])} {kind[1]} in {kind[3]!r}")

    def bind(self, args: Sequence[Any], kwargs: Dict[str, Any]) -> List[Any]:
        n = len(self.arg_names)
        if len(args) > n:
            raise TypeError(f"{self.__name__}() takes {n} arguments ({self._signature()}), "
                            f"got {len(args)} positional")
        values = list(args) + [_MISSING] * (n - len(args))
        for k, v in kwargs.items():
            i = self.index.get(k)
            if i is None:
                raise TypeError(f"{self.__name__}() has no parameter `{k}` "
                                f"({self._signature()})")
            if values[i] is not _MISSING:
                raise TypeError(f"{self.__name__}() got two values for `{k}`")
            values[i] = v
        missing = []
        for i, v in enumerate(values):
            if v is _MISSING:
                values[i] = self.defaults[i]
                if values[i] is _MISSING:
                    missing.append(self.arg_names[i])
        if missing:
            raise TypeError(f"{self.__name__}() is missing {', '.join(missing)} "
                            f"(it takes {self._signature()})")
        return values

    def _bind_fast(self, args: Sequence[Any], kwargs: Dict[str, Any]) -> List[Any]:
        """bind() for the usual launch: every parameter given once, the
        positional ones first; anything else goes through bind()."""
        n = len(args)
        if n + len(kwargs) == len(self.arg_names):
            try:
                return [*args, *map(kwargs.__getitem__, self.arg_names[n:])]
            except KeyError:
                pass
        return self.bind(args, kwargs)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if not hl._tracing():
            raise TypeError(f"{self.__name__} is a kernel: launch it as "
                            f"{self.__name__}[grid](...)")
        values = self.bind(args, kwargs)
        return call_inline(self.parsed, dict(zip(self.arg_names, values)))

    # -- launching -------------------------------------------------------------

    def run(self, *args: Any, grid: Any, **kwargs: Any) -> CompiledKernel:
        num_warps, selector = 4, None
        if kwargs:
            num_warps = kwargs.pop("num_warps", 4)
            selector = kwargs.pop("device", None)
            kwargs.pop("num_stages", None)
            kwargs.pop("num_ctas", None)
        values = self._bind_fast(args, kwargs)
        dev = rt._device_of(selector)

        # One pass over the arguments: their types (for the key) and what
        # the launch passes (a buffer, a staged copy, a number). The common
        # types are tested by identity first: this is the launch's hot path.
        kinds: List[Any] = []
        launch_args: List[Any] = []
        staged: List[Tuple[int, int]] = []  # (runtime index, staging index)
        staged_descs: List[Tuple[int, int, TensorDescriptor]] = []
        staging: Optional[rt.Staging] = None
        constexpr = self.constexpr
        for i, v in enumerate(values):
            t = type(v)
            if constexpr[i]:
                kinds.append(v if t is int or t is bool or t is str else _key_of(v))
            elif t is TensorDescriptor:
                if self._annotated and self.descriptors[i] is not None:
                    self._check_descriptor(i, v._kind, "")
                kinds.append(v._kind)
                if v._desc is not None:
                    d = v.base.device
                    if d is not dev and d.name != dev.name:
                        raise ValueError(f"{self.__name__}: argument `{self.arg_names[i]}` "
                                         f"describes memory on {d.name}, the launch is on "
                                         f"{dev.name}")
                    launch_args.append(v._desc)
                else:  # a host array: staged, never written back
                    if staging is None:
                        staging = rt.Staging(dev)
                    staged_descs.append((len(launch_args), staging.add(v._host_span, None), v))
                    launch_args.append(None)
            elif self._annotated and self.descriptors[i] is not None:
                self._check_descriptor(i, None, type(v).__name__)  # raises
            elif t is rt.DeviceArray:
                if v.device is not dev and v.device.name != dev.name:
                    raise ValueError(f"{self.__name__}: argument `{self.arg_names[i]}` lives "
                                     f"on {v.device.name}, the launch is on {dev.name}")
                kinds.append(v.kind)
                launch_args.append(v.buffer)
            elif t is int:
                kinds.append(_int_kind(v))
                launch_args.append(v)
            elif t is float:
                kinds.append("f32")
                launch_args.append(v)
            elif t is bool or isinstance(v, np.bool_):
                kinds.append("i1")
                launch_args.append(int(v))
            elif isinstance(v, numbers.Integral):
                v = int(v)
                kinds.append(_int_kind(v))
                launch_args.append(v)
            elif isinstance(v, numbers.Real):
                kinds.append("f32")
                launch_args.append(float(v))
            elif v is None:
                raise TypeError(f"{self.__name__}: argument `{self.arg_names[i]}` is None")
            else:
                try:
                    arr, hd_type, writeback = rt.host_view(v)
                except TypeError as e:
                    raise TypeError(f"{self.__name__}: argument `{self.arg_names[i]}`: "
                                    f"{e}") from None
                if staging is None:
                    staging = rt.Staging(dev)
                kinds.append(("ptr", hd_type))
                staged.append((len(launch_args), staging.add(arr, writeback)))
                launch_args.append(None)

        key = (dev.name, num_warps, *kinds)
        compiled = self._cache.get(key)
        if compiled is None:
            compiled = self._compile(dev, num_warps, values, kinds)
            self._cache[key] = compiled

        if staging is not None:
            for arg_index, s in staged:
                launch_args[arg_index] = staging.buffer(s)
                if compiled.writes_unknown or arg_index in compiled.written:
                    staging.mark_written(s)
            for arg_index, s, desc in staged_descs:
                launch_args[arg_index] = _runtime.TensorDesc(staging.buffer(s), list(desc.shape),
                                                             list(desc.strides))

        if type(grid) is not tuple:
            grid = self._grid(grid, values, num_warps)
        n = len(grid)
        if n == 1:
            compiled.kernel.launch(grid[0], 1, 1, launch_args)
        elif n == 2:
            compiled.kernel.launch(grid[0], grid[1], 1, launch_args)
        elif n == 3:
            compiled.kernel.launch(grid[0], grid[1], grid[2], launch_args)
        else:
            raise ValueError(f"grid {grid!r}: 1 to 3 dimensions")
        if staging is not None:
            staging.finish()
        return compiled

    def _grid(self, grid: Any, values: List[Any], num_warps: int) -> tuple:
        if callable(grid):
            meta = dict(zip(self.arg_names, values))
            meta["num_warps"] = num_warps
            grid = grid(meta)
        return tuple(grid) if isinstance(grid, (tuple, list)) else (grid,)

    def _traced(self, num_warps: int, values: List[Any], kinds: List[Any]) -> trace_cache.Trace:
        """The trace of a specialisation: from the trace cache, else traced
        (and stored there)."""
        k = trace_cache.key(self, num_warps, values, kinds)
        trace = trace_cache.load(k)
        if trace is None:
            trace = self._trace(num_warps, values, kinds, k)
            trace_cache.store(k, trace)
        compile_only.compile_for_targets(trace.ir, self.__name__, trace.name)
        return trace

    def _compile(self, dev: Any, num_warps: int, values: List[Any], kinds: List[Any],
                 opt_level: int = 3) -> CompiledKernel:
        trace = self._traced(num_warps, values, kinds)
        kernel = dev.load_ir(trace.ir, opt_level).kernel(self.__name__)
        return CompiledKernel(kernel, trace.name, trace.ir, trace.written, trace.writes_unknown,
                              dev)

    def compile(self, signature: Dict[str, Any], constexprs: Optional[Dict[str, Any]] = None,
                *, device: Any = None, target: Optional[str] = None, num_warps: int = 4,
                opt_level: int = 3) -> Any:
        """hadron.compile(self, ...): see there."""
        if device is not None and target is not None:
            raise ValueError(f"{self.__name__}: compile for a device or a target, not both")
        given = dict(constexprs or {})
        types = dict(signature)
        values: List[Any] = []
        kinds: List[Any] = []
        for i, name in enumerate(self.arg_names):
            if self.constexpr[i]:
                if name in given:
                    v = hl._unwrap(given.pop(name))
                elif self.defaults[i] is not _MISSING:
                    v = self.defaults[i]
                else:
                    raise TypeError(f"{self.__name__}: constexpr `{name}` has no value "
                                    f"(constexprs=...; it takes {self._signature()})")
                values.append(v)
                kinds.append(v if type(v) in (int, bool, str) else _key_of(v))
            else:
                pinned = self.descriptors[i]
                if name not in types and isinstance(pinned, hl_copy.tensor_descriptor_type):
                    types[name] = pinned
                if name not in types:
                    raise TypeError(f"{self.__name__}: argument `{name}` has no type "
                                    f"(signature=...; it takes {self._signature()})")
                t = types.pop(name)
                kind = _signature_kind(self.__name__, name, t)
                if pinned is not None:
                    self._check_descriptor(i, kind, repr(t))
                values.append(None)
                kinds.append(kind)
        for what, left in (("constexpr", given), ("runtime argument", types)):
            if left:
                raise TypeError(f"{self.__name__}() has no {what} "
                                f"{', '.join(f'`{k}`' for k in left)} ({self._signature()})")
        if target is not None:
            trace = self._traced(num_warps, values, kinds)
            names, size, asm = rt.context().compile(target, trace.ir, opt_level)
            return CompiledBinary(trace.name, trace.ir, target, list(names), size, asm)
        dev = rt._device_of(device)
        key = (dev.name, num_warps, *kinds)
        if opt_level == 3:  # what launches use: a later launch finds it
            compiled = self._cache.get(key)
            if compiled is None:
                compiled = self._cache[key] = self._compile(dev, num_warps, values, kinds)
            return compiled
        return self._compile(dev, num_warps, values, kinds, opt_level)

    def _describe(self, num_warps: int, values: List[Any], kinds: List[Any]) -> str:
        parts = [f"{n}={trace_cache.value_key(v)}" if c else f"{n}: {kind}"
                 for n, c, v, kind in zip(self.arg_names, self.constexpr, values, kinds)]
        return f"{self.__name__}({', '.join(parts)}, num_warps={num_warps})"

    def _trace(self, num_warps: int, values: List[Any], kinds: List[Any],
               cache_key: str) -> trace_cache.Trace:
        missing = builder_import_error()
        if missing is not None:
            raise CompileError(
                f"{self.parsed.filename}:{self.parsed.fdef.lineno}: error: "
                f"{self._describe(num_warps, values, kinds)} must be traced, but the trace "
                f"cache has no entry for it ({trace_cache.describe(cache_key)}, key "
                f"{cache_key}) and the builder cannot be imported here ({missing}). Run the "
                "script where Hadron was built (HADRON_COMPILE_ONLY=<target> fills the caches "
                "for a GPU machine) and carry the cache directory "
                "(docs/frontend-python.md)") from None
        parsed = self.parsed
        parts = [self.__name__]
        for i, v in enumerate(values):
            if self.constexpr[i]:
                parts.append(f"{self.arg_names[i]}_{_mangle(v)}")
        key = ".".join(parts) + f".w{num_warps}"
        if self.cluster_dims != (1, 1, 1):
            key += ".c" + "x".join(str(d) for d in self.cluster_dims)
        state = hl._TraceState(num_warps)

        def body() -> None:
            scope: Dict[str, Any] = {}
            runtime_index = 0
            for i, name in enumerate(self.arg_names):
                if self.constexpr[i]:
                    scope[name] = values[i]
                    continue
                kind = kinds[i]
                if isinstance(kind, tuple) and kind[0] == "desc":
                    _, elem, block, layout = kind
                    scope[name] = hl_copy.tensor_descriptor(_builder.tensor_descriptor_arg(
                        hl._BY_TEXT[elem].handle, list(block), layout._to_c()))
                elif isinstance(kind, tuple):
                    elem = hl._BY_TEXT[kind[1]]
                    t = _builder.arg(hl.pointer_type(elem).handle, 16)
                    scope[name] = hl.tensor(t, frozenset({runtime_index}))
                elif kind.endswith("=1"):
                    # Specialised: the argument stays in the signature, the
                    # body sees the constant (Triton's specialisation of 1).
                    _builder.arg(hl._BY_TEXT[kind[:-2]].handle, 0)
                    scope[name] = 1
                elif kind.endswith("%16"):
                    scope[name] = hl.tensor(_builder.arg(hl._BY_TEXT[kind[:-3]].handle, 16))
                else:
                    scope[name] = hl.tensor(_builder.arg(hl._BY_TEXT[kind].handle, 0))
                runtime_index += 1
            call_inline(parsed, scope)

        hl._tracing().append(state)
        try:
            fdef = parsed.fdef
            _builder.set_location(parsed.filename, fdef.lineno, fdef.col_offset + 1)
            module = _builder.trace(self.__name__, key, num_warps, body, list(self.cluster_dims))
        except CompileError as e:
            # The message names the kernel's line; the interpreter's frames
            # would only hide it.
            raise CompileError(str(e)) from None
        finally:
            hl._tracing().pop()
        return trace_cache.Trace(str(module), key, frozenset(state.written),
                                 state.writes_unknown)

    def warmup(self, *args: Any, **kwargs: Any) -> CompiledKernel:
        """Compiles the specialisation these arguments select, without launching
        (the runtime arguments only give their types)."""
        return self.run(*args, grid=(0,), **kwargs)


def _annotation_text(a: Any) -> str:
    return "hl.tensor_descriptor" if a is hl_copy.tensor_descriptor else repr(a)


def compile(fn: Any, signature: Dict[str, Any], constexprs: Optional[Dict[str, Any]] = None,
            *, device: Any = None, target: Optional[str] = None, num_warps: int = 4,
            opt_level: int = 3) -> Any:
    """Compiles one specialisation of the kernel `fn` without launching it.

    ``signature`` gives each runtime argument's type by name (``{"src":
    "*f32", "n": "i32"}`` or hl dtypes), ``constexprs`` each constexpr's value
    by name (a default may be left out). On a ``device`` (a Device or a
    selector; by default HADRON_DEVICE's) it returns the CompiledKernel that
    ``fn[grid](...)`` with those constexprs and argument types then launches;
    for a ``target`` (``"nvidia:sm_90a"``, ``"host"``), which needs no device
    of it, a CompiledBinary. Each specialisation is its own module (its key,
    in the IR, names the constexprs), so its own entry in the trace cache and
    in the runtime's kernel cache (keyed by IR, target, options and
    compiler): compiling it again, here or in another process, is a hit."""
    if isinstance(getattr(fn, "fn", None), JITFunction):
        fn = fn.fn  # an autotuned kernel
    if not isinstance(fn, JITFunction):
        raise TypeError(f"hadron.compile takes a @hadron.jit kernel, got {fn!r}")
    return fn.compile(signature, constexprs, device=device, target=target,
                      num_warps=num_warps, opt_level=opt_level)


# kernel[grid] is a hadron._runtime.BoundLaunch, made by a __getitem__ written
# in C (self._launcher.bind(self, grid)), so that a launch runs no Python.
_runtime.Launcher.install_getitem(JITFunction)


def _cluster_dims(fn: Callable[..., Any], dims: Any) -> Tuple[int, int, int]:
    """`dims` (1 to 3 positive ints, the rest 1) as a 3-tuple."""
    dims = tuple(dims) if isinstance(dims, (tuple, list)) else (dims,)
    if not 1 <= len(dims) <= 3 or not all(type(d) is int and d >= 1 for d in dims):
        raise TypeError(f"{fn.__qualname__}: cluster_dims is 1 to 3 positive ints (programs per "
                        f"cluster along x, y, z), got {dims!r}")
    return tuple(dims) + (1,) * (3 - len(dims))


def jit(fn: Optional[Callable[..., Any]] = None, *,
        cluster_dims: Sequence[int] = (1, 1, 1), **options: Any) -> Any:
    """Makes `fn` a kernel (``@hadron.jit`` or ``@hadron.jit(...)``).

    ``cluster_dims=(X, Y, Z)`` groups its programs into clusters
    (``hd.cluster_dims``): programs of a cluster run at once and reach each
    other's shared memory (``hl.async_tensor_copy(..., multicast=)``,
    ``hl.mbarrier_arrive(..., rank=)``, ``hl.cluster_barrier()``). A
    program's rank in its cluster is ``pid_x % X + X * (pid_y % Y + Y *
    (pid_z % Z))``; the grid must be whole clusters. Targets without
    clusters refuse such a kernel when it is compiled."""
    if fn is None:
        return lambda f: JITFunction(f, cluster_dims)
    return JITFunction(fn, cluster_dims)
