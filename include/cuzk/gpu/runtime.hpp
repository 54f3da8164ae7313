// CUDA runtime access for host code that is compiled without nvcc: device presence,
// raw device memory, copies, synchronisation, an event timer. Errors throw
// cuzk::gpu::CudaError with the failing call and CUDA's message.
#pragma once

#include <cstddef>
#include <span>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>

#include "cuzk/gpu/smem_limits.hpp"
#include "cuzk/gpu/tuning.hpp"

namespace cuzk::gpu {

class CudaError : public std::runtime_error {
 public:
  explicit CudaError(const std::string& what) : std::runtime_error(what) {}
};

// True when at least one CUDA device can be used; otherwise why (if given) says why not.
bool device_available(std::string* why = nullptr);
// True when `device` can run this build's kernels (the build has machine code for its
// architecture, or PTX the driver can compile for it); otherwise why (if given) names the
// device, its sm_XY, the architectures built, and the CMake option that fixes it.
bool device_supported(int device, std::string* why = nullptr);
// Throws CudaError("no usable CUDA device: ...") when device_available() is false or the
// current device is not device_supported().
void require_device();
// Name, SM count and memory of a device (default 0), one line.
std::string device_description(int device = 0);

// Devices and per-thread device selection (cudaSetDevice is per host thread: every
// worker thread selects its device before touching memory or launching work).
int device_count();         // 0 when no device can be used
int current_device();
void set_device(int device);  // throws CudaError for an invalid index
// Free and total memory of the current device.
void device_memory(std::size_t* free_bytes, std::size_t* total_bytes);

// The current device's shared-memory limits (smem_limits.hpp), or, for emulate_smem_per_sm_kib
// other than 0 (Tuning::emulate_smem_per_sm_kib), those of an SM of that many KiB
// (SmemLimits::of_kib; 100 for a consumer card): a benchmark or test on one card then plans and
// launches the shared-memory kernels as the other card would, with its blocks per SM (its
// occupancy, not its speed). Throws std::invalid_argument for a figure outside 16 up to the
// device's own.
SmemLimits device_smem_limits(std::size_t emulate_smem_per_sm_kib = 0);
// The dynamic shared memory to launch a block that needs `bytes` with: `bytes`, or, while
// emulating an SM of emulate_smem_per_sm_kib KiB (0: none), emulated_launch_bytes(bytes, the
// device's limits, the emulated ones). A kernel launched with more than 48 KiB must allow it
// (cudaFuncAttributeMaxDynamicSharedMemorySize).
std::size_t launch_smem_bytes(std::size_t bytes, std::size_t emulate_smem_per_sm_kib = 0);

// Selects `device` for this thread for the guard's lifetime and restores the previous
// selection afterwards.
class DeviceGuard {
 public:
  explicit DeviceGuard(int device) : prev_(current_device()) {
    if (device != prev_) set_device(device);
  }
  ~DeviceGuard() {
    try {
      if (current_device() != prev_) set_device(prev_);
    } catch (...) {
    }
  }
  DeviceGuard(const DeviceGuard&) = delete;
  DeviceGuard& operator=(const DeviceGuard&) = delete;

