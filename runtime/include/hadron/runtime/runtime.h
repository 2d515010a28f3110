/*===- runtime.h - The Hadron runtime (C API) -----------------------------===*
 *
 * The runtime finds target plugins, lists their devices, picks one from a
 * selector, moves memory and launches kernels. It links no LLVM or MLIR: IR
 * is compiled only on request, by the plugin's compiler part, which is
 * dlopen'ed then.
 *
 * Objects and ownership:
 *
 *   hd_context   owns everything below; created by hd_context_create,
 *                freed by hd_context_destroy.
 *   hd_device    borrowed from the context (never freed by the caller);
 *                valid until the context is destroyed.
 *   hd_buffer    device memory; hd_buffer_free.
 *   hd_module    loaded code; hd_module_destroy.
 *   hd_kernel    borrowed from its module; valid until the module is
 *                destroyed.
 *   hd_event     a timestamp on a device's queue; hd_event_destroy.
 *
 * Buffers, modules and events still alive when their context is destroyed
 * are freed with it; their handles are invalid afterwards.
 *
 * Errors: every function that can fail returns an hd_status (HD_OK = 0) and,
 * on failure, fills `err` (which may be NULL) with the code and a message
 * that names the offending input and the limit it broke ("copy of 8192 bytes
 * into buffer of 4096 bytes at offset 0"). On success `err` is left with
 * code HD_OK and an empty message. Nothing aborts the process.
 *
 * Threading: a context may be used from any number of threads at once. Its
 * plugin and device lists are fixed when it is created; allocation, module
 * loading (including the lazy load of a compiler part), launches and events
 * are safe to call concurrently. Launches from several threads onto one
 * device are ordered as the plugin's queue orders them (the host plugin runs
 * them one after the other). A handle must not be destroyed while another
 * thread still uses it.
 *
 * Environment:
 *   HADRON_PLUGIN_PATH  ':'-separated directories searched for plugins
 *                       before the install's plugin directory.
 *   HADRON_DEVICE       the selector used when hd_context_select is given
 *                       NULL or "".
 *   HADRON_CACHE_DIR    the kernel cache's directory (see "The kernel cache"
 *                       below); "off" disables the on-disk cache. Unset or
 *                       empty: $XDG_CACHE_HOME/hadron, else
 *                       $HOME/.cache/hadron. What the cache creates is
 *                       mode 0700 (directories) and 0600 (entries).
 *
 * The kernel cache: hd_module_load_ir and hd_context_compile keep what they
 * compile in the context's memory and in `<cache dir>/kernels/<key>.hdk`,
 * and look in both first (a load from memory reuses the binary the device
 * already loaded). The key is a SHA-256 of the IR bytes, Hadron's release,
 * the plugin's name and ABI version, the
 * resolved arch (options->arch, else for hd_module_load_ir the device's arch
 * when the plugin lists it, else the plugin's default; "native" adds this
 * CPU's model and features), the opt level and the cache format version. So
 * hd_context_compile for a plugin and arch fills the entry that
 * hd_module_load_ir of the same IR and options reads on a device of that
 * arch: kernels compiled ahead of time on a machine with the compiler run on
 * one that has only the runtime and the plugins' runtime parts.
 *  - A hit loads the binary and the kernel signatures (and, for
 *    hd_context_compile, the assembly and LLVM IR) without loading the
 *    compiler part. Each entry also records the compiler build that made it
 *    (size and time of the compiler part and of the libhadron-*.so next to
 *    this library); an entry of another build is compiled again whenever a
 *    compiler part can be loaded, and used as it is when none can.
 *  - A miss compiles and writes the entry atomically (temporary file, then
 *    rename), so concurrent processes never see half an entry.
 *  - A damaged entry (bad magic, other format version, another key, sizes
 *    that do not add up, failed checksum) or a binary the device refuses is
 *    a miss: reported once on stderr, compiled again and overwritten. A directory that cannot be
 *    created or written only means nothing is cached; compiling still
 *    succeeds.
 *  - options->dump_dir set: neither cache is read or written (the stage
 *    dumps come only from a compilation that runs).
 *  - Threads that load one kernel at once compile it once.
 *  - Failed compilations are not cached.
 *===----------------------------------------------------------------------===*/
