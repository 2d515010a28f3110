//===- AmdLaunch.cpp - Code objects and launches through HIP --------------===//
//
// A launch is hipModuleLaunchKernel on the device's null stream with
//  - a 1-D workgroup of num_warps * warp_size work-items (the signature's);
//  - the explicit arguments packed into one buffer per KernargLayout.h and
//    passed with HIP_LAUNCH_PARAM_BUFFER_POINTER/SIZE (HIP appends the code
//    object's hidden arguments itself);
//  - the launch's dynamic LDS bytes. The static LDS the shared-memory
//    allocator planned (signature->static_shared_bytes) is part of the code
//    object: the compiler part gives each kernel an LDS global of that
//    size, which the code object's group_segment_fixed_size reports and
//    HIP allocates on its own.
//
//===----------------------------------------------------------------------===//

#include "AmdRuntime.h"
#include "KernargLayout.h"

#include <cinttypes>
#include <map>
#include <mutex>
#include <new>
#include <string>

namespace hadron::amd {
namespace {

/// A loaded code object, its own copy of the binary and the functions
/// looked up so far.
struct AmdModule : hd_plugin_module {
  std::string binary;
  hipModule_t module = nullptr;
  std::mutex mutex;
  std::map<std::string, hipFunction_t> functions;
};

} // namespace

hd_status AmdDevice::moduleLoad(const void *binary, uint64_t size, hd_plugin_module **out,
                                hd_error *err) {
  if (hd_status s = makeCurrent("module_load", err))
    return s;
  auto *module = new (std::nothrow) AmdModule;
  if (!module)
    return fail(err, HD_ERROR_OUT_OF_MEMORY, "module_load: out of host memory");
  module->device = index;
  module->binary.assign(static_cast<const char *>(binary), size);
  if (hd_status s = check(hip.hipModuleLoadData(&module->module, module->binary.data()),
                          "hipModuleLoadData", err, HD_ERROR_INVALID_ARGUMENT)) {
    delete module;
    return s;
  }
  *out = module;
  return HD_OK;
}

hd_status AmdDevice::moduleUnload(hd_plugin_module *base, hd_error *err) {
  auto *module = static_cast<AmdModule *>(base);
  hd_status s = makeCurrent("module_unload", err);
  if (s == HD_OK)
    s = check(hip.hipModuleUnload(module->module), "hipModuleUnload", err);
  delete module;
  return s;
}

hd_status AmdDevice::launch(hd_plugin_module *base, const hd_kernel_signature *signature,
                            const uint32_t grid[3], const hd_arg *args, uint64_t dynamicSharedBytes,
                            hd_error *err) {
  auto *module = static_cast<AmdModule *>(base);
  const uint32_t device = index;
  if (hd_status s = makeCurrent("launch", err))
    return s;

  uint64_t threads = uint64_t(signature->num_warps) * signature->warp_size;
  if (threads == 0 || threads > 1024)
    return fail(err, HD_ERROR_INVALID_ARGUMENT,
                "%s: %u warps of %u work-items is not a workgroup size amd can launch (1..1024)",
                signature->name, signature->num_warps, signature->warp_size);
  for (int d = 0; d < 3; ++d)
    if (grid[d] == 0)
      return fail(err, HD_ERROR_INVALID_ARGUMENT, "%s: grid[%d] is 0", signature->name, d);
  // HSA dispatches count work-items, not workgroups, in 32 bits.
  for (int d = 0; d < 3; ++d) {
    uint64_t items = uint64_t(grid[d]) * (d == 0 ? threads : 1);
    if (items > UINT32_MAX)
      return fail(err, HD_ERROR_INVALID_ARGUMENT,
                  "%s: grid[%d] = %u workgroups of %" PRIu64
                  " work-items exceeds the 2^32 - 1 work-items of one HSA dispatch",
                  signature->name, d, grid[d], d == 0 ? threads : 1);
  }
  if (dynamicSharedBytes > UINT32_MAX)
    return fail(err, HD_ERROR_INVALID_ARGUMENT, "%s: %" PRIu64 " dynamic LDS bytes",
                signature->name, dynamicSharedBytes);

  hipFunction_t function = nullptr;
  {
    std::lock_guard<std::mutex> lock(module->mutex);
    auto it = module->functions.find(signature->name);
    if (it != module->functions.end()) {
      function = it->second;
    } else {
      hipError_t e = hip.hipModuleGetFunction(&function, module->module, signature->name);
      if (e != hipSuccess)
        return fail(err, HD_ERROR_INVALID_ARGUMENT, "amd:%u: %s for kernel '%s'", device,
                    hipErrorText(hip, "hipModuleGetFunction", e).c_str(), signature->name);
      module->functions.emplace(signature->name, function);
    }
  }

  for (uint32_t i = 0; i < signature->num_args; ++i)
    if (args[i].kind == HD_ARG_TENSOR_DESC)
      return fail(err, HD_ERROR_UNSUPPORTED,
                  "amd:%u: argument %u of %s is a tensor descriptor; this runtime does not pass "
                  "descriptors yet (the kernel compiles for AMD)",
                  device, i, signature->name);
  std::vector<unsigned char> kernargs = packKernargs(args, signature->num_args);
  size_t kernargBytes = kernargs.size();
  void *extra[] = {HADRON_HIP_LAUNCH_PARAM_BUFFER_POINTER, kernargs.data(),
                   HADRON_HIP_LAUNCH_PARAM_BUFFER_SIZE, &kernargBytes,
                   HADRON_HIP_LAUNCH_PARAM_END};
  hipError_t e =
      hip.hipModuleLaunchKernel(function, grid[0], grid[1], grid[2], static_cast<unsigned>(threads),
                                1, 1, static_cast<unsigned>(dynamicSharedBytes), nullptr, nullptr,
                                signature->num_args ? extra : nullptr);
  if (e != hipSuccess)
    return fail(err, HD_ERROR_LAUNCH,
                "amd:%u: %s launching %s on a grid of (%u, %u, %u) x %" PRIu64
                " work-items with %" PRIu64 " dynamic LDS bytes",
                device, hipErrorText(hip, "hipModuleLaunchKernel", e).c_str(), signature->name,
                grid[0], grid[1], grid[2], threads, dynamicSharedBytes);
  return HD_OK;
}

} // namespace hadron::amd
