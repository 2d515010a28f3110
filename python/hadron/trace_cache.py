"""The trace cache: the IR a @hadron.jit kernel traced to, on disk.

Tracing needs the C++ builder (hadron._builder, which links MLIR); launching
needs only the runtime. With this cache and the runtime's kernel cache a
process launches a kernel traced and compiled before, in another process or
on another machine, without importing the builder: that is how Python runs
on a GPU machine without LLVM/MLIR (docs/frontend-python.md).

An entry is ``<cache dir>/traces/<key>.json`` (the runtime's cache
directory, hadron.runtime.cache_dir; none when it is ``off``), keyed by a
SHA-256 of:

- the format and Hadron's release, and the hadron package's own sources
  (the tracer is part of what makes the IR);
- the kernel's source and that of every @hadron.jit function it calls,
  transitively, with the values of the constants and the sources of the
  plain functions it names (file paths are not part of it: a staged copy of
  a script in another directory has the same keys);
- the constexpr values, num_warps and each runtime argument's type.

The IR does not depend on the device: the target is chosen when the runtime
compiles it. An entry holds the IR, its SHA-256, the specialisation's name
and which arguments the kernel writes. A damaged one (unreadable JSON,
missing fields, another key, an IR whose hash differs) is reported once on
stderr and traced again; writes are atomic (temporary file, then rename).
"""

from __future__ import annotations

import ast
import hashlib
import inspect
import json
import os
import sys
import tempfile
import types
from dataclasses import dataclass
from typing import Any, Dict, FrozenSet, List, Optional

from . import _runtime
from . import runtime as rt
from .language import core as hl

FORMAT = 1
_package_digest: Optional[str] = None
_warned: set = set()


@dataclass(frozen=True)
class Trace:
    """What a launch needs from a trace."""
    ir: str
    name: str                 # the specialisation's name, kernel.key
    written: FrozenSet[int]   # runtime arguments the kernel's stores may write
    writes_unknown: bool      # a store through a pointer of unknown origin


def _package_sources() -> str:
    global _package_digest
    if _package_digest is None:
        h = hashlib.sha256()
        root = os.path.dirname(os.path.abspath(__file__))
        files = []
        for d, _, names in os.walk(root):
            files += [os.path.join(d, n) for n in names if n.endswith(".py")]
        for f in sorted(files, key=lambda f: os.path.relpath(f, root)):
            h.update(os.path.relpath(f, root).encode() + b"\0")
            with open(f, "rb") as src:
                h.update(src.read() + b"\0")
        _package_digest = h.hexdigest()
    return _package_digest


def value_key(v: Any) -> str:
    """A canonical text of a compile-time value, made without the builder."""
    v = hl._unwrap(v)
    if isinstance(v, (hl._Layout, hl.dtype)):
        return f"{type(v).__name__}:{v!r}" if isinstance(v, hl._Layout) else f"dtype:{v.name}"
    if isinstance(v, (tuple, list)):
        return type(v).__name__ + "(" + ",".join(value_key(x) for x in v) + ")"
    return f"{type(v).__name__}:{v!r}"


def _named(fn: Any) -> Dict[str, Any]:
    """The values the names of `fn`'s body refer to (closure first, then
    globals); names the function binds itself resolve to nothing there."""
    parsed = fn.parsed
    names = {n.id for n in ast.walk(parsed.fdef) if isinstance(n, ast.Name)}
    out: Dict[str, Any] = {}
    for n in sorted(names):
        if n in parsed.closure:
            out[n] = parsed.closure[n]
        elif n in parsed.globals:
            out[n] = parsed.globals[n]
    return out


