/*===- HostKernelABI.h - How the host runtime calls compiled kernels ------===*
 *
 * A host binary is an ELF shared object produced by the host compiler part.
 * For every kernel K of the module it exports
 *
 *   void K(void **args, const int32_t *grid, void *shared);
 *
 *  - args[i] points to the value of argument i, stored in its natural C type:
 *    a `void *` for HD_ARG_PTR, int8_t..int64_t for the integer kinds
 *    (HD_ARG_I1 as int8_t 0/1), uint16_t bits for F16/BF16, float, double;
 *  - grid = {pid_x, pid_y, pid_z, nprog_x, nprog_y, nprog_z};
 *  - shared points to static + dynamic shared-memory bytes, 64-byte aligned,
 *    private to this call (one CTA).
 *
 * The runtime calls K once per CTA, from a pool of worker threads; calls for
 * different CTAs may run concurrently.
 *
 * Every host binary also exports
 *
 *   void (*__hd_host_assert_handler)(const char *message);
 *
 * NULL in the binary. The runtime points it at its handler after loading;
 * a failing hd.assert calls it with the assert's message, and the handler
 * does not return (it ends the CTA, and the launch fails with the message).
 * Where it is NULL (a binary loaded by something else) the message is
 * printed and the process aborts, as a device assert stops a GPU context.
 *
 * and
 *
 *   const char __hd_host_arch[];
 *
 * the arch it was compiled for ("native", or a generic level such as
 * "x86-64-v3"). The runtime refuses to load a level this CPU does not have.
 *===----------------------------------------------------------------------===*/
#ifndef HADRON_TARGETS_HOST_HOSTKERNELABI_H
#define HADRON_TARGETS_HOST_HOSTKERNELABI_H

#include <stdint.h>

typedef void (*hd_host_kernel_fn)(void **args, const int32_t *grid, void *shared);

#define HD_HOST_GRID_INFO_SIZE 6

typedef void (*hd_host_assert_handler_fn)(const char *message);
#define HD_HOST_ASSERT_HANDLER_SYMBOL "__hd_host_assert_handler"
#define HD_HOST_ARCH_SYMBOL "__hd_host_arch"

#endif