 private:
  int prev_;
};

// Where a DeviceBuffer's memory comes from.
//   kPlain: cudaMalloc / cudaFree. A cudaFree waits for the whole device (every stream of
//     every thread), so freeing a temporary stalls this thread behind other workers' kernels.
//   kStreamOrdered: cudaMallocAsync / cudaFreeAsync on the calling thread's stream, from the
//     device's default memory pool (plain where the device has no pools). Neither waits for
//     other streams. For per-proof temporaries, with two rules:
//       - another stream may use the memory only after the allocating thread's stream has been
//         synchronised (stream_synchronize()) since the allocation;
//       - the thread that frees it (destroys the buffer) must do so after every other stream's
//         use of it has finished (that stream synchronised, or its thread joined after a
//         synchronous call): the free is ordered in the freeing thread's stream only.
//     The pool keeps freed memory for later allocations (no cudaMalloc cost per proof); an
//     allocation of either kind that finds the device full returns that cache to the driver,
//     waiting for its own stream only, and tries again (in a PoolScope: MemoryPool::make_room()):
//     freed blocks smaller than a later, larger request would otherwise hold memory the VRAM
//     estimates count as free. A thread inside a PoolScope (memory_pool.hpp) allocates from its
//     proof's pool instead of the device's default one.
enum class DeviceAlloc { kPlain, kStreamOrdered };

void* device_alloc(std::size_t bytes, DeviceAlloc how = DeviceAlloc::kPlain);
void device_free(void* p, DeviceAlloc how = DeviceAlloc::kPlain, std::size_t bytes = 0) noexcept;  // bytes: as allocated
// Returns the current device's unused default-pool memory to the driver, after waiting for the
// whole device (frees queued on every stream land first): for a program that proves one thing at
// a time. Proofs of a DeviceContext (context.hpp) have pools of their own (memory_pool.hpp),
// which they trim without stalling one another.
void release_cached_device_memory();
// The stream-ordered memory's process-wide diagnostics (Tuning::pool_driver_defaults and
// Tuning::guard_bytes; the rest of the tuning is not read here). The driver's default pool is
// one per device for the whole process, and a buffer's guard bytes must be the same at its free
// as at its allocation, so these are settings of the process, not of a caller: a program's main
// sets them once, before its first stream-ordered allocation; without the call the defaults hold
// (the pool set up for cuzk, no guard bytes). The first allocation or free of device memory
// through this header fixes them: a later call with other settings throws std::logic_error, one
// with the same settings does nothing.
void configure_device_memory(const Tuning& tuning);
void copy_to_device(void* dst, const void* src, std::size_t bytes);
void copy_to_host(void* dst, const void* src, std::size_t bytes);
void copy_device_to_device(void* dst, const void* src, std::size_t bytes);
void device_memset_zero(void* dst, std::size_t bytes);
// Waits for the work this host thread queued on the current device (its per-thread default
// stream; other threads' work on the device goes on), throws on any asynchronous error.
void stream_synchronize();

// Waits for the calling thread's stream when it goes out of scope (errors swallowed). Declared
// before a scope's stream-ordered buffers (and after its DeviceGuard), it runs after their frees:
// a thread that is about to exit then leaves nothing of its own queued in its per-thread stream.
class StreamDrain {
 public:
  StreamDrain() = default;
  ~StreamDrain() {
    try {
      stream_synchronize();
    } catch (...) {
    }
  }
  StreamDrain(const StreamDrain&) = delete;
  StreamDrain& operator=(const StreamDrain&) = delete;
};

// Owning, move-only array of n trivially copyable T in device memory.
template <class T>
class DeviceBuffer {
  static_assert(std::is_trivially_copyable_v<T>);

 public:
  DeviceBuffer() = default;
  explicit DeviceBuffer(std::size_t n, DeviceAlloc how = DeviceAlloc::kPlain)
      : p_(static_cast<T*>(device_alloc(n * sizeof(T), how))), n_(n), how_(how) {}
  explicit DeviceBuffer(std::span<const T> host, DeviceAlloc how = DeviceAlloc::kPlain) : DeviceBuffer(host.size(), how) {
    upload(host);
  }
  DeviceBuffer(DeviceBuffer&& o) noexcept
      : p_(std::exchange(o.p_, nullptr)), n_(std::exchange(o.n_, 0)), how_(o.how_) {}
  DeviceBuffer& operator=(DeviceBuffer&& o) noexcept {
    if (this != &o) {
      device_free(p_, how_, n_ * sizeof(T));
      p_ = std::exchange(o.p_, nullptr);
      n_ = std::exchange(o.n_, 0);
      how_ = o.how_;
    }
    return *this;
  }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  ~DeviceBuffer() { device_free(p_, how_, n_ * sizeof(T)); }

  T* data() { return p_; }
  const T* data() const { return p_; }
  std::size_t size() const { return n_; }

  void upload(std::span<const T> host) {
    check(host.size(), "upload");
    copy_to_device(p_, host.data(), host.size() * sizeof(T));
  }
  void download(std::span<T> host) const {
    check(host.size(), "download");
    copy_to_host(host.data(), p_, host.size() * sizeof(T));
  }

 private:
  void check(std::size_t n, const char* what) const {
    if (n != n_)
      throw std::invalid_argument(std::string("DeviceBuffer::") + what + ": host span has " + std::to_string(n) +
                                  " elements, the buffer " + std::to_string(n_));
  }
  T* p_ = nullptr;
  std::size_t n_ = 0;
  DeviceAlloc how_ = DeviceAlloc::kPlain;
};

// Elapsed device time between start() and stop() (cudaEvents on the default stream).
class EventTimer {
 public:
  EventTimer();
  ~EventTimer();
  EventTimer(const EventTimer&) = delete;
  EventTimer& operator=(const EventTimer&) = delete;
  void start();
  void stop();
  float elapsed_ms();  // waits for the stop event

 private:
  void* start_ = nullptr;
  void* stop_ = nullptr;
};

}  // namespace cuzk::gpu
