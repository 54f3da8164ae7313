// CUDA runtime wrappers declared in cuzk/gpu/runtime.hpp.
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <vector>
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

namespace {
// The stream-ordered memory's settings (configure_device_memory): set by a program's main before
// the first stream-ordered allocation, fixed from then on (an allocation's guard bytes must be the
// same at its free). One per process, as the driver's default pools are.
struct MemorySettings {
  bool pool_driver_defaults = false;
  std::size_t guard_bytes = 0;
  bool operator==(const MemorySettings&) const = default;
};
class MemorySettingsSlot {
 public:
  void set(const MemorySettings& s) {
    const std::lock_guard lock(m_);
    if (fixed_ && !(s == s_))
      throw std::logic_error("gpu: configure_device_memory with other settings once device memory is in use");
    if (!fixed_) s_ = s;
  }
  // The settings in use, fixed at the first call.
  const MemorySettings& fixed() {
    std::call_once(once_, [this] {
      const std::lock_guard lock(m_);
      fixed_ = true;
    });
    return s_;  // never written once fixed_
  }

 private:
  std::mutex m_;
  std::once_flag once_;
  bool fixed_ = false;
  MemorySettings s_;
};
MemorySettingsSlot& memory_settings() {
  static MemorySettingsSlot slot;
  return slot;
}
}  // namespace

void configure_device_memory(const Tuning& tuning) {
  memory_settings().set({tuning.pool_driver_defaults, tuning.guard_bytes});
}

namespace {
// The current device's default memory pool, set up once per device for the stream-ordered
// buffers: it keeps freed memory (release threshold: all of it) instead of returning it at
// every synchronisation, and an allocation never waits on another stream's pending free
// (no internal dependencies: the pool grows instead, so workers do not serialise). nullptr
// where the device has no memory pools. The table below only mirrors the driver's own
// process-wide default pools (one per device), filled once under call_once.
cudaMemPool_t ordered_pool() {
  constexpr int kMaxDevices = 64;
  static std::once_flag once[kMaxDevices];
  static cudaMemPool_t pools[kMaxDevices] = {};  // written once per device, under `once`
  const int dev = current_device();
  if (dev < 0 || dev >= kMaxDevices) return nullptr;
  std::call_once(once[dev], [dev] {
    int supported = 0;
    if (cudaDeviceGetAttribute(&supported, cudaDevAttrMemoryPoolsSupported, dev) != cudaSuccess || !supported) {
      cudaGetLastError();
      return;
    }
    cudaMemPool_t pool = nullptr;
    CUZK_CUDA_CHECK(cudaDeviceGetDefaultMemPool(&pool, dev));
    // Diagnostic: Tuning::pool_driver_defaults leaves the pool's attributes as the driver set
    // them (tools/device/gpu_hang_hunt.sh compares both).
    if (!memory_settings().fixed().pool_driver_defaults) {
      std::uint64_t keep = ~std::uint64_t{0};
      CUZK_CUDA_CHECK(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &keep));
      int no = 0;
      CUZK_CUDA_CHECK(cudaMemPoolSetAttribute(pool, cudaMemPoolReuseAllowInternalDependencies, &no));
    }
    pools[dev] = pool;
  });
  return pools[dev];
}

bool out_of_memory(cudaError_t e) {
  if (e != cudaErrorMemoryAllocation) return false;
  cudaGetLastError();  // not sticky: clear it before trying again
  return true;
}
}  // namespace

void release_cached_device_memory() {
  if (cudaMemPool_t pool = ordered_pool()) {
    CUZK_CUDA_CHECK(cudaDeviceSynchronize());  // frees still queued in streams land first
    CUZK_CUDA_CHECK(cudaMemPoolTrimTo(pool, 0));
  }
}

namespace {
// Diagnostic: Tuning::guard_bytes = N puts N bytes of 0xA5 after every stream-ordered
// allocation and checks them at its free (aborting with the size on a change), to find writes
// past a buffer's end that packed pool suballocations would expose.
std::size_t guard_bytes() { return memory_settings().fixed().guard_bytes; }
constexpr unsigned char kGuard = 0xA5;
}  // namespace

void* device_alloc(std::size_t bytes, DeviceAlloc how) {
  void* p = nullptr;
  if (bytes == 0) return nullptr;
  if (how == DeviceAlloc::kStreamOrdered && ordered_pool() != nullptr) {
    const std::size_t g = guard_bytes();
    cudaError_t e = cudaMallocAsync(&p, bytes + g, cudaStreamPerThread);
    if (out_of_memory(e)) {  // memory freed on other streams may not have been released yet
      CUZK_CUDA_CHECK(cudaDeviceSynchronize());
      e = cudaMallocAsync(&p, bytes + g, cudaStreamPerThread);
    }
    if (out_of_memory(e)) {
      // The pool's cache may hold the memory in freed blocks smaller than this request (a
      // proof's domain-sized arrays, freed before its larger MSM scratch): back to the driver,
      // which maps it again for this one.
      release_cached_device_memory();
      e = cudaMallocAsync(&p, bytes + g, cudaStreamPerThread);
    }
    CUZK_CUDA_CHECK(e);
    if (g) CUZK_CUDA_CHECK(cudaMemsetAsync(static_cast<unsigned char*>(p) + bytes, kGuard, g, cudaStreamPerThread));
    return p;
  }
  cudaError_t e = cudaMalloc(&p, bytes);
  if (out_of_memory(e) && ordered_pool() != nullptr) {  // the pool's cache may hold what is missing
    release_cached_device_memory();
    e = cudaMalloc(&p, bytes);
  }
  CUZK_CUDA_CHECK(e);
  return p;
}
void device_free(void* p, DeviceAlloc how, std::size_t bytes) noexcept {
  if (!p) return;
  if (const std::size_t g = guard_bytes(); g && bytes && how == DeviceAlloc::kStreamOrdered) {
    std::vector<unsigned char> back(g);
    if (cudaStreamSynchronize(cudaStreamPerThread) == cudaSuccess &&
        cudaMemcpy(back.data(), static_cast<unsigned char*>(p) + bytes, g, cudaMemcpyDeviceToHost) == cudaSuccess) {
      for (std::size_t i = 0; i < g; ++i)
        if (back[i] != kGuard) {
          std::fprintf(stderr, "cuzk: write past the end of a %zu-byte stream-ordered buffer (guard byte %zu)\n", bytes, i);
          std::abort();
        }
    }
  }
  // ordered_pool() was set up by the allocation (same device: buffers are freed where they
  // were allocated, DeviceGuard).
  bool ordered = false;
  try {
    ordered = how == DeviceAlloc::kStreamOrdered && ordered_pool() != nullptr;
  } catch (...) {
  }
  if (ordered ? cudaFreeAsync(p, cudaStreamPerThread) != cudaSuccess : cudaFree(p) != cudaSuccess) cudaGetLastError();
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
