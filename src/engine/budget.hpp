// Memory reservations: reserve before allocating, release on every path (RAII).
//
// Pools: "host" (keys in RAM + per-job working memory), "pinned" (staging buffers, cuda),
// and one "vram" pool per (real or simulated) device. reserve() waits until the bytes fit;
// while it waits it asks the reclaimer (the key manager: evict least-recently-used keys
// nobody holds) to make room. A request larger than the pool's whole budget can never fit
// and throws BudgetExhausted at once. Waiting is cancellable through the job's flag
// (groth16::Cancelled).
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace cuzk::engine {

struct PoolId {
  int index = 0;  // 0 host, 1 pinned, 2 + d: vram of device d
  static PoolId host() { return {0}; }
  static PoolId pinned() { return {1}; }
  static PoolId vram(int device) { return {2 + device}; }
  bool is_vram() const { return index >= 2; }
  int device() const { return index - 2; }
  bool operator==(const PoolId&) const = default;
};

class Budget;

// Owns `bytes` of one pool until destroyed, released or moved from.
class Reservation {
 public:
  Reservation() = default;
  Reservation(Reservation&& o) noexcept;
  Reservation& operator=(Reservation&& o) noexcept;
  Reservation(const Reservation&) = delete;
  Reservation& operator=(const Reservation&) = delete;
  ~Reservation() { release(); }

  void release() noexcept;
  // Gives back what exceeds `bytes` (no-op when it holds no more).
  void shrink_to(std::uint64_t bytes) noexcept;
  std::uint64_t bytes() const { return bytes_; }
  PoolId pool() const { return pool_; }
  explicit operator bool() const { return budget_ != nullptr; }

 private:
  friend class Budget;
  Reservation(Budget* b, PoolId p, std::uint64_t bytes) : budget_(b), pool_(p), bytes_(bytes) {}
  Budget* budget_ = nullptr;
  PoolId pool_;
  std::uint64_t bytes_ = 0;
};

class Budget {
 public:
  // Returns the bytes it freed in `pool` (0: nothing could be freed now).
  using Reclaimer = std::function<std::uint64_t(PoolId pool, std::uint64_t deficit)>;

  Budget(std::uint64_t host, std::uint64_t pinned, std::vector<std::uint64_t> vram);

  void set_reclaimer(Reclaimer r);
  // Waits until `bytes` fit; throws BudgetExhausted if they never can, groth16::Cancelled
  // when *cancel becomes true while waiting.
  Reservation reserve(PoolId pool, std::uint64_t bytes, const std::atomic<bool>* cancel = nullptr);
  // Reserves only if the bytes fit now (after reclaiming, unless Reclaim::kNo); never waits.
  enum class Reclaim { kYes, kNo };
  std::optional<Reservation> try_reserve(PoolId pool, std::uint64_t bytes, Reclaim reclaim = Reclaim::kYes);

  std::uint64_t capacity(PoolId pool) const;
  std::uint64_t reserved(PoolId pool) const;
  int num_devices() const { return static_cast<int>(pools_.size()) - 2; }
  static std::string pool_name(PoolId pool);

 private:
  friend class Reservation;
  struct Pool {
    std::uint64_t capacity = 0, reserved = 0;
  };
  void give_back(PoolId pool, std::uint64_t bytes) noexcept;
  bool take_locked(PoolId pool, std::uint64_t bytes);
  Pool& at(PoolId pool);
  const Pool& at(PoolId pool) const;

  mutable std::mutex m_;
  std::condition_variable cv_;
  std::vector<Pool> pools_;
  Reclaimer reclaimer_;
};

}  // namespace cuzk::engine
