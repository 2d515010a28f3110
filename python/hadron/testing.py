"""Benchmarking (``hadron.testing.do_bench``) and test helpers."""

from __future__ import annotations

import statistics
from typing import Any, Callable, Optional

from . import runtime as rt


def do_bench(fn: Callable[[], Any], warmup: float = 25, rep: float = 100,
             device: Optional[str] = None, return_mode: str = "median") -> float:
    """Runs ``fn`` for about ``warmup`` ms, then times it for about ``rep`` ms
    with the device's events (one pair around each call) and returns the
    median ms per call (``return_mode``: "median", "mean", "min", "max").

    Events are the runtime's: a GPU's timestamps on its queue; on the host,
    whose launches run the grid before they return, a steady clock read when
    the event is recorded. Host arrays passed to a kernel are copied around
    each launch (see hadron.runtime); time kernels on hadron.DeviceArray
    arguments to leave the copies out."""
    dev = rt._device_of(device)
    fn()
    dev.synchronize()
    # Estimate one call from five, to size the warmup and timed runs.
    start, end = dev.create_event(), dev.create_event()
    start.record()
    for _ in range(5):
        fn()
    end.record()
    estimate = max(start.elapsed_ms(end) / 5, 1e-6)
    n_warmup = max(1, int(warmup / estimate))
    n_rep = max(1, int(rep / estimate))
    for _ in range(n_warmup):
        fn()
    starts = [dev.create_event() for _ in range(n_rep)]
    ends = [dev.create_event() for _ in range(n_rep)]
    for s, e in zip(starts, ends):
        s.record()
        fn()
        e.record()
    dev.synchronize()
    times = [s.elapsed_ms(e) for s, e in zip(starts, ends)]
    if return_mode == "median":
        return statistics.median(times)
    if return_mode == "mean":
        return statistics.fmean(times)
    if return_mode == "min":
        return min(times)
    if return_mode == "max":
        return max(times)
    raise ValueError(f"return_mode {return_mode!r}: median, mean, min or max")
