//===- KernelCache.cpp - Compiled kernels on disk -------------------------===//

#include "KernelCache.h"

#include "ByteIO.h"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <mutex>

#include <dirent.h>
#include <dlfcn.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace hadron::runtime::cache {

// A new field of hd_compile_options that changes the code must join the key
// (computeKey's inputs) before this assertion is updated.
static_assert(sizeof(hd_compile_options) == 32,
              "hd_compile_options changed: add the new option to the kernel cache key");

//===----------------------------------------------------------------------===//
// SHA-256
//===----------------------------------------------------------------------===//

namespace {

constexpr uint32_t kRound[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4,
    0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe,
    0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f,
    0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7,
    0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc,
    0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
    0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116,
    0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
    0xc67178f2};

inline uint32_t rotr(uint32_t x, unsigned n) { return (x >> n) | (x << (32 - n)); }

} // namespace

Sha256::Sha256()
    : state_{0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab,
             0x5be0cd19} {}

void Sha256::block(const uint8_t *p) {
  uint32_t w[64];
  for (int i = 0; i < 16; ++i)
    w[i] = uint32_t(p[4 * i]) << 24 | uint32_t(p[4 * i + 1]) << 16 | uint32_t(p[4 * i + 2]) << 8 |
           uint32_t(p[4 * i + 3]);
  for (int i = 16; i < 64; ++i) {
    uint32_t s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >> 3);
    uint32_t s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >> 10);
    w[i] = w[i - 16] + s0 + w[i - 7] + s1;
  }
  uint32_t a = state_[0], b = state_[1], c = state_[2], d = state_[3], e = state_[4],
           f = state_[5], g = state_[6], h = state_[7];
  for (int i = 0; i < 64; ++i) {
    uint32_t t1 = h + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) +
                  kRound[i] + w[i];
    uint32_t t2 = (rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
    h = g;
    g = f;
    f = e;
    e = d + t1;
    d = c;
    c = b;
    b = a;
    a = t1 + t2;
  }
  state_[0] += a;
  state_[1] += b;
  state_[2] += c;
  state_[3] += d;
  state_[4] += e;
  state_[5] += f;
  state_[6] += g;
  state_[7] += h;
}

void Sha256::update(const void *data, size_t size) {
  const uint8_t *p = static_cast<const uint8_t *>(data);
  bytes_ += size;
  if (buffered_ > 0) {
    size_t take = std::min(size, sizeof(buffer_) - buffered_);
    std::memcpy(buffer_ + buffered_, p, take);
    buffered_ += take;
    p += take;
    size -= take;
    if (buffered_ < sizeof(buffer_))
      return;
    block(buffer_);
    buffered_ = 0;
  }
  for (; size >= 64; p += 64, size -= 64)
    block(p);
  std::memcpy(buffer_, p, size);
  buffered_ = size;
}

Digest Sha256::finish() {
  uint64_t bits = bytes_ * 8;
  const uint8_t one = 0x80, zero = 0;
  update(&one, 1);
  while (buffered_ != 56)
    update(&zero, 1);
  uint8_t length[8];
  for (int i = 0; i < 8; ++i)
    length[i] = static_cast<uint8_t>(bits >> (56 - 8 * i));
  update(length, 8);
  Digest out;
  for (int i = 0; i < 8; ++i)
    for (int j = 0; j < 4; ++j)
      out[4 * i + j] = static_cast<uint8_t>(state_[i] >> (24 - 8 * j));
  return out;
}

std::string toHex(const Digest &digest) {
  static const char kHex[] = "0123456789abcdef";
  std::string s;
  for (uint8_t b : digest) {
    s += kHex[b >> 4];
    s += kHex[b & 15];
  }
  return s;
}

bool isZero(const Digest &digest) {
  return std::all_of(digest.begin(), digest.end(), [](uint8_t b) { return b == 0; });
}

//===----------------------------------------------------------------------===//
// The key
//===----------------------------------------------------------------------===//

namespace {

using bytes::putU32;
using bytes::putU64;

void hashField(Sha256 &h, std::string_view field) {
  std::string size;
  putU64(size, field.size());
  h.update(size);
  h.update(field);
}

void hashU32(Sha256 &h, uint32_t v) {
  std::string s;
  putU32(s, v);
  h.update(s);
}

} // namespace