#ifndef HADRON_RUNTIME_RUNTIME_H
#define HADRON_RUNTIME_RUNTIME_H

#include "hadron/plugin/plugin.h"

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define HADRON_RUNTIME_API __attribute__((visibility("default")))

typedef struct hd_context hd_context;
typedef struct hd_device hd_device;
typedef struct hd_buffer hd_buffer;
typedef struct hd_module hd_module;
typedef struct hd_kernel hd_kernel;
typedef struct hd_event hd_event;

/* "HD_OK", "HD_ERROR_NO_DEVICE", ...; "HD_ERROR_UNKNOWN" for other values.
 * The string is static. */
HADRON_RUNTIME_API const char *hd_status_name(hd_status status);

/* "ptr", "i1", "i8", ..., "f64"; "?" for other values. Static. */
HADRON_RUNTIME_API const char *hd_arg_kind_name(hd_arg_kind kind);

/*===----------------------------------------------------------------------===*
 * Context and plugin loading
 *===----------------------------------------------------------------------===*/

/* Creates a context and loads every plugin.
 *
 * Plugins are searched in the directories of HADRON_PLUGIN_PATH, in order,
 * then in the install's plugin directory, `<directory of
 * libhadron-runtime.so>/hadron/plugins`. The current directory is never
 * searched (an empty HADRON_PLUGIN_PATH entry is skipped, not read as ".").
 * A directory that does not exist is skipped silently. In each directory the
 * files named `libhadron-target-*.so`, except `*-compiler.so`, are loaded in
 * name order. When two files declare the same plugin name, the first one
 * found is used.
 *
 * A plugin that fails to load does not fail the context: the failure is
 * kept in the load report (hd_context_load_report_*). A plugin whose driver
 * is missing or which has no device (init returned HD_ERROR_DRIVER_MISSING
 * or HD_ERROR_NO_DEVICE) is listed among the plugins with no devices, and
 * the reason is also in the load report.
 *
 * Fails only when `out` is NULL (HD_ERROR_INVALID_ARGUMENT) or memory runs
 * out. A context with no plugin at all is valid; selection then explains
 * what was searched. */
HADRON_RUNTIME_API hd_status hd_context_create(hd_context **out, hd_error *err);

/* Frees the context and every buffer, module and event still alive in it.
 * Plugin libraries stay mapped for the life of the process: the plugin ABI
 * has no shutdown call, and a driver may keep threads. NULL is a no-op. */
HADRON_RUNTIME_API void hd_context_destroy(hd_context *ctx);

/* One failure seen while loading plugins. Strings are owned by the context
 * and valid until it is destroyed. */
typedef struct hd_load_record {
  const char *path;   /* the plugin file */
  const char *plugin; /* the plugin's name when its descriptor was read, else NULL */
  hd_status code;     /* HD_ERROR_DRIVER_MISSING, HD_ERROR_NO_DEVICE,
                         HD_ERROR_UNSUPPORTED (ABI skew), HD_ERROR_INVALID_ARGUMENT
                         (not a loadable plugin), ... */
  const char *reason; /* "built for plugin ABI 2.0, this runtime speaks 1.x" */
} hd_load_record;

HADRON_RUNTIME_API uint32_t hd_context_load_report_count(const hd_context *ctx);
/* Record `index` of the load report. HD_ERROR_INVALID_ARGUMENT when the
 * index is out of range or an argument is NULL. */
HADRON_RUNTIME_API hd_status hd_context_load_report_get(const hd_context *ctx, uint32_t index,
                                                        hd_load_record *out, hd_error *err);

