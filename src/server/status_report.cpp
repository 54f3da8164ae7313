#include "status_report.hpp"

#include <unistd.h>

#include "convert.hpp"
#include "process_memory.hpp"

namespace cuzk::server {

void build_status(const engine::Engine& engine, pb::GetStatusResponse* out) {
  to_pb(engine.status(), out);
  const engine::EngineConfig& cfg = engine.config();
  for (const auto& c : cfg.circuits) {
    auto* p = out->add_circuits();
    p->set_id(c.id);
    p->set_source(c.zkey_path.empty() ? "native" : "zkey");
    p->set_native(c.native);
    if (!c.native.empty()) p->set_curve(std::string(r1cs::curve_name(c.curve)));
  }
  for (const auto& k : engine.status().keys) {
    const bool porep = engine::is_porep_circuit_id(k.circuit_id), snap = engine::is_snap_circuit_id(k.circuit_id);
    if (!porep && !snap && !engine::is_post_circuit_id(k.circuit_id)) continue;
    auto* p = out->add_circuits();
    p->set_id(k.circuit_id);
    p->set_source("filecoin");
    p->set_curve(k.curve);
    p->add_kinds(to_pb(porep                                 ? engine::ProofKind::kPorep
                       : snap                                 ? engine::ProofKind::kSnapDeals
                       : k.circuit_id.starts_with("winning-") ? engine::ProofKind::kWinningPost
                                                              : engine::ProofKind::kWindowPost));
  }
  out->set_pid(static_cast<std::int64_t>(::getpid()));
  if (const auto m = read_process_memory()) {
    out->set_rss_bytes(m->rss_bytes);
    out->set_peak_rss_bytes(m->peak_rss_bytes);
  }
}

}  // namespace cuzk::server
