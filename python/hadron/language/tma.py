"""``hl.tma``: Gluon's name for a bulk tensor copy
(``tma.async_copy_global_to_shared(desc, coord, barrier, result, pred)``),
which is ``hl.async_tensor_copy`` on every target."""

from .tensor_copy import async_tensor_copy as async_copy_global_to_shared  # noqa: F401
