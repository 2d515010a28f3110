//===- KernelCache.h - Compiled kernels on disk, keyed by what made them -*- C++ -*-===//
//
// The on-disk kernel cache lets hd_module_load_ir and hd_context_compile skip
// the compiler part: a kernel compiled once (on this machine, or ahead of
// time on one that has the compiler) is loaded from a file holding its binary
// and signatures. This is what lets a machine with only the runtime and the
// plugins' runtime parts run kernels whose IR it cannot compile.
//
// The key is a SHA-256 over everything that changes the code: a cache format
// version, Hadron's release version (HADRON_VERSION, the project's, which
// the runtime and every compiler part of one build share), the plugin's
// name and ABI version, the resolved arch (plus the
// CPU's identity when the arch is "native", which means "this machine"), the
// opt level and the IR bytes. It deliberately leaves out the compiler's own
// build, because the machine that loads the entry may have no compiler to
// fingerprint. Instead each entry records the identity of the compiler build
// that made it (compilerIdentity below), and the lookup policy in Module.cpp
// recompiles an entry from another build whenever a compiler can be loaded:
// a rebuilt compiler never runs stale code, and a runtime-only machine still
// uses what was compiled for it.
//
// An entry file is
//
//   "HDKCACHE" | u32 format version | u32 0 | key[32] | compiler identity[32]
//   | u64 binary size | u64 assembly size | u64 LLVM IR size (~0 = absent)
//   | u32 kernel count | kernels | binary | assembly | LLVM IR | SHA-256[32]
//
// a kernel being u32 name size | name | u32 arg count | u32 kinds... |
// u32 num_warps | u32 warp_size | u64 static_shared_bytes, all little-endian.
// The trailing digest covers every byte before it, so a truncated or
// bit-flipped file is refused like one with a bad magic, another version,
// another key or sizes that do not add up to the file's size.
//
//===----------------------------------------------------------------------===//
#ifndef HADRON_RUNTIME_KERNELCACHE_H
#define HADRON_RUNTIME_KERNELCACHE_H

#include "ByteIO.h"

