"""Hadron's Python front end: Gluon-style kernels on the C++ builder.

    import hadron
    import hadron.language as hl

    @hadron.jit
    def copy(src, dst, n, XBLOCK: hl.constexpr):
        layout: hl.constexpr = hl.BlockedLayout([4], [32], [4], [0])
        offs = hl.program_id(0) * XBLOCK + hl.arange(0, XBLOCK, layout)
        hl.store(dst + offs, hl.load(src + offs, offs < n), offs < n)

    copy[(hadron.cdiv(n, 1024),)](x, y, n, XBLOCK=1024)

See docs/frontend-python.md.
"""

from ._errors import CompileError  # noqa: F401
from ._runtime import RuntimeError  # noqa: F401  (the runtime's)
from . import language, testing  # noqa: F401
from .autotuner import Autotuner, Config, autotune  # noqa: F401
from .jit import CompiledBinary, CompiledKernel, JITFunction, compile, jit  # noqa: F401
from .runtime import (DeviceArray, cache_dir, device, devices, empty,  # noqa: F401
                      to_device)
from .tensor_descriptor import TensorDescriptor  # noqa: F401


def cdiv(a: int, b: int) -> int:
    """Ceiling division: the number of programs covering `a` elements `b` at a time."""
    return (a + b - 1) // b


__all__ = ["CompileError", "RuntimeError", "language", "testing", "Autotuner", "Config",
           "autotune", "CompiledBinary", "CompiledKernel", "JITFunction", "compile", "jit",
           "DeviceArray", "cache_dir", "device", "devices", "empty", "to_device", "cdiv",
           "TensorDescriptor"]
