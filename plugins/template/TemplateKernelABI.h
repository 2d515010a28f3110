/*===- TemplateKernelABI.h - How the runtime part calls a compiled kernel -===*
 *
 * The contract between this target's compiler part (which emits it) and its
 * runtime part (which calls it). The template uses the host target's: a
 * binary is an ELF shared object exporting, for every kernel K,
 *
 *   void K(void **args, const int32_t *grid, void *shared);
 *
 *  - args[i] points to argument i in its natural C type (void * for
 *    HD_ARG_PTR, int8_t..int64_t, float, double; the uint16_t bits of
 *    hadron/plugin/ScalarBits.h for HD_ARG_F16 and HD_ARG_BF16);
 *  - grid = {pid_x, pid_y, pid_z, nprog_x, nprog_y, nprog_z};
 *  - shared points to this CTA's static + dynamic shared memory.
 *
 * A real target replaces this with its device's convention (a GPU's kernel
 * parameters and built-in ids), or deletes it when the driver defines one.
 *===----------------------------------------------------------------------===*/
#ifndef TEMPLATE_KERNEL_ABI_H
#define TEMPLATE_KERNEL_ABI_H

#include <stdint.h>

typedef void (*template_kernel_fn)(void **args, const int32_t *grid, void *shared);

#define TEMPLATE_GRID_INFO_SIZE 6

#endif
