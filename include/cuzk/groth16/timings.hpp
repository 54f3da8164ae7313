// Per-phase wall-clock timings of one proof; they travel with the result.
#pragma once

#include <atomic>
#include <chrono>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace cuzk::groth16 {

// Thrown at a phase boundary when the proof's cancel flag is set.
class Cancelled : public std::runtime_error {
 public:
  Cancelled() : std::runtime_error("cancelled") {}
};

struct PhaseTimings {
  // (phase name, milliseconds) in the order the phases ran, e.g. "eval_abc", "h", "msm_a".
  std::vector<std::pair<std::string, double>> phases;
  // Optional cancellation flag, owned by the caller. Every phase boundary (each
  // ScopedPhase it starts) is a cancellation point: a set flag throws Cancelled there.
  const std::atomic<bool>* cancel = nullptr;

  void check_cancel() const {
    if (cancel != nullptr && cancel->load(std::memory_order_relaxed)) throw Cancelled();
  }

  void add(std::string name, double ms) { phases.emplace_back(std::move(name), ms); }
  double get(const std::string& name) const {
    double total = 0;
    for (const auto& [n, ms] : phases)
      if (n == name) total += ms;
    return total;
  }
};

// Times a scope into a PhaseTimings entry.
class ScopedPhase {
 public:
  // Throws Cancelled (before timing anything) when t's cancel flag is set.
  ScopedPhase(PhaseTimings& t, std::string name) : t_(t), name_(std::move(name)), start_(std::chrono::steady_clock::now()) {
    t_.check_cancel();
  }
  ~ScopedPhase() {
    auto d = std::chrono::steady_clock::now() - start_;
    t_.add(std::move(name_), std::chrono::duration<double, std::milli>(d).count());
  }
  ScopedPhase(const ScopedPhase&) = delete;
  ScopedPhase& operator=(const ScopedPhase&) = delete;

 private:
  PhaseTimings& t_;
  std::string name_;
  std::chrono::steady_clock::time_point start_;
};

}  // namespace cuzk::groth16
