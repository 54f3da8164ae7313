// Device memory (cuzk/gpu/runtime.hpp, memory_pool.hpp): plain and stream-ordered allocations,
// the settings and setup of the pools they come from (the devices' default pools, and the
// proofs' own, MemoryPool), and each thread's routing to its proof's pool (PoolScope).
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <mutex>
#include <stdexcept>
#include <utility>
#include <vector>

#include "cuzk/gpu/memory_pool.hpp"
#include "cuzk/gpu/runtime.hpp"
#include "check.cuh"

namespace cuzk::gpu {

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
bool pools_supported(int device) {
  int supported = 0;
  if (cudaDeviceGetAttribute(&supported, cudaDevAttrMemoryPoolsSupported, device) != cudaSuccess) {
    cudaGetLastError();
    return false;
  }
  return supported != 0;
}

// The policy of every pool cuzk allocates from: it keeps freed memory (release threshold: all
// of it) instead of returning it at every synchronisation, and an allocation never waits on
// another stream's pending free (no internal dependencies: the pool grows instead, so workers
// do not serialise). Diagnostic: Tuning::pool_driver_defaults leaves the pool's attributes as
// the driver set them (tools/device/gpu_hang_hunt.sh compares both).
void set_pool_policy(cudaMemPool_t pool) {
  if (memory_settings().fixed().pool_driver_defaults) return;
  std::uint64_t keep = ~std::uint64_t{0};
  CUZK_CUDA_CHECK(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &keep));
  int no = 0;
  CUZK_CUDA_CHECK(cudaMemPoolSetAttribute(pool, cudaMemPoolReuseAllowInternalDependencies, &no));
}

