//===- Launch.cpp - Checked launches, synchronisation and events ----------===//

#include "ErrorReporting.h"
#include "Objects.h"

#include <cinttypes>
#include <new>

using namespace hadron::runtime;

namespace hadron::runtime {

void releaseEvent(hd_event *event) {
  hd_error ignored;
  event->device->plugin->runtime->event_destroy(event->event, &ignored);
  delete event;
}

} // namespace hadron::runtime

namespace {

bool fitsSigned(int64_t v, unsigned bits) {
  int64_t lo = -(int64_t(1) << (bits - 1)), hi = (int64_t(1) << (bits - 1)) - 1;
  return v >= lo && v <= hi;
}

hd_status checkValue(const hd_kernel &kernel, uint32_t i, const hd_arg &arg, hd_error *err) {
  int64_t v = arg.value.i;
  unsigned bits = 0;
  switch (arg.kind) {
  case HD_ARG_I1:
    if (v != 0 && v != 1)
      return fail(err, HD_ERROR_INVALID_ARGUMENT,
                  "argument %u of %s is i1, got %" PRId64 " (must be 0 or 1)", i,
                  kernel.name.c_str(), v);
    return HD_OK;
  case HD_ARG_I8: bits = 8; break;
  case HD_ARG_I16: bits = 16; break;
  case HD_ARG_I32: bits = 32; break;
  default: return HD_OK;
  }
  if (!fitsSigned(v, bits))
    return fail(err, HD_ERROR_INVALID_ARGUMENT,
                "argument %u of %s is %s, value %" PRId64 " does not fit (sign-extended %u bits)",
                i, kernel.name.c_str(), hd_arg_kind_name(arg.kind), v, bits);
  return HD_OK;
}

// Whether `ptr` lies in a live buffer of `device` (one past the end counts).
// The caller holds the context's mutex.
bool insideBuffer(const hd_device &device, hd_device_ptr ptr) {
  auto it = device.buffers.upper_bound(ptr);
  if (it == device.buffers.begin())
    return false;
  --it;
  return ptr - it->first <= it->second;
}

// The buffer of `device` holding `ptr`, as [begin, end); {0, 0} when none.
// The caller holds the context's mutex.
std::pair<hd_device_ptr, hd_device_ptr> bufferAround(const hd_device &device, hd_device_ptr ptr) {
  auto it = device.buffers.upper_bound(ptr);
  if (it == device.buffers.begin())
    return {0, 0};
  --it;
  if (ptr - it->first > it->second)
    return {0, 0};
  return {it->first, it->first + it->second};
}

// A tensor descriptor: its rank is the kernel's, the innermost stride is 1,
// and every element it can reach lies in the live buffer its base points
// into. The caller holds the context's mutex.
hd_status checkDescriptor(const hd_kernel &kernel, uint32_t i, const hd_tensor_desc *d,
                          hd_error *err) {
  const hd_tensor_desc_spec &spec = kernel.descs[i];
  const char *name = kernel.name.c_str();
  if (!d)
    return fail(err, HD_ERROR_INVALID_ARGUMENT, "argument %u of %s is a NULL tensor descriptor", i,
                name);
  if (d->rank != spec.rank)
    return fail(err, HD_ERROR_INVALID_ARGUMENT,
                "argument %u of %s: the tensor descriptor has rank %u, the kernel reads blocks of "
                "rank %u",
                i, name, d->rank, spec.rank);
  if (d->base == 0)
    return fail(err, HD_ERROR_INVALID_ARGUMENT,
                "argument %u of %s: the tensor descriptor's base is NULL", i, name);
  if (d->strides[d->rank - 1] != 1)
    return fail(err, HD_ERROR_INVALID_ARGUMENT,
                "argument %u of %s: the tensor descriptor's innermost stride is %" PRIu64
                " (must be 1)",
                i, name, d->strides[d->rank - 1]);
  // The last element's offset, in elements, without overflow.
  unsigned __int128 last = 0;
  for (uint32_t r = 0; r < d->rank; ++r) {
    if (d->shape[r] == 0 || d->shape[r] > (uint64_t(1) << 40))
      return fail(err, HD_ERROR_INVALID_ARGUMENT,
                  "argument %u of %s: the tensor descriptor's dim %u has %" PRIu64
                  " elements (must be 1 to 2^40)",
                  i, name, r, d->shape[r]);
    if (d->strides[r] > (uint64_t(1) << 40))
      return fail(err, HD_ERROR_INVALID_ARGUMENT,
                  "argument %u of %s: the tensor descriptor's stride %u is %" PRIu64
                  " elements (at most 2^40)",
                  i, name, r, d->strides[r]);
    last += (unsigned __int128)(d->shape[r] - 1) * d->strides[r];
  }
  unsigned __int128 endByte = (last + 1) * spec.elem_bytes;
  auto [lo, hi] = bufferAround(*kernel.module->device, d->base);
  if (lo == hi || d->base == hi)
    return fail(err, HD_ERROR_INVALID_ARGUMENT,
                "argument %u of %s: the tensor descriptor's base 0x%" PRIx64
                " is not inside a live buffer of %s",
                i, name, d->base, kernel.module->device->name.c_str());
  if (endByte > (unsigned __int128)(hi - d->base))
    return fail(err, HD_ERROR_INVALID_ARGUMENT,
                "argument %u of %s: the tensor descriptor reaches %" PRIu64
                " bytes past its base, its buffer has %" PRIu64 " bytes from there",
                i, name, uint64_t(endByte), uint64_t(hi - d->base));
  return HD_OK;
}

hd_status checkLaunch(const hd_kernel &kernel, const hd_arg *args, uint32_t numArgs,
                      uint64_t dynamicShared, hd_error *err) {
  const hd_kernel_signature &sig = kernel.signature;
  const hd_device &device = *kernel.module->device;
  if (numArgs != sig.num_args)
    return fail(err, HD_ERROR_INVALID_ARGUMENT, "%s takes %u arguments, got %u",
                kernel.name.c_str(), sig.num_args, numArgs);
  if (numArgs > 0 && !args)
    return fail(err, HD_ERROR_INVALID_ARGUMENT, "%s: %u arguments announced, args is NULL",
                kernel.name.c_str(), numArgs);
  for (uint32_t i = 0; i < numArgs; ++i) {
    if (args[i].kind != sig.args[i])
      return fail(err, HD_ERROR_INVALID_ARGUMENT, "argument %u of %s is %s, got %s", i,
                  kernel.name.c_str(), hd_arg_kind_name(sig.args[i]),
                  hd_arg_kind_name(args[i].kind));
    if (hd_status s = checkValue(kernel, i, args[i], err))
      return s;
  }
  {
    std::lock_guard<std::mutex> lock(device.context->mutex);
    for (uint32_t i = 0; i < numArgs; ++i) {
      if (args[i].kind == HD_ARG_TENSOR_DESC) {
        if (hd_status s = checkDescriptor(kernel, i, args[i].value.desc, err))
          return s;
        continue;
      }
      if (args[i].kind != HD_ARG_PTR)
        continue;
      if (args[i].value.ptr == 0)
        return fail(err, HD_ERROR_INVALID_ARGUMENT, "argument %u of %s is a NULL pointer", i,
                    kernel.name.c_str());
      if (!insideBuffer(device, args[i].value.ptr))
        return fail(err, HD_ERROR_INVALID_ARGUMENT,
                    "argument %u of %s: 0x%" PRIx64 " is not inside a live buffer of %s", i,
                    kernel.name.c_str(), args[i].value.ptr, device.name.c_str());
    }
  }

  const hd_device_info &info = device.info;
  uint64_t limit = info.shared_bytes_per_cta;
  if (sig.static_shared_bytes > limit || dynamicShared > limit - sig.static_shared_bytes)
    return fail(err, HD_ERROR_INVALID_ARGUMENT,
                "%s needs %" PRIu64 " static + %" PRIu64 " dynamic shared bytes, %s allows %" PRIu64
                " per CTA",
                kernel.name.c_str(), sig.static_shared_bytes, dynamicShared, device.name.c_str(),
                limit);
  uint64_t warpSize = sig.warp_size ? sig.warp_size : info.warp_size;
  uint64_t threads = uint64_t(sig.num_warps) * warpSize;
  if (info.max_threads_per_cta && threads > info.max_threads_per_cta)
    return fail(err, HD_ERROR_INVALID_ARGUMENT,
                "%s uses %u warps of %" PRIu64 " = %" PRIu64
                " threads per CTA, %s allows %u",
                kernel.name.c_str(), sig.num_warps, warpSize, threads, device.name.c_str(),
                info.max_threads_per_cta);
  return HD_OK;
}

} // namespace