/* The directories that were searched, in order (existing or not). The
 * string is owned by the context; NULL when the index is out of range. */
HADRON_RUNTIME_API uint32_t hd_context_search_dir_count(const hd_context *ctx);
HADRON_RUNTIME_API const char *hd_context_search_dir(const hd_context *ctx, uint32_t index);

/*===----------------------------------------------------------------------===*
 * Plugins and devices
 *===----------------------------------------------------------------------===*/

/* A loaded plugin. Strings and arrays are owned by the context. */
typedef struct hd_plugin_info {
  const char *name;                  /* the selector's vendor key: "host" */
  const char *path;                  /* the runtime part's file */
  uint32_t abi_major, abi_minor;     /* what the plugin was built against */
  const char *default_arch;
  const char *const *archs;          /* NULL-terminated */
  const char *compiler_library;      /* full path of the compiler part, or NULL */
  hd_status init_status;             /* HD_OK, or why it has no devices */
  uint32_t device_count;
} hd_plugin_info;

HADRON_RUNTIME_API uint32_t hd_context_plugin_count(const hd_context *ctx);
/* HD_ERROR_INVALID_ARGUMENT when the index is out of range. */
HADRON_RUNTIME_API hd_status hd_context_plugin_info(const hd_context *ctx, uint32_t index,
                                                    hd_plugin_info *out, hd_error *err);

/* Devices of every plugin, plugin by plugin in load order, each plugin's in
 * index order. */
HADRON_RUNTIME_API uint32_t hd_context_device_count(const hd_context *ctx);
/* HD_ERROR_INVALID_ARGUMENT when the index is out of range. */
HADRON_RUNTIME_API hd_status hd_context_get_device(const hd_context *ctx, uint32_t index,
                                                   hd_device **out, hd_error *err);

/* "host:0", "nvidia:1": the plugin name and the device's index within it.
 * Owned by the context. */
HADRON_RUNTIME_API const char *hd_device_name(const hd_device *device);
HADRON_RUNTIME_API const char *hd_device_plugin_name(const hd_device *device);
HADRON_RUNTIME_API uint32_t hd_device_index(const hd_device *device);
/* The device's properties, read once when the context was created. */
HADRON_RUNTIME_API hd_status hd_device_get_info(const hd_device *device, hd_device_info *out,
                                                hd_error *err);

/*===----------------------------------------------------------------------===*
 * Selection
 *
 * Grammar (spaces around terms are ignored):
 *
 *   selector := term (';' term)*
 *   term     := 'auto'
 *             | vendor [':' which]          pick a device of this plugin
 *             | '!' vendor [':' which]      exclude devices
 *   which    := index | '*'                 '*' (or nothing) = any device
 *   vendor   := [a-z][a-z0-9_-]*            a plugin name: host, nvidia, ...
 *   index    := [0-9]+
 *
 * Meaning: exclusions apply to the whole list, wherever they stand. The
 * other terms are tried from left to right; the first that matches a device
 * not excluded wins. A vendor term matches that plugin's device `index`, or
 * its lowest-numbered device for '*'. `auto` is the best GPU, else the host:
 * the first device of the first plugin with a device, ranking nvidia, amd,
 * intel, then other non-host plugins in load order, then host. A selector
 * made only of exclusions means `auto` over what is left.
 *
 * Examples: `auto`, `host`, `nvidia`, `nvidia:1`, `amd:*`, `nvidia;amd;host`,
 * `!intel` (any device but Intel's), `!nvidia:0;nvidia` (an NVIDIA device
 * other than the first).
 *===----------------------------------------------------------------------===*/

/* Picks a device. `selector` NULL or "" means the value of HADRON_DEVICE,
 * or `auto` when that is unset or empty.
 *
 * HD_ERROR_INVALID_ARGUMENT: the selector is malformed; the message names
 * the offending term and shows the grammar.
 * HD_ERROR_NO_DEVICE: the selector is well formed but no device matches;
 * the message lists the devices there are and, for each vendor the
 * selector names that has none, why ("nvidia: libcuda.so.1 not found"). */