// "native" means the CPU that compiles, which is the CPU that runs: an entry
// made on another CPU model may use instructions this one lacks. The model
// name and the feature flags of the first processor say which CPU it is.
const std::string &hostCpuIdentity() {
  static const std::string identity = [] {
    std::ifstream in("/proc/cpuinfo");
    std::string line, model, flags;
    while (std::getline(in, line) && (model.empty() || flags.empty())) {
      auto value = [&] {
        size_t colon = line.find(':');
        return colon == std::string::npos ? std::string() : line.substr(colon + 1);
      };
      if (model.empty() && line.rfind("model name", 0) == 0)
        model = value();
      else if (flags.empty() && (line.rfind("flags", 0) == 0 || line.rfind("Features", 0) == 0))
        flags = value();
    }
    return model + "|" + flags;
  }();
  return identity;
}

Digest computeKey(const KeyInputs &inputs) {
  Sha256 h;
  hashField(h, "hadron-kernel-cache");
  hashU32(h, kFormatVersion);
  hashField(h, HADRON_VERSION);
  hashField(h, inputs.plugin);
  hashU32(h, inputs.abiMajor);
  hashU32(h, inputs.abiMinor);
  hashField(h, inputs.arch);
  hashField(h, inputs.arch == "native" ? std::string_view(hostCpuIdentity()) : "");
  hashU32(h, inputs.optLevel);
  hashField(h, inputs.ir);
  return h.finish();
}

Digest computeQueryKey(std::string_view query, std::string_view plugin, uint32_t abiMajor,
                       uint32_t abiMinor, std::string_view arch) {
  Sha256 h;
  hashField(h, "hadron-plugin-query");
  hashU32(h, kFormatVersion);
  hashField(h, query);
  hashField(h, plugin);
  hashU32(h, abiMajor);
  hashU32(h, abiMinor);
  hashField(h, arch);
  return h.finish();
}

//===----------------------------------------------------------------------===//
// Entries
//===----------------------------------------------------------------------===//

namespace {

constexpr char kMagic[8] = {'H', 'D', 'K', 'C', 'A', 'C', 'H', 'E'};
constexpr uint64_t kAbsent = ~uint64_t(0);

using bytes::damaged;
using bytes::Reader;

bool isKnownKind(uint32_t kind) { return kind <= HD_ARG_TENSOR_DESC; }

} // namespace

void encodeKernels(std::string &out, const std::vector<KernelRecord> &kernels) {
  putU32(out, static_cast<uint32_t>(kernels.size()));
  for (const KernelRecord &k : kernels) {
    putU32(out, static_cast<uint32_t>(k.name.size()));
    out += k.name;
    putU32(out, static_cast<uint32_t>(k.args.size()));
    for (hd_arg_kind a : k.args)
      putU32(out, static_cast<uint32_t>(a));
    putU32(out, k.numWarps);
    putU32(out, k.warpSize);
    putU64(out, k.staticSharedBytes);
    // Descriptor specs: a flag, then per argument rank, element bytes,
    // swizzle and the block.
    putU32(out, k.descs.empty() ? 0 : 1);
    for (const hd_tensor_desc_spec &d : k.descs) {
      putU32(out, d.rank);
      putU32(out, d.elem_bytes);
      putU32(out, d.swizzle_bytes);
      putU32(out, d.native);
      for (uint32_t b : d.block)
        putU32(out, b);
    }
  }
}

Expected<std::vector<KernelRecord>> decodeKernels(bytes::Reader &r) {
  std::vector<KernelRecord> kernels;
  uint32_t numKernels = r.u32();
  if (!r.ok())
    return damaged("truncated before the kernel count");
  for (uint32_t k = 0; k < numKernels && r.ok(); ++k) {
    KernelRecord rec;
    uint32_t nameSize = r.u32();
    rec.name = std::string(r.bytes(nameSize));
    if (!r.ok())
      return damaged("kernel " + std::to_string(k) + ": a name of " + std::to_string(nameSize) +
                    " bytes overruns the entry");
    uint32_t numArgs = r.u32();
    // Each argument takes 4 bytes: a count past the end is caught before
    // anything is allocated for it.
    if (!r.ok() || numArgs > r.remaining() / 4)
      return damaged("kernel " + std::to_string(k) + ": argument count " +
                    std::to_string(numArgs) + " overruns the entry");
    for (uint32_t a = 0; a < numArgs; ++a) {
      uint32_t kind = r.u32();
      if (!isKnownKind(kind))
        return damaged("kernel " + std::to_string(k) + ": unknown argument kind " +
                      std::to_string(kind));
      rec.args.push_back(static_cast<hd_arg_kind>(kind));
    }
    rec.numWarps = r.u32();
    rec.warpSize = r.u32();
    rec.staticSharedBytes = r.u64();
    uint32_t hasDescs = r.u32();
    if (r.ok() && hasDescs > 1)
      return damaged("kernel " + std::to_string(k) + ": descriptor flag " +
                    std::to_string(hasDescs) + " is neither 0 nor 1");
    if (hasDescs) {
      const uint64_t specBytes = 4 * (4 + HD_TENSOR_DESC_MAX_RANK);
      if (!r.ok() || numArgs > r.remaining() / specBytes)
        return damaged("kernel " + std::to_string(k) + ": descriptor specs overrun the entry");
      for (uint32_t a = 0; a < numArgs; ++a) {
        hd_tensor_desc_spec d{};
        d.rank = r.u32();
        d.elem_bytes = r.u32();
        d.swizzle_bytes = r.u32();
        d.native = r.u32();
        for (uint32_t &b : d.block)
          b = r.u32();
        if (d.rank > HD_TENSOR_DESC_MAX_RANK || (d.rank != 0) != (rec.args[a] == HD_ARG_TENSOR_DESC))
          return damaged("kernel " + std::to_string(k) + ": argument " + std::to_string(a) +
                        " has a descriptor spec of rank " + std::to_string(d.rank) +
                        " that does not match its kind");
        rec.descs.push_back(d);
      }
    }
    if (r.ok() && (rec.name.empty() || rec.name.find('\0') != std::string::npos))
      return damaged("kernel " + std::to_string(k) + " has no valid name");
    kernels.push_back(std::move(rec));
  }
  if (!r.ok())
    return damaged("kernel signatures overrun the entry");
  return kernels;
}

