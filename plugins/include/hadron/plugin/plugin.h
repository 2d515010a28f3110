/*===- plugin.h - The Hadron target plugin ABI (C) ------------------------===*
 *
 * A target plugin is two shared libraries:
 *
 *  - its RUNTIME PART (e.g. libhadron-target-host.so), which links no LLVM or
 *    MLIR and exports `hadron_plugin_entry`. The runtime loads it to list
 *    devices, move memory and launch kernels;
 *  - its COMPILER PART (e.g. libhadron-target-host-compiler.so), which links
 *    libhadron-core and MLIR and exports `hadron_compiler_entry`. It is loaded
 *    only when IR must be compiled, and it is named by the runtime part's
 *    descriptor (a file name resolved next to the runtime part).
 *
 * Versioning: every table starts with its struct_size, and the descriptor
 * carries the ABI major/minor it was built against. A loader refuses a plugin
 * whose major differs from its own; a newer minor may append fields, so a
 * reader uses only fields that lie inside struct_size.
 *
 * Ownership: strings and tables a plugin returns stay valid until the plugin
 * is unloaded. Memory handed across the boundary is freed by the side that
 * allocated it (release functions below).
 *
 * Errors: every function that can fail returns an hd_status (HD_OK = 0) and,
 * on failure, writes a NUL-terminated message into `err` naming the input and
 * the limit it broke ("hipMalloc of 2147483648 bytes: out of memory (device
 * has 1073741824 free)"). `err` may be NULL. No function aborts the process.
 *
 * Threading: hadron_plugin_entry and hadron_compiler_entry may be called from
 * any thread, any number of times, and return the same table. Runtime-table
 * functions are thread-safe unless said otherwise.
 *===----------------------------------------------------------------------===*/
#ifndef HADRON_PLUGIN_PLUGIN_H
#define HADRON_PLUGIN_PLUGIN_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define HADRON_PLUGIN_ABI_MAJOR 2
#define HADRON_PLUGIN_ABI_MINOR 0

#define HADRON_PLUGIN_ENTRY_SYMBOL "hadron_plugin_entry"
#define HADRON_COMPILER_ENTRY_SYMBOL "hadron_compiler_entry"

/* Marks the entry functions for export when a plugin is built with hidden
 * visibility (as hadron_add_target_plugin does):
 *   HADRON_PLUGIN_EXPORT const hd_plugin_descriptor *hadron_plugin_entry(void);
 */
#define HADRON_PLUGIN_EXPORT __attribute__((visibility("default")))

typedef enum hd_status {
  HD_OK = 0,
  HD_ERROR_INVALID_ARGUMENT = 1, /* a bad value from the caller */
  HD_ERROR_NO_DEVICE = 2,        /* the driver is there, no device is */
  HD_ERROR_DRIVER_MISSING = 3,   /* the vendor driver library is absent */
  HD_ERROR_OUT_OF_MEMORY = 4,
  HD_ERROR_COMPILE = 5,          /* IR rejected or backend failure */
  HD_ERROR_LAUNCH = 6,
  HD_ERROR_UNSUPPORTED = 7,
  HD_ERROR_INTERNAL = 8,
} hd_status;

/* Messages are truncated to fit. */
#define HD_ERROR_MESSAGE_SIZE 1024
typedef struct hd_error {
  hd_status code;
  char message[HD_ERROR_MESSAGE_SIZE];
} hd_error;

/*===----------------------------------------------------------------------===*
 * Kernel signatures
 *===----------------------------------------------------------------------===*/

typedef enum hd_arg_kind {
  HD_ARG_PTR = 0, /* a device buffer */
  HD_ARG_I1 = 1,
  HD_ARG_I8 = 2,
  HD_ARG_I16 = 3,
  HD_ARG_I32 = 4,
  HD_ARG_I64 = 5,
  HD_ARG_F16 = 6,
  HD_ARG_BF16 = 7,
  HD_ARG_F32 = 8,
  HD_ARG_F64 = 9,
  /* ABI 2.0: a global tensor described by an hd_tensor_desc, which the
   * kernel reads in blocks of the signature's hd_tensor_desc_spec. */
  HD_ARG_TENSOR_DESC = 10,
} hd_arg_kind;

#define HD_TENSOR_DESC_MAX_RANK 5

/* A tensor in device memory: `shape` and `strides` count elements, the
 * innermost dimension last; the innermost stride is 1. */
typedef struct hd_tensor_desc {
  uint64_t base; /* an hd_device_ptr inside a live buffer */
  uint32_t rank;
  uint32_t reserved; /* 0 */
  uint64_t shape[HD_TENSOR_DESC_MAX_RANK];
  uint64_t strides[HD_TENSOR_DESC_MAX_RANK];
} hd_tensor_desc;

