//===- Bundle.h - One kernel module for several targets in one file -*- C++ -*-===//
//
// A bundle holds the binaries of one hd module compiled for several targets
// (plugin and arch: nvidia:sm_90a, amd:gfx942, intel:pvc, host:x86-64-v3),
// each with the kernel signatures its compiler gave, so that a program ships
// one file and the runtime loads the entry of whatever device it selects.
// docs/bundles.md describes the format for readers outside Hadron:
//
//   header  "HDBUNDLE" | u32 format version | u32 entry count N
//           | u64 file size | u64 reserved (0)                         32 bytes
//   table   N x (u64 offset | u64 size) of each entry record          16 N bytes
//   records u32 size | plugin | u32 size | arch | u32 size | cpu
//           | kernels (as in a kernel cache entry, KernelCache.h)
//           | u64 binary size | binary
//   trailer SHA-256 of every byte before it                            32 bytes
//
// all little-endian. `cpu` is, for the arch "native", the identity of the
// CPU that compiled it (model and feature flags); empty otherwise. Records
// lie between the table and the trailer, and a record's fields fill it
// exactly. Decoding checks the magic, the version, the file size, the
// checksum, then each entry's bounds and fields, and says which failed.
//
//===----------------------------------------------------------------------===//
#ifndef HADRON_RUNTIME_BUNDLE_H
#define HADRON_RUNTIME_BUNDLE_H

#include "KernelCache.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace hadron::runtime::bundle {

/// Bumped whenever the layout changes; a bundle of another version is
/// refused with both versions named.
constexpr uint32_t kFormatVersion = 2;
constexpr size_t kHeaderSize = 32;
constexpr size_t kTableEntrySize = 16;
constexpr size_t kTrailerSize = 32;

struct Entry {
  std::string plugin; ///< "nvidia"
  std::string arch;   ///< "sm_90a"
  std::string cpu;    ///< For arch "native": the compiling CPU's identity.
  std::vector<cache::KernelRecord> kernels;
  std::string binary;

  /// "nvidia:sm_90a"
  std::string target() const { return plugin + ":" + arch; }
};

/// Whether `bytes` start with the bundle magic (a bundle, possibly damaged,
/// rather than a target binary).
bool looksLikeBundle(const void *bytes, uint64_t size);

/// The file's bytes.
std::string encode(const std::vector<Entry> &entries);

/// Parses and checks a bundle. Fails (HD_ERROR_INVALID_ARGUMENT) with what
/// is wrong ("truncated: the header says 4096 bytes, there are 1000").
Expected<std::vector<Entry>> decode(std::string_view bytes);

} // namespace hadron::runtime::bundle

#endif // HADRON_RUNTIME_BUNDLE_H