#include "hadron/plugin/plugin.h"
#include "hadron/runtime/Status.hpp"

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace hadron::runtime::cache {

/// Bumped whenever the entry layout or the key's inputs change; entries of
/// another version are misses.
constexpr uint32_t kFormatVersion = 3;

using Digest = std::array<uint8_t, 32>;

/// SHA-256 (FIPS 180-4), incremental.
class Sha256 {
public:
  Sha256();
  void update(const void *data, size_t size);
  void update(std::string_view s) { update(s.data(), s.size()); }
  /// Pads and returns the digest; the object must not be updated afterwards.
  Digest finish();

private:
  void block(const uint8_t *p);
  uint32_t state_[8];
  uint8_t buffer_[64];
  size_t buffered_ = 0;
  uint64_t bytes_ = 0;
};

std::string toHex(const Digest &digest);

/// What a compilation depends on. `arch` is the resolved arch: the one the
/// compiler is told, or the plugin's default when it is told none.
struct KeyInputs {
  std::string_view plugin;
  uint32_t abiMajor = 0, abiMinor = 0;
  std::string_view arch;
  uint32_t optLevel = 0;
  std::string_view ir;
};

/// The entry's key. Length-prefixes every field so that no two inputs
/// concatenate to the same bytes.
Digest computeKey(const KeyInputs &inputs);

/// The key of a plugin's answer about an arch that is not a compilation
/// (`query`: "matrix-instructions"). Hashed under its own domain string, so
/// no kernel's key equals it.
Digest computeQueryKey(std::string_view query, std::string_view plugin, uint32_t abiMajor,
                       uint32_t abiMinor, std::string_view arch);

/// What "native" means here: this CPU's model name and feature flags. An
/// entry or bundle made for "native" on another CPU may use instructions
/// this one lacks.
const std::string &hostCpuIdentity();

struct KernelRecord {
  std::string name;
  std::vector<hd_arg_kind> args;
  uint32_t numWarps = 0;
  uint32_t warpSize = 0;
  uint64_t staticSharedBytes = 0;
  /// One per argument when the kernel takes a tensor descriptor, else empty.
  std::vector<hd_tensor_desc_spec> descs;
};

/// u32 count | kernels, each as in the entry format above.
void encodeKernels(std::string &out, const std::vector<KernelRecord> &kernels);
/// Reads what encodeKernels wrote. Fails (HD_ERROR_INVALID_ARGUMENT) when a
/// size overruns the reader's bytes, an argument kind is unknown or a name
/// is empty.
Expected<std::vector<KernelRecord>> decodeKernels(bytes::Reader &r);

/// A compiled module as the cache holds it: owned copies of everything an
/// hd_compiled_module points to.
struct Entry {
  Digest compilerIdentity{}; ///< All zero: unknown.
  std::string binary;
  std::vector<KernelRecord> kernels;
  std::optional<std::string> assembly;
  std::optional<std::string> llvmIR;

  /// Copies a compiler's result.
  static Entry fromCompiled(const hd_compiled_module &module, const Digest &compilerIdentity);
};

/// An Entry with the hd_compiled_module view onto it that the C API hands
/// out; the view's pointers stay valid while the object lives.
class CompiledView {
public:
  explicit CompiledView(Entry entry);
  CompiledView(const CompiledView &) = delete;
  CompiledView &operator=(const CompiledView &) = delete;
  const hd_compiled_module &module() const { return module_; }

private:
  Entry entry_;
  std::vector<hd_kernel_signature> signatures_;
  hd_compiled_module module_{};
};

/// The entry's file bytes.
std::string encode(const Digest &key, const Entry &entry);

/// Parses file bytes. Fails (HD_ERROR_INVALID_ARGUMENT) with what is wrong
/// ("bad magic", "format version 7, this runtime reads 1", ...).
Expected<Entry> decode(const Digest &key, std::string_view bytes);

/// The cache directory from the environment: HADRON_CACHE_DIR, else
/// $XDG_CACHE_HOME/hadron, else $HOME/.cache/hadron. Empty when
/// HADRON_CACHE_DIR is "off" or no directory can be named.
std::string directory();

/// `<dir>/kernels/<hex key>.hdk`.
std::string entryPath(const std::string &dir, const Digest &key);

/// Reads and decodes the entry of `key`: nullopt when there is none, an
/// error ("<path>: checksum mismatch ...") when the file is unusable.
Expected<std::optional<Entry>> load(const std::string &dir, const Digest &key);

/// Reads a whole regular file: nullopt when it does not exist, an error
/// ("<path>: not a regular file") when it cannot be read.
Expected<std::optional<std::string>> readFile(const std::string &path);

/// Writes `bytes` to `path` through a temporary file in the same directory
/// and a rename, so that a reader (another thread or process) sees the old
/// file or the whole new one, never part of it. `mode` is the new file's.
Status writeFileAtomically(const std::string &path, std::string_view bytes, unsigned mode);

/// mkdir -p, creating what is missing with mode 0700. True when `path` is a
/// directory afterwards.
bool makeDirectories(const std::string &path);

/// Writes the entry atomically (a temporary file in the same directory, then
/// rename), creating the directories (mode 0700) and the file (0600).
/// Fails when the directory is not writable; the cache is then simply not
/// used.
Status store(const std::string &dir, const Digest &key, const Entry &entry);

/// The identity of the compiler build a plugin would compile with: the size
/// and modification time of the compiler part and of the libhadron-*.so
/// libraries next to libhadron-runtime.so (libhadron-core, which holds the
/// shared lowering, is one of them). All zero when the compiler part file
/// does not exist (nothing could be compiled here). Computed once per path
/// and process.
Digest compilerIdentity(const std::string &compilerPath);

/// True when every byte is zero.
bool isZero(const Digest &digest);

} // namespace hadron::runtime::cache

#endif // HADRON_RUNTIME_KERNELCACHE_H
