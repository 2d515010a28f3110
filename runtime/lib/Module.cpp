//===- Module.cpp - Loading binaries, modules and kernels -----------------===//

#include "Bundle.h"
#include "ErrorReporting.h"
#include "Objects.h"

#include <new>

using namespace hadron::runtime;

namespace hadron::runtime {

LoadedBinary::~LoadedBinary() {
  hd_error ignored;
  if (loaded)
    device->plugin->runtime->module_unload(loaded, &ignored);
}

void releaseModule(hd_module *module) { delete module; }

} // namespace hadron::runtime

namespace {

bool isKnownKind(hd_arg_kind kind) { return kind >= HD_ARG_PTR && kind <= HD_ARG_TENSOR_DESC; }

// Deep-copies and checks the signatures into `module`.
hd_status copySignatures(hd_module &module, const hd_kernel_signature *kernels,
                         uint32_t numKernels, hd_error *err) {
  if (numKernels > 0 && !kernels)
    return fail(err, HD_ERROR_INVALID_ARGUMENT, "%u kernel signatures announced, kernels is NULL",
                numKernels);
  for (uint32_t k = 0; k < numKernels; ++k) {
    const hd_kernel_signature &sig = kernels[k];
    if (!sig.name || !*sig.name)
      return fail(err, HD_ERROR_INVALID_ARGUMENT, "kernel signature %u has no name", k);
    if (sig.num_args > 0 && !sig.args)
      return fail(err, HD_ERROR_INVALID_ARGUMENT, "kernel %s: %u arguments announced, args is NULL",
                  sig.name, sig.num_args);
    for (const auto &existing : module.kernels)
      if (existing->name == sig.name)
        return fail(err, HD_ERROR_INVALID_ARGUMENT, "kernel %s is listed twice", sig.name);
    auto kernel = std::make_unique<hd_kernel>();
    kernel->module = &module;
    kernel->name = sig.name;
    for (uint32_t a = 0; a < sig.num_args; ++a) {
      if (!isKnownKind(sig.args[a]))
        return fail(err, HD_ERROR_INVALID_ARGUMENT, "kernel %s: argument %u has unknown kind %d",
                    sig.name, a, static_cast<int>(sig.args[a]));
      kernel->args.push_back(sig.args[a]);
      bool isDesc = sig.args[a] == HD_ARG_TENSOR_DESC;
      if (isDesc && !sig.descs)
        return fail(err, HD_ERROR_INVALID_ARGUMENT,
                    "kernel %s: argument %u is a tensor descriptor but the signature has no "
                    "descriptor specs",
                    sig.name, a);
      if (sig.descs) {
        const hd_tensor_desc_spec &d = sig.descs[a];
        if (isDesc ? (d.rank == 0 || d.rank > HD_TENSOR_DESC_MAX_RANK || d.elem_bytes == 0)
                   : d.rank != 0)
          return fail(err, HD_ERROR_INVALID_ARGUMENT,
                      "kernel %s: argument %u has a descriptor spec of rank %u and element size "
                      "%u (a descriptor has rank 1..%d, other arguments rank 0)",
                      sig.name, a, d.rank, d.elem_bytes, HD_TENSOR_DESC_MAX_RANK);
        kernel->descs.push_back(d);
      }
    }
    kernel->signature = sig;
    kernel->signature.name = kernel->name.c_str();
    kernel->signature.args = kernel->args.data();
    kernel->signature.descs = kernel->descs.empty() ? nullptr : kernel->descs.data();
    module.kernels.push_back(std::move(kernel));
  }
  return HD_OK;
}

} // namespace

