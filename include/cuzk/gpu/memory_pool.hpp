// A stream-ordered memory pool of one device's proofs, one proof at a time (a device context's
// lane, context.hpp), and the scope that routes a thread's stream-ordered allocations to it.
//
// Without a scope, DeviceAlloc::kStreamOrdered buffers come from the device's default pool,
// which every thread shares (runtime.hpp). A proof inside a PoolScope takes them from its own
// pool instead, so that what it does to its memory touches no other proof:
//   - trim() returns the pool's unused memory to the driver once the calling thread's stream
//     has run its frees: it neither synchronises the device nor empties another proof's cache;
//   - an allocation that finds the device full trims its own pool, then asks reclaim (the
//     context: its idle lanes' pools and the default pool's completed frees), then fails with
//     CudaError. Other running proofs' memory is theirs: their reservations account for it.
// Plain C++ (no CUDA headers).
#pragma once

#include <cstddef>
#include <functional>

namespace cuzk::gpu {

class MemoryPool {
 public:
  // A pool of its own on `device`, kept as the default pool is (its freed memory cached for
  // the next allocations; Tuning::pool_driver_defaults as configure_device_memory set it).
  // Where the device has no memory pools, allocations in its scope take the default path.
  // reclaim: called when an allocation finds the device full after trimming this pool.
  explicit MemoryPool(int device, std::function<void()> reclaim = {});
  ~MemoryPool();  // the driver frees the pool once its last allocation is freed
  MemoryPool(const MemoryPool&) = delete;
  MemoryPool& operator=(const MemoryPool&) = delete;

  int device() const { return device_; }
  // Waits for the calling thread's stream, then returns the pool's unused memory to the
  // driver. Call it on the thread whose stream freed the pool's buffers.
  void trim();
  // The unused memory back to the driver without waiting for any stream (frees still queued
  // stay with the pool): for a pool no proof is using (the context's idle lanes).
  void trim_idle();
  // What an allocation that finds the device full does: trim(), then reclaim.
  void make_room();
  // Bytes the pool holds from the driver (in use or cached); 0 without pools.
  std::size_t reserved_bytes() const;

  // For device_alloc (device_memory.cu): bytes on the calling thread's stream, or nullptr
  // when the device has no pools (the caller then takes the default path).
  void* allocate(std::size_t bytes);

 private:
  int device_;
  void* pool_ = nullptr;  // cudaMemPool_t
  std::function<void()> reclaim_;
};

// For its lifetime, the calling thread's stream-ordered allocations come from `pool` (null:
// the default pool), and the previous routing is restored afterwards: per thread, as the
// current device is (DeviceGuard). A task run for a proof on another thread opens its own.
class PoolScope {
 public:
  explicit PoolScope(MemoryPool* pool);
  ~PoolScope();
  PoolScope(const PoolScope&) = delete;
  PoolScope& operator=(const PoolScope&) = delete;

 private:
  MemoryPool* prev_;
};

// The calling thread's pool (PoolScope), or null.
MemoryPool* current_memory_pool();

// The default pool of `device`: its unused memory back to the driver, waiting for no stream
// (frees still queued elsewhere stay with it). Unlike release_cached_device_memory (runtime.hpp),
// it stalls no other thread's proof.
void trim_default_pool(int device);

}  // namespace cuzk::gpu
