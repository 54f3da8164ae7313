#include "request_holds.hpp"

#include <utility>

#include "circuit.hpp"

namespace cuzk::engine {

std::uint64_t max_payload_bytes(const Circuit& c, bool from_zkey) {
  const std::string& id = c.id();
  if (is_post_circuit_id(id) || is_porep_circuit_id(id) || is_snap_circuit_id(id)) return kFilecoinRequestBytes;
  if (!from_zkey) return 0;
  // A version-2 .wtns: magic, version, section count; two section headers; section 1 (n8, the
  // prime, the count); section 2 (the values).
  const KeyShape& s = c.shape();
  return 12 + 2 * 12 + (4 + s.fr_bytes + 4) + s.num_vars * s.fr_bytes;
}

std::uint64_t request_payload_bytes(const ProofRequest& r) {
  std::uint64_t n = r.wtns.size();
  if (r.post)
    for (const auto& v : r.post->vanilla_proofs) n += v.size();
  if (r.porep) n += r.porep->c1.size();
  if (r.snap)
    for (const auto& p : r.snap->partition_proofs) n += p.size();
  return n;
}

RequestHolds::Hold::Hold(Hold&& o) noexcept : owner_(std::exchange(o.owner_, nullptr)), res_(std::move(o.res_)) {}

RequestHolds::Hold& RequestHolds::Hold::operator=(Hold&& o) noexcept {
  if (this != &o) {
    release();
    owner_ = std::exchange(o.owner_, nullptr);
    res_ = std::move(o.res_);
  }
  return *this;
}

void RequestHolds::Hold::release() noexcept {
  if (owner_ != nullptr) owner_->give_back(res_.bytes());
  owner_ = nullptr;
  res_.release();
}

void RequestHolds::Hold::shrink_to(std::uint64_t bytes) noexcept {
  if (owner_ == nullptr || bytes >= res_.bytes()) return;
  owner_->give_back(res_.bytes() - bytes);
  res_.shrink_to(bytes);
}

std::optional<RequestHolds::Hold> RequestHolds::try_hold(std::uint64_t bytes, std::string* why) {
  if (bytes == 0) return Hold();
  std::lock_guard lk(m_);
  if (held_ + bytes > limit_) {
    *why = "the daemon cannot hold this request's " + std::to_string(bytes) + " bytes now: requests waiting to be proved hold " +
           std::to_string(held_) + " of the " + std::to_string(limit_) +
           " bytes of host_budget_bytes left beside the largest job's key and witness";
    return std::nullopt;
  }
  std::optional<Reservation> res = budget_.try_reserve(PoolId::host(), bytes);
  if (!res) {
    *why = "the host budget has no room for this request's " + std::to_string(bytes) + " bytes now (" +
           std::to_string(budget_.reserved(PoolId::host())) + " of " + std::to_string(budget_.capacity(PoolId::host())) +
           " bytes reserved)";
    return std::nullopt;
  }
  held_ += bytes;
  return Hold(this, std::move(*res));
}

std::uint64_t RequestHolds::held() const {
  std::lock_guard lk(m_);
  return held_;
}

void RequestHolds::give_back(std::uint64_t bytes) noexcept {
  std::lock_guard lk(m_);
  held_ -= bytes;
}

}  // namespace cuzk::engine