// The current device's default memory pool, set up once per device (set_pool_policy) for the
// stream-ordered buffers of threads outside a PoolScope. nullptr where the device has no memory
// pools. The table below only mirrors the driver's own
// process-wide default pools (one per device), filled once under call_once.
cudaMemPool_t ordered_pool() {
  constexpr int kMaxDevices = 64;
  static std::once_flag once[kMaxDevices];
  static cudaMemPool_t pools[kMaxDevices] = {};  // written once per device, under `once`
  const int dev = current_device();
  if (dev < 0 || dev >= kMaxDevices) return nullptr;
  std::call_once(once[dev], [dev] {
    if (!pools_supported(dev)) return;
    cudaMemPool_t pool = nullptr;
    CUZK_CUDA_CHECK(cudaDeviceGetDefaultMemPool(&pool, dev));
    set_pool_policy(pool);
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
// This thread's stream drained, then the current device's default pool trimmed: what an
// allocation outside a PoolScope does when the device is full, without stalling other threads.
void release_default_pool_idle_memory() {
  if (ordered_pool() == nullptr) return;
  stream_synchronize();
  trim_default_pool(current_device());
}
}  // namespace

namespace {
// Diagnostic: Tuning::guard_bytes = N puts N bytes of 0xA5 after every stream-ordered
// allocation and checks them at its free (aborting with the size on a change), to find writes
// past a buffer's end that packed pool suballocations would expose.
std::size_t guard_bytes() { return memory_settings().fixed().guard_bytes; }
constexpr unsigned char kGuard = 0xA5;
}  // namespace

namespace {
// The calling thread's pool (PoolScope): per thread, as the current device is.
thread_local MemoryPool* t_pool = nullptr;

// Writes the guard bytes after a fresh stream-ordered allocation.
void* guarded(void* p, std::size_t bytes, std::size_t g) {
  if (g) CUZK_CUDA_CHECK(cudaMemsetAsync(static_cast<unsigned char*>(p) + bytes, kGuard, g, cudaStreamPerThread));
  return p;
}

// The default pool's path, for threads outside a PoolScope (one proof at a time per device:
// benchmarks, tools; key uploads). Its fallback waits for this thread's stream only: other
// threads' proofs have lanes of their own, and a thread that frees default-pool memory drains
// its stream (StreamDrain) before it goes on.
void* default_pool_alloc(std::size_t bytes) {
  void* p = nullptr;
  const std::size_t g = guard_bytes();
  cudaError_t e = cudaMallocAsync(&p, bytes + g, cudaStreamPerThread);
  if (out_of_memory(e)) {
    // This thread's queued frees land, and the pool's cache (freed blocks smaller than this
    // request: a proof's domain-sized arrays, freed before its larger MSM scratch) goes back to
    // the driver, which maps it again for this one.
    release_default_pool_idle_memory();
    e = cudaMallocAsync(&p, bytes + g, cudaStreamPerThread);
  }
  CUZK_CUDA_CHECK(e);
  return guarded(p, bytes, g);
}
}  // namespace

MemoryPool::MemoryPool(int device, std::function<void()> reclaim) : device_(device), reclaim_(std::move(reclaim)) {
  if (!pools_supported(device)) return;
  cudaMemPoolProps props{};
  props.allocType = cudaMemAllocationTypePinned;
  props.handleTypes = cudaMemHandleTypeNone;
  props.location.type = cudaMemLocationTypeDevice;
  props.location.id = device;
  cudaMemPool_t pool = nullptr;
  CUZK_CUDA_CHECK(cudaMemPoolCreate(&pool, &props));
  try {
    set_pool_policy(pool);
  } catch (...) {
    cudaMemPoolDestroy(pool);
    throw;
  }
  pool_ = pool;
}

MemoryPool::~MemoryPool() {
  if (pool_ != nullptr && cudaMemPoolDestroy(static_cast<cudaMemPool_t>(pool_)) != cudaSuccess) cudaGetLastError();
}

void MemoryPool::trim() {
  if (pool_ == nullptr) return;
  stream_synchronize();  // this thread's frees into the pool land first
  CUZK_CUDA_CHECK(cudaMemPoolTrimTo(static_cast<cudaMemPool_t>(pool_), 0));
}

void MemoryPool::make_room() {
  trim();
  if (reclaim_) reclaim_();
}

void MemoryPool::trim_idle() {
  if (pool_ != nullptr) CUZK_CUDA_CHECK(cudaMemPoolTrimTo(static_cast<cudaMemPool_t>(pool_), 0));
}

std::size_t MemoryPool::reserved_bytes() const {
  if (pool_ == nullptr) return 0;
  std::uint64_t v = 0;
  CUZK_CUDA_CHECK(cudaMemPoolGetAttribute(static_cast<cudaMemPool_t>(pool_), cudaMemPoolAttrReservedMemCurrent, &v));
  return static_cast<std::size_t>(v);
}

void* MemoryPool::allocate(std::size_t bytes) {
  if (pool_ == nullptr) return nullptr;
  const auto pool = static_cast<cudaMemPool_t>(pool_);
  const std::size_t g = guard_bytes();
  void* p = nullptr;
  cudaError_t e = cudaMallocFromPoolAsync(&p, bytes + g, pool, cudaStreamPerThread);
  if (out_of_memory(e)) {  // this pool's freed blocks may be smaller than the request
    trim();
    e = cudaMallocFromPoolAsync(&p, bytes + g, pool, cudaStreamPerThread);
  }
  if (out_of_memory(e) && reclaim_) {  // memory nobody is proving with (idle lanes, default pool)
    reclaim_();
    e = cudaMallocFromPoolAsync(&p, bytes + g, pool, cudaStreamPerThread);
  }
  CUZK_CUDA_CHECK(e);
  return guarded(p, bytes, g);
}

PoolScope::PoolScope(MemoryPool* pool) : prev_(std::exchange(t_pool, pool)) {}
PoolScope::~PoolScope() { t_pool = prev_; }
MemoryPool* current_memory_pool() { return t_pool; }

void trim_default_pool(int device) {
  if (!pools_supported(device)) return;
  cudaMemPool_t pool = nullptr;
  CUZK_CUDA_CHECK(cudaDeviceGetDefaultMemPool(&pool, device));
  CUZK_CUDA_CHECK(cudaMemPoolTrimTo(pool, 0));
}

void* device_alloc(std::size_t bytes, DeviceAlloc how) {
  if (bytes == 0) return nullptr;
  if (how == DeviceAlloc::kStreamOrdered) {
    if (t_pool != nullptr)
      if (void* p = t_pool->allocate(bytes)) return p;
    if (ordered_pool() != nullptr) return default_pool_alloc(bytes);
  }
  void* p = nullptr;
  cudaError_t e = cudaMalloc(&p, bytes);
  if (out_of_memory(e) && ordered_pool() != nullptr) {  // a pool's cache may hold what is missing
    if (t_pool != nullptr) t_pool->make_room();
    else release_default_pool_idle_memory();
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

}  // namespace cuzk::gpu
