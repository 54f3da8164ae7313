// CUDA runtime wrappers declared in cuzk/gpu/runtime.hpp.
#include <cuda_runtime.h>

#include <sstream>

#include "cuzk/gpu/runtime.hpp"
#include "check.cuh"

namespace cuzk::gpu {

bool device_available(std::string* why) {
  int n = 0;
  const cudaError_t e = cudaGetDeviceCount(&n);
  if (e != cudaSuccess) {
    if (why) *why = std::string("cudaGetDeviceCount failed: ") + cudaGetErrorString(e);
    cudaGetLastError();
    return false;
  }
  if (n == 0) {
    if (why) *why = "no CUDA device present";
    return false;
  }
  return true;
}

void require_device() {
  std::string why;
  if (!device_available(&why)) throw CudaError("no usable CUDA device: " + why);
}

std::string device_description(int device) {
  cudaDeviceProp p{};
  CUZK_CUDA_CHECK(cudaGetDeviceProperties(&p, device));
  std::ostringstream os;
  os << p.name << ", sm_" << p.major << p.minor << ", " << p.multiProcessorCount << " SMs, "
     << (p.totalGlobalMem >> 20) << " MiB, L2 " << (p.l2CacheSize >> 20) << " MiB";
  return os.str();
}

int device_count() {
  int n = 0;
  if (cudaGetDeviceCount(&n) != cudaSuccess) {
    cudaGetLastError();
    return 0;
  }
  return n;
}
int current_device() {
  int d = 0;
  CUZK_CUDA_CHECK(cudaGetDevice(&d));
  return d;
}
void set_device(int device) { CUZK_CUDA_CHECK(cudaSetDevice(device)); }
void device_memory(std::size_t* free_bytes, std::size_t* total_bytes) {
  std::size_t f = 0, t = 0;
  CUZK_CUDA_CHECK(cudaMemGetInfo(&f, &t));
  if (free_bytes) *free_bytes = f;
  if (total_bytes) *total_bytes = t;
}

void* device_alloc(std::size_t bytes) {
  void* p = nullptr;
  if (bytes == 0) return nullptr;
  CUZK_CUDA_CHECK(cudaMalloc(&p, bytes));
  return p;
}
void device_free(void* p) noexcept {
  if (p) cudaFree(p);
}
void copy_to_device(void* dst, const void* src, std::size_t bytes) {
  if (bytes) CUZK_CUDA_CHECK(cudaMemcpy(dst, src, bytes, cudaMemcpyHostToDevice));
}
void copy_to_host(void* dst, const void* src, std::size_t bytes) {
  if (bytes) CUZK_CUDA_CHECK(cudaMemcpy(dst, src, bytes, cudaMemcpyDeviceToHost));
}
void copy_device_to_device(void* dst, const void* src, std::size_t bytes) {
  if (bytes) CUZK_CUDA_CHECK(cudaMemcpy(dst, src, bytes, cudaMemcpyDeviceToDevice));
}
void device_memset_zero(void* dst, std::size_t bytes) {
  if (bytes) CUZK_CUDA_CHECK(cudaMemset(dst, 0, bytes));
}
void stream_synchronize() {
  CUZK_CUDA_CHECK(cudaStreamSynchronize(cudaStreamPerThread));
  CUZK_CUDA_CHECK(cudaGetLastError());
}

EventTimer::EventTimer() {
  cudaEvent_t a, b;
  CUZK_CUDA_CHECK(cudaEventCreate(&a));
  CUZK_CUDA_CHECK(cudaEventCreate(&b));
  start_ = a;
  stop_ = b;
}
EventTimer::~EventTimer() {
  cudaEventDestroy(static_cast<cudaEvent_t>(start_));
  cudaEventDestroy(static_cast<cudaEvent_t>(stop_));
}
void EventTimer::start() { CUZK_CUDA_CHECK(cudaEventRecord(static_cast<cudaEvent_t>(start_))); }
void EventTimer::stop() { CUZK_CUDA_CHECK(cudaEventRecord(static_cast<cudaEvent_t>(stop_))); }
float EventTimer::elapsed_ms() {
  CUZK_CUDA_CHECK(cudaEventSynchronize(static_cast<cudaEvent_t>(stop_)));
  float ms = 0;
  CUZK_CUDA_CHECK(cudaEventElapsedTime(&ms, static_cast<cudaEvent_t>(start_), static_cast<cudaEvent_t>(stop_)));
  return ms;
}

}  // namespace cuzk::gpu
