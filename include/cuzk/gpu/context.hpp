// One device's GPU context: what the proofs on a device share and none of them owns. The
// engine's CUDA devices make one per device and hand it to every proof there (CudaBackend);
// a program that proves on its own lets its backend make one.
//   - The device and its tuning (tuning.hpp).
//   - Two bounded executors (executor.hpp) whose threads run on the device: tasks() for a
//     proof's side-thread MSMs and its chunk uploads, copies() for the host copies of staged
//     uploads. Tasks may wait for copies, never the other way round.
//   - The memory of the proofs: each proof (or batch) running on the device leases a lane, a
//     stream-ordered pool no other running proof uses (memory_pool.hpp). What a proof frees
//     stays in its lane's cache for the next proof of the same key and batch size; a lease of
//     another kind finds the cache returned to the driver first. So a lane in use holds what
//     its proof needs (what the engine reserved for it), and the only memory an allocation may
//     take back from others, when the device is full, is that of idle lanes (reclaim_idle).
//     Nothing a proof does to its memory synchronises the device or empties another's cache.
// Plain C++ (no CUDA headers).
#pragma once

#include <cstddef>
#include <memory>
#include <mutex>
#include <vector>

#include "cuzk/gpu/executor.hpp"
#include "cuzk/gpu/memory_pool.hpp"
#include "cuzk/gpu/tuning.hpp"

namespace cuzk::gpu {

class DeviceContext {
 public:
  // Threads per proof that may run at once: three side-thread MSMs (or a batch's two uploads);
  // the three host copies beside the caller's own quarter of a staged upload.
  static constexpr std::size_t kTaskThreadsPerProof = 3;
  static constexpr std::size_t kCopyThreadsPerProof = 3;

  // `proofs`: how many proofs may run on the device at once (the engine's workers per device;
  // 1 for a program that proves one thing at a time); it sizes the executors. Throws CudaError
  // for a device that cannot be selected, std::invalid_argument for proofs = 0.
  DeviceContext(int device, const Tuning& tuning = {}, std::size_t proofs = 1);
  ~DeviceContext();  // after every lease and every proof that uses it
  DeviceContext(const DeviceContext&) = delete;
  DeviceContext& operator=(const DeviceContext&) = delete;

  int device() const { return device_; }
  const Tuning& tuning() const { return tuning_; }
  Executor& tasks() { return tasks_; }
  Executor& copies() { return copies_; }

  // What a lane last served: the cache is kept for a lease of the same kind.
  struct LaneUse {
    const void* key = nullptr;  // the DeviceProvingKey
    std::size_t key_bytes = 0;  // its bytes(): tells a later key at the same address apart
    std::size_t proofs = 0;     // the batch size (a batch's scratch differs from one proof's)
    bool operator==(const LaneUse&) const = default;
  };
  class Lane;
  // A lane held by one proof or batch: its allocations go to memory() (PoolScope). The holder
  // drains its streams (StreamDrain) before the lease ends, so an idle lane has no pending free.
  class Lease {
   public:
    Lease(Lease&& o) noexcept;
    Lease& operator=(Lease&&) = delete;
    Lease(const Lease&) = delete;
    ~Lease();
    MemoryPool& memory();

   private:
    friend class DeviceContext;
    Lease(DeviceContext* c, Lane* l) : ctx_(c), lane_(l) {}
    DeviceContext* ctx_;
    Lane* lane_;
  };
  Lease lease(const LaneUse& use);
  // Returns the idle lanes' cached memory and the default pool's unused memory to the driver
  // without waiting for any stream (the lanes' MemoryPool reclaim).
  void reclaim_idle();
  std::size_t lanes() const;  // made so far: the most proofs that ran at once

 private:
  void give_back(Lane* l);

  int device_;
  Tuning tuning_;
  mutable std::mutex m_;
  std::vector<std::unique_ptr<Lane>> lanes_;
  // Destroyed in reverse: tasks_ first (its tasks may use copies_ and the lanes' pools), then
  // copies_, then the lanes.
  Executor copies_;
  Executor tasks_;
};

}  // namespace cuzk::gpu
