#include "status_json.hpp"

#include "names.hpp"

namespace cuzk::server {

nlohmann::json status_to_json(const v1::GetStatusResponse& s) {
  using nlohmann::json;
  json j;
  j["backend"] = s.backend();
  j["uptime_s"] = s.uptime_s();
  j["pid"] = s.pid();
  j["rss_bytes"] = s.rss_bytes();
  j["peak_rss_bytes"] = s.peak_rss_bytes();
  j["jobs"] = {{"synthesizing", s.synthesizing()}, {"waiting_device", s.waiting_device()}, {"proving", s.proving()},
               {"succeeded", s.succeeded()},       {"failed", s.failed()},                 {"cancelled", s.cancelled()}};
  j["devices"] = json::array();
  for (const auto& d : s.devices())
    j["devices"].push_back({{"index", d.index()},
                            {"name", d.name()},
                            {"vram_budget", d.vram_budget()},
                            {"vram_reserved", d.vram_reserved()},
                            {"workers", d.workers()},
                            {"busy_workers", d.busy_workers()},
                            {"proofs", d.proofs()},
                            {"device_faults", d.device_faults()},
                            {"failed_verifications", d.failed_verifications()}});
  j["keys"] = json::array();
  for (const auto& k : s.keys())
    j["keys"].push_back({{"circuit_id", k.circuit_id()},
                         {"curve", k.curve()},
                         {"tier", k.tier()},
                         {"host_bytes", k.host_bytes()},
                         {"pinned_bytes", k.pinned_bytes()},
                         {"mapped_bytes", k.mapped_bytes()},
                         {"vram_bytes", k.vram_bytes()},
                         {"layout", k.layout()},
                         {"devices", json(std::vector<int>(k.devices().begin(), k.devices().end()))},
                         {"refcount", k.refcount()},
                         {"proofs", k.proofs()}});
  j["queues"] = json::array();
  for (const auto& q : s.queues()) j["queues"].push_back({{"priority", priority_name(q.priority())}, {"depth", q.depth()}});
  j["budgets"] = json::array();
  for (const auto& b : s.budgets())
    j["budgets"].push_back({{"name", b.name()}, {"budget", b.budget()}, {"reserved", b.reserved()}});
  j["circuits"] = json::array();
  for (const auto& c : s.circuits()) {
    json kinds = json::array();
    for (int k : c.kinds()) kinds.push_back(kind_name(static_cast<v1::ProofKind>(k)));
    j["circuits"].push_back(
        {{"id", c.id()}, {"source", c.source()}, {"native", c.native()}, {"curve", c.curve()}, {"kinds", kinds}});
  }
  return j;
}

}  // namespace cuzk::server
