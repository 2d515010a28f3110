//===- HostModule.cpp - Loading a host binary from memory -----------------===//
//
// A host binary is an ELF shared object. It is written to an anonymous
// memory file (memfd_create) and dlopen'ed as /proc/self/fd/N, so nothing
// touches the disk. The descriptor stays open while the module is loaded:
// glibc recognises an already-loaded library by its path, and a reused
// descriptor number would otherwise hand back an older module. Where memfd or
// /proc is unavailable, the bytes go to a mkstemp file in $TMPDIR that is
// unlinked right after dlopen.
//
//===----------------------------------------------------------------------===//

#include "HostModel.h"
#include "HostRuntime.h"

#include "HostKernelABI.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <new>
#include <string>

#include <dlfcn.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

namespace hadron::host {

namespace {

struct HostModule : hd_plugin_module {
  void *handle = nullptr;
  int fd = -1; // the memfd, kept open while loaded; -1 for the file fallback
};

bool writeAll(int fd, const void *data, uint64_t size) {
  const char *p = static_cast<const char *>(data);
  while (size > 0) {
    ssize_t n = ::write(fd, p, size);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      return false;
    p += n;
    size -= static_cast<uint64_t>(n);
  }
  return true;
}

std::string fdPath(int fd) { return "/proc/self/fd/" + std::to_string(fd); }

// Whether a library is already loaded under `path`.
bool pathInUse(const std::string &path) {
  void *h = ::dlopen(path.c_str(), RTLD_NOLOAD | RTLD_LAZY);
  if (h)
    ::dlclose(h);
  return h != nullptr;
}

// Whether this CPU runs code compiled for `arch` (HostKernelABI.h); if not,
// `why` says so.
bool cpuRuns(const char *arch, std::string &why) {
  std::string a(arch, strnlen(arch, 32));
  const ArchModel *model = findArch(a);
  if (!model) {
    why = "it was compiled for arch '" + a + "', which this runtime does not know";
    return false;
  }
  if (model->level <= 1) // native, or the baseline every x86-64 has
    return true;
  bool runs;
#if defined(__x86_64__) && (defined(__clang__) || __GNUC__ >= 12)
  __builtin_cpu_init();
  // __builtin_cpu_supports takes only a literal.
  switch (model->level) {
  case 2: runs = __builtin_cpu_supports("x86-64-v2"); break;
  case 3: runs = __builtin_cpu_supports("x86-64-v3"); break;
  default: runs = __builtin_cpu_supports("x86-64-v4"); break;
  }
#else
  why = "it was compiled for arch '" + a + "', which this runtime cannot check";
  return false;
#endif
  if (!runs)
    why = "it was compiled for " + a + " and this CPU (" + cpuModelName() +
          ") lacks instructions of that level; compile for 'native' or a lower level";
  return runs;
}

hd_status checkElf(const void *binary, uint64_t size, hd_error *err) {
  const unsigned char *b = static_cast<const unsigned char *>(binary);
  if (size < 64 || std::memcmp(b, "\x7f" "ELF", 4) != 0)
    return fail(err, HD_ERROR_INVALID_ARGUMENT,
                "host binary of %llu bytes is not an ELF file (it must be a shared object made "
                "by the host compiler part)",
                static_cast<unsigned long long>(size));
  uint16_t type;
  std::memcpy(&type, b + 16, sizeof(type));
  if (type != 3 /* ET_DYN */)
    return fail(err, HD_ERROR_INVALID_ARGUMENT,
                "host binary is an ELF file of type %u, not a shared object (ET_DYN = 3)", type);
  return HD_OK;
}

hd_status loadFromMemfd(const void *binary, uint64_t size, HostModule &m, std::string &dlerr) {
  int fd = ::memfd_create("hadron-host-module", MFD_CLOEXEC);
  if (fd < 0)
    return HD_ERROR_UNSUPPORTED;
  if (!writeAll(fd, binary, size) || ::access(fdPath(fd).c_str(), R_OK) != 0) {
    ::close(fd);
    return HD_ERROR_UNSUPPORTED;
  }
  // A descriptor number whose path names a library still loaded (one that
  // could not be unloaded) is moved to a fresh number.
  for (int tries = 0; pathInUse(fdPath(fd)) && tries < 64; ++tries) {
    int moved = ::fcntl(fd, F_DUPFD_CLOEXEC, fd + 1);
    ::close(fd);
    if (moved < 0)
      return HD_ERROR_UNSUPPORTED;
    fd = moved;
  }
  m.handle = ::dlopen(fdPath(fd).c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!m.handle) {
    const char *e = ::dlerror();
    dlerr = e ? e : "unknown dlopen error";
    ::close(fd);
    return HD_ERROR_INVALID_ARGUMENT;
  }
  m.fd = fd;
  return HD_OK;
}

hd_status loadFromTempFile(const void *binary, uint64_t size, HostModule &m, std::string &dlerr) {
  const char *tmp = std::getenv("TMPDIR");
  std::string path = std::string(tmp && *tmp ? tmp : "/tmp") + "/hadron-host-XXXXXX.so";
  int fd = ::mkstemps(path.data(), 3);
  if (fd < 0) {
    dlerr = "cannot create a temporary file " + path + ": " + std::strerror(errno);
    return HD_ERROR_INTERNAL;
  }
  bool written = writeAll(fd, binary, size);
  ::close(fd);
  if (!written) {
    dlerr = "cannot write " + path + ": " + std::strerror(errno);
    ::unlink(path.c_str());
    return HD_ERROR_INTERNAL;
  }
  m.handle = ::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!m.handle) {
    const char *e = ::dlerror();
    dlerr = e ? e : "unknown dlopen error";
  }
  ::unlink(path.c_str());
  return m.handle ? HD_OK : HD_ERROR_INVALID_ARGUMENT;
}

// Loads and unloads one at a time. glibc serialises dlopen and dlclose
// anyway; doing it here also orders this file's writes into a module (the
// assert handler) before a later module mapped at the same address is
// written, which ThreadSanitizer cannot see through the loader's own lock.
std::mutex &loaderMutex() {
  static std::mutex m;
  return m;
}

} // namespace

