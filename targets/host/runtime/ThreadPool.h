//===- ThreadPool.h - The host plugin's CTA workers -------------*- C++ -*-===//
//
// One persistent worker per core, started on the first launch. A launch hands
// the pool a number of CTAs; workers take CTA indices from an atomic counter,
// so a slow CTA does not hold back a fixed share of the grid. Each worker
// owns a 64-byte-aligned shared-memory buffer that grows to the largest
// request seen and is reused across launches (it is not cleared: shared
// memory starts undefined, as on a GPU).
//
//===----------------------------------------------------------------------===//
#ifndef HADRON_TARGETS_HOST_RUNTIME_THREADPOOL_H
#define HADRON_TARGETS_HOST_RUNTIME_THREADPOOL_H

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace hadron::host {

class ThreadPool {
public:
  /// Runs CTAs [first, last) on the calling worker with its shared buffer:
  /// a reference to a callable that outlives run() (no copy, no allocation
  /// per launch).
  class Body {
  public:
    template <typename F>
    Body(const F &f)
        : callable_(&f), call_([](const void *c, uint64_t first, uint64_t last, void *shared) {
            (*static_cast<const F *>(c))(first, last, shared);
          }) {}
    void operator()(uint64_t first, uint64_t last, void *shared) const {
      call_(callable_, first, last, shared);
    }

  private:
    const void *callable_;
    void (*call_)(const void *, uint64_t, uint64_t, void *);
  };

  /// The process-wide pool, started on first use.
  static ThreadPool &get();

  explicit ThreadPool(unsigned workers);
  ~ThreadPool();
  ThreadPool(const ThreadPool &) = delete;
  ThreadPool &operator=(const ThreadPool &) = delete;

  /// Runs body(cta, shared) for every cta in [0, ctas) and returns when all
  /// have finished; a single CTA runs on the calling thread. `shared` holds
  /// at least `sharedBytes` bytes. Launches from several threads run one
  /// after the other. Returns false, with the number of CTAs that ran in
  /// `ran`, when no worker could allocate its shared buffer.
  bool run(uint64_t ctas, uint64_t sharedBytes, const Body &body, uint64_t &ran);

  unsigned size() const { return static_cast<unsigned>(workers_.size()); }

private:
  struct Job {
    uint64_t ctas = 0;
    uint64_t sharedBytes = 0;
    const Body *body = nullptr;
    /// CTAs a worker takes at a time: a few chunks per worker, so that the
    /// shared counter is touched rarely and the tail still balances.
    uint64_t chunk = 1;
    alignas(64) std::atomic<uint64_t> next{0};
    alignas(64) std::atomic<uint64_t> ran{0};
  };

  struct SharedBuffer {
    void *data = nullptr;
    uint64_t bytes = 0;
    SharedBuffer() = default;
    SharedBuffer(const SharedBuffer &) = delete;
    SharedBuffer &operator=(const SharedBuffer &) = delete;
    ~SharedBuffer();
    bool reserve(uint64_t bytes);
  };

  void workerLoop(unsigned index);
  static void drain(Job &job, SharedBuffer &buffer);

  std::mutex launchMutex_; // one job at a time
  std::mutex mutex_;       // guards the fields below
  std::condition_variable wake_, done_;
  uint64_t generation_ = 0;
  unsigned active_ = 0;
  bool stop_ = false;
  Job *job_ = nullptr;

  std::unique_ptr<SharedBuffer[]> buffers_; // one per worker, plus one for the caller
  std::vector<std::thread> workers_;
};

} // namespace hadron::host

#endif // HADRON_TARGETS_HOST_RUNTIME_THREADPOOL_H