HADRON_RUNTIME_API hd_status hd_context_select(hd_context *ctx, const char *selector,
                                               hd_device **out, hd_error *err);

/* Checks a selector's syntax without a context. HD_ERROR_INVALID_ARGUMENT
 * with the grammar when it is malformed. */
HADRON_RUNTIME_API hd_status hd_selector_validate(const char *selector, hd_error *err);

/*===----------------------------------------------------------------------===*
 * Memory
 *===----------------------------------------------------------------------===*/

/* Allocates `bytes` of device memory (0 is allowed and yields a buffer of
 * size 0). HD_ERROR_OUT_OF_MEMORY with the plugin's message on failure,
 * followed by the device's global memory where its info gives it
 * ("...; host:0 has 25276194816 bytes of global memory"). */
HADRON_RUNTIME_API hd_status hd_buffer_alloc(hd_device *device, uint64_t bytes, hd_buffer **out,
                                             hd_error *err);
/* Frees the buffer. NULL is a no-op that returns HD_OK. The caller makes
 * sure no running kernel still uses it (hd_synchronize). */
HADRON_RUNTIME_API hd_status hd_buffer_free(hd_buffer *buffer, hd_error *err);

/* Copies `bytes` from host memory into the buffer at `offset`, and back.
 * Both are synchronous. HD_ERROR_INVALID_ARGUMENT when offset + bytes goes
 * past the buffer's size (the message names both) or a pointer is NULL
 * while bytes > 0. */
HADRON_RUNTIME_API hd_status hd_buffer_copy_from_host(hd_buffer *dst, uint64_t offset,
                                                      const void *src, uint64_t bytes,
                                                      hd_error *err);
HADRON_RUNTIME_API hd_status hd_buffer_copy_to_host(const hd_buffer *src, uint64_t offset,
                                                    void *dst, uint64_t bytes, hd_error *err);

/* The buffer's device address, to pass as an HD_ARG_PTR argument. A pointer
 * argument may point anywhere inside a live buffer of the launch's device. */
HADRON_RUNTIME_API hd_device_ptr hd_buffer_device_ptr(const hd_buffer *buffer);
HADRON_RUNTIME_API uint64_t hd_buffer_size(const hd_buffer *buffer);
HADRON_RUNTIME_API hd_device *hd_buffer_device(const hd_buffer *buffer);

/*===----------------------------------------------------------------------===*
 * Modules and kernels
 *===----------------------------------------------------------------------===*/

/* Loads a binary made by the device's compiler part (a cubin, an HSACO, a
 * SPIR-V module, a host shared object), described by `kernels`. The runtime
 * copies the signatures (names and argument lists) and the plugin copies the
 * binary: both may be freed on return. Bytes that start with a bundle's
 * magic, given with num_kernels 0, are a bundle: hd_bundle_open, then
 * hd_module_load_bundle, with their errors.
 *
 * HD_ERROR_INVALID_ARGUMENT for a NULL binary, a kernel with no name, two
 * kernels of the same name, or num_args > 0 with args NULL; otherwise the
 * plugin's error (a host binary that dlopen rejects gives its dlerror). */
HADRON_RUNTIME_API hd_status hd_module_load_binary(hd_device *device, const void *binary,
                                                   uint64_t size,
                                                   const hd_kernel_signature *kernels,
                                                   uint32_t num_kernels, hd_module **out,
                                                   hd_error *err);

/* Compiles `ir` (textual hd IR, `size` bytes, not necessarily NUL-terminated)
 * for the device and loads the result. The device's plugin's compiler part
 * (its descriptor's compiler_library, next to the runtime part) is dlopen'ed
 * on first use and kept. `options` may be NULL; a NULL options->arch means
 * the device's own arch when the plugin lists it, else the plugin's default.
 *
 * HD_ERROR_UNSUPPORTED: the plugin has no compiler part, or its file is
 * missing or cannot be loaded (the message says which file and why), or it
 * was built for another ABI major. HD_ERROR_COMPILE: the compiler rejected
 * the IR (its diagnostics in the message).
 *
 * Goes through the kernel cache (see the top of this file): a hit needs no
 * compiler part. */
