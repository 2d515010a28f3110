"""Compiling ahead of time for a GPU this machine does not have.

``HADRON_COMPILE_ONLY=nvidia:sm_90a python3 script.py`` runs the script as
usual (on the device HADRON_DEVICE selects, the host by default here) and
also compiles every specialisation it traces for each target of the
comma-separated list (``PLUGIN:ARCH``, or a bare plugin for its default
arch), with the runtime's hd_context_compile: no device of the target is
needed. The runtime's kernel cache then holds the entry that a launch of the
same IR reads on a device of that arch, and the trace cache the IR, so a
machine with only the runtime (no LLVM/MLIR, no builder) launches every
kernel, and every autotune config, the script launched here. Failures are
reported on stderr as they happen and counted in a summary at exit.
"""

from __future__ import annotations

import atexit
import os
import sys
from typing import Dict, List, Set, Tuple

from . import runtime as rt

_done: Set[Tuple[str, str]] = set()
_counts: Dict[str, List[int]] = {}  # target -> [compiled, failed]


def targets() -> List[str]:
    """The targets of HADRON_COMPILE_ONLY (empty when unset)."""
    return [t.strip() for t in os.environ.get("HADRON_COMPILE_ONLY", "").split(",") if t.strip()]


def compile_for_targets(ir: str, kernel: str, name: str) -> None:
    """Compiles `ir` (the specialisation `name` of `kernel`) for each target,
    once per process."""
    for target in targets():
        if (target, ir) in _done:
            continue
        _done.add((target, ir))
        if not _counts:
            atexit.register(_summary)
        count = _counts.setdefault(target, [0, 0])
        try:
            kernels, _, _ = rt.context().compile(target, ir)
            if kernel not in kernels:
                raise ValueError(f"the module compiled without a kernel `{kernel}`")
            count[0] += 1
        except Exception as e:  # reported, counted; the script goes on
            count[1] += 1
            print(f"hadron compile-only: {name} does not compile for {target}: {e}",
                  file=sys.stderr)


def _summary() -> None:
    cache = rt.cache_dir() or "off"
    for target, (ok, failed) in _counts.items():
        print(f"hadron compile-only: {ok} kernel(s) compiled for {target}, {failed} failed, "
              f"cache {cache}", file=sys.stderr)