namespace hadron::runtime {

hd_status loadOnDevice(hd_device *device, const void *binary, uint64_t size,
                       std::shared_ptr<LoadedBinary> &out, hd_error *err) {
  auto loaded = std::make_shared<LoadedBinary>();
  hd_error pluginErr;
  clearError(&pluginErr);
  hd_plugin_module *module = nullptr;
  hd_status status =
      device->plugin->runtime->module_load(device->index, binary, size, &module, &pluginErr);
  if (status != HD_OK)
    return forwardPluginError(err, device, "module_load", pluginErr, status);
  loaded->device = device;
  loaded->loaded = module;
  out = std::move(loaded);
  return HD_OK;
}

hd_status makeModule(hd_device *device, std::shared_ptr<LoadedBinary> binary,
                     const hd_kernel_signature *kernels, uint32_t numKernels, hd_module **out,
                     hd_error *err) {
  auto module = std::make_unique<hd_module>();
  module->device = device;
  if (hd_status s = copySignatures(*module, kernels, numKernels, err))
    return s;
  module->loaded = binary->loaded;
  module->binary = std::move(binary);
  hd_context *ctx = device->context;
  {
    std::lock_guard<std::mutex> lock(ctx->mutex);
    ctx->modules.insert(module.get());
  }
  *out = module.release();
  return HD_OK;
}

} // namespace hadron::runtime

extern "C" {

hd_status hd_module_load_binary(hd_device *device, const void *binary, uint64_t size,
                                const hd_kernel_signature *kernels, uint32_t num_kernels,
                                hd_module **out, hd_error *err) {
  clearError(err);
  if (!device || !out)
    return fail(err, HD_ERROR_INVALID_ARGUMENT, "hd_module_load_binary: NULL argument");
  *out = nullptr;
  if (!binary || size == 0)
    return fail(err, HD_ERROR_INVALID_ARGUMENT, "hd_module_load_binary: empty binary");
  try {
    // A bundle (Bundle.h) brings its own signatures: its entry for the
    // device is loaded.
    if (num_kernels == 0 && bundle::looksLikeBundle(binary, size))
      return loadBundleBytes(device, binary, size, out, err);
    // The signatures are checked before the plugin sees the binary.
    hd_module probe;
    if (hd_status s = copySignatures(probe, kernels, num_kernels, err))
      return s;
    std::shared_ptr<LoadedBinary> loaded;
    if (hd_status s = loadOnDevice(device, binary, size, loaded, err))
      return s;
    return makeModule(device, std::move(loaded), kernels, num_kernels, out, err);
  } catch (const std::bad_alloc &) {
    return fail(err, HD_ERROR_OUT_OF_MEMORY, "hd_module_load_binary: out of host memory");
  }
}

hd_status hd_module_destroy(hd_module *module, hd_error *err) {
  clearError(err);
  if (!module)
    return HD_OK;
  hd_device *device = module->device;
  {
    std::lock_guard<std::mutex> lock(device->context->mutex);
    device->context->modules.erase(module);
  }
  // The binary is unloaded with the last module that uses it (another
  // thread may be taking it from the in-memory cache right now, which only
  // the shared pointer's count decides safely).
  delete module;
  return HD_OK;
}

uint32_t hd_module_kernel_count(const hd_module *module) {
  return module ? static_cast<uint32_t>(module->kernels.size()) : 0;
}

hd_kernel *hd_module_kernel_at(const hd_module *module, uint32_t index) {
  if (!module || index >= module->kernels.size())
    return nullptr;
  return module->kernels[index].get();
}

hd_status hd_module_get_kernel(const hd_module *module, const char *name, hd_kernel **out,
                               hd_error *err) {
  clearError(err);
  if (!module || !name || !out)
    return fail(err, HD_ERROR_INVALID_ARGUMENT, "hd_module_get_kernel: NULL argument");
  *out = nullptr;
  std::string available;
  for (const auto &k : module->kernels) {
    if (k->name == name) {
      *out = k.get();
      return HD_OK;
    }
    available += (available.empty() ? "" : ", ") + k->name;
  }
  return fail(err, HD_ERROR_INVALID_ARGUMENT, "no kernel '%s' in module; it has: %s", name,
              available.empty() ? "no kernels" : available.c_str());
}

const hd_kernel_signature *hd_kernel_get_signature(const hd_kernel *kernel) {
  return kernel ? &kernel->signature : nullptr;
}

} // extern "C"
