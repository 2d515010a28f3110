"""``@hadron.autotune``: pick the fastest of several configs, per key.

The first launch for a new value of the ``key`` arguments (on a device)
times every config with hadron.testing.do_bench and keeps the fastest; the
choice is kept in memory and on disk, in ``<cache dir>/autotune/`` (the
runtime's cache directory, see hadron.runtime.cache_dir), one JSON file per
kernel (named after its module, name and a hash of its source) holding one
entry per (key, device). A config that does not compile (a layout that needs
another num_warps) is skipped.

Configs run on the launch's arguments: a kernel that updates its inputs in
place sees them updated by every config timed.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from typing import Any, Dict, List, Optional, Sequence

from ._errors import CompileError
from . import runtime as rt
from .jit import JITFunction
from .testing import do_bench


class Config:
    """Constexpr values and launch options of one candidate."""

    def __init__(self, kwargs: Dict[str, Any], num_warps: int = 4, num_stages: int = 0,
                 num_ctas: int = 1) -> None:
        self.kwargs = dict(kwargs)
        self.num_warps = num_warps

    def all_kwargs(self) -> Dict[str, Any]:
        return {**self.kwargs, "num_warps": self.num_warps}

    def __repr__(self) -> str:
        items = ", ".join(f"{k}: {v}" for k, v in self.kwargs.items())
        return f"Config({items}, num_warps: {self.num_warps})"


def _key_part(v: Any) -> str:
    if isinstance(v, (bool, int, float, str)):
        return repr(v)
    if isinstance(v, rt.DeviceArray):
        return f"array{list(v.shape)}:{v.dtype}"
    shape, dtype = getattr(v, "shape", None), getattr(v, "dtype", None)
    if shape is not None and dtype is not None:
        return f"array{list(shape)}:{dtype}"
    return repr(v)


class Autotuner:
    def __init__(self, fn: JITFunction, configs: Sequence[Config], key: Sequence[str],
                 warmup: float, rep: float) -> None:
        if not isinstance(fn, JITFunction):
            raise TypeError("hadron.autotune decorates a @hadron.jit function (put it above)")
        if not configs:
            raise ValueError("hadron.autotune: no configs")
        self.fn = fn
        self.configs = list(configs)
        self.key = list(key)
        for k in self.key:
            if k not in fn.index:
                raise ValueError(f"hadron.autotune: key `{k}` is not a parameter of "
                                 f"{fn.__name__}")
        self.warmup, self.rep = warmup, rep
        self.best: Dict[str, Config] = {}
        self.timings: Dict[str, Dict[str, float]] = {}
        self.__name__ = fn.__name__
        digest = hashlib.sha256(fn.parsed.source.encode()).hexdigest()[:16]
        self._file_name = f"{fn.__module__}.{fn.__qualname__}.{digest}.json"

    def _cache_file(self) -> Optional[str]:
        d = rt.cache_dir()
        return None if d is None else os.path.join(d, "autotune", self._file_name)

    def _load(self, entry: str) -> Optional[Config]:
        path = self._cache_file()
        if path is None or not os.path.exists(path):
            return None
        try:
            with open(path) as f:
                saved = json.load(f).get(entry)
        except (OSError, ValueError):
            return None  # unreadable or damaged: tune again, rewrite it
        if not saved:
            return None
        return Config(saved["kwargs"], num_warps=saved["num_warps"])

    def _save(self, entry: str, config: Config) -> None:
        path = self._cache_file()
        if path is None:
            return
        try:
            os.makedirs(os.path.dirname(path), mode=0o700, exist_ok=True)
            data: Dict[str, Any] = {}
            if os.path.exists(path):
                try:
                    with open(path) as f:
                        data = json.load(f)
                except (OSError, ValueError):
                    data = {}
            data[entry] = {"kwargs": config.kwargs, "num_warps": config.num_warps}
            fd, tmp = tempfile.mkstemp(dir=os.path.dirname(path), suffix=".tmp")
            with os.fdopen(fd, "w") as f:
                json.dump(data, f, indent=1, sort_keys=True)
            os.replace(tmp, path)
        except OSError:
            pass  # a cache that cannot be written only means tuning again

    def __getitem__(self, grid: Any):
        return lambda *args, **kwargs: self.run(*args, grid=grid, **kwargs)

    def run(self, *args: Any, grid: Any, **kwargs: Any) -> Any:
        selector = kwargs.get("device")
        dev = rt._device_of(selector)
        named = dict(zip(self.fn.arg_names, args))
        named.update(kwargs)
        entry = dev.name + "|" + ",".join(f"{k}={_key_part(named.get(k))}" for k in self.key)
        config = self.best.get(entry) or self._load(entry)
        if config is None:
            config = self._tune(entry, args, grid, kwargs)
            self._save(entry, config)
        self.best[entry] = config
        return self.fn[grid](*args, **kwargs, **config.all_kwargs())

    def _tune(self, entry: str, args: Sequence[Any], grid: Any,
              kwargs: Dict[str, Any]) -> Config:
        timings: Dict[str, float] = {}
        best: Optional[Config] = None
        best_ms = float("inf")
        errors: List[str] = []
        for c in self.configs:
            def call(c: Config = c) -> Any:
                return self.fn.run(*args, grid=grid, **kwargs, **c.all_kwargs())
            try:
                ms = do_bench(call, self.warmup, self.rep, device=kwargs.get("device"))
            except CompileError as e:
                errors.append(f"{c}: {e}")
                continue
            timings[repr(c)] = ms
            if ms < best_ms:
                best, best_ms = c, ms
        if best is None:
            raise CompileError("hadron.autotune: no config compiled:\n" + "\n".join(errors))
        self.timings[entry] = timings
        return best


def autotune(configs: Sequence[Config], key: Sequence[str], warmup: float = 25,
             rep: float = 100) -> Any:
    """Decorates a @hadron.jit kernel: ``@hadron.autotune(configs=[...], key=[...])``."""
    return lambda fn: Autotuner(fn, configs, key, warmup, rep)
