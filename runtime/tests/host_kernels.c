/* Kernels written by hand against HostKernelABI.h, so that the host runtime
 * part is tested without the compiler part. Built into a shared object whose
 * bytes the test loads with hd_module_load_binary. */
#include "HostKernelABI.h"

#include <stdint.h>
#include <string.h>

#define BLOCK 1024

/* c[i] = a[i] + b[i] for i < n, one block of 1024 elements per CTA along x.
 * The block is staged through shared memory to check that it is usable. */
void vector_add(void **args, const int32_t *grid, void *shared) {
  const float *a = *(float **)args[0];
  const float *b = *(float **)args[1];
  float *c = *(float **)args[2];
  int32_t n = *(int32_t *)args[3];
  float *tile = (float *)shared;
  int64_t base = (int64_t)grid[0] * BLOCK;
  for (int i = 0; i < BLOCK; ++i)
    if (base + i < n)
      tile[i] = a[base + i] + b[base + i];
  for (int i = 0; i < BLOCK; ++i)
    if (base + i < n)
      c[base + i] = tile[i];
}

/* out[6 * cta + k] = grid[k], cta linearised x fastest. */
void grid_ids(void **args, const int32_t *grid, void *shared) {
  (void)shared;
  int32_t *out = *(int32_t **)args[0];
  int64_t cta = grid[0] + (int64_t)grid[3] * (grid[1] + (int64_t)grid[4] * grid[2]);
  for (int k = 0; k < HD_HOST_GRID_INFO_SIZE; ++k)
    out[6 * cta + k] = grid[k];
}

/* Stores its scalar arguments, as received, into out: i1 (int8), i64, f16
 * bits, bf16 bits, f64, packed at offsets 0, 8, 16, 18, 24. */
void store_scalars(void **args, const int32_t *grid, void *shared) {
  (void)grid;
  (void)shared;
  char *out = *(char **)args[0];
  memcpy(out + 0, args[1], sizeof(int8_t));
  memcpy(out + 8, args[2], sizeof(int64_t));
  memcpy(out + 16, args[3], sizeof(uint16_t));
  memcpy(out + 18, args[4], sizeof(uint16_t));
  memcpy(out + 24, args[5], sizeof(double));
}
