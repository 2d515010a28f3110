//===- AmdRuntime.h - The AMD plugin's runtime table, internally -*- C++ -*-===//
//
// The AMD target runs HSACO code objects through HIP's module API on the
// null stream of each device, so launches, copies and events on one device
// are ordered. Functions are those of hd_runtime_table, split over the
// files of this folder.
//
//===----------------------------------------------------------------------===//
#ifndef HADRON_TARGETS_AMD_RUNTIME_AMDRUNTIME_H
#define HADRON_TARGETS_AMD_RUNTIME_AMDRUNTIME_H

#include "HipApi.h"

#include "hadron/plugin/RuntimeTable.h"

namespace hadron::amd {

using plugin::fail;

/// The loaded HIP after a successful init; with an error naming `call`
/// (and `device` out of range) otherwise. Makes `device` current.
const HipApi *useDevice(uint32_t device, const char *call, hd_error *err);

/// HD_OK when `code` is hipSuccess, else an error naming `call`, the device
/// and HIP's error name (HD_ERROR_OUT_OF_MEMORY for hipErrorOutOfMemory).
hd_status check(const HipApi &hip, hipError_t code, const char *call, uint32_t device,
                hd_error *err, hd_status otherwise = HD_ERROR_INTERNAL);

hd_status moduleLoad(uint32_t device, const void *binary, uint64_t size, hd_plugin_module **out,
                     hd_error *err);
hd_status moduleUnload(hd_plugin_module *module, hd_error *err);
hd_status launch(hd_plugin_module *module, const hd_kernel_signature *signature,
                 const uint32_t grid[3], const hd_arg *args, uint64_t dynamicSharedBytes,
                 hd_error *err);

} // namespace hadron::amd

#endif // HADRON_TARGETS_AMD_RUNTIME_AMDRUNTIME_H