Entry Entry::fromCompiled(const hd_compiled_module &module, const Digest &compilerIdentity) {
  Entry e;
  e.compilerIdentity = compilerIdentity;
  e.binary.assign(static_cast<const char *>(module.binary), module.binary_size);
  for (uint32_t k = 0; k < module.num_kernels; ++k) {
    const hd_kernel_signature &sig = module.kernels[k];
    KernelRecord r;
    r.name = sig.name ? sig.name : "";
    r.args.assign(sig.args, sig.args + sig.num_args);
    r.numWarps = sig.num_warps;
    r.warpSize = sig.warp_size;
    r.staticSharedBytes = sig.static_shared_bytes;
    if (sig.descs)
      r.descs.assign(sig.descs, sig.descs + sig.num_args);
    e.kernels.push_back(std::move(r));
  }
  if (module.assembly)
    e.assembly = module.assembly;
  if (module.llvm_ir)
    e.llvmIR = module.llvm_ir;
  return e;
}

CompiledView::CompiledView(Entry entry) : entry_(std::move(entry)) {
  for (const KernelRecord &k : entry_.kernels)
    signatures_.push_back({k.name.c_str(), static_cast<uint32_t>(k.args.size()), k.args.data(),
                           k.numWarps, k.warpSize, k.staticSharedBytes,
                           k.descs.empty() ? nullptr : k.descs.data()});
  module_.binary = entry_.binary.data();
  module_.binary_size = entry_.binary.size();
  module_.num_kernels = static_cast<uint32_t>(signatures_.size());
  module_.kernels = signatures_.data();
  module_.assembly = entry_.assembly ? entry_.assembly->c_str() : nullptr;
  module_.llvm_ir = entry_.llvmIR ? entry_.llvmIR->c_str() : nullptr;
}

std::string encode(const Digest &key, const Entry &entry) {
  std::string out(kMagic, sizeof(kMagic));
  putU32(out, kFormatVersion);
  putU32(out, 0);
  out.append(reinterpret_cast<const char *>(key.data()), key.size());
  out.append(reinterpret_cast<const char *>(entry.compilerIdentity.data()),
             entry.compilerIdentity.size());
  putU64(out, entry.binary.size());
  putU64(out, entry.assembly ? entry.assembly->size() : kAbsent);
  putU64(out, entry.llvmIR ? entry.llvmIR->size() : kAbsent);
  encodeKernels(out, entry.kernels);
  out += entry.binary;
  if (entry.assembly)
    out += *entry.assembly;
  if (entry.llvmIR)
    out += *entry.llvmIR;
  Sha256 h;
  h.update(out);
  Digest sum = h.finish();
  out.append(reinterpret_cast<const char *>(sum.data()), sum.size());
  return out;
}