extern "C" {

hd_status hd_launch(hd_kernel *kernel, const uint32_t grid[3], const hd_arg *args,
                    uint32_t num_args, uint64_t dynamic_shared_bytes, hd_error *err) {
  clearError(err);
  if (!kernel || !grid)
    return fail(err, HD_ERROR_INVALID_ARGUMENT, "hd_launch: NULL kernel or grid");
  if (hd_status s = checkLaunch(*kernel, args, num_args, dynamic_shared_bytes, err))
    return s;
  if (grid[0] == 0 || grid[1] == 0 || grid[2] == 0)
    return HD_OK;
  hd_device *device = kernel->module->device;
  hd_error pluginErr;
  clearError(&pluginErr);
  hd_status status = device->plugin->runtime->launch(kernel->module->loaded, &kernel->signature,
                                                     grid, args, dynamic_shared_bytes, &pluginErr);
  if (status == HD_OK)
    return HD_OK;
  return fail(err, status, "%s: launch of %s on grid %ux%ux%u failed: %s", device->name.c_str(),
              kernel->name.c_str(), grid[0], grid[1], grid[2],
              pluginErr.message[0] ? pluginErr.message : "(the plugin gave no message)");
}

hd_status hd_synchronize(hd_device *device, hd_error *err) {
  clearError(err);
  if (!device)
    return fail(err, HD_ERROR_INVALID_ARGUMENT, "hd_synchronize: device is NULL");
  hd_error pluginErr;
  clearError(&pluginErr);
  hd_status status = device->plugin->runtime->synchronize(device->index, &pluginErr);
  return status == HD_OK ? HD_OK
                         : forwardPluginError(err, device, "synchronize", pluginErr, status);
}

hd_status hd_event_create(hd_device *device, hd_event **out, hd_error *err) {
  clearError(err);
  if (!device || !out)
    return fail(err, HD_ERROR_INVALID_ARGUMENT, "hd_event_create: NULL argument");
  *out = nullptr;
  auto *event = new (std::nothrow) hd_event;
  if (!event)
    return fail(err, HD_ERROR_OUT_OF_MEMORY, "hd_event_create: out of host memory");
  event->device = device;
  hd_error pluginErr;
  clearError(&pluginErr);
  hd_status status = device->plugin->runtime->event_create(device->index, &event->event, &pluginErr);
  if (status != HD_OK) {
    delete event;
    return forwardPluginError(err, device, "event_create", pluginErr, status);
  }
  try {
    std::lock_guard<std::mutex> lock(device->context->mutex);
    device->context->events.insert(event);
  } catch (const std::bad_alloc &) {
    releaseEvent(event);
    return fail(err, HD_ERROR_OUT_OF_MEMORY, "hd_event_create: out of host memory");
  }
  *out = event;
  return HD_OK;
}

hd_status hd_event_record(hd_event *event, hd_error *err) {
  clearError(err);
  if (!event)
    return fail(err, HD_ERROR_INVALID_ARGUMENT, "hd_event_record: event is NULL");
  hd_error pluginErr;
  clearError(&pluginErr);
  hd_status status = event->device->plugin->runtime->event_record(event->event, &pluginErr);
  return status == HD_OK ? HD_OK
                         : forwardPluginError(err, event->device, "event_record", pluginErr, status);
}

hd_status hd_event_elapsed_ms(hd_event *start, hd_event *end, float *ms, hd_error *err) {
  clearError(err);
  if (!start || !end || !ms)
    return fail(err, HD_ERROR_INVALID_ARGUMENT, "hd_event_elapsed_ms: NULL argument");
  if (start->device != end->device)
    return fail(err, HD_ERROR_INVALID_ARGUMENT,
                "hd_event_elapsed_ms: start is on %s, end on %s; both must be on one device",
                start->device->name.c_str(), end->device->name.c_str());
  hd_error pluginErr;
  clearError(&pluginErr);
  hd_status status =
      start->device->plugin->runtime->event_elapsed_ms(start->event, end->event, ms, &pluginErr);
  return status == HD_OK
             ? HD_OK
             : forwardPluginError(err, start->device, "event_elapsed_ms", pluginErr, status);
}

hd_status hd_event_destroy(hd_event *event, hd_error *err) {
  clearError(err);
  if (!event)
    return HD_OK;
  hd_device *device = event->device;
  {
    std::lock_guard<std::mutex> lock(device->context->mutex);
    device->context->events.erase(event);
  }
  hd_error pluginErr;
  clearError(&pluginErr);
  hd_status status = device->plugin->runtime->event_destroy(event->event, &pluginErr);
  delete event;
  return status == HD_OK ? HD_OK
                         : forwardPluginError(err, device, "event_destroy", pluginErr, status);
}

} // extern "C"
