//===- Memory.cpp - Device buffers and copies -----------------------------===//

#include "ErrorReporting.h"
#include "Objects.h"

#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <new>

using namespace hadron::runtime;

namespace hadron::runtime {

void releaseBuffer(hd_buffer *buffer) {
  hd_error ignored;
  buffer->device->plugin->runtime->mem_free(buffer->device->index, buffer->ptr, &ignored);
  delete buffer;
}

} // namespace hadron::runtime

namespace {

hd_status checkRange(const hd_buffer *buffer, uint64_t offset, uint64_t bytes, const void *host,
                     const char *what, hd_error *err) {
  if (!buffer)
    return fail(err, HD_ERROR_INVALID_ARGUMENT, "%s: buffer is NULL", what);
  if (bytes > 0 && !host)
    return fail(err, HD_ERROR_INVALID_ARGUMENT, "%s of %" PRIu64 " bytes: host pointer is NULL",
                what, bytes);
  if (offset > buffer->size || bytes > buffer->size - offset)
    return fail(err, HD_ERROR_INVALID_ARGUMENT,
                "%s of %" PRIu64 " bytes at offset %" PRIu64 " overruns buffer of %" PRIu64
                " bytes on %s",
                what, bytes, offset, buffer->size, buffer->device->name.c_str());
  return HD_OK;
}

} // namespace

extern "C" {

hd_status hd_buffer_alloc(hd_device *device, uint64_t bytes, hd_buffer **out, hd_error *err) {
  clearError(err);
  if (!device || !out)
    return fail(err, HD_ERROR_INVALID_ARGUMENT, "hd_buffer_alloc: NULL argument");
  *out = nullptr;
  auto *buffer = new (std::nothrow) hd_buffer;
  if (!buffer)
    return fail(err, HD_ERROR_OUT_OF_MEMORY, "hd_buffer_alloc: out of host memory");
  buffer->device = device;
  buffer->size = bytes;
  hd_error pluginErr;
  clearError(&pluginErr);
  hd_status status =
      device->plugin->runtime->mem_alloc(device->index, bytes, &buffer->ptr, &pluginErr);
  if (status != HD_OK) {
    delete buffer;
    hd_status code = forwardPluginError(err, device, "mem_alloc", pluginErr, status);
    // Out of memory names the limit too, whatever the plugin said.
    if (code == HD_ERROR_OUT_OF_MEMORY && err && device->info.global_bytes) {
      size_t used = std::strlen(err->message);
      std::snprintf(err->message + used, sizeof(err->message) - used,
                    "; %s has %llu bytes of global memory", device->name.c_str(),
                    static_cast<unsigned long long>(device->info.global_bytes));
    }
    return code;
  }
  hd_context *ctx = device->context;
  try {
    std::lock_guard<std::mutex> lock(ctx->mutex);
    ctx->buffers.insert(buffer);
    device->buffers[buffer->ptr] = bytes;
  } catch (const std::bad_alloc &) {
    releaseBuffer(buffer);
    return fail(err, HD_ERROR_OUT_OF_MEMORY, "hd_buffer_alloc: out of host memory");
  }
  *out = buffer;
  return HD_OK;
}

hd_status hd_buffer_free(hd_buffer *buffer, hd_error *err) {
  clearError(err);
  if (!buffer)
    return HD_OK;
  hd_device *device = buffer->device;
  {
    std::lock_guard<std::mutex> lock(device->context->mutex);
    device->context->buffers.erase(buffer);
    device->buffers.erase(buffer->ptr);
  }
  hd_error pluginErr;
  clearError(&pluginErr);
  hd_status status = device->plugin->runtime->mem_free(device->index, buffer->ptr, &pluginErr);
  delete buffer;
  return status == HD_OK ? HD_OK : forwardPluginError(err, device, "mem_free", pluginErr, status);
}

hd_status hd_buffer_copy_from_host(hd_buffer *dst, uint64_t offset, const void *src,
                                   uint64_t bytes, hd_error *err) {
  clearError(err);
  if (hd_status s = checkRange(dst, offset, bytes, src, "copy to device", err))
    return s;
  if (bytes == 0)
    return HD_OK;
  hd_error pluginErr;
  clearError(&pluginErr);
  hd_device *device = dst->device;
  hd_status status = device->plugin->runtime->copy_to_device(device->index, dst->ptr + offset,
                                                             src, bytes, &pluginErr);
  return status == HD_OK ? HD_OK
                         : forwardPluginError(err, device, "copy_to_device", pluginErr, status);
}

hd_status hd_buffer_copy_to_host(const hd_buffer *src, uint64_t offset, void *dst,
                                 uint64_t bytes, hd_error *err) {
  clearError(err);
  if (hd_status s = checkRange(src, offset, bytes, dst, "copy to host", err))
    return s;
  if (bytes == 0)
    return HD_OK;
  hd_error pluginErr;
  clearError(&pluginErr);
  hd_device *device = src->device;
  hd_status status = device->plugin->runtime->copy_to_host(device->index, dst, src->ptr + offset,
                                                           bytes, &pluginErr);
  return status == HD_OK ? HD_OK
                         : forwardPluginError(err, device, "copy_to_host", pluginErr, status);
}

hd_device_ptr hd_buffer_device_ptr(const hd_buffer *buffer) { return buffer ? buffer->ptr : 0; }

uint64_t hd_buffer_size(const hd_buffer *buffer) { return buffer ? buffer->size : 0; }

hd_device *hd_buffer_device(const hd_buffer *buffer) { return buffer ? buffer->device : nullptr; }

} // extern "C"
