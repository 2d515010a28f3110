//===- HostLaunch.cpp - Running a grid of CTAs on the worker pool ---------===//
//
// A launch marshals the hd_arg values into the natural C types of
// HostKernelABI.h, then calls the kernel once per CTA on the thread pool.
// It returns when the whole grid has run: the host queue is synchronous.
//
//===----------------------------------------------------------------------===//

#include "HostRuntime.h"
#include "ThreadPool.h"

#include "HostKernelABI.h"
#include "hadron/plugin/NaturalArgs.h"
#include "hadron/plugin/TensorDesc.h"

#include <atomic>
#include <climits>
#include <csetjmp>
#include <cstdio>
#include <array>
#include <mutex>
#include <string>
#include <vector>

#include <dlfcn.h>

namespace hadron::host {

namespace {

/// What a failing assert leaves for its launch.
struct AssertState {
  std::atomic<bool> failed{false};
  std::mutex mutex;
  std::string message; ///< The first failure's.
  uint64_t cta = 0;
};

/// Set around each kernel call on a worker thread: where assertFailed jumps
/// back to, and the launch it reports to. The kernel code between setjmp
/// and longjmp is LLVM-compiled kernel code with nothing to unwind.
thread_local std::jmp_buf *tlsAssertJump = nullptr;
thread_local AssertState *tlsAssertState = nullptr;
thread_local uint64_t tlsCta = 0;

} // namespace

void assertFailed(const char *message) {
  if (!tlsAssertJump || !tlsAssertState) {
    // Not inside a launch of this runtime: behave as without a handler.
    std::fprintf(stderr, "%s\n", message ? message : "hd.assert failed");
    std::abort();
  }
  {
    std::lock_guard<std::mutex> lock(tlsAssertState->mutex);
    if (!tlsAssertState->failed.exchange(true)) {
      tlsAssertState->message = message ? message : "hd.assert failed";
      tlsAssertState->cta = tlsCta;
    }
  }
  std::longjmp(*tlsAssertJump, 1);
}

hd_status launch(hd_plugin_module *module, const hd_kernel_signature *signature,
                 const uint32_t grid[3], const hd_arg *args, uint64_t dynamicSharedBytes,
                 hd_error *err) {
  for (int d = 0; d < 3; ++d)
    if (grid[d] > INT32_MAX)
      return fail(err, HD_ERROR_INVALID_ARGUMENT,
                  "grid dimension %d is %u; the host target's program ids are int32 (max %d)", d,
                  grid[d], INT32_MAX);
  if (grid[0] == 0 || grid[1] == 0 || grid[2] == 0)
    return HD_OK;

  ::dlerror();
  auto fn = reinterpret_cast<hd_host_kernel_fn>(::dlsym(moduleHandle(module), signature->name));
  if (!fn) {
    const char *e = ::dlerror();
    return fail(err, HD_ERROR_LAUNCH, "kernel '%s' is not exported by the host binary: %s",
                signature->name, e ? e : "symbol is NULL");
  }

  // Small kernels are the common case: no allocation for up to 16 arguments.
  constexpr uint32_t kInline = 16;
  plugin::NaturalArg inlineSlots[kInline];
  void *inlineArgv[kInline];
  std::vector<plugin::NaturalArg> heapSlots;
  std::vector<void *> heapArgv;
  plugin::NaturalArg *slots = inlineSlots;
  void **argp = inlineArgv;
  if (signature->num_args > kInline) {
    heapSlots.resize(signature->num_args);
    heapArgv.resize(signature->num_args);
    slots = heapSlots.data();
    argp = heapArgv.data();
  }
  // Tensor descriptors in the generic encoding (plugin/TensorDesc.h); no
  // allocation for kernels without any.
  std::vector<std::array<uint64_t, plugin::kGenericTensorDescMaxWords>> descWords;
  for (uint32_t i = 0; i < signature->num_args; ++i)
    if (args[i].kind == HD_ARG_TENSOR_DESC)
      descWords.emplace_back();
  for (uint32_t i = 0, d = 0; i < signature->num_args; ++i) {
    if (args[i].kind == HD_ARG_TENSOR_DESC) {
      if (!args[i].value.desc)
        return fail(err, HD_ERROR_INVALID_ARGUMENT, "argument %u of %s is a NULL tensor descriptor",
                    i, signature->name);
      plugin::packGenericTensorDesc(*args[i].value.desc, descWords[d].data());
      argp[i] = descWords[d++].data();
      continue;
    }
    slots[i] = plugin::naturalArg(args[i]);
    argp[i] = &slots[i];
  }

  const uint64_t gx = grid[0], gy = grid[1], gz = grid[2];
  if (gy * gz > UINT64_MAX / gx)
    return fail(err, HD_ERROR_INVALID_ARGUMENT, "grid %llux%llux%llu has 2^64 CTAs or more",
                static_cast<unsigned long long>(gx), static_cast<unsigned long long>(gy),
                static_cast<unsigned long long>(gz));
  const uint64_t ctas = gx * gy * gz;
  AssertState asserts;
  auto body = [&](uint64_t first, uint64_t last, void *shared) {
    // After a failed assert the remaining CTAs do not run (a GPU context
    // stops too). One setjmp serves the whole range: an assert ends it.
    if (asserts.failed.load(std::memory_order_relaxed))
      return;
    int32_t info[HD_HOST_GRID_INFO_SIZE] = {
        static_cast<int32_t>(first % gx),        static_cast<int32_t>((first / gx) % gy),
        static_cast<int32_t>(first / (gx * gy)), static_cast<int32_t>(gx),
        static_cast<int32_t>(gy),                static_cast<int32_t>(gz)};
    std::jmp_buf jump;
    tlsAssertJump = &jump;
    tlsAssertState = &asserts;
    tlsCta = first;
    if (setjmp(jump) == 0) {
      for (uint64_t cta = first; cta < last; ++cta) {
        if (cta != first && asserts.failed.load(std::memory_order_relaxed))
          break;
        tlsCta = cta;
        fn(argp, info, shared);
        // The next program id, x fastest (as cta % gx, cta / gx % gy, ...).
        if (++info[0] == info[3]) {
          info[0] = 0;
          if (++info[1] == info[4]) {
            info[1] = 0;
            ++info[2];
          }
        }
      }
    }
    tlsAssertJump = nullptr;
    tlsAssertState = nullptr;
  };
  uint64_t ran = 0;
  if (!ThreadPool::get().run(ctas, signature->static_shared_bytes + dynamicSharedBytes, body, ran))
    return fail(err, HD_ERROR_OUT_OF_MEMORY,
                "%s: no worker could allocate %llu bytes of shared memory; %llu of %llu CTAs ran",
                signature->name,
                static_cast<unsigned long long>(signature->static_shared_bytes + dynamicSharedBytes),
                static_cast<unsigned long long>(ran), static_cast<unsigned long long>(ctas));
  if (asserts.failed.load()) {
    const uint64_t c = asserts.cta;
    return fail(err, HD_ERROR_LAUNCH, "%s: %s (program %llu,%llu,%llu); the rest of the grid did not run",
                signature->name, asserts.message.c_str(),
                static_cast<unsigned long long>(c % gx),
                static_cast<unsigned long long>((c / gx) % gy),
                static_cast<unsigned long long>(c / (gx * gy)));
  }
  return HD_OK;
}

} // namespace hadron::host
