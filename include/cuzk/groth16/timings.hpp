// Per-phase wall-clock timings of one proof; they travel with the result.
#pragma once

#include <chrono>
#include <string>
#include <utility>
#include <vector>

namespace cuzk::groth16 {

struct PhaseTimings {
  // (phase name, milliseconds) in the order the phases ran, e.g. "eval_abc", "h", "msm_a".
  std::vector<std::pair<std::string, double>> phases;

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
  ScopedPhase(PhaseTimings& t, std::string name) : t_(t), name_(std::move(name)), start_(std::chrono::steady_clock::now()) {}
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
