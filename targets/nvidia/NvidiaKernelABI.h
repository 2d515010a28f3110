/*===- NvidiaKernelABI.h - How the NVIDIA runtime launches compiled kernels -===*
 *
 * A binary of the NVIDIA compiler part is a cubin (an ELF image, when ptxas
 * was found at compile time) or PTX text (which the driver JIT-compiles at
 * load). Every kernel K of the module is an entry (`.visible .entry K`,
 * LLVM's ptx_kernel calling convention) whose parameters are exactly the
 * kernel's hd arguments, in order, with no implicit ones:
 *
 *   HD_ARG_PTR     .param .u64   device address (a global pointer)
 *   HD_ARG_I1      .param .u8    0 or 1
 *   HD_ARG_I8      .param .u8    HD_ARG_I16  .param .u16
 *   HD_ARG_I32     .param .u32   HD_ARG_I64  .param .u64
 *   HD_ARG_F16     .param .b16   IEEE binary16 bits
 *   HD_ARG_BF16    .param .b16   bfloat16 bits
 *   HD_ARG_F32     .param .f32   HD_ARG_F64  .param .f64
 *
 * The launch's block is (num_warps * 32, 1, 1): lane = tid.x & 31, warp =
 * tid.x >> 5, program ids are ctaid.{x,y,z}. Shared memory is one dynamic
 * allocation (`extern __shared__`, the symbol below, 16-byte aligned) of
 * static_shared_bytes (planned by the compiler) + the launch's dynamic bytes;
 * the runtime raises the function's dynamic shared-memory limit when that is
 * over the default 48 KiB.
 *===----------------------------------------------------------------------===*/
#ifndef HADRON_TARGETS_NVIDIA_NVIDIAKERNELABI_H
#define HADRON_TARGETS_NVIDIA_NVIDIAKERNELABI_H

/* The dynamic shared-memory array every kernel addresses. */
#define HD_NVIDIA_SHARED_SYMBOL "__hd_shared"

/* Threads per warp on every NVIDIA GPU. */
#define HD_NVIDIA_WARP_SIZE 32

#endif
