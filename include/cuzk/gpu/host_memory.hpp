// Page-locked (pinned) host memory and asynchronous copies, for host code compiled without
// nvcc. Pinned memory is what the GPU's copy engines read at full link speed and what makes
// cudaMemcpyAsync truly asynchronous; pageable memory is staged by the driver.
//
//   HostRegistration  page-locks an existing host range (a proving key's point arrays) for its
//                     lifetime (cudaHostRegister, portable to every device); move-only.
//   PinnedBuffer<T>   n page-locked T allocated by CUDA (staging buffers); move-only.
//   Stream            a non-blocking CUDA stream of the current device; copies queued on it
//                     overlap kernels on other streams.
//   Event             marks a point in a stream; another stream (or the host) waits on it.
// Errors throw cuzk::gpu::CudaError (runtime.hpp) naming the call.
#pragma once

#include <cstddef>
#include <type_traits>
#include <utility>

#include "cuzk/gpu/runtime.hpp"

namespace cuzk::gpu {

class HostRegistration {
 public:
  HostRegistration() = default;
  // Page-locks [p, p + bytes); bytes == 0 registers nothing.
  HostRegistration(const void* p, std::size_t bytes);
  HostRegistration(HostRegistration&& o) noexcept
      : p_(std::exchange(o.p_, nullptr)), bytes_(std::exchange(o.bytes_, 0)) {}
  HostRegistration& operator=(HostRegistration&& o) noexcept {
    if (this != &o) {
      reset();
      p_ = std::exchange(o.p_, nullptr);
      bytes_ = std::exchange(o.bytes_, 0);
    }
    return *this;
  }
  HostRegistration(const HostRegistration&) = delete;
  HostRegistration& operator=(const HostRegistration&) = delete;
  ~HostRegistration() { reset(); }
  std::size_t bytes() const { return bytes_; }
  void reset() noexcept;  // unregisters

 private:
  void* p_ = nullptr;
  std::size_t bytes_ = 0;
};

void* pinned_alloc(std::size_t bytes);  // cudaHostAlloc (portable); nullptr for 0 bytes
void pinned_free(void* p) noexcept;
// True when p lies in page-locked memory known to CUDA (registered or pinned_alloc'd).
bool is_pinned(const void* p);

template <class T>
class PinnedBuffer {
  static_assert(std::is_trivially_copyable_v<T>);

 public:
  PinnedBuffer() = default;
  explicit PinnedBuffer(std::size_t n) : p_(static_cast<T*>(pinned_alloc(n * sizeof(T)))), n_(n) {}
  PinnedBuffer(PinnedBuffer&& o) noexcept : p_(std::exchange(o.p_, nullptr)), n_(std::exchange(o.n_, 0)) {}
  PinnedBuffer& operator=(PinnedBuffer&& o) noexcept {
    if (this != &o) {
      pinned_free(p_);
      p_ = std::exchange(o.p_, nullptr);
      n_ = std::exchange(o.n_, 0);
    }
    return *this;
  }
  PinnedBuffer(const PinnedBuffer&) = delete;
  PinnedBuffer& operator=(const PinnedBuffer&) = delete;
  ~PinnedBuffer() { pinned_free(p_); }
  T* data() { return p_; }
  const T* data() const { return p_; }
  std::size_t size() const { return n_; }

 private:
  T* p_ = nullptr;
  std::size_t n_ = 0;
};

class Stream {
 public:
  Stream();  // on the current device
  Stream(Stream&& o) noexcept : s_(std::exchange(o.s_, nullptr)) {}
  Stream& operator=(Stream&&) = delete;
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;
  ~Stream();
  void* handle() const { return s_; }  // a cudaStream_t
  void synchronize();                  // waits for the queued work, throws on its errors
  // Queues a host -> device / device -> host copy (asynchronous when the host side is pinned).
  void copy_to_device(void* dst, const void* src, std::size_t bytes);
  void copy_to_host(void* dst, const void* src, std::size_t bytes);

 private:
  void* s_ = nullptr;
};

class Event {
 public:
  Event();  // timing disabled: only ordering
  Event(Event&& o) noexcept : e_(std::exchange(o.e_, nullptr)) {}
  Event& operator=(Event&&) = delete;
  Event(const Event&) = delete;
  Event& operator=(const Event&) = delete;
  ~Event();
  void record(const Stream& s);
  void record_default();               // on this thread's default stream
  void wait_on(const Stream& s) const;  // work queued on s after this waits for the event
  void wait_default() const;            // the same for this thread's default stream
  void synchronize() const;             // the host waits

 private:
  void* e_ = nullptr;
};

}  // namespace cuzk::gpu
