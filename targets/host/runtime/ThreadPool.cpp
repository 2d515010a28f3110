//===- ThreadPool.cpp - The host plugin's CTA workers ---------------------===//

#include "ThreadPool.h"

#include "HostRuntime.h"

#include <algorithm>
#include <cstdlib>
#include <system_error>

namespace hadron::host {

ThreadPool &ThreadPool::get() {
  static ThreadPool pool(hostCoreCount());
  return pool;
}

ThreadPool::ThreadPool(unsigned workers) : buffers_(new SharedBuffer[workers + 1]) {
  for (unsigned i = 0; i < workers; ++i) {
    try {
      workers_.emplace_back([this, i] { workerLoop(i); });
    } catch (const std::system_error &) {
      break; // fewer workers; with none, run() uses the calling thread
    }
  }
}

ThreadPool::~ThreadPool() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_ = true;
  }
  wake_.notify_all();
  for (std::thread &t : workers_)
    t.join();
}

ThreadPool::SharedBuffer::~SharedBuffer() { std::free(data); }

bool ThreadPool::SharedBuffer::reserve(uint64_t want) {
  // Never hand out a null pointer, even for kernels with no shared memory.
  want = want < 64 ? 64 : (want + 63) / 64 * 64;
  if (want <= bytes)
    return true;
  void *fresh = std::aligned_alloc(64, want);
  if (!fresh)
    return false;
  std::free(data);
  data = fresh;
  bytes = want;
  return true;
}

void ThreadPool::drain(Job &job, SharedBuffer &buffer) {
  if (!buffer.reserve(job.sharedBytes))
    return; // the other workers take this one's share
  uint64_t ran = 0;
  for (uint64_t first; (first = job.next.fetch_add(job.chunk, std::memory_order_relaxed)) < job.ctas;) {
    const uint64_t last = job.ctas - first < job.chunk ? job.ctas : first + job.chunk;
    (*job.body)(first, last, buffer.data);
    ran += last - first;
  }
  job.ran.fetch_add(ran, std::memory_order_relaxed);
}

void ThreadPool::workerLoop(unsigned index) {
  uint64_t seen = 0;
  while (true) {
    Job *job;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      wake_.wait(lock, [&] { return stop_ || generation_ != seen; });
      if (stop_)
        return;
      seen = generation_;
      job = job_;
    }
    drain(*job, buffers_[index]);
    std::lock_guard<std::mutex> lock(mutex_);
    if (--active_ == 0)
      done_.notify_one();
  }
}

bool ThreadPool::run(uint64_t ctas, uint64_t sharedBytes, const Body &body, uint64_t &ran) {
  std::lock_guard<std::mutex> launchLock(launchMutex_);
  Job job;
  job.ctas = ctas;
  job.sharedBytes = sharedBytes;
  job.body = &body;
  const uint64_t workers = workers_.empty() ? 1 : workers_.size();
  job.chunk = std::max<uint64_t>(1, std::min<uint64_t>(64, ctas / (workers * 8)));
  if (workers_.empty() || ctas == 1) {
    // One CTA runs on the caller: waking a worker and waiting for it would
    // cost more than a small kernel (microseconds a launch).
    drain(job, buffers_[workers_.size()]);
  } else {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      job_ = &job;
      active_ = static_cast<unsigned>(workers_.size());
      ++generation_;
    }
    wake_.notify_all();
    std::unique_lock<std::mutex> lock(mutex_);
    done_.wait(lock, [&] { return active_ == 0; });
    job_ = nullptr;
  }
  ran = job.ran.load();
  return ran == ctas;
}

} // namespace hadron::host