/* What a kernel's HD_ARG_TENSOR_DESC argument copies at a time, fixed when
 * it was compiled: blocks of `block` elements of `elem_bytes` each, laid out
 * in shared memory with a `swizzle_bytes` (0, 32, 64 or 128) XOR swizzle of
 * 16-byte units. A target that encodes descriptors for hardware (NVIDIA's
 * tensor maps) needs these; elements outside `shape` read as zero. A copy
 * engine that moves at most `swizzle_bytes` of the innermost dim at a time
 * (NVIDIA's) copies a block as block[rank-1] * elem_bytes / swizzle_bytes
 * boxes of swizzle_bytes / elem_bytes innermost elements, one after the
 * other in shared memory. */
typedef struct hd_tensor_desc_spec {
  uint32_t rank; /* 0 for an argument that is not a descriptor */
  uint32_t elem_bytes;
  uint32_t swizzle_bytes;
  /* 0: the kernel reads the generic encoding, {base, shape[rank],
   * strides[rank]} as 64-bit words (every runtime can pass it); 1: the
   * target's own (a hardware descriptor its runtime part builds). */
  uint32_t native;
  uint32_t block[HD_TENSOR_DESC_MAX_RANK];
} hd_tensor_desc_spec;

/* What the runtime needs to launch a kernel and to check its arguments. */
typedef struct hd_kernel_signature {
  const char *name;
  uint32_t num_args;
  const hd_arg_kind *args;
  uint32_t num_warps;
  uint32_t warp_size;
  uint64_t static_shared_bytes; /* planned by the shared-memory allocator */
  /* ABI 2.0: num_args entries, one per argument (rank 0 for the ones that are
   * not HD_ARG_TENSOR_DESC); NULL when the kernel takes no descriptor. */
  const hd_tensor_desc_spec *descs;
} hd_kernel_signature;

/* One launch argument: the kind must equal the signature's. A pointer
 * argument holds a device address (hd_device_ptr) in `ptr`; a tensor
 * descriptor argument points at an hd_tensor_desc the caller keeps alive
 * until the launch call returns. */
typedef uint64_t hd_device_ptr;
typedef struct hd_arg {
  hd_arg_kind kind;
  union {
    hd_device_ptr ptr;
    int64_t i; /* I1..I64, sign-extended */
    double f;  /* F16..F64, converted by the runtime */
    const hd_tensor_desc *desc; /* HD_ARG_TENSOR_DESC */
  } value;
} hd_arg;

/*===----------------------------------------------------------------------===*
 * Devices
 *===----------------------------------------------------------------------===*/

/* The caller sets struct_size to the size it allocated; device_info fills
 * the fields that lie inside it. */
typedef struct hd_device_info {
  uint32_t struct_size;
  char name[256];        /* "NVIDIA H200", "host (16 cores)" */
  char arch[64];         /* "sm_90a", "gfx942", "pvc", "x86-64" */
  uint32_t warp_size;
  uint32_t max_threads_per_cta;
  uint64_t shared_bytes_per_cta;
  uint64_t global_bytes;
  uint32_t compute_units; /* SMs, CUs, Xe cores, host cores */
  /* ABI 1.1. A plugin writes these only when struct_size covers them. */
  uint64_t l1_bytes;      /* L1 data cache per compute unit; 0 = unknown */
  uint64_t l2_bytes;      /* L2 cache as the driver or OS reports it; 0 = unknown */
} hd_device_info;

typedef struct hd_plugin_module hd_plugin_module; /* loaded code, plugin-owned */
typedef struct hd_plugin_event hd_plugin_event;

/* The runtime part's function table. `device` is an index in
 * [0, device_count()). Device memory is addressed by hd_device_ptr. */