Expected<Entry> decode(const Digest &key, std::string_view bytes) {
  constexpr size_t kDigest = sizeof(Digest);
  if (bytes.size() < sizeof(kMagic) || std::memcmp(bytes.data(), kMagic, sizeof(kMagic)) != 0)
    return damaged("bad magic (not a Hadron kernel cache entry)");
  Reader header(bytes.substr(sizeof(kMagic)));
  uint32_t version = header.u32();
  if (!header.ok())
    return damaged("truncated header (" + std::to_string(bytes.size()) + " bytes)");
  if (version != kFormatVersion)
    return damaged("format version " + std::to_string(version) + ", this runtime reads " +
                  std::to_string(kFormatVersion));
  // The digest is checked before any size is believed.
  if (bytes.size() < sizeof(kMagic) + 8 + 2 * kDigest + kDigest)
    return damaged("truncated (" + std::to_string(bytes.size()) + " bytes)");
  std::string_view body = bytes.substr(0, bytes.size() - kDigest);
  Sha256 h;
  h.update(body);
  Digest sum = h.finish();
  if (std::memcmp(sum.data(), bytes.data() + body.size(), kDigest) != 0)
    return damaged("checksum mismatch (truncated or corrupted)");

  Reader r(body.substr(sizeof(kMagic) + 8));
  Entry e;
  std::string_view storedKey = r.bytes(kDigest);
  if (!r.ok() || std::memcmp(storedKey.data(), key.data(), kDigest) != 0)
    return damaged("entry was written for another key");
  std::string_view identity = r.bytes(kDigest);
  if (r.ok())
    std::memcpy(e.compilerIdentity.data(), identity.data(), kDigest);
  uint64_t binarySize = r.u64(), asmSize = r.u64(), irSize = r.u64();
  if (!r.ok())
    return damaged("truncated header");
  Expected<std::vector<KernelRecord>> kernels = decodeKernels(r);
  if (!kernels)
    return kernels.status();
  e.kernels = std::move(kernels).value();
  uint64_t payload = binarySize;
  for (uint64_t s : {asmSize, irSize})
    if (s != kAbsent)
      payload = payload + s < payload ? kAbsent : payload + s;
  if (binarySize == 0 || payload != r.remaining())
    return damaged("sizes do not add up: binary " + std::to_string(binarySize) + ", assembly " +
                  (asmSize == kAbsent ? "none" : std::to_string(asmSize)) + ", LLVM IR " +
                  (irSize == kAbsent ? "none" : std::to_string(irSize)) + ", " +
                  std::to_string(r.remaining()) + " bytes left");
  e.binary = std::string(r.bytes(binarySize));
  if (asmSize != kAbsent)
    e.assembly = std::string(r.bytes(asmSize));
  if (irSize != kAbsent)
    e.llvmIR = std::string(r.bytes(irSize));
  return e;
}

//===----------------------------------------------------------------------===//
// Files
//===----------------------------------------------------------------------===//

namespace {

std::string env(const char *name) {
  const char *v = std::getenv(name);
  return v ? v : "";
}

} // namespace

// mkdir -p; true when `path` is a directory afterwards. What it creates is
// the user's alone (0700), as the XDG spec asks of $XDG_CACHE_HOME; a
// directory that exists keeps its mode.
bool makeDirectories(const std::string &path) {
  struct stat st;
  if (::stat(path.c_str(), &st) == 0)
    return S_ISDIR(st.st_mode);
  size_t slash = path.find_last_of('/');
  if (slash != std::string::npos && slash > 0 && !makeDirectories(path.substr(0, slash)))
    return false;
  return ::mkdir(path.c_str(), 0700) == 0 || errno == EEXIST;
}

Expected<std::optional<std::string>> readFile(const std::string &path) {
  auto refuse = [&](const std::string &reason) {
    return Status(HD_ERROR_INVALID_ARGUMENT, path + ": " + reason);
  };
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    if (errno == ENOENT)
      return std::optional<std::string>();
    return refuse(std::string("cannot open: ") + std::strerror(errno));
  }
  struct stat st;
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    return refuse("not a regular file");
  }
  std::string out(static_cast<size_t>(st.st_size), '\0');
  size_t done = 0;
  while (done < out.size()) {
    ssize_t n = ::read(fd, &out[done], out.size() - done);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0) {
      ::close(fd);
      return refuse(n == 0 ? "shorter than its size while being read"
                           : std::string("cannot read: ") + std::strerror(errno));
    }
    done += static_cast<size_t>(n);
  }
  ::close(fd);
  return std::optional<std::string>(std::move(out));
}

