"""``import hadron.language as hl``: the kernel language (Gluon's names)."""

from .core import (  # noqa: F401
    AutoLayout, BlockedLayout, CoalescedLayout, DistributedLinearLayout, DotOperandLayout,
    MatrixSharedLayout, MmaLayout, PaddedSharedLayout, SharedLinearLayout, SliceLayout,
    SwizzledSharedLayout, abs, allocate_shared_memory, arange, argmax, argmin, assume,
    associative_scan, atomic_add, atomic_and, atomic_cas, atomic_max, atomic_min, atomic_or,
    atomic_xchg, atomic_xor, barrier, bfloat16, broadcast, cast, cdiv, constexpr,
    convert_layout, cos, cumsum, device_assert, device_print, dot, dot_fma, dot_wait, dtype,
    exp, exp2, expand_dims, fdiv, float16, float32, float64, fma, full, int1, int8, int16,
    int32, int64, load, log, log2, max, maximum, min, minimum, multiple_of, num_programs,
    num_warps, permute, pointer_type, program_id, reduce, reshape, rsqrt,
    shared_memory_descriptor, sin, sqrt, static_assert, static_print, static_range, store, sum,
    tensor, thread_barrier, warpgroup_mma, warpgroup_mma_wait, where, zeros,
)
from .tensor_copy import (  # noqa: F401
    allocate_mbarrier, async_tensor_copy, cluster_barrier, fence_async_shared, mbarrier_arrive,
    mbarrier_expect,
    mbarrier_init, mbarrier_wait, tensor_descriptor, tensor_descriptor_type,
)
from .partitions import warp_specialize  # noqa: F401
from . import mbarrier, tma  # noqa: F401,E402
