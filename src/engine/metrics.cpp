#include "metrics.hpp"

#include <fmt/format.h>

namespace cuzk::engine {

void Metrics::record(const ProofResult& r, bool request, bool phases) {
  std::lock_guard lk(m_);
  if (request) ++proofs_[{std::string(to_string(r.kind)), std::string(to_string(r.state))}];
  if (!phases || r.state != JobState::kSucceeded) return;
  for (const auto& t : r.timings) {
    Histogram& h = phases_[t.phase];
    const double s = t.ms / 1000.0;
    std::size_t b = 0;
    while (b < kBuckets.size() && s > kBuckets[b]) ++b;
    if (b < kBuckets.size()) ++h.counts[b];
    ++h.count;
    h.sum += s;
  }
}

void Metrics::rejected(ErrorCode code) {
  std::lock_guard lk(m_);
  ++rejected_[std::string(to_string(code))];
}

std::string Metrics::render(const StatusSnapshot& s) const {
  std::string o;
  auto head = [&](const char* name, const char* type, const char* help) {
    o += fmt::format("# HELP {} {}\n# TYPE {} {}\n", name, help, name, type);
  };
  std::lock_guard lk(m_);
  head("cuzk_proofs_total", "counter", "Finished proof requests by kind and final state.");
  for (const auto& [k, n] : proofs_) o += fmt::format("cuzk_proofs_total{{kind=\"{}\",state=\"{}\"}} {}\n", k.first, k.second, n);

  head("cuzk_rejected_total", "counter", "Requests refused at submit, by error code.");
  for (const auto& [code, n] : rejected_) o += fmt::format("cuzk_rejected_total{{code=\"{}\"}} {}\n", code, n);

  head("cuzk_queue_depth", "gauge", "Jobs queued (not yet dispatched) by priority.");
  for (const auto& q : s.queues) o += fmt::format("cuzk_queue_depth{{priority=\"{}\"}} {}\n", to_string(q.priority), q.depth);

  head("cuzk_jobs", "gauge", "Jobs in a running state.");
  o += fmt::format("cuzk_jobs{{state=\"synthesizing\"}} {}\ncuzk_jobs{{state=\"waiting_device\"}} {}\n"
                   "cuzk_jobs{{state=\"proving\"}} {}\n",
                   s.synthesizing, s.waiting_device, s.proving);

  head("cuzk_phase_duration_seconds", "histogram", "Duration of each phase of succeeded proofs.");
  for (const auto& [phase, h] : phases_) {
    std::uint64_t cum = 0;
    for (std::size_t b = 0; b < kBuckets.size(); ++b) {
      cum += h.counts[b];
      o += fmt::format("cuzk_phase_duration_seconds_bucket{{phase=\"{}\",le=\"{}\"}} {}\n", phase, kBuckets[b], cum);
    }
    o += fmt::format("cuzk_phase_duration_seconds_bucket{{phase=\"{}\",le=\"+Inf\"}} {}\n", phase, h.count);
    o += fmt::format("cuzk_phase_duration_seconds_sum{{phase=\"{}\"}} {}\n", phase, h.sum);
    o += fmt::format("cuzk_phase_duration_seconds_count{{phase=\"{}\"}} {}\n", phase, h.count);
  }

  head("cuzk_memory_reserved_bytes", "gauge", "Bytes reserved per memory pool (vram per device).");
  for (const auto& b : s.budgets) o += fmt::format("cuzk_memory_reserved_bytes{{pool=\"{}\"}} {}\n", b.name, b.reserved);
  for (const auto& d : s.devices)
    o += fmt::format("cuzk_memory_reserved_bytes{{pool=\"vram\",device=\"{}\"}} {}\n", d.index, d.vram_reserved);
  head("cuzk_memory_budget_bytes", "gauge", "Budget per memory pool (vram per device).");
  for (const auto& b : s.budgets) o += fmt::format("cuzk_memory_budget_bytes{{pool=\"{}\"}} {}\n", b.name, b.budget);
  for (const auto& d : s.devices)
    o += fmt::format("cuzk_memory_budget_bytes{{pool=\"vram\",device=\"{}\"}} {}\n", d.index, d.vram_budget);

  head("cuzk_keys_resident", "gauge", "Proving keys by fastest resident tier.");
  std::map<std::string, int> tiers{{"vram", 0}, {"pinned", 0}, {"host", 0}, {"mmap", 0}, {"disk", 0}};
  for (const auto& k : s.keys) ++tiers[k.tier];
  for (const auto& [tier, n] : tiers) o += fmt::format("cuzk_keys_resident{{tier=\"{}\"}} {}\n", tier, n);

  head("cuzk_device_proofs_total", "counter", "Proofs completed per device.");
  for (const auto& d : s.devices) o += fmt::format("cuzk_device_proofs_total{{device=\"{}\"}} {}\n", d.index, d.proofs);
  head("cuzk_device_failed_attempts_total", "counter",
       "Proof attempts per device that ended in a device fault (a batch counts once) or in a proof that did not "
       "verify (a witness that does not satisfy its circuit counts too).");
  for (const auto& d : s.devices) {
    o += fmt::format("cuzk_device_failed_attempts_total{{device=\"{}\",reason=\"device_fault\"}} {}\n", d.index, d.device_faults);
    o += fmt::format("cuzk_device_failed_attempts_total{{device=\"{}\",reason=\"not_verified\"}} {}\n", d.index,
                     d.failed_verifications);
  }
  head("cuzk_device_busy_workers", "gauge", "Workers proving now, per device.");
  for (const auto& d : s.devices) o += fmt::format("cuzk_device_busy_workers{{device=\"{}\"}} {}\n", d.index, d.busy_workers);
  return o;
}

}  // namespace cuzk::engine