HADRON_RUNTIME_API hd_status hd_module_load_ir(hd_device *device, const char *ir, uint64_t size,
                                               const hd_compile_options *options,
                                               hd_module **out, hd_error *err);

/* A compilation result not loaded on any device: what `hadron compile` and
 * ahead-of-time tools write out. Owned by the caller; hd_compiled_destroy. */
typedef struct hd_compiled hd_compiled;

/* Compiles `ir` (textual hd IR, `size` bytes) with the compiler part of the
 * plugin named `plugin` ("host", "nvidia", ...), without a device: a plugin
 * whose driver is missing or which has no device still compiles. `options`
 * may be NULL; a NULL options->arch means the plugin's default arch, and a
 * non-NULL one must be among the plugin's archs. The compiler part is
 * loaded as for hd_module_load_ir.
 *
 * HD_ERROR_UNSUPPORTED: no plugin of that name was loaded (the message lists
 * the loaded plugins and, for that name, the load report's reasons or the
 * directories searched), or its compiler part is absent or unloadable.
 * HD_ERROR_INVALID_ARGUMENT: an arch the plugin does not list (the message
 * lists those it does), or a NULL argument. HD_ERROR_COMPILE: the compiler
 * rejected the IR (its diagnostics in the message).
 *
 * Goes through the kernel cache (see the top of this file) under the key
 * hd_module_load_ir computes for the same IR and options on a device of the
 * resolved arch: this is how kernels are compiled ahead of time. A hit needs
 * no compiler part; its result has the binary, the signatures, and the
 * assembly and LLVM IR when the compiler gave them. */
HADRON_RUNTIME_API hd_status hd_context_compile(hd_context *ctx, const char *plugin,
                                                const char *ir, uint64_t size,
                                                const hd_compile_options *options,
                                                hd_compiled **out, hd_error *err);

/* The binary, kernel signatures, assembly and LLVM IR of a compilation,
 * owned by `compiled` and valid until it is destroyed. NULL for NULL. */
HADRON_RUNTIME_API const hd_compiled_module *hd_compiled_get(const hd_compiled *compiled);

/* Frees the result (through the compiler part that made it). It need not
 * outlive the context it was compiled in, nor die before it. NULL is a
 * no-op. */
HADRON_RUNTIME_API void hd_compiled_destroy(hd_compiled *compiled);

/* The matrix instructions that the compiler part of `plugin` says `arch`
 * (NULL = the plugin's default arch) can issue for an hd.dot on an #hd.mma
 * layout, as `#hd.matrix_instr<{...}>` attribute texts (hd_compiler_table's
 * matrix_instructions). Sets *count and *out to an array of *count strings,
 * owned by the context and valid until it is destroyed. A target without
 * matrix instructions, or whose compiler part is older than plugin ABI 1.2,
 * gives 0.
 *
 * Goes through the kernel cache like hd_context_compile, keyed by the
 * plugin, its ABI version and the arch: an answer given once on a machine
 * with the compiler part serves one that has only the runtime part (which is
 * how the conformance suite names the same kernels there).
 *
 * HD_ERROR_UNSUPPORTED: no plugin of that name was loaded, or its compiler
 * part is absent or unloadable and nothing is cached.
 * HD_ERROR_INVALID_ARGUMENT: an arch the plugin does not list (the message
 * lists those it does), or a NULL argument. A compiler part that fails the
 * query gives its code and message. */
HADRON_RUNTIME_API hd_status hd_context_matrix_instructions(hd_context *ctx, const char *plugin,
                                                            const char *arch, uint32_t *count,
                                                            const char *const **out,
                                                            hd_error *err);

