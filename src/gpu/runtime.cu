// CUDA runtime wrappers declared in cuzk/gpu/runtime.hpp: devices, copies, synchronisation,
// events (device memory: device_memory.cu).
#include <cuda_runtime.h>

#include <sstream>
#include <stdexcept>
#include <string>

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

namespace {
// An empty kernel: whether the driver finds code of this build for a device.
__global__ void probe_kernel() {}
}  // namespace

#ifndef CUZK_CUDA_ARCHS
#define CUZK_CUDA_ARCHS "(not recorded)"
#endif

bool device_supported(int device, std::string* why) {
  cudaDeviceProp p{};
  if (const cudaError_t e = cudaGetDeviceProperties(&p, device); e != cudaSuccess) {
    cudaGetLastError();
    if (why) *why = "device " + std::to_string(device) + ": " + cudaGetErrorString(e);
    return false;
  }
  int prev = 0;
  cudaFuncAttributes a{};
  cudaError_t e = cudaGetDevice(&prev);
  if (e == cudaSuccess) e = cudaSetDevice(device);
  if (e == cudaSuccess) {
    e = cudaFuncGetAttributes(&a, probe_kernel);
    cudaSetDevice(prev);
  }
  if (e == cudaSuccess) return true;
  cudaGetLastError();
  if (why) {
    const std::string sm = std::to_string(p.major) + std::to_string(p.minor);
    *why = "device " + std::to_string(device) + " (" + p.name + ", sm_" + sm + ") cannot run this build's kernels (" +
           cudaGetErrorString(e) + "); built for CUDA architectures " CUZK_CUDA_ARCHS "; " +
           (p.major < 8 ? std::string("cuzk needs sm_80 or later (cp.async)")
                        : "rebuild with -DCMAKE_CUDA_ARCHITECTURES=" + sm);
  }
  return false;
}

void require_device() {
  std::string why;
  if (!device_available(&why)) throw CudaError("no usable CUDA device: " + why);
  if (!device_supported(current_device(), &why)) throw CudaError("no usable CUDA device: " + why);
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

namespace {
SmemLimits real_smem_limits() {
  const int dev = current_device();
  int per_sm = 0, reserved = 0, per_block = 0;
  CUZK_CUDA_CHECK(cudaDeviceGetAttribute(&per_sm, cudaDevAttrMaxSharedMemoryPerMultiprocessor, dev));
  CUZK_CUDA_CHECK(cudaDeviceGetAttribute(&reserved, cudaDevAttrReservedSharedMemoryPerBlock, dev));
  CUZK_CUDA_CHECK(cudaDeviceGetAttribute(&per_block, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev));
  return {static_cast<std::size_t>(per_sm), static_cast<std::size_t>(reserved), static_cast<std::size_t>(per_block)};
}
// An SM of kib KiB as limits, or nothing (0 per SM) for 0.
SmemLimits emulated_smem_limits(const SmemLimits& real, std::size_t kib) {
  if (kib == 0) return {};
  if (kib < 16 || kib > (real.per_sm >> 10))
    throw std::invalid_argument("an emulated SM of " + std::to_string(kib) +
                                " KiB (Tuning::emulate_smem_per_sm_kib, CUZK_EMULATE_SMEM_PER_SM_KIB): want KiB of "
                                "shared memory per SM from 16 up to this device's " +
                                std::to_string(real.per_sm >> 10));
  return SmemLimits::of_kib(kib);
}
}  // namespace

SmemLimits device_smem_limits(std::size_t emulate_smem_per_sm_kib) {
  const SmemLimits real = real_smem_limits();
  const SmemLimits emulated = emulated_smem_limits(real, emulate_smem_per_sm_kib);
  return emulated.per_sm != 0 ? emulated : real;
}

std::size_t launch_smem_bytes(std::size_t bytes, std::size_t emulate_smem_per_sm_kib) {
  if (emulate_smem_per_sm_kib == 0) return bytes;
  const SmemLimits real = real_smem_limits();
  return emulated_launch_bytes(bytes, real, emulated_smem_limits(real, emulate_smem_per_sm_kib));
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
