//===- TemplateRuntime.cpp - The template target's runtime part -----------===//
//
// The library the runtime loads first: it exports `hadron_plugin_entry`,
// whose descriptor names the target, its archs, its compiler part and the
// function table, which the SDK makes from the device class below
// (hadron/plugin/DeviceTable.h: it checks device indexes, NULL pointers and
// events, then calls the device). It links no LLVM or MLIR.
//
// The template's one device is the host CPU, run serially: device memory is
// host memory, a binary is an ELF shared object (TemplateKernelABI.h)
// loaded with dlopen, and a launch calls the kernel once per CTA in order.
// Its launches finish before they return, so it is a
// plugin::SynchronousDevice, whose synchronize and events (steady-clock
// timestamps) come from the SDK. A real target derives from plugin::Device,
// implements those with its queue, replaces each method's body with calls
// into its driver, which it dlopen's in `discover` (never links), and
// reports HD_ERROR_DRIVER_MISSING / HD_ERROR_NO_DEVICE from there.
//
//===----------------------------------------------------------------------===//

#include "TemplateKernelABI.h"
#include "hadron/plugin/DeviceTable.h"
#include "hadron/plugin/RuntimeTable.h"
#include "hadron/plugin/NaturalArgs.h"
#include "hadron/plugin/plugin.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include <dlfcn.h>
#include <unistd.h>

namespace {

using hadron::plugin::fail;

struct TemplateModule : hd_plugin_module {
  void *handle = nullptr;
};

class TemplateDevice : public hadron::plugin::SynchronousDevice {
public:
  TemplateDevice() {
    std::snprintf(info.name, sizeof(info.name), "template (host CPU, serial)");
    std::snprintf(info.arch, sizeof(info.arch), "native");
    info.warp_size = 1; // threads are folded into registers
    info.max_threads_per_cta = 1024;
    info.shared_bytes_per_cta = 64 * 1024;
    info.global_bytes = 0;  // unknown
    info.compute_units = 1; // one CTA at a time
  }

  hd_status memAlloc(uint64_t bytes, hd_device_ptr *out, hd_error *err) override {
    void *p = std::aligned_alloc(64, (bytes + 63) / 64 * 64 + 64);
    if (!p)
      return fail(err, HD_ERROR_OUT_OF_MEMORY, "template allocation of %llu bytes failed",
                  static_cast<unsigned long long>(bytes));
    *out = reinterpret_cast<hd_device_ptr>(p);
    return HD_OK;
  }

  hd_status memFree(hd_device_ptr ptr, hd_error *) override {
    std::free(reinterpret_cast<void *>(ptr));
    return HD_OK;
  }

  hd_status copyToDevice(hd_device_ptr dst, const void *src, uint64_t bytes, hd_error *) override {
    std::memcpy(reinterpret_cast<void *>(dst), src, bytes);
    return HD_OK;
  }

  hd_status copyToHost(void *dst, hd_device_ptr src, uint64_t bytes, hd_error *) override {
    std::memcpy(dst, reinterpret_cast<const void *>(src), bytes);
    return HD_OK;
  }

  // dlopen needs a file: the bytes go to a temporary one, unlinked at once.
  hd_status moduleLoad(const void *binary, uint64_t size, hd_plugin_module **out,
                       hd_error *err) override {
    const char *tmp = std::getenv("TMPDIR");
    std::string path = std::string(tmp && *tmp ? tmp : "/tmp") + "/hadron-template-XXXXXX.so";
    int fd = ::mkstemps(path.data(), 3);
    if (fd < 0)
      return fail(err, HD_ERROR_INTERNAL, "cannot create %s", path.c_str());
    bool written = ::write(fd, binary, size) == static_cast<ssize_t>(size);
    ::close(fd);
    void *handle = written ? ::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL) : nullptr;
    ::unlink(path.c_str());
    if (!handle)
      return fail(err, HD_ERROR_INVALID_ARGUMENT, "cannot load template binary of %llu bytes: %s",
                  static_cast<unsigned long long>(size), written ? ::dlerror() : "write failed");
    auto *module = new TemplateModule;
    module->handle = handle;
    *out = module;
    return HD_OK;
  }

  hd_status moduleUnload(hd_plugin_module *module, hd_error *) override {
    ::dlclose(static_cast<TemplateModule *>(module)->handle);
    delete module;
    return HD_OK;
  }

  hd_status launch(hd_plugin_module *module, const hd_kernel_signature *signature,
                   const uint32_t grid[3], const hd_arg *args, uint64_t dynamicSharedBytes,
                   hd_error *err) override {
    void *handle = static_cast<TemplateModule *>(module)->handle;
    auto kernel = reinterpret_cast<template_kernel_fn>(::dlsym(handle, signature->name));
    if (!kernel)
      return fail(err, HD_ERROR_LAUNCH, "kernel '%s' is not in the template binary",
                  signature->name);
    // Each argument in its natural C type, as TemplateKernelABI.h wants it.
    std::vector<hadron::plugin::NaturalArg> slots(signature->num_args);
    std::vector<void *> argv(signature->num_args);
    for (uint32_t i = 0; i < signature->num_args; ++i) {
      if (args[i].kind == HD_ARG_TENSOR_DESC)
        return fail(err, HD_ERROR_UNSUPPORTED,
                    "argument %u of %s is a tensor descriptor; the template does not pass "
                    "descriptors",
                    i, signature->name);
      slots[i] = hadron::plugin::naturalArg(args[i]);
      argv[i] = &slots[i];
    }
    std::vector<unsigned char> shared(signature->static_shared_bytes + dynamicSharedBytes + 64);
    int32_t info[TEMPLATE_GRID_INFO_SIZE] = {
        0, 0, 0, int32_t(grid[0]), int32_t(grid[1]), int32_t(grid[2])};
    // One CTA after the other; a real target enqueues one launch on its queue.
    for (info[2] = 0; info[2] < info[5]; ++info[2])
      for (info[1] = 0; info[1] < info[4]; ++info[1])
        for (info[0] = 0; info[0] < info[3]; ++info[0])
          kernel(argv.data(), info, shared.data());
    return HD_OK;
  }
};

/// The SDK's DeviceTable asks this for the devices, once.
struct TemplatePlugin {
  static constexpr const char *name = "template"; // in messages: "template has 1 device(s)"
  static hadron::plugin::DeviceList discover() {
    hadron::plugin::DeviceList list; // a real target dlopen's its driver here
    list.devices.push_back(std::make_unique<TemplateDevice>());
    return list;
  }
};

const char *const kArchs[] = {"native", nullptr};

const hd_plugin_descriptor kDescriptor = {
    sizeof(hd_plugin_descriptor),
    HADRON_PLUGIN_ABI_MAJOR,
    HADRON_PLUGIN_ABI_MINOR,
    "template", // the selector's name: HADRON_DEVICE=template
    "native",   // default arch
    kArchs,
    "libhadron-target-template-compiler.so", // loaded beside this file when IR is compiled
    &hadron::plugin::DeviceTable<TemplatePlugin>::table,
};

} // namespace

extern "C" HADRON_PLUGIN_EXPORT const hd_plugin_descriptor *hadron_plugin_entry(void) {
  return &kDescriptor;
}
