// Prometheus text exposition (format 0.0.4), written by hand: counters of finished proofs
// by kind and state and of requests refused at submit by code, per-phase duration histograms
// (recorded per finished job; a PoRep's per partition), and the
// gauges taken from a StatusSnapshot at render time (queue depth by priority, memory
// reserved vs budget per pool and device, keys resident by tier, jobs by state).
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <utility>

#include "cuzk/engine/types.hpp"

namespace cuzk::engine {

class Metrics {
 public:
  // A finished job: `request` counts it in cuzk_proofs_total (a whole request, or a group job:
  // a request proved as several partitions), `phases` adds its timings to the histograms (a
  // whole request, or one partition: the group's phases would count its partitions twice).
  void record(const ProofResult& r, bool request, bool phases);
  void rejected(ErrorCode code);  // a request refused at submit
  std::string render(const StatusSnapshot& s) const;

  static constexpr std::array<double, 14> kBuckets{0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25,
                                                   0.5,   1,     2.5,  5,     10,  30,  120};

 private:
  struct Histogram {
    std::array<std::uint64_t, kBuckets.size()> counts{};  // per bucket (not cumulative)
    std::uint64_t count = 0;
    double sum = 0;
  };
  mutable std::mutex m_;
  std::map<std::pair<std::string, std::string>, std::uint64_t> proofs_;  // (kind, state)
  std::map<std::string, Histogram> phases_;                              // seconds
  std::map<std::string, std::uint64_t> rejected_;                        // by error code
};

}  // namespace cuzk::engine
