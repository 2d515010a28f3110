//===- ByteIO.h - Little-endian fields for the runtime's file formats -*- C++ -*-===//
//
// The kernel cache's entries and the bundles are byte strings of
// little-endian integers and length-prefixed strings. Writing appends to a
// std::string; reading goes through a Reader whose every read is
// bounds-checked, so that a damaged file can only make it fail, never read
// past the end or allocate what the sizes claim before they are believed;
// the decoders then fail with damaged(what is wrong).
//
//===----------------------------------------------------------------------===//
#ifndef HADRON_RUNTIME_BYTEIO_H
#define HADRON_RUNTIME_BYTEIO_H

#include "hadron/runtime/Status.hpp"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace hadron::runtime::bytes {

inline void putU32(std::string &out, uint32_t v) {
  for (int i = 0; i < 4; ++i)
    out += static_cast<char>(v >> (8 * i));
}

inline void putU64(std::string &out, uint64_t v) {
  for (int i = 0; i < 8; ++i)
    out += static_cast<char>(v >> (8 * i));
}

/// Overwrites the u64 at `at` (a size known only once what follows it is
/// written).
inline void setU64(std::string &out, size_t at, uint64_t v) {
  for (int i = 0; i < 8; ++i)
    out[at + i] = static_cast<char>(v >> (8 * i));
}

/// Bytes that are not what they claim to be: a damaged or foreign file.
inline Status damaged(std::string reason) {
  return Status(HD_ERROR_INVALID_ARGUMENT, std::move(reason));
}

/// Reads fields in order; a read past the end fails the reader, and every
/// later read of a failed reader returns zero or an empty view.
class Reader {
public:
  explicit Reader(std::string_view bytes) : bytes_(bytes) {}
  bool ok() const { return ok_; }
  size_t position() const { return pos_; }
  size_t remaining() const { return bytes_.size() - pos_; }

  uint64_t u(unsigned size) {
    if (!take(size))
      return 0;
    uint64_t v = 0;
    for (unsigned i = 0; i < size; ++i)
      v |= uint64_t(static_cast<uint8_t>(bytes_[pos_ - size + i])) << (8 * i);
    return v;
  }
  uint32_t u32() { return static_cast<uint32_t>(u(4)); }
  uint64_t u64() { return u(8); }
  std::string_view bytes(uint64_t size) {
    if (size > remaining()) {
      ok_ = false;
      return {};
    }
    if (!take(static_cast<size_t>(size)))
      return {};
    return bytes_.substr(pos_ - size, size);
  }

private:
  bool take(size_t size) {
    if (!ok_ || size > remaining())
      return ok_ = false;
    pos_ += size;
    return true;
  }
  std::string_view bytes_;
  size_t pos_ = 0;
  bool ok_ = true;
};

} // namespace hadron::runtime::bytes

#endif // HADRON_RUNTIME_BYTEIO_H
