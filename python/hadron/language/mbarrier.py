"""``hl.mbarrier``: Gluon's names for the barriers bulk copies complete on
(``from triton.experimental.gluon.language.nvidia.hopper import mbarrier``);
the same operations as ``hl.mbarrier_*`` (hadron.language.tensor_copy)."""

from .tensor_copy import allocate_mbarrier  # noqa: F401
from .tensor_copy import mbarrier_arrive as arrive  # noqa: F401
from .tensor_copy import mbarrier_expect as expect  # noqa: F401
from .tensor_copy import mbarrier_init as init  # noqa: F401
from .tensor_copy import mbarrier_wait as wait  # noqa: F401