namespace {

bool writeAll(int fd, std::string_view bytes) {
  size_t done = 0;
  while (done < bytes.size()) {
    ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      return false;
    done += static_cast<size_t>(n);
  }
  return true;
}

std::string directoryOf(const std::string &path) {
  size_t slash = path.rfind('/');
  return slash == std::string::npos ? "." : slash == 0 ? "/" : path.substr(0, slash);
}

void hashFileStat(Sha256 &h, const std::string &path) {
  struct stat st;
  if (::stat(path.c_str(), &st) != 0)
    return;
  hashField(h, path.substr(path.rfind('/') + 1));
  std::string s;
  putU64(s, static_cast<uint64_t>(st.st_size));
  putU64(s, static_cast<uint64_t>(st.st_mtim.tv_sec));
  putU64(s, static_cast<uint64_t>(st.st_mtim.tv_nsec));
  h.update(s);
}

} // namespace

std::string directory() {
  std::string dir = env("HADRON_CACHE_DIR");
  if (dir == "off")
    return "";
  if (!dir.empty())
    return dir;
  std::string xdg = env("XDG_CACHE_HOME");
  if (!xdg.empty())
    return xdg + "/hadron";
  std::string home = env("HOME");
  if (!home.empty())
    return home + "/.cache/hadron";
  return "";
}

std::string entryPath(const std::string &dir, const Digest &key) {
  return dir + "/kernels/" + toHex(key) + ".hdk";
}

Expected<std::optional<Entry>> load(const std::string &dir, const Digest &key) {
  std::string path = entryPath(dir, key);
  Expected<std::optional<std::string>> bytes = readFile(path);
  if (!bytes)
    return bytes.status();
  if (!*bytes)
    return std::optional<Entry>();
  Expected<Entry> entry = decode(key, **bytes);
  if (!entry)
    return Status(entry.status().code(), path + ": " + entry.status().message());
  return std::optional<Entry>(std::move(entry).value());
}

Status writeFileAtomically(const std::string &path, std::string_view bytes, unsigned mode) {
  // A name no other writer uses: concurrent writers of one path each rename
  // a complete file, and the last rename wins.
  static std::atomic<uint64_t> counter{0};
  std::string dir = directoryOf(path);
  std::string temp = dir + "/." + path.substr(dir.size() + 1) + "." +
                     std::to_string(::getpid()) + "." + std::to_string(counter++) + ".tmp";
  int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode);
  if (fd < 0)
    return Status(HD_ERROR_INVALID_ARGUMENT,
                  "cannot create " + temp + ": " + std::strerror(errno));
  bool ok = writeAll(fd, bytes);
  ok = ::close(fd) == 0 && ok;
  if (ok && ::rename(temp.c_str(), path.c_str()) == 0)
    return {};
  Status failed(HD_ERROR_INVALID_ARGUMENT, "cannot write " + path + ": " + std::strerror(errno));
  ::unlink(temp.c_str());
  return failed;
}

Status store(const std::string &dir, const Digest &key, const Entry &entry) {
  std::string kernels = dir + "/kernels";
  if (!makeDirectories(kernels))
    return Status(HD_ERROR_INVALID_ARGUMENT,
                  "cannot create " + kernels + ": " + std::strerror(errno));
  // Kernels may hold what their owner would not share: the files are the
  // user's alone, like the directories.
  return writeFileAtomically(entryPath(dir, key), encode(key, entry), 0600);
}

Digest compilerIdentity(const std::string &compilerPath) {
  static std::mutex mutex;
  static std::map<std::string, Digest> known;
  std::lock_guard<std::mutex> lock(mutex);
  auto found = known.find(compilerPath);
  if (found != known.end())
    return found->second;

  Digest identity{};
  struct stat st;
  if (!compilerPath.empty() && ::stat(compilerPath.c_str(), &st) == 0) {
    Sha256 h;
    hashFileStat(h, compilerPath);
    // The libraries built with the runtime (libhadron-core holds the
    // lowering every compiler part shares), found next to it.
    Dl_info info;
    if (::dladdr(reinterpret_cast<void *>(&compilerIdentity), &info) && info.dli_fname &&
        std::strchr(info.dli_fname, '/')) {
      std::string libDir = directoryOf(info.dli_fname);
      std::vector<std::string> libs;
      if (DIR *d = ::opendir(libDir.c_str())) {
        while (dirent *e = ::readdir(d)) {
          std::string name = e->d_name;
          if (name.rfind("libhadron-", 0) == 0 && name.find(".so") != std::string::npos)
            libs.push_back(libDir + "/" + name);
        }
        ::closedir(d);
      }
      std::sort(libs.begin(), libs.end());
      for (const std::string &lib : libs)
        hashFileStat(h, lib);
    }
    identity = h.finish();
    // All zero means "no compiler"; a real digest that happens to be zero
    // is not worth a branch elsewhere.
    identity[0] |= isZero(identity) ? 1 : 0;
  }
  known.emplace(compilerPath, identity);
  return identity;
}

} // namespace hadron::runtime::cache
