// Pinned host memory, streams and events (cuzk/gpu/host_memory.hpp).
#include <cuda_runtime.h>

#include "check.cuh"
#include "cuzk/gpu/host_memory.hpp"

namespace cuzk::gpu {

HostRegistration::HostRegistration(const void* p, std::size_t bytes) {
  if (bytes == 0) return;
  // cudaHostRegister takes a non-const pointer but only page-locks the range.
  void* q = const_cast<void*>(p);
  CUZK_CUDA_CHECK(cudaHostRegister(q, bytes, cudaHostRegisterPortable));
  p_ = q;
  bytes_ = bytes;
}

void HostRegistration::reset() noexcept {
  if (p_ != nullptr) {
    if (cudaHostUnregister(p_) != cudaSuccess) cudaGetLastError();
    p_ = nullptr;
    bytes_ = 0;
  }
}

void* pinned_alloc(std::size_t bytes) {
  if (bytes == 0) return nullptr;
  void* p = nullptr;
  CUZK_CUDA_CHECK(cudaHostAlloc(&p, bytes, cudaHostAllocPortable));
  return p;
}

void pinned_free(void* p) noexcept {
  if (p != nullptr && cudaFreeHost(p) != cudaSuccess) cudaGetLastError();
}

bool is_pinned(const void* p) {
  cudaPointerAttributes a{};
  if (cudaPointerGetAttributes(&a, p) != cudaSuccess) {
    cudaGetLastError();
    return false;
  }
  return a.type == cudaMemoryTypeHost;
}

Stream::Stream() {
  cudaStream_t s = nullptr;
  CUZK_CUDA_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  s_ = s;
}
Stream::~Stream() {
  if (s_ != nullptr) cudaStreamDestroy(static_cast<cudaStream_t>(s_));
}
void Stream::synchronize() { CUZK_CUDA_CHECK(cudaStreamSynchronize(static_cast<cudaStream_t>(s_))); }
void Stream::copy_to_device(void* dst, const void* src, std::size_t bytes) {
  if (bytes) CUZK_CUDA_CHECK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyHostToDevice, static_cast<cudaStream_t>(s_)));
}
void Stream::copy_to_host(void* dst, const void* src, std::size_t bytes) {
  if (bytes) CUZK_CUDA_CHECK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToHost, static_cast<cudaStream_t>(s_)));
}

Event::Event() {
  cudaEvent_t e = nullptr;
  CUZK_CUDA_CHECK(cudaEventCreateWithFlags(&e, cudaEventDisableTiming));
  e_ = e;
}
Event::~Event() {
  if (e_ != nullptr) cudaEventDestroy(static_cast<cudaEvent_t>(e_));
}
void Event::record(const Stream& s) {
  CUZK_CUDA_CHECK(cudaEventRecord(static_cast<cudaEvent_t>(e_), static_cast<cudaStream_t>(s.handle())));
}
void Event::record_default() { CUZK_CUDA_CHECK(cudaEventRecord(static_cast<cudaEvent_t>(e_), cudaStreamPerThread)); }
void Event::wait_on(const Stream& s) const {
  CUZK_CUDA_CHECK(cudaStreamWaitEvent(static_cast<cudaStream_t>(s.handle()), static_cast<cudaEvent_t>(e_), 0));
}
void Event::wait_default() const {
  CUZK_CUDA_CHECK(cudaStreamWaitEvent(cudaStreamPerThread, static_cast<cudaEvent_t>(e_), 0));
}
void Event::synchronize() const { CUZK_CUDA_CHECK(cudaEventSynchronize(static_cast<cudaEvent_t>(e_))); }

}  // namespace cuzk::gpu