def source_key(fn: Any) -> str:
    """The part of the key that the kernel's code makes (cached on `fn`)."""
    cached = getattr(fn, "_source_key", None)
    if cached is not None:
        return cached
    from .jit import JITFunction
    h = hashlib.sha256()
    seen: set = set()
    pending: List[Any] = [fn]
    while pending:
        f = pending.pop()
        if id(f) in seen:
            continue
        seen.add(id(f))
        h.update(f"jit {f.__qualname__}\n{f.parsed.source}\n".encode())
        for name, v in _named(f).items():
            if isinstance(getattr(v, "fn", None), JITFunction):
                v = v.fn  # an autotuned kernel
            if isinstance(v, JITFunction):
                pending.append(v)
            elif isinstance(v, types.FunctionType):
                try:
                    text = inspect.getsource(v)
                except (OSError, TypeError):
                    text = v.__code__.co_code.hex()
                h.update(f"def {name}\n{text}\n".encode())
            elif isinstance(v, (int, float, bool, str, tuple, hl._Layout, hl.dtype,
                                hl.constexpr)) or v is None:
                h.update(f"{name}={value_key(v)}\n".encode())
    fn._source_key = h.hexdigest()
    return fn._source_key


def key(fn: Any, num_warps: int, values: List[Any], kinds: List[Any]) -> str:
    """The trace cache key of one specialisation of `fn`."""
    h = hashlib.sha256()
    h.update(f"hadron-trace {FORMAT} {_runtime.version} {_package_sources()}\n".encode())
    cluster = "x".join(str(d) for d in getattr(fn, "cluster_dims", (1, 1, 1)))
    h.update(f"{fn.__qualname__} {source_key(fn)} w{num_warps} c{cluster}\n".encode())
    for i, name in enumerate(fn.arg_names):
        part = value_key(values[i]) if fn.constexpr[i] else repr(kinds[i])
        h.update(f"{name}:{part}\n".encode())
    return h.hexdigest()


def _path(k: str) -> Optional[str]:
    d = rt.cache_dir()
    return None if d is None else os.path.join(d, "traces", k + ".json")


def describe(k: str) -> str:
    """Where the entry of key `k` is, for messages."""
    return _path(k) or f"(no trace cache: HADRON_CACHE_DIR=off; key {k})"


def _warn(path: str, why: str) -> None:
    if path not in _warned:
        _warned.add(path)
        print(f"hadron: damaged trace cache entry {path} ({why}); tracing it again",
              file=sys.stderr)


def load(k: str) -> Optional[Trace]:
    """The entry of `k`, or None (none there, or damaged: reported once)."""
    path = _path(k)
    if path is None:
        return None
    try:
        with open(path, "rb") as f:
            raw = f.read()
    except FileNotFoundError:
        return None
    except OSError as e:
        _warn(path, str(e))
        return None
    try:
        data = json.loads(raw)
        if data["format"] != FORMAT or data["key"] != k:
            raise ValueError(f"format {data['format']}, key {data['key']}")
        ir = data["ir"]
        if hashlib.sha256(ir.encode()).hexdigest() != data["ir_sha256"]:
            raise ValueError("the IR's SHA-256 differs from the one recorded")
        return Trace(ir, str(data["name"]), frozenset(int(i) for i in data["written"]),
                     bool(data["writes_unknown"]))
    except (ValueError, KeyError, TypeError) as e:
        _warn(path, f"{type(e).__name__}: {e}")
        return None


def store(k: str, trace: Trace) -> None:
    """Writes the entry of `k` atomically; a cache that cannot be written
    only means tracing again."""
    path = _path(k)
    if path is None:
        return
    data = {"format": FORMAT, "key": k, "name": trace.name, "written": sorted(trace.written),
            "writes_unknown": trace.writes_unknown, "ir_sha256":
            hashlib.sha256(trace.ir.encode()).hexdigest(), "ir": trace.ir}
    try:
        os.makedirs(os.path.dirname(path), mode=0o700, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=os.path.dirname(path), suffix=".tmp")
        with os.fdopen(fd, "w") as f:
            json.dump(data, f, indent=0)
        os.replace(tmp, path)
    except OSError:
        pass
