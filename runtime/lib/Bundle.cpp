//===- Bundle.cpp - The bundle file format --------------------------------===//

#include "Bundle.h"

#include "ByteIO.h"

#include <cstring>
#include <set>

namespace hadron::runtime::bundle {

namespace {

constexpr char kMagic[8] = {'H', 'D', 'B', 'U', 'N', 'D', 'L', 'E'};

using bytes::damaged;
using bytes::putU32;
using bytes::putU64;

void putString(std::string &out, std::string_view s) {
  putU32(out, static_cast<uint32_t>(s.size()));
  out += s;
}

std::string encodeRecord(const Entry &e) {
  std::string out;
  putString(out, e.plugin);
  putString(out, e.arch);
  putString(out, e.cpu);
  cache::encodeKernels(out, e.kernels);
  putU64(out, e.binary.size());
  out += e.binary;
  return out;
}

// Parses the record of entry `index`, which must fill `bytes` exactly.
Expected<Entry> decodeRecord(std::string_view bytes, uint32_t index) {
  auto refuse = [&](const std::string &reason) {
    return damaged("entry " + std::to_string(index) + ": " + reason);
  };
  bytes::Reader r(bytes);
  Entry e;
  for (std::string *field : {&e.plugin, &e.arch, &e.cpu}) {
    uint32_t size = r.u32();
    *field = std::string(r.bytes(size));
    if (!r.ok())
      return refuse("a name of " + std::to_string(size) + " bytes overruns the entry's " +
                    std::to_string(bytes.size()) + " bytes");
  }
  if (e.plugin.empty() || e.arch.empty())
    return refuse("no plugin or no arch named");
  Expected<std::vector<cache::KernelRecord>> kernels = cache::decodeKernels(r);
  if (!kernels)
    return refuse(e.target() + ": " + kernels.status().message());
  e.kernels = std::move(kernels).value();
  uint64_t binarySize = r.u64();
  if (!r.ok() || binarySize == 0 || binarySize != r.remaining())
    return refuse(e.target() + ": binary of " + std::to_string(binarySize) + " bytes, " +
                  std::to_string(r.remaining()) + " bytes left in the entry");
  e.binary = std::string(r.bytes(binarySize));
  return e;
}

} // namespace

bool looksLikeBundle(const void *bytes, uint64_t size) {
  return bytes && size >= sizeof(kMagic) && std::memcmp(bytes, kMagic, sizeof(kMagic)) == 0;
}

std::string encode(const std::vector<Entry> &entries) {
  std::string out(kMagic, sizeof(kMagic));
  putU32(out, kFormatVersion);
  putU32(out, static_cast<uint32_t>(entries.size()));
  const size_t sizeAt = out.size();
  putU64(out, 0);
  putU64(out, 0);
  const size_t tableAt = out.size();
  out.append(entries.size() * kTableEntrySize, '\0');
  for (size_t i = 0; i < entries.size(); ++i) {
    std::string record = encodeRecord(entries[i]);
    bytes::setU64(out, tableAt + i * kTableEntrySize, out.size());
    bytes::setU64(out, tableAt + i * kTableEntrySize + 8, record.size());
    out += record;
  }
  bytes::setU64(out, sizeAt, out.size() + kTrailerSize);
  cache::Sha256 h;
  h.update(out);
  cache::Digest sum = h.finish();
  out.append(reinterpret_cast<const char *>(sum.data()), sum.size());
  return out;
}

Expected<std::vector<Entry>> decode(std::string_view bytes) {
  if (!looksLikeBundle(bytes.data(), bytes.size()))
    return damaged("not a Hadron bundle (bad magic)");
  if (bytes.size() < kHeaderSize + kTrailerSize)
    return damaged("truncated: " + std::to_string(bytes.size()) + " bytes, a bundle has at least " +
                  std::to_string(kHeaderSize + kTrailerSize));
  bytes::Reader header(bytes.substr(sizeof(kMagic), kHeaderSize - sizeof(kMagic)));
  uint32_t version = header.u32();
  uint32_t count = header.u32();
  uint64_t fileSize = header.u64();
  if (version != kFormatVersion)
    return damaged("format version " + std::to_string(version) + ", this runtime reads " +
                  std::to_string(kFormatVersion));
  if (fileSize != bytes.size())
    return damaged((fileSize > bytes.size() ? "truncated: " : "trailing bytes: ") +
                  std::string("the header says ") + std::to_string(fileSize) +
                  " bytes, there are " + std::to_string(bytes.size()));
  const uint64_t recordsEnd = bytes.size() - kTrailerSize;
  const uint64_t tableEnd = kHeaderSize + uint64_t(count) * kTableEntrySize;
  if (count == 0)
    return damaged("holds no entries");
  if (tableEnd > recordsEnd)
    return damaged("an entry table of " + std::to_string(count) + " entries overruns the " +
                  std::to_string(bytes.size()) + "-byte file");
  cache::Sha256 h;
  h.update(bytes.substr(0, recordsEnd));
  cache::Digest sum = h.finish();
  if (std::memcmp(sum.data(), bytes.data() + recordsEnd, kTrailerSize) != 0)
    return damaged("checksum mismatch (the file is corrupted)");

  bytes::Reader table(bytes.substr(kHeaderSize, tableEnd - kHeaderSize));
  std::vector<Entry> entries;
  std::set<std::string> targets;
  for (uint32_t i = 0; i < count; ++i) {
    uint64_t offset = table.u64(), size = table.u64();
    if (offset < tableEnd || offset > recordsEnd || size > recordsEnd - offset)
      return damaged("entry " + std::to_string(i) + " (offset " + std::to_string(offset) +
                    ", size " + std::to_string(size) + ") lies outside the records, bytes " +
                    std::to_string(tableEnd) + " to " + std::to_string(recordsEnd));
    Expected<Entry> e = decodeRecord(bytes.substr(offset, size), i);
    if (!e)
      return e.status();
    if (!targets.insert(e->target()).second)
      return damaged("entry " + std::to_string(i) + ": " + e->target() + " appears twice");
    entries.push_back(std::move(*e));
  }
  return entries;
}

} // namespace hadron::runtime::bundle
