"""The C++ builder, imported on first use.

``hadron._builder`` links the builder and therefore libMLIR/libLLVM, which a
GPU machine running kernels traced elsewhere does not have. Everything that
traces reaches it through ``builder`` below, so ``import hadron`` and
launches served by the trace cache (hadron.trace_cache) never import it.
"""

from __future__ import annotations

import importlib
from typing import Any, Optional


class _Builder:
    """hadron._builder's attributes, the module imported on the first one."""

    def __getattr__(self, name: str) -> Any:
        module = importlib.import_module("hadron._builder")
        self.__dict__.update(module.__dict__)  # later lookups skip this method
        return getattr(module, name)


builder: Any = _Builder()


def builder_import_error() -> Optional[ImportError]:
    """None when the builder can be imported, else why not."""
    try:
        importlib.import_module("hadron._builder")
    except ImportError as e:
        return e
    return None