hd_status moduleLoad(const void *binary, uint64_t size, hd_plugin_module **out, hd_error *err) {
  if (hd_status s = checkElf(binary, size, err))
    return s;
  auto *m = new (std::nothrow) HostModule;
  if (!m)
    return fail(err, HD_ERROR_OUT_OF_MEMORY, "module_load: out of host memory");
  std::string dlerr;
  std::unique_lock<std::mutex> lock(loaderMutex());
  hd_status s = loadFromMemfd(binary, size, *m, dlerr);
  if (s == HD_ERROR_UNSUPPORTED)
    s = loadFromTempFile(binary, size, *m, dlerr);
  if (s != HD_OK) {
    delete m;
    return fail(err, s, "cannot load host binary of %llu bytes: %s",
                static_cast<unsigned long long>(size), dlerr.c_str());
  }
  // A binary for a generic level runs only where the CPU has that level.
  if (const char *arch = static_cast<const char *>(::dlsym(m->handle, HD_HOST_ARCH_SYMBOL))) {
    std::string why;
    if (!cpuRuns(arch, why)) {
      lock.unlock();
      moduleUnload(m, nullptr);
      return fail(err, HD_ERROR_UNSUPPORTED, "cannot load host binary of %llu bytes: %s",
                  static_cast<unsigned long long>(size), why.c_str());
    }
  }
  // A failing hd.assert in this binary ends its CTA through the runtime's
  // handler instead of aborting the process (HostKernelABI.h).
  if (void *slot = ::dlsym(m->handle, HD_HOST_ASSERT_HANDLER_SYMBOL))
    *static_cast<hd_host_assert_handler_fn *>(slot) = &assertFailed;
  *out = m;
  return HD_OK;
}

hd_status moduleUnload(hd_plugin_module *base, hd_error *err) {
  auto *module = static_cast<HostModule *>(base);
  std::lock_guard<std::mutex> lock(loaderMutex());
  int rc = ::dlclose(module->handle);
  const char *e = rc != 0 ? ::dlerror() : nullptr;
  std::string why = e ? e : "";
  if (module->fd >= 0)
    ::close(module->fd);
  delete module;
  if (rc != 0)
    return fail(err, HD_ERROR_INTERNAL, "dlclose of host module failed: %s", why.c_str());
  return HD_OK;
}

void *moduleHandle(hd_plugin_module *module) { return static_cast<HostModule *>(module)->handle; }

} // namespace hadron::host
