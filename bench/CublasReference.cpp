//===- CublasReference.cpp - cuBLAS's bf16 GEMM, dlopen'ed ----------------===//

#include "CublasReference.h"

#include <dlfcn.h>
#include <link.h>

namespace hadron::bench {

// The few cuBLAS entry points and enum values used (cublas_api.h,
// library_types.h); handles are opaque pointers, statuses ints (0: success).
struct CublasReference::Api {
  int (*create)(void **) = nullptr;
  int (*destroy)(void *) = nullptr;
  int (*getVersion)(void *, int *) = nullptr;
  int (*gemmEx)(void *, int, int, int, int, int, const void *, const void *, int, int,
                const void *, int, int, const void *, void *, int, int, int, int) = nullptr;
};

namespace {
constexpr int kOpN = 0;            // CUBLAS_OP_N
constexpr int kR16BF = 14;         // CUDA_R_16BF
constexpr int kCompute32F = 68;    // CUBLAS_COMPUTE_32F
constexpr int kGemmDefault = -1;   // CUBLAS_GEMM_DEFAULT

template <typename F> bool resolve(void *lib, F &fn, const char *name, std::string &why) {
  fn = reinterpret_cast<F>(::dlsym(lib, name));
  if (!fn)
    why += std::string("it has no ") + name + " (not cuBLAS?)";
  return fn != nullptr;
}

/// Every entry point the reference calls, or false with `why` naming the first missing.
bool resolveAll(void *lib, CublasReference::Api &a, std::string &why) {
  return resolve(lib, a.create, "cublasCreate_v2", why) &&
         resolve(lib, a.destroy, "cublasDestroy_v2", why) &&
         resolve(lib, a.getVersion, "cublasGetVersion_v2", why) &&
         resolve(lib, a.gemmEx, "cublasGemmEx", why);
}

/// dlopen of `path`, or of libcublas.so.13 then .12 by name; null with `why`.
void *openLibrary(const std::string &path, std::string &why) {
  void *lib = nullptr;
  std::string tried;
  for (const char *name : {"libcublas.so.13", "libcublas.so.12"}) {
    const std::string candidate = path.empty() ? name : path;
    lib = ::dlopen(candidate.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (lib)
      break;
    const char *e = ::dlerror();
    tried += (tried.empty() ? "" : "; ") + candidate + ": " + (e ? e : "dlopen failed");
    if (!path.empty())
      break;
  }
  if (!lib)
    why = "cuBLAS not loaded (" + tried + ")";
  return lib;
}
} // namespace

bool CublasReference::loadable(const std::string &path, std::string &why) {
  void *lib = openLibrary(path, why);
  if (!lib)
    return false;
  why = path + ": ";
  Api a;
  const bool ok = resolveAll(lib, a, why);
  ::dlclose(lib);
  if (ok)
    why.clear();
  return ok;
}

std::unique_ptr<CublasReference> CublasReference::open(const std::string &path,
                                                       std::string &why) {
  void *lib = openLibrary(path, why);
  if (!lib)
    return nullptr;
  std::unique_ptr<CublasReference> ref(new CublasReference());
  ref->lib_ = lib;
  ref->api_ = std::make_unique<Api>();
  Api &a = *ref->api_;
  if (!resolveAll(lib, a, why))
    return nullptr;
  if (int rc = a.create(&ref->handle_)) {
    why = "cublasCreate failed with status " + std::to_string(rc);
    ref->handle_ = nullptr;
    return nullptr;
  }
  int version = 0;
  a.getVersion(ref->handle_, &version);
  std::string where = path;
  if (link_map *map = nullptr; ::dlinfo(lib, RTLD_DI_LINKMAP, &map) == 0 && map && map->l_name)
    where = map->l_name;
  ref->description_ = where + " (version " + std::to_string(version) + ")";
  return ref;
}

bool CublasReference::gemmBf16(uint64_t a, uint64_t b, uint64_t c, int m, int n, int k,
                               std::string &why) {
  const float alpha = 1.f, beta = 0.f;
  // Column-major C^T (n x m) = B^T (n x k) * A^T (k x m): the row-major
  // buffers as they are, leading dimensions n, k and n.
  int rc = api_->gemmEx(handle_, kOpN, kOpN, n, m, k, &alpha, reinterpret_cast<const void *>(b),
                        kR16BF, n, reinterpret_cast<const void *>(a), kR16BF, k, &beta,
                        reinterpret_cast<void *>(c), kR16BF, n, kCompute32F, kGemmDefault);
  if (rc)
    why = "cublasGemmEx failed with status " + std::to_string(rc);
  return rc == 0;
}

CublasReference::~CublasReference() {
  if (handle_ && api_ && api_->destroy)
    api_->destroy(handle_);
  // The library stays loaded: its atexit handlers may still run.
}

} // namespace hadron::bench
