// The bytes of requests received and not yet parsed (a .wtns, a C1 output, vanilla proofs),
// counted in the host budget from the moment the daemon holds them (Engine::submit_received)
// until synthesis, where the job's witness reservation (which covers its .wtns) takes over.
// Together they stay within `limit`: the host budget less what the largest job needs to run
// (its key and witness), so queued requests can never keep a running job from its memory.
// Also how large a request may be for each circuit (the daemon's message limit comes from it).
#pragma once

#include <cstdint>
#include <mutex>
#include <optional>
#include <string>

#include "budget.hpp"
#include "cuzk/engine/types.hpp"

namespace cuzk::engine {

class Circuit;

// The largest payload (request_payload_bytes) circuit `c` takes: its .wtns exactly for a .zkey
// circuit, nothing for a native one (a seed), kFilecoinRequestBytes for a Filecoin kind.
std::uint64_t max_payload_bytes(const Circuit& c, bool from_zkey);
// A request's bulk bytes: .wtns, C1 output, vanilla and partition proofs.
std::uint64_t request_payload_bytes(const ProofRequest& r);
// Filecoin requests: a 32 GiB PoRep C1 output is about 36 MiB of JSON (64 GiB about the same), a
// WindowPoSt partition's 2,349 vanilla proofs about 60 MiB, a 64 GiB SnapDeals request about
// 20 MiB; this leaves room for each several times over.
inline constexpr std::uint64_t kFilecoinRequestBytes = 256ull << 20;

class RequestHolds {
 public:
  class Hold {
   public:
    Hold() = default;
    Hold(Hold&& o) noexcept;
    Hold& operator=(Hold&& o) noexcept;
    ~Hold() { release(); }
    void release() noexcept;
    void shrink_to(std::uint64_t bytes) noexcept;
    std::uint64_t bytes() const { return res_.bytes(); }

   private:
    friend class RequestHolds;
    Hold(RequestHolds* owner, Reservation res) : owner_(owner), res_(std::move(res)) {}
    RequestHolds* owner_ = nullptr;
    Reservation res_;
  };

  explicit RequestHolds(Budget& budget) : budget_(budget) {}
  void set_limit(std::uint64_t limit) { limit_ = limit; }
  std::uint64_t limit() const { return limit_; }
  // Holds `bytes` now (never waits; idle keys may be evicted for them), or nullopt with the
  // reason in *why.
  std::optional<Hold> try_hold(std::uint64_t bytes, std::string* why);
  std::uint64_t held() const;

 private:
  void give_back(std::uint64_t bytes) noexcept;

  Budget& budget_;
  std::uint64_t limit_ = 0;
  mutable std::mutex m_;
  std::uint64_t held_ = 0;
};

}  // namespace cuzk::engine
