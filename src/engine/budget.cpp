#include "budget.hpp"

#include <stdexcept>
#include <utility>

#include "cuzk/groth16/timings.hpp"
#include "errors.hpp"

namespace cuzk::engine {

Reservation::Reservation(Reservation&& o) noexcept
    : budget_(std::exchange(o.budget_, nullptr)), pool_(o.pool_), bytes_(std::exchange(o.bytes_, 0)) {}

Reservation& Reservation::operator=(Reservation&& o) noexcept {
  if (this != &o) {
    release();
    budget_ = std::exchange(o.budget_, nullptr);
    pool_ = o.pool_;
    bytes_ = std::exchange(o.bytes_, 0);
  }
  return *this;
}

void Reservation::release() noexcept {
  if (budget_ != nullptr) std::exchange(budget_, nullptr)->give_back(pool_, std::exchange(bytes_, 0));
}

void Reservation::shrink_to(std::uint64_t bytes) noexcept {
  if (budget_ == nullptr || bytes >= bytes_) return;
  const std::uint64_t excess = bytes_ - bytes;
  bytes_ = bytes;
  budget_->give_back(pool_, excess);
}

Budget::Budget(std::uint64_t host, std::uint64_t pinned, std::vector<std::uint64_t> vram) {
  pools_.push_back({host, 0});
  pools_.push_back({pinned, 0});
  for (auto v : vram) pools_.push_back({v, 0});
}

void Budget::set_reclaimer(Reclaimer r) {
  std::lock_guard lk(m_);
  reclaimer_ = std::move(r);
}

std::string Budget::pool_name(PoolId p) {
  if (p.index == 0) return "host";
  if (p.index == 1) return "pinned";
  return "vram[" + std::to_string(p.device()) + "]";
}

Budget::Pool& Budget::at(PoolId p) {
  if (p.index < 0 || static_cast<std::size_t>(p.index) >= pools_.size()) throw std::out_of_range("budget: no such pool");
  return pools_[static_cast<std::size_t>(p.index)];
}
const Budget::Pool& Budget::at(PoolId p) const { return const_cast<Budget*>(this)->at(p); }

bool Budget::take_locked(PoolId p, std::uint64_t bytes) {
  Pool& pool = at(p);
  if (pool.capacity - pool.reserved < bytes) return false;
  pool.reserved += bytes;
  return true;
}

void Budget::give_back(PoolId p, std::uint64_t bytes) noexcept {
  {
    std::lock_guard lk(m_);
    pools_[static_cast<std::size_t>(p.index)].reserved -= bytes;
  }
  cv_.notify_all();
}

Reservation Budget::reserve(PoolId p, std::uint64_t bytes, const std::atomic<bool>* cancel) {
  std::unique_lock lk(m_);
  if (bytes > at(p).capacity)
    throw BudgetExhausted("needs " + std::to_string(bytes) + " bytes of " + pool_name(p) + " but its budget is " +
                          std::to_string(at(p).capacity));
  for (;;) {
    if (cancel != nullptr && cancel->load()) throw groth16::Cancelled();
    if (take_locked(p, bytes)) return Reservation(this, p, bytes);
    const std::uint64_t deficit = bytes - (at(p).capacity - at(p).reserved);
    Reclaimer reclaim = reclaimer_;
    lk.unlock();  // the reclaimer releases reservations (which lock m_)
    const std::uint64_t freed = reclaim ? reclaim(p, deficit) : 0;
    lk.lock();
    if (freed > 0) continue;
    // Releases notify; the timeout re-runs the reclaimer for keys whose last user left.
    cv_.wait_for(lk, std::chrono::milliseconds(20));
  }
}

std::optional<Reservation> Budget::try_reserve(PoolId p, std::uint64_t bytes, Reclaim may_reclaim) {
  std::unique_lock lk(m_);
  if (bytes > at(p).capacity) return std::nullopt;
  for (;;) {
    if (take_locked(p, bytes)) return Reservation(this, p, bytes);
    if (may_reclaim == Reclaim::kNo) return std::nullopt;
    const std::uint64_t deficit = bytes - (at(p).capacity - at(p).reserved);
    Reclaimer reclaim = reclaimer_;
    lk.unlock();
    const std::uint64_t freed = reclaim ? reclaim(p, deficit) : 0;
    lk.lock();
    if (freed == 0) return std::nullopt;
  }
}

std::uint64_t Budget::capacity(PoolId p) const {
  std::lock_guard lk(m_);
  return at(p).capacity;
}

std::uint64_t Budget::reserved(PoolId p) const {
  std::lock_guard lk(m_);
  return at(p).reserved;
}

}  // namespace cuzk::engine
