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

namespace cuzk::gpu {

class CudaError : public std::runtime_error {
 public:
  explicit CudaError(const std::string& what) : std::runtime_error(what) {}
};

// True when at least one CUDA device can be used; otherwise why (if given) says why not.
bool device_available(std::string* why = nullptr);
// Throws CudaError("no usable CUDA device: ...") when device_available() is false.
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

void* device_alloc(std::size_t bytes);
void device_free(void* p) noexcept;
void copy_to_device(void* dst, const void* src, std::size_t bytes);
void copy_to_host(void* dst, const void* src, std::size_t bytes);
void copy_device_to_device(void* dst, const void* src, std::size_t bytes);
void device_memset_zero(void* dst, std::size_t bytes);
// Waits for the work this host thread queued on the current device (its per-thread default
// stream; other threads' work on the device goes on), throws on any asynchronous error.
void stream_synchronize();

// Owning, move-only array of n trivially copyable T in device memory.
template <class T>
class DeviceBuffer {
  static_assert(std::is_trivially_copyable_v<T>);

 public:
  DeviceBuffer() = default;
  explicit DeviceBuffer(std::size_t n) : p_(static_cast<T*>(device_alloc(n * sizeof(T)))), n_(n) {}
  explicit DeviceBuffer(std::span<const T> host) : DeviceBuffer(host.size()) { upload(host); }
  DeviceBuffer(DeviceBuffer&& o) noexcept : p_(std::exchange(o.p_, nullptr)), n_(std::exchange(o.n_, 0)) {}
  DeviceBuffer& operator=(DeviceBuffer&& o) noexcept {
    if (this != &o) {
      device_free(p_);
      p_ = std::exchange(o.p_, nullptr);
      n_ = std::exchange(o.n_, 0);
    }
    return *this;
  }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  ~DeviceBuffer() { device_free(p_); }

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