typedef struct hd_runtime_table {
  uint32_t struct_size;

  /* Initialises the driver. Returns HD_ERROR_DRIVER_MISSING when the vendor
   * library cannot be dlopen'ed, HD_ERROR_NO_DEVICE when it reports none;
   * the message says which library or which call. Idempotent. */
  hd_status (*init)(hd_error *err);
  uint32_t (*device_count)(void);
  hd_status (*device_info)(uint32_t device, hd_device_info *info, hd_error *err);

  hd_status (*mem_alloc)(uint32_t device, uint64_t bytes, hd_device_ptr *out, hd_error *err);
  hd_status (*mem_free)(uint32_t device, hd_device_ptr ptr, hd_error *err);
  hd_status (*copy_to_device)(uint32_t device, hd_device_ptr dst, const void *src,
                              uint64_t bytes, hd_error *err);
  hd_status (*copy_to_host)(uint32_t device, void *dst, hd_device_ptr src, uint64_t bytes,
                            hd_error *err);

  /* Loads a binary produced by this target's compiler part. The plugin keeps
   * its own copy of `binary`. */
  hd_status (*module_load)(uint32_t device, const void *binary, uint64_t size,
                           hd_plugin_module **out, hd_error *err);
  hd_status (*module_unload)(hd_plugin_module *module, hd_error *err);
  /* Launches kernel `signature->name` of `module` on a grid of CTAs. The
   * runtime has already checked `args` against `signature`. Asynchronous
   * with respect to the host where the device allows; synchronize waits. */
  hd_status (*launch)(hd_plugin_module *module, const hd_kernel_signature *signature,
                      const uint32_t grid[3], const hd_arg *args, uint64_t dynamic_shared_bytes,
                      hd_error *err);
  hd_status (*synchronize)(uint32_t device, hd_error *err);

  hd_status (*event_create)(uint32_t device, hd_plugin_event **out, hd_error *err);
  hd_status (*event_record)(hd_plugin_event *event, hd_error *err);
  /* Milliseconds between two recorded events, after both completed. */
  hd_status (*event_elapsed_ms)(hd_plugin_event *start, hd_plugin_event *end, float *ms,
                                hd_error *err);
  hd_status (*event_destroy)(hd_plugin_event *event, hd_error *err);
} hd_runtime_table;

/*===----------------------------------------------------------------------===*
 * The descriptor
 *===----------------------------------------------------------------------===*/

typedef struct hd_plugin_descriptor {
  uint32_t struct_size;
  uint32_t abi_major;
  uint32_t abi_minor;
  const char *name;   /* "host", "nvidia", "amd", "intel": the selector's vendor key */
  const char *default_arch;            /* the arch a bare `--target name` means */
  const char *const *archs;            /* NULL-terminated: archs the compiler part emits */
  const char *compiler_library;        /* file name beside this library, or NULL */
  const hd_runtime_table *runtime;
} hd_plugin_descriptor;

typedef const hd_plugin_descriptor *(*hd_plugin_entry_fn)(void);

/*===----------------------------------------------------------------------===*
 * The compiler part
 *===----------------------------------------------------------------------===*/

typedef struct hd_compile_options {
  uint32_t struct_size;
  const char *arch;     /* one of the descriptor's archs; NULL = default */
  uint32_t opt_level;   /* 0..3 */
  const char *dump_dir; /* when set, each stage's IR is written there */
} hd_compile_options;

/* The result of a compilation; owned by the compiler part until released. */
typedef struct hd_compiled_module {
  const void *binary;
  uint64_t binary_size;
  uint32_t num_kernels;
  const hd_kernel_signature *kernels;
  const char *assembly;  /* textual ISA where the target has one, or NULL */
  const char *llvm_ir;   /* the LLVM IR that was code-generated */
} hd_compiled_module;

typedef struct hd_compiler_table {
  uint32_t struct_size;
  uint32_t abi_major;
  uint32_t abi_minor;
  /* Compiles a module of hd IR (text). Diagnostics name IR lines. */
  hd_status (*compile)(const char *ir, uint64_t ir_size, const hd_compile_options *options,
                       hd_compiled_module **out, hd_error *err);
  void (*release)(hd_compiled_module *module);

  /* ABI 1.2. A reader calls it only when struct_size covers it; NULL, or an
   * older compiler part, means the target has no matrix instructions.
   *
   * The matrix instructions that `arch` (NULL = the default arch) can issue
   * for an hd.dot on an #hd.mma layout, as the `#hd.matrix_instr<{...}>`
   * attribute texts kernels name in those layouts (docs/plugins.md). Sets
   * *out to a NULL-terminated array, empty when the arch has none; the array
   * and its strings are owned by the compiler part and stay valid until it
   * is unloaded. Fails with HD_ERROR_INVALID_ARGUMENT for an arch the
   * compiler part does not compile for (the message names it and lists the
   * archs). */
  hd_status (*matrix_instructions)(const char *arch, const char *const **out, hd_error *err);
} hd_compiler_table;

/* The size of a compiler table of ABI 1.0 and 1.1 (up to `release`): the
 * least a loader accepts. */
#define HD_COMPILER_TABLE_SIZE_1_0 \
  (offsetof(hd_compiler_table, release) + sizeof(void (*)(hd_compiled_module *)))

typedef const hd_compiler_table *(*hd_compiler_entry_fn)(void);

#ifdef __cplusplus
}
#endif

#endif /* HADRON_PLUGIN_PLUGIN_H */