/*===----------------------------------------------------------------------===*
 * Bundles
 *
 * A bundle is one file holding the same hd module compiled for several
 * targets (a cubin or PTX, an HSACO, SPIR-V, a host shared object), each
 * with its kernel signatures; the runtime loads the entry made for the
 * selected device. docs/bundles.md describes the format. `hadron compile
 * --target nvidia:sm_90a,amd:gfx942,host -o k.hdb` writes one.
 *===----------------------------------------------------------------------===*/

typedef struct hd_bundle hd_bundle;

/* One entry of a bundle; strings and module owned by the bundle. */
typedef struct hd_bundle_entry {
  const char *plugin;                /* "nvidia" */
  const char *arch;                  /* "sm_90a" */
  const hd_compiled_module *module;  /* binary and signatures; no assembly or LLVM IR */
} hd_bundle_entry;

/* Compiles `ir` for every target of `targets`, a ','-separated list of
 * `plugin[:arch]` ("nvidia:sm_90a,amd:gfx942,intel:pvc,host"; a bare plugin
 * means its default arch), each as hd_context_compile does (so through the
 * kernel caches, and without a device), and makes a bundle of the results
 * in the order given. `options` may be NULL; its arch must be NULL (each
 * target names its own).
 *
 * HD_ERROR_INVALID_ARGUMENT: an empty or malformed list, a target named
 * twice, options->arch set. Otherwise the first failing target's error,
 * its message prefixed with the target ("amd:gfx942: ..."). */
HADRON_RUNTIME_API hd_status hd_context_compile_bundle(hd_context *ctx, const char *targets,
                                                       const char *ir, uint64_t size,
                                                       const hd_compile_options *options,
                                                       hd_bundle **out, hd_error *err);

/* Parses and checks a bundle's bytes (copied: `bytes` may be freed on
 * return). HD_ERROR_INVALID_ARGUMENT naming the defect: not a bundle (bad
 * magic), another format version (both named), truncated (the sizes
 * named), a failed checksum, an entry outside the file, an entry whose
 * fields do not add up, a target present twice. */
HADRON_RUNTIME_API hd_status hd_bundle_open(const void *bytes, uint64_t size, hd_bundle **out,
                                            hd_error *err);
/* hd_bundle_open of a file's contents; the messages start with the path.
 * HD_ERROR_INVALID_ARGUMENT also when the file cannot be read. */
HADRON_RUNTIME_API hd_status hd_bundle_open_file(const char *path, hd_bundle **out,
                                                 hd_error *err);

/* The bundle's file bytes, owned by the bundle; *size gets their count. */
HADRON_RUNTIME_API const void *hd_bundle_data(const hd_bundle *bundle, uint64_t *size);
/* Writes the bundle to `path` atomically (a temporary file beside it, then
 * rename): a reader sees the old file or the whole new one. */
HADRON_RUNTIME_API hd_status hd_bundle_write_file(const hd_bundle *bundle, const char *path,
                                                  hd_error *err);

HADRON_RUNTIME_API uint32_t hd_bundle_entry_count(const hd_bundle *bundle);
/* Entry `index`, in the order of the file. HD_ERROR_INVALID_ARGUMENT when
 * out of range. */
HADRON_RUNTIME_API hd_status hd_bundle_get_entry(const hd_bundle *bundle, uint32_t index,
                                                 hd_bundle_entry *out, hd_error *err);

/* NULL is a no-op. Modules loaded from the bundle stay valid. */
HADRON_RUNTIME_API void hd_bundle_destroy(hd_bundle *bundle);

/* Loads the entry of `bundle` made for `device`: the entry of the device's
 * plugin and arch; failing that, the first other entry of its plugin that
 * the device accepts (PTX for an older sm, a generic x86-64 level on the
 * host). An entry for the arch "native" counts only on the CPU that
 * compiled it.
 *
 * HD_ERROR_UNSUPPORTED when no entry fits; the message names the device,
 * its arch, the targets the bundle holds and why each candidate was
 * refused ("no entry of bundle for host:0 (arch native); it holds
 * nvidia:sm_90a, amd:gfx942"). hd_module_load_binary given a bundle's bytes
 * and no signatures does the same. */
