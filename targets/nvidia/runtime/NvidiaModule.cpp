//===- NvidiaModule.cpp - Loading cubin/PTX and launching kernels ---------===//
//
// A module is what cuModuleLoadDataEx made of the compiler part's binary: a
// cubin (an ELF image) or PTX text, which the driver JIT-compiles; its error
// log is part of a failure's message. Functions are looked up once per name
// and cached with the dynamic shared-memory limit set on them so far.
//
// A launch marshals each hd_arg into the parameter type NvidiaKernelABI.h
// gives its kind and calls cuLaunchKernel with a block of num_warps * 32
// threads and static + dynamic shared bytes of dynamic shared memory.
//
//===----------------------------------------------------------------------===//

#include "KernelParams.h"
#include "NvidiaRuntime.h"
#include "TensorMap.h"

#include "hadron/plugin/TensorDesc.h"

#include "../NvidiaKernelABI.h"

#include <cinttypes>
#include <climits>
#include <cstring>
#include <memory>
#include <mutex>
#include <new>
#include <string>
#include <map>
#include <string_view>

namespace hadron::nvidia {

namespace {

/// What cuModuleLoadDataEx made of a binary, and its functions looked up so
/// far.
struct NvidiaModule : hd_plugin_module {
  cuda::CUmodule module = nullptr;
  struct Function {
    cuda::CUfunction handle;
    uint64_t dynamicSharedLimit; // what cuFuncSetAttribute last allowed; 0 = the default
    int cluster[3];              // the CTAs per cluster it was compiled for (1, 1, 1: none)
  };
  std::mutex mutex;
  // Ordered with a transparent comparator: a launch looks its kernel up by
  // the signature's name without building a std::string.
  std::map<std::string, Function, std::less<>> functions;
};

bool isElf(const void *binary, uint64_t size) {
  return size >= 4 && std::memcmp(binary, "\x7f" "ELF", 4) == 0;
}

/// The log text the JIT left in `buffer`, trimmed, or "".
std::string logText(const char *buffer) {
  std::string text(buffer);
  while (!text.empty() && (text.back() == '\n' || text.back() == ' '))
    text.pop_back();
  return text;
}

/// Argument `i` of kernel `name` as its 128-byte parameter.
hd_status encodeDescriptor(const cuda::Driver &cu, const char *name, uint32_t i,
                           const hd_tensor_desc *desc, const hd_kernel_signature *signature,
                           unsigned char *out, hd_error *err) {
  if (!desc || !signature->descs)
    return fail(err, HD_ERROR_INVALID_ARGUMENT,
                "argument %u of %s: a tensor descriptor without %s", i, name,
                desc ? "the kernel's descriptor spec" : "a value (NULL)");
  const hd_tensor_desc_spec &spec = signature->descs[i];
  std::memset(out, 0, 128);
  if (!spec.native) {
    uint64_t words[plugin::kGenericTensorDescMaxWords];
    plugin::packGenericTensorDesc(*desc, words);
    std::memcpy(out, words, 8 * plugin::genericTensorDescWords(desc->rank));
    return HD_OK;
  }
  TensorMapArgs a;
  std::string why;
  if (!tensorMapArgs(*desc, spec, a, why))
    return fail(err, HD_ERROR_INVALID_ARGUMENT, "argument %u of %s: the tensor descriptor has %s",
                i, name, why.c_str());
  if (!cu.cuTensorMapEncodeTiled)
    return fail(err, HD_ERROR_UNSUPPORTED,
                "argument %u of %s: the driver has no cuTensorMapEncodeTiled (CUDA 12 or later "
                "is needed for tensor descriptors)",
                i, name);
  cuda::CUresult rc =
      cu.cuTensorMapEncodeTiled(out, a.dataType, a.rank, reinterpret_cast<void *>(a.globalAddress),
                                a.globalDim, a.globalStrides, a.boxDim, a.elementStrides,
                                /*interleave=*/0, a.swizzle, a.l2Promotion, a.oobFill);
  return check(cu, rc, "cuTensorMapEncodeTiled", err, HD_ERROR_INVALID_ARGUMENT,
               "argument " + std::to_string(i) + " of " + name);
}

} // namespace

hd_status NvidiaDevice::moduleLoad(const void *binary, uint64_t size, hd_plugin_module **out,
                                   hd_error *err) {
  if (hd_status s = enter(err))
    return s;
  // PTX must reach the driver NUL-terminated; a cubin is used as given.
  std::string ptx;
  const void *image = binary;
  bool elf = isElf(binary, size);
  if (!elf) {
    ptx.assign(static_cast<const char *>(binary), size);
    if (ptx.find(".entry") == std::string::npos && ptx.find(".version") == std::string::npos)
      return fail(err, HD_ERROR_INVALID_ARGUMENT,
                  "module_load: the %" PRIu64 "-byte binary is neither a cubin (no ELF magic) "
                  "nor PTX text (no .version/.entry)",
                  size);
    image = ptx.c_str();
  }
  static constexpr unsigned kLogBytes = 16384;
  std::string errorLog(kLogBytes, '\0'), infoLog(kLogBytes, '\0');
  cuda::CUjit_option options[] = {cuda::CU_JIT_ERROR_LOG_BUFFER,
                                  cuda::CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
                                  cuda::CU_JIT_INFO_LOG_BUFFER,
                                  cuda::CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES};
  void *values[] = {errorLog.data(), reinterpret_cast<void *>(uintptr_t{kLogBytes - 1}),
                    infoLog.data(), reinterpret_cast<void *>(uintptr_t{kLogBytes - 1})};
  std::unique_ptr<NvidiaModule> m(new (std::nothrow) NvidiaModule);
  if (!m)
    return fail(err, HD_ERROR_OUT_OF_MEMORY, "module_load: out of host memory");
  m->device = index;
  cuda::CUresult rc = cu.cuModuleLoadDataEx(&m->module, image, 4, options, values);
  if (rc != cuda::CUDA_SUCCESS) {
    std::string log = logText(errorLog.c_str());
    std::string context = std::string("loading a ") + (elf ? "cubin" : "PTX module") + " of " +
                          std::to_string(size) + " bytes on " + where() + " (" + info.arch + ")";
    hd_status s =
        nvidia::check(cu, rc, "cuModuleLoadDataEx", err, HD_ERROR_INVALID_ARGUMENT, context);
    if (err && !log.empty()) {
      size_t used = std::strlen(err->message);
      std::snprintf(err->message + used, sizeof(err->message) - used, "; JIT log: %s",
                    log.c_str());
    }
    return s;
  }
  *out = m.release();
  return HD_OK;
}

hd_status NvidiaDevice::moduleUnload(hd_plugin_module *base, hd_error *err) {
  auto *module = static_cast<NvidiaModule *>(base);
  hd_status s = enter(err);
  if (s == HD_OK)
    s = check(cu.cuModuleUnload(module->module), "cuModuleUnload", err, HD_ERROR_INTERNAL);
  delete module;
  return s;
}

hd_status NvidiaDevice::launch(hd_plugin_module *base, const hd_kernel_signature *signature,
                               const uint32_t grid[3], const hd_arg *args,
                               uint64_t dynamicSharedBytes, hd_error *err) {
  auto *module = static_cast<NvidiaModule *>(base);
  const char *name = signature->name;
  if (signature->warp_size != 0 && signature->warp_size != HD_NVIDIA_WARP_SIZE)
    return fail(err, HD_ERROR_INVALID_ARGUMENT,
                "%s was compiled for warp size %u; NVIDIA GPUs have warps of %d", name,
                signature->warp_size, HD_NVIDIA_WARP_SIZE);
  if (hd_status s = enter(err))
    return s;
  uint64_t threads = uint64_t{signature->num_warps} * HD_NVIDIA_WARP_SIZE;
  if (threads == 0 || threads > info.max_threads_per_cta)
    return fail(err, HD_ERROR_INVALID_ARGUMENT,
                "%s: %u warps are %" PRIu64 " threads; nvidia:%u allows 1 to %u per CTA", name,
                signature->num_warps, threads, index, info.max_threads_per_cta);
  static const char axes[] = "xyz";
  for (int d = 0; d < 3; ++d)
    if (grid[d] > maxGrid[d])
      return fail(err, HD_ERROR_INVALID_ARGUMENT, "%s: grid %c is %u; nvidia:%u allows at most %u",
                  name, axes[d], grid[d], index, maxGrid[d]);
  if (grid[0] == 0 || grid[1] == 0 || grid[2] == 0)
    return HD_OK;
  uint64_t shared = signature->static_shared_bytes + dynamicSharedBytes;
  if (shared < dynamicSharedBytes || shared > info.shared_bytes_per_cta)
    return fail(err, HD_ERROR_INVALID_ARGUMENT,
                "%s needs %" PRIu64 " static + %" PRIu64 " dynamic shared bytes; nvidia:%u "
                "allows %" PRIu64 " per CTA",
                name, signature->static_shared_bytes, dynamicSharedBytes, index,
                info.shared_bytes_per_cta);

  cuda::CUfunction function = nullptr;
  {
    std::lock_guard<std::mutex> lock(module->mutex);
    auto it = module->functions.find(std::string_view(name));
    if (it == module->functions.end()) {
      cuda::CUfunction handle = nullptr;
      if (hd_status s = nvidia::check(cu, cu.cuModuleGetFunction(&handle, module->module, name),
                                      "cuModuleGetFunction", err, HD_ERROR_LAUNCH,
                                      std::string("kernel '") + name + "'"))
        return s;
      NvidiaModule::Function f{handle, 0, {1, 1, 1}};
      static const cuda::CUfunction_attribute clusterAttrs[3] = {
          cuda::CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_WIDTH,
          cuda::CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_HEIGHT,
          cuda::CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_DEPTH};
      for (int d = 0; d < 3; ++d) {
        int v = 0;
        if (hd_status s = nvidia::check(cu, cu.cuFuncGetAttribute(&v, clusterAttrs[d], handle),
                                        "cuFuncGetAttribute(REQUIRED_CLUSTER_*)", err,
                                        HD_ERROR_LAUNCH, std::string("kernel '") + name + "'"))
          return s;
        f.cluster[d] = v > 0 ? v : 1;
      }
      it = module->functions.emplace(name, f).first;
    }
    // A kernel compiled for clusters (hd.cluster_dims) runs whole clusters.
    for (int d = 0; d < 3; ++d)
      if (grid[d] % unsigned(it->second.cluster[d]) != 0)
        return fail(err, HD_ERROR_INVALID_ARGUMENT,
                    "%s runs in clusters of %dx%dx%d programs; grid %c is %u, not a multiple "
                    "of %d",
                    name, it->second.cluster[0], it->second.cluster[1], it->second.cluster[2],
                    axes[d], grid[d], it->second.cluster[d]);
    // All of a kernel's shared memory is dynamic (NvidiaKernelABI.h); above
    // the default limit the function must opt in to the size it uses.
    if (shared > sharedBytesDefault && shared > it->second.dynamicSharedLimit) {
      if (hd_status s = nvidia::check(
              cu,
              cu.cuFuncSetAttribute(it->second.handle,
                                    cuda::CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                                    static_cast<int>(shared)),
              "cuFuncSetAttribute(MAX_DYNAMIC_SHARED_SIZE_BYTES)", err, HD_ERROR_LAUNCH,
              std::string(name) + ": allowing " + std::to_string(shared) + " shared bytes"))
        return s;
      it->second.dynamicSharedLimit = shared;
    }
    function = it->second.handle;
  }

  // Small kernels are the common case: no allocation for up to 16 arguments.
  constexpr uint32_t kInline = 16;
  ParamSlot inlineSlots[kInline];
  void *inlinePtrs[kInline];
  std::unique_ptr<ParamSlot[]> heapSlots;
  std::unique_ptr<void *[]> heapPtrs;
  ParamSlot *slots = inlineSlots;
  void **params = inlinePtrs;
  if (signature->num_args > kInline) {
    heapSlots.reset(new (std::nothrow) ParamSlot[signature->num_args]);
    heapPtrs.reset(new (std::nothrow) void *[signature->num_args]);
    if (!heapSlots || !heapPtrs)
      return fail(err, HD_ERROR_OUT_OF_MEMORY, "%s: out of host memory for %u arguments", name,
                  signature->num_args);
    slots = heapSlots.get();
    params = heapPtrs.get();
  }
  // Tensor descriptors: a 128-byte CUtensorMap where the kernel reads the
  // hardware's encoding, else the generic words (plugin/TensorDesc.h).
  struct alignas(64) DescParam {
    unsigned char bytes[128];
  };
  uint32_t numDescs = 0;
  for (uint32_t i = 0; i < signature->num_args; ++i)
    numDescs += args[i].kind == HD_ARG_TENSOR_DESC;
  std::unique_ptr<DescParam[]> descs;
  if (numDescs) {
    descs.reset(new (std::nothrow) DescParam[numDescs]);
    if (!descs)
      return fail(err, HD_ERROR_OUT_OF_MEMORY, "%s: out of host memory for %u tensor maps", name,
                  numDescs);
  }
  for (uint32_t i = 0, d = 0; i < signature->num_args; ++i) {
    if (args[i].kind == HD_ARG_TENSOR_DESC) {
      if (hd_status s =
              encodeDescriptor(cu, name, i, args[i].value.desc, signature, descs[d].bytes, err))
        return s;
      params[i] = descs[d++].bytes;
      continue;
    }
    slots[i] = paramSlot(args[i]);
    params[i] = &slots[i];
  }
  cuda::CUresult rc = cu.cuLaunchKernel(
      function, grid[0], grid[1], grid[2], static_cast<unsigned>(threads), 1, 1,
      static_cast<unsigned>(shared), nullptr, signature->num_args ? params : nullptr, nullptr);
  if (rc == cuda::CUDA_SUCCESS)
    return HD_OK;
  char context[256];
  std::snprintf(context, sizeof(context),
                "launching %s on nvidia:%u, grid %ux%ux%u, %" PRIu64 " threads, %" PRIu64
                " shared bytes",
                name, index, grid[0], grid[1], grid[2], threads, shared);
  return nvidia::check(cu, rc, "cuLaunchKernel", err, HD_ERROR_LAUNCH, context);
}

} // namespace hadron::nvidia