HADRON_RUNTIME_API hd_status hd_module_load_bundle(hd_device *device, const hd_bundle *bundle,
                                                   hd_module **out, hd_error *err);

/* Unloads the module; its kernels become invalid. Modules that
 * hd_module_load_ir made of one kernel on one device share its binary, which
 * the last of them unloads. NULL is a no-op; returns HD_OK. */
HADRON_RUNTIME_API hd_status hd_module_destroy(hd_module *module, hd_error *err);

HADRON_RUNTIME_API uint32_t hd_module_kernel_count(const hd_module *module);
/* The kernel at `index` in the order the signatures were given, or NULL. */
HADRON_RUNTIME_API hd_kernel *hd_module_kernel_at(const hd_module *module, uint32_t index);
/* Finds a kernel by name. HD_ERROR_INVALID_ARGUMENT when there is none; the
 * message lists the names the module has. */
HADRON_RUNTIME_API hd_status hd_module_get_kernel(const hd_module *module, const char *name,
                                                  hd_kernel **out, hd_error *err);

/* The kernel's signature, owned by its module. */
HADRON_RUNTIME_API const hd_kernel_signature *hd_kernel_get_signature(const hd_kernel *kernel);

/*===----------------------------------------------------------------------===*
 * Launch and synchronisation
 *===----------------------------------------------------------------------===*/

/* Launches `kernel` on grid[0] x grid[1] x grid[2] CTAs.
 *
 * Checked before the plugin is called, each an HD_ERROR_INVALID_ARGUMENT
 * that names the kernel and the argument:
 *  - num_args equals the signature's, and each args[i].kind its kind
 *    ("argument 2 of vector_add is f32, got ptr");
 *  - integer values fit their kind (i1 is 0 or 1);
 *  - pointer arguments point inside a live buffer of the kernel's device
 *    (a NULL pointer is refused);
 *  - static + dynamic shared bytes fit the device's shared_bytes_per_cta, and
 *    num_warps * warp_size its max_threads_per_cta.
 * A grid with a zero dimension launches nothing and returns HD_OK (after
 * these checks).
 *
 * Asynchronous where the device allows (the host runs the grid before
 * returning); hd_synchronize waits. HD_ERROR_LAUNCH with the plugin's
 * message when the plugin fails. */
HADRON_RUNTIME_API hd_status hd_launch(hd_kernel *kernel, const uint32_t grid[3],
                                       const hd_arg *args, uint32_t num_args,
                                       uint64_t dynamic_shared_bytes, hd_error *err);

/* Waits until all work submitted to the device has finished. */
HADRON_RUNTIME_API hd_status hd_synchronize(hd_device *device, hd_error *err);

/*===----------------------------------------------------------------------===*
 * Events
 *===----------------------------------------------------------------------===*/

HADRON_RUNTIME_API hd_status hd_event_create(hd_device *device, hd_event **out, hd_error *err);
/* Records the point in the device's queue reached by the work submitted so
 * far. */
HADRON_RUNTIME_API hd_status hd_event_record(hd_event *event, hd_error *err);
/* Milliseconds from `start` to `end`, both recorded on one device; waits for
 * both to complete. HD_ERROR_INVALID_ARGUMENT when they belong to different
 * devices. */
HADRON_RUNTIME_API hd_status hd_event_elapsed_ms(hd_event *start, hd_event *end, float *ms,
                                                 hd_error *err);
/* NULL is a no-op. */
HADRON_RUNTIME_API hd_status hd_event_destroy(hd_event *event, hd_error *err);

#ifdef __cplusplus
}
#endif

#endif /* HADRON_RUNTIME_RUNTIME_H */
